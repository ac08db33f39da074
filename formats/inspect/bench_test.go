package inspect

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"testing"
	"time"

	"github.com/editaudit/editaudit/internal/testdoc"
)

// BenchmarkInspectTypical inspects three typical real files, one Word, one
// PowerPoint and one Excel document, from $EDITAUDIT_CORPUS (skips
// without it). Nearly all of the time is XML scanning. cpu-ms/op is
// reported besides wall time: the machine is shared.
func BenchmarkInspectTypical(b *testing.B) {
	dir := os.Getenv("EDITAUDIT_CORPUS")
	if dir == "" {
		b.Skip("EDITAUDIT_CORPUS not set")
	}
	for _, name := range []string{"docx/oxsdk_table-2007.docx", "pptx/oxsdk_typical-deck.pptx", "xlsx/onlyoffice_sample.xlsx"} {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			b.Fatal(err)
		}
		b.Run(filepath.Base(name), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			start := testdoc.CPUTime()
			for i := 0; i < b.N; i++ {
				if _, err := Bytes(context.Background(), data, name, Options{}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64((testdoc.CPUTime()-start).Microseconds())/1000/float64(b.N), "cpu-ms/op")
		})
	}
}

// BenchmarkCorpus inspects every real file of $EDITAUDIT_CORPUS (format
// folders and broken/) once per iteration: files/s, MB/s of input, the
// median file and the slowest one.
func BenchmarkCorpus(b *testing.B) {
	dir := os.Getenv("EDITAUDIT_CORPUS")
	if dir == "" {
		b.Skip("EDITAUDIT_CORPUS not set")
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*", "*"))
	var datas [][]byte
	var names []string
	var total int64
	for _, f := range files {
		d, err := os.ReadFile(f)
		if err != nil || filepath.Ext(f) == ".md" || filepath.Ext(f) == ".tsv" {
			continue
		}
		datas, names = append(datas, d), append(names, filepath.Base(f))
		total += int64(len(d))
	}
	b.SetBytes(total)
	per := make([]time.Duration, len(datas))
	start := testdoc.CPUTime()
	for i := 0; i < b.N; i++ {
		for j, d := range datas {
			t0 := time.Now()
			if _, err := Bytes(context.Background(), d, names[j], Options{}); err != nil {
				b.Fatal(err)
			}
			per[j] += time.Since(t0)
		}
	}
	b.ReportMetric(float64(len(datas)*b.N)/b.Elapsed().Seconds(), "files/s")
	b.ReportMetric(float64((testdoc.CPUTime()-start).Milliseconds())/float64(b.N), "cpu-ms/corpus")
	sorted := append([]time.Duration(nil), per...)
	sort.Slice(sorted, func(x, y int) bool { return sorted[x] < sorted[y] })
	b.ReportMetric(float64(sorted[len(sorted)/2].Microseconds())/1000/float64(b.N), "median-ms/file")
	slow := 0
	for j := range per {
		if per[j] > per[slow] {
			slow = j
		}
	}
	b.ReportMetric(float64(per[slow].Milliseconds())/float64(b.N), "slowest-ms")
	b.Logf("%d files, %.1f MB; slowest: %s", len(datas), float64(total)/1e6, names[slow])
}
