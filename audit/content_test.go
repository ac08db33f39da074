package audit_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/editaudit/editaudit/audit"
	"github.com/editaudit/editaudit/content"
	"github.com/editaudit/editaudit/internal/testdoc"
	"github.com/editaudit/editaudit/reports"
)

// The content diff through the audit (audit.Files over real corpus
// files, rendering off: the content diff needs no renderer): the change,
// its kind and location in the JSON and in the feedback a model reads.

const (
	sampleDocx = "docx/docx4j_sample-docx.docx"
	reportDocx = "docx/oxsdk_consumer-confidence-report.docx"
	deck187    = "pptx/docx4j_AutoShapes-187slides.pptx"
	budgetXlsx = "xlsx/poi_simple-monthly-budget.xlsx"
	seoulHwpx  = "hwpx/pyhwpx_seoul_sihaengmun.hwpx"
)

func corpus(t *testing.T, rel string) []byte {
	t.Helper()
	b, err := os.ReadFile(testdoc.CorpusFile(t, rel))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// auditContent audits the edit with rendering off and returns the result
// and its JSON "content" object as written by reports.WriteJSON.
func auditContent(t *testing.T, orig, edited []byte, ext string, opts audit.Options) (*audit.Result, jsonContent) {
	t.Helper()
	opts.Render = audit.RenderOff
	res, _, _ := run(t, orig, edited, ext, opts)
	var b bytes.Buffer
	if err := reports.WriteJSON(&b, res); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Content  jsonContent `json:"content"`
		Feedback string      `json:"feedback"`
	}
	if err := json.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Feedback != res.Feedback {
		t.Errorf("JSON feedback differs from Result.Feedback")
	}
	return res, doc.Content
}

// jsonContent is the DESIGN.md shape of "content", decoded by name.
type jsonContent struct {
	Status  string `json:"status"`
	Message string `json:"message"`
	Changes []struct {
		Kind   string `json:"kind"`
		Part   string `json:"part"`
		Where  string `json:"where"`
		Before string `json:"before"`
		After  string `json:"after"`
		Detail string `json:"detail"`
		Lost   bool   `json:"lost"`
	} `json:"changes"`
	Summary   map[string]float64 `json:"summary"`
	Truncated *int               `json:"truncated"`
}

// one asserts exactly one change of kind at where in part, in the JSON
// and in the feedback (the line wantLine), and returns the change.
func one(t *testing.T, res *audit.Result, c jsonContent, kind, part, where, wantLine string) (before, after, detail string) {
	t.Helper()
	if c.Status != "ok" || c.Truncated == nil || *c.Truncated != 0 || len(c.Changes) != 1 {
		t.Fatalf("content: status %q (%s), %d changes: %+v", c.Status, c.Message, len(c.Changes), c.Changes)
	}
	ch := c.Changes[0]
	if ch.Kind != kind || ch.Part != part || ch.Where != where {
		t.Errorf("change %s in %s at %q, want %s in %s at %q", ch.Kind, ch.Part, ch.Where, kind, part, where)
	}
	lines := strings.Split(res.Feedback, "\n")
	if !slices.Contains(lines, wantLine) {
		t.Errorf("feedback lacks the line\n%s\n---\n%s", wantLine, res.Feedback)
	}
	return ch.Before, ch.After, ch.Detail
}

