package xlsx

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/editaudit/editaudit/formats"
)

// worksheetOrder is the child sequence of CT_Worksheet (ECMA-376 Part 1
// §18.3.1.99 and its schema, 4th edition: drawingHF after legacyDrawingHF).
var worksheetOrder = []string{"sheetPr", "dimension", "sheetViews", "sheetFormatPr", "cols", "sheetData",
	"sheetCalcPr", "sheetProtection", "protectedRanges", "scenarios", "autoFilter", "sortState",
	"dataConsolidate", "customSheetViews", "mergeCells", "phoneticPr", "conditionalFormatting",
	"dataValidations", "hyperlinks", "printOptions", "pageMargins", "pageSetup", "headerFooter",
	"rowBreaks", "colBreaks", "customProperties", "cellWatches", "ignoredErrors", "smartTags", "drawing",
	"legacyDrawing", "legacyDrawingHF", "drawingHF", "picture", "oleObjects", "controls",
	"webPublishItems", "tableParts", "extLst"}

// worksheetRank maps a worksheet child to its position in worksheetOrder.
var worksheetRank = func() map[string]int {
	m := map[string]int{}
	for i, n := range worksheetOrder {
		m[n] = i + 1
	}
	return m
}()

// repeatable children of CT_Worksheet (maxOccurs="unbounded").
var repeatable = map[string]bool{"cols": true, "conditionalFormatting": true}

// pos is where an element sits, for findings.
type pos struct {
	line, col int
	loc       string
}

func posOf(e *formats.Element) pos { return pos{e.Line, e.Column, e.Locator()} }

// merge is one mergeCell.
type merge struct {
	r   rng
	ref string
	at  pos
}

// cellState is the cell being read.
type cellState struct {
	on          bool
	el          *formats.Element // the <c> element; valid until its End
	col, row    int
	t           string
	cm          int
	cmText      string
	hasV, hasF  bool
	v, f, is    []byte // reused from cell to cell
	fType, fRef string
	fSI         string
	fLine, fCol int
	fStep       string // the <f> step of the locator, "/f[1]"
	inIs, inRPh int
}

// ref is the cell's A1 reference (built only when a message needs it).
func (c *cellState) ref() string { return A1(c.col, c.row) }

// at is the cell's position; locators are built only when a finding needs
// one (a sheet has many cells and few findings).
func (c *cellState) at() pos { return posOf(c.el) }

// fAt is the position of the cell's formula.
func (c *cellState) fAt() pos { return pos{c.fLine, c.fCol, c.el.Locator() + c.fStep} }

// dvState is the data validation being read.
type dvState struct {
	on      bool
	typ     string
	attrs   map[string]string
	formula [2]strings.Builder
	inF     int // 1 or 2 while inside formula1/formula2
	at      pos
	sqref   string
}

// sheetHandler reads one worksheet (or chartsheet) part: counts, cell and
// formula checks, child order, and what the table and drawing checks need.
type sheetHandler struct {
	formats.NopHandler
	in        *inspector
	s         *sheetEntry
	part      string
	worksheet bool // a worksheet (checks cells and order); false for chartsheets and others

	tables, dv, cf, merged int
	tableRIDs              []string
	drawingRID             string
	merges                 []merge
	mergesLoc              string // locator of <mergeCells>
	autoFilter             *merge

	// child order
	maxRank     int
	maxName     string
	altDepth    int  // depth of the open worksheet-level mc:AlternateContent (0: none)
	altChoice   bool // inside its first mc:Choice
	firstChoice int  // depth of that mc:Choice
	inFallback  int

	// rows and cells
	row, prevRow, prevCol int
	cell                  cellState

	// conditional formatting and data validation formulas
	cfSqref  string
	cfText   strings.Builder
	inCFForm bool
	cfAt     pos
	dvs      dvState

	// style indexes used and undefined; table header cells to read
	badStyles map[string]*styleUse
	badOrder  []*styleUse
	headers   map[[2]int]*headerSlot

	// shared formulas by si; formula cells (only when the calculation
	// chain lists cells of this sheet)
	shared   map[string]*sharedSI
	formulas map[[2]int]bool
	spans    []rng // array and data-table formula ranges (every cell is in the chain)
}

