package render

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/editaudit/editaudit/internal/testdoc"
	"github.com/editaudit/editaudit/pixeldiff"
)

type corpusFile struct {
	path string
	size int64
}

// corpusFiles lists the files of the given folders of the corpus, smallest
// first (ties by name).
func corpusFiles(t testing.TB, root string, folders ...string) []corpusFile {
	t.Helper()
	var out []corpusFile
	for _, f := range folders {
		ents, err := os.ReadDir(filepath.Join(root, f))
		if err != nil {
			t.Fatalf("corpus folder %s: %v", f, err)
		}
		for _, e := range ents {
			info, err := e.Info()
			if err != nil || !info.Mode().IsRegular() {
				continue
			}
			out = append(out, corpusFile{filepath.Join(root, f, e.Name()), info.Size()})
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].size != out[j].size {
			return out[i].size < out[j].size
		}
		return out[i].path < out[j].path
	})
	return out
}

// corpusResult is one real file's rendering outcome.
type corpusResult struct {
	file    string
	pages   int
	own     int // pages in LibreOffice's own PDF export (-1: it produced none)
	elapsed time.Duration
	err     error
}

// renderCorpus renders files through one pool (all submitted at once) and
// compares page counts with LibreOffice's own export of the same files.
func renderCorpus(t *testing.T, files []string) []corpusResult {
	soffice := requireSoffice(t)
	// LibreOffice's own export, on copies with distinct names.
	tmp := t.TempDir()
	var copies []string
	for i, f := range files {
		c := filepath.Join(tmp, fmt.Sprintf("f%03d%s", i, strings.ToLower(filepath.Ext(f))))
		if err := copyFile(f, c); err != nil {
			t.Fatal(err)
		}
		copies = append(copies, c)
	}
	own := libreOfficeOwnExport(t, soffice, copies)

	pool := newTestPool(t, PoolOptions{})
	r := &Renderer{Converter: pool, Raster: NewPdftoppm()}
	res := make([]corpusResult, len(files))
	var wg sync.WaitGroup
	start := time.Now()
	for i, f := range files {
		wg.Add(1)
		go func() {
			defer wg.Done()
			t0 := time.Now()
			n, err := r.Render(context.Background(), f, func(int, *pixeldiff.Raster, float64, float64) error { return nil })
			res[i] = corpusResult{file: f, pages: n, own: own[copies[i]], elapsed: time.Since(t0), err: err}
		}()
	}
	wg.Wait()
	t.Logf("%d files in %s; pool stats %+v", len(files), time.Since(start).Round(time.Millisecond), pool.Stats())
	return res
}

// libreOfficeOwnExport is libreOfficeOwnPages that tolerates files
// LibreOffice cannot convert (-1 pages).
func libreOfficeOwnExport(t *testing.T, soffice string, files []string) map[string]int {
	t.Helper()
	dir := t.TempDir()
	outdir := filepath.Join(dir, "out")
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Minute)
	defer cancel()
	args := append([]string{"--headless", "--norestore", "-env:UserInstallation=" + fileURL(filepath.Join(dir, "profile")),
		"--convert-to", "pdf", "--outdir", outdir}, files...)
	if _, err := runSofficeForTest(ctx, soffice, args); err != nil {
		t.Fatalf("LibreOffice's own export: %v", err)
	}
	pages := map[string]int{}
	for _, f := range files {
		pdf := filepath.Join(outdir, strings.TrimSuffix(filepath.Base(f), filepath.Ext(f))+".pdf")
		if isNonEmptyFile(pdf) {
			pages[f] = pdfinfoPageCountOrZero(pdf)
		} else {
			pages[f] = -1
		}
	}
	return pages
}

// checkCorpusResults: every file renders with LibreOffice's own page count
// or fails with a RenderError (a reason) — never another kind of error.
func checkCorpusResults(t *testing.T, res []corpusResult) {
	t.Helper()
	for _, r := range res {
		var re *RenderError
		switch {
		case r.err == nil:
			if r.pages != r.own {
				t.Errorf("%s: %d pages, LibreOffice's own export has %d", filepath.Base(r.file), r.pages, r.own)
			}
		case errors.As(r.err, &re):
			if re.Reason == "" || re.Detail == "" && re.Reason != ReasonZeroPages {
				t.Errorf("%s: failure without a reason: %v", filepath.Base(r.file), r.err)
			}
			if r.own > 0 {
				t.Errorf("%s: failed (%v) but LibreOffice's own export has %d pages", filepath.Base(r.file), r.err, r.own)
			}
		default:
			t.Errorf("%s: %v (not a document failure)", filepath.Base(r.file), r.err)
		}
	}
}

