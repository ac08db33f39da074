package render

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/editaudit/editaudit/internal/testdoc"
	"github.com/editaudit/editaudit/pixeldiff"
)

// requireSoffice returns LibreOffice's program after checking that it and
// both rasterizers' programs are installed (testdoc.Tool: a skip, or a
// failure under CI=true).
func requireSoffice(t testing.TB) string {
	t.Helper()
	soffice := testdoc.Tool(t, "soffice")
	requireTools(t, "pdftoppm", "pdfinfo", "mutool")
	return soffice
}

// requireTools checks that each program is installed (testdoc.Tool).
func requireTools(t testing.TB, tools ...string) {
	t.Helper()
	for _, tool := range tools {
		testdoc.Tool(t, tool)
	}
}

// newTestPool starts a pool whose working folder is under the test's temp
// dir, closes it at the end of the test and checks that nothing is left:
// no process whose command line names the folder, no folder.
func newTestPool(t testing.TB, opts PoolOptions) *Pool {
	t.Helper()
	if opts.TempDir == "" {
		opts.TempDir = t.TempDir()
	}
	p, err := NewPool(context.Background(), opts)
	if err != nil {
		t.Fatalf("NewPool: %v", err)
	}
	t.Cleanup(func() {
		if err := p.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
		if _, err := os.Stat(p.root); !os.IsNotExist(err) {
			t.Errorf("working folder %s left behind (%v)", p.root, err)
		}
		if left := processesMentioning(p.root); len(left) > 0 {
			t.Errorf("processes left behind: %v", left)
		}
	})
	return p
}

// processesMentioning lists the processes whose command line contains s
// (a pool's working folder appears in every soffice it starts).
func processesMentioning(s string) []string {
	var out []string
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		if _, err := strconv.Atoi(e.Name()); err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err != nil || !bytes.Contains(b, []byte(s)) {
			continue
		}
		out = append(out, e.Name()+": "+strings.ReplaceAll(string(b), "\x00", " "))
	}
	return out
}

// pdfinfoPages is the page count poppler reads from a PDF.
func pdfinfoPageCount(t testing.TB, pdf string) int {
	t.Helper()
	out, err := exec.Command("pdfinfo", pdf).CombinedOutput()
	if err != nil {
		t.Fatalf("pdfinfo %s: %v: %s", pdf, err, out)
	}
	m := pdfinfoPages.FindSubmatch(out)
	if m == nil {
		t.Fatalf("pdfinfo %s: no page count: %s", pdf, out)
	}
	n, _ := strconv.Atoi(string(m[1]))
	return n
}

// libreOfficeOwnPages converts files with one plain `soffice --convert-to
// pdf` (LibreOffice's own PDF export, outside the pool) and returns each
// PDF's page count by pdfinfo. Inputs must have distinct base names.
func libreOfficeOwnPages(t testing.TB, soffice string, files []string) map[string]int {
	t.Helper()
	dir := t.TempDir()
	outdir := filepath.Join(dir, "out")
	args := []string{"--headless", "--norestore", "-env:UserInstallation=" + fileURL(filepath.Join(dir, "profile")),
		"--convert-to", "pdf", "--outdir", outdir}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if _, err := runSofficeForTest(ctx, soffice, append(args, files...)); err != nil {
		t.Fatalf("soffice --convert-to: %v", err)
	}
	pages := map[string]int{}
	for _, f := range files {
		pdf := filepath.Join(outdir, strings.TrimSuffix(filepath.Base(f), filepath.Ext(f))+".pdf")
		pages[f] = pdfinfoPageCount(t, pdf)
	}
	return pages
}

// runSofficeForTest runs soffice in its own process group, killed with it
// when ctx ends, under the locale the pool pins (sofficeEnv). It returns
// the CPU time the run used.
func runSofficeForTest(ctx context.Context, soffice string, args []string) (time.Duration, error) {
	cmd := exec.CommandContext(ctx, soffice, args...)
	cmd.Env = sofficeEnv("")
	setProcessGroup(cmd)
	cmd.Cancel = func() error { killGroup(cmd); return nil }
	cmd.WaitDelay = 2 * time.Second
	out, err := cmd.CombinedOutput()
	killGroup(cmd)
	var cpu time.Duration
	if ps := cmd.ProcessState; ps != nil {
		cpu = ps.UserTime() + ps.SystemTime()
	}
	if err != nil {
		return cpu, fmt.Errorf("%v: %s", err, out)
	}
	return cpu, nil
}

