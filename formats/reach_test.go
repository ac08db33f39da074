package formats

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/editaudit/editaudit/internal/testdoc"
)

const (
	tRelT   = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/"
	tWordCT = "application/vnd.openxmlformats-officedocument.wordprocessingml."
)

func tRels(inner string) string {
	return `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` + inner + `</Relationships>`
}

func tRel(id, typ, target string) string {
	return `<Relationship Id="` + id + `" Type="` + tRelT + typ + `" Target="` + target + `"/>`
}

// wordParts is a minimal Word package: body is the inner XML of w:body,
// mainType the main part's content type (document.main+xml by default),
// docRels the relationships of document.xml; extra parts are added as given.
func wordParts(body, mainType, docRels string, extra map[string]string) map[string]string {
	if mainType == "" {
		mainType = tWordCT + "document.main+xml"
	}
	parts := map[string]string{
		"[Content_Types].xml": `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
			`<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Default Extension="png" ContentType="image/png"/>` +
			`<Override PartName="/word/document.xml" ContentType="` + mainType + `"/></Types>`,
		"_rels/.rels": tRels(tRel("rId1", "officeDocument", "word/document.xml")),
		"word/document.xml": `<?xml version="1.0" encoding="UTF-8"?>` + "\n" + `<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" ` +
			`xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><w:body>` + body + `</w:body></w:document>`,
	}
	if docRels != "" {
		parts["word/_rels/document.xml.rels"] = tRels(docRels)
	}
	for k, v := range extra {
		parts[k] = v
	}
	return parts
}

// inspectName opens data as name and runs the package-level checks.
func inspectName(t *testing.T, data []byte, name string) []Finding {
	t.Helper()
	ctx := context.Background()
	p, err := Open(ctx, bytes.NewReader(data), int64(len(data)), name, DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	if p.MainPart != "" {
		p.ScanPart(ctx, p.MainPart, nil)
	}
	if err := p.ScanRest(ctx); err != nil {
		t.Fatal(err)
	}
	fs := p.Findings()
	Sort(fs)
	return fs
}

func findCode(fs []Finding, code string) []Finding {
	var out []Finding
	for _, f := range fs {
		if f.Code == code {
			out = append(out, f)
		}
	}
	return out
}

func TestExtensionMismatch(t *testing.T) {
	tmpl := testdoc.ZipMap(wordParts(`<w:p/>`, tWordCT+"template.main+xml", "", nil))
	macro := testdoc.ZipMap(wordParts(`<w:p/>`, "application/vnd.ms-word.document.macroEnabled.main+xml", "", nil))
	doc := testdoc.ZipMap(wordParts(`<w:p/>`, "", "", nil))
	cases := []struct {
		name  string
		data  []byte
		file  string
		grade Grade // "" = no finding
		text  string
	}{
		{"template saved as docx", tmpl, "contract.docx", Fatal, "this is a Word template (.dotx) saved as .docx"},
		{"template as dotx (near miss)", tmpl, "contract.dotx", "", ""},
		{"macro document as docx", macro, "a/b.docx", Fatal, "macro-enabled Word document (.docm) saved as .docx"},
		{"document as docm: unconfirmed", doc, "x.docm", Warning, "not confirmed"},
		{"document as xlsx: another format", doc, "book.xlsx", Fatal, "Word document (.docx) saved as .xlsx"},
		{"document named .tmp: no claim", doc, "upload.tmp", "", ""},
		{"document without extension", doc, "stdin", "", ""},
		{"strict flavor agrees", doc, "x.DOCX", "", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := findCode(inspectName(t, c.data, c.file), CodeExtensionMismatch)
			if c.grade == "" {
				if len(got) != 0 {
					t.Fatalf("unexpected %v", got)
				}
				return
			}
			if len(got) != 1 || got[0].Grade != c.grade || !strings.Contains(got[0].Message, c.text) {
				t.Fatalf("got %v, want one %s containing %q", got, c.grade, c.text)
			}
			f := got[0]
			if f.Part != "[Content_Types].xml" || f.Line != 1 || f.Column == 0 {
				t.Errorf("position %s:%d:%d, want the main part's Override", f.Part, f.Line, f.Column)
			}
			if c.grade == Fatal && !strings.Contains(f.Fix, "rename the file to") {
				t.Errorf("fix %q does not name the right file name", f.Fix)
			}
		})
	}
	// The fix names the extension that matches the content.
	got := findCode(inspectName(t, tmpl, "dir/contract.docx"), CodeExtensionMismatch)
	if !strings.Contains(got[0].Fix, "contract.dotx") || !strings.Contains(got[0].Fix, "document.main+xml") {
		t.Errorf("fix %q", got[0].Fix)
	}
	got = findCode(inspectName(t, macro, "m.docx"), CodeExtensionMismatch)
	if !strings.Contains(got[0].Fix, "vbaProject") {
		t.Errorf("macro fix %q does not say to drop the VBA project", got[0].Fix)
	}
}

