package synthtest

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/editaudit/editaudit/synth"
)

// RandomOptions shape RandomSpec.
type RandomOptions struct {
	// Format is "docx", "pptx", "xlsx" or "hwpx"; "" picks one from the seed.
	Format string
	// Artifacts are artifact IDs the spec may use for its images (none:
	// no images).
	Artifacts []string
}

// RandomSpec is a valid spec of the public forms (no fixtures) drawn from
// seed: the same seed gives the same spec. It mixes everything the writers
// support — runs with formatting, tables with spans, vertical merges and
// nesting, lists, charts, page breaks, headers and footers, slides with
// tables, pictures, charts and notes, sheets with formulas (dynamic-array
// ones included), tables, merges, validations and charts — and text with
// XML specials, emoji, Korean and CJK.
func RandomSpec(seed uint64, o RandomOptions) *synth.Spec {
	g := &gen{r: rand.New(rand.NewPCG(seed, seed^0x9E3779B97F4A7C15)), art: o.Artifacts}
	f := o.Format
	if f == "" {
		f = []string{"docx", "pptx", "xlsx", "hwpx"}[g.r.IntN(4)]
	}
	s := &synth.Spec{Format: f, Title: g.sentence(2, 6)}
	switch f {
	case "docx":
		s.Docx = g.docx()
	case "pptx":
		s.Pptx = g.pptx()
	case "xlsx":
		s.Xlsx = g.xlsx()
	case "hwpx":
		s.Hwpx = g.hwpx()
	}
	return s
}

type gen struct {
	r   *rand.Rand
	art []string
	n   int // names made so far (tables, sheets)
}

var words = strings.Fields(`agreement party term fee payment invoice clause notice service delivery
schedule annex price total net gross quarter region north south east west widget gadget
계약 당사자 금액 납품 일정 合同 价格 交付 <tag> A&B "quoted" it's 100% ½ € ✓ 🚀 📈 😀 👍🏽`)

func (g *gen) word() string { return words[g.r.IntN(len(words))] }

func (g *gen) sentence(min, max int) string {
	n := min + g.r.IntN(max-min+1)
	ws := make([]string, n)
	for i := range ws {
		ws[i] = g.word()
	}
	s := strings.Join(ws, " ")
	if g.r.IntN(12) == 0 {
		s += "\tand\n" + g.word()
	}
	return s
}

func (g *gen) pick(list ...string) string { return list[g.r.IntN(len(list))] }

func (g *gen) color() string { return fmt.Sprintf("%06X", g.r.IntN(0x1000000)) }

func (g *gen) runs(fields bool) []synth.Run {
	n := 1 + g.r.IntN(4)
	var rs []synth.Run
	for i := 0; i < n; i++ {
		r := synth.Run{Text: g.sentence(1, 5) + " ", Bold: g.r.IntN(3) == 0, Italic: g.r.IntN(4) == 0, Underline: g.r.IntN(6) == 0}
		if g.r.IntN(3) == 0 {
			r.Size = float64(8 + g.r.IntN(20))
		}
		if g.r.IntN(4) == 0 {
			r.Color = g.color()
		}
		rs = append(rs, r)
	}
	if fields && g.r.IntN(2) == 0 {
		rs = append(rs, synth.Run{Field: g.pick("PAGE", "NUMPAGES")})
	}
	return rs
}

func (g *gen) paragraph(fields bool) *synth.Paragraph {
	p := &synth.Paragraph{Align: g.pick("", "left", "center", "right", "justify")}
	if g.r.IntN(2) == 0 {
		p.Text = g.sentence(3, 25)
	} else {
		p.Runs = g.runs(fields)
	}
	return p
}

func (g *gen) image() *synth.Image {
	if len(g.art) == 0 {
		return nil
	}
	im := &synth.Image{Src: "artifact:" + g.art[g.r.IntN(len(g.art))], Alt: g.sentence(1, 4)}
	if g.r.IntN(2) == 0 {
		im.Width = float64(40 + g.r.IntN(300))
	}
	return im
}