// scanSheet reads one sheet of the workbook and everything hanging from it.
func (in *inspector) scanSheet(s *sheetEntry) {
	counts := formats.Counts{}
	for _, k := range sheetKeys {
		counts[k] = 0
	}
	site := formats.Site{Part: s.part, Where: "sheet '" + s.name + "'", Counts: counts}
	if site.Part == "" {
		site.Part = in.wbPart
	}
	defer func() { in.rep.Sites = append(in.rep.Sites, site) }()
	if s.part == "" || !in.p.Has(s.part) {
		return // the core reports the missing relationship or part
	}
	byRID, slots := in.preScanTables(s)
	h := &sheetHandler{in: in, s: s, part: s.part, worksheet: s.relType == "worksheet", headers: slots, formulas: in.formulaCells(s)}
	res := in.p.ScanPart(in.ctx, s.part, h)
	if h.worksheet && !(res.Root.Local == "worksheet" && (res.Root.Space == NSMain || res.Root.Space == NSMainS)) {
		h.worksheet = false
	}
	sc := formats.Counts{KeyTables: h.tables, KeyDataValidations: h.dv, KeyConditionalFormats: h.cf, KeyMergedRanges: h.merged}
	in.rep.AddCounts(s.part, sc)
	counts.Add(sc)

	tables := in.scanTables(s, h.tableRIDs, byRID)
	if h.worksheet {
		in.checkMerges(s, h.merges, tables)
		in.checkTableOverlaps(s, tables, h.autoFilter)
		h.reportStyles()
		if res.Complete {
			in.checkHeaders(s, tables, slots)
		}
		in.checkPivots(s)
		if res.Complete {
			h.checkShared()
			if h.formulas != nil {
				in.checkCalcChain(s, h.formulas, h.spans)
			}
		}
	}
	if d := in.resolve(s.part, h.drawingRID); d != "" {
		dc := in.scanDrawing(d)
		in.rep.AddCounts(d, dc)
		counts.Add(dc)
	}
}

func (h *sheetHandler) Start(e *formats.Element) {
	if e.Depth == 1 {
		return
	}
	if e.Name.Space == nsMC {
		h.startMC(e)
		return
	}
	if h.inFallback > 0 {
		return
	}
	if e.Depth == 2 || (h.altChoice && e.Depth == h.firstChoice+1) {
		h.child(e)
	}
	if e.Depth <= 3 {
		h.modelStart(e)
	}
	switch e.Depth {
	case 3:
		switch {
		case isSML(e, "row") && isSML(e.Parent, "sheetData"):
			h.startRow(e)
		case isSML(e, "mergeCell"):
			h.merged++
			ref, _ := attr(e, "ref")
			if r, ok := parseRange(ref); ok && h.worksheet {
				if h.mergesLoc == "" {
					h.mergesLoc = e.Parent.Locator()
				}
				h.merges = append(h.merges, merge{r: r, ref: ref, at: pos{e.Line, e.Column, h.mergesLoc + "/" + e.QName() + "[" + strconv.Itoa(e.Index) + "]"}})
			}
		case isSML(e, "tablePart"):
			h.tables++
			h.tableRIDs = append(h.tableRIDs, relID(e))
		case isSML(e, "dataValidation"):
			h.dv++
			h.startDV(e)
		}
		return
	case 4:
		switch {
		case isSML(e, "c") && isSML(e.Parent, "row"):
			h.startCell(e)
		case isSML(e, "formula") && isSML(e.Parent, "cfRule"):
			h.inCFForm = true
			h.cfText.Reset()
			h.cfAt = posOf(e)
		}
	}
	if h.dvs.on && (e.Name.Local == "formula1" || e.Name.Local == "formula2") {
		h.dvs.inF = 1
		if e.Name.Local == "formula2" {
			h.dvs.inF = 2
		}
	}
	if e.Name.Space == nsX14 && e.Name.Local == "dataValidation" {
		h.dv++
		h.startDV(e)
	}
	if h.cell.on && e.Depth == 5 {
		switch {
		case isSML(e, "v"):
			h.cell.hasV = true
		case isSML(e, "f"):
			h.cell.hasF = true
			h.cell.fType, _ = attr(e, "t")
			h.cell.fRef, _ = attr(e, "ref")
			h.cell.fSI, _ = attr(e, "si")
			h.cell.fLine, h.cell.fCol = e.Line, e.Column
			h.cell.fStep = "/" + e.QName() + "[" + strconv.Itoa(e.Index) + "]"
		case isSML(e, "is"):
			h.cell.inIs++
		}
	}
	if h.cell.on && isSML(e, "rPh") {
		h.cell.inRPh++
	}
}

