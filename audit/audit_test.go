package audit_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/editaudit/editaudit/audit"
	"github.com/editaudit/editaudit/baseline"
	"github.com/editaudit/editaudit/formats"
	"github.com/editaudit/editaudit/internal/testdoc"
	"github.com/editaudit/editaudit/mutate"
	"github.com/editaudit/editaudit/render"
	"github.com/editaudit/editaudit/reports"
	"github.com/editaudit/editaudit/synth"
)

// renderer is one LibreOffice pool shared by the package's tests (a pool
// start costs seconds; conversions on a warm pool are fast).
var renderer *render.Renderer

func TestMain(m *testing.M) {
	code := func() int {
		flag.Parse()
		if _, err := exec.LookPath("soffice"); err == nil && !testing.Short() {
			r, err := render.New(context.Background(), render.Config{Pool: render.PoolOptions{Workers: 1}})
			if err == nil {
				defer r.Close()
				renderer = r
			}
		}
		return m.Run()
	}()
	os.Exit(code)
}

func needRenderer(t *testing.T) *render.Renderer {
	t.Helper()
	if testing.Short() {
		t.Skip("renders with LibreOffice (skipped in -short)")
	}
	if renderer == nil {
		testdoc.Missing(t, "LibreOffice (soffice)")
	}
	return renderer
}

