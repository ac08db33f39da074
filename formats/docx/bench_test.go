package docx_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/editaudit/editaudit/formats/inspect"
)

// benchFile inspects one real file b.N times through inspect.Bytes (the
// whole check: package reading, the Word scan, the package-level checks).
func benchFile(b *testing.B, name string) {
	data, err := os.ReadFile(filepath.Join(corpusDir(b), "docx", name))
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := inspect.Bytes(context.Background(), data, name, inspect.Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkInspectTypical: a typical real document (35 KB, 8 tables,
// headers and footers).
func BenchmarkInspectTypical(b *testing.B) { benchFile(b, "oxsdk_consumer-confidence-report.docx") }

// BenchmarkInspectNested: tables nested up to depth 3 (53 KB).
func BenchmarkInspectNested(b *testing.B) { benchFile(b, "oxsdk_EventSchedulePlanner.dotx") }

// BenchmarkInspectLarge: 2,304 rows and 13,367 cells (475 KB).
func BenchmarkInspectLarge(b *testing.B) { benchFile(b, "poi_bug65649.docx") }
