package content

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/editaudit/editaudit/internal/testdoc"
)

const (
	sampleDocx = "docx/docx4j_sample-docx.docx"
	reportDocx = "docx/oxsdk_consumer-confidence-report.docx"
	deck187    = "pptx/docx4j_AutoShapes-187slides.pptx"
	budgetXlsx = "xlsx/poi_simple-monthly-budget.xlsx"
	formulae   = "xlsx/openpyxl_formulae.xlsx"
	hwpxHF     = "hwpx/hwpxlib_HeaderFooter.hwpx"
	hwpxTable  = "hwpx/hwpxlib_SimpleTable.hwpx"
)

func TestOneWordEdit(t *testing.T) {
	a := corpusBytes(t, sampleDocx)
	b := testdoc.Edit(t, a, map[string]func(string) string{
		"word/document.xml": testdoc.Replacer(t, "<w:t>Some text.</w:t>", "<w:t>Some words.</w:t>"),
	})
	ch := only(t, diffBytes(t, a, b))
	want := Change{Kind: KindText, Part: "word/document.xml", Where: "body paragraph 5", Before: "Some text.", After: "Some words.",
		Detail: `replaced "text" with "words"`, Diff: []Op{{"=", "Some "}, {"-", "text"}, {"+", "words"}, {"=", "."}}}
	if !equalChange(ch, want) {
		t.Fatalf("got %+v\nwant %+v", ch, want)
	}
}

func equalChange(a, b Change) bool {
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	return string(ja) == string(jb)
}

// A re-zipped copy — other entry order, stored instead of deflated,
// attributes in reverse order, Word's rsid and proofing noise — has no
// content change, for every real file.
func TestRezippedHasNoChange(t *testing.T) {
	dir := testdoc.Corpus(t)
	var files []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.Contains(".docx.docm.dotx.pptx.pptm.potx.ppsx.xlsx.xlsm.xltx.hwpx", strings.ToLower(filepath.Ext(p))) {
			files = append(files, p)
		}
		return nil
	})
	if len(files) < 150 {
		t.Fatalf("only %d corpus files found", len(files))
	}
	compared := 0
	for _, f := range files {
		a, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		parts, ok := tryReadZip(a)
		if !ok || hasDuplicateNames(parts) {
			// Not a readable zip (broken/ files that are not packages), or
			// two entries of one name: which one counts depends on the
			// order, so reordering is a real change.
			continue
		}
		slices.Reverse(parts)
		var out []testdoc.Part
		for _, p := range parts {
			d := p.Data
			if strings.HasSuffix(p.Name, ".xml") {
				if len(d) < 1<<20 {
					d = reverseAttributes(d) // (the regexp is slow on the few larger parts)
				}
				if strings.HasPrefix(p.Name, "word/") {
					d = wordNoise(d)
				}
			}
			out = append(out, testdoc.Part{Name: p.Name, Data: d, Store: true})
		}
		b := testdoc.Zip(out...)
		r := diffBytes(t, a, b)
		rel, _ := filepath.Rel(dir, f)
		if len(r.Changes) != 0 || r.Truncated != 0 {
			t.Errorf("%s: %d changes (+%d), want none; first: %+v", rel, len(r.Changes), r.Truncated, r.Changes[0])
			continue
		}
		if r.Status == StatusOK {
			compared++
			if r.Summary.Unchanged != r.Summary.UnitsBefore || r.Summary.UnitsBefore != r.Summary.UnitsAfter {
				t.Errorf("%s: summary %+v", rel, r.Summary)
			}
		}
	}
	if compared < 150 {
		t.Errorf("only %d files compared with status ok", compared)
	}
}

func hasDuplicateNames(parts []testdoc.Part) bool {
	seen := map[string]bool{}
	for _, p := range parts {
		k := strings.ToLower(p.Name)
		if seen[k] {
			return true
		}
		seen[k] = true
	}
	return false
}

func tryReadZip(data []byte) (parts []testdoc.Part, ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	t := &panicTB{}
	return testdoc.Entries(t, data), true
}

// panicTB turns Fatal into a panic (for tryReadZip).
type panicTB struct{ testing.TB }

func (*panicTB) Helper()                   {}
func (*panicTB) Fatal(args ...any)         { panic(fmt.Sprint(args...)) }
func (*panicTB) Fatalf(string, ...any)     { panic("fatal") }
func (*panicTB) Errorf(f string, a ...any) {}