// synthDoc generates an example document from examples/specs.
func synthDoc(t *testing.T, spec string) []byte {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "examples", "specs", spec))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	s, err := synth.ParseSpec(f)
	if err != nil {
		t.Fatal(err)
	}
	b, err := synth.Synthesize(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func mutateDoc(t *testing.T, kind string, in []byte) []byte {
	t.Helper()
	out, err := mutate.Mutate(kind, in)
	if err != nil {
		t.Fatalf("%s: %v", kind, err)
	}
	return out
}

// rewrite returns a copy of the package with one part changed by fn,
// which must change it.
func rewrite(t *testing.T, in []byte, part string, fn func(string) string) []byte {
	t.Helper()
	return testdoc.Edit(t, in, map[string]func(string) string{part: func(s string) string {
		ns := fn(s)
		if ns == s {
			t.Fatalf("rewrite of %s changed nothing", part)
		}
		return ns
	}})
}

func write(t *testing.T, dir, name string, b []byte) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func run(t *testing.T, orig, edited []byte, ext string, opts audit.Options) (*audit.Result, string, string) {
	t.Helper()
	dir := t.TempDir()
	o := write(t, dir, "original"+ext, orig)
	e := write(t, dir, "edited"+ext, edited)
	if opts.Store == nil {
		st, err := baseline.OpenStore(filepath.Join(dir, "store"))
		if err != nil {
			t.Fatal(err)
		}
		opts.Store = st
	}
	res, err := audit.Files(context.Background(), o, e, opts)
	if err != nil {
		t.Fatal(err)
	}
	return res, o, e
}

func shrunk(res *audit.Result, metric string) *audit.Shrink {
	for i := range res.Structure.Shrunk {
		if res.Structure.Shrunk[i].Metric == metric {
			return &res.Structure.Shrunk[i]
		}
	}
	return nil
}

// python-docx's cell.text setter removes nested tables: valid XML, no
// finding, but the structure is gone — reported with where, never blocking.
func TestNestedTablesWiped(t *testing.T) {
	r := needRenderer(t)
	orig := synthDoc(t, "contract.json")
	res, _, _ := run(t, orig, mutateDoc(t, "docx.nested-tables-wiped", orig), ".docx", audit.Options{Render: audit.RenderOn, Renderer: r})
	if res.Blocked || len(res.NewFindings) != 0 {
		t.Fatalf("blocked=%v new=%v", res.Blocked, res.NewFindings)
	}
	for _, m := range []string{"tables", "rows", "cells", "paragraphs"} {
		s := shrunk(res, m)
		if s == nil {
			t.Errorf("%s did not shrink: %+v", m, res.Structure)
			continue
		}
		if !strings.Contains(s.Where, "cell") {
			t.Errorf("%s: where %q does not name the cell", m, s.Where)
		}
	}
	if res.Pages.Status != audit.PagesOK || len(res.Pages.Changed) == 0 {
		t.Errorf("pages: %+v", res.Pages)
	}
	if !strings.Contains(res.Feedback, "tables") {
		t.Errorf("feedback lacks the shrink: %s", res.Feedback)
	}
	// The model output carries the text and JPEG images of the shown pages.
	var buf bytes.Buffer
	if err := reports.WriteModel(&buf, res); err != nil {
		t.Fatal(err)
	}
	var model struct {
		Content []struct {
			Type   string `json:"type"`
			Text   string `json:"text"`
			Source struct {
				MediaType string `json:"media_type"`
				Data      string `json:"data"`
			} `json:"source"`
		} `json:"content"`
	}
	if err := json.Unmarshal(buf.Bytes(), &model); err != nil {
		t.Fatal(err)
	}
	images := 0
	for _, c := range model.Content {
		if c.Type == "image" && c.Source.MediaType == "image/jpeg" && len(c.Source.Data) > 1000 {
			images++
		}
	}
	if images == 0 || !strings.Contains(model.Content[0].Text, "tables") {
		t.Errorf("model output: %d images, text %q", images, model.Content[0].Text)
	}
}

// A control character in body text: blocked, located; --restore puts the
// original's exact bytes back and keeps the rejected file.
func TestIllegalCharBlocksAndRestores(t *testing.T) {
	orig := synthDoc(t, "contract.json")
	bad := mutateDoc(t, "xml.illegal-char", orig)
	out := t.TempDir()
	res, _, editedPath := run(t, orig, bad, ".docx", audit.Options{Render: audit.RenderOff, Restore: true, OutDir: out})
	if !res.Blocked || !res.Restored {
		t.Fatalf("blocked=%v restored=%v", res.Blocked, res.Restored)
	}
	if len(res.NewFindings) != 1 {
		t.Fatalf("new findings %v", res.NewFindings)
	}
	f := res.NewFindings[0]
	if f.Code != formats.CodeXMLIllegalChar || f.Part != "word/document.xml" || f.Line == 0 || f.Column == 0 || f.Grade != formats.Fatal {
		t.Errorf("finding %+v", f)
	}
	got, _ := os.ReadFile(editedPath)
	if !bytes.Equal(got, orig) {
		t.Error("the edited path does not hold the original's bytes after --restore")
	}
	rej, err := os.ReadFile(filepath.Join(out, "rejected.docx"))
	if err != nil || !bytes.Equal(rej, bad) {
		t.Errorf("rejected copy missing or wrong: %v", err)
	}
	// Without --restore nothing is written.
	res, _, editedPath = run(t, orig, bad, ".docx", audit.Options{Render: audit.RenderOff})
	got, _ = os.ReadFile(editedPath)
	if !res.Blocked || res.Restored || !bytes.Equal(got, bad) {
		t.Errorf("without --restore the input changed or was restored")
	}
}

// An original that is already broken (a fatal illegal character among
// other defects), edited by inserting a paragraph above the defects: the
// defects shift in line and column but are not the edit's.
func TestPreexistingNotBlamed(t *testing.T) {
	clean := synthDoc(t, "contract.json")
	orig := rewrite(t, clean, "word/document.xml", func(s string) string {
		i := strings.LastIndex(s, "</w:t>")
		return s[:i] + "\x01" + s[i:]
	})
	orig = rewrite(t, orig, "word/_rels/document.xml.rels", func(s string) string {
		return strings.Replace(s, "</Relationships>", `<Relationship Id="rIdGone" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/image" Target="media/gone.png"/></Relationships>`, 1)
	})
	edited := rewrite(t, orig, "word/document.xml", func(s string) string {
		return strings.Replace(s, "<w:body>", "<w:body><w:p><w:r><w:t>A new first clause.</w:t></w:r></w:p><w:p><w:r><w:t>And another.</w:t></w:r></w:p>", 1)
	})
	res, _, _ := run(t, orig, edited, ".docx", audit.Options{Render: audit.RenderOff})
	if res.Blocked || len(res.NewFindings) != 0 {
		t.Fatalf("blocked=%v new=%v", res.Blocked, res.NewFindings)
	}
	// The illegal character is fatal; the relationship to a missing image
	// that nothing references is a warning (docs/validation.md, reachability).
	if res.Preexisting.Fatal < 1 || res.Preexisting.Total < 2 {
		t.Errorf("preexisting %+v", res.Preexisting)
	}
	if !strings.Contains(res.Feedback, "not yours") {
		t.Errorf("feedback: %s", res.Feedback)
	}
}

func TestSlideDeleted(t *testing.T) {
	r := needRenderer(t)
	orig := synthDoc(t, "deck.json")
	res, _, _ := run(t, orig, mutateDoc(t, "pptx.slide-deleted", orig), ".pptx", audit.Options{Render: audit.RenderOn, Renderer: r})
	if res.Blocked {
		t.Fatalf("blocked: %v", res.NewFindings)
	}
	if s := shrunk(res, "slides"); s == nil || s.After != s.Before-1 {
		t.Errorf("slides shrink: %+v", res.Structure.Shrunk)
	}
	if len(res.Pages.Deleted) != 1 || len(res.Pages.Inserted) != 0 {
		t.Errorf("pages: deleted %v inserted %v", res.Pages.Deleted, res.Pages.Inserted)
	}
	for _, c := range res.Pages.Changed {
		if !c.MarginsOnly {
			t.Errorf("unexpected content change %+v", c)
		}
	}
}

func TestRunsDropped(t *testing.T) {
	orig := synthDoc(t, "deck.json")
	res, _, _ := run(t, orig, mutateDoc(t, "pptx.runs-dropped", orig), ".pptx", audit.Options{Render: audit.RenderOff})
	if res.Blocked || shrunk(res, "runs") == nil {
		t.Errorf("blocked=%v shrunk=%+v", res.Blocked, res.Structure.Shrunk)
	}
}

func TestFormulaPrefixes(t *testing.T) {
	orig := synthDoc(t, "workbook.json")
	sheet := "xl/worksheets/sheet2.xml"
	noXlpm := rewrite(t, orig, sheet, func(s string) string { return strings.ReplaceAll(s, "_xlpm.", "") })
	res, _, _ := run(t, orig, noXlpm, ".xlsx", audit.Options{Render: audit.RenderOff})
	if !res.Blocked || !hasCode(res.NewFindings, "xlsx.let-without-xlpm", formats.Fatal) {
		t.Errorf("LET without _xlpm.: blocked=%v %v", res.Blocked, res.NewFindings)
	}
	noXlfn := rewrite(t, orig, sheet, func(s string) string { return strings.Replace(s, "_xlfn.XLOOKUP", "XLOOKUP", 1) })
	res, _, _ = run(t, orig, noXlfn, ".xlsx", audit.Options{Render: audit.RenderOff})
	if res.Blocked || !hasCode(res.NewFindings, "xlsx.future-function-prefix", formats.Error) {
		t.Errorf("XLOOKUP without _xlfn.: blocked=%v %v", res.Blocked, res.NewFindings)
	}
}

func hasCode(fs []formats.Finding, code string, g formats.Grade) bool {
	for _, f := range fs {
		if f.Code == code && f.Grade == g {
			return true
		}
	}
	return false
}

// A warm baseline store is reused: the second audit of the same original
// finds its snapshot.
func TestStoreReuse(t *testing.T) {
	orig := synthDoc(t, "contract.json")
	dir := t.TempDir()
	st, _ := baseline.OpenStore(dir)
	edited := mutateDoc(t, "docx.word-replaced", orig)
	o := write(t, dir, "o.docx", orig)
	e := write(t, dir, "e.docx", edited)
	for i := 0; i < 2; i++ {
		if _, err := audit.Files(context.Background(), o, e, audit.Options{Store: st}); err != nil {
			t.Fatal(err)
		}
	}
	sha := formatsSHA(orig)
	snap, err := st.Get(sha + "-norender")
	if err != nil {
		t.Fatalf("snapshot not stored: %v", err)
	}
	if snap.Report.SHA256 != sha {
		t.Errorf("stored snapshot of %s", snap.Report.SHA256)
	}
	// A corrupt entry is discarded and rebuilt, never trusted.
	entry := filepath.Join(dir, "v1", sha[:2], sha+"-norender", "snapshot.json")
	if err := os.WriteFile(entry, []byte("{half"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Get(sha + "-norender"); err != baseline.ErrNotFound {
		t.Errorf("corrupt entry: %v", err)
	}
	if _, err := audit.Files(context.Background(), o, e, audit.Options{Store: st}); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Get(sha + "-norender"); err != nil {
		t.Errorf("entry not rebuilt: %v", err)
	}
}

// Reader gives the result Files gives for the same bytes (rendered pages
// included), names the documents by their Source names, writes its temp
// files under the base name only, and refuses Restore.
func TestReaderMatchesFiles(t *testing.T) {
	orig := synthDoc(t, "contract.json")
	edited := mutateDoc(t, "docx.row-deleted", orig)
	opts := audit.Options{Render: audit.RenderOff}
	if !testing.Short() && renderer != nil {
		opts = audit.Options{Render: audit.RenderOn, Renderer: renderer}
	}
	byPath, o, e := run(t, orig, edited, ".docx", opts)
	// An upload's name with folders in it (TestWriteTemp: only its base
	// name names the temp file).
	fromMem, err := audit.Reader(context.Background(), audit.SourceBytes("../../up/original.docx", orig),
		audit.Source{Name: "edited.docx", R: bytes.NewReader(edited), Size: int64(len(edited))}, opts)
	if err != nil {
		t.Fatal(err)
	}
	if fromMem.Original.Path != "../../up/original.docx" || fromMem.Edited.Path != "edited.docx" {
		t.Errorf("Reader paths %q, %q", fromMem.Original.Path, fromMem.Edited.Path)
	}
	fromMem.Original.Path, fromMem.Edited.Path = o, e
	a, _ := json.Marshal(byPath)
	b, _ := json.Marshal(fromMem)
	if !bytes.Equal(a, b) {
		t.Errorf("Reader and Files differ:\nFiles  %s\nReader %s", a, b)
	}
	if opts.Render == audit.RenderOn && (byPath.Pages.Status != audit.PagesOK || len(byPath.Pages.Changed) == 0) {
		t.Errorf("pages not compared: %+v", byPath.Pages)
	}
	if _, err := audit.Reader(context.Background(), audit.SourceBytes("a.docx", orig), audit.SourceBytes("b.docx", edited),
		audit.Options{Restore: true}); !errors.Is(err, audit.ErrRestoreNeedsFile) {
		t.Errorf("Reader with Restore: %v, want ErrRestoreNeedsFile", err)
	}
}

// TestReaderOriginalBySHA256: an original given by its sha256 alone is
// audited from its stored snapshot exactly as when its bytes are given;
// one the store lacks is ErrNotInStore.
func TestReaderOriginalBySHA256(t *testing.T) {
	orig := synthDoc(t, "contract.json")
	edited := mutateDoc(t, "docx.row-deleted", orig)
	st, err := baseline.OpenStore(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	opts := audit.Options{Render: audit.RenderOff, Store: st}
	if !testing.Short() && renderer != nil {
		opts.Render, opts.Renderer = audit.RenderOn, renderer
	}
	ctx := context.Background()
	sum := sha256.Sum256(orig)
	sha := hex.EncodeToString(sum[:])
	bySHA := audit.Source{Name: "orig.docx", SHA256: sha}
	if _, err := audit.Reader(ctx, bySHA, audit.SourceBytes("e.docx", edited), opts); !errors.Is(err, audit.ErrNotInStore) {
		t.Fatalf("before the original is stored: %v, want ErrNotInStore", err)
	}
	full, err := audit.Reader(ctx, audit.SourceBytes("orig.docx", orig), audit.SourceBytes("e.docx", edited), opts)
	if err != nil {
		t.Fatal(err)
	}
	fromStore, err := audit.Reader(ctx, bySHA, audit.SourceBytes("e.docx", edited), opts)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := json.Marshal(full)
	b, _ := json.Marshal(fromStore)
	if !bytes.Equal(a, b) {
		t.Errorf("by sha256 and by bytes differ:\nbytes %s\nsha   %s", a, b)
	}
	noStore := opts
	noStore.Store = nil
	if _, err := audit.Reader(ctx, bySHA, audit.SourceBytes("e.docx", edited), noStore); !errors.Is(err, audit.ErrNotInStore) {
		t.Errorf("without a store: %v, want ErrNotInStore", err)
	}
}
