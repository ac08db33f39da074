package xlsx

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/editaudit/editaudit/formats"
)

// table is one table part (ECMA-376 §18.5.1.2 CT_Table).
type table struct {
	part                    string
	id, name, displayName   string
	refText                 string
	ref                     rng
	refOK                   bool
	countAttr               string
	columns                 []string
	columnAt                []pos
	at                      pos
	formulas                []tableFormula
	hasTableColumns, isRoot bool
	headerRows              string // headerRowCount ("" = 1)
}

// tableFormula is a calculated-column or totals-row formula.
type tableFormula struct {
	column, text string
	at           pos
}

// tableHandler reads one table part.
type tableHandler struct {
	formats.NopHandler
	t      *table
	col    string
	inForm bool
	text   strings.Builder
	fAt    pos
}

func (h *tableHandler) Start(e *formats.Element) {
	t := h.t
	switch {
	case e.Depth == 1 && isSML(e, "table"):
		t.isRoot = true
		t.at = posOf(e)
		t.id, _ = attr(e, "id")
		t.name, _ = attr(e, "name")
		t.displayName, _ = attr(e, "displayName")
		t.refText, _ = attr(e, "ref")
		t.ref, t.refOK = parseRange(t.refText)
		t.headerRows, _ = attr(e, "headerRowCount")
	case e.Depth == 2 && isSML(e, "tableColumns"):
		t.hasTableColumns = true
		t.countAttr, _ = attr(e, "count")
	case e.Depth == 3 && isSML(e, "tableColumn"):
		h.col, _ = attr(e, "name")
		t.columns = append(t.columns, h.col)
		t.columnAt = append(t.columnAt, posOf(e))
	case e.Depth == 4 && (isSML(e, "calculatedColumnFormula") || isSML(e, "totalsRowFormula")):
		h.inForm = true
		h.text.Reset()
		h.fAt = posOf(e)
	}
}

func (h *tableHandler) Text(e *formats.Element, b []byte) {
	if h.inForm && e.Depth == 4 {
		h.text.Write(b)
	}
}

func (h *tableHandler) End(e *formats.Element) {
	if h.inForm && e.Depth == 4 {
		h.inForm = false
		if s := strings.TrimSpace(h.text.String()); s != "" {
			h.t.formulas = append(h.t.formulas, tableFormula{column: h.col, text: s, at: h.fAt})
		}
	}
}

// scanTables reads the table parts of a sheet and runs the per-table and
// workbook-wide table checks. DEFECTS.md (confirmed): Excel repairs
// ("Repaired Records: Table from /xl/tables/table1.xml part") a workbook
// with duplicate or invalid table names, duplicate ids, a ref whose width
// differs from the column count, or duplicate column names.
//
// byRID holds the tables preScanTables read; a table part named by a
// tablePart but not read there (an undefined r:id, a missing target: the
// core reports those) is skipped.
func (in *inspector) scanTables(s *sheetEntry, rids []string, byRID map[string]*table) []*table {
	var out []*table
	seen := map[*table]bool{}
	for _, rid := range rids {
		t := byRID[rid]
		if t == nil || seen[t] {
			continue
		}
		seen[t] = true
		out = append(out, t)
		in.checkTable(s, t)
	}
	return out
}