func TestWordNoiseAndSplitRuns(t *testing.T) {
	a := corpusBytes(t, sampleDocx)
	// A run split in two with the same formatting (what Word does when an
	// rsid changes mid-run).
	b := testdoc.Edit(t, a, map[string]func(string) string{
		"word/document.xml": testdoc.Replacer(t, "<w:r><w:t>Docx sample document</w:t></w:r>",
			`<w:r w:rsidR="00112233"><w:t xml:space="preserve">Docx sample </w:t></w:r><w:proofErr w:type="gramStart"/><w:r w:rsidRPr="00445566"><w:rPr><w:lang w:val="de-DE"/><w:noProof/></w:rPr><w:t>document</w:t></w:r><w:proofErr w:type="gramEnd"/>`),
	})
	r := diffBytes(t, a, b)
	if len(r.Changes) != 0 || r.Status != StatusOK {
		t.Fatalf("got %s %+v, want no change", r.Status, r.Changes)
	}
}

func TestDeletedAndInsertedParagraph(t *testing.T) {
	a := corpusBytes(t, sampleDocx)
	para := `<w:p w:rsidR="00D15781" w:rsidRDefault="00945132"><w:r><w:t>Some text.</w:t></w:r></w:p>`
	del := testdoc.Edit(t, a, map[string]func(string) string{"word/document.xml": testdoc.Replacer(t, para, "")})
	ch := only(t, diffBytes(t, a, del))
	if ch.Kind != KindDeleted || ch.Where != "body paragraph 5" || ch.Before != "Some text." {
		t.Errorf("deleted: got %+v", ch)
	}
	ins := testdoc.Edit(t, a, map[string]func(string) string{"word/document.xml": testdoc.Replacer(t, para,
		para+`<w:p><w:r><w:t>A brand new clause.</w:t></w:r></w:p>`)})
	ch = only(t, diffBytes(t, a, ins))
	if ch.Kind != KindInserted || ch.Where != "body paragraph 6" || ch.After != "A brand new clause." {
		t.Errorf("inserted: got %+v", ch)
	}
	r := diffBytes(t, a, ins)
	if s := r.Summary; s.Inserted != 1 || s.Changed != 0 || s.UnitsAfter != s.UnitsBefore+1 {
		t.Errorf("summary %+v", s)
	}
}

func TestMovedParagraph(t *testing.T) {
	a := corpusBytes(t, sampleDocx)
	para := `<w:p w:rsidR="00D15781" w:rsidRDefault="00945132"><w:pPr><w:ind w:left="0"/></w:pPr><w:r><w:lastRenderedPageBreak/><w:t>That was a page break</w:t></w:r></w:p>`
	b := testdoc.Edit(t, a, map[string]func(string) string{"word/document.xml": func(s string) string {
		s = testdoc.ReplaceOnce(t, s, para, "")
		return testdoc.ReplaceOnce(t, s, `<w:body>`, `<w:body>`+para)
	}})
	ch := only(t, diffBytes(t, a, b))
	if ch.Kind != KindMoved || ch.Where != "body paragraph 1" || ch.From != "body paragraph 58" || ch.After != "That was a page break" {
		t.Errorf("got %+v", ch)
	}
}

func TestTableCell(t *testing.T) {
	a := corpusBytes(t, sampleDocx)
	b := testdoc.Edit(t, a, map[string]func(string) string{
		"word/document.xml": testdoc.Replacer(t, "<w:t>Vertical merge</w:t>", "<w:t>Vertical split</w:t>"),
	})
	ch := only(t, diffBytes(t, a, b))
	if ch.Kind != KindText || ch.Where != "body table 1, row 2, cell 1" || ch.Before != "Vertical merge" || ch.After != "Vertical split" {
		t.Errorf("got %+v", ch)
	}
}

func TestRemovedBold(t *testing.T) {
	a := corpusBytes(t, sampleDocx)
	b := testdoc.Edit(t, a, map[string]func(string) string{
		"word/document.xml": testdoc.Replacer(t, "<w:r><w:rPr><w:b/></w:rPr><w:t>bold</w:t></w:r>", "<w:r><w:t>bold</w:t></w:r>"),
	})
	r := diffBytes(t, a, b)
	ch := only(t, r)
	if ch.Kind != KindFormat || ch.Where != "body paragraph 28" || !ch.Lost || ch.Detail != "1 bold run became plain" ||
		ch.Before != "bold" || ch.After != "not bold" || ch.Text != "Font styles bold" {
		t.Errorf("got %+v", ch)
	}
	if s := r.Summary; s.Format != 1 || s.FormattingLost != 1 || s.Text != 0 || s.Changed != 1 {
		t.Errorf("summary %+v", s)
	}
}

