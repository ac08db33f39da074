package synth

import (
	"fmt"
	"math"
	"regexp"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// validator walks a decoded spec, collecting errors with JSON paths. It
// never stops early: every problem of a spec is reported in one pass.
type validator struct {
	errs       errList
	opts       Options
	format     string
	blocks     int
	images     int // image bytes so far
	cells      int // xlsx cells, or table cells of the other formats, so far
	chars      int // characters of text so far
	runs       int // runs so far
	charts     int // docx and pptx charts so far
	tableNames map[string]string
	sheetNames map[string]bool // lower-case sheet names of the workbook
}

func newValidator(o Options) *validator { return &validator{opts: o} }

func (v *validator) fail(path, format string, a ...any) { v.errs.add(path, 0, format, a...) }

// capFail reports a value beyond cap.
func (v *validator) capFail(path string, cap int, format string, a ...any) {
	v.errs.add(path, cap, format, a...)
}

// count checks a collection size against its cap. The collection is
// still checked item by item: every problem is reported in one pass.
func (v *validator) count(path string, n, max int, what string) bool {
	if n > max {
		v.capFail(path, max, "%d %s exceed the cap of %d", n, what, max)
		return false
	}
	return true
}

// total adds n to a document-wide total and reports, once, the value that
// takes it past cap.
func (v *validator) total(path string, sum *int, n, cap int, what string) {
	before := *sum
	*sum += n
	if before <= cap && *sum > cap {
		v.capFail(path, cap, "more than %d %s in the document exceed the cap", cap, what)
	}
}

var hexColor = regexp.MustCompile(`^[0-9A-Fa-f]{6}$`)

// text checks one text value: length cap, and no character that XML 1.0
// forbids (the writers must never produce xml.illegal-char themselves; the
// injectors do that on purpose). Tab and newline are allowed: they become
// w:tab/w:br (docx), a:br (pptx) or separate paragraphs.
func (v *validator) text(path, s string) {
	n := utf8.RuneCountInString(s)
	if n > MaxTextLen {
		v.capFail(path, MaxTextLen, "%d characters exceed the cap of %d", n, MaxTextLen)
		return
	}
	v.total(path, &v.chars, n, MaxTotalText, "characters of text")
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
	if n := utf8.RuneCountInString(s.Title); n > MaxTitleLen {
		v.capFail("$.title", MaxTitleLen, "a title of %d characters exceeds the cap of %d", n, MaxTitleLen)
	} else {
		v.text("$.title", s.Title)
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
	v.count(path, len(bs), MaxBlocks, "blocks")
	for i := range bs {
		v.block(fmt.Sprintf("%s[%d]", path, i), &bs[i], ctx)
	}
}

func (v *validator) block(path string, b *Block, ctx blockCtx) {
	v.total(path, &v.blocks, 1, MaxTotalBlocks, "blocks")
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
	if b.Chart != nil {
		set = append(set, "chart")
	}
	if b.PageBreak {
		set = append(set, "pageBreak")
	}
	if len(set) != 1 {
		if len(set) == 0 {
			v.fail(path, "empty block: set one of heading, paragraph, table, list, image, chart, pageBreak")
		} else {
			v.fail(path, "a block holds exactly one of heading, paragraph, table, list, image, chart, pageBreak; found %s", strings.Join(set, ", "))
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
			v.capFail(path+".table", MaxNesting, "tables nested %d deep exceed the cap of %d", ctx.depth+1, MaxNesting)
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
	case b.Chart != nil:
		if ctx.hwpx {
			v.fail(path+".chart", "charts are not supported in hwpx specs")
			return
		}
		v.chartSpec(path+".chart", b.Chart)
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
	v.count(path+".runs", len(runs), MaxRuns, "runs")
	v.total(path+".runs", &v.runs, len(runs), MaxTotalRuns, "runs")
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
	v.count(path+".items", len(l.Items), MaxListItems, "items")
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
	v.count(path+".rows", len(t.Rows), MaxRows, "rows")
	if t.HeaderRows < 0 || t.HeaderRows > len(t.Rows) {
		v.fail(path+".headerRows", "%d is outside 0–%d (the number of rows)", t.HeaderRows, len(t.Rows))
	}
	grid := -1
	tooWide := false // a row has more cells than the cap: said there
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
			tooWide = true
		}
		cur := map[int]vcell{}
		col := 0
		for ci := range row.Cells {
			c := &row.Cells[ci]
			cp := fmt.Sprintf("%s.cells[%d]", rp, ci)
			v.total(cp, &v.cells, 1, MaxTotalCells, "table cells")
			span := c.Span
			if span == 0 {
				span = 1
			}
			if span < 0 || span > MaxCells {
				v.capFail(cp+".span", MaxCells, "%d is outside 1–%d", c.Span, MaxCells)
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
	if grid > MaxCells && !tooWide {
		v.capFail(path, MaxCells, "%d grid columns exceed the cap of %d", grid, MaxCells)
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

// image checks the source, reads the image and checks sizes.
func (v *validator) image(path string, im *Image, xlsx bool) {
	for _, d := range []struct {
		name string
		val  float64
	}{{"width", im.Width}, {"height", im.Height}} {
		if d.val < 0 || d.val > MaxImagePoints || math.IsNaN(d.val) {
			v.capFail(path+"."+d.name, MaxImagePoints, "%g pt is outside 0–%d", d.val, MaxImagePoints)
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
	switch {
	case im.Src != "" && im.Data != "":
		v.fail(path, "give src or data, not both")
		return
	case im.Src == "" && im.Data == "":
		v.fail(path+".src", "missing: an image handle \"artifact:ID\" (a file in the artifacts folder)")
		return
	case im.Data != "":
		if !v.opts.Fixtures {
			v.fail(path+".data", "inline image data is not accepted: put the image in the artifacts folder and give src \"artifact:ID\"")
			return
		}
		pic, err := loadData(im.Data)
		if err != nil {
			v.fail(path+".data", "%v", err)
			return
		}
		v.imageBytes(path, pic)
		return
	}
	switch kind, rest, _ := strings.Cut(im.Src, ":"); {
	case kind == "artifact" && strings.Contains(im.Src, ":"):
		if v.opts.Artifacts == nil {
			v.fail(path+".src", "%q: no artifacts folder was given (--artifacts DIR), so no artifact handle resolves", im.Src)
			return
		}
		pic, err := v.opts.Artifacts.load(rest)
		if err != nil {
			v.fail(path+".src", "%v; %s", err, v.opts.Artifacts.offer())
			return
		}
		v.imageBytes(path, pic)
	case kind == "builtin" && v.opts.Fixtures:
		// Builtin images are the project's own; painting them here would
		// only cost time.
		if err := checkBuiltin(im.Src); err != nil {
			v.fail(path+".src", "%v", err)
		}
	case kind == "builtin":
		v.fail(path+".src", "%q: builtin images are test fixtures, not accepted here; give src \"artifact:ID\" (a file in the artifacts folder)", im.Src)
	default:
		offer := "no artifacts folder was given"
		if v.opts.Artifacts != nil {
			offer = v.opts.Artifacts.offer()
		}
		v.fail(path+".src", "%q is %s: images are given as \"artifact:ID\", the name of a file in the artifacts folder (--artifacts DIR); paths, URLs and data: URIs are refused; %s", clip(im.Src, 80), srcKind(im.Src), offer)
	}
}

// srcKind names what a refused image src looks like.
func srcKind(src string) string {
	low := strings.ToLower(src)
	switch {
	case strings.HasPrefix(low, "data:"):
		return "a data: URI"
	case strings.Contains(low, "://") || strings.HasPrefix(low, "//") || strings.HasPrefix(low, "www."):
		return "a URL"
	case strings.ContainsAny(src, `/\`) || strings.Contains(src, "."):
		return "a path"
	}
	return "not an image handle"
}

// clip shortens s to n bytes for a message.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

// imageBytes adds an image to the document's total.
func (v *validator) imageBytes(path string, pic picture) {
	before := v.images
	v.images += len(pic.data)
	if before <= MaxTotalImage && v.images > MaxTotalImage {
		v.capFail(path, MaxTotalImage, "images total more than the cap of %d bytes", MaxTotalImage)
	}
}

// chartSpec checks a docx or pptx chart: type, sizes, categories and one
// value per category in every series.
func (v *validator) chartSpec(path string, c *Chart) {
	v.total(path, &v.charts, 1, MaxCharts, "charts")
	if c.Type == "" {
		v.fail(path+".type", "missing: one of col, bar, line, pie")
	}
	v.oneOf(path+".type", c.Type, "col", "bar", "line", "pie")
	v.text(path+".title", c.Title)
	for _, d := range []struct {
		name string
		val  float64
	}{{"width", c.Width}, {"height", c.Height}} {
		if d.val != 0 && (d.val < 36 || d.val > MaxImagePoints || math.IsNaN(d.val)) {
			v.capFail(path+"."+d.name, MaxImagePoints, "%g pt is outside 36–%d", d.val, MaxImagePoints)
		}
	}
	if len(c.Categories) == 0 {
		v.fail(path+".categories", "missing: at least one category")
	}
	v.count(path+".categories", len(c.Categories), MaxChartPoints, "categories")
	for i, cat := range c.Categories {
		v.text(fmt.Sprintf("%s.categories[%d]", path, i), cat)
	}
	if len(c.Series) == 0 {
		v.fail(path+".series", "missing: at least one series")
	}
	v.count(path+".series", len(c.Series), MaxChartSeries, "series")
	if c.Type == "pie" && len(c.Series) > 1 {
		v.fail(path+".series", "a pie chart draws one series; %d given", len(c.Series))
	}
	for i := range c.Series {
		se := &c.Series[i]
		sp := fmt.Sprintf("%s.series[%d]", path, i)
		if strings.TrimSpace(se.Name) == "" {
			v.fail(sp+".name", "missing: the series name (shown in the legend)")
		}
		v.text(sp+".name", se.Name)
		if len(se.Values) != len(c.Categories) {
			v.fail(sp+".values", "%d values for %d categories: give one value per category", len(se.Values), len(c.Categories))
		}
		for j, x := range se.Values {
			if math.IsNaN(x) || math.IsInf(x, 0) || math.Abs(x) > 1e300 {
				v.fail(fmt.Sprintf("%s.values[%d]", sp, j), "%g is not a finite number", x)
			}
		}
	}
}

func (v *validator) pptx(p *PptxSpec) {
	v.oneOf("$.pptx.size", p.Size, "16:9", "4:3")
	if len(p.Slides) == 0 {
		v.fail("$.pptx.slides", "missing: at least one slide")
	}
	v.count("$.pptx.slides", len(p.Slides), MaxSlides, "slides")
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
			if len(s.Table.Rows) > MaxSlideRows {
				v.capFail(sp+".table.rows", MaxSlideRows, "%d rows exceed the cap of %d on a slide", len(s.Table.Rows), MaxSlideRows)
			} else {
				v.table(sp+".table", s.Table, ctx)
			}
		}
		if s.Image != nil {
			v.image(sp+".image", s.Image, false)
		}
		if s.Chart != nil {
			if s.Image != nil {
				v.fail(sp+".chart", "a slide holds an image or a chart, not both")
			}
			v.chartSpec(sp+".chart", s.Chart)
		}
	}
}

func (v *validator) hwpx(h *HwpxSpec) {
	if len(h.Sections) == 0 {
		v.fail("$.hwpx.sections", "missing: at least one section")
	}
	v.count("$.hwpx.sections", len(h.Sections), MaxSections, "sections")
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
	v.count("$.xlsx.sheets", len(x.Sheets), MaxSheets, "sheets")
	v.tableNames = map[string]string{}
	v.sheetNames = map[string]bool{}
	for i := range x.Sheets {
		v.sheetNames[strings.ToLower(x.Sheets[i].Name)] = true
	}
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
	}
}

func (v *validator) sheet(sp string, s *Sheet) {
	v.count(sp+".rows", len(s.Rows), MaxSheetRows, "rows")
	v.sheetCells(sp, s)
	v.count(sp+".colWidths", len(s.ColWidths), MaxSheetCols, "widths")
	for i, w := range s.ColWidths {
		if w < 0 || w > 255 {
			v.fail(fmt.Sprintf("%s.colWidths[%d]", sp, i), "%g is outside 0–255 characters", w)
		}
	}
	for _, n := range []struct {
		name string
		n    int
	}{{"merges", len(s.Merges)}, {"tables", len(s.Tables)}, {"charts", len(s.Charts)}, {"validations", len(s.Validations)}, {"images", len(s.Images)}} {
		v.count(sp+"."+n.name, n.n, MaxSheetItems, n.name)
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
		v.count(rp, len(row), MaxSheetCols, "cells")
		for ci := range row {
			c := &row[ci]
			if c.Kind == "" {
				continue
			}
			v.total(fmt.Sprintf("%s[%d]", rp, ci), &v.cells, 1, MaxSheetCells, "cells")
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
		v.capFail(cp+".width", 4000, "%d px is outside 50–4000", c.Width)
	}
	if c.Height != 0 && (c.Height < 50 || c.Height > 4000) {
		v.capFail(cp+".height", 4000, "%d px is outside 50–4000", c.Height)
	}
	if len(c.Series) == 0 {
		v.fail(cp+".series", "missing: at least one series")
	}
	v.count(cp+".series", len(c.Series), MaxChartSeries, "series")
	for j, se := range c.Series {
		sep := fmt.Sprintf("%s.series[%d]", cp, j)
		if se.Values == "" {
			v.fail(sep+".values", "missing: a reference such as Sheet1!$B$2:$B$5")
		}
		v.chartRef(sep+".values", se.Values, false)
		v.chartRef(sep+".categories", se.Categories, false)
		v.chartRef(sep+".name", se.Name, true)
	}
}

// chartRef checks a chart series reference: Sheet!A1:B2 (the sheet name
// quoted as 'My sheet' when it needs it) on a sheet of the workbook, one
// row or one column (a single cell for a series name). A reference to a
// sheet that does not exist makes Excel drop the series and LibreOffice
// draw nothing (the chart's c:f formula cannot be resolved).
func (v *validator) chartRef(path, ref string, cell bool) {
	if ref == "" {
		return
	}
	if len(ref) > 255 {
		v.capFail(path, 255, "a reference of %d characters exceeds the cap of 255", len(ref))
		return
	}
	want := "a reference such as Sheet1!$B$2:$B$5"
	if cell {
		want = "a reference to the one cell holding the name, such as Sheet1!$B$1"
	}
	i := strings.LastIndexByte(ref, '!')
	if i <= 0 {
		v.fail(path, "%q is not %s", ref, want)
		return
	}
	sheet, rng := ref[:i], ref[i+1:]
	if strings.HasPrefix(sheet, "'") {
		if len(sheet) < 2 || !strings.HasSuffix(sheet, "'") {
			v.fail(path, "%q: unbalanced quotes around the sheet name", ref)
			return
		}
		sheet = strings.ReplaceAll(sheet[1:len(sheet)-1], "''", "'")
	} else if strings.ContainsAny(sheet, " '-+(),;&") {
		v.fail(path, "%q: quote a sheet name with spaces or punctuation: '%s'!%s", ref, strings.ReplaceAll(sheet, "'", "''"), rng)
		return
	}
	if v.sheetNames != nil && !v.sheetNames[strings.ToLower(sheet)] {
		v.fail(path, "%q names sheet %q, which the workbook does not have", ref, sheet)
	}
	r, err := parseRange(rng, true)
	if err != nil {
		v.fail(path, "%q: %v", ref, err)
		return
	}
	switch {
	case cell && r.a != r.b:
		v.fail(path, "%q: a series name is one cell", ref)
	case r.a.row != r.b.row && r.a.col != r.b.col:
		v.fail(path, "%q spans several rows and columns; a series is one row or one column", ref)
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
		v.capFail(dp+".list", MaxValidationList, "the list is %d characters long; Excel's cap is %d (longer lists are repaired away)", total-1, MaxValidationList)
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
		if c.Kind == "rawFormula" && !v.opts.Fixtures {
			v.fail(path+".rawFormula", "formulas written verbatim are test fixtures, not accepted here; give \"formula\" (as typed in Excel, the writer adds the prefixes the file format needs)")
			return
		}
		if strings.TrimSpace(c.Formula) == "" {
			v.fail(path, "empty formula")
		}
		if n := utf8.RuneCountInString(c.Formula); n > MaxFormulaLen {
			v.capFail(path, MaxFormulaLen, "a formula of %d characters exceeds Excel's cap of %d", n, MaxFormulaLen)
		}
		v.text(path, c.Formula)
		if c.Kind == "formula" {
			if _, err := fileFormula(c.Formula); err != nil {
				v.fail(path, "%v", err)
			}
		}
	case "number":
		if math.IsNaN(c.Number) || math.IsInf(c.Number, 0) {
			v.fail(path, "%g is not a finite number", c.Number)
		}
	case "bool":
	default:
		v.fail(path, "a cell object needs one of text, number, bool, formula")
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