// generatedDocs writes a few generated documents into dir: two named
// contract.docx (one of three pages, one of a flowing text), a workbook, a
// deck, a docx without an extension and one named .xlsx.
func generatedDocs(t testing.TB, dir string) []string {
	t.Helper()
	var lorem []string
	for i := 0; i < 60; i++ {
		lorem = append(lorem, fmt.Sprintf("Paragraph %d of a contract that runs over more than one page.", i+1))
	}
	docs := map[string]map[string]string{
		"a/contract.docx": docxParts([]string{"Contract A", "Clause 1."}, []string{"Page two"}, []string{"Page three"}),
		"b/contract.docx": docxParts(lorem),
		"report.xlsx":     xlsxParts([][]string{{"Item", "Amount"}, {"Paper", "12"}, {"Ink", "40"}}),
		"deck.pptx":       pptxParts("First slide", "Second slide", "Third slide"),
		"no-extension":    docxParts([]string{"A docx without an extension"}),
		"wrong.xlsx":      docxParts([]string{"A docx named .xlsx"}),
	}
	var files []string
	for name, parts := range docs {
		files = append(files, writeZip(t, filepath.Join(dir, name), parts, false))
	}
	return files
}

type renderedDoc struct {
	pages  int
	hashes []string
	sizes  [][2]float64
	err    error
}

// renderAll renders files concurrently (so the pool batches them) and
// returns per file the page count and the sha256 of each page's pixels.
func renderAll(t testing.TB, r *Renderer, files []string) map[string]renderedDoc {
	t.Helper()
	var mu sync.Mutex
	res := map[string]renderedDoc{}
	var wg sync.WaitGroup
	for _, f := range files {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var d renderedDoc
			n, err := r.Render(context.Background(), f, func(page int, ra *pixeldiff.Raster, w, h float64) error {
				if page != len(d.hashes)+1 {
					return fmt.Errorf("page %d out of order", page)
				}
				if ra.W <= 0 || ra.H <= 0 || len(ra.Pix) != 3*ra.W*ra.H {
					return fmt.Errorf("page %d: bad raster %dx%d/%d", page, ra.W, ra.H, len(ra.Pix))
				}
				sum := sha256.Sum256(ra.Pix)
				d.hashes = append(d.hashes, hex.EncodeToString(sum[:8]))
				d.sizes = append(d.sizes, [2]float64{w, h})
				return nil
			})
			d.pages, d.err = n, err
			mu.Lock()
			res[f] = d
			mu.Unlock()
		}()
	}
	wg.Wait()
	return res
}

