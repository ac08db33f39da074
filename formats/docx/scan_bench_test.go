package docx

import (
	"archive/zip"
	"bytes"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/editaudit/editaudit/formats"
)

// benchPart returns word/document.xml of a real file (skips without the
// corpus).
func benchPart(b *testing.B, name string) []byte {
	dir := os.Getenv("EDITAUDIT_CORPUS")
	if dir == "" {
		b.Skip("EDITAUDIT_CORPUS not set")
	}
	zr, err := zip.OpenReader(filepath.Join(dir, "docx", name))
	if err != nil {
		b.Fatal(err)
	}
	defer zr.Close()
	for _, f := range zr.File {
		if f.Name == "word/document.xml" {
			rc, _ := f.Open()
			data, err := io.ReadAll(rc)
			rc.Close()
			if err != nil {
				b.Fatal(err)
			}
			return data
		}
	}
	b.Fatal("no word/document.xml")
	return nil
}

// BenchmarkScanBare and BenchmarkScanWord scan the same 229 KB main part
// with no handler and with the Word handler: the difference is the cost of
// the counter and the checks, apart from XML tokenizing.
func BenchmarkScanBare(b *testing.B) { benchScan(b, false) }

// BenchmarkScanWord: see BenchmarkScanBare.
func BenchmarkScanWord(b *testing.B) { benchScan(b, true) }

func benchScan(b *testing.B, word bool) {
	data := benchPart(b, "oxsdk_consumer-confidence-report.docx")
	lim := formats.DefaultLimits()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		var h formats.Handler
		if word {
			h = newStoryHandler("word/document.xml", "body", 50, &docPrIndex{}, newIDIndex())
		}
		res := formats.ScanXML("word/document.xml", bytes.NewReader(data), lim, h)
		if !res.Complete {
			b.Fatal("incomplete scan")
		}
	}
}
