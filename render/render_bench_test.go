//go:build bench

package render

// Measurements behind docs/benchmarks.md "Rendering". Run with the real corpus:
//
//	EDITAUDIT_CORPUS=/path/to/corpus go test -tags bench -run Bench -v -timeout 30m ./render
//
// They print numbers rather than assert speed (the machine is shared); the
// RSS check does assert that memory stays flat.

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/editaudit/editaudit/internal/testdoc"
	"github.com/editaudit/editaudit/pixeldiff"
)

// smallestOffice returns the n smallest docx/pptx/xlsx files of the corpus.
func smallestOffice(t *testing.T, n int) []string {
	root := testdoc.Corpus(t)
	var files []string
	for _, cf := range corpusFiles(t, root, "docx", "pptx", "xlsx") {
		files = append(files, cf.path)
		if len(files) == n {
			break
		}
	}
	return files
}

// TestBenchPoolVsSingle renders the 30 smallest real docx/pptx/xlsx files
// (conversion and rasterizing at 100 dpi) through the pool, then with one
// soffice process per file, in one run.
func TestBenchPoolVsSingle(t *testing.T) {
	soffice := requireSoffice(t)
	files := smallestOffice(t, 30)
	ctx := context.Background()
	rz := NewPdftoppm()
	rasterize := func(pdf string) (int, error) {
		n := 0
		err := rz.Rasterize(ctx, pdf, DefaultDPI, func(int, *pixeldiff.Raster, float64, float64) error { n++; return nil })
		return n, err
	}

	// Pool: all requests at once, default options (workers = min(NumCPU, 4)).
	la0, _ := os.ReadFile("/proc/loadavg")
	t0 := time.Now()
	pool, err := NewPool(ctx, PoolOptions{TempDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	t1 := time.Now()
	r := &Renderer{Converter: pool, Raster: rz}
	var wg sync.WaitGroup
	poolPages := make([]int, len(files))
	for i, f := range files {
		wg.Add(1)
		go func() {
			defer wg.Done()
			n, err := r.Render(ctx, f, func(int, *pixeldiff.Raster, float64, float64) error { return nil })
			if err != nil {
				t.Logf("pool: %s: %v", filepath.Base(f), err)
			}
			poolPages[i] = n
		}()
	}
	wg.Wait()
	poolTime := time.Since(t1)
	poolWithStart := time.Since(t0)
	st := pool.Stats()

	// One soffice per file, one after the other, sharing one initialised
	// profile (so first-start costs are not counted against it either).
	dir := t.TempDir()
	profile := filepath.Join(dir, "profile")
	if _, err := runSofficeForTest(ctx, soffice, []string{"--headless", "-env:UserInstallation=" + fileURL(profile), "--terminate_after_init"}); err != nil {
		t.Fatal(err)
	}
	singlePages := make([]int, len(files))
	var singleCPU time.Duration
	t2 := time.Now()
	for i, f := range files {
		out := filepath.Join(dir, fmt.Sprintf("out%d", i))
		c := filepath.Join(dir, fmt.Sprintf("in%d%s", i, filepath.Ext(f)))
		if err := copyFile(f, c); err != nil {
			t.Fatal(err)
		}
		cpu, err := runSofficeForTest(ctx, soffice, []string{"--headless", "--norestore", "-env:UserInstallation=" + fileURL(profile),
			"--convert-to", "pdf", "--outdir", out, c})
		singleCPU += cpu
		if err != nil {
			t.Logf("single: %s: %v", filepath.Base(f), err)
			continue
		}
		pdf := filepath.Join(out, fmt.Sprintf("in%d.pdf", i))
		if isNonEmptyFile(pdf) {
			singlePages[i], _ = rasterize(pdf)
		}
	}
	singleTime := time.Since(t2)

	total := 0
	for i := range files {
		total += poolPages[i]
		if poolPages[i] != singlePages[i] {
			t.Errorf("%s: pool %d pages, single %d", filepath.Base(files[i]), poolPages[i], singlePages[i])
		}
	}
	t.Logf("files=%d pages=%d cpus=%d", len(files), total, runtime.NumCPU())
	la, _ := os.ReadFile("/proc/loadavg")
	t.Logf("load average before/after: %s / %s", strings.TrimSpace(string(la0)), strings.TrimSpace(string(la)))
	t.Logf("pool (%d workers): %s wall (%s with pool start-up), LibreOffice CPU %s; %d LibreOffice runs",
		pool.opts.Workers, poolTime.Round(time.Millisecond), poolWithStart.Round(time.Millisecond), st.CPU.Round(time.Millisecond), st.Runs)
	t.Logf("one soffice per file: %s wall, LibreOffice CPU %s", singleTime.Round(time.Millisecond), singleCPU.Round(time.Millisecond))
	t.Logf("ratio: wall %.1fx (%.1fx counting pool start-up), LibreOffice CPU %.1fx",
		singleTime.Seconds()/poolTime.Seconds(), singleTime.Seconds()/poolWithStart.Seconds(), singleCPU.Seconds()/st.CPU.Seconds())
}

// TestBenchRasterizers measures the per-page cost of pdftoppm (stdout and
// temp-folder variants) and mutool on PDFs LibreOffice made from real files.
func TestBenchRasterizers(t *testing.T) {
	requireSoffice(t)
	root := testdoc.Corpus(t)
	var files []string
	for _, f := range []string{"docx", "pptx", "xlsx"} {
		cf := corpusFiles(t, root, f)
		for i := 0; i < len(cf) && i < 40; i += 8 { // a spread of sizes
			files = append(files, cf[i].path)
		}
	}
	ctx := context.Background()
	pool, err := NewPool(ctx, PoolOptions{TempDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	var pdfs []string
	for _, f := range files {
		pdf, err := pool.ConvertPDF(ctx, f)
		if err != nil {
			t.Logf("%s: %v", filepath.Base(f), err)
			continue
		}
		pdfs = append(pdfs, pdf)
	}
	rasterizers := []Rasterizer{NewPdftoppm(), &pdftoppmDir{tmp: t.TempDir()}, NewMutool()}
	for _, dpi := range []int{100, 150} {
		for _, rz := range rasterizers {
			best, bestCPU := time.Duration(1<<62), time.Duration(1<<62)
			pages := 0
			for rep := 0; rep < 5; rep++ {
				pages = 0
				c0 := cpuSelfAndChildren()
				t0 := time.Now()
				for _, pdf := range pdfs {
					if err := rz.Rasterize(ctx, pdf, dpi, func(int, *pixeldiff.Raster, float64, float64) error { pages++; return nil }); err != nil {
						t.Fatalf("%s %s: %v", rz.Name(), pdf, err)
					}
				}
				best = min(best, time.Since(t0))
				bestCPU = min(bestCPU, cpuSelfAndChildren()-c0)
			}
			t.Logf("%-16s %3d dpi: %d PDFs, %d pages; best of 5: wall %s = %.1f ms/page, CPU (this process + children) %s = %.1f ms/page",
				rz.Name(), dpi, len(pdfs), pages, best.Round(time.Millisecond), float64(best.Microseconds())/1000/float64(pages),
				bestCPU.Round(time.Millisecond), float64(bestCPU.Microseconds())/1000/float64(pages))
		}
	}
	// The same pages drawn by both: how far apart are they?
	var diffs []string
	for _, pdf := range pdfs[:min(4, len(pdfs))] {
		var a, b []*pixeldiff.Raster
		NewPdftoppm().Rasterize(ctx, pdf, 100, func(_ int, r *pixeldiff.Raster, _, _ float64) error { a = append(a, r); return nil })
		NewMutool().Rasterize(ctx, pdf, 100, func(_ int, r *pixeldiff.Raster, _, _ float64) error { b = append(b, r); return nil })
		for i := range min(len(a), len(b)) {
			if a[i].W != b[i].W || a[i].H != b[i].H {
				diffs = append(diffs, fmt.Sprintf("%dx%d vs %dx%d", a[i].W, a[i].H, b[i].W, b[i].H))
				continue
			}
			n := 0
			for k := range a[i].Pix {
				if d := int(a[i].Pix[k]) - int(b[i].Pix[k]); d > 32 || d < -32 {
					n++
				}
			}
			diffs = append(diffs, fmt.Sprintf("%.2f%%", 100*float64(n)/float64(len(a[i].Pix))))
		}
	}
	t.Logf("pdftoppm vs mutool, share of samples differing by more than 32: %s", strings.Join(diffs, " "))
	for _, pdf := range pdfs {
		os.Remove(pdf)
	}
}

// cpuSelfAndChildren is the user+system CPU time of this process and of
// its waited-for children so far (getrusage(2)).
func cpuSelfAndChildren() time.Duration {
	var self, kids syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &self)
	syscall.Getrusage(syscall.RUSAGE_CHILDREN, &kids)
	tv := func(t syscall.Timeval) time.Duration { return time.Duration(t.Nano()) }
	return tv(self.Utime) + tv(self.Stime) + tv(kids.Utime) + tv(kids.Stime)
}

// pdftoppmDir is the temp-folder variant of Pdftoppm: pdftoppm writes one
// PPM file per page, which are then read back (measured against stdout).
type pdftoppmDir struct{ tmp string }

func (p *pdftoppmDir) Name() string                   { return "pdftoppm-tmpdir" }
func (p *pdftoppmDir) Version(context.Context) string { return "" }
func (p *pdftoppmDir) Rasterize(ctx context.Context, pdf string, dpi int, each func(int, *pixeldiff.Raster, float64, float64) error) error {
	out, err := runOutput(ctx, time.Minute, "pdfinfo", "-f", "1", "-l", "1000000000", pdf)
	if err != nil {
		return err
	}
	sizes, err := parsePdfinfo(out)
	if err != nil {
		return err
	}
	dir, err := os.MkdirTemp(p.tmp, "ppm-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	if out, err := exec.CommandContext(ctx, "pdftoppm", "-r", strconv.Itoa(dpi), pdf, filepath.Join(dir, "p")).CombinedOutput(); err != nil {
		return fmt.Errorf("%v: %s", err, out)
	}
	names, _ := filepath.Glob(filepath.Join(dir, "p-*.ppm"))
	sort.Strings(names) // pdftoppm zero-pads page numbers to equal width
	for i, n := range names {
		f, err := os.Open(n)
		if err != nil {
			return err
		}
		r, err := pixeldiff.ReadPNM(bufio.NewReader(f))
		f.Close()
		if err != nil {
			return err
		}
		if err := each(i+1, r, sizes[i].w, sizes[i].h); err != nil {
			return err
		}
	}
	return nil
}

// rssKB is this process's resident set size (VmRSS) in KiB.
func rssKB(t *testing.T) int {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Skip("no /proc/self/status")
	}
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, "VmRSS:") {
			n, _ := strconv.Atoi(strings.Fields(l)[1])
			return n
		}
	}
	return 0
}

