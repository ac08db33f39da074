package inspect_test

import (
	"archive/zip"
	"bytes"
	"context"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/editaudit/editaudit/formats"
	"github.com/editaudit/editaudit/formats/inspect"
	"github.com/editaudit/editaudit/internal/testdoc"
	"github.com/editaudit/editaudit/synth"
)

// A document with many different defects reports every one of them:
// validators collect, they never stop at the first defect.
func TestManyDefectsAllReported(t *testing.T) {
	f, err := os.Open("../../examples/specs/contract.json")
	if err != nil {
		t.Fatal(err)
	}
	spec, err := synth.ParseSpec(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	clean, err := synth.Synthesize(spec)
	if err != nil {
		t.Fatal(err)
	}
	const body = `<w:tbl><w:tr><w:tc><w:tcPr/></w:tc></w:tr></w:tbl>` + // cell without a paragraph
		`<w:tbl><w:tblPr/><w:tr></w:tr></w:tbl>` + // row without cells
		`<w:tbl><w:tblPr/></w:tbl>` + // table without rows
		`<w:p><w:t>loose text</w:t></w:p>` + // run content outside a run
		`<w:p><w:hyperlink r:id="rIdNowhere"><w:r><w:t>link</w:t></w:r></w:hyperlink></w:p>` + // undefined r:id
		`<w:p><w:r><w:t>bell` + "\x07" + `</w:t></w:r></w:p>` // illegal character
	edits := map[string]func(string) string{
		"word/document.xml": func(s string) string {
			return strings.Replace(s, "<w:body>", "<w:body>"+body, 1)
		},
		"word/_rels/document.xml.rels": func(s string) string {
			return strings.Replace(s, "</Relationships>",
				`<Relationship Id="rIdGone" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/image" Target="media/gone.png"/>`+
					`<Relationship Id="rIdGone" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/image" Target="media/gone2.png"/></Relationships>`, 1)
		},
		"word/numbering.xml": func(s string) string {
			return strings.Replace(s, "</w:numbering>", `<w:num w:numId="99"><w:abstractNumId w:val="999"/></w:num></w:numbering>`, 1)
		},
	}
	zr, err := zip.NewReader(bytes.NewReader(clean), int64(len(clean)))
	if err != nil {
		t.Fatal(err)
	}
	var ps []testdoc.Part
	for _, zf := range zr.File {
		rc, _ := zf.Open()
		b, _ := io.ReadAll(rc)
		rc.Close()
		if fn, ok := edits[zf.Name]; ok {
			nb := fn(string(b))
			if nb == string(b) {
				t.Fatalf("edit of %s did nothing", zf.Name)
			}
			b = []byte(nb)
			delete(edits, zf.Name)
		}
		ps = append(ps, testdoc.Part{Name: zf.Name, Data: string(b)})
		if zf.Name == "word/styles.xml" { // the same part twice
			ps = append(ps, testdoc.Part{Name: zf.Name, Data: string(b)})
		}
	}
	ps = append(ps, testdoc.Part{Name: "word/extra.unknownext", Data: "x"}) // no content type
	out := testdoc.Zip(ps...)
	if len(edits) != 0 {
		t.Fatalf("parts not found: %v", edits)
	}
	rep, err := inspect.Bytes(context.Background(), out, "ten.docx", inspect.Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"docx.tc-no-final-p", "docx.tr-no-tc", "docx.tbl-no-rows", "docx.run-content-outside-run",
		formats.CodeRelsUndefinedID, formats.CodeXMLIllegalChar, formats.CodeRelsTargetMissing,
		formats.CodeRelsDuplicateID, "docx.num-missing-abstract", formats.CodeZipDuplicate, formats.CodeCTNoType,
	}
	got := map[string]bool{}
	for _, f := range rep.Findings {
		got[f.Code] = true
	}
	for _, c := range want {
		if !got[c] {
			t.Errorf("missing %s", c)
		}
	}
	if t.Failed() {
		for _, f := range rep.Findings {
			t.Log(f)
		}
	}
}