func (in *inspector) checkTable(s *sheetEntry, t *table) {
	label := t.displayName
	if label == "" {
		label = t.name
	}
	add := func(code string, at pos, anchor, msg, fix string) {
		in.add(formats.Finding{Code: code, Grade: formats.Fatal, Part: t.part, Line: at.line, Column: at.col,
			Locator: at.loc, Anchor: "table " + label + ": " + anchor, Message: msg, Fix: fix})
	}
	if why := nameProblem(t.displayName); why != "" {
		add(CodeTableName, t.at, "name", fmt.Sprintf("the table displayName %q (sheet '%s') is not a valid Excel name: %s; Excel repairs the workbook and renames or removes the table", t.displayName, s.name, why),
			"name the table with a letter or underscore first, then letters, digits, underscores or periods (no spaces, not a cell reference such as A1 or R1C1, at most 255 characters), and use the same value for name and displayName")
	} else {
		key := foldName(t.displayName)
		if first, dup := in.tableNames[key]; dup {
			add(CodeTableNameDup, t.at, "duplicate name", fmt.Sprintf("the table name %q is already used by the table in %s; table names are unique in the whole workbook (compared case-insensitively), and Excel repairs the workbook", t.displayName, first),
				"give the table a displayName (and name) no other table of the workbook has, and update structured references to it")
		} else {
			in.tableNames[key] = t.part
		}
		if in.bookNames[strings.ToUpper(t.displayName)] {
			// Tables and defined names share one namespace in Excel's UI;
			// what Excel does when a file holds both is unverified: warning.
			in.add(formats.Finding{Code: CodeTableNameDefined, Grade: formats.Warning, Part: t.part, Line: t.at.line, Column: t.at.col,
				Locator: t.at.loc, Anchor: "table " + label + ": defined name",
				Message: fmt.Sprintf("the table name %q is also a workbook-level defined name; Excel does not let a table and a name share a name, and may rename one of them on load", t.displayName),
				Fix:     "rename the table or the defined name"})
		}
	}
	if t.id != "" {
		if first, dup := in.tableIDs[t.id]; dup {
			add(CodeTableID, t.at, "id "+t.id, fmt.Sprintf("the table %q has id %s, already used by the table in %s; table ids are unique in the workbook, and Excel repairs it", label, t.id, first),
				"give the table an id no other table of the workbook uses (for example one more than the highest id)")
		} else {
			in.tableIDs[t.id] = t.part
		}
	}
	if !t.refOK {
		add(CodeTableRef, t.at, "ref "+t.refText, fmt.Sprintf("the table %q has ref %q, which is not a cell range; Excel repairs the workbook and drops the table", label, t.refText),
			"set ref to the table's range, header row included, e.g. ref=\"A1:D10\"")
	} else if t.hasTableColumns {
		n := len(t.columns)
		switch {
		case n != t.ref.width():
			add(CodeTableColumns, t.at, "width", fmt.Sprintf("the table %q spans %d columns (%s) but defines %d tableColumn elements; the two must agree, and Excel repairs the workbook", label, t.ref.width(), t.refText, n),
				fmt.Sprintf("give <tableColumns> exactly %d <tableColumn> children (one per column of %s) or change ref to span %d columns", t.ref.width(), t.refText, n))
		case t.countAttr != "" && t.countAttr != strconv.Itoa(n):
			add(CodeTableColumns, t.at, "count", fmt.Sprintf("the table %q declares tableColumns count=%s but has %d tableColumn elements; Excel repairs the workbook", label, t.countAttr, n),
				fmt.Sprintf("set <tableColumns count=\"%d\">", n))
		}
	}
	seen := map[string]string{}
	for i, c := range t.columns {
		k := foldName(c)
		if first, dup := seen[k]; dup {
			add(CodeTableColumnDup, t.columnAt[i], "column "+c, fmt.Sprintf("the table %q has two columns named %q and %q; column names are unique within a table (compared case-insensitively), and Excel repairs the workbook", label, first, c),
				fmt.Sprintf("rename one of the columns (for example %q) in the tableColumn name and in the header cell", c+"2"))
			continue
		}
		seen[k] = c
	}
	for _, f := range t.formulas {
		in.checkFormula(formulaSite{part: t.part, line: f.at.line, col: f.at.col, locator: f.at.loc,
			where: fmt.Sprintf("table %s column %s", label, f.column)}, f.text)
	}
}

// checkTableOverlaps reports tables that overlap each other or the sheet's
// autoFilter (DEFECTS.md, confirmed: Excel repairs and removes the table).
func (in *inspector) checkTableOverlaps(s *sheetEntry, tables []*table, af *merge) {
	for i, a := range tables {
		if !a.refOK {
			continue
		}
		for _, b := range tables[i+1:] {
			if b.refOK && a.ref.overlaps(b.ref) {
				in.add(formats.Finding{Code: CodeTableOverlap, Grade: formats.Fatal, Part: b.part, Line: b.at.line, Column: b.at.col,
					Locator: b.at.loc, Anchor: fmt.Sprintf("table %s overlaps %s", b.displayName, a.displayName),
					Message: fmt.Sprintf("sheet '%s': the table %s (%s) overlaps the table %s (%s); tables cannot share cells, and Excel repairs the workbook by removing a table", s.name, b.displayName, b.refText, a.displayName, a.refText),
					Fix:     "move or resize one of the tables (its ref and the cells it covers) so they do not intersect"})
			}
		}
		if af != nil && a.ref.overlaps(af.r) {
			in.add(formats.Finding{Code: CodeTableOverlap, Grade: formats.Fatal, Part: s.part, Line: af.at.line, Column: af.at.col,
				Locator: af.at.loc, Anchor: fmt.Sprintf("%s autoFilter overlaps table %s", s.name, a.displayName),
				Message: fmt.Sprintf("sheet '%s': the sheet's autoFilter (%s) overlaps the table %s (%s); a table carries its own filter, and Excel repairs the workbook", s.name, af.ref, a.displayName, a.refText),
				Fix:     "remove the worksheet's <autoFilter> (the table's own autoFilter in its part filters it) or move it off the table"})
		}
	}
}

// headerSlot is one header cell of a table, filled in while the sheet is
// read.
type headerSlot struct {
	t         *table
	i         int    // column index in t.columns
	text      string // the cell's text
	seen      bool   // a cell with a value was read there
	line, col int
	loc       string
}