func TestContentOneWordEdit(t *testing.T) {
	a := corpus(t, sampleDocx)
	b := testdoc.Edit(t, a, map[string]func(string) string{
		"word/document.xml": testdoc.Replacer(t, "<w:t>Some text.</w:t>", "<w:t>Some words.</w:t>"),
	})
	res, c := auditContent(t, a, b, ".docx", audit.Options{})
	before, after, detail := one(t, res, c, "text", "word/document.xml", "body paragraph 5",
		"- text changed in body paragraph 5: Some [-text-]{+words+}.")
	if before != "Some text." || after != "Some words." || detail != `replaced "text" with "words"` {
		t.Errorf("before %q after %q detail %q", before, after, detail)
	}
	if !strings.Contains(res.Feedback, "Content changed: 1 text edit; 1 of ") {
		t.Errorf("feedback:\n%s", res.Feedback)
	}
	// The fixed order of DESIGN.md: structure, then content, then pages.
	iS, iC, iP := strings.Index(res.Feedback, "\nStructure:"), strings.Index(res.Feedback, "\nContent changed:"), strings.Index(res.Feedback, "\nPages:")
	if iS < 0 || iC < iS || iP < iC {
		t.Errorf("sections out of order:\n%s", res.Feedback)
	}
	if res.Blocked || !strings.HasPrefix(res.Feedback, "PASSED: nothing new at fatal.\n") {
		t.Errorf("verdict changed:\n%s", res.Feedback)
	}
}

// A re-zipped copy (entries in reverse order, stored instead of deflated)
// is the same content.
func TestContentRezippedIdentical(t *testing.T) {
	for _, rel := range []string{sampleDocx, deck187, budgetXlsx, seoulHwpx} {
		a := corpus(t, rel)
		parts := testdoc.Unzip(t, a)
		names := make([]string, 0, len(parts))
		for n := range parts {
			names = append(names, n)
		}
		slices.Sort(names)
		slices.Reverse(names)
		var out []testdoc.Part
		for _, n := range names {
			out = append(out, testdoc.Part{Name: n, Data: string(parts[n]), Store: true})
		}
		b := testdoc.Zip(out...)
		if bytes.Equal(a, b) {
			t.Fatalf("%s: the copy is byte-identical", rel)
		}
		res, c := auditContent(t, a, b, rel[strings.LastIndexByte(rel, '.'):], audit.Options{})
		if c.Status != "ok" || len(c.Changes) != 0 || *c.Truncated != 0 || c.Summary["units_before"] == 0 {
			t.Errorf("%s: %s %+v %v", rel, c.Status, c.Changes, c.Summary)
		}
		if !strings.Contains(res.Feedback, "\nContent: no text, cell or formatting change.\n") {
			t.Errorf("%s: feedback:\n%s", rel, res.Feedback)
		}
	}
}

func TestContentParagraphDeletedAndInserted(t *testing.T) {
	a := corpus(t, sampleDocx)
	para := `<w:p w:rsidR="00D15781" w:rsidRDefault="00945132"><w:r><w:t>Some text.</w:t></w:r></w:p>`
	del := testdoc.Edit(t, a, map[string]func(string) string{"word/document.xml": testdoc.Replacer(t, para, "")})
	res, c := auditContent(t, a, del, ".docx", audit.Options{})
	if before, _, _ := one(t, res, c, "deleted", "word/document.xml", "body paragraph 5",
		`- deleted at body paragraph 5 (original numbering): "Some text."`); before != "Some text." {
		t.Errorf("before %q", before)
	}
	ins := testdoc.Edit(t, a, map[string]func(string) string{"word/document.xml": testdoc.Replacer(t, para,
		para+`<w:p><w:r><w:t>A brand new clause.</w:t></w:r></w:p>`)})
	res, c = auditContent(t, a, ins, ".docx", audit.Options{})
	one(t, res, c, "inserted", "word/document.xml", "body paragraph 6",
		`- inserted at body paragraph 6: "A brand new clause."`)
	if !strings.Contains(res.Feedback, "Content changed: 1 paragraph inserted; 0 of ") {
		t.Errorf("feedback:\n%s", res.Feedback)
	}
}

