package docx_test

import (
	"archive/zip"
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/editaudit/editaudit/formats"
	"github.com/editaudit/editaudit/formats/docx"
	"github.com/editaudit/editaudit/formats/inspect"
	"github.com/editaudit/editaudit/internal/testdoc"
)

const (
	nsDecl = `xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" ` +
		`xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" ` +
		`xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" ` +
		`xmlns:wps="http://schemas.microsoft.com/office/word/2010/wordprocessingShape" ` +
		`xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" ` +
		`xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006" ` +
		`xmlns:v="urn:schemas-microsoft-com:vml" xmlns:w14="http://schemas.microsoft.com/office/word/2010/wordml"`
	relBase = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/"
	ctBase  = "application/vnd.openxmlformats-officedocument.wordprocessingml."
)

// pkg describes a minimal Word package: the body's inner XML, and
// optionally story parts related to the main part (name → full XML, keyed
// by relationship type: "header", "footer", "numbering"…).
type pkg struct {
	body    string
	stories []story
}

type story struct{ typ, name, xml string }

func (p pkg) build(t testing.TB) []byte {
	t.Helper()
	parts := map[string]string{
		"_rels/.rels": `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>` +
			`<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
			`<Relationship Id="rId1" Type="` + relBase + `officeDocument" Target="word/document.xml"/></Relationships>`,
		"word/document.xml": `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>` + "\n" +
			`<w:document ` + nsDecl + `><w:body>` + p.body + `</w:body></w:document>`,
	}
	ct := `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>` +
		`<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
		`<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>` +
		`<Default Extension="xml" ContentType="application/xml"/>` +
		`<Override PartName="/word/document.xml" ContentType="` + ctBase + `document.main+xml"/>`
	rels := `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>` +
		`<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">`
	for i, s := range p.stories {
		parts["word/"+s.name] = s.xml
		rels += fmt.Sprintf(`<Relationship Id="rId%d" Type="%s%s" Target="%s"/>`, i+10, relBase, s.typ, s.name)
		ct += fmt.Sprintf(`<Override PartName="/word/%s" ContentType="%s%s+xml"/>`, s.name, ctBase, s.typ)
	}
	parts["word/_rels/document.xml.rels"] = rels + `</Relationships>`
	parts["[Content_Types].xml"] = ct + `</Types>`
	return testdoc.ZipMap(parts)
}

func run(t testing.TB, data []byte) *formats.Report {
	t.Helper()
	rep, err := inspect.Bytes(context.Background(), data, "test.docx", inspect.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Format != formats.DOCX {
		t.Fatalf("detected %s, findings %v", rep.Format, rep.Findings)
	}
	return rep
}

// docxFindings returns the findings with a docx.* code.
func docxFindings(rep *formats.Report) []formats.Finding {
	var out []formats.Finding
	for _, f := range rep.Findings {
		if strings.HasPrefix(f.Code, "docx.") {
			out = append(out, f)
		}
	}
	return out
}

// Building blocks.
const (
	para   = `<w:p><w:r><w:t>text</w:t></w:r></w:p>`
	tcPr   = `<w:tcPr><w:tcW w:w="2000" w:type="dxa"/></w:tcPr>`
	inner  = `<w:tbl><w:tblPr/><w:tblGrid><w:gridCol w:w="1000"/></w:tblGrid><w:tr><w:tc><w:p><w:r><w:t>inner</w:t></w:r></w:p></w:tc></w:tr></w:tbl>`
	header = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>` + "\n" + `<w:hdr ` + nsDecl + `>`
)

func table(cells ...string) string {
	var b strings.Builder
	b.WriteString(`<w:tbl><w:tblPr><w:tblW w:w="0" w:type="auto"/></w:tblPr><w:tblGrid><w:gridCol w:w="2000"/></w:tblGrid><w:tr>`)
	for _, c := range cells {
		b.WriteString(`<w:tc>` + tcPr + c + `</w:tc>`)
	}
	b.WriteString(`</w:tr></w:tbl>`)
	return b.String()
}

// textBox is a paragraph holding a wps text box (mc:Choice) and its VML
// fallback, as Word writes it; content goes in both.
func textBox(id, content string) string {
	return `<w:p><w:r><mc:AlternateContent><mc:Choice Requires="wps"><w:drawing><wp:anchor>` +
		`<wp:docPr id="` + id + `" name="Text Box ` + id + `"/><a:graphic><a:graphicData uri="http://schemas.microsoft.com/office/word/2010/wordprocessingShape">` +
		`<wps:wsp><wps:txbx><w:txbxContent>` + content + `</w:txbxContent></wps:txbx></wps:wsp></a:graphicData></a:graphic>` +
		`</wp:anchor></w:drawing></mc:Choice><mc:Fallback><w:pict><v:shape><v:textbox><w:txbxContent>` + content +
		`</w:txbxContent></v:textbox></v:shape></w:pict></mc:Fallback></mc:AlternateContent></w:r></w:p>`
}

func picture(id string) string {
	return `<w:p><w:r><w:drawing><wp:inline><wp:docPr id="` + id + `" name="Picture ` + id + `"/>` +
		`<a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/picture"/></a:graphic></wp:inline></w:drawing></w:r></w:p>`
}

func numbering(body string) story {
	return story{"numbering", "numbering.xml", `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>` +
		`<w:numbering ` + nsDecl + `>` + body + `</w:numbering>`}
}

const abstract0 = `<w:abstractNum w:abstractNumId="0"><w:lvl w:ilvl="0"><w:numFmt w:val="decimal"/></w:lvl></w:abstractNum>`

// TestChecks: each check triggers on a minimal package and stays silent on
// a near miss.
func TestChecks(t *testing.T) {
	cases := []checkCase{
		// docx.tc-no-final-p
		{"cell ends with nested table", pkg{body: table(para+inner) + para},
			map[string]formats.Grade{docx.CodeTcNoFinalP: formats.Fatal}, "body table 1, row 1, cell 1 ends with a nested table"},
		{"near miss: nested table then paragraph", pkg{body: table(para+inner+para) + para}, nil, ""},
		{"cell without any block", pkg{body: table(para, "") + para},
			map[string]formats.Grade{docx.CodeTcNoFinalP: formats.Fatal}, "body table 1, row 1, cell 2 has no paragraph at all"},
		{"cell ends with content control holding a table", pkg{body: table(para+`<w:sdt><w:sdtPr/><w:sdtContent>`+inner+`</w:sdtContent></w:sdt>`) + para},
			map[string]formats.Grade{docx.CodeTcNoFinalP: formats.Fatal}, "ends with a nested table"},
		{"near miss: paragraph inside a content control, then bookmark end", pkg{body: `<w:bookmarkStart w:id="0" w:name="b"/>` + table(`<w:sdt><w:sdtPr><w:alias w:val="x"/></w:sdtPr><w:sdtContent>`+para+`</w:sdtContent></w:sdt><w:bookmarkEnd w:id="0"/>`) + para}, nil, ""},
		{"cell ends with a math paragraph", pkg{body: table(para+`<m:oMathPara xmlns:m="http://schemas.openxmlformats.org/officeDocument/2006/math"/>`) + para},
			map[string]formats.Grade{docx.CodeTcNoFinalP: formats.Fatal}, "ends with <m:oMathPara>"},
		{"nested cell without paragraph", pkg{body: table(`<w:tbl><w:tblPr/><w:tblGrid/><w:tr><w:tc>`+tcPr+`</w:tc></w:tr></w:tbl>`+para) + para},
			map[string]formats.Grade{docx.CodeTcNoFinalP: formats.Fatal}, "body table 1, row 1, cell 1, table 1, row 1, cell 1 has no paragraph"},
		{"near miss: fallback-only table ignored", pkg{body: table(para+`<mc:AlternateContent><mc:Choice Requires="w14">`+para+`</mc:Choice><mc:Fallback>`+inner+`</mc:Fallback></mc:AlternateContent>`) + para}, nil, ""},

		// docx.tr-no-tc
		{"row without cells", pkg{body: `<w:tbl><w:tblPr/><w:tblGrid/><w:tr><w:trPr/></w:tr><w:tr><w:tc>` + para + `</w:tc></w:tr></w:tbl>` + para},
			map[string]formats.Grade{docx.CodeTrNoTc: formats.Fatal}, "body table 1, row 1 has no cells"},
		{"near miss: cell inside a row-level content control", pkg{body: `<w:tbl><w:tblPr/><w:tblGrid/><w:tr><w:sdt><w:sdtPr/><w:sdtContent><w:tc>` + para + `</w:tc></w:sdtContent></w:sdt></w:tr></w:tbl>` + para}, nil, ""},

		// docx.tbl-no-rows
		{"table without rows", pkg{body: para + `<w:tbl><w:tblPr/><w:tblGrid/></w:tbl>` + para},
			map[string]formats.Grade{docx.CodeTblNoRows: formats.Warning}, "body table 1 has no rows"},
		{"near miss: rows inside customXml", pkg{body: `<w:tbl><w:tblPr/><w:tblGrid/><w:customXml w:element="row"><w:tr><w:tc>` + para + `</w:tc></w:tr></w:customXml></w:tbl>` + para}, nil, ""},

		// docx.run-content-outside-run
		{"break directly in paragraph", pkg{body: `<w:p><w:r><w:t>a</w:t></w:r><w:br/></w:p>`},
			map[string]formats.Grade{docx.CodeRunContentOutsideRun: formats.Fatal}, "<w:br> sits directly in the paragraph (body, paragraph 1)"},
		{"text directly in hyperlink", pkg{body: `<w:p><w:hyperlink w:anchor="x"><w:t>link</w:t></w:hyperlink></w:p>`},
			map[string]formats.Grade{docx.CodeRunContentOutsideRun: formats.Fatal}, "outside any run"},
		{"drawing directly in paragraph in a cell", pkg{body: table(`<w:p><w:drawing/></w:p>`) + para},
			map[string]formats.Grade{docx.CodeRunContentOutsideRun: formats.Fatal}, "body table 1, row 1, cell 1, paragraph 1 of the part"},
		{"near miss: tab stop in pPr, break in run in hyperlink", pkg{body: `<w:p><w:pPr><w:tabs><w:tab w:val="left" w:pos="720"/></w:tabs></w:pPr><w:hyperlink w:anchor="x"><w:r><w:br/><w:tab/><w:t>x</w:t></w:r></w:hyperlink></w:p>`}, nil, ""},

		// docx.tbl-in-p
		{"table inside paragraph", pkg{body: `<w:p><w:r><w:t>before</w:t></w:r>` + inner + `</w:p>`},
			map[string]formats.Grade{docx.CodeTblInP: formats.Fatal}, "body table 1 sits inside a paragraph"},
		{"near miss: table in a text box in a paragraph", pkg{body: textBox("1", inner+para)}, nil, ""},

		// docx.num-missing-abstract
		{"num names a missing abstractNum", pkg{body: para, stories: []story{numbering(abstract0 + `<w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num><w:num w:numId="2"><w:abstractNumId w:val="7"/></w:num>`)}},
			map[string]formats.Grade{docx.CodeNumMissingAbstract: formats.Fatal}, `numId="2" points at abstractNumId "7"`},
		{"num without abstractNumId", pkg{body: para, stories: []story{numbering(abstract0 + `<w:num w:numId="3"/>`)}},
			map[string]formats.Grade{docx.CodeNumMissingAbstract: formats.Fatal}, "has no <w:abstractNumId>"},
		{"near miss: num after its abstractNum, override", pkg{body: para, stories: []story{numbering(abstract0 + `<w:num w:numId="1"><w:abstractNumId w:val="0"/><w:lvlOverride w:ilvl="0"><w:startOverride w:val="1"/></w:lvlOverride></w:num>`)}}, nil, ""},

		// docx.docpr-duplicate-id
		{"text box and picture share an id", pkg{body: textBox("1", para) + picture("1")},
			map[string]formats.Grade{docx.CodeDocPrDuplicateShape: formats.Error}, `reuses drawing id 1, already used by the text box or shape "Text Box 1"`},
		{"text box in header and picture in body share an id", pkg{body: picture("4"), stories: []story{{"header", "header1.xml", header + textBox("4", para) + `</w:hdr>`}}},
			map[string]formats.Grade{docx.CodeDocPrDuplicateShape: formats.Error}, "in word/document.xml"},
		{"near miss: two pictures share an id", pkg{body: picture("2") + picture("2")}, nil, ""},

		// docx.multiple-body
		{"two bodies", pkg{body: para + `</w:body><w:body>` + para},
			map[string]formats.Grade{docx.CodeMultipleBody: formats.Warning}, "more than one <w:body>"},

		// docx.prop-order
		{"table properties out of order", pkg{body: `<w:tbl><w:tblPr><w:tblLook w:val="04A0"/><w:tblW w:w="0" w:type="auto"/></w:tblPr><w:tblGrid/><w:tr><w:tc>` + para + `</w:tc></w:tr></w:tbl>` + para},
			map[string]formats.Grade{docx.CodePropOrder: formats.Warning}, "children of <w:tblPr> are out of schema order"},
		{"paragraph properties out of order: info", pkg{body: `<w:p><w:pPr><w:jc w:val="center"/><w:spacing w:after="0"/></w:pPr></w:p>`},
			map[string]formats.Grade{docx.CodePropOrder: formats.Info}, "out of schema order"},
		{"second rPr in a run", pkg{body: `<w:p><w:r><w:rPr/><w:rPr><w:b/></w:rPr><w:t>x</w:t></w:r></w:p>`},
			map[string]formats.Grade{docx.CodePropOrder: formats.Warning}, "a second <w:rPr>"},
		{"pPr inside pPr", pkg{body: `<w:p><w:pPr><w:pPr/></w:pPr></w:p>`},
			map[string]formats.Grade{docx.CodePropOrder: formats.Warning}, "nested inside another <w:pPr>"},
		{"near miss: properties in order, w14 extension ignored", pkg{body: `<w:p><w:pPr><w:pStyle w:val="A"/><w:spacing w:after="0"/><w:jc w:val="left"/><w:rPr><w:b/><w:color w:val="FF0000"/><w:sz w:val="20"/></w:rPr></w:pPr><w:r><w:rPr><w:rFonts w:ascii="A"/><w:b/></w:rPr><w:t>x</w:t></w:r></w:p>`}, nil, ""},
	}
	runChecks(t, cases)
}

// checkCase is a Word package and the docx.* findings it must give.
type checkCase struct {
	name string
	pkg  pkg
	want map[string]formats.Grade // code → grade; exactly these docx.* codes, once each
	msg  string                   // a substring of the first finding's message
}

// runChecks inspects each case: exactly the wanted docx.* codes, once
// each, complete findings; a near miss (no code wanted) is not fatal.
func runChecks(t *testing.T, cases []checkCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rep := run(t, tc.pkg.build(t))
			got := docxFindings(rep)
			counts := map[string]int{}
			for _, f := range got {
				counts[f.Code]++
				if want, ok := tc.want[f.Code]; ok && f.Grade != want {
					t.Errorf("%s graded %s, want %s", f.Code, f.Grade, want)
				}
				if f.Message == "" || f.Fix == "" || f.Anchor == "" || f.Part == "" || f.Line == 0 || f.Column == 0 || f.Locator == "" {
					t.Errorf("incomplete finding: %+v", f)
				}
			}
			for code := range tc.want {
				if counts[code] != 1 {
					t.Errorf("%s found %d times, want once; findings: %v", code, counts[code], got)
				}
			}
			if len(got) != len(tc.want) {
				t.Errorf("got %d docx findings, want %d: %v", len(got), len(tc.want), got)
			}
			if tc.want == nil && rep.Fatal() {
				t.Errorf("near miss is fatal: %v", rep.Findings)
			}
			if tc.msg != "" && len(got) > 0 && !strings.Contains(got[0].Message, tc.msg) {
				t.Errorf("message %q does not contain %q", got[0].Message, tc.msg)
			}
			for _, f := range rep.Findings {
				if f.Grade == formats.Fatal && !strings.HasPrefix(f.Code, "docx.") {
					t.Errorf("the test package itself is broken: %s", f)
				}
			}
		})
	}
}