// TestRenderCorpusSample renders the two smallest docx, pptx, xlsx and hwpx
// of the real corpus (an HWPX through editaudit's converter).
func TestRenderCorpusSample(t *testing.T) {
	root := testdoc.Corpus(t)
	var files []string
	for _, f := range []string{"docx", "pptx", "xlsx"} {
		for _, cf := range corpusFiles(t, root, f)[:2] {
			files = append(files, cf.path)
		}
	}
	res := renderCorpus(t, files)
	checkCorpusResults(t, res)
	for _, r := range res {
		t.Logf("%-50s %3d pages  %v", filepath.Base(r.file), r.pages, r.err)
	}
	// Hangul: LibreOffice has no HWPX filter to compare with; the two
	// smallest real files render through editaudit's converter, with the
	// notice that says so.
	pool := newTestPool(t, PoolOptions{})
	r := &Renderer{Converter: pool, Raster: NewPdftoppm()}
	for _, cf := range corpusFiles(t, root, "hwpx")[:2] {
		pp, err := r.RenderSigs(context.Background(), cf.path, nil)
		if err != nil {
			t.Errorf("%s: %v", filepath.Base(cf.path), err)
			continue
		}
		os.Remove(pp.PDF)
		if len(pp.Sigs) == 0 || pp.Notice != HWPXNotice {
			t.Errorf("%s: %d pages, notice %q", filepath.Base(cf.path), len(pp.Sigs), pp.Notice)
		}
		t.Logf("%-50s %3d pages  (hwpx converter)", filepath.Base(cf.path), len(pp.Sigs))
	}
}

// TestRenderCorpusAll renders every docx, pptx and xlsx of the real corpus,
// and the broken ones, through one pool (EDITAUDIT_SLOW=1: several minutes).
// With -update it rewrites docs/rendering-corpus.md, the file-by-file table
// docs/rendering.md links to; EDITAUDIT_RENDER_REPORT=FILE writes the same page
// elsewhere. EDITAUDIT_RENDER_FILTER=a,b keeps only files whose name
// contains one of the comma-separated strings (then -update is refused: the
// page lists every file).
func TestRenderCorpusAll(t *testing.T) {
	root := testdoc.Corpus(t)
	if os.Getenv("EDITAUDIT_SLOW") != "1" {
		t.Skip("EDITAUDIT_SLOW=1 not set")
	}
	var files []string
	for _, cf := range corpusFiles(t, root, "docx", "pptx", "xlsx", "broken") {
		if strings.EqualFold(filepath.Ext(cf.path), ".hwpx") || !matchesFilter(cf.path, os.Getenv("EDITAUDIT_RENDER_FILTER")) {
			continue
		}
		files = append(files, cf.path)
	}
	filter := os.Getenv("EDITAUDIT_RENDER_FILTER")
	if *update && filter != "" {
		t.Fatal("-update with EDITAUDIT_RENDER_FILTER: docs/rendering-corpus.md lists every file")
	}
	res := renderCorpus(t, files)
	checkCorpusResults(t, res)
	sort.Slice(res, func(i, j int) bool { return res[i].file < res[j].file })
	var b strings.Builder
	ok, failed := 0, 0
	tc, _ := InstalledToolchain(context.Background(), 0)
	fmt.Fprintf(&b, "%s\nRun of %s: %s.\n\n", corpusReportHead, time.Now().Format("2006-01-02"), tc)
	b.WriteString("| file | pages | LibreOffice's own export | result |\n|---|---:|---:|---|\n")
	for _, r := range res {
		rel, _ := filepath.Rel(root, r.file)
		status := "ok"
		if r.err != nil {
			status = r.err.Error()
			failed++
		} else {
			ok++
		}
		own := fmt.Sprint(r.own)
		if r.own < 0 {
			own = "no PDF"
		}
		fmt.Fprintf(&b, "| %s | %d | %s | %s |\n", rel, r.pages, own, strings.ReplaceAll(status, "|", "/"))
	}
	fmt.Fprintf(&b, "\n%d files: %d rendered, %d failed with a reason.\n", len(res), ok, failed)
	t.Log("\n" + b.String())
	out := os.Getenv("EDITAUDIT_RENDER_REPORT")
	if *update {
		out = "../../docs/rendering-corpus.md"
	}
	if out != "" {
		if err := os.WriteFile(out, []byte(b.String()), 0o644); err != nil {
			t.Error(err)
		}
	}
}

// corpusReportHead opens docs/rendering-corpus.md.
const corpusReportHead = `# Rendering the real corpus, file by file

Written by ` + "`EDITAUDIT_SLOW=1 EDITAUDIT_CORPUS=… go test ./render -run TestRenderCorpusAll\n-update`" + `: every docx, pptx and xlsx of the real corpus and every non-HWPX file of ` + "`broken/`" + `, through
one pool, beside LibreOffice's own ` + "`--convert-to pdf`" + ` of the same file. What it shows:
[rendering.md](rendering.md#real-corpus) "Real corpus".
`

var update = flag.Bool("update", false, "rewrite docs/rendering-corpus.md (with EDITAUDIT_SLOW=1)")

func matchesFilter(path, filter string) bool {
	if filter == "" {
		return true
	}
	for _, f := range strings.Split(filter, ",") {
		if f != "" && strings.Contains(filepath.Base(path), f) {
			return true
		}
	}
	return false
}