func TestContentRemovedBold(t *testing.T) {
	a := corpus(t, sampleDocx)
	b := testdoc.Edit(t, a, map[string]func(string) string{
		"word/document.xml": testdoc.Replacer(t, "<w:r><w:rPr><w:b/></w:rPr><w:t>bold</w:t></w:r>", "<w:r><w:t>bold</w:t></w:r>"),
	})
	res, c := auditContent(t, a, b, ".docx", audit.Options{})
	one(t, res, c, "format", "word/document.xml", "body paragraph 28",
		`- formatting lost: 1 bold run became plain in body paragraph 28 ("Font styles bold")`)
	if !c.Changes[0].Lost || c.Summary["formatting_lost"] != 1 {
		t.Errorf("lost %v, summary %v", c.Changes[0].Lost, c.Summary)
	}
	if !strings.Contains(res.Feedback, "1 formatting change (1 lost bold, italic, underline, strikethrough, highlight or colour)") {
		t.Errorf("feedback:\n%s", res.Feedback)
	}
}

var (
	wT   = regexp.MustCompile(`<w:t(?:\s[^>]*)?>([^<]*)</w:t>`)
	wPPr = regexp.MustCompile(`<w:pPr>.*?</w:pPr>`)
)

// pythonDocxText does to the paragraph holding marker what python-docx's
// `paragraph.text = paragraph.text` does: the paragraph properties stay,
// every run (and smart tag, hyperlink…) goes, and one run without
// properties holds the same text.
func pythonDocxText(t *testing.T, doc, marker string) string {
	t.Helper()
	at := strings.Index(doc, marker)
	if at < 0 {
		t.Fatalf("no %q", marker)
	}
	start := max(strings.LastIndex(doc[:at], "<w:p "), strings.LastIndex(doc[:at], "<w:p>"))
	end := at + strings.Index(doc[at:], "</w:p>")
	p := doc[start:end]
	open := p[:strings.IndexByte(p, '>')+1]
	var text strings.Builder
	for _, m := range wT.FindAllStringSubmatch(p, -1) {
		text.WriteString(m[1])
	}
	return doc[:start] + open + wPPr.FindString(p) + `<w:r><w:t xml:space="preserve">` + text.String() + `</w:t></w:r>` + doc[end:]
}

func TestContentPythonDocxRewrite(t *testing.T) {
	a := corpus(t, reportDocx)
	b := testdoc.Edit(t, a, map[string]func(string) string{"word/document.xml": func(s string) string {
		return pythonDocxText(t, s, "Regulatory Action Level (")
	}})
	res, c := auditContent(t, a, b, ".docx", audit.Options{})
	if len(c.Changes) != 1 {
		t.Fatalf("changes %+v", c.Changes)
	}
	ch := c.Changes[0]
	if ch.Kind != "format" || !ch.Lost || ch.Where != "body table 2, row 12, cell 2, paragraph 4" ||
		!strings.HasPrefix(ch.Detail, "1 bold run became plain; font Comic Sans MS → ") {
		t.Errorf("got %+v", ch)
	}
	if c.Summary["text"] != 0 {
		t.Errorf("the text did not change: summary %v", c.Summary)
	}
	if !strings.Contains(res.Feedback, "\n- formatting lost: "+ch.Detail+" in body table 2, row 12, cell 2, paragraph 4 (\"Regulatory Action Level (AL)") {
		t.Errorf("feedback:\n%s", res.Feedback)
	}
}