// python-docx's paragraph.text = … keeps the text and replaces every run
// by one run without properties: no text change, formatting lost.
func TestPythonDocxRewrite(t *testing.T) {
	a := corpusBytes(t, reportDocx)
	old := `<w:r><w:rPr><w:rFonts w:ascii="Comic Sans MS" w:hAnsi="Comic Sans MS"/><w:b/></w:rPr><w:t>Regulatory Action Level (</w:t></w:r><w:smartTag w:uri="urn:schemas-microsoft-com:office:smarttags" w:element="State"><w:smartTag w:uri="urn:schemas-microsoft-com:office:smarttags" w:element="place"><w:r><w:rPr><w:rFonts w:ascii="Comic Sans MS" w:hAnsi="Comic Sans MS"/><w:b/></w:rPr><w:t>AL</w:t></w:r></w:smartTag></w:smartTag><w:r><w:rPr><w:rFonts w:ascii="Comic Sans MS" w:hAnsi="Comic Sans MS"/><w:b/></w:rPr><w:t>)</w:t></w:r><w:r><w:rPr><w:rFonts w:ascii="Comic Sans MS" w:hAnsi="Comic Sans MS"/></w:rPr><w:t>: The concentration of a contaminant which, if exceeded, triggers treatment or other requirements which a water system must follow.</w:t></w:r>`
	b := testdoc.Edit(t, a, map[string]func(string) string{
		"word/document.xml": testdoc.Replacer(t, old, `<w:r><w:t>Regulatory Action Level (AL): The concentration of a contaminant which, if exceeded, triggers treatment or other requirements which a water system must follow.</w:t></w:r>`),
	})
	ch := only(t, diffBytes(t, a, b))
	if ch.Kind != KindFormat || ch.Where != "body table 2, row 12, cell 2, paragraph 4" || !ch.Lost ||
		!strings.HasPrefix(ch.Detail, "1 bold run became plain; font Comic Sans MS → ") || !strings.HasSuffix(ch.Detail, " on 2 runs") {
		t.Errorf("got %+v", ch)
	}
}

func TestSlideTitle(t *testing.T) {
	a := corpusBytes(t, deck187)
	b := testdoc.Edit(t, a, map[string]func(string) string{
		"ppt/slides/slide1.xml": testdoc.Replacer(t, "<a:t>line</a:t>", "<a:t>blue</a:t>"),
	})
	r := diffBytes(t, a, b)
	ch := only(t, r)
	if ch.Kind != KindText || ch.Where != "slide 1, shape 'Title 3'" || ch.Part != "ppt/slides/slide1.xml" || ch.Before != "line" || ch.After != "blue" {
		t.Errorf("got %+v", ch)
	}
	if r.Summary.UnitsBefore < 187 || r.Summary.Text != 1 {
		t.Errorf("summary %+v", r.Summary)
	}
}

// python-pptx's text_frame.text = … writes runs without properties: the
// run's direct bold, font and colour are lost, the text is the same; what
// it shows now is inherited (the presentation's default text style: the
// theme's minor font Tahoma, colour tx1 = black).
func TestSlideRunRewrite(t *testing.T) {
	a := corpusBytes(t, "pptx/oxsdk_typical-deck.pptx")
	b := testdoc.Edit(t, a, map[string]func(string) string{"ppt/slides/slide10.xml": func(s string) string {
		end := strings.Index(s, "<a:t>Ovals and rectangles are used the most</a:t></a:r>")
		start := strings.LastIndex(s[:end], "<a:r>")
		return s[:start] + "<a:r>" + s[end:]
	}})
	ch := only(t, diffBytes(t, a, b))
	if ch.Kind != KindFormat || ch.Where != "slide 10, shape 'Oval 4'" || !ch.Lost ||
		ch.Detail != "1 bold run became plain; font Arial → Tahoma on 1 run; colour FFFFFF → 000000 on 1 run" {
		t.Errorf("got %+v", ch)
	}
}