// child checks one worksheet child against the CT_Worksheet sequence and
// picks up the sheet-level elements the other checks need.
func (h *sheetHandler) child(e *formats.Element) {
	if e.Name.Space != NSMain && e.Name.Space != NSMainS {
		return
	}
	name := e.Name.Local
	switch name {
	case "conditionalFormatting":
		h.cf++
		h.cfSqref, _ = attr(e, "sqref")
	case "autoFilter":
		if ref, _ := attr(e, "ref"); ref != "" {
			if r, ok := parseRange(ref); ok {
				h.autoFilter = &merge{r: r, ref: ref, at: posOf(e)}
			}
		}
	case "drawing":
		h.drawingRID = relID(e)
	}
	if !h.worksheet {
		return
	}
	rank := worksheetRank[name]
	if rank == 0 {
		return
	}
	if rank < h.maxRank || (rank == h.maxRank && !repeatable[name]) {
		// DEFECTS.md (confirmed): Excel repairs a worksheet whose children
		// break the CT_Worksheet sequence (ECMA-376 §18.3.1.99), e.g. a
		// drawing after tableParts.
		what := fmt.Sprintf("<%s> comes after <%s>", name, h.maxName)
		if rank == h.maxRank {
			what = fmt.Sprintf("<%s> appears twice", name)
		}
		h.in.add(formats.Finding{Code: CodeChildOrder, Grade: formats.Fatal, Part: h.part, Line: e.Line, Column: e.Column,
			Locator: e.Locator(), Anchor: fmt.Sprintf("sheet %s: %s after %s", h.s.name, name, h.maxName),
			Message: fmt.Sprintf("sheet '%s': %s, but CT_Worksheet (ECMA-376 §18.3.1.99) fixes the order of a worksheet's children; Excel repairs the workbook", h.s.name, what),
			Fix: fmt.Sprintf("move <%s> so the children of <worksheet> follow the schema order (…, %s, …); the full order is %s",
				name, neighbours(name), strings.Join(worksheetOrder, ", "))})
		return
	}
	h.maxRank, h.maxName = rank, name
}

// neighbours names the elements around name in the worksheet sequence.
func neighbours(name string) string {
	i := worksheetRank[name] - 1
	lo, hi := max(i-1, 0), min(i+2, len(worksheetOrder))
	return strings.Join(worksheetOrder[lo:hi], ", ")
}

// startMC follows markup compatibility (ECMA-376 Part 3): the children of
// the first mc:Choice of a worksheet-level mc:AlternateContent take the
// place of the AlternateContent; mc:Fallback content is ignored.
func (h *sheetHandler) startMC(e *formats.Element) {
	switch e.Name.Local {
	case "AlternateContent":
		if e.Depth == 2 {
			h.altDepth = e.Depth
		}
	case "Choice":
		if h.altDepth > 0 && e.Depth == h.altDepth+1 && e.Index == 1 {
			h.altChoice, h.firstChoice = true, e.Depth
		}
	case "Fallback":
		h.inFallback++
	}
}