// One edit, one change: the right kind, part and location in the JSON, and
// the line the feedback gives it. The deck's case is the issue's: slide
// 1's title of a 187-slide deck changed from "line" to "blue".
func TestContentOneChange(t *testing.T) {
	for _, c := range []struct {
		file, part, old, new string
		kind, where, line    string
		after                string // a piece of the JSON's after
	}{
		{sampleDocx, "word/document.xml", "<w:t>Vertical merge</w:t>", "<w:t>Vertical split</w:t>",
			"text", "body table 1, row 2, cell 1", "- text changed in body table 1, row 2, cell 1: Vertical [-merge-]{+split+}", "Vertical split"},
		{deck187, "ppt/slides/slide1.xml", "<a:t>line</a:t>", "<a:t>blue</a:t>",
			"text", "slide 1, shape 'Title 3'", "- text changed in slide 1, shape 'Title 3': [-line-]{+blue+}", "blue"},
		{seoulHwpx, "Contents/section0.xml", "사업 추진실적('25.3분기)을 제출합니다.", "사업 추진실적('25.4분기)을 제출합니다.",
			"text", "section 1, paragraph 3", "- text changed in section 1, paragraph 3: ….13.)호와 관련하여 붙임과 같이 소규모주택정비사업 추진실적('25.[-3분기-]{+4분기+})을 제출합니다.",
			"('25.4분기)을 제출합니다."},
	} {
		t.Run(c.file, func(t *testing.T) {
			a := corpus(t, c.file)
			b := testdoc.Edit(t, a, map[string]func(string) string{c.part: testdoc.Replacer(t, c.old, c.new)})
			res, jc := auditContent(t, a, b, c.file[strings.LastIndexByte(c.file, '.'):], audit.Options{})
			if _, after, _ := one(t, res, jc, c.kind, c.part, c.where, c.line); !strings.Contains(after, c.after) {
				t.Errorf("after %q", after)
			}
			if jc.Summary["units_before"] < 1 || jc.Summary["text"] != 1 {
				t.Errorf("summary %v", jc.Summary)
			}
		})
	}
}

func TestContentCellValueAndFormula(t *testing.T) {
	a := corpus(t, budgetXlsx)
	b := testdoc.Edit(t, a, map[string]func(string) string{
		"xl/worksheets/sheet1.xml": testdoc.Replacer(t,
			`<c r="C5" s="1"><v>2500</v></c>`, `<c r="C5" s="1"><v>2600</v></c>`,
			`<f>TotalMonthlyIncome-TotalMonthlyExpenses</f><v>1414</v>`, `<f>TotalMonthlyIncome+TotalMonthlyExpenses</f><v>6086</v>`),
	})
	res, c := auditContent(t, a, b, ".xlsx", audit.Options{})
	if c.Status != "ok" || len(c.Changes) != 2 {
		t.Fatalf("got %s %+v", c.Status, c.Changes)
	}
	for i, want := range []struct{ where, line string }{
		{"'Simple Monthly Budget'!C5", `- cell 'Simple Monthly Budget'!C5: "2500" → "2600" (value changed)`},
		{"'Simple Monthly Budget'!G9", `- cell 'Simple Monthly Budget'!G9: "=TotalMonthlyIncome-TotalMonthlyExpenses" → "=TotalMonthlyIncome+TotalMonthlyExpenses" (formula changed)`},
	} {
		if ch := c.Changes[i]; ch.Kind != "cell" || ch.Where != want.where || ch.Part != "xl/worksheets/sheet1.xml" {
			t.Errorf("change %d: %+v", i, ch)
		}
		if !strings.Contains(res.Feedback, "\n"+want.line+"\n") {
			t.Errorf("feedback lacks %s:\n%s", want.line, res.Feedback)
		}
	}
	if !strings.Contains(res.Feedback, "Content changed: 2 cells changed; 2 of ") || !strings.Contains(res.Feedback, " cells of the original touched") {
		t.Errorf("feedback:\n%s", res.Feedback)
	}
}