// TestRenderGenerated renders generated docx, xlsx and pptx files (two of
// them called contract.docx) through one pool: page counts equal
// LibreOffice's own PDF export, a second render gives identical rasters,
// and the conversions were batched.
func TestRenderGenerated(t *testing.T) {
	soffice := requireSoffice(t)
	dir := t.TempDir()
	files := generatedDocs(t, dir)
	// LibreOffice's own export needs distinct names and true extensions.
	var own []string
	ownOf := map[string]string{}
	for i, f := range files {
		ext, err := DetectFormat(f)
		if err != nil {
			t.Fatal(err)
		}
		c := filepath.Join(dir, "own", fmt.Sprintf("doc%d%s", i, ext))
		if err := os.MkdirAll(filepath.Dir(c), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := copyFile(f, c); err != nil {
			t.Fatal(err)
		}
		own = append(own, c)
		ownOf[f] = c
	}
	t0 := time.Now()
	want := libreOfficeOwnPages(t, soffice, own)
	t1 := time.Now()
	pool := newTestPool(t, PoolOptions{Workers: 2, BatchWindow: 100 * time.Millisecond})
	t2 := time.Now()
	// New with a given Converter: the default rasterizer, the DPI asked.
	r, err := New(context.Background(), Config{Converter: pool, DPI: 50})
	if err != nil {
		t.Fatal(err)
	}
	first := renderAll(t, r, files)
	t3 := time.Now()
	second := renderAll(t, r, files)
	t.Logf("own export %s, NewPool %s, render %s + %s", t1.Sub(t0), t2.Sub(t1), t3.Sub(t2), time.Since(t3))
	for _, f := range files {
		a, b := first[f], second[f]
		if a.err != nil || b.err != nil {
			t.Errorf("%s: render errors %v / %v", f, a.err, b.err)
			continue
		}
		if w := want[ownOf[f]]; a.pages != w {
			t.Errorf("%s: %d pages, LibreOffice's own export has %d", f, a.pages, w)
		}
		if strings.Join(a.hashes, ",") != strings.Join(b.hashes, ",") {
			t.Errorf("%s: two renders differ:\n%v\n%v", f, a.hashes, b.hashes)
		}
	}
	if a, b := first[filepath.Join(dir, "a/contract.docx")], first[filepath.Join(dir, "b/contract.docx")]; a.pages == b.pages && len(a.hashes) > 0 && a.hashes[0] == b.hashes[0] {
		t.Errorf("the two contract.docx files rendered the same: staged names collided")
	}
	if d := first[filepath.Join(dir, "deck.pptx")]; d.err == nil && (len(d.sizes) == 0 || d.sizes[0][0] != 720 || d.sizes[0][1] != 540) {
		t.Errorf("deck.pptx page size %v, want 720×540 pt", d.sizes)
	}
	st := pool.Stats()
	t.Logf("stats: %+v; want pages: %v", st, want)
	if st.Runs >= int64(2*len(files)) {
		t.Errorf("%d LibreOffice runs for %d conversions: not batched", st.Runs, 2*len(files))
	}
	tc := r.Toolchain(context.Background())
	if !strings.HasPrefix(tc.LibreOffice, "LibreOffice ") || !strings.HasPrefix(tc.Rasterizer, DefaultRasterizer().Name()+" ") || tc.DPI != 50 || tc.Fonts == "" {
		t.Errorf("toolchain incomplete: %+v", tc)
	}
}

// faultPool starts a pool running the fault-injecting wrapper in front of
// the real soffice.
func faultPool(t *testing.T, deadline time.Duration) *Pool {
	real := requireSoffice(t)
	t.Setenv("EDITAUDIT_REAL_SOFFICE", real)
	wrapper, err := filepath.Abs("testdata/soffice-faults.sh")
	if err != nil {
		t.Fatal(err)
	}
	return newTestPool(t, PoolOptions{SofficePath: wrapper, Workers: 1, Deadline: deadline, BatchWindow: 300 * time.Millisecond})
}

type convOutcome struct {
	err     error
	elapsed time.Duration
}

// convertConcurrently submits files at once (one batch, with Workers: 1)
// and returns each outcome; PDFs are removed.
func convertConcurrently(t *testing.T, p *Pool, files []string) map[string]convOutcome {
	t.Helper()
	var mu sync.Mutex
	res := map[string]convOutcome{}
	var wg sync.WaitGroup
	start := time.Now()
	for _, f := range files {
		wg.Add(1)
		go func() {
			defer wg.Done()
			pdf, err := p.ConvertPDF(context.Background(), f)
			if err == nil {
				if n := pdfinfoPageCountOrZero(pdf); n == 0 {
					err = &RenderError{Doc: f, Reason: ReasonZeroPages}
				}
				os.Remove(pdf)
			}
			mu.Lock()
			res[f] = convOutcome{err, time.Since(start)}
			mu.Unlock()
		}()
	}
	wg.Wait()
	return res
}

func pdfinfoPageCountOrZero(pdf string) int {
	out, _ := exec.Command("pdfinfo", pdf).CombinedOutput()
	if m := pdfinfoPages.FindSubmatch(out); m != nil {
		n, _ := strconv.Atoi(string(m[1]))
		return n
	}
	return 0
}

// TestPoolHangingConverter: a converter that hangs on one document (the
// wrapper converts the others, then blocks). The batch's other documents
// still convert, the hanging one is reported failed (timeout, quarantined)
// after being killed twice — in the batch, then alone — and no process is
// left behind. The documents around it are "converted" by the wrapper's
// fake (EDITAUDIT_FAKE_PDF) so that no real LibreOffice run, which a
// loaded machine can stretch past the short deadline, is supervised: the
// only process the deadline may kill is the hung one, and nothing here
// depends on wall time. A watchdog derived from the pool's own deadline
// fails the test, instead of hanging it, if the pool never gives up.
func TestPoolHangingConverter(t *testing.T) {
	const deadline = 3 * time.Second
	t.Setenv("EDITAUDIT_FAKE_PDF", onePagePDF(t))
	p := faultPool(t, deadline)
	dir := t.TempDir()
	files := []string{
		writeZip(t, filepath.Join(dir, "good1.docx"), docxParts([]string{"good one"}), true),
		writeZip(t, filepath.Join(dir, "hang.docx"), docxParts([]string{"HANG here"}), true),
		writeZip(t, filepath.Join(dir, "good2.docx"), docxParts([]string{"good two"}), true),
	}
	// The hung document costs at most the deadline stretched three times
	// (a busy process's extension), in two runs; far more than that is a
	// pool that never kills it.
	watchdog := time.AfterFunc(20*3*deadline, func() {
		p.Close() // unblocks every waiter with ErrClosed
	})
	res := convertConcurrently(t, p, files)
	if !watchdog.Stop() {
		t.Fatalf("the pool did not give up on the hanging document within 20× its longest deadline: %v", res)
	}
	for _, f := range []string{files[0], files[2]} {
		if res[f].err != nil {
			t.Errorf("%s: %v (the batch did not continue past the hanging document)", filepath.Base(f), res[f].err)
		}
	}
	h := res[files[1]]
	var re *RenderError
	if !errors.As(h.err, &re) || re.Reason != ReasonTimeout || !re.Quarantined || !errors.Is(h.err, ErrRenderFailed) {
		t.Fatalf("hang.docx: got %v, want a quarantined timeout RenderError", h.err)
	}
	// Killed at the deadline twice (in the batch, then alone): a count.
	if st := p.Stats(); st.Killed != 2 {
		t.Errorf("%d runs killed, want 2 (in the batch, then alone)", st.Killed)
	}
	t.Logf("hang reported after %s: %v; stats %+v", h.elapsed.Round(time.Millisecond), h.err, p.Stats())
	if left := processesMentioning(p.root); len(left) > 0 {
		t.Errorf("processes left behind while the pool is open: %v", left)
	}
	// The killed runs' temp folders are in the pool's folder (removed by
	// Close), not in the system's temp folder.
	if lu, _ := filepath.Glob(filepath.Join(p.tmpDir, "lu*")); len(lu) == 0 {
		t.Errorf("no LibreOffice temp folder under %s: TMPDIR not passed", p.tmpDir)
	}
	// Quarantined: a new request fails at once without running anything.
	runs := p.Stats().Runs
	if _, err := p.ConvertPDF(context.Background(), files[1]); !errors.As(err, &re) || !re.Quarantined {
		t.Errorf("second request for hang.docx: %v, want quarantined", err)
	}
	if p.Stats().Runs != runs {
		t.Errorf("a quarantined document ran LibreOffice again")
	}
}

// onePagePDF writes a valid one-page A4 PDF with nothing drawn on it
// into the test's temp folder.
func onePagePDF(t *testing.T) string {
	t.Helper()
	return writeTestPDF(t, filepath.Join(t.TempDir(), "one-page.pdf"), []testPage{{w: 595, h: 842}})
}

// TestPoolFaults: a converter that crashes (SIGSEGV, no PDF), one that
// produces no PDF, and one that produces a 0-page PDF, all in one batch
// with a healthy document.
func TestPoolFaults(t *testing.T) {
	p := faultPool(t, 20*time.Second)
	dir := t.TempDir()
	good := writeZip(t, filepath.Join(dir, "good.docx"), docxParts([]string{"fine"}), true)
	crash := writeZip(t, filepath.Join(dir, "crash.docx"), docxParts([]string{"CRASH"}), true)
	nopdf := writeZip(t, filepath.Join(dir, "nopdf.docx"), docxParts([]string{"NOPDF"}), true)
	zero := writeZip(t, filepath.Join(dir, "zero.docx"), docxParts([]string{"ZEROPAGE"}), true)
	res := convertConcurrently(t, p, []string{good, crash, nopdf, zero})
	if err := res[good].err; err != nil {
		t.Errorf("good.docx: %v", err)
	}
	tests := []struct {
		file        string
		reason      Reason
		quarantined bool
		detail      string
	}{
		{crash, ReasonCrash, true, "SIGSEGV"},
		{nopdf, ReasonNoPDF, true, "no PDF"},
		{zero, ReasonZeroPages, false, ""},
	}
	for _, tc := range tests {
		var re *RenderError
		err := res[tc.file].err
		if !errors.As(err, &re) || re.Reason != tc.reason || re.Quarantined != tc.quarantined || !strings.Contains(re.Error(), tc.detail) {
			t.Errorf("%s: got %v, want reason %s (quarantined %v, mentioning %q)", filepath.Base(tc.file), err, tc.reason, tc.quarantined, tc.detail)
		}
	}
	// The Renderer reports the 0-page PDF as ErrRenderFailed too.
	r := &Renderer{Converter: p, Raster: DefaultRasterizer(), DPI: 30}
	_, err := r.Render(context.Background(), zero, func(int, *pixeldiff.Raster, float64, float64) error { return nil })
	var re *RenderError
	if !errors.As(err, &re) || re.Reason != ReasonZeroPages {
		t.Errorf("Render(zero.docx): %v, want zero-pages", err)
	}
	t.Logf("stats %+v", p.Stats())
}

// TestPoolCancel: a caller that gives up while LibreOffice hangs gets its
// context error at once, and the hung run is killed because nobody waits.
func TestPoolCancel(t *testing.T) {
	p := faultPool(t, time.Minute)
	dir := t.TempDir()
	hang := writeZip(t, filepath.Join(dir, "hang.docx"), docxParts([]string{"HANG"}), true)
	ctx, cancel := context.WithTimeout(context.Background(), 1500*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := p.ConvertPDF(ctx, hang)
	if !errors.Is(err, context.DeadlineExceeded) || time.Since(start) > 3*time.Second {
		t.Fatalf("ConvertPDF: %v after %s, want DeadlineExceeded after ~1.5s", err, time.Since(start))
	}
	deadline := time.Now().Add(5 * time.Second)
	for len(processesMentioning(p.root)) > 0 && time.Now().Before(deadline) {
		time.Sleep(100 * time.Millisecond)
	}
	if left := processesMentioning(p.root); len(left) > 0 {
		t.Errorf("hung LibreOffice not killed after its only caller gave up: %v", left)
	}
}

// TestNoRenderer: a missing LibreOffice is ErrNoRenderer with a hint, never
// a hang.
func TestNoRenderer(t *testing.T) {
	tests := []struct {
		name string
		opts PoolOptions
		path string
	}{
		{"explicit path", PoolOptions{SofficePath: "/nonexistent/soffice"}, os.Getenv("PATH")},
		{"not in PATH", PoolOptions{}, t.TempDir()},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("PATH", tc.path)
			tc.opts.TempDir = t.TempDir()
			p, err := NewPool(context.Background(), tc.opts)
			if err == nil {
				p.Close()
				t.Fatal("NewPool succeeded without LibreOffice")
			}
			if !errors.Is(err, ErrNoRenderer) || !strings.Contains(err.Error(), "apt-get install libreoffice") || !strings.Contains(err.Error(), "--render off") {
				t.Errorf("err = %v, want ErrNoRenderer with an install hint", err)
			}
			if ents, _ := os.ReadDir(tc.opts.TempDir); len(ents) > 0 {
				t.Errorf("NewPool left %d entries in TempDir", len(ents))
			}
		})
	}
}

