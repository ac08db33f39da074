package convert

import (
	"fmt"
	"sort"
	"strings"
)

// Grid bounds: beyond these a table is hostile or broken (the largest real
// one has 30 columns and a few hundred rows).
const (
	maxCols = 256
	maxRows = 20000
)

type cell struct {
	n                *node
	row, col, rs, cs int
	w, h             int
	margin           [4]int // left, right, top, bottom
	borderFill       int
	vAlign           string
	header           bool
}

// table converts an hp:tbl into a table:table. pp is the paragraph shape of
// the paragraph holding it (an inline table takes its alignment).
func (c *conv) table(w *writer, tbl *node, pp *paraPr) {
	c.tables++
	tn := c.tables
	g := readGeom(tbl)
	in := tbl.child("inMargin")
	defMargin := [4]int{in.int("left", 510), in.int("right", 510), in.int("top", 141), in.int("bottom", 141)}
	tableBF := tbl.int("borderFillIDRef", -1)

	// Cells, placed by their cellAddr; a cell without a usable address goes
	// to the next free column of its row.
	var cells []*cell
	rows := tbl.children("tr")
	if len(rows) > maxRows {
		c.note(fmt.Sprintf("a table with more than %d rows is cut", maxRows))
		rows = rows[:maxRows]
	}
	// The grid has one row per hp:tr (a span past the last row is cut, as
	// Hangul shows it) and as many columns as the cells reach, at most
	// colCnt when that is declared and larger than every start column.
	nrows, ncols := len(rows), 0
	for r, tr := range rows {
		next := 0
		for _, tc := range tr.children("tc") {
			addr, span, sz := tc.child("cellAddr"), tc.child("cellSpan"), tc.child("cellSz")
			ce := &cell{n: tc, row: addr.int("rowAddr", r), col: addr.int("colAddr", next),
				rs: clamp(span.int("rowSpan", 1), 1, maxRows), cs: clamp(span.int("colSpan", 1), 1, maxCols),
				w: clamp(sz.int("width", 0), 0, maxLength), h: clamp(sz.int("height", 0), 0, maxLength),
				borderFill: tc.int("borderFillIDRef", tableBF), header: tc.attr("header") == "1",
				vAlign: strings.ToUpper(tc.child("subList").attr("vertAlign"))}
			if ce.row < 0 || ce.row >= nrows {
				ce.row = r
			}
			if ce.col < 0 || ce.col >= maxCols {
				ce.col = next
			}
			ce.margin = defMargin
			if tc.attr("hasMargin") == "1" {
				if m := tc.child("cellMargin"); m != nil {
					ce.margin = [4]int{m.int("left", 0), m.int("right", 0), m.int("top", 0), m.int("bottom", 0)}
				}
			}
			for i := range ce.margin {
				ce.margin[i] = clamp(ce.margin[i], 0, 100000)
			}
			next = ce.col + 1
			if ce.col >= maxCols {
				continue
			}
			ncols = max(ncols, ce.col+1)
			cells = append(cells, ce)
		}
	}
	if ncols == 0 || nrows == 0 {
		c.note("an empty table (no cells) is not shown")
		return
	}
	limit := min(maxCols, max(ncols, tbl.int("colCnt", 0)))
	for _, ce := range cells {
		ce.cs = clamp(ce.cs, 1, limit-ce.col)
		ce.rs = clamp(ce.rs, 1, nrows-ce.row)
		ncols = max(ncols, ce.col+ce.cs)
	}
	// The grid: who starts at each slot, and which slots are covered.
	start := make(map[[2]int]*cell, len(cells))
	covered := make(map[[2]int]bool)
	dropped := 0
	for _, ce := range cells {
		k := [2]int{ce.row, ce.col}
		if start[k] != nil || covered[k] {
			dropped++
			continue
		}
		start[k] = ce
		for r := ce.row; r < ce.row+ce.rs; r++ {
			for cc := ce.col; cc < ce.col+ce.cs; cc++ {
				if r != ce.row || cc != ce.col {
					covered[[2]int{r, cc}] = true
				}
			}
		}
	}
	if dropped > 0 {
		c.note("table cells that overlap another cell are not shown")
	}
	colW := solveBounds(ncols, cells, func(ce *cell) (int, int, int) { return ce.col, ce.cs, ce.w })
	rowH := solveBounds(nrows, cells, func(ce *cell) (int, int, int) { return ce.row, ce.rs, ce.h })
	total := 0
	for _, v := range colW {
		total += v
	}

	// Table style: width, alignment, spacing, page breaking, the master
	// page or page break pending in w.
	var tp strings.Builder
	fmt.Fprintf(&tp, `<style:table-properties style:width="%s"`, pt(total))
	align, ml, mr := "left", 0, 0
	if g.inline {
		switch pp.align {
		case "CENTER":
			align = "center"
		case "RIGHT":
			align = "right"
		}
		ml = pp.left + max(-pp.indent, 0)
		if pp.indent > 0 {
			ml += pp.indent
		}
	} else {
		switch g.horzAlign {
		case "CENTER":
			align = "center"
		case "RIGHT":
			align = "right"
			mr = max(g.hOff, 0)
		default:
			ml = g.hOff
			if g.horzRel == "PAPER" {
				ml -= c.secLeft
			}
		}
	}
	ml += g.out[0]
	if align == "left" && ml != 0 {
		align = "margins"
		ml = max(ml, 0)
	}
	top := g.out[2] + max(pp.prev, 0)
	if !g.inline && g.vertRel == "PARA" {
		top += max(g.vOff, 0)
	}
	fmt.Fprintf(&tp, ` table:align="%s" fo:margin-left="%s" fo:margin-right="%s" fo:margin-top="%s" fo:margin-bottom="%s"`,
		align, pt(ml), pt(mr), pt(top), pt(g.out[3]+max(pp.next, 0)))
	switch strings.ToUpper(tbl.attr("pageBreak")) {
	case "NONE":
		tp.WriteString(` style:may-break-between-rows="false"`)
	}
	if w.brk && w.master == "" {
		tp.WriteString(` fo:break-before="page"`)
	}
	tp.WriteString(` table:border-model="collapsing"/>`)
	attrs := ""
	if w.master != "" {
		attrs = ` style:master-page-name="` + w.master + `"`
	}
	w.master, w.brk = "", false
	tstyle := w.st.get("table", "Tb", attrs, tp.String())

	fmt.Fprintf(w.b, `<table:table table:name="Table%d" table:style-name="%s">`, tn, tstyle)
	for _, cw := range colW {
		cs := w.st.get("table-column", "Col", "", `<style:table-column-properties style:column-width="`+pt(max(cw, 1))+`"/>`)
		fmt.Fprintf(w.b, `<table:table-column table:style-name="%s"/>`, cs)
	}
	keepRows := strings.EqualFold(tbl.attr("pageBreak"), "CELL")
	headerRows := 0
	if tbl.attr("repeatHeader") == "1" {
		for r := 0; r < nrows; r++ {
			all, any := true, false
			for cc := 0; cc < ncols; cc++ {
				if ce := start[[2]int{r, cc}]; ce != nil {
					any = true
					all = all && ce.header
				}
			}
			if !any || !all {
				break
			}
			headerRows++
		}
	}
	for r := 0; r < nrows; r++ {
		if err := c.ctx.Err(); err != nil {
			c.err = err
			return
		}
		if r == 0 && headerRows > 0 {
			w.b.WriteString("<table:table-header-rows>")
		}
		rp := `<style:table-row-properties style:min-row-height="` + pt(max(rowH[r], 1)) + `"`
		if keepRows {
			rp += ` fo:keep-together="always"`
		}
		rp += "/>"
		fmt.Fprintf(w.b, `<table:table-row table:style-name="%s">`, w.st.get("table-row", "Row", "", rp))
		for cc := 0; cc < ncols; cc++ {
			k := [2]int{r, cc}
			if ce := start[k]; ce != nil {
				c.cell(w, ce)
				continue
			}
			if covered[k] {
				w.b.WriteString("<table:covered-table-cell/>")
				continue
			}
			// A slot no cell covers (a broken table): an empty cell.
			w.b.WriteString(`<table:table-cell office:value-type="string"><text:p/></table:table-cell>`)
		}
		w.b.WriteString("</table:table-row>")
		if r == headerRows-1 {
			w.b.WriteString("</table:table-header-rows>")
		}
	}
	w.b.WriteString("</table:table>")
}

