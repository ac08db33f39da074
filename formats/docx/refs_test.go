package docx_test

import (
	"strings"
	"testing"

	"github.com/editaudit/editaudit/formats"
	"github.com/editaudit/editaudit/formats/docx"
)

func part(root, inner string) string {
	return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>` + "\n" + `<w:` + root + ` ` + nsDecl + `>` + inner + `</w:` + root + `>`
}

func comments(ids ...string) story {
	var b strings.Builder
	for _, id := range ids {
		b.WriteString(`<w:comment w:id="` + id + `" w:author="a"><w:p><w:r><w:t>c</w:t></w:r></w:p></w:comment>`)
	}
	return story{"comments", "comments.xml", part("comments", b.String())}
}

func notes(kind string, ids ...string) story {
	var b strings.Builder
	for _, id := range ids {
		b.WriteString(`<w:` + kind + ` w:id="` + id + `"><w:p/></w:` + kind + `>`)
	}
	return story{kind + "s", kind + "s.xml", part(kind+"s", b.String())}
}

var (
	styles        = story{"styles", "styles.xml", part("styles", `<w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/></w:style><w:style w:type="table" w:styleId="Grid"/>`)}
	numberingPart = story{"numbering", "numbering.xml", part("numbering", `<w:abstractNum w:abstractNumId="0"/><w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num>`)}
)

func commented(id string) string {
	return `<w:p><w:commentRangeStart w:id="` + id + `"/><w:r><w:t>Scope</w:t></w:r><w:commentRangeEnd w:id="` + id + `"/>` +
		`<w:r><w:commentReference w:id="` + id + `"/></w:r></w:p>`
}

// TestReferencesAndContentModel: each new Word check with its trigger and
// a near miss that must stay silent.
func TestReferencesAndContentModel(t *testing.T) {
	fn := func(id string) string {
		return `<w:p><w:r><w:t>Price</w:t></w:r><w:r><w:footnoteReference w:id="` + id + `"/></w:r></w:p>`
	}
	cases := []checkCase{
		{"comment reference to a missing comment", pkg{body: commented("1"), stories: []story{comments("0", "11")}},
			map[string]formats.Grade{docx.CodeCommentUndefined: formats.Fatal}, `names comment "1", but word/comments.xml defines no comment with id "1" (defined: 0, 11) (3 references`},
		{"near miss: comment defined", pkg{body: commented("11"), stories: []story{comments("0", "11")}}, nil, ""},
		{"comment reference without a comments part", pkg{body: commented("0")},
			map[string]formats.Grade{docx.CodeCommentUndefined: formats.Fatal}, "the document has no part defining comments"},
		{"footnote reference to a missing footnote", pkg{body: fn("5"), stories: []story{notes("footnote", "-1", "0", "1")}},
			map[string]formats.Grade{docx.CodeNoteUndefined: formats.Fatal}, `names footnote "5"`},
		{"near miss: footnote defined", pkg{body: fn("1"), stories: []story{notes("footnote", "-1", "0", "1")}}, nil, ""},
		{"settings name separator footnotes the part lacks", pkg{body: para, stories: []story{notes("footnote", "0"),
			{"settings", "settings.xml", part("settings", `<w:footnotePr><w:footnote w:id="-1"/><w:footnote w:id="0"/></w:footnotePr>`)}}},
			map[string]formats.Grade{docx.CodeNoteUndefined: formats.Fatal}, "in the document settings (separator notes) names footnote \"-1\""},
		{"endnote reference to a missing endnote", pkg{body: `<w:p><w:r><w:endnoteReference w:id="2"/></w:r></w:p>`, stories: []story{notes("endnote", "1")}},
			map[string]formats.Grade{docx.CodeNoteUndefined: formats.Fatal}, `names endnote "2"`},
		{"numId naming no w:num: Word shows it unnumbered", pkg{body: `<w:p><w:pPr><w:numPr><w:ilvl w:val="0"/><w:numId w:val="7"/></w:numPr></w:pPr></w:p>`, stories: []story{numberingPart}},
			map[string]formats.Grade{docx.CodeNumUndefined: formats.Warning}, `names numbering "7"`},
		{"near miss: numId 0 removes numbering", pkg{body: `<w:p><w:pPr><w:numPr><w:numId w:val="0"/></w:numPr></w:pPr></w:p><w:p><w:pPr><w:numPr><w:numId w:val="1"/></w:numPr></w:pPr></w:p>`, stories: []story{numberingPart}}, nil, ""},
		{"style naming no style: tolerated", pkg{body: `<w:p><w:pPr><w:pStyle w:val="Heading9"/></w:pPr><w:r><w:t>Title</w:t></w:r></w:p>`, stories: []story{styles}},
			map[string]formats.Grade{docx.CodeStyleUndefined: formats.Warning}, `names style "Heading9"`},
		{"near miss: styles that exist; no styles part at all", pkg{body: `<w:p><w:pPr><w:pStyle w:val="Heading1"/></w:pPr></w:p>` + table(para)}, nil, ""},
		{"run straight in the body", pkg{body: para + `<w:r><w:br w:type="page"/></w:r>` + para},
			map[string]formats.Grade{docx.CodeRunOutsideParagraph: formats.Fatal}, `a run sits directly in <w:body> of body (after the paragraph "text")`},
		{"hyperlink straight in a cell", pkg{body: table(`<w:hyperlink w:anchor="x"><w:r><w:t>go</w:t></w:r></w:hyperlink>`+para) + para},
			map[string]formats.Grade{docx.CodeRunOutsideParagraph: formats.Fatal}, "<w:hyperlink> sits directly in body table 1, row 1, cell 1"},
		{"near miss: tracked insertion at body level, run in a paragraph in a content control", pkg{body: `<w:ins w:id="1" w:author="a"/><w:sdt><w:sdtContent>` + para + `</w:sdtContent></w:sdt>`}, nil, ""},
		{"paragraph inside a paragraph", pkg{body: `<w:p><w:r><w:t>outer</w:t></w:r><w:p><w:r><w:t>inner</w:t></w:r></w:p></w:p>`},
			map[string]formats.Grade{docx.CodePInP: formats.Fatal}, "a paragraph (<w:p>) sits inside body, paragraph 1"},
		{"near miss: paragraph in a text box in a paragraph", pkg{body: textBox("1", para)}, nil, ""},
		{"NaN indent", pkg{body: `<w:p><w:pPr><w:ind w:left="NaN"/></w:pPr><w:r><w:t>x</w:t></w:r></w:p>`},
			map[string]formats.Grade{docx.CodeNumberInvalid: formats.Fatal}, `w:left="NaN"`},
		{"Infinity font size", pkg{body: `<w:p><w:r><w:rPr><w:sz w:val="Infinity"/></w:rPr><w:t>x</w:t></w:r></w:p>`},
			map[string]formats.Grade{docx.CodeNumberInvalid: formats.Fatal}, `<w:sz> has w:val="Infinity"`},
		{"near miss: a style named NaN, integer measures", pkg{body: `<w:p><w:pPr><w:pStyle w:val="NaN"/><w:ind w:left="720" w:hanging="360"/></w:pPr><w:r><w:rPr><w:sz w:val="24"/></w:rPr><w:t>NaN</w:t></w:r></w:p>`}, nil, ""},

		{"cell without a row", pkg{body: `<w:tbl><w:tblPr/><w:tblGrid/><w:tc>` + para + `</w:tc></w:tbl>` + para},
			map[string]formats.Grade{docx.CodeTableStructure: formats.Warning, docx.CodeTblNoRows: formats.Warning}, ""},
		{"bookmark never ended", pkg{body: `<w:p><w:bookmarkStart w:id="3" w:name="Total"/><w:r><w:t>x</w:t></w:r></w:p>`},
			map[string]formats.Grade{docx.CodeBookmarkUnpaired: formats.Warning}, `the bookmark "Total" (w:id=3) starts here`},
		{"near miss: bookmark pair across paragraphs", pkg{body: `<w:p><w:bookmarkStart w:id="3" w:name="Total"/></w:p><w:p><w:bookmarkEnd w:id="3"/></w:p>`}, nil, ""},
		{"paragraph id out of range", pkg{body: `<w:p w14:paraId="8A0B1C2D" w14:textId="77777777"><w:r><w:t>x</w:t></w:r></w:p>`},
			map[string]formats.Grade{docx.CodeParaIDRange: formats.Warning}, "w14:paraId=8A0B1C2D"},
		{"near miss: paragraph ids in range", pkg{body: `<w:p w14:paraId="1A0B1C2D" w14:textId="77777777"/>`}, nil, ""},
	}
	runChecks(t, cases)
}

// TestDurableIDs: comment durable ids of 7FFFFFFF and above are fatal.
func TestDurableIDs(t *testing.T) {
	ids := func(v string) story {
		return story{"commentsIds", "commentsIds.xml", `<w16cid:commentsIds xmlns:w16cid="http://schemas.microsoft.com/office/word/2016/wordml/cid"><w16cid:commentId w16cid:paraId="1A2B3C4D" w16cid:durableId="` + v + `"/></w16cid:commentsIds>`}
	}
	rep := run(t, pkg{body: para, stories: []story{ids("80000001")}}.build(t))
	got := docxFindings(rep)
	if len(got) != 1 || got[0].Code != docx.CodeDurableIDRange || got[0].Grade != formats.Fatal || got[0].Part != "word/commentsIds.xml" {
		t.Fatalf("got %v", got)
	}
	if got := docxFindings(run(t, pkg{body: para, stories: []story{ids("7FFFFFFE")}}.build(t))); len(got) != 0 {
		t.Fatalf("near miss: %v", got)
	}
}

// TestReferenceAnchorsSurviveEdits: the anchor of a reference finding is
// the kind and id, not the position: inserting paragraphs above keeps it.
func TestReferenceAnchorsSurviveEdits(t *testing.T) {
	a := docxFindings(run(t, pkg{body: commented("4"), stories: []story{comments("1")}}.build(t)))
	b := docxFindings(run(t, pkg{body: para + para + commented("4"), stories: []story{comments("1")}}.build(t)))
	if len(a) != 1 || len(b) != 1 || a[0].Key() != b[0].Key() || a[0].Line == b[0].Line && a[0].Column == b[0].Column {
		t.Fatalf("before %v after %v", a, b)
	}
}