// TestBenchRSS renders 200 documents in a row (the 30 smallest, cycled,
// two at a time) and checks that the Go process's RSS stays flat.
func TestBenchRSS(t *testing.T) {
	requireSoffice(t)
	files := smallestOffice(t, 30)
	ctx := context.Background()
	pool, err := NewPool(ctx, PoolOptions{TempDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	r := &Renderer{Converter: pool, Raster: NewPdftoppm()}
	var samples []int
	var ms runtime.MemStats
	pages := 0
	start := time.Now()
	for i := 0; i < 200; i += 2 {
		var wg sync.WaitGroup
		var mu sync.Mutex
		for k := 0; k < 2; k++ {
			f := files[(i+k)%len(files)]
			wg.Add(1)
			go func() {
				defer wg.Done()
				n, err := r.Render(ctx, f, func(_ int, ra *pixeldiff.Raster, _, _ float64) error { return nil })
				if err != nil {
					t.Errorf("%s: %v", filepath.Base(f), err)
				}
				mu.Lock()
				pages += n
				mu.Unlock()
			}()
		}
		wg.Wait()
		if (i+2)%20 == 0 {
			runtime.ReadMemStats(&ms)
			samples = append(samples, rssKB(t))
			t.Logf("after %3d renders: RSS %6d KiB, heap in use %6d KiB, goroutines %d", i+2, samples[len(samples)-1], ms.HeapInuse/1024, runtime.NumGoroutine())
		}
	}
	t.Logf("200 renders, %d pages, in %s; pool stats %+v", pages, time.Since(start).Round(time.Millisecond), pool.Stats())
	// Flat: the last sample is within 20 MiB of the second (the first
	// includes warm-up).
	if len(samples) >= 2 && samples[len(samples)-1] > samples[1]+20*1024 {
		t.Errorf("RSS grew from %d KiB to %d KiB over 200 renders", samples[1], samples[len(samples)-1])
	}
}

// TestBenchWarmVsBatch converts the 30 smallest real docx/pptx/xlsx files
// (PDF only) through a warm pool and through a batch pool of the same
// workers, start-up included, alternating three times, and prints wall
// time and LibreOffice's CPU time (Stats.CPU) of each; page counts must
// agree.
func TestBenchWarmVsBatch(t *testing.T) {
	requireBridge(t)
	files := smallestOffice(t, 30)
	ctx := context.Background()
	type arm struct {
		name  string
		start func(context.Context, PoolOptions) (*Pool, error)
		wall  []time.Duration
		cpu   []time.Duration
		pages []int
	}
	arms := []*arm{{name: "batch", start: NewPool}, {name: "warm", start: NewWarmPool}}
	for rep := 0; rep < 3; rep++ {
		for _, a := range arms {
			t0 := time.Now()
			p, err := a.start(ctx, PoolOptions{TempDir: t.TempDir()})
			if err != nil {
				t.Fatal(err)
			}
			pages := make([]int, len(files))
			var wg sync.WaitGroup
			for i, f := range files {
				wg.Add(1)
				go func() {
					defer wg.Done()
					pdf, err := p.ConvertPDF(ctx, f)
					if err == nil {
						pages[i] = pdfinfoPageCountOrZero(pdf)
						os.Remove(pdf)
					}
				}()
			}
			wg.Wait()
			p.Close()
			a.wall = append(a.wall, time.Since(t0))
			a.cpu = append(a.cpu, p.Stats().CPU)
			if a.pages == nil {
				a.pages = pages
			}
		}
	}
	for i, f := range files {
		if arms[0].pages[i] != arms[1].pages[i] {
			t.Errorf("%s: batch %d pages, warm %d", filepath.Base(f), arms[0].pages[i], arms[1].pages[i])
		}
	}
	for _, a := range arms {
		t.Logf("%s: 30 files, start-up included: wall %v (median %s), LibreOffice CPU %v (median %s)", a.name, a.wall, median(a.wall), a.cpu, median(a.cpu))
	}
}

func median(d []time.Duration) time.Duration {
	s := append([]time.Duration(nil), d...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[len(s)/2].Round(time.Millisecond)
}
