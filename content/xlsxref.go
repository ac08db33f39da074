package content

import (
	"strconv"
	"strings"

	"github.com/editaudit/editaudit/formats/xlsx"
)

// refPart is one coordinate of a reference: a row or a column, absolute
// ($) or relative.
type refPart struct {
	n   int
	abs bool
}

// rewriteRefs calls fn for every A1 reference of a formula (cells, whole
// columns A:C, whole rows 1:3) and puts its result in place. String
// literals, quoted sheet names, structured references and external
// workbook indexes in brackets, function names (followed by "(") and
// sheet names (followed by "!") are copied as they are.
func rewriteRefs(f string, cell func(row, col refPart) string, cols func(a, b refPart) string, rows func(a, b refPart) string) string {
	var out strings.Builder
	out.Grow(len(f) + 8)
	i := 0
	for i < len(f) {
		c := f[i]
		switch {
		case c == '"' || c == '\'':
			j := i + 1
			for j < len(f) {
				if f[j] == c {
					if j+1 < len(f) && f[j+1] == c {
						j += 2
						continue
					}
					j++
					break
				}
				j++
			}
			out.WriteString(f[i:j])
			i = j
		case c == '[':
			depth, j := 0, i
			for j < len(f) {
				if f[j] == '[' {
					depth++
				} else if f[j] == ']' {
					depth--
					if depth == 0 {
						j++
						break
					}
				}
				j++
			}
			out.WriteString(f[i:j])
			i = j
		case isNameByte(c):
			j := i
			for j < len(f) && isNameByte(f[j]) {
				j++
			}
			tok := f[i:j]
			next := byte(0)
			if j < len(f) {
				next = f[j]
			}
			if next == '(' || next == '!' {
				out.WriteString(tok)
				i = j
				continue
			}
			if r, cc, ok := parseCellRef(tok); ok {
				out.WriteString(cell(r, cc))
				i = j
				continue
			}
			if next == ':' {
				k := j + 1
				for k < len(f) && isNameByte(f[k]) {
					k++
				}
				tok2 := f[j+1 : k]
				if a, ok := parseColRef(tok); ok {
					if b, ok := parseColRef(tok2); ok {
						out.WriteString(cols(a, b))
						i = k
						continue
					}
				}
				if a, ok := parseRowRef(tok); ok {
					if b, ok := parseRowRef(tok2); ok {
						out.WriteString(rows(a, b))
						i = k
						continue
					}
				}
			}
			out.WriteString(tok)
			i = j
		default:
			out.WriteByte(c)
			i++
		}
	}
	return out.String()
}

// isNameByte: bytes of names, numbers and references ($A$1, _xlfn.X,
// 1.5E). Non-ASCII bytes belong to names.
func isNameByte(c byte) bool {
	return c == '$' || c == '_' || c == '.' || c == '\\' || c == '?' || c >= 0x80 ||
		(c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')
}

func parseColRef(s string) (refPart, bool) {
	var p refPart
	if strings.HasPrefix(s, "$") {
		p.abs, s = true, s[1:]
	}
	if len(s) == 0 || len(s) > 3 {
		return p, false
	}
	for i := 0; i < len(s); i++ {
		c := s[i] | 0x20
		if c < 'a' || c > 'z' {
			return p, false
		}
		p.n = p.n*26 + int(c-'a'+1)
	}
	return p, p.n <= xlsx.MaxCol
}

func parseRowRef(s string) (refPart, bool) {
	var p refPart
	if strings.HasPrefix(s, "$") {
		p.abs, s = true, s[1:]
	}
	if len(s) == 0 || len(s) > 7 {
		return p, false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return p, false
		}
		p.n = p.n*10 + int(s[i]-'0')
	}
	return p, p.n >= 1 && p.n <= xlsx.MaxRow
}

// parseCellRef parses $A$1, A1, $A1, A$1.
func parseCellRef(s string) (row, col refPart, ok bool) {
	i := 0
	if i < len(s) && s[i] == '$' {
		i++
	}
	j := i
	for j < len(s) && ((s[j]|0x20) >= 'a' && (s[j]|0x20) <= 'z') {
		j++
	}
	if j == i {
		return row, col, false
	}
	col, ok = parseColRef(s[:j])
	if !ok {
		return row, col, false
	}
	row, ok = parseRowRef(s[j:])
	return row, col, ok
}

// a1 is a cell's A1 name.
func a1(row, col int) string { return xlsx.A1(col, row) }

// canonicalFormula writes f, the formula of the cell at (row, col), with
// relative references as offsets (R1C1-like), so that a shared formula's
// master and the formulas Excel derives from it for other cells, or that a
// library writes out in full, compare equal.
func canonicalFormula(f string, row, col int) string {
	rel := func(p refPart, at int, axis string) string {
		if p.abs {
			return axis + strconv.Itoa(p.n)
		}
		return axis + "[" + strconv.Itoa(p.n-at) + "]"
	}
	return rewriteRefs(f,
		func(r, c refPart) string { return rel(r, row, "R") + rel(c, col, "C") },
		func(a, b refPart) string { return rel(a, col, "C") + ":" + rel(b, col, "C") },
		func(a, b refPart) string { return rel(a, row, "R") + ":" + rel(b, row, "R") })
}

// translateFormula moves the relative references of f by (dr, dc): the
// formula Excel derives for a cell of a shared formula from its master
// (§18.3.1.40, f/@t="shared").
func translateFormula(f string, dr, dc int) string {
	moveCol := func(p refPart) (string, bool) {
		n := p.n
		if !p.abs {
			n += dc
		}
		if n < 1 || n > xlsx.MaxCol {
			return "", false
		}
		if p.abs {
			return "$" + xlsx.ColName(n), true
		}
		return xlsx.ColName(n), true
	}
	moveRow := func(p refPart) (string, bool) {
		n := p.n
		if !p.abs {
			n += dr
		}
		if n < 1 || n > xlsx.MaxRow {
			return "", false
		}
		if p.abs {
			return "$" + strconv.Itoa(n), true
		}
		return strconv.Itoa(n), true
	}
	return rewriteRefs(f,
		func(r, c refPart) string {
			cs, ok1 := moveCol(c)
			rs, ok2 := moveRow(r)
			if !ok1 || !ok2 {
				return "#REF!"
			}
			return cs + rs
		},
		func(a, b refPart) string {
			x, ok1 := moveCol(a)
			y, ok2 := moveCol(b)
			if !ok1 || !ok2 {
				return "#REF!"
			}
			return x + ":" + y
		},
		func(a, b refPart) string {
			x, ok1 := moveRow(a)
			y, ok2 := moveRow(b)
			if !ok1 || !ok2 {
				return "#REF!"
			}
			return x + ":" + y
		})
}

// parseA1 reads a cell reference attribute ("B4"; "$B$4" too).
func parseA1(s string) (row, col int, ok bool) {
	col, row, ok = xlsx.CellRef(s)
	return row, col, ok
}
