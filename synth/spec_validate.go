package synth

import (
	"fmt"
	"math"
	"regexp"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// validator walks a decoded spec, collecting errors with JSON paths.
type validator struct {
	errs       SpecErrors
	format     string
	blocks     int
	images     int // decoded image bytes so far
	cells      int // xlsx cells so far
	tableNames map[string]string
}

func (v *validator) fail(path, format string, a ...any) {
	if len(v.errs) < maxSpecErrors {
		v.errs = append(v.errs, &SpecError{Path: path, Msg: fmt.Sprintf(format, a...)})
	}
}

func (v *validator) full() bool { return len(v.errs) >= maxSpecErrors }

// count checks a collection size against its cap.
func (v *validator) count(path string, n, max int, what string) bool {
	if n > max {
		v.fail(path, "%d %s exceed the cap of %d", n, what, max)
		return false
	}
	return true
}

var hexColor = regexp.MustCompile(`^[0-9A-Fa-f]{6}$`)

// text checks one text value: length cap, and no character that XML 1.0
// forbids (the writers must never produce xml.illegal-char themselves; the
// injectors do that on purpose). Tab and newline are allowed: they become
// w:tab/w:br (docx), a:br (pptx) or separate paragraphs.
func (v *validator) text(path, s string) {
	if n := utf8.RuneCountInString(s); n > MaxTextLen {
		v.fail(path, "%d characters exceed the cap of %d", n, MaxTextLen)
		return
	}
	for i, r := range s {
		if r == '\t' || r == '\n' {
			continue
		}
		if r < 0x20 || r == 0xFFFE || r == 0xFFFF || (r >= 0xD800 && r <= 0xDFFF) {
			v.fail(path, "character U+%04X at byte %d is not allowed in XML 1.0 text", r, i)
			return
		}
	}
}

func (v *validator) color(path, s string) {
	if s != "" && !hexColor.MatchString(s) {
		v.fail(path, "%q is not an RGB hex colour like 1F4E79", s)
	}
}

func (v *validator) oneOf(path, s string, allowed ...string) {
	if s == "" {
		return
	}
	for _, a := range allowed {
		if s == a {
			return
		}
	}
	v.fail(path, "%q is not one of %s", s, strings.Join(allowed, ", "))
}

func (v *validator) spec(s *Spec) {
	v.format = s.Format
	v.text("$.title", s.Title)
	if utf8.RuneCountInString(s.Title) > 1000 {
		v.fail("$.title", "title longer than the cap of 1000 characters")
	}
	bodies := map[string]bool{"docx": s.Docx != nil, "pptx": s.Pptx != nil, "xlsx": s.Xlsx != nil, "hwpx": s.Hwpx != nil}
	switch s.Format {
	case "docx", "pptx", "xlsx", "hwpx":
	case "":
		v.fail("$.format", "missing: one of docx, pptx, xlsx, hwpx")
		return
	default:
		v.fail("$.format", "%q is not one of docx, pptx, xlsx, hwpx", s.Format)
		return
	}
	for _, f := range []string{"docx", "pptx", "xlsx", "hwpx"} {
		if f == s.Format && !bodies[f] {
			v.fail("$."+f, "missing: a %s spec needs a %q object", f, f)
		}
		if f != s.Format && bodies[f] {
			v.fail("$."+f, "a %s spec cannot have a %q object", s.Format, f)
		}
	}
	switch {
	case s.Docx != nil && s.Format == "docx":
		v.docx(s.Docx)
	case s.Pptx != nil && s.Format == "pptx":
		v.pptx(s.Pptx)
	case s.Xlsx != nil && s.Format == "xlsx":
		v.xlsx(s.Xlsx)
	case s.Hwpx != nil && s.Format == "hwpx":
		v.hwpx(s.Hwpx)
	}
}

// blockCtx says where a block sits: what it may contain.
type blockCtx struct {
	depth     int  // tables around it
	body      bool // the document body (page breaks allowed)
	hwpx      bool
	noFields  bool
	noNesting bool // pptx cells: text only
}

func (v *validator) docx(d *DocxSpec) {
	if d.Page != nil {
		v.oneOf("$.docx.page.size", d.Page.Size, "A4", "Letter")
		if m := d.Page.MarginMM; m < 0 || m > 60 {
			v.fail("$.docx.page.marginMM", "%g mm is outside 0–60", m)
		}
	}
	if len(d.Body) == 0 {
		v.fail("$.docx.body", "missing: at least one block")
	}
	v.blockList("$.docx.header", d.Header, blockCtx{})
	v.blockList("$.docx.footer", d.Footer, blockCtx{})
	v.blockList("$.docx.body", d.Body, blockCtx{body: true})
}

func (v *validator) blockList(path string, bs []Block, ctx blockCtx) {
	if !v.count(path, len(bs), MaxBlocks, "blocks") {
		return
	}
	for i := range bs {
		if v.full() {
			return
		}
		v.block(fmt.Sprintf("%s[%d]", path, i), &bs[i], ctx)
	}
}

func (v *validator) block(path string, b *Block, ctx blockCtx) {
	v.blocks++
	if v.blocks == MaxTotalBlocks+1 {
		v.fail(path, "more than %d blocks in the document exceed the cap", MaxTotalBlocks)
	}
	set := []string{}
	if b.Heading != nil {
		set = append(set, "heading")
	}
	if b.Paragraph != nil {
		set = append(set, "paragraph")
	}
	if b.Table != nil {
		set = append(set, "table")
	}
	if b.List != nil {
		set = append(set, "list")
	}
	if b.Image != nil {
		set = append(set, "image")
	}
	if b.PageBreak {
		set = append(set, "pageBreak")
	}
	if len(set) != 1 {
		if len(set) == 0 {
			v.fail(path, "empty block: set one of heading, paragraph, table, list, image, pageBreak")
		} else {
			v.fail(path, "a block holds exactly one of heading, paragraph, table, list, image, pageBreak; found %s", strings.Join(set, ", "))
		}
		return
	}
	switch {
	case b.Heading != nil:
		if b.Heading.Level < 1 || b.Heading.Level > 6 {
			v.fail(path+".heading.level", "%d is outside 1–6", b.Heading.Level)
		}
		v.textOrRuns(path+".heading", b.Heading.Text, b.Heading.Runs, ctx)
	case b.Paragraph != nil:
		v.paragraph(path+".paragraph", b.Paragraph, ctx, false)
	case b.Table != nil:
		if ctx.depth >= MaxNesting {
			v.fail(path+".table", "tables nested %d deep exceed the cap of %d", ctx.depth+1, MaxNesting)
			return
		}
		v.table(path+".table", b.Table, ctx)
	case b.List != nil:
		if ctx.hwpx {
			v.fail(path+".list", "lists are not supported in hwpx specs")
			return
		}
		v.list(path+".list", b.List, ctx)
	case b.Image != nil:
		if ctx.hwpx {
			v.fail(path+".image", "images are not supported in hwpx specs")
			return
		}
		v.image(path+".image", b.Image, false)
	case b.PageBreak:
		if !ctx.body {
			v.fail(path+".pageBreak", "a page break is allowed only at the top level of the body")
		}
	}
}

func (v *validator) paragraph(path string, p *Paragraph, ctx blockCtx, pptx bool) {
	v.oneOf(path+".align", p.Align, "left", "center", "right", "justify")
	if pptx {
		if p.Level < 0 || p.Level > 4 {
			v.fail(path+".level", "%d is outside 0–4", p.Level)
		}
	} else if p.Level != 0 {
		v.fail(path+".level", "level applies to pptx body paragraphs only; use a list")
	}
	v.textOrRuns(path, p.Text, p.Runs, ctx)
}

func (v *validator) textOrRuns(path, text string, runs []Run, ctx blockCtx) {
	if text != "" && len(runs) > 0 {
		v.fail(path, "give text or runs, not both")
		return
	}
	v.text(path+".text", text)
	if !v.count(path+".runs", len(runs), MaxRuns, "runs") {
		return
	}
	for i := range runs {
		r := &runs[i]
		rp := fmt.Sprintf("%s.runs[%d]", path, i)
		v.text(rp+".text", r.Text)
		v.color(rp+".color", r.Color)
		if r.Size != 0 && (r.Size < 1 || r.Size > 400 || math.IsNaN(r.Size)) {
			v.fail(rp+".size", "%g pt is outside 1–400", r.Size)
		}
		if r.Field != "" {
			if ctx.noFields || v.format != "docx" {
				v.fail(rp+".field", "fields are supported in docx only")
				continue
			}
			v.oneOf(rp+".field", r.Field, "PAGE", "NUMPAGES")
			if r.Text != "" {
				v.fail(rp, "a field run has no text")
			}
		}
	}
}

func (v *validator) list(path string, l *List, ctx blockCtx) {
	if len(l.Items) == 0 {
		v.fail(path+".items", "missing: at least one item")
	}
	if !v.count(path+".items", len(l.Items), MaxListItems, "items") {
		return
	}
	for i := range l.Items {
		it := &l.Items[i]
		ip := fmt.Sprintf("%s.items[%d]", path, i)
		if it.Level < 0 || it.Level > 8 {
			v.fail(ip+".level", "%d is outside 0–8", it.Level)
		}
		v.textOrRuns(ip, it.Text, it.Runs, ctx)
	}
}

// table checks rows, the grid (every row covers the same number of grid
// columns) and vertical merges (a "continue" sits under a "restart" or
// "continue" of the same grid column and span, and is empty).
func (v *validator) table(path string, t *Table, ctx blockCtx) {
	if len(t.Rows) == 0 {
		v.fail(path+".rows", "missing: at least one row")
		return
	}
	if !v.count(path+".rows", len(t.Rows), MaxRows, "rows") {
		return
	}
	if t.HeaderRows < 0 || t.HeaderRows > len(t.Rows) {
		v.fail(path+".headerRows", "%d is outside 0–%d (the number of rows)", t.HeaderRows, len(t.Rows))
	}
	grid := -1
	type vcell struct {
		span   int
		vmerge string
	}
	var above map[int]vcell // grid column → the cell starting there
	for ri := range t.Rows {
		row := &t.Rows[ri]
		rp := fmt.Sprintf("%s.rows[%d]", path, ri)
		if len(row.Cells) == 0 {
			v.fail(rp+".cells", "missing: at least one cell (Word refuses a w:tr without w:tc)")
			continue
		}
		if !v.count(rp+".cells", len(row.Cells), MaxCells, "cells") {
			continue
		}
		cur := map[int]vcell{}
		col := 0
		for ci := range row.Cells {
			c := &row.Cells[ci]
			cp := fmt.Sprintf("%s.cells[%d]", rp, ci)
			span := c.Span
			if span == 0 {
				span = 1
			}
			if span < 0 || span > MaxCells {
				v.fail(cp+".span", "%d is outside 1–%d", c.Span, MaxCells)
				span = 1
			}
			v.oneOf(cp+".vmerge", c.VMerge, "restart", "continue")
			v.color(cp+".shade", c.Shade)
			if c.VMerge == "continue" {
				up, ok := above[col]
				if !ok || up.span != span || up.vmerge == "" {
					v.fail(cp+".vmerge", "\"continue\" needs a cell with \"restart\" or \"continue\" and the same span directly above it (grid column %d)", col+1)
				}
				if c.Text != "" || len(c.Blocks) > 0 {
					v.fail(cp, "a \"continue\" cell is covered by the cell above and must be empty")
				}
			}
			cur[col] = vcell{span, c.VMerge}
			if c.Text != "" && len(c.Blocks) > 0 {
				v.fail(cp, "give text or blocks, not both")
			}
			v.text(cp+".text", c.Text)
			if len(c.Blocks) > 0 {
				if ctx.noNesting {
					v.fail(cp+".blocks", "cells of a pptx table hold text only")
				} else {
					inner := ctx
					inner.depth++
					inner.body = false
					v.blockList(cp+".blocks", c.Blocks, inner)
				}
			}
			col += span
		}
		if grid == -1 {
			grid = col
		} else if col != grid {
			v.fail(rp, "the cells cover %d grid columns; row 0 covers %d", col, grid)
		}
		above = cur
	}
	if grid > MaxCells {
		v.fail(path, "%d grid columns exceed the cap of %d", grid, MaxCells)
	}
	if len(t.Widths) > 0 && grid > 0 && len(t.Widths) != grid {
		v.fail(path+".widths", "%d widths for %d grid columns", len(t.Widths), grid)
	}
	for i, w := range t.Widths {
		if !(w > 0) || w > 1e6 {
			v.fail(fmt.Sprintf("%s.widths[%d]", path, i), "%g is not a positive relative width", w)
		}
	}
}

// image checks the source, decodes the PNG and checks sizes.
func (v *validator) image(path string, im *Image, xlsx bool) {
	if (im.Src == "") == (im.Data == "") {
		v.fail(path, "give exactly one of src (\"builtin:NAME\") and data (base64 PNG)")
		return
	}
	for _, d := range []struct {
		name string
		val  float64
	}{{"width", im.Width}, {"height", im.Height}} {
		if d.val < 0 || d.val > MaxImagePoints || math.IsNaN(d.val) {
			v.fail(path+"."+d.name, "%g pt is outside 0–%d", d.val, MaxImagePoints)
		}
	}
	v.oneOf(path+".align", im.Align, "left", "center", "right")
	v.text(path+".alt", im.Alt)
	if xlsx {
		if _, err := parseCellRef(im.Cell); err != nil {
			v.fail(path+".cell", "%v", err)
		}
	} else if im.Cell != "" {
		v.fail(path+".cell", "cell anchors apply to xlsx images only")
	}
	if im.Src != "" {
		// Builtin images are the project's own; painting them here would
		// only cost time.
		if err := checkBuiltin(im.Src); err != nil {
			v.fail(path, "%v", err)
		}
		return
	}
	pic, err := loadImage(im)
	if err != nil {
		v.fail(path, "%v", err)
		return
	}
	v.images += len(pic.data)
	if v.images > MaxTotalImage && v.images-len(pic.data) <= MaxTotalImage {
		v.fail(path, "images total more than the cap of %d bytes", MaxTotalImage)
	}
}

func (v *validator) pptx(p *PptxSpec) {
	v.oneOf("$.pptx.size", p.Size, "16:9", "4:3")
	if len(p.Slides) == 0 {
		v.fail("$.pptx.slides", "missing: at least one slide")
	}
	if !v.count("$.pptx.slides", len(p.Slides), MaxSlides, "slides") {
		return
	}
	ctx := blockCtx{noFields: true, noNesting: true}
	for i := range p.Slides {
		s := &p.Slides[i]
		sp := fmt.Sprintf("$.pptx.slides[%d]", i)
		v.text(sp+".title", s.Title)
		v.text(sp+".notes", s.Notes)
		if v.count(sp+".body", len(s.Body), MaxSlideParas, "paragraphs") {
			for j := range s.Body {
				v.paragraph(fmt.Sprintf("%s.body[%d]", sp, j), &s.Body[j], ctx, true)
			}
		}
		if s.Table != nil {
			if len(s.Table.Rows) > 100 {
				v.fail(sp+".table.rows", "%d rows exceed the cap of 100 on a slide", len(s.Table.Rows))
			} else {
				v.table(sp+".table", s.Table, ctx)
			}
		}
		if s.Image != nil {
			v.image(sp+".image", s.Image, false)
		}
		if v.full() {
			return
		}
	}
}

func (v *validator) hwpx(h *HwpxSpec) {
	if len(h.Sections) == 0 {
		v.fail("$.hwpx.sections", "missing: at least one section")
	}
	if !v.count("$.hwpx.sections", len(h.Sections), MaxSections, "sections") {
		return
	}
	for i := range h.Sections {
		sp := fmt.Sprintf("$.hwpx.sections[%d].blocks", i)
		if len(h.Sections[i].Blocks) == 0 {
			v.fail(sp, "missing: at least one block")
		}
		v.blockList(sp, h.Sections[i].Blocks, blockCtx{body: true, hwpx: true, noFields: true})
	}
}

// Excel's rules for sheet and table names (DEFECTS.md: a bad or duplicate
// sheet name makes Excel repair the workbook).
var (
	tableName     = regexp.MustCompile(`^[A-Za-z_\\][A-Za-z0-9_.\\]*$`)
	tableLikeCell = regexp.MustCompile(`^(?i:[A-Z]{1,3}[0-9]+|R[0-9]*C[0-9]*|R|C)$`)
)

func sheetNameProblem(name string) string {
	switch {
	case strings.TrimSpace(name) == "":
		return "blank"
	case len(utf16.Encode([]rune(name))) > 31:
		return "longer than 31 characters"
	case strings.ContainsAny(name, `:\/?*[]`):
		return `contains one of : \ / ? * [ ]`
	case strings.HasPrefix(name, "'") || strings.HasSuffix(name, "'"):
		return "starts or ends with an apostrophe"
	}
	for _, r := range name {
		if r < 0x20 {
			return "contains a control character"
		}
	}
	return ""
}

func (v *validator) xlsx(x *XlsxSpec) {
	if len(x.Sheets) == 0 {
		v.fail("$.xlsx.sheets", "missing: at least one sheet")
	}
	if !v.count("$.xlsx.sheets", len(x.Sheets), MaxSheets, "sheets") {
		return
	}
	v.tableNames = map[string]string{}
	names := map[string]int{}
	for i := range x.Sheets {
		sp := fmt.Sprintf("$.xlsx.sheets[%d]", i)
		s := &x.Sheets[i]
		if p := sheetNameProblem(s.Name); p != "" {
			v.fail(sp+".name", "sheet name %q is %s", s.Name, p)
		}
		key := strings.ToLower(s.Name)
		if j, dup := names[key]; dup {
			v.fail(sp+".name", "sheet name %q repeats sheet %d (names compare case-insensitively)", s.Name, j)
		}
		names[key] = i
		v.sheet(sp, s)
		if v.full() {
			return
		}
	}
}

func (v *validator) sheet(sp string, s *Sheet) {
	if !v.count(sp+".rows", len(s.Rows), MaxSheetRows, "rows") {
		return
	}
	v.sheetCells(sp, s)
	if !v.count(sp+".colWidths", len(s.ColWidths), MaxSheetCols, "widths") {
		return
	}
	for i, w := range s.ColWidths {
		if w < 0 || w > 255 {
			v.fail(fmt.Sprintf("%s.colWidths[%d]", sp, i), "%g is outside 0–255 characters", w)
		}
	}
	for _, n := range []struct {
		name string
		n    int
	}{{"merges", len(s.Merges)}, {"tables", len(s.Tables)}, {"charts", len(s.Charts)}, {"validations", len(s.Validations)}, {"images", len(s.Images)}} {
		if !v.count(sp+"."+n.name, n.n, MaxSheetItems, n.name) {
			return
		}
	}
	merges := v.merges(sp, s.Merges)
	v.tables(sp, s, merges)
	for i := range s.Charts {
		v.chart(fmt.Sprintf("%s.charts[%d]", sp, i), &s.Charts[i])
	}
	for i := range s.Validations {
		v.validation(fmt.Sprintf("%s.validations[%d]", sp, i), &s.Validations[i])
	}
	for i := range s.Images {
		v.image(fmt.Sprintf("%s.images[%d]", sp, i), &s.Images[i], true)
	}
}

// sheetCells checks every cell of a sheet and the workbook-wide cell cap.
func (v *validator) sheetCells(sp string, s *Sheet) {
	for ri, row := range s.Rows {
		rp := fmt.Sprintf("%s.rows[%d]", sp, ri)
		if !v.count(rp, len(row), MaxSheetCols, "cells") {
			continue
		}
		for ci := range row {
			c := &row[ci]
			if c.Kind == "" {
				continue
			}
			v.cells++
			if v.cells == MaxSheetCells+1 {
				v.fail(fmt.Sprintf("%s[%d]", rp, ci), "more than %d cells in the workbook exceed the cap", MaxSheetCells)
			}
			v.xcell(fmt.Sprintf("%s[%d]", rp, ci), c, cellRef{ci + 1, ri + 1}, s)
		}
	}
}

// merges checks a sheet's merged ranges (none a single cell, none
// overlapping another) and returns those that parse.
func (v *validator) merges(sp string, ms []string) []cellRange {
	var merges []cellRange
	for i, m := range ms {
		mp := fmt.Sprintf("%s.merges[%d]", sp, i)
		r, err := parseRange(m, false)
		if err != nil {
			v.fail(mp, "%v", err)
			continue
		}
		if r.a == r.b {
			v.fail(mp, "%q merges a single cell", m)
			continue
		}
		for j, o := range merges {
			if r.overlaps(o) {
				v.fail(mp, "%s overlaps merge %d (%s): Excel removes overlapping merges", m, j, o)
			}
		}
		merges = append(merges, r)
	}
	return merges
}

// tables checks a sheet's tables: names unique in the workbook, ranges
// with a header row of distinct non-empty texts and a data row, overlapping
// no other table and no merge.
func (v *validator) tables(sp string, s *Sheet, merges []cellRange) {
	var tables []cellRange
	for i := range s.Tables {
		t := &s.Tables[i]
		tp := fmt.Sprintf("%s.tables[%d]", sp, i)
		switch {
		case !tableName.MatchString(t.Name) || len(t.Name) > 255:
			v.fail(tp+".name", "%q is not a valid table name (a letter or _ first, then letters, digits, _ or .)", t.Name)
		case tableLikeCell.MatchString(t.Name):
			v.fail(tp+".name", "%q looks like a cell reference", t.Name)
		default:
			key := strings.ToLower(t.Name)
			if prev, dup := v.tableNames[key]; dup {
				v.fail(tp+".name", "table name %q is already used by %s (table names are workbook-wide and case-insensitive)", t.Name, prev)
			}
			v.tableNames[key] = tp
		}
		r, err := parseRange(t.Ref, false)
		if err != nil {
			v.fail(tp+".ref", "%v", err)
			continue
		}
		if r.b.row == r.a.row {
			v.fail(tp+".ref", "%s has a header row but no data row", t.Ref)
		}
		for j, o := range tables {
			if r.overlaps(o) {
				v.fail(tp+".ref", "%s overlaps table %d", t.Ref, j)
			}
		}
		for j, m := range merges {
			if r.overlaps(m) {
				v.fail(tp+".ref", "%s overlaps merge %d (%s): Excel removes merges inside tables", t.Ref, j, m)
			}
		}
		tables = append(tables, r)
		seen := map[string]bool{}
		for col := r.a.col; col <= r.b.col; col++ {
			var h *XCell
			if r.a.row-1 < len(s.Rows) && col-1 < len(s.Rows[r.a.row-1]) {
				h = &s.Rows[r.a.row-1][col-1]
			}
			ref := cellRef{col, r.a.row}
			if h == nil || h.Kind != "text" || strings.TrimSpace(h.Text) == "" {
				v.fail(tp+".ref", "header cell %s must hold a non-empty text (the column name)", ref)
				continue
			}
			if seen[strings.ToLower(h.Text)] {
				v.fail(tp+".ref", "header cell %s repeats the column name %q", ref, h.Text)
			}
			seen[strings.ToLower(h.Text)] = true
		}
	}
}

// chart checks one chart: its type, anchor cell, size and series.
func (v *validator) chart(cp string, c *XChart) {
	if c.Type == "" {
		v.fail(cp+".type", "missing: one of col, bar, line, pie")
	}
	v.oneOf(cp+".type", c.Type, "col", "bar", "line", "pie")
	v.text(cp+".title", c.Title)
	if _, err := parseCellRef(c.Cell); err != nil {
		v.fail(cp+".cell", "%v", err)
	}
	if c.Width != 0 && (c.Width < 50 || c.Width > 4000) {
		v.fail(cp+".width", "%d px is outside 50–4000", c.Width)
	}
	if c.Height != 0 && (c.Height < 50 || c.Height > 4000) {
		v.fail(cp+".height", "%d px is outside 50–4000", c.Height)
	}
	if len(c.Series) == 0 {
		v.fail(cp+".series", "missing: at least one series")
	}
	if !v.count(cp+".series", len(c.Series), MaxChartSeries, "series") {
		return
	}
	for j, se := range c.Series {
		sep := fmt.Sprintf("%s.series[%d]", cp, j)
		if se.Values == "" {
			v.fail(sep+".values", "missing: a reference such as Sheet1!$B$2:$B$5")
		}
		for _, f := range []string{se.Name, se.Categories, se.Values} {
			if len(f) > 255 {
				v.fail(sep, "a reference longer than 255 characters")
			}
		}
	}
}

// validation checks one data validation: its range and its list items.
func (v *validator) validation(dp string, d *XValidation) {
	if _, err := parseRange(d.Ref, true); err != nil {
		v.fail(dp+".ref", "%v", err)
	}
	if len(d.List) == 0 {
		v.fail(dp+".list", "missing: at least one item")
	}
	total := 0
	for j, it := range d.List {
		if it == "" || strings.ContainsAny(it, `,"`) {
			v.fail(fmt.Sprintf("%s.list[%d]", dp, j), "%q: list items are non-empty and hold no comma or quote", it)
		}
		total += utf8.RuneCountInString(it) + 1
	}
	if total-1 > MaxValidationList {
		v.fail(dp+".list", "the list is %d characters long; Excel's cap is %d (longer lists are repaired away)", total-1, MaxValidationList)
	}
}

func (v *validator) xcell(path string, c *XCell, at cellRef, s *Sheet) {
	switch c.Kind {
	case "conflict":
		v.fail(path, "a cell holds one of text, number, bool, formula, rawFormula")
		return
	case "text":
		v.text(path, c.Text)
	case "formula", "rawFormula":
		if strings.TrimSpace(c.Formula) == "" {
			v.fail(path, "empty formula")
		}
		if n := utf8.RuneCountInString(c.Formula); n > 8192 {
			v.fail(path, "a formula of %d characters exceeds Excel's cap of 8192", n)
		}
		v.text(path, c.Formula)
		if c.Kind == "formula" {
			if _, err := fileFormula(c.Formula); err != nil {
				v.fail(path, "%v", err)
			}
		}
	case "number", "bool":
	default:
		v.fail(path, "a cell needs a value")
	}
	if len(c.NumFmt) > 255 {
		v.fail(path+".numFmt", "longer than 255 characters")
	}
	v.color(path+".fill", c.Fill)
	if c.Spill != "" {
		if c.Kind != "formula" && c.Kind != "rawFormula" {
			v.fail(path+".spill", "only a formula spills")
			return
		}
		r, err := parseRange(c.Spill, true)
		if err != nil {
			v.fail(path+".spill", "%v", err)
			return
		}
		if r.a != at {
			v.fail(path+".spill", "%s must start at the formula's own cell %s", c.Spill, at)
			return
		}
		for ri := r.a.row; ri <= r.b.row && ri <= len(s.Rows); ri++ {
			for ci := r.a.col; ci <= r.b.col && ci <= len(s.Rows[ri-1]); ci++ {
				if (cellRef{ci, ri}) != at && s.Rows[ri-1][ci-1].Kind != "" {
					v.fail(path+".spill", "%s is inside the spill range %s and must be empty (Excel shows #SPILL!)", cellRef{ci, ri}, c.Spill)
					return
				}
			}
		}
	}
}
