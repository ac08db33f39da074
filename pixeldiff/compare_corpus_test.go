package pixeldiff

import (
	"archive/zip"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/editaudit/editaudit/internal/testdoc"
)

// Page comparison on real documents from the corpus (EDITAUDIT_CORPUS):
// a page break inserted at the top of real Word files with running headers
// and footers, one of them numbering its pages. The edit is made in the
// test on a copy; the corpus is only read.

// docxBreakAtTop copies a .docx, inserting a paragraph holding a page
// break at the start of the body.
func docxBreakAtTop(t *testing.T, src, dst string) {
	t.Helper()
	zr, err := zip.OpenReader(src)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	var parts []testdoc.Part
	done := false
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		data, err := io.ReadAll(io.LimitReader(rc, 64<<20))
		rc.Close()
		if err != nil {
			t.Fatal(err)
		}
		if f.Name == "word/document.xml" {
			s := string(data)
			k := strings.Index(s, "<w:body>")
			if k < 0 {
				t.Fatalf("%s: no <w:body>", src)
			}
			k += len("<w:body>")
			s = s[:k] + `<w:p><w:r><w:br w:type="page"/></w:r></w:p>` + s[k:]
			data, done = []byte(s), true
		}
		parts = append(parts, testdoc.Part{Name: f.Name, Data: string(data)})
	}
	if !done {
		t.Fatalf("%s: no word/document.xml", src)
	}
	if err := os.WriteFile(dst, testdoc.Zip(parts...), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestCorpusPageBreakAtTop(t *testing.T) {
	files := []struct {
		rel  string
		name string
		// bands expected on the original: a running header (top) and
		// footer (bottom).
		top, bottom bool
		// content lists the pages expected to change in content.
		content string
		// mutool, when set, is what differs when MuPDF draws the pages:
		// "inserted;deleted;content".
		mutool string
	}{
		// 16 pages; header and footer on every page, the footer with a
		// PAGE field: one inserted page, every other page renumbered.
		{"docx/poi_stress023.docx", "stress023", true, true, "", ""},
		// 6 pages with a page border and tables; a different first page:
		// no header on page 1, a header from page 2 on. After the break
		// the old first page gets the header, its content moves down and
		// flows over the next pages until a page break catches it up
		// (pages 5–7 are renumbered only). The moved tables are split
		// across pages at other rows and their ruled borders land on
		// other sub-pixel positions, so those pages do not hold only
		// lines of the original: they are reported changed, not
		// reflowed (the text layer does no better: the split tables'
		// text lines differ too; see reflow.go).
		//
		// MuPDF draws glyphs at quarter-pixel phases: the old first page's
		// text, moved down under the new header, keeps 11 of its 25 lines
		// pixel-identical (poppler, which snaps glyphs to whole pixels:
		// 26 of 28), too few to pair the pages, so with mutool the old
		// page 1 is reported deleted and the new page 2 inserted. This is
		// why DefaultRasterizer prefers pdftoppm.
		{"docx/oxsdk_consumer-confidence-report.docx", "ccr", true, true, "1-2,2-3,3-4", "1,2;1;2-3,3-4"},
	}
	var docs []e2eDoc
	dir := t.TempDir()
	for _, f := range files {
		src := testdoc.CorpusFile(t, f.rel)
		data, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		docs = append(docs, e2eDoc{name: f.name, ext: "docx", body: string(data)})
		edited := filepath.Join(dir, f.name+"-break.docx")
		docxBreakAtTop(t, src, edited)
		data, err = os.ReadFile(edited)
		if err != nil {
			t.Fatal(err)
		}
		docs = append(docs, e2eDoc{name: f.name + "-break", ext: "docx", body: string(data)})
	}
	needRenderer(t)
	all := renderDocs(t, docs)
	for _, rz := range e2eRasterizers {
		r := all[rz]
		for _, f := range files {
			t.Run(rz+"/"+f.name, func(t *testing.T) {
				before, after := r[f.name].pages, r[f.name+"-break"].pages
				pairs, diffs, bands := auditPages(before, after)
				s := summarize(pairs, diffs)
				t.Logf("%d → %d pages, bands %+v: %s; margins-only %v", len(before), len(after), bands, fmtPairs(pairs), s.margins)
				if (bands.Top > 0) != f.top || (bands.Bottom > 0) != f.bottom {
					t.Errorf("bands %+v, want top %v bottom %v", bands, f.top, f.bottom)
				}
				bs, as := sign(before), sign(after)
				rf := DetectReflow(bs, as, pairs, bands)
				viaText := textReflow(pdfTextPages(t, r[f.name].pdf), pdfTextPages(t, r[f.name+"-break"].pdf), pairs)
				t.Logf("reflow: pixel lines %v, text layer %v", rf, viaText)
				if len(rf) > 0 {
					t.Errorf("reflow %v after a page break", rf)
				}
				want := "1;;" + f.content
				if rz == "mutool" && f.mutool != "" {
					want = f.mutool
				}
				if got := strings.Join(s.inserted, ",") + ";" + strings.Join(s.deleted, ",") + ";" + strings.Join(s.content, ","); got != want {
					t.Errorf("inserted;deleted;content = %s, want %s", got, want)
				}
			})
		}
	}
}
