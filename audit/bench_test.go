package audit_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/editaudit/editaudit/audit"
	"github.com/editaudit/editaudit/baseline"
	"github.com/editaudit/editaudit/internal/testdoc"
	"github.com/editaudit/editaudit/mutate"
	"github.com/editaudit/editaudit/render"
	"github.com/editaudit/editaudit/synth"
)

// fivePages builds a 5-page contract: the 3-page example, a page break and
// the first 9/16 of its body again (LibreOffice renders 5 pages).
func fivePages(b *testing.B) []byte {
	f, err := os.Open("../examples/specs/contract.json")
	if err != nil {
		b.Fatal(err)
	}
	spec, err := synth.ParseSpec(f)
	f.Close()
	if err != nil {
		b.Fatal(err)
	}
	body := spec.Docx.Body
	spec.Docx.Body = append(append(append([]synth.Block(nil), body...), synth.Block{PageBreak: true}), body[:len(body)*9/16]...)
	out, err := synth.Synthesize(spec)
	if err != nil {
		b.Fatal(err)
	}
	return out
}

// treeCPU is the CPU time (user+system) used so far by this process, its
// children it has waited for, and its live descendants (a warm
// LibreOffice and its bridge, read from /proc; Linux only: 0 elsewhere).
func treeCPU() time.Duration {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return 0
	}
	type proc struct {
		ppid  int
		ticks int64
	}
	procs := map[int]proc{}
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		i := bytes.LastIndexByte(b, ')')
		if i < 0 {
			continue
		}
		f := bytes.Fields(b[i+2:])
		if len(f) < 15 {
			continue
		}
		ppid, _ := strconv.Atoi(string(f[1]))
		var ticks int64
		for _, k := range []int{11, 12, 13, 14} { // utime stime cutime cstime
			n, _ := strconv.ParseInt(string(f[k]), 10, 64)
			ticks += n
		}
		procs[pid] = proc{ppid, ticks}
	}
	var ticks int64
	for pid, p := range procs {
		for q := pid; q > 1; q = procs[q].ppid {
			if q == os.Getpid() {
				ticks += p.ticks
				break
			}
			if _, ok := procs[q]; !ok {
				break
			}
		}
	}
	return time.Duration(ticks) * 10 * time.Millisecond // USER_HZ = 100
}

// BenchmarkAudit5PageDocx measures one audit of a one-word edit of a
// 5-page contract with rendering, cold (no baseline: the original is
// inspected and rendered too) and warm (its snapshot is in the store), on
// each engine: the warm pool (LibreOffice kept running behind its UNO
// listener) and the batch pool (a LibreOffice run per batch). The engines
// are started before the timing. cpu-ms/op is the CPU time of the whole
// process tree: this process, LibreOffice, its bridge, pdftoppm.
func BenchmarkAudit5PageDocx(b *testing.B) {
	if renderer == nil {
		testdoc.Missing(b, "LibreOffice (soffice)")
	}
	orig := fivePages(b)
	edited, err := mutate.Mutate("docx.word-replaced", orig)
	if err != nil {
		b.Fatal(err)
	}
	dir := b.TempDir()
	o, e := filepath.Join(dir, "o.docx"), filepath.Join(dir, "e.docx")
	os.WriteFile(o, orig, 0o644)
	os.WriteFile(e, edited, 0o644)
	ctx := context.Background()
	measure := func(b *testing.B, r *render.Renderer, st func() *baseline.Store) {
		c0 := treeCPU()
		for i := 0; i < b.N; i++ {
			res, err := audit.Files(ctx, o, e, audit.Options{Render: audit.RenderOn, Renderer: r, Store: st()})
			if err != nil || res.Pages.Status != audit.PagesOK {
				b.Fatal(err, res.Pages.Message)
			}
			b.ReportMetric(float64(res.Pages.Before), "pages")
		}
		b.ReportMetric(float64((treeCPU()-c0).Milliseconds())/float64(b.N), "cpu-ms/op")
	}
	for _, engine := range []string{render.EngineWarm, render.EngineBatch} {
		r, err := render.New(ctx, render.Config{Engine: engine, Pool: render.PoolOptions{Workers: 1}})
		if err != nil {
			b.Fatal(err)
		}
		b.Run(engine+"/cold", func(b *testing.B) {
			measure(b, r, func() *baseline.Store {
				st, _ := baseline.OpenStore(filepath.Join(b.TempDir(), "s"))
				return st
			})
		})
		st, _ := baseline.OpenStore(filepath.Join(dir, "store-"+engine))
		if _, err := audit.Files(ctx, o, e, audit.Options{Render: audit.RenderOn, Renderer: r, Store: st}); err != nil {
			b.Fatal(err)
		}
		b.Run(engine+"/warm", func(b *testing.B) { measure(b, r, func() *baseline.Store { return st }) })
		r.Close()
	}
	b.Run("no-render", func(b *testing.B) {
		st, _ := baseline.OpenStore(filepath.Join(dir, "store-off"))
		for i := 0; i < b.N; i++ {
			if _, err := audit.Files(ctx, o, e, audit.Options{Render: audit.RenderOff, Store: st}); err != nil {
				b.Fatal(err)
			}
		}
	})
}
