package synth

import (
	"fmt"
	"strconv"
	"strings"
)

// cellRef is a 1-based worksheet position.
type cellRef struct{ col, row int }

// cellRange is an inclusive rectangle of cells.
type cellRange struct{ a, b cellRef }

const (
	excelMaxCol = 16384
	excelMaxRow = 1048576
)

// parseCellRef parses "B12" (also "$B$12") into column 2, row 12.
func parseCellRef(s string) (cellRef, error) {
	s = strings.ReplaceAll(s, "$", "")
	i := 0
	col := 0
	for i < len(s) && (s[i] >= 'A' && s[i] <= 'Z' || s[i] >= 'a' && s[i] <= 'z') {
		c := s[i]
		if c >= 'a' {
			c -= 'a' - 'A'
		}
		col = col*26 + int(c-'A'+1)
		i++
		if i > 3 {
			return cellRef{}, fmt.Errorf("%q is not a cell reference", s)
		}
	}
	if i == 0 || i == len(s) {
		return cellRef{}, fmt.Errorf("%q is not a cell reference", s)
	}
	row, err := strconv.Atoi(s[i:])
	if err != nil || row < 1 || s[i] == '0' || s[i] == '+' || s[i] == '-' {
		return cellRef{}, fmt.Errorf("%q is not a cell reference", s)
	}
	if col > excelMaxCol || row > excelMaxRow {
		return cellRef{}, fmt.Errorf("%q is outside the sheet (XFD1048576)", s)
	}
	return cellRef{col, row}, nil
}

// parseRange parses "A1:C3" (or a single cell "A1" when single is true).
func parseRange(s string, single bool) (cellRange, error) {
	a, b, ok := strings.Cut(s, ":")
	if !ok {
		if !single {
			return cellRange{}, fmt.Errorf("%q is not a range like A1:C3", s)
		}
		r, err := parseCellRef(s)
		return cellRange{r, r}, err
	}
	ra, err := parseCellRef(a)
	if err != nil {
		return cellRange{}, err
	}
	rb, err := parseCellRef(b)
	if err != nil {
		return cellRange{}, err
	}
	if rb.col < ra.col || rb.row < ra.row {
		return cellRange{}, fmt.Errorf("%q: the second corner is above or left of the first", s)
	}
	return cellRange{ra, rb}, nil
}

func (r cellRange) overlaps(o cellRange) bool {
	return r.a.col <= o.b.col && o.a.col <= r.b.col && r.a.row <= o.b.row && o.a.row <= r.b.row
}

func (r cellRange) String() string {
	if r.a == r.b {
		return r.a.String()
	}
	return r.a.String() + ":" + r.b.String()
}

// colName returns the letters of 1-based column n ("A", "Z", "AA").
func colName(n int) string {
	var b []byte
	for n > 0 {
		n--
		b = append([]byte{byte('A' + n%26)}, b...)
		n /= 26
	}
	return string(b)
}

func (c cellRef) String() string { return colName(c.col) + strconv.Itoa(c.row) }
