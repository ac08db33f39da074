package audit_test

// Renderer faults, simulated with wrapper scripts standing in for soffice
// and pdftoppm: LibreOffice missing, crashing, exiting with an error,
// hanging, producing no PDF, producing a 0-page PDF; and a context
// cancelled during LibreOffice and during pdftoppm. Whatever the renderer
// does, the audit returns its findings and structure with pages.status
// "failed" and the reason, or (cancelled) the context's error, and leaves
// no process and no temp folder behind.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/editaudit/editaudit/audit"
	"github.com/editaudit/editaudit/baseline"
	"github.com/editaudit/editaudit/formats"
	"github.com/editaudit/editaudit/internal/testdoc"
	"github.com/editaudit/editaudit/render"
)

// faultDocx is a one-page Word document: a table and a paragraph of text
// (raw: a control character in it is an XML-illegal character).
func faultDocx(t *testing.T, text string) []byte {
	t.Helper()
	return testdoc.Pairs(
		"[Content_Types].xml", `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>`,
		"_rels/.rels", `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`,
		"word/document.xml", `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>`+
			`<w:tbl><w:tr><w:tc><w:p><w:r><w:t>cell</w:t></w:r></w:p></w:tc></w:tr></w:tbl><w:p><w:r><w:t>`+text+`</w:t></w:r></w:p>`+
			`<w:sectPr><w:pgSz w:w="11906" w:h="16838"/></w:sectPr></w:body></w:document>`)
}

// zeroPagePDF is a valid PDF whose page tree is empty.
func zeroPagePDF() []byte {
	var b bytes.Buffer
	b.WriteString("%PDF-1.4\n")
	o1 := b.Len()
	b.WriteString("1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n")
	o2 := b.Len()
	b.WriteString("2 0 obj\n<< /Type /Pages /Kids [] /Count 0 >>\nendobj\n")
	x := b.Len()
	fmt.Fprintf(&b, "xref\n0 3\n0000000000 65535 f \n%010d 00000 n \n%010d 00000 n \ntrailer\n<< /Size 3 /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n", o1, o2, x)
	return b.Bytes()
}

