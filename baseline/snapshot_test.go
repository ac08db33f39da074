package baseline

import (
	"context"
	"crypto/sha256"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/editaudit/editaudit/formats"
	"github.com/editaudit/editaudit/internal/testdoc"
	"github.com/editaudit/editaudit/render"
)

// oneParagraphDocx is the smallest Word document LibreOffice renders.
func oneParagraphDocx(text string) []byte {
	return testdoc.Pairs(
		"[Content_Types].xml", `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>`,
		"_rels/.rels", `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`,
		"word/document.xml", `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>`+text+`</w:t></w:r></w:p><w:sectPr><w:pgSz w:w="11906" w:h="16838"/></w:sectPr></w:body></w:document>`)
}

// TestMakeRendered snapshots a real document with real LibreOffice: one
// signature per page and the PDF, never rasters; the toolchain names the
// renderer's rasterizer; the store keeps the snapshot under the toolchain
// key and gives it back with its PDF. Data given by the caller is what is
// inspected.
func TestMakeRendered(t *testing.T) {
	if testing.Short() {
		t.Skip("renders with LibreOffice (skipped in -short)")
	}
	testdoc.Tool(t, "soffice")
	ctx := context.Background()
	r, err := render.New(ctx, render.Config{Pool: render.PoolOptions{Workers: 1, TempDir: t.TempDir()}})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	dir := t.TempDir()
	path := dir + "/a.docx"
	data := oneParagraphDocx("Hello")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	snap, err := Make(ctx, path, Options{Renderer: r, Data: data})
	if err != nil {
		t.Fatal(err)
	}
	p := snap.Pages
	if p.Status != PagesOK || len(p.Sigs) != 1 || len(p.Sizes) != 1 || p.PDFSHA256 == "" || snap.PDF() == "" {
		t.Fatalf("pages %+v, pdf %q", p, snap.PDF())
	}
	if !strings.Contains(p.Toolchain, render.DefaultRasterizer().Name()+" ") {
		t.Errorf("toolchain %q does not name the default rasterizer", p.Toolchain)
	}
	if snap.Report.Format != formats.DOCX || snap.Report.SHA256 != fmt.Sprintf("%x", sha256.Sum256(data)) || !strings.HasSuffix(snap.Key, "-"+ToolchainKey(ctx, r)) {
		t.Errorf("report %s %s, key %s", snap.Report.Format, snap.Report.SHA256, snap.Key)
	}

	st, err := OpenStore(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Put(snap); err != nil {
		t.Fatal(err)
	}
	got, err := st.Get(snap.Key)
	if err != nil {
		t.Fatal(err)
	}
	if got.PDF() == "" || len(got.Pages.Sigs) != 1 || got.Pages.Sigs[0].Full != p.Sigs[0].Full {
		t.Errorf("stored snapshot %+v", got.Pages)
	}
	if err := snap.Close(); err != nil {
		t.Error(err)
	}

	// An HWPX package with nothing in it: editaudit's converter draws an
	// empty page and says why in the notes, with the notice that the
	// layout is its own.
	hwData := testdoc.ZipMap(map[string]string{"mimetype": "application/hwp+zip"})
	if err := os.WriteFile(dir+"/x.hwpx", hwData, 0o644); err != nil {
		t.Fatal(err)
	}
	hw, err := Make(ctx, dir+"/x.hwpx", Options{Renderer: r, Data: hwData})
	if err != nil {
		t.Fatal(err)
	}
	defer hw.Close()
	if hw.Pages.Status != PagesOK || hw.Pages.Notice != render.HWPXNotice || !strings.Contains(strings.Join(hw.Pages.Notes, "\n"), "no section") {
		t.Errorf("hwpx: %v, %+v", err, hw.Pages)
	}
	// No renderer: pages off, no PDF.
	off, err := Make(ctx, path, Options{})
	if err != nil || off.Pages.Status != PagesOff || off.PDF() != "" || !strings.HasSuffix(off.Key, "-norender") {
		t.Errorf("no renderer: %v, %+v", err, off)
	}
}
