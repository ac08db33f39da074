package content

import "strconv"

// Kinds of the elements a handler keeps on its stack: an element that
// opens a location (container, table, row, cell), a paragraph, or any
// other element.
const (
	kOther uint8 = iota
	kContainer
	kTable
	kRow
	kCell
	kPara
	kRun
)

// loc is an open container (the Word body, a header, a note, a text box,
// a Hangul section or header), table, row or cell.
type loc struct {
	kind  uint8
	where string // "body", "body table 2", "body table 2, row 3", …
	sep   string // between a container's label and what follows
	scope string
	n     int // paragraphs (container, cell), rows (table), cells (row)
	tbls  int // tables directly inside (container, cell)
}

// locStack builds the "where" of tables, rows, cells and paragraphs the
// way DESIGN.md writes them, for Word and Hangul alike.
type locStack struct {
	s []loc
	// kinds has the kind of every open element of the part (kOther for
	// most), so End knows what closes.
	kinds []uint8
	// fallback labels paragraphs and tables outside any container (a
	// malformed part); loose counts those paragraphs.
	fallback string
	loose    int
}

func (ls *locStack) top() *loc {
	if n := len(ls.s); n > 0 {
		return &ls.s[n-1]
	}
	return nil
}

// push records the kind of an element just opened.
func (ls *locStack) push(k uint8) { ls.kinds = append(ls.kinds, k) }

// end closes the innermost open element (closing its location, if it
// opened one) and returns its kind.
func (ls *locStack) end() uint8 {
	n := len(ls.kinds)
	if n == 0 {
		return kOther
	}
	k := ls.kinds[n-1]
	ls.kinds = ls.kinds[:n-1]
	switch k {
	case kContainer, kTable, kRow, kCell:
		ls.s = ls.s[:len(ls.s)-1]
	}
	return k
}

// container opens a container labelled where; sep separates the label
// from "paragraph N" / "table N" (" " after a part label, ", " after a
// numbered one).
func (ls *locStack) container(where, sep, scope string) {
	ls.s = append(ls.s, loc{kind: kContainer, where: where, sep: sep, scope: scope})
}

// openTablePart opens the location of a tbl, tr or tc element and returns
// its kind, or kOther when it opens none (a row outside a table).
func (ls *locStack) openTablePart(local string) uint8 {
	switch {
	case local == "tbl":
		ls.table()
		return kTable
	case local == "tr" && ls.row():
		return kRow
	case local == "tc" && ls.cell():
		return kCell
	}
	return kOther
}

// table opens a table inside the innermost container or cell.
func (ls *locStack) table() {
	where, scope := ls.fallback+" (outside the body)", ls.fallback
	if l := ls.top(); l != nil {
		l.tbls++
		sep := l.sep
		if l.kind != kContainer || sep == "" {
			sep = ", "
		}
		where, scope = l.where+sep+"table "+strconv.Itoa(l.tbls), l.scope
	}
	ls.s = append(ls.s, loc{kind: kTable, where: where, scope: scope})
}

// row opens a row; false when not inside a table.
func (ls *locStack) row() bool {
	t := ls.top()
	if t == nil || t.kind != kTable {
		return false
	}
	t.n++
	ls.s = append(ls.s, loc{kind: kRow, where: t.where + ", row " + strconv.Itoa(t.n), scope: t.scope})
	return true
}

// cell opens a cell; false when not inside a row.
func (ls *locStack) cell() bool {
	r := ls.top()
	if r == nil || r.kind != kRow {
		return false
	}
	r.n++
	ls.s = append(ls.s, loc{kind: kCell, where: r.where + ", cell " + strconv.Itoa(r.n), sep: ", ", scope: r.scope + "|cell"})
	return true
}

// paragraph counts a paragraph in the innermost location and returns its
// where and scope: "body paragraph 12", "body table 2, row 3, cell 1" (the
// cell's first paragraph), "…, cell 1, paragraph 2".
func (ls *locStack) paragraph() (where, scope string) {
	l := ls.top()
	if l == nil {
		ls.loose++
		return ls.fallback + " paragraph " + strconv.Itoa(ls.loose), ls.fallback
	}
	l.n++
	switch l.kind {
	case kContainer:
		return l.where + l.sep + "paragraph " + strconv.Itoa(l.n), l.scope
	case kCell:
		if l.n > 1 {
			return l.where + ", paragraph " + strconv.Itoa(l.n), l.scope
		}
		return l.where, l.scope
	}
	return l.where + ", paragraph " + strconv.Itoa(l.n), l.scope
}