// TestPoolClose: requests after Close fail with ErrClosed; Close is
// idempotent.
func TestPoolClose(t *testing.T) {
	requireSoffice(t)
	p, err := NewPool(context.Background(), PoolOptions{TempDir: t.TempDir(), Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	f := writeZip(t, filepath.Join(t.TempDir(), "a.docx"), docxParts([]string{"x"}), false)
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := p.ConvertPDF(context.Background(), f); !errors.Is(err, ErrClosed) {
		t.Errorf("ConvertPDF after Close: %v, want ErrClosed", err)
	}
}

// TestPoolRendererVanishes: LibreOffice removed while the pool runs is
// ErrNoRenderer (the tool cannot work), not a failure of the document.
func TestPoolRendererVanishes(t *testing.T) {
	real := requireSoffice(t)
	t.Setenv("EDITAUDIT_REAL_SOFFICE", real)
	dir := t.TempDir()
	wrapper := filepath.Join(dir, "soffice-faults.sh")
	if err := copyFile("testdata/soffice-faults.sh", wrapper); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(wrapper, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := copyFile("testdata/zero-pages.pdf", filepath.Join(dir, "zero-pages.pdf")); err != nil {
		t.Fatal(err)
	}
	p := newTestPool(t, PoolOptions{SofficePath: wrapper, Workers: 1})
	if err := os.Remove(wrapper); err != nil {
		t.Fatal(err)
	}
	doc := writeZip(t, filepath.Join(dir, "a.docx"), docxParts([]string{"x"}), false)
	_, err := p.ConvertPDF(context.Background(), doc)
	var re *RenderError
	if !errors.Is(err, ErrNoRenderer) || errors.As(err, &re) {
		t.Errorf("ConvertPDF with LibreOffice gone: %v, want ErrNoRenderer", err)
	}
}