func (h *sheetHandler) endMC(e *formats.Element) {
	switch e.Name.Local {
	case "AlternateContent":
		if e.Depth == h.altDepth {
			h.altDepth = 0
		}
	case "Choice":
		if e.Depth == h.firstChoice {
			h.altChoice, h.firstChoice = false, 0
		}
	case "Fallback":
		h.inFallback--
	}
}

// startRow applies the row order rule. ECMA-376 §18.3.1.73: row/@r is
// optional; a row without it follows the previous one.
func (h *sheetHandler) startRow(e *formats.Element) {
	h.prevCol = 0
	rs, has := attr(e, "r")
	r, err := strconv.Atoi(strings.TrimSpace(rs))
	if sv, ok := attr(e, "s"); ok && h.worksheet {
		h.useStyle(refRowS, sv, e)
	}
	if has && err == nil && r > MaxRow && h.worksheet {
		h.outOfGrid(e, "row", "r="+rs, "row "+rs)
	} else if has && err != nil && h.worksheet && len(strings.TrimSpace(rs)) > 7 && isDigits(strings.TrimSpace(rs)) {
		h.outOfGrid(e, "row", "r="+rs, "row "+rs) // too many digits for an int
	}
	if !has || err != nil || r < 1 || r > MaxRow {
		h.row = h.prevRow + 1
		h.prevRow = h.row
		return
	}
	h.row = r
	if h.worksheet && r <= h.prevRow {
		// excelize#1139 (confirmed): rows must be in ascending order
		// (§18.3.1.73); Excel repairs the sheet or shows wrong data.
		h.in.add(formats.Finding{Code: CodeRowOrder, Grade: formats.Fatal, Part: h.part, Line: e.Line, Column: e.Column,
			Locator: e.Locator(), Anchor: fmt.Sprintf("%s!row %d after %d", h.s.name, r, h.prevRow),
			Message: fmt.Sprintf("sheet '%s': row %d comes after row %d; rows must appear in ascending order, and Excel repairs the sheet (or shows wrong data) otherwise", h.s.name, r, h.prevRow),
			Fix:     fmt.Sprintf("write the <row> elements sorted by r (move row %d before row %d), each row number once", r, h.prevRow)})
	}
	h.prevRow = r
}

// startCell reads a cell's attributes and applies the cell order rule.
// ECMA-376 §18.3.1.4: c/@r is optional; a cell without it follows the
// previous cell of the row.
func (h *sheetHandler) startCell(e *formats.Element) {
	c := &h.cell
	c.on, c.hasV, c.hasF, c.inIs, c.inRPh = true, false, false, 0, 0
	c.v, c.f, c.is = c.v[:0], c.f[:0], c.is[:0]
	c.fType, c.fRef, c.fSI = "", "", ""
	c.el = e
	c.t, _ = attr(e, "t")
	c.cmText, _ = attr(e, "cm")
	c.cm, _ = strconv.Atoi(strings.TrimSpace(c.cmText))
	rs, has := attr(e, "r")
	col, row, ok := CellRef(strings.TrimSpace(rs))
	if has && !ok && h.worksheet {
		if _, _, beyond, parsed := gridRef(rs); parsed && beyond {
			h.outOfGrid(e, "cell", rs, rs)
		}
	}
	if sv, ok := attr(e, "s"); ok && h.worksheet {
		h.useStyle(refCellS, sv, e)
	}
	if !has || !ok {
		col, row = h.prevCol+1, h.row
	}
	c.col, c.row = col, h.row
	if h.worksheet && ok && row != h.row {
		// Unverified: a cell whose reference names another row than its
		// <row>. The schema says nothing; Excel's behaviour is not
		// documented, so this stays a warning.
		h.in.add(formats.Finding{Code: CodeCellRow, Grade: formats.Warning, Part: h.part, Line: e.Line, Column: e.Column,
			Locator: e.Locator(), Anchor: fmt.Sprintf("%s!%s in row %d", h.s.name, rs, h.row),
			Message: fmt.Sprintf("sheet '%s': the cell %s sits in row %d; a cell's reference should name its own row", h.s.name, rs, h.row),
			Fix:     fmt.Sprintf("move the cell into <row r=\"%d\"> or correct its r attribute", row)})
	}
	if h.worksheet && col <= h.prevCol {
		// excelize#1139 (confirmed): cells of a row must be in ascending
		// column order; Excel repairs the sheet or shows wrong data.
		h.in.add(formats.Finding{Code: CodeCellOrder, Grade: formats.Fatal, Part: h.part, Line: e.Line, Column: e.Column,
			Locator: e.Locator(), Anchor: fmt.Sprintf("%s!%s after %s", h.s.name, c.ref(), A1(h.prevCol, h.row)),
			Message: fmt.Sprintf("%s!%s comes after %s in row %d; cells must appear in ascending column order (each column once), and Excel repairs the sheet or shows wrong data otherwise", h.s.name, c.ref(), A1(h.prevCol, h.row), h.row),
			Fix:     "write the <c> elements of the row sorted by column, each cell once"})
	}
	if col > h.prevCol {
		h.prevCol = col
	}
}