// preScanTables reads the table parts a sheet relates, before the sheet,
// so the sheet scan can pick up their header cells. It returns the
// tables by relationship id, and the header slots by cell.
func (in *inspector) preScanTables(s *sheetEntry) (map[string]*table, map[[2]int]*headerSlot) {
	byRID := map[string]*table{}
	var slots map[[2]int]*headerSlot
	for _, r := range in.p.RelsOf(in.ctx, s.part).ByType("table") {
		if r.External || r.Resolved == "" || !in.p.Has(r.Resolved) {
			continue
		}
		part := in.p.Entry(r.Resolved).Part
		t := &table{part: part}
		res := in.p.ScanPart(in.ctx, part, &tableHandler{t: t})
		if !t.isRoot || !res.Complete {
			continue
		}
		byRID[r.ID] = t
		if !t.refOK || !t.hasTableColumns || len(t.columns) != t.ref.width() || strings.TrimSpace(t.headerRows) == "0" {
			continue
		}
		if slots == nil {
			slots = map[[2]int]*headerSlot{}
		}
		for i := range t.columns {
			slots[[2]int{t.ref.c1 + i, t.ref.r1}] = &headerSlot{t: t, i: i}
		}
	}
	return byRID, slots
}

// captureHeader records the text of a cell that is a table header.
func (h *sheetHandler) captureHeader() {
	c := &h.cell
	slot := h.headers[[2]int{c.col, c.row}]
	if slot == nil {
		return
	}
	var text string
	switch c.t {
	case "s":
		if i, err := strconv.Atoi(strings.TrimSpace(string(c.v))); err == nil && i >= 0 && i < len(h.in.sst) {
			text = h.in.sst[i]
		} else {
			return // the shared-string check reports a bad index; no header judgement
		}
	case "inlineStr":
		text = string(c.is)
	default:
		text = string(c.v)
	}
	slot.text, slot.seen = text, c.hasV || c.t == "inlineStr"
	at := c.at()
	slot.line, slot.col, slot.loc = at.line, at.col, at.loc
}

// checkHeaders compares each table's header cells with its column names
// (WorkbookRules: CodeTableHeader).
func (in *inspector) checkHeaders(s *sheetEntry, tables []*table, slots map[[2]int]*headerSlot) {
	if len(slots) == 0 || !in.sstKnown {
		return
	}
	for _, t := range tables {
		label := t.displayName
		var empty []string
		for i, name := range t.columns {
			slot := slots[[2]int{t.ref.c1 + i, t.ref.r1}]
			if slot == nil || slot.t != t {
				continue
			}
			cell := A1(t.ref.c1+i, t.ref.r1)
			want, got := unescapeX(name), unescapeX(slot.text)
			switch {
			case !slot.seen || strings.TrimSpace(got) == "":
				if want != "" {
					empty = append(empty, cell)
				}
			case got != want:
				in.add(formats.Finding{Code: CodeTableHeader, Grade: formats.Fatal, Part: s.part, Line: slot.line, Column: slot.col, Locator: slot.loc,
					Anchor:  fmt.Sprintf("table %s column %s", label, name),
					Message: fmt.Sprintf("sheet '%s': the header cell %s of table %s holds %q, but the table's column is named %q (%s); the two must be equal, and Excel repairs the workbook and drops the table", s.name, cell, label, clip(got, 60), clip(want, 60), t.part),
					Fix:     fmt.Sprintf("make them equal: write %q in %s, or rename the tableColumn to %q (and the structured references that use it)", want, cell, got)})
			}
		}
		if len(empty) > 0 {
			in.add(formats.Finding{Code: CodeTableHeader, Grade: formats.Warning, Part: t.part, Line: t.at.line, Column: t.at.col, Locator: t.at.loc,
				Anchor:  fmt.Sprintf("table %s empty header", label),
				Message: fmt.Sprintf("sheet '%s': the header cell(s) %s of table %s are empty, but the table names those columns; Excel itself never writes an empty header (it names blank headers Column1, Column2…), and its reaction is not documented", s.name, strings.Join(empty, ", "), label),
				Fix:     "write each column's name into its header cell (the first row of the table's ref)"})
		}
	}
}

// unescapeX decodes the _xHHHH_ escapes of SpreadsheetML strings (ECMA-376
// Part 1 §22.9.2.19): table column names and cell text may write the same
// character either way.
func unescapeX(s string) string {
	if !strings.Contains(s, "_x") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '_' && i+7 <= len(s) && s[i+1] == 'x' && isHex(s[i+2]) && isHex(s[i+3]) && isHex(s[i+4]) && isHex(s[i+5]) && s[i+6] == '_' {
			v, _ := strconv.ParseUint(s[i+2:i+6], 16, 32)
			b.WriteRune(rune(v))
			i += 6
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
