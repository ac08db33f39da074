package synth_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/editaudit/editaudit/internal/testdoc"
	"github.com/editaudit/editaudit/synth"
	"github.com/editaudit/editaudit/synth/synthtest"
)

// BenchmarkBuild measures Build (check, write, self-check with the
// inspector; no LibreOffice) of a 50-page docx and a 10,000-row workbook,
// reporting CPU time per build next to wall time, and the process's peak
// resident memory (docs/benchmarks.md "Synthesis").
func BenchmarkBuild(b *testing.B) {
	for _, bc := range []struct {
		name string
		spec *synth.Spec
	}{{"docx-50-pages", synthtest.FiftyPages()}, {"xlsx-10000-rows", synthtest.TenThousandRows()}} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			ctx := context.Background()
			cpu := testdoc.CPUTime()
			var size int
			for i := 0; i < b.N; i++ {
				res, err := synth.Build(ctx, bc.spec, synth.BuildOptions{Options: synth.Options{Fixtures: true}})
				if err != nil {
					b.Fatal(err)
				}
				size = len(res.Data)
			}
			b.ReportMetric(float64((testdoc.CPUTime()-cpu)/time.Microsecond)/1000/float64(b.N), "cpu-ms/op")
			b.ReportMetric(float64(testdoc.MaxRSS())/(1<<20), "maxrss-MB")
			b.ReportMetric(float64(size)/(1<<10), "out-KB")
		})
	}
}

// TestWriteBenchSpecs writes the benchmark specs as JSON into the folder
// $EDITAUDIT_BENCH_SPECS, for scripts/bench-synth.sh to time the command;
// skipped otherwise.
func TestWriteBenchSpecs(t *testing.T) {
	dir := os.Getenv("EDITAUDIT_BENCH_SPECS")
	if dir == "" {
		t.Skip("EDITAUDIT_BENCH_SPECS names no folder")
	}
	for name, s := range map[string]*synth.Spec{"docx-50-pages": synthtest.FiftyPages(), "xlsx-10000-rows": synthtest.TenThousandRows()} {
		b, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name+".json"), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