// startDV begins a data validation (§18.3.1.32; x14:dataValidation for the
// ones with cross-sheet lists).
func (h *sheetHandler) startDV(e *formats.Element) {
	h.dvs = dvState{on: true, at: posOf(e), attrs: map[string]string{}}
	h.dvs.formula[0].Reset()
	h.dvs.formula[1].Reset()
	for _, a := range e.Attr {
		if a.Name.Space == "" {
			h.dvs.attrs[a.Name.Local] = a.Value
		}
	}
	h.dvs.typ = h.dvs.attrs["type"]
	h.dvs.sqref = h.dvs.attrs["sqref"]
}

func (h *sheetHandler) Text(e *formats.Element, t []byte) {
	switch {
	case h.cell.on:
		c := &h.cell
		switch {
		case e.Depth == 5 && isSML(e, "v"):
			c.v = append(c.v, t...)
		case e.Depth == 5 && isSML(e, "f"):
			c.f = append(c.f, t...)
		case c.inIs > 0 && c.inRPh == 0 && isSML(e, "t"):
			c.is = append(c.is, t...)
		}
	case h.inCFForm:
		h.cfText.Write(t)
	case h.dvs.on && h.dvs.inF > 0:
		h.dvs.formula[h.dvs.inF-1].Write(t)
	case h.dvs.on && e.Name.Local == "sqref":
		h.dvs.sqref += strings.TrimSpace(string(t))
	}
}

func (h *sheetHandler) End(e *formats.Element) {
	if e.Name.Space == nsMC {
		h.endMC(e)
		return
	}
	if h.inFallback == 0 && (e.Depth == 2 || (h.altChoice && e.Depth == h.firstChoice+1)) {
		h.modelEnd(e)
	}
	switch {
	case h.cell.on && e.Depth == 4 && isSML(e, "c"):
		h.endCell()
		h.cell.on = false
	case h.cell.on && e.Depth == 5 && isSML(e, "is"):
		h.cell.inIs--
	case h.cell.on && isSML(e, "rPh"):
		h.cell.inRPh--
	case h.inCFForm && e.Depth == 4:
		h.inCFForm = false
		if h.worksheet {
			h.in.checkFormula(formulaSite{part: h.part, line: h.cfAt.line, col: h.cfAt.col, locator: h.cfAt.loc,
				where: fmt.Sprintf("conditional format on %s!%s", h.s.name, h.cfSqref)}, h.cfText.String())
		}
	case h.dvs.on && (e.Name.Local == "formula1" || e.Name.Local == "formula2"):
		h.dvs.inF = 0
	case h.dvs.on && e.Name.Local == "dataValidation":
		h.endDV()
		h.dvs.on = false
	}
}