// An edit touching 500 paragraphs: the JSON lists content.DefaultMaxChanges
// and counts the rest; the feedback lists a few, counts the rest and stays
// within its bound (under 8,000 characters in all).
func TestContentFiveHundredParagraphs(t *testing.T) {
	a := corpus(t, "docx/oxsdk_complex2005_12rtm.docx")
	touched := 0
	b := testdoc.Edit(t, a, map[string]func(string) string{"word/document.xml": func(s string) string {
		s, touched = testdoc.AmendParagraphs(s, 500, "amended")
		return s
	}})
	if touched != 500 {
		t.Fatalf("touched %d paragraphs", touched)
	}
	res, c := auditContent(t, a, b, ".docx", audit.Options{})
	if c.Summary["text"] != 500 || len(c.Changes) != content.DefaultMaxChanges || *c.Truncated != 500-content.DefaultMaxChanges {
		t.Fatalf("summary %v, %d listed, %d truncated", c.Summary, len(c.Changes), *c.Truncated)
	}
	fb := res.Feedback
	if n := utf8.RuneCountInString(fb); n >= 8000 || n > audit.DefaultMaxChars {
		t.Errorf("feedback is %d characters", n)
	}
	listed := strings.Count(fb, "\n- text changed in ")
	if listed != audit.DefaultMaxContentChanges {
		t.Errorf("%d changes listed, want %d", listed, audit.DefaultMaxContentChanges)
	}
	want := "… and 480 more content changes not listed (cap 20; the counts above include them)."
	if !strings.Contains(fb, "Content changed: 500 text edits; 500 of ") || !strings.Contains(fb, "\n"+want+"\n") {
		t.Errorf("feedback:\n%s", fb)
	}
	// A tighter budget drops listed changes, never the counts or the pages.
	fb = audit.Feedback(res, audit.FeedbackOptions{MaxChars: 1200})
	if n := utf8.RuneCountInString(fb); n > 1200 || !strings.Contains(fb, "Content changed: 500 text edits") ||
		!strings.Contains(fb, "not listed (cap: the feedback's character budget;") || !strings.Contains(fb, "\nPages: ") {
		t.Errorf("%d characters:\n%s", n, fb)
	}
}

func TestContentOffAndPartial(t *testing.T) {
	a := corpus(t, sampleDocx)
	b := testdoc.Edit(t, a, map[string]func(string) string{
		"word/header1.xml":  testdoc.Replacer(t, "My header", "My header</w:p>"),
		"word/document.xml": testdoc.Replacer(t, "<w:t>Some text.</w:t>", "<w:t>Some words.</w:t>"),
	})
	res, c := auditContent(t, a, b, ".docx", audit.Options{Content: audit.ContentOff})
	if c.Status != "off" || len(c.Changes) != 0 || c.Changes == nil {
		t.Errorf("off: %+v", c)
	}
	if !strings.Contains(res.Feedback, "\nContent: not compared; the content diff was not asked for (--content off).\n") {
		t.Errorf("feedback:\n%s", res.Feedback)
	}
	// Partial: the header that does not parse is left out, the body's
	// change is reported, nothing is inferred from the broken part.
	res, c = auditContent(t, a, b, ".docx", audit.Options{})
	if c.Status != "partial" || len(c.Changes) != 1 || c.Changes[0].Where != "body paragraph 5" ||
		!strings.Contains(c.Message, "word/header1.xml did not parse in the edited file") {
		t.Errorf("partial: %+v", c)
	}
	if !strings.Contains(res.Feedback, "\nContent compared only in part: word/header1.xml did not parse in the edited file") ||
		!strings.Contains(res.Feedback, "\n- text changed in body paragraph 5: Some [-text-]{+words+}.") {
		t.Errorf("feedback:\n%s", res.Feedback)
	}
	// A mode other than on or off is an error, not a guess.
	_, err := audit.Files(context.Background(), testdoc.CorpusFile(t, sampleDocx), testdoc.CorpusFile(t, sampleDocx), audit.Options{Content: "yes"})
	if !errors.Is(err, audit.ErrContentMode) {
		t.Errorf("Content yes: %v", err)
	}
}

// Reader (an upload) gives the same content as Files.
func TestContentReader(t *testing.T) {
	a := corpus(t, budgetXlsx)
	b := testdoc.Edit(t, a, map[string]func(string) string{
		"xl/worksheets/sheet1.xml": testdoc.Replacer(t, `<c r="C5" s="1"><v>2500</v></c>`, `<c r="C5" s="1"><v>2600</v></c>`),
	})
	res, err := audit.Reader(context.Background(), audit.SourceBytes("a.xlsx", a), audit.SourceBytes("b.xlsx", b), audit.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Content == nil || res.Content.Status != content.StatusOK || len(res.Content.Changes) != 1 || res.Content.Changes[0].Where != "'Simple Monthly Budget'!C5" {
		t.Errorf("content %+v", res.Content)
	}
}
