package inspect

import (
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// cpuTime is the CPU time this process has used (user and system, all
// threads, the garbage collector included).
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

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
			start := cpuTime()
			for i := 0; i < b.N; i++ {
				if _, err := Bytes(context.Background(), data, name, Options{}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64((cpuTime()-start).Microseconds())/1000/float64(b.N), "cpu-ms/op")
		})
	}
}
