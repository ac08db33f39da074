// Package synthtest gives tests the documents the project generates for
// itself: the shipped example specs (examples/specs) and a few small specs
// of other shapes, synthesized by package synth, and a 50-page report.
//
// It is imported by _test.go files only (of synth, mutate, corpus and
// cmd). It imports synth, nothing else of editaudit; it must not import
// the packages whose tests use it (mutate, corpus, cmd).
package synthtest

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/editaudit/editaudit/synth"
)

// ExampleSpecs returns the paths of the shipped example specs.
func ExampleSpecs(tb testing.TB) []string {
	tb.Helper()
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		tb.Fatal("synthtest: cannot locate the repository")
	}
	dir := filepath.Join(filepath.Dir(file), "..", "..", "examples", "specs")
	names, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil || len(names) == 0 {
		tb.Fatalf("synthtest: no example specs in %s: %v", dir, err)
	}
	return names
}

// LoadSpec parses the spec file at name.
func LoadSpec(tb testing.TB, name string) *synth.Spec {
	tb.Helper()
	f, err := os.Open(name)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	s, err := synth.ParseSpec(f)
	if err != nil {
		tb.Fatalf("%s: %v", name, err)
	}
	return s
}

// Bases synthesizes the example specs and the small specs, keyed by a
// name with the format's extension ("contract.docx", "form.docx").
func Bases(tb testing.TB) map[string][]byte {
	tb.Helper()
	out := map[string][]byte{}
	add := func(name string, s *synth.Spec) {
		data, err := synth.Synthesize(s)
		if err != nil {
			tb.Fatalf("%s: %v", name, err)
		}
		out[name+"."+s.Format] = data
	}
	for _, name := range ExampleSpecs(tb) {
		add(strings.TrimSuffix(path.Base(filepath.ToSlash(name)), ".json"), LoadSpec(tb, name))
	}
	for name, s := range SmallSpecs() {
		add(name, s)
	}
	return out
}

// SmallSpecs are bases of another shape than the examples: a form whose
// nested tables sit in the first table, a plain deck, a workbook with a
// picture but no chart.
func SmallSpecs() map[string]*synth.Spec {
	opt := func(o ...string) synth.Block {
		var rows []synth.Row
		for _, x := range o {
			rows = append(rows, synth.Row{Cells: []synth.Cell{{Text: "\u2610"}, {Text: x}}})
		}
		return synth.Block{Table: &synth.Table{Widths: []float64{1, 6}, Rows: rows}}
	}
	return map[string]*synth.Spec{
		"form": {Format: "docx", Title: "Form", Docx: &synth.DocxSpec{Body: []synth.Block{
			{Table: &synth.Table{HeaderRows: 1, Rows: []synth.Row{
				{Cells: []synth.Cell{{Text: "Question"}, {Text: "Answer"}}},
				{Cells: []synth.Cell{{Text: "Colour"}, {Blocks: []synth.Block{{Paragraph: &synth.Paragraph{Text: "Pick one:"}}, opt("Red", "Green", "Blue"), opt("Matte", "Gloss")}}}},
				{Cells: []synth.Cell{{Text: "Name"}, {Text: "Kim Lee"}}},
				{Cells: []synth.Cell{{Text: "Signed"}, {Text: ""}}},
			}}},
			{Paragraph: &synth.Paragraph{Runs: []synth.Run{{Text: "Return the form by Friday. "}, {Text: "Thank you.", Italic: true}}}},
			{List: &synth.List{Items: []synth.ListItem{{Text: "first"}, {Text: "second"}}}},
		}}},
		"plain": {Format: "pptx", Pptx: &synth.PptxSpec{Size: "4:3", Slides: []synth.Slide{
			{Title: "One", Body: []synth.Paragraph{{Runs: []synth.Run{{Text: "Alpha "}, {Text: "beta", Bold: true}}}}},
			{Title: "Two", Body: []synth.Paragraph{{Text: "Gamma delta"}}, Image: &synth.Image{Src: "builtin:logo"}},
			{Title: "Three", Notes: "closing words"},
		}}},
		"pictures": {Format: "xlsx", Xlsx: &synth.XlsxSpec{Sheets: []synth.Sheet{{Name: "Data",
			Rows:   [][]synth.XCell{{{Kind: "text", Text: "Item"}, {Kind: "text", Text: "Cost"}}, {{Kind: "text", Text: "Paper"}, {Kind: "number", Number: 12.5}}, {{Kind: "text", Text: "Ink"}, {Kind: "formula", Formula: "B2*2"}}},
			Images: []synth.Image{{Cell: "D2", Src: "builtin:stamp"}}}}}},
	}
}