// Slide 6's title inherits bold from its master's title style: a run that
// says b="1" as well shows nothing new; b="0" makes it plain.
func TestSlideInheritedFormatting(t *testing.T) {
	a := corpusBytes(t, "pptx/poi_real-deck-aascu-5864.pptx")
	run := `<a:rPr lang="en-US" sz="3200" dirty="0" smtClean="0"><a:solidFill><a:srgbClr val="C00000"/></a:solidFill></a:rPr><a:t>Failing to prepare millions </a:t>`
	with := func(attr string) []byte {
		return testdoc.Edit(t, a, map[string]func(string) string{
			"ppt/slides/slide6.xml": testdoc.Replacer(t, run, strings.Replace(run, `sz="3200"`, `sz="3200" `+attr, 1)),
		})
	}
	if r := diffBytes(t, a, with(`b="1"`)); r.Status != StatusOK || len(r.Changes) != 0 {
		t.Errorf("explicit inherited bold: %s %+v", r.Status, r.Changes)
	}
	ch := only(t, diffBytes(t, a, with(`b="0"`)))
	if ch.Kind != KindFormat || ch.Where != "slide 6, shape 'Rectangle 2'" || ch.Detail != "1 bold run became plain" {
		t.Errorf("b=0: got %+v", ch)
	}
}

func TestSlideDeletedAndNotes(t *testing.T) {
	a := corpusBytes(t, "pptx/oxsdk_typical-deck.pptx")
	// The notes of slide 2 change; slide 3 leaves the slide list.
	b := testdoc.Edit(t, a, map[string]func(string) string{
		"ppt/notesSlides/notesSlide1.xml": testdoc.Replacer(t, ">Title only<", ">Title and nothing else<"),
		"ppt/presentation.xml": func(s string) string {
			i := strings.Index(s, "<p:sldId ")
			i += strings.Index(s[i+1:], "<p:sldId ") + 1
			j := i + strings.Index(s[i+1:], "<p:sldId ") + 1
			return s[:j] + s[j+strings.Index(s[j:], "/>")+2:]
		},
	})
	r := diffBytes(t, a, b)
	if r.Status != StatusOK || len(r.Changes) < 2 {
		t.Fatalf("got %s %+v", r.Status, r.Changes)
	}
	ch := r.Changes[0]
	if ch.Kind != KindText || ch.Where != "slide 2 notes, paragraph 3" || ch.After != "Title and nothing else" {
		t.Errorf("notes: got %+v", ch)
	}
	for _, ch := range r.Changes[1:] {
		if ch.Kind != KindDeleted || !strings.HasPrefix(ch.Where, "slide 3, ") || ch.Part != "ppt/slides/slide3.xml" {
			t.Errorf("slide 3: got %+v", ch)
		}
	}
	if r.Summary.Deleted != len(r.Changes)-1 {
		t.Errorf("summary %+v", r.Summary)
	}
}

func TestCellValueAndFormula(t *testing.T) {
	a := corpusBytes(t, budgetXlsx)
	b := testdoc.Edit(t, a, map[string]func(string) string{
		"xl/worksheets/sheet1.xml": testdoc.Replacer(t,
			`<c r="C5" s="1"><v>2500</v></c>`, `<c r="C5" s="1"><v>2600</v></c>`,
			`<f>TotalMonthlyIncome-TotalMonthlyExpenses</f><v>1414</v>`, `<f>TotalMonthlyIncome+TotalMonthlyExpenses</f><v>6086</v>`,
			`<c r="C6" s="1"><v>1000</v></c>`, `<c r="C6" s="1" t="inlineStr"><is><t>1000</t></is></c>`),
	})
	r := diffBytes(t, a, b)
	if r.Status != StatusOK || len(r.Changes) != 3 {
		t.Fatalf("got %s %+v", r.Status, r.Changes)
	}
	want := []Change{
		{Kind: KindCell, Part: "xl/worksheets/sheet1.xml", Where: "'Simple Monthly Budget'!C5", Before: "2500", After: "2600", Detail: "value changed"},
		{Kind: KindCell, Part: "xl/worksheets/sheet1.xml", Where: "'Simple Monthly Budget'!C6", Before: "1000", After: "1000", Detail: "type number → text"},
		{Kind: KindCell, Part: "xl/worksheets/sheet1.xml", Where: "'Simple Monthly Budget'!G9", Before: "=TotalMonthlyIncome-TotalMonthlyExpenses",
			After: "=TotalMonthlyIncome+TotalMonthlyExpenses", Detail: "formula changed"},
	}
	for i := range want {
		if !equalChange(r.Changes[i], want[i]) {
			t.Errorf("change %d: got %+v\nwant %+v", i, r.Changes[i], want[i])
		}
	}
	if s := r.Summary; s.Cells != 3 || s.Changed != 3 || s.UnitsBefore == 0 {
		t.Errorf("summary %+v", s)
	}
}