// endCell runs the value, text and formula checks of one cell.
func (h *sheetHandler) endCell() {
	c := &h.cell
	if !h.worksheet {
		return
	}
	if h.headers != nil {
		h.captureHeader()
	}
	if c.hasF {
		if h.formulas != nil {
			h.formulas[[2]int{c.col, c.row}] = true
			if r, ok := parseRange(c.fRef); ok && (c.fType == "array" || c.fType == "dataTable") {
				h.spans = append(h.spans, r)
			}
		}
		if c.fType == "shared" {
			h.noteShared(c)
		}
	}
	in := h.in
	where := func() string { return h.s.name + "!" + c.ref() }
	add := func(code string, g formats.Grade, at pos, anchor, msg, fix string) {
		in.add(formats.Finding{Code: code, Grade: g, Part: h.part, Line: at.line, Column: at.col, Locator: at.loc,
			Anchor: strings.TrimSpace(where() + " " + anchor), Message: msg, Fix: fix})
	}
	v := strings.TrimSpace(string(c.v))
	switch c.t {
	case "s":
		if !c.hasV || v == "" || !in.sstKnown {
			break
		}
		// DEFECTS.md (single report; the SDK does not check it): a t="s"
		// value is an index into the shared string table (§18.3.1.4);
		// outside it Excel removes the cell in a repair.
		idx, err := strconv.Atoi(v)
		switch {
		case err != nil:
			add(CodeSSTIndex, formats.Fatal, c.at(), "", fmt.Sprintf("%s: the cell is a shared-string cell (t=\"s\") but its value %q is not a string index; Excel removes the cell while repairing the workbook", where(), clip(v, 40)),
				"write the index of the cell's string in xl/sharedStrings.xml (0-based), or store the text inline with t=\"inlineStr\"")
		case idx < 0 || idx >= in.sstCount:
			add(CodeSSTIndex, formats.Fatal, c.at(), "", fmt.Sprintf("%s: the cell points at shared string %d, but %s; Excel removes the cell while repairing the workbook", where(), idx, sstSize(in.sstCount)),
				"add the missing string to xl/sharedStrings.xml or point the cell at an existing index")
		}
	case "", "n":
		if c.hasV && v != "" && !isNumber(v) {
			// DEFECTS.md (maintainer reproduction): a cell without t is a
			// number (§18.18.11 ST_CellType default n); text there, such as
			// a date written 28.01.2007, makes Excel repair the workbook.
			add(CodeNumericText, formats.Fatal, c.at(), "", fmt.Sprintf("%s: the cell is numeric (no t attribute, or t=\"n\") but holds %q, which is not a number; Excel repairs the workbook and drops the value", where(), clip(v, 60)),
				"store text as a string cell (t=\"s\" with a shared string, or t=\"inlineStr\"), dates as their serial number, or fix the number's format (digits, '.', optional exponent)")
		}
	case "inlineStr":
		h.checkTextLen(where, c.is, add)
	case "str":
		h.checkTextLen(where, c.v, add)
	}
	if c.cm > 0 && in.metaKnown && c.cm > in.metaCount {
		// DEFECTS.md (unverified): cm is a 1-based index into
		// xl/metadata.xml's cellMetadata (§18.3.1.4, MS-XLSX §2.3.4); past
		// its end Excel may repair the file.
		add(CodeCellMetadata, formats.Warning, c.at(), "cm="+c.cmText, fmt.Sprintf("%s: the cell's cm=%d points past the %d cell-metadata block(s) of xl/metadata.xml", where(), c.cm, in.metaCount),
			"add the metadata block to xl/metadata.xml (cellMetadata/bk with the XLDAPR dynamic-array property) or remove cm")
	}
	text := string(c.f)
	if !c.hasF || strings.TrimSpace(text) == "" || c.fType == "dataTable" {
		return
	}
	a := in.checkFormula(formulaSite{part: h.part, line: c.fLine, col: c.fCol, locFn: func() string { return c.fAt().loc }, where: where()}, text)
	if a.outer != "" && arrayFunctions[a.outer] && c.cm == 0 {
		if r, ok := parseRange(c.fRef); c.fType == "array" && ok && (r.c1 != r.c2 || r.r1 != r.r2) {
			return // a legacy (Ctrl+Shift+Enter) array formula over a range: shown in full
		}
		// DEFECTS.md (confirmed): a dynamic-array function spills only when
		// the cell carries dynamic-array metadata (cm → xl/metadata.xml,
		// XLDAPR); without it Excel evaluates it the legacy way and shows
		// only the top-left value, displayed as =@… (SILENT: error).
		add(CodeDynamicArray, formats.Error, c.fAt(), "="+clip(text, 200), fmt.Sprintf("%s: =%s returns an array (%s), but the cell has no dynamic-array metadata (no cm attribute pointing into xl/metadata.xml), so Excel shows only its first value, as =@%s", where(), clip(text, 160), a.outer, clip(display(text), 80)),
			fmt.Sprintf("write it as a dynamic array formula: <c r=\"%s\" cm=\"1\"><f t=\"array\" ref=\"%s\">…</f></c>, with xl/metadata.xml holding the XLDAPR dynamic-array cell metadata and a sheetMetadata relationship from the workbook (what Excel and XlsxWriter's write_dynamic_array_formula write)", c.ref(), c.ref()))
	}
}