func TestRelWrongType(t *testing.T) {
	sect := func(rid string) string {
		return `<w:p/><w:sectPr><w:headerReference w:type="default" r:id="` + rid + `"/></w:sectPr>`
	}
	rels := tRel("rId1", "header", "header1.xml") + tRel("rId2", "image", "media/image1.png")
	extra := map[string]string{
		"word/header1.xml":      `<w:hdr xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:p/></w:hdr>`,
		"word/media/image1.png": "\x89PNG",
	}
	bad := inspectName(t, testdoc.ZipMap(wordParts(sect("rId2"), "", rels, extra)), "a.docx")
	got := findCode(bad, CodeRelsWrongType)
	if len(got) != 1 || got[0].Grade != Fatal || got[0].Line != 2 || !strings.Contains(got[0].Message, "must name a header relationship, but rId2 is a image relationship") {
		t.Fatalf("got %v", bad)
	}
	ok := inspectName(t, testdoc.ZipMap(wordParts(sect("rId1"), "", rels, extra)), "a.docx")
	if fs := findCode(ok, CodeRelsWrongType); len(fs) != 0 {
		t.Fatalf("near miss: %v", fs)
	}
	// A blip naming a header relationship: a warning (effect unverified).
	blip := `<w:p><w:r><a:blip r:embed="rId1"/></w:r></w:p>`
	got = findCode(inspectName(t, testdoc.ZipMap(wordParts(blip, "", rels, extra)), "a.docx"), CodeRelsWrongType)
	if len(got) != 1 || got[0].Grade != Warning {
		t.Fatalf("blip: %v", got)
	}
}

func TestRelTargetMissingUnused(t *testing.T) {
	rels := tRel("rId5", "image", "media/gone.png")
	used := `<w:p><w:r><a:blip r:embed="rId5"/></w:r></w:p>`
	got := findCode(inspectName(t, testdoc.ZipMap(wordParts(used, "", rels, nil)), "a.docx"), CodeRelsTargetMissing)
	if len(got) != 1 || got[0].Grade != Fatal {
		t.Fatalf("used: %v", got)
	}
	got = findCode(inspectName(t, testdoc.ZipMap(wordParts(`<w:p/>`, "", rels, nil)), "a.docx"), CodeRelsTargetMissing)
	if len(got) != 1 || got[0].Grade != Warning || !strings.Contains(got[0].Message, "uses rId5") {
		t.Fatalf("unused: %v", got)
	}
	// A type explicit only from the main part (a slide master, named by
	// p:sldMasterId) is implicit elsewhere (a layout's master): still fatal
	// from another part.
	hdr := map[string]string{
		"word/header1.xml":            `<w:hdr xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:p/></w:hdr>`,
		"word/_rels/header1.xml.rels": tRels(tRel("rId1", "slideMaster", "gone.xml")),
	}
	sect := `<w:p/><w:sectPr><w:headerReference w:type="default" r:id="rId1"/></w:sectPr>`
	got = findCode(inspectName(t, testdoc.ZipMap(wordParts(sect, "", tRel("rId1", "header", "header1.xml"), hdr)), "a.docx"), CodeRelsTargetMissing)
	if len(got) != 1 || got[0].Grade != Fatal {
		t.Fatalf("implicit from a non-main part: %v", got)
	}
	// An implicit relationship (styles) is used by its type: still fatal.
	got = findCode(inspectName(t, testdoc.ZipMap(wordParts(`<w:p/>`, "", tRel("rId6", "styles", "styles.xml"), nil)), "a.docx"), CodeRelsTargetMissing)
	if len(got) != 1 || got[0].Grade != Fatal {
		t.Fatalf("implicit: %v", got)
	}
}

func TestOrphanPartsDoNotBlock(t *testing.T) {
	orphan := map[string]string{
		"word/leftover.xml":            `<w:hdr xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><w:p r:id="rId9"><unclosed></w:p></w:hdr>`,
		"word/_rels/leftover.xml.rels": tRels(tRel("rId1", "image", "media/none.png")),
	}
	fs := inspectName(t, testdoc.ZipMap(wordParts(`<w:p/>`, "", "", orphan)), "a.docx")
	if HasFatal(fs) {
		t.Fatalf("an orphan part blocked: %v", fs)
	}
	var graded int
	for _, f := range fs {
		if f.Part == "word/leftover.xml" || f.Part == "word/_rels/leftover.xml.rels" {
			if f.Code != CodeOrphanPart && (f.Grade != Warning || !strings.HasPrefix(f.Message, "orphan part")) {
				t.Errorf("not graded: %s", f)
			}
			graded++
		}
	}
	if graded < 3 || len(findCode(fs, CodeOrphanPart)) != 1 {
		t.Fatalf("findings %v", fs)
	}
	// Near miss: the same part related from the document is read, and blocks.
	reached := map[string]string{"word/leftover.xml": orphan["word/leftover.xml"]}
	fs = inspectName(t, testdoc.ZipMap(wordParts(`<w:p/>`, "", tRel("rId3", "header", "leftover.xml"), reached)), "a.docx")
	if !HasFatal(fs) || len(findCode(fs, CodeOrphanPart)) != 0 {
		t.Fatalf("reached part: %v", fs)
	}
}