func TestSheetRenamedAndCellFormat(t *testing.T) {
	a := corpusBytes(t, budgetXlsx)
	b := testdoc.Edit(t, a, map[string]func(string) string{
		"xl/workbook.xml": testdoc.Replacer(t, `name="Simple Monthly Budget"`, `name="Budget"`),
	})
	ch := only(t, diffBytes(t, a, b))
	if ch.Kind != KindText || ch.Where != "sheet 'Simple Monthly Budget'" || ch.After != "Budget" || ch.Detail != "sheet renamed" {
		t.Errorf("got %+v", ch)
	}
}

func TestSheetAddedAndRemoved(t *testing.T) {
	a := corpusBytes(t, budgetXlsx)
	b := testdoc.Edit(t, a, map[string]func(string) string{
		"xl/workbook.xml": testdoc.Replacer(t, `<sheet name="Simple Monthly Budget" sheetId="1" r:id="rId1"/>`,
			`<sheet name="Simple Monthly Budget" sheetId="1" r:id="rId1"/><sheet name="Copy" sheetId="2" r:id="rId1"/>`),
	})
	r := diffBytes(t, a, b)
	ch := only(t, r)
	if ch.Kind != KindInserted || ch.Where != "sheet 'Copy'" || ch.After != "Copy" || ch.Detail != "sheet added with 61 cells" ||
		r.Summary.SheetsAdded != 1 || r.Summary.Inserted != 61 {
		t.Errorf("added: %+v %+v", ch, r.Summary)
	}
	r = diffBytes(t, b, a)
	ch = only(t, r)
	if ch.Kind != KindDeleted || ch.Where != "sheet 'Copy'" || ch.Before != "Copy" || ch.Detail != "sheet removed with 61 cells" ||
		r.Summary.SheetsRemoved != 1 || r.Summary.Deleted != 61 || r.Summary.Changed != 61 {
		t.Errorf("removed: %+v %+v", ch, r.Summary)
	}
}

// Formatting under a merged range does not show (openpyxl rewrites it on
// every save): not a change. A visible cell's number format is.
func TestCellFormat(t *testing.T) {
	a := corpusBytes(t, budgetXlsx)
	b := testdoc.Edit(t, a, map[string]func(string) string{
		"xl/worksheets/sheet1.xml": testdoc.Replacer(t,
			`<c r="F4" s="18"/>`, `<c r="F4" s="0"/>`,
			`<c r="C5" s="1"><v>2500</v></c>`, `<c r="C5" s="0"><v>2500</v></c>`),
	})
	ch := only(t, diffBytes(t, a, b))
	if ch.Kind != KindFormat || ch.Where != "'Simple Monthly Budget'!C5" || ch.Lost || ch.Text != "2500" ||
		ch.Before != `number format "$"#,##0.00` || ch.After != "number format General" || ch.Detail != `number format "$"#,##0.00 → General on 1 cell` {
		t.Errorf("got %+v", ch)
	}
}

// A shared formula written out in full (as openpyxl saves it) is the same
// content; a change in one of its cells shows the formula Excel derives.
func TestSharedFormula(t *testing.T) {
	a := corpusBytes(t, formulae)
	expand := func(d4 string) func(string) string {
		return testdoc.Replacer(t,
			`<f t="shared" ref="B7:E7" si="0">B4*2</f>`, `<f>B4*2</f>`,
			`<c r="C7"><f t="shared" si="0"/>`, `<c r="C7"><f>C4*2</f>`,
			`<c r="D7"><f t="shared" si="0"/>`, `<c r="D7"><f>`+d4+`</f>`,
			`<c r="E7"><f t="shared" si="0"/>`, `<c r="E7"><f>E4*2</f>`)
	}
	same := testdoc.Edit(t, a, map[string]func(string) string{"xl/worksheets/sheet1.xml": expand("D4*2")})
	if r := diffBytes(t, a, same); len(r.Changes) != 0 || r.Status != StatusOK {
		t.Fatalf("expanded shared formula: got %s %+v", r.Status, r.Changes)
	}
	changed := testdoc.Edit(t, a, map[string]func(string) string{"xl/worksheets/sheet1.xml": expand("D4*3")})
	ch := only(t, diffBytes(t, a, changed))
	if ch.Kind != KindCell || !strings.HasSuffix(ch.Where, "!D7") || ch.Before != "=D4*2" || ch.After != "=D4*3" {
		t.Errorf("got %+v", ch)
	}
}