func (g *gen) chart() *synth.Chart {
	c := &synth.Chart{Type: g.pick("col", "bar", "line", "pie"), Title: g.sentence(1, 4)}
	if g.r.IntN(4) == 0 {
		c.Title = ""
	}
	n := 2 + g.r.IntN(6)
	for i := 0; i < n; i++ {
		c.Categories = append(c.Categories, fmt.Sprintf("%s %d", g.word(), i+1))
	}
	series := 1 + g.r.IntN(3)
	if c.Type == "pie" {
		series = 1
	}
	for j := 0; j < series; j++ {
		se := synth.ChartSeries{Name: g.sentence(1, 2)}
		for i := 0; i < n; i++ {
			se.Values = append(se.Values, float64(g.r.IntN(2000))/10)
		}
		c.Series = append(c.Series, se)
	}
	return c
}

// table draws a table of grid columns cols: rows of spans covering the
// grid, vertical merges between rows of single cells, nested blocks when
// nest allows (lists and fields only in docx).
func (g *gen) table(cols int, nest int, textOnly bool, docx bool) *synth.Table {
	t := &synth.Table{HeaderRows: g.r.IntN(2), NoBorders: g.r.IntN(8) == 0}
	if g.r.IntN(2) == 0 {
		for i := 0; i < cols; i++ {
			t.Widths = append(t.Widths, float64(1+g.r.IntN(4)))
		}
	}
	rows := 1 + g.r.IntN(6)
	prevSingles := false
	for ri := 0; ri < rows; ri++ {
		var row synth.Row
		singles := ri > 0 && g.r.IntN(2) == 0 || ri == 0
		if !singles {
			for col := 0; col < cols; {
				span := 1 + g.r.IntN(min(2, cols-col))
				row.Cells = append(row.Cells, synth.Cell{Span: span, Text: g.sentence(1, 3)})
				col += span
			}
		} else {
			for col := 0; col < cols; col++ {
				row.Cells = append(row.Cells, g.cell(nest, textOnly, docx))
			}
			if prevSingles && g.r.IntN(2) == 0 {
				j := g.r.IntN(cols)
				above := &t.Rows[ri-1].Cells[j]
				if above.VMerge == "" {
					above.VMerge = "restart"
				}
				row.Cells[j] = synth.Cell{VMerge: "continue"}
			}
		}
		t.Rows = append(t.Rows, row)
		prevSingles = singles
	}
	return t
}

func (g *gen) cell(nest int, textOnly, docx bool) synth.Cell {
	c := synth.Cell{Bold: g.r.IntN(5) == 0}
	if g.r.IntN(5) == 0 {
		c.Shade = g.color()
	}
	if textOnly || nest <= 0 || g.r.IntN(4) != 0 {
		c.Text = g.sentence(1, 6)
		return c
	}
	c.Blocks = []synth.Block{{Paragraph: g.paragraph(docx)}}
	if g.r.IntN(2) == 0 {
		c.Blocks = append(c.Blocks, synth.Block{Table: g.table(1+g.r.IntN(3), nest-1, false, docx)})
	}
	if docx && g.r.IntN(3) == 0 {
		c.Blocks = append(c.Blocks, synth.Block{List: g.list()})
	}
	return c
}

func (g *gen) list() *synth.List {
	l := &synth.List{Ordered: g.r.IntN(2) == 0}
	n := 1 + g.r.IntN(5)
	for i := 0; i < n; i++ {
		it := synth.ListItem{Level: g.r.IntN(3)}
		if g.r.IntN(3) == 0 {
			it.Runs = g.runs(false)
		} else {
			it.Text = g.sentence(2, 10)
		}
		l.Items = append(l.Items, it)
	}
	return l
}

