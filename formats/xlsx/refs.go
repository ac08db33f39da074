package xlsx

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// MaxRow and MaxCol are the sheet limits of Excel 2007 and later
// (ECMA-376 §18.3.1.73 row/@r is at most 1,048,576; columns run A..XFD,
// 16,384).
const (
	MaxRow = 1048576
	MaxCol = 16384
)

// CellRef parses an A1 reference ("B3", "$B$3") into 1-based column and
// row. ok is false for anything else.
func CellRef(s string) (col, row int, ok bool) {
	i := 0
	if i < len(s) && s[i] == '$' {
		i++
	}
	start := i
	for i < len(s) && i-start < 3 && isASCIILetter(s[i]) {
		col = col*26 + int(upper(s[i])-'A'+1)
		i++
	}
	if i == start || col > MaxCol {
		return 0, 0, false
	}
	if i < len(s) && s[i] == '$' {
		i++
	}
	if i == len(s) || s[i] < '1' || s[i] > '9' {
		return 0, 0, false
	}
	r, err := strconv.Atoi(s[i:])
	if err != nil || r > MaxRow {
		return 0, 0, false
	}
	return col, r, true
}

func isASCIILetter(c byte) bool { return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' }

func upper(c byte) byte {
	if c >= 'a' && c <= 'z' {
		return c - 32
	}
	return c
}

// ColName returns the letters of a 1-based column number (28 → "AB").
func ColName(col int) string {
	var b [8]byte
	i := len(b)
	for col > 0 && i > 0 {
		col--
		i--
		b[i] = byte('A' + col%26)
		col /= 26
	}
	return string(b[i:])
}

// A1 returns the A1 text of a cell position (column, row: 1-based).
func A1(col, row int) string { return ColName(col) + strconv.Itoa(row) }

// rng is a rectangle of cells, inclusive, 1-based.
type rng struct{ c1, r1, c2, r2 int }

// parseRange parses "A1:C3" or a single cell "B2" (ECMA-376 ST_Ref).
func parseRange(s string) (rng, bool) {
	s = strings.TrimSpace(s)
	a, b, two := strings.Cut(s, ":")
	c1, r1, ok := CellRef(a)
	if !ok {
		return rng{}, false
	}
	if !two {
		return rng{c1, r1, c1, r1}, true
	}
	c2, r2, ok := CellRef(b)
	if !ok {
		return rng{}, false
	}
	if c2 < c1 {
		c1, c2 = c2, c1
	}
	if r2 < r1 {
		r1, r2 = r2, r1
	}
	return rng{c1, r1, c2, r2}, true
}

func (a rng) overlaps(b rng) bool {
	return a.c1 <= b.c2 && b.c1 <= a.c2 && a.r1 <= b.r2 && b.r1 <= a.r2
}

func (a rng) width() int { return a.c2 - a.c1 + 1 }

func (a rng) String() string {
	if a.c1 == a.c2 && a.r1 == a.r2 {
		return A1(a.c1, a.r1)
	}
	return A1(a.c1, a.r1) + ":" + A1(a.c2, a.r2)
}

// utf16Len is the length of s in UTF-16 code units, the unit Excel's text
// limits are stated in.
func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		if r >= 0x10000 {
			n += 2 // a surrogate pair
		} else {
			n++
		}
	}
	return n
}

// excelTextLen is the number of characters Excel sees in a SpreadsheetML
// string: UTF-16 units, with each _xHHHH_ escape (ECMA-376 §22.9.2.19
// ST_Xstring) counting as the one character it stands for.
func excelTextLen(s string) int {
	return utf16Len(s) - 6*countEscapes(s)
}

// countEscapes counts _xHHHH_ escapes in s.
func countEscapes(s string) int {
	n := 0
	for i := 0; i+7 <= len(s); i++ {
		if s[i] == '_' && s[i+1] == 'x' && isHex(s[i+2]) && isHex(s[i+3]) && isHex(s[i+4]) && isHex(s[i+5]) && s[i+6] == '_' {
			n++
			i += 6
		}
	}
	return n
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// isNumber reports whether s (XML whitespace trimmed) is a number Excel
// reads in a numeric cell: an optional sign, digits with an optional
// decimal point, an optional exponent (xsd:double lexical space without
// INF and NaN, which Excel cannot hold in a cell).
func isNumber(s string) bool {
	s = strings.Trim(s, " \t\r\n")
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	digits := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
		digits++
	}
	if i < len(s) && s[i] == '.' {
		i++
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
			digits++
		}
	}
	if digits == 0 {
		return false
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		ed := 0
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
			ed++
		}
		if ed == 0 {
			return false
		}
	}
	return i == len(s)
}

// nameProblem says why s is not a valid Excel name for a table (MS-XLSX
// §2.2.2 name grammar: starts with a letter, "_" or "\", goes on with
// letters, digits, "_", "\", "." and "?"; at most 255 characters; not a
// cell reference in A1 or R1C1 style; not "R" or "C"), or "" when it is.
func nameProblem(s string) string {
	if s == "" {
		return "it is empty"
	}
	if utf16Len(s) > 255 {
		return "it is longer than 255 characters"
	}
	for i, r := range s {
		start := unicode.IsLetter(r) || r == '_' || r == '\\'
		if i == 0 && !start {
			return "it must start with a letter, an underscore or a backslash"
		}
		if !start && !unicode.IsDigit(r) && r != '.' && r != '?' {
			if r == ' ' {
				return "it contains a space"
			}
			return "it contains the character " + strconv.QuoteRune(r)
		}
	}
	if _, _, ok := CellRef(s); ok {
		return "it is a cell reference"
	}
	if isR1C1(s) {
		return "it reads as an R1C1 cell reference"
	}
	return ""
}

// isR1C1 reports whether s reads as an R1C1-style reference: R, C, R12,
// C3, R1C1, RC (case-insensitive).
func isR1C1(s string) bool {
	u := strings.ToUpper(s)
	i := 0
	if i < len(u) && u[i] == 'R' {
		i++
		for i < len(u) && u[i] >= '0' && u[i] <= '9' {
			i++
		}
	}
	if i < len(u) && u[i] == 'C' {
		i++
		for i < len(u) && u[i] >= '0' && u[i] <= '9' {
			i++
		}
	}
	return i > 0 && i == len(u)
}

// clip shortens s for messages and anchors, deterministically.
func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n]) + "…"
}