// sstSize describes the shared string table's extent for messages.
func sstSize(n int) string {
	switch n {
	case 0:
		return "the workbook has no shared strings (no xl/sharedStrings.xml, or an empty one)"
	case 1:
		return "the shared string table holds 1 string (index 0)"
	}
	return fmt.Sprintf("the shared string table holds %d strings (indexes 0–%d)", n, n-1)
}

// display is a formula as Excel's formula bar shows it: without the
// storage prefixes.
func display(f string) string {
	for _, p := range []string{"_xlfn._xlws.", "_xlfn.", "_xlpm."} {
		f = strings.ReplaceAll(f, p, "")
	}
	return f
}

// checkTextLen reports cell text over Excel's 32,767 characters.
func (h *sheetHandler) checkTextLen(where func() string, b []byte, add func(code string, g formats.Grade, at pos, anchor, msg, fix string)) {
	if len(b) <= maxCellText {
		return // UTF-8 never takes fewer bytes than UTF-16 units
	}
	s := string(b)
	if n := excelTextLen(s); n > maxCellText {
		// DEFECTS.md (confirmed): longer text is truncated in a repair.
		add(CodeTextTooLong, formats.Fatal, h.cell.at(), clip(s, 60), fmt.Sprintf("%s: the cell text is %d characters long, over Excel's limit of 32,767 per cell; Excel truncates it while repairing the workbook", where(), n),
			"shorten the text to at most 32,767 characters or split it over several cells")
	}
}

