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
func (in *inspector) scanTables(s *sheetEntry, rids []string) []*table {
	var out []*table
	for _, rid := range rids {
		part := in.resolve(s.part, rid)
		if part == "" {
			continue // the core reports an undefined r:id or a missing target
		}
		t := &table{part: part}
		res := in.p.ScanPart(in.ctx, part, &tableHandler{t: t})
		if !t.isRoot || !res.Complete {
			continue
		}
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