func (c *conv) cell(w *writer, ce *cell) {
	var p strings.Builder
	p.WriteString("<style:table-cell-properties")
	va := map[string]string{"TOP": "top", "BOTTOM": "bottom"}[ce.vAlign]
	if va == "" {
		va = "middle"
	}
	fmt.Fprintf(&p, ` style:vertical-align="%s" fo:padding-left="%s" fo:padding-right="%s" fo:padding-top="%s" fo:padding-bottom="%s"`,
		va, pt(ce.margin[0]), pt(ce.margin[1]), pt(ce.margin[2]), pt(ce.margin[3]))
	if bf := c.h.borderFills[ce.borderFill]; bf != nil {
		fmt.Fprintf(&p, ` fo:border-left="%s" fo:border-right="%s" fo:border-top="%s" fo:border-bottom="%s"`,
			borderProp(bf.left), borderProp(bf.right), borderProp(bf.top), borderProp(bf.bottom))
		if bf.fill != "" {
			fmt.Fprintf(&p, ` fo:background-color="%s"`, bf.fill)
		}
	} else {
		p.WriteString(` fo:border="none"`)
	}
	p.WriteString("/>")
	st := w.st.get("table-cell", "Cell", "", p.String())
	fmt.Fprintf(w.b, `<table:table-cell table:style-name="%s" office:value-type="string"`, st)
	if ce.cs > 1 {
		fmt.Fprintf(w.b, ` table:number-columns-spanned="%d"`, ce.cs)
	}
	if ce.rs > 1 {
		fmt.Fprintf(w.b, ` table:number-rows-spanned="%d"`, ce.rs)
	}
	w.b.WriteString(">")
	sub := &writer{b: w.b, st: w.st}
	before := w.b.Len()
	c.depth++
	c.blocks(sub, ce.n.child("subList"))
	c.depth--
	if w.b.Len() == before {
		w.b.WriteString("<text:p/>")
	}
	w.b.WriteString("</table:table-cell>")
}