// fakeSoffice writes a stand-in for soffice. Runs without input documents
// (profile set-up, --version) succeed at once. A run whose documents hold
// one of the markers fails that way; any other run is handed to the real
// LibreOffice (real; "" to fail every run as CRASH does):
//
//	FAULT-CRASH  dies by SIGSEGV          FAULT-EXIT   exits 1 with a message
//	FAULT-HANG   sleeps (blocked, idle)   FAULT-NOPDF  exits 0 writing nothing
//	FAULT-ZERO   writes a 0-page PDF      FAULT-KILL   killed from outside (SIGKILL)
//
// The renderer's one-line test documents (.txt, .csv, .fodp) go to the
// real LibreOffice too, or crash with real "".
func fakeSoffice(t *testing.T, real string) string {
	t.Helper()
	dir := t.TempDir()
	zero := filepath.Join(dir, "zero.pdf")
	if err := os.WriteFile(zero, zeroPagePDF(), 0o644); err != nil {
		t.Fatal(err)
	}
	script := `#!/bin/sh
outdir= prev= files= fault=
for a in "$@"; do
	[ "$prev" = "--outdir" ] && outdir=$a
	prev=$a
	case "$a" in
	*.docx|*.xlsx|*.pptx|*.txt|*.csv|*.fodp)
		files="$files $a"
		for m in CRASH EXIT HANG NOPDF ZERO KILL; do
			if unzip -p "$a" word/document.xml 2>/dev/null | grep -q "FAULT-$m"; then fault=$m; fi
		done;;
	esac
done
[ -z "$files" ] && exit 0
real='` + real + `'
[ -z "$real" ] && [ -z "$fault" ] && fault=CRASH
case "$fault" in
CRASH) kill -SEGV $$ ;;
KILL) kill -KILL $$ ;;
EXIT) echo "Error: source file could not be loaded" >&2; exit 1 ;;
HANG) exec sleep 3141 ;;
NOPDF) exit 0 ;;
ZERO) for f in $files; do b=$(basename "$f"); cp '` + zero + `' "$outdir/${b%.*}.pdf"; done; exit 0 ;;
esac
exec "$real" "$@"
`
	p := filepath.Join(dir, "soffice")
	if err := os.WriteFile(p, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// procsMentioning lists the running processes whose command line contains
// s (pgrep -f, without depending on procps).
func procsMentioning(s string) []string {
	var out []string
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		if e.Name()[0] < '0' || e.Name()[0] > '9' {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err != nil || len(b) == 0 {
			continue
		}
		if cmd := strings.ReplaceAll(string(b), "\x00", " "); strings.Contains(cmd, s) {
			out = append(out, e.Name()+": "+cmd)
		}
	}
	return out
}

// waitGone waits up to 10s for every process mentioning s to end, and
// for none to have appeared for a second (a conversion asked for ahead of
// its use may be starting when the audit is cancelled; the pool kills it
// as soon as it sees nobody waits).
func waitGone(t *testing.T, s string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	var quiet time.Time
	for time.Now().Before(deadline) {
		if len(procsMentioning(s)) > 0 {
			quiet = time.Time{}
		} else if quiet.IsZero() {
			quiet = time.Now()
		} else if time.Since(quiet) > time.Second {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	if left := procsMentioning(s); len(left) > 0 {
		t.Errorf("processes left behind: %v", left)
	}
}

// emptyDir fails unless dir holds nothing.
func emptyDir(t *testing.T, dir string) {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		t.Errorf("left behind in %s: %s", dir, e.Name())
	}
}

// requireTools returns the path of the first tool after checking that
// each is installed (testdoc.Tool: a skip, or a failure under CI=true).
func requireTools(t *testing.T, tools ...string) string {
	t.Helper()
	var first string
	for _, tool := range tools {
		if p := testdoc.Tool(t, tool); first == "" {
			first = p
		}
	}
	return first
}

// faultPool starts a pool running fake, with its working folder under a
// folder of the test's that must be empty once the pool is closed.
func faultPool(t *testing.T, fake string, deadline time.Duration) (*render.Pool, string) {
	t.Helper()
	tmp := filepath.Join(t.TempDir(), "pool")
	if err := os.Mkdir(tmp, 0o755); err != nil {
		t.Fatal(err)
	}
	pool, err := render.NewPool(context.Background(), render.PoolOptions{SofficePath: fake, Workers: 1, Deadline: deadline, BatchWindow: time.Millisecond, TempDir: tmp})
	if err != nil {
		t.Fatal(err)
	}
	return pool, tmp
}

// TestRendererFaults: the original renders (real LibreOffice); each edit
// makes the renderer fail its own way. The audit still blocks on the new
// fatal finding, reports the structure, and says pages failed and why; no
// process or file is left behind. The hang is simulated on both documents
// in a pool of its own with a 2s deadline (an idle, blocked LibreOffice is
// killed at the deadline, then once more when retried alone).
func TestRendererFaults(t *testing.T) {
	real := requireTools(t, "soffice", "mutool", "pdftoppm", "pdfinfo", "unzip")
	pool, tmp := faultPool(t, fakeSoffice(t, real), 20*time.Second)
	store, err := baseline.OpenStore(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	orig := filepath.Join(dir, "orig.docx")
	os.WriteFile(orig, faultDocx(t, "Hello"), 0o644)
	tests := []struct {
		fault  string
		status string
		reason []string // all in pages.message
		own    bool     // in a pool of its own, the original failing too
	}{
		{"", audit.PagesOK, nil, false}, // the harness renders a healthy edit
		{"CRASH", audit.PagesFailed, []string{"edited file", "crash", "SIGSEGV", "quarantined"}, false},
		{"EXIT", audit.PagesFailed, []string{"edited file", "exited with status 1", "could not be loaded"}, false},
		{"NOPDF", audit.PagesFailed, []string{"edited file", "no-pdf", "no PDF"}, false},
		{"ZERO", audit.PagesFailed, []string{"edited file", "zero-pages"}, false},
		// Not the document's fault: said so, with --render auto (with on
		// it is an error: TestRenderFailuresNotTheDocuments).
		{"HANG", audit.PagesFailed, []string{"original", "timeout", "deadline 2s", "killed", "not the document's fault"}, true},
	}
	for _, tc := range tests {
		t.Run("fault "+tc.fault, func(t *testing.T) {
			p, ptmp, o := pool, tmp, orig
			if tc.own {
				p, ptmp = faultPool(t, fakeSoffice(t, ""), 2*time.Second)
				defer func() {
					p.Close()
					emptyDir(t, ptmp)
				}()
				o = filepath.Join(t.TempDir(), "orig.docx")
				os.WriteFile(o, faultDocx(t, "Hello FAULT-"+tc.fault), 0o644)
			}
			r, err := render.New(context.Background(), render.Config{Converter: p, DPI: 40})
			if err != nil {
				t.Fatal(err)
			}
			// The faulty edits add an XML-illegal character (a new fatal
			// finding); the control edit is healthy, since LibreOffice
			// itself refuses a document with one.
			text := "Hel\x0blo FAULT-" + tc.fault
			if tc.fault == "" {
				text = "Hello, edited"
			}
			edited := filepath.Join(dir, "edited-"+tc.fault+".docx")
			os.WriteFile(edited, faultDocx(t, text), 0o644)
			start := time.Now()
			mode := audit.RenderOn
			if tc.own {
				mode = audit.RenderAuto
			}
			res, err := audit.Files(context.Background(), o, edited, audit.Options{Render: mode, Renderer: r, Store: store})
			if err != nil {
				t.Fatalf("audit: %v", err)
			}
			t.Logf("%s: %s in %s", tc.fault, res.Pages.Message, time.Since(start).Round(time.Millisecond))
			if tc.fault == "" {
				if res.Blocked || len(res.NewFindings) != 0 {
					t.Errorf("healthy edit: blocked %v, %v", res.Blocked, res.NewFindings)
				}
			} else if !res.Blocked || len(res.NewFindings) == 0 || res.NewFindings[0].Code != formats.CodeXMLIllegalChar {
				t.Errorf("findings: blocked %v, %v", res.Blocked, res.NewFindings)
			}
			if res.Structure.Before["tables"] != 1 || res.Structure.After["tables"] != 1 || res.Structure.After["paragraphs"] != 2 {
				t.Errorf("structure %+v", res.Structure)
			}
			if res.Pages.Status != tc.status {
				t.Errorf("pages.status %q (%s), want %q", res.Pages.Status, res.Pages.Message, tc.status)
			}
			for _, want := range tc.reason {
				if !strings.Contains(res.Pages.Message, want) {
					t.Errorf("pages.message %q does not say %q", res.Pages.Message, want)
				}
			}
			if tc.status == audit.PagesOK && (res.Pages.Before != 1 || res.Pages.After != 1) {
				t.Errorf("pages %d → %d, want 1 → 1", res.Pages.Before, res.Pages.After)
			}
			if tc.fault != "" && !strings.Contains(res.Feedback, "xml.illegal-char") {
				t.Errorf("feedback lacks the finding: %s", res.Feedback)
			}
			waitGone(t, ptmp)
			waitGone(t, "sleep 3141")
		})
	}
	t.Logf("pool stats %+v", pool.Stats())
	if err := pool.Close(); err != nil {
		t.Fatal(err)
	}
	emptyDir(t, tmp)
}

// TestRendererMissing: no LibreOffice. With Render on the audit fails
// with ErrNoRenderer and says how to install it; with auto it returns the
// findings and structure, pages.status failed and the reason.
func TestRendererMissing(t *testing.T) {
	dir := t.TempDir()
	orig := filepath.Join(dir, "orig.docx")
	edited := filepath.Join(dir, "edited.docx")
	os.WriteFile(orig, faultDocx(t, "Hello"), 0o644)
	os.WriteFile(edited, faultDocx(t, "Hel\x0blo"), 0o644)
	t.Setenv("PATH", t.TempDir())
	_, err := audit.Files(context.Background(), orig, edited, audit.Options{Render: audit.RenderOn})
	if !errors.Is(err, audit.ErrNoRenderer) || !strings.Contains(err.Error(), "apt-get install") {
		t.Errorf("render on: %v, want ErrNoRenderer with an install hint", err)
	}
	res, err := audit.Files(context.Background(), orig, edited, audit.Options{Render: audit.RenderAuto})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Blocked || res.Structure.After["tables"] != 1 || res.Pages.Status != audit.PagesFailed || !strings.Contains(res.Pages.Message, "not installed") {
		t.Errorf("render auto: blocked %v, structure %+v, pages %+v", res.Blocked, res.Structure, res.Pages)
	}
	// An explicit program that does not exist is the same error.
	_, err = render.NewPool(context.Background(), render.PoolOptions{SofficePath: filepath.Join(dir, "no-soffice"), TempDir: t.TempDir()})
	if !errors.Is(err, render.ErrNoRenderer) {
		t.Errorf("NewPool with a missing program: %v", err)
	}
}

// TestCancelDuringRender: the context is cancelled while LibreOffice
// converts (the real one) and, separately, while pdftoppm or mutool runs (a
// stand-in that never finishes). The audit returns context.Canceled
// promptly, no soffice or pdftoppm process is left, and once the pool is
// closed its folder is empty.
func TestCancelDuringRender(t *testing.T) {
	real := requireTools(t, "soffice", "mutool", "pdftoppm", "pdfinfo")
	dir := t.TempDir()
	orig := filepath.Join(dir, "orig.docx")
	edited := filepath.Join(dir, "edited.docx")
	os.WriteFile(orig, faultDocx(t, "Hello"), 0o644)
	os.WriteFile(edited, faultDocx(t, "Hello, edited"), 0o644)
	hangDir := t.TempDir()
	hangPdftoppm := filepath.Join(hangDir, "pdftoppm")
	os.WriteFile(hangPdftoppm, []byte("#!/bin/sh\nexec sleep 2718\n"), 0o755)
	hangMutool := filepath.Join(hangDir, "mutool")
	os.WriteFile(hangMutool, []byte("#!/bin/sh\nexec sleep 2718\n"), 0o755)
	hung := func(string) bool { return len(procsMentioning("sleep 2718")) > 0 }

	tests := []struct {
		name   string
		raster render.Rasterizer
		// started reports that the stage to interrupt is running.
		started func(tmp string) bool
	}{
		{"during LibreOffice", render.DefaultRasterizer(), func(tmp string) bool {
			for _, p := range procsMentioning(tmp) {
				if strings.Contains(p, "--convert-to") {
					return true
				}
			}
			return false
		}},
		{"during pdftoppm", &render.Pdftoppm{Bin: hangPdftoppm}, hung},
		{"during mutool", &render.Mutool{Bin: hangMutool}, hung},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			pool, tmp := faultPool(t, real, time.Minute)
			r, err := render.New(context.Background(), render.Config{Converter: pool, Rasterizer: tc.raster, DPI: 40})
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			done := make(chan error, 1)
			go func() {
				_, err := audit.Files(ctx, orig, edited, audit.Options{Render: audit.RenderOn, Renderer: r})
				done <- err
			}()
			deadline := time.Now().Add(2 * time.Minute)
			for !tc.started(tmp) {
				if time.Now().After(deadline) {
					t.Fatal("the stage to interrupt never started")
				}
				select {
				case err := <-done:
					t.Fatalf("the audit ended before it could be cancelled: %v", err)
				case <-time.After(20 * time.Millisecond):
				}
			}
			cancel()
			start := time.Now()
			select {
			case err = <-done:
			case <-time.After(30 * time.Second):
				t.Fatal("the audit did not return within 30s of cancellation")
			}
			t.Logf("returned %s after cancel: %v", time.Since(start).Round(time.Millisecond), err)
			if !errors.Is(err, context.Canceled) {
				t.Errorf("audit error %v, want context.Canceled", err)
			}
			waitGone(t, tmp)
			waitGone(t, "sleep 2718")
			waitGone(t, "pdftoppm -r 40")
			if err := pool.Close(); err != nil {
				t.Fatal(err)
			}
			emptyDir(t, tmp)
		})
	}
}

// storeEntries counts the snapshots a store holds.
func storeEntries(t *testing.T, store *baseline.Store) int {
	t.Helper()
	n := 0
	filepath.WalkDir(store.Dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Name() == "snapshot.json" {
			n++
		}
		return nil
	})
	return n
}

// TestRenderFailuresNotTheDocuments: the original fails to render for a
// reason that is not its own — LibreOffice killed from outside (SIGKILL,
// as the OOM killer does), a hang (the deadline), a LibreOffice that
// renders nothing at all (every run crashes, the one-line test document
// too: what no fonts does). With --render on the audit is an error
// (ErrPagesNotRendered; the command exits 3); with auto, pages failed
// and says it is not the document's fault. Either way nothing is stored:
// the next audit renders again. A document's own failure (NOPDF: it
// loads, nothing comes out, while the test document renders) is stored.
// Such failures used to be cached as final, exit 0 with --render on.
func TestRenderFailuresNotTheDocuments(t *testing.T) {
	real := requireTools(t, "soffice", "pdftoppm", "pdfinfo", "unzip")
	dir := t.TempDir()
	for _, tc := range []struct {
		fault string
		real  string // "" : every LibreOffice run crashes
		say   string
		own   bool
	}{
		{"KILL", real, "SIGKILL", false},
		{"HANG", real, "timeout", false},
		{"BROKEN", "", "cannot render even a one-line test document", false},
		{"NOPDF", real, "no-pdf", true},
	} {
		t.Run(tc.fault, func(t *testing.T) {
			deadline := 30 * time.Second
			if tc.fault == "HANG" {
				deadline = 2 * time.Second
			}
			pool, tmp := faultPool(t, fakeSoffice(t, tc.real), deadline)
			defer func() {
				pool.Close()
				emptyDir(t, tmp)
			}()
			r, err := render.New(context.Background(), render.Config{Converter: pool, DPI: 40})
			if err != nil {
				t.Fatal(err)
			}
			o := filepath.Join(dir, tc.fault+"-orig.docx")
			os.WriteFile(o, faultDocx(t, "Hello FAULT-"+tc.fault), 0o644)
			e := filepath.Join(dir, tc.fault+"-edited.docx")
			os.WriteFile(e, faultDocx(t, "Hel\x0blo FAULT-"+tc.fault), 0o644)
			store, err := baseline.OpenStore(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			_, err = audit.Files(context.Background(), o, e, audit.Options{Render: audit.RenderOn, Renderer: r, Store: store})
			if tc.own {
				if err != nil {
					t.Fatalf("the document's own failure under --render on: %v", err)
				}
				if n := storeEntries(t, store); n != 1 {
					t.Errorf("the document's own failure: %d store entries, want 1", n)
				}
				return
			}
			if !errors.Is(err, audit.ErrPagesNotRendered) || !strings.Contains(err.Error(), tc.say) {
				t.Errorf("--render on: %v, want ErrPagesNotRendered saying %q", err, tc.say)
			}
			if tc.fault == "BROKEN" && !errors.Is(err, render.ErrRendererBroken) {
				t.Errorf("--render on: %v, want ErrRendererBroken", err)
			}
			res, err := audit.Files(context.Background(), o, e, audit.Options{Render: audit.RenderAuto, Renderer: r, Store: store})
			if err != nil {
				t.Fatal(err)
			}
			if !res.Blocked || res.Pages.Status != audit.PagesFailed || !strings.Contains(res.Pages.Message, "not the document's fault") {
				t.Errorf("--render auto: blocked %v, pages %+v", res.Blocked, res.Pages)
			}
			if n := storeEntries(t, store); n != 0 {
				t.Errorf("%d store entries after a failure that is not the document's, want 0", n)
			}
			t.Logf("%s: %s", tc.fault, res.Pages.Message)
		})
	}
}

// TestRenderTMPDIRFull: the renderer's TMPDIR is a small tmpfs that fills
// up after LibreOffice started (other jobs' files). Rendering fails for a
// reason that is not the document's: with --render on the audit is an
// error; with auto pages failed and nothing is stored. Once space is
// freed the next audit renders and stores. (A full TMPDIR used to be
// cached as the original's final outcome: no page comparison for it ever
// after.)
func TestRenderTMPDIRFull(t *testing.T) {
	requireTools(t, "soffice", "pdftoppm", "pdfinfo")
	if testing.Short() {
		t.Skip("renders with LibreOffice")
	}
	mnt := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=48m", "tmpfs", mnt).CombinedOutput(); err != nil {
		t.Skipf("cannot mount a tmpfs here: %v %s", err, out)
	}
	t.Cleanup(func() { exec.Command("umount", "-l", mnt).Run() })
	t.Setenv("TMPDIR", mnt)
	r, err := render.New(context.Background(), render.Config{Pool: render.PoolOptions{Workers: 1, TempDir: mnt}, DPI: 40})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	dir := t.TempDir()
	o := filepath.Join(dir, "orig.docx")
	os.WriteFile(o, faultDocx(t, "Hello"), 0o644)
	e := filepath.Join(dir, "edited.docx")
	os.WriteFile(e, faultDocx(t, "Hello, edited"), 0o644)
	store, err := baseline.OpenStore(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	// Fill the file system.
	fill := filepath.Join(mnt, "fill")
	f, err := os.Create(fill)
	if err != nil {
		t.Fatal(err)
	}
	chunk := make([]byte, 1<<20)
	for {
		if _, err := f.Write(chunk); err != nil {
			break
		}
	}
	f.Close()
	_, err = audit.Files(context.Background(), o, e, audit.Options{Render: audit.RenderOn, Renderer: r, Store: store})
	if !errors.Is(err, audit.ErrPagesNotRendered) {
		t.Errorf("--render on with TMPDIR full: %v, want ErrPagesNotRendered", err)
	} else {
		t.Logf("--render on: %v", err)
	}
	res, err := audit.Files(context.Background(), o, e, audit.Options{Render: audit.RenderAuto, Renderer: r, Store: store})
	if err != nil || res.Pages.Status != audit.PagesFailed || !strings.Contains(res.Pages.Message, "not the document's fault") {
		t.Errorf("--render auto with TMPDIR full: %v %+v", err, res)
	}
	if n := storeEntries(t, store); n != 0 {
		t.Errorf("%d store entries while TMPDIR was full, want 0", n)
	}
	os.Remove(fill)
	res, err = audit.Files(context.Background(), o, e, audit.Options{Render: audit.RenderOn, Renderer: r, Store: store})
	if err != nil || res.Pages.Status != audit.PagesOK {
		t.Fatalf("after freeing space: %v %+v", err, res.Pages)
	}
	if n := storeEntries(t, store); n != 1 {
		t.Errorf("%d store entries after a good render, want 1", n)
	}
}