// TestAnchorSurvivesInsertAbove: a paragraph inserted above a defect moves
// its line/column and locator, but not its Key (the audit's identity).
func TestAnchorSurvivesInsertAbove(t *testing.T) {
	broken := table(`<w:p><w:r><w:t>Price list</w:t></w:r></w:p>` + inner)
	before := docxFindings(run(t, pkg{body: broken + para}.build(t)))
	after := docxFindings(run(t, pkg{body: para + "\n" + table(para) + broken + para}.build(t)))
	if len(before) != 1 || len(after) != 1 {
		t.Fatalf("before %v, after %v", before, after)
	}
	b, a := before[0], after[0]
	if b.Key() != a.Key() {
		t.Errorf("key changed: %q → %q", b.Key(), a.Key())
	}
	if b.Locator == a.Locator || b.Line == a.Line {
		t.Errorf("position did not move (%s:%d → %s:%d): the test proves nothing", b.Locator, b.Line, a.Locator, a.Line)
	}
	if !strings.Contains(b.Anchor, "Price list") {
		t.Errorf("anchor %q lacks the cell text", b.Anchor)
	}
	if !strings.Contains(a.Message, "body table 2, row 1, cell 1") {
		t.Errorf("message %q names the wrong place", a.Message)
	}
}

// TestCountsNested: a table inside a cell inside a table counts as two
// tables, with the rows and cells of both; sites say where.
func TestCountsNested(t *testing.T) {
	two := `<w:tbl><w:tblPr/><w:tblGrid/><w:tr><w:tc>` + para + `</w:tc><w:tc>` + para + `</w:tc></w:tr>` +
		`<w:tr><w:tc>` + para + `</w:tc><w:tc>` + para + inner + inner + para + `</w:tc></w:tr></w:tbl>`
	rep := run(t, pkg{body: para + inner + two + para}.build(t))
	want := formats.Counts{"tables": 4, "rows": 5, "cells": 7, "paragraphs": 10, "nested_tables": 2}
	for k, v := range want {
		if rep.Counts[k] != v {
			t.Errorf("%s = %d, want %d", k, rep.Counts[k], v)
		}
	}
	if got := rep.Parts["word/document.xml"]["tables"]; got != 4 {
		t.Errorf("per-part tables = %d, want 4", got)
	}
	sites := map[string]formats.Counts{}
	for _, s := range rep.Sites {
		sites[s.Where] = s.Counts
	}
	check := func(where string, want formats.Counts) {
		t.Helper()
		got, ok := sites[where]
		if !ok {
			t.Errorf("no site %q; sites: %v", where, rep.Sites)
			return
		}
		for k, v := range want {
			if got[k] != v {
				t.Errorf("site %q: %s = %d, want %d", where, k, got[k], v)
			}
		}
	}
	check("body", want)
	check("body table 1", formats.Counts{"tables": 1, "rows": 1, "cells": 1, "paragraphs": 1, "nested_tables": 0})
	check("body table 2", formats.Counts{"tables": 3, "rows": 4, "cells": 6, "paragraphs": 7, "nested_tables": 2})
	check("body table 2, row 2, cell 2", formats.Counts{"tables": 2, "nested_tables": 2, "rows": 2, "cells": 2, "paragraphs": 4})
	if len(rep.Sites) != 4 {
		t.Errorf("%d sites, want 4 (body, two tables, one cell): %v", len(rep.Sites), rep.Sites)
	}

	// The python-docx cell-text edit: the cell's nested tables are wiped.
	wiped := strings.Replace(two, para+inner+inner+para, `<w:p><w:r><w:t>new</w:t></w:r></w:p>`, 1)
	rep2 := run(t, pkg{body: para + inner + wiped + para}.build(t))
	if rep2.Counts["tables"] != 2 || rep2.Counts["nested_tables"] != 0 || rep2.Counts["rows"] != 3 {
		t.Errorf("after the wipe: %v", rep2.Counts)
	}
	for _, s := range rep2.Sites {
		if s.Where == "body table 2" && (s.Counts["tables"] != 1 || s.Counts["nested_tables"] != 0) {
			t.Errorf("table site after the wipe: %v", s.Counts)
		}
		if strings.Contains(s.Where, "cell") {
			t.Errorf("a cell site without nested tables: %v", s)
		}
	}
}