func (g *gen) docx() *synth.DocxSpec {
	d := &synth.DocxSpec{}
	if g.r.IntN(2) == 0 {
		d.Page = &synth.PageSpec{Size: g.pick("A4", "Letter"), Landscape: g.r.IntN(4) == 0, MarginMM: float64(10 + g.r.IntN(30))}
	}
	if g.r.IntN(2) == 0 {
		d.Header = []synth.Block{{Paragraph: g.paragraph(false)}}
	}
	if g.r.IntN(2) == 0 {
		d.Footer = []synth.Block{{Paragraph: &synth.Paragraph{Align: "center", Runs: []synth.Run{{Text: "Page "}, {Field: "PAGE"}, {Text: " of "}, {Field: "NUMPAGES"}}}}}
	}
	n := 3 + g.r.IntN(25)
	for i := 0; i < n; i++ {
		d.Body = append(d.Body, g.block(true, true))
	}
	return d
}

// block draws one block of a docx body (all kinds) or an hwpx section
// (headings, paragraphs, tables, page breaks).
func (g *gen) block(docx, top bool) synth.Block {
	k := g.r.IntN(10)
	switch {
	case k < 2:
		return synth.Block{Heading: &synth.Heading{Level: 1 + g.r.IntN(6), Text: g.sentence(1, 6)}}
	case k < 5:
		return synth.Block{Paragraph: g.paragraph(docx)}
	case k < 7:
		return synth.Block{Table: g.table(1+g.r.IntN(5), 2, false, docx)}
	case k == 7 && docx:
		return synth.Block{List: g.list()}
	case k == 8 && docx:
		if g.r.IntN(2) == 0 {
			if im := g.image(); im != nil {
				im.Align = g.pick("", "left", "center", "right")
				return synth.Block{Image: im}
			}
		}
		return synth.Block{Chart: g.chart()}
	case k == 9 && top && g.r.IntN(3) == 0:
		return synth.Block{PageBreak: true}
	}
	return synth.Block{Paragraph: g.paragraph(docx)}
}

func (g *gen) pptx() *synth.PptxSpec {
	p := &synth.PptxSpec{Size: g.pick("", "16:9", "4:3")}
	n := 1 + g.r.IntN(8)
	for i := 0; i < n; i++ {
		sl := synth.Slide{Title: g.sentence(1, 6)}
		for j := g.r.IntN(5); j > 0; j-- {
			para := g.paragraph(false)
			para.Level = g.r.IntN(3)
			sl.Body = append(sl.Body, *para)
		}
		if g.r.IntN(3) == 0 {
			sl.Table = g.table(1+g.r.IntN(4), 0, true, false)
		}
		switch g.r.IntN(3) {
		case 0:
			sl.Image = g.image()
		case 1:
			sl.Chart = g.chart()
		}
		if g.r.IntN(2) == 0 {
			sl.Notes = g.sentence(3, 12)
		}
		p.Slides = append(p.Slides, sl)
	}
	return p
}

func (g *gen) hwpx() *synth.HwpxSpec {
	h := &synth.HwpxSpec{}
	n := 1 + g.r.IntN(3)
	for i := 0; i < n; i++ {
		var sec synth.HSection
		for j := 2 + g.r.IntN(10); j > 0; j-- {
			sec.Blocks = append(sec.Blocks, g.block(false, true))
		}
		h.Sections = append(h.Sections, sec)
	}
	return h
}

// xlsx draws sheets of a header row and data rows, totals by formula, a
// table over the data, merges, a list validation and a chart on the data
// (all placed apart so none overlaps another).
func (g *gen) xlsx() *synth.XlsxSpec {
	x := &synth.XlsxSpec{}
	n := 1 + g.r.IntN(3)
	for i := 0; i < n; i++ {
		g.n++
		name := fmt.Sprintf("%s %d", g.pick("Data", "매출", "Q&A", "It's", "Sales"), g.n)
		x.Sheets = append(x.Sheets, g.sheet(name))
	}
	return x
}