// endDV checks the length limits of a data validation. DEFECTS.md
// (confirmed): Excel repairs a workbook whose literal list ("a,b,c") is
// longer than 255 characters or whose prompt or error message is longer
// than 255 (XlsxWriter enforces the same limits in data_validation()).
func (h *sheetHandler) endDV() {
	d := &h.dvs
	in := h.in
	where := fmt.Sprintf("data validation on %s!%s", h.s.name, d.sqref)
	add := func(code string, g formats.Grade, anchor, msg, fix string) {
		in.add(formats.Finding{Code: code, Grade: g, Part: h.part, Line: d.at.line, Column: d.at.col, Locator: d.at.loc,
			Anchor: where + " " + anchor, Message: msg, Fix: fix})
	}
	f1 := strings.TrimSpace(d.formula[0].String())
	if d.typ == "list" && len(f1) >= 2 && f1[0] == '"' {
		list := strings.ReplaceAll(strings.TrimSuffix(f1[1:], `"`), `""`, `"`)
		if n := utf16Len(list); n > 255 {
			add(CodeDVListTooLong, formats.Fatal, "list", fmt.Sprintf("%s: the drop-down list \"%s\" is %d characters long; Excel allows 255 characters in a literal list and repairs the workbook, removing the validation", where, clip(list, 80), n),
				"put the items in cells (on a hidden sheet if needed) and set formula1 to that range, e.g. <formula1>Lists!$A$1:$A$40</formula1>")
		}
	}
	for _, lim := range []struct {
		attr string
		max  int
		g    formats.Grade
		what string
	}{{"prompt", 255, formats.Fatal, "input message"}, {"error", 255, formats.Fatal, "error message"},
		// Titles: Excel's dialog takes 32 characters (XlsxWriter warns);
		// what Excel does with a longer title in a file is unverified.
		{"promptTitle", 32, formats.Warning, "input title"}, {"errorTitle", 32, formats.Warning, "error title"}} {
		v, ok := d.attrs[lim.attr]
		if !ok {
			continue
		}
		if n := excelTextLen(v); n > lim.max {
			add(CodeDVTextTooLong, lim.g, lim.attr, fmt.Sprintf("%s: the %s (%s) is %d characters long, over Excel's limit of %d", where, lim.what, lim.attr, n, lim.max),
				fmt.Sprintf("shorten the %s attribute to at most %d characters", lim.attr, lim.max))
		}
	}
	for i := range d.formula {
		if t := strings.TrimSpace(d.formula[i].String()); t != "" && h.worksheet {
			in.checkFormula(formulaSite{part: h.part, line: d.at.line, col: d.at.col, locator: d.at.loc, where: where}, t)
		}
	}
}

// checkMerges reports merged ranges that overlap each other or a table.
// DEFECTS.md (confirmed): Excel repairs with "Removed Records: Merge cells".
func (in *inspector) checkMerges(s *sheetEntry, ms []merge, tables []*table) {
	sorted := append([]merge(nil), ms...)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].r.r1 < sorted[j].r.r1 })
	for i := range sorted {
		for j := i + 1; j < len(sorted) && sorted[j].r.r1 <= sorted[i].r.r2; j++ {
			a, b := sorted[i], sorted[j]
			if !a.r.overlaps(b.r) {
				continue
			}
			if b.at.line < a.at.line || (b.at.line == a.at.line && b.at.col < a.at.col) {
				a, b = b, a
			}
			in.add(formats.Finding{Code: CodeMergeOverlap, Grade: formats.Fatal, Part: s.part, Line: b.at.line, Column: b.at.col,
				Locator: b.at.loc, Anchor: fmt.Sprintf("%s!%s overlaps %s", s.name, b.r, a.r),
				Message: fmt.Sprintf("sheet '%s': the merged range %s overlaps the merged range %s; a cell can be in one merge only, and Excel repairs the workbook by removing merges (\"Removed Records: Merge cells\")", s.name, b.ref, a.ref),
				Fix:     fmt.Sprintf("remove one of the two <mergeCell> elements (%s or %s) or shrink them so they do not share cells", a.ref, b.ref)})
		}
	}
	for _, m := range ms {
		for _, t := range tables {
			if t.refOK && m.r.overlaps(t.ref) {
				in.add(formats.Finding{Code: CodeMergeInTable, Grade: formats.Fatal, Part: s.part, Line: m.at.line, Column: m.at.col,
					Locator: m.at.loc, Anchor: fmt.Sprintf("%s!%s in table %s", s.name, m.r, t.displayName),
					Message: fmt.Sprintf("sheet '%s': the merged range %s lies in the table %s (%s); tables cannot contain merged cells, and Excel repairs the workbook by removing the merge", s.name, m.ref, t.displayName, t.refText),
					Fix:     fmt.Sprintf("remove <mergeCell ref=\"%s\"/> or move the table so they do not intersect", m.ref)})
			}
		}
	}
}

func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}