// FiftyPages is a report of 50 pages: each page a heading, paragraphs, a
// list and a table, then a page break; the footer numbers the pages.
func FiftyPages() *synth.Spec {
	var body []synth.Block
	for p := 1; p <= 50; p++ {
		body = append(body, synth.Block{Heading: &synth.Heading{Level: 1, Text: fmt.Sprintf("Chapter %d", p)}})
		for i := 0; i < 3; i++ {
			body = append(body, synth.Block{Paragraph: &synth.Paragraph{Align: "justify", Runs: []synth.Run{
				{Text: "This paragraph describes the obligations of the parties in some detail, "},
				{Text: "including deadlines", Bold: true},
				{Text: " and the consequences of missing them. It is long enough to wrap over several lines on the page."},
			}}})
		}
		body = append(body, synth.Block{List: &synth.List{Ordered: p%2 == 0, Items: []synth.ListItem{{Text: "first point"}, {Text: "second point"}, {Text: "detail", Level: 1}}}})
		var rows []synth.Row
		rows = append(rows, synth.Row{Cells: []synth.Cell{{Text: "Item"}, {Text: "Quantity"}, {Text: "Price"}}})
		for r := 0; r < 6; r++ {
			rows = append(rows, synth.Row{Cells: []synth.Cell{{Text: fmt.Sprintf("Item %d.%d", p, r)}, {Text: fmt.Sprint(r + 1)}, {Text: fmt.Sprintf("EUR %d.00", 10*(r+1))}}})
		}
		body = append(body, synth.Block{Table: &synth.Table{HeaderRows: 1, Widths: []float64{3, 1, 1}, Rows: rows}})
		if p < 50 {
			body = append(body, synth.Block{PageBreak: true})
		}
	}
	return &synth.Spec{Format: "docx", Title: "Fifty pages", Docx: &synth.DocxSpec{
		Footer: []synth.Block{{Paragraph: &synth.Paragraph{Align: "center", Runs: []synth.Run{{Text: "Page "}, {Field: "PAGE"}}}}},
		Body:   body,
	}}
}

// TenThousandRows is a workbook of one 10,000-row sheet: an item, a
// region, six numbers with a number format and a SUM per row, a table over
// it all, a chart of the first 50 rows, and a totals sheet.
func TenThousandRows() *synth.Spec {
	const n = 10000
	rows := [][]synth.XCell{{{Kind: "text", Text: "Item"}, {Kind: "text", Text: "Region"},
		{Kind: "text", Text: "Jan"}, {Kind: "text", Text: "Feb"}, {Kind: "text", Text: "Mar"},
		{Kind: "text", Text: "Apr"}, {Kind: "text", Text: "May"}, {Kind: "text", Text: "Jun"}, {Kind: "text", Text: "Total"}}}
	regions := []string{"North", "South", "East", "West"}
	for r := 2; r <= n; r++ {
		row := []synth.XCell{{Kind: "text", Text: fmt.Sprintf("Item %05d", r-1)}, {Kind: "text", Text: regions[r%4]}}
		for m := 0; m < 6; m++ {
			row = append(row, synth.XCell{Kind: "number", Number: float64((r*37+m*101)%1000) / 4, NumFmt: "#,##0.00"})
		}
		row = append(row, synth.XCell{Kind: "formula", Formula: fmt.Sprintf("SUM(C%d:H%d)", r, r)})
		rows = append(rows, row)
	}
	return &synth.Spec{Format: "xlsx", Title: "Ten thousand rows", Xlsx: &synth.XlsxSpec{Sheets: []synth.Sheet{
		{Name: "Data", Rows: rows, ColWidths: []float64{12, 10, 9, 9, 9, 9, 9, 9, 11},
			Tables: []synth.XTable{{Name: "Sales", Ref: fmt.Sprintf("A1:I%d", n)}},
			Charts: []synth.XChart{{Type: "line", Title: "First 50 items", Cell: "K2", Series: []synth.XSeries{{Name: "Data!$I$1", Categories: "Data!$A$2:$A$51", Values: "Data!$I$2:$I$51"}}}}},
		{Name: "Totals", Rows: [][]synth.XCell{
			{{Kind: "text", Text: "Grand total"}, {Kind: "formula", Formula: fmt.Sprintf("SUM(Data!I2:I%d)", n)}},
			{{Kind: "text", Text: "Regions"}, {Kind: "formula", Formula: fmt.Sprintf("UNIQUE(Data!B2:B%d)", n)}},
		}},
	}}}
}