func (g *gen) sheet(name string) synth.Sheet {
	cols := 2 + g.r.IntN(5)
	rows := 2 + g.r.IntN(25)
	sh := synth.Sheet{Name: name}
	header := make([]synth.XCell, cols)
	header[0] = synth.XCell{Kind: "text", Text: "Item", Bold: true}
	for c := 1; c < cols; c++ {
		header[c] = synth.XCell{Kind: "text", Text: fmt.Sprintf("Q%d %s", c, g.word()), Fill: g.pick("", "D9E2F3")}
	}
	sh.Rows = append(sh.Rows, header)
	for r := 1; r <= rows; r++ {
		row := make([]synth.XCell, cols)
		row[0] = synth.XCell{Kind: "text", Text: fmt.Sprintf("%s %d", g.word(), r)}
		for c := 1; c < cols; c++ {
			switch g.r.IntN(8) {
			case 0:
				row[c] = synth.XCell{Kind: "bool", Bool: g.r.IntN(2) == 0}
			default:
				row[c] = synth.XCell{Kind: "number", Number: float64(g.r.IntN(100000)) / 100, NumFmt: g.pick("", "#,##0.00", "0%")}
			}
		}
		sh.Rows = append(sh.Rows, row)
	}
	last := rows + 1
	col := func(c int) string { return string(rune('A' + c)) }
	// Formulas below the data: one row of totals and averages, then a row
	// of functions that need the future-function prefixes, LET and a
	// dynamic array (UNIQUE spills down from its cell, so the rows under
	// it stay empty).
	totals := make([]synth.XCell, cols)
	totals[0] = synth.XCell{Kind: "text", Text: "Total", Bold: true}
	for c := 1; c < cols; c++ {
		f := g.pick("SUM", "AVERAGE", "MAX", "MIN", "COUNT")
		totals[c] = synth.XCell{Kind: "formula", Formula: fmt.Sprintf("%s(%s2:%s%d)", f, col(c), col(c), last)}
	}
	sh.Rows = append(sh.Rows, totals)
	extra := []synth.XCell{
		{Kind: "formula", Formula: fmt.Sprintf(`TEXTJOIN(", ",TRUE,A2:A%d)`, min(last, 5))},
		{Kind: "formula", Formula: fmt.Sprintf("LET(x,SUM(B2:B%d),y,x*2,IF(y>100,y,-y))", last)},
		{Kind: "formula", Formula: fmt.Sprintf(`XLOOKUP(A2,A2:A%d,B2:B%d,"none")`, last, last)},
		{Kind: "formula", Formula: `IFS(B2>10,"big",TRUE,"small")`},
		{Kind: "formula", Formula: fmt.Sprintf("UNIQUE(A2:A%d)", last)},
	}
	sh.Rows = append(sh.Rows, extra[:min(len(extra), cols)])
	widths := make([]float64, cols)
	for c := range widths {
		widths[c] = float64(8 + g.r.IntN(12))
	}
	sh.ColWidths = widths
	ref := fmt.Sprintf("A1:%s%d", col(cols-1), last)
	if g.r.IntN(2) == 0 {
		g.n++
		sh.Tables = append(sh.Tables, synth.XTable{Name: fmt.Sprintf("Table%d", g.n), Ref: ref, Style: g.pick("", "TableStyleLight9", "TableStyleMedium4")})
	}
	// Merges and validations to the right of the data.
	mc := col(cols + 1)
	sh.Merges = append(sh.Merges, fmt.Sprintf("%s1:%s2", mc, col(cols+2)))
	sh.Validations = append(sh.Validations, synth.XValidation{Ref: fmt.Sprintf("%s4:%s9", mc, mc), List: []string{"Yes", "No", "Maybe"}})
	q := "'" + strings.ReplaceAll(name, "'", "''") + "'"
	ch := synth.XChart{Type: g.pick("col", "bar", "line", "pie"), Title: g.sentence(1, 3), Cell: col(cols+4) + "2"}
	for c := 1; c < cols && c < 4; c++ {
		if ch.Type == "pie" && c > 1 {
			break
		}
		ch.Series = append(ch.Series, synth.XSeries{
			Name:       fmt.Sprintf("%s!$%s$1", q, col(c)),
			Categories: fmt.Sprintf("%s!$A$2:$A$%d", q, last),
			Values:     fmt.Sprintf("%s!$%s$2:$%s$%d", q, col(c), col(c), last),
		})
	}
	sh.Charts = append(sh.Charts, ch)
	if im := g.image(); im != nil {
		im.Cell = col(cols+4) + "20"
		sh.Images = append(sh.Images, *im)
	}
	return sh
}