func TestHangulParagraphs(t *testing.T) {
	a := corpusBytes(t, hwpxHF)
	b := testdoc.Edit(t, a, map[string]func(string) string{
		"Contents/section0.xml": testdoc.Replacer(t, "<hp:t>머리말 테스트</hp:t>", "<hp:t>머리말 시험</hp:t>"),
	})
	ch := only(t, diffBytes(t, a, b))
	if ch.Kind != KindText || ch.Where != "section 1, header 1, paragraph 1" || ch.Part != "Contents/section0.xml" ||
		ch.Before != "머리말 테스트" || ch.After != "머리말 시험" || ch.Detail != `replaced "테스트" with "시험"` {
		t.Errorf("got %+v", ch)
	}
	// Another character shape (header.xml's charPr) for the same text.
	b = testdoc.Edit(t, a, map[string]func(string) string{
		"Contents/section0.xml": testdoc.Replacer(t, `<hp:run charPrIDRef="2"><hp:t>머리말 테스트</hp:t>`, `<hp:run charPrIDRef="0"><hp:t>머리말 테스트</hp:t>`),
	})
	ch = only(t, diffBytes(t, a, b))
	if ch.Kind != KindFormat || ch.Where != "section 1, header 1, paragraph 1" || ch.Lost ||
		ch.Detail != "font 함초롬돋움 → 함초롬바탕 on 1 run; size 9pt → 10pt on 1 run" {
		t.Errorf("got %+v", ch)
	}
	a = corpusBytes(t, hwpxTable)
	b = testdoc.Edit(t, a, map[string]func(string) string{
		"Contents/section0.xml": testdoc.Replacer(t, "<hp:t>5</hp:t>", "<hp:t>50</hp:t>"),
	})
	ch = only(t, diffBytes(t, a, b))
	if ch.Kind != KindText || ch.Where != "section 1, table 1, row 3, cell 1" || ch.Before != "5" || ch.After != "50" {
		t.Errorf("got %+v", ch)
	}
}

// A part that does not parse in the edited file is left out on both
// sides: "partial", and none of its paragraphs is reported deleted.
func TestPartialNeverInfersChanges(t *testing.T) {
	a := corpusBytes(t, sampleDocx)
	b := testdoc.Edit(t, a, map[string]func(string) string{
		"word/header1.xml":  testdoc.Replacer(t, "My header", "My header</w:p>"),
		"word/document.xml": testdoc.Replacer(t, "<w:t>Some text.</w:t>", "<w:t>Some words.</w:t>"),
	})
	r := diffBytes(t, a, b)
	if r.Status != StatusPartial || !strings.Contains(r.Message, "word/header1.xml did not parse in the edited file") {
		t.Fatalf("got %s %q", r.Status, r.Message)
	}
	if len(r.Changes) != 1 || r.Changes[0].Where != "body paragraph 5" {
		t.Fatalf("got %+v, want only the body edit", r.Changes)
	}
	// A file that is not a package at all.
	r = diffBytes(t, a, []byte("not a zip"))
	if r.Status != StatusPartial || len(r.Changes) != 0 || !strings.Contains(r.Message, "the edited file") {
		t.Fatalf("got %s %q %+v", r.Status, r.Message, r.Changes)
	}
}

// An edit touching 500 paragraphs: the JSON lists DefaultMaxChanges and
// counts the rest.
func TestTruncation(t *testing.T) {
	a := corpusBytes(t, "docx/oxsdk_complex2005_12rtm.docx")
	touched := 0
	b := testdoc.Edit(t, a, map[string]func(string) string{"word/document.xml": func(s string) string {
		s, touched = testdoc.AmendParagraphs(s, 500, "amended")
		return s
	}})
	if touched != 500 {
		t.Fatalf("touched %d paragraphs", touched)
	}
	r := diffBytes(t, a, b)
	if r.Summary.Text != 500 || len(r.Changes) != DefaultMaxChanges || r.Truncated != 500-DefaultMaxChanges {
		t.Fatalf("summary %+v, %d listed, %d truncated", r.Summary, len(r.Changes), r.Truncated)
	}
	for _, ch := range r.Changes {
		if ch.Kind != KindText || ch.Detail != `inserted "amended"` {
			t.Fatalf("got %+v", ch)
		}
	}
	// The feedback's bound is the audit's (audit/content_test.go).
}