// solveBounds finds n track sizes (column widths or row heights) from the
// cells' spans and sizes: boundary b[i+span] = b[i] + size, propagated
// from b[0] = 0 until nothing changes; tracks no cell pins down share the
// space between known boundaries, and a track with no size at all gets a
// default (a tenth of an inch).
func solveBounds(n int, cells []*cell, get func(*cell) (start, span, size int)) []int {
	// Single-track cells first: they pin the tracks down exactly.
	cells = append([]*cell(nil), cells...)
	sort.SliceStable(cells, func(i, j int) bool {
		_, a, _ := get(cells[i])
		_, b, _ := get(cells[j])
		return a < b
	})
	b := make([]int, n+1)
	known := make([]bool, n+1)
	known[0] = true
	for changed, pass := true, 0; changed && pass < n+2; pass++ {
		changed = false
		for _, ce := range cells {
			s, sp, sz := get(ce)
			if sz <= 0 || s < 0 || s+sp > n {
				continue
			}
			switch {
			case known[s] && !known[s+sp]:
				b[s+sp], known[s+sp] = b[s]+sz, true
				changed = true
			case known[s+sp] && !known[s] && b[s+sp]-sz >= 0:
				b[s], known[s] = b[s+sp]-sz, true
				changed = true
			}
		}
	}
	// Interpolate unknown boundaries between known ones.
	last := 0
	for i := 1; i <= n; i++ {
		if !known[i] {
			continue
		}
		if i-last > 1 {
			step := (b[i] - b[last]) / (i - last)
			for j := last + 1; j < i; j++ {
				b[j] = b[last] + step*(j-last)
			}
		}
		last = i
	}
	for j := last + 1; j <= n; j++ {
		b[j] = b[j-1] + 720
	}
	out := make([]int, n)
	for i := range out {
		out[i] = max(b[i+1]-b[i], 0)
	}
	return out
}