// TestCountsStories: headers and footers are counted per part; a text box
// counts once (its VML fallback is skipped); Strict namespaces work.
func TestCountsStories(t *testing.T) {
	footer := `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:ftr ` + nsDecl + `>` + table(para) + para + `</w:ftr>`
	rep := run(t, pkg{body: textBox("1", para+para) + para, stories: []story{
		{"header", "header1.xml", header + para + `</w:hdr>`},
		{"footer", "footer1.xml", footer},
	}}.build(t))
	if rep.Counts["paragraphs"] != 4+1+2 || rep.Counts["tables"] != 1 {
		t.Errorf("counts %v, want paragraphs 7 (body 4: the anchor paragraph, the text box's two counted once, one more; header 1; footer 2), tables 1", rep.Counts)
	}
	if p := rep.Parts["word/document.xml"]["paragraphs"]; p != 4 {
		t.Errorf("body paragraphs = %d, want 4", p)
	}
	if p := rep.Parts["word/footer1.xml"]; p["tables"] != 1 || p["paragraphs"] != 2 {
		t.Errorf("footer counts %v", p)
	}
	found := false
	for _, s := range rep.Sites {
		if s.Where == "footer1.xml table 1" && s.Part == "word/footer1.xml" {
			found = true
		}
	}
	if !found {
		t.Errorf("no footer table site: %v", rep.Sites)
	}

	// Strict: the same nested defect with the ISO/IEC 29500 Strict URIs.
	strict := strings.NewReplacer(
		"http://schemas.openxmlformats.org/wordprocessingml/2006/main", "http://purl.oclc.org/ooxml/wordprocessingml/main",
		"http://schemas.openxmlformats.org/officeDocument/2006/relationships", "http://purl.oclc.org/ooxml/officeDocument/relationships",
	)
	data := pkg{body: table(para+inner) + para}.build(t)
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	parts := map[string]string{}
	for _, f := range zr.File {
		rc, _ := f.Open()
		var b bytes.Buffer
		_, _ = b.ReadFrom(rc)
		rc.Close()
		parts[f.Name] = strict.Replace(b.String())
	}
	rep = run(t, testdoc.ZipMap(parts))
	if rep.Counts["tables"] != 2 || rep.Counts["nested_tables"] != 1 {
		t.Errorf("strict counts %v", rep.Counts)
	}
	if fs := docxFindings(rep); len(fs) != 1 || fs[0].Code != docx.CodeTcNoFinalP {
		t.Errorf("strict findings %v", fs)
	}
}
