package formats

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
)

// Grade says what the main application does with a defect. The order of
// severity is Fatal > Error > Warning > Info.
type Grade string

// The four grades of DESIGN.md. A grade reflects what the application does,
// not what a schema says.
const (
	// Fatal: the application refuses the file or must repair it (content removed).
	Fatal Grade = "fatal"
	// Error: opens without a dialog but shows wrong things (#NAME?, stale values).
	Error Grade = "error"
	// Warning: a real risk or a likely mistake.
	Warning Grade = "warning"
	// Info: worth knowing; the application tolerates it.
	Info Grade = "info"
)

// Grades lists every grade from most to least severe.
var Grades = []Grade{Fatal, Error, Warning, Info}

// Rank orders grades: 0 for fatal up to 3 for info, 4 for an unknown grade.
func (g Grade) Rank() int {
	switch g {
	case Fatal:
		return 0
	case Error:
		return 1
	case Warning:
		return 2
	case Info:
		return 3
	}
	return 4
}

// Valid reports whether g is one of the four grades.
func (g Grade) Valid() bool { return g.Rank() < 4 }

// Finding is one defect found in a document. It is data: validators collect
// every finding and never stop at the first one.
type Finding struct {
	// Code is a stable dotted identifier such as "xml.illegal-char".
	Code string `json:"code"`
	// Grade is the severity; see the Grade constants.
	Grade Grade `json:"grade"`
	// Part is the zip entry name the finding is in ("" for the whole package).
	Part string `json:"part,omitempty"`
	// Line and Column locate the finding inside Part, 1-based (0: unknown).
	Line   int `json:"line,omitempty"`
	Column int `json:"column,omitempty"`
	// Locator is an XPath-like path with positions, e.g.
	// /w:document/w:body/w:tbl[2]/w:tr[3]/w:tc[1].
	Locator string `json:"locator,omitempty"`
	// Message says what is wrong, in words a model can act on.
	Message string `json:"message"`
	// Fix says how to repair it.
	Fix string `json:"fix,omitempty"`
	// Anchor is a position-free identity hint: the content the finding is
	// about (the offending text excerpt, the formula, the sheet name, the
	// relationship id). The audit matches findings of an original and an
	// edited file by code, part and anchor, because line, column and
	// positional locators shift when the edit inserts content above.
	Anchor string `json:"anchor,omitempty"`
}

// Key is the position-free identity of a finding: stable across edits
// elsewhere in the same part.
func (f Finding) Key() string {
	a := f.Anchor
	if a == "" {
		a = f.Message
	}
	return f.Code + "\x00" + normalizePart(f.Part) + "\x00" + a
}

// normalizePart strips the numbers from a part's file name
// (xl/worksheets/sheet3.xml → xl/worksheets/sheet#.xml): writers renumber
// parts on ordinary edits (openpyxl renames sheetN.xml after a sheet is
// deleted; python-pptx renames slides), so the number is no identity. The
// anchor carries what identifies the place (sheet name and cell, shape).
func normalizePart(p string) string {
	i := strings.LastIndexByte(p, '/') + 1
	var b strings.Builder
	b.WriteString(p[:i])
	inDigits := false
	for _, c := range p[i:] {
		if c >= '0' && c <= '9' {
			if !inDigits {
				b.WriteByte('#')
			}
			inDigits = true
			continue
		}
		inDigits = false
		b.WriteRune(c)
	}
	return b.String()
}

// String renders a finding as one line for people:
// "fatal xml.illegal-char word/document.xml:2:19965: message".
func (f Finding) String() string {
	var b strings.Builder
	b.WriteString(string(f.Grade))
	b.WriteByte(' ')
	b.WriteString(f.Code)
	if f.Part != "" {
		b.WriteByte(' ')
		b.WriteString(f.Part)
		if f.Line > 0 {
			fmt.Fprintf(&b, ":%d:%d", f.Line, f.Column)
		}
	}
	b.WriteString(": ")
	b.WriteString(f.Message)
	return b.String()
}

// Less is the fixed output order of findings: grade (fatal first), part,
// line, column, code, locator, message. Sorted output is byte-stable.
func Less(a, b Finding) bool {
	if ra, rb := a.Grade.Rank(), b.Grade.Rank(); ra != rb {
		return ra < rb
	}
	if a.Part != b.Part {
		return a.Part < b.Part
	}
	if a.Line != b.Line {
		return a.Line < b.Line
	}
	if a.Column != b.Column {
		return a.Column < b.Column
	}
	if a.Code != b.Code {
		return a.Code < b.Code
	}
	if a.Locator != b.Locator {
		return a.Locator < b.Locator
	}
	return a.Message < b.Message
}

// Sort puts findings in the fixed order of Less.
func Sort(fs []Finding) {
	sort.SliceStable(fs, func(i, j int) bool { return Less(fs[i], fs[j]) })
}

// Tally counts findings by grade.
type Tally struct {
	Total   int `json:"total"`
	Fatal   int `json:"fatal"`
	Error   int `json:"error"`
	Warning int `json:"warning"`
	Info    int `json:"info"`
}

// Add counts one finding of grade g.
func (t *Tally) Add(g Grade) {
	t.Total++
	switch g {
	case Fatal:
		t.Fatal++
	case Error:
		t.Error++
	case Warning:
		t.Warning++
	case Info:
		t.Info++
	}
}

// TallyOf counts fs by grade.
func TallyOf(fs []Finding) Tally {
	var t Tally
	for _, f := range fs {
		t.Add(f.Grade)
	}
	return t
}

// FileMissing reports whether fs holds the finding file.missing: the
// document is not there at all, so what is said of a broken document
// ("the application will refuse or repair it") does not apply.
func FileMissing(fs []Finding) bool {
	for _, f := range fs {
		if f.Code == CodeFileMissing {
			return true
		}
	}
	return false
}

// HasFatal reports whether any finding is fatal.
func HasFatal(fs []Finding) bool {
	for _, f := range fs {
		if f.Grade == Fatal {
			return true
		}
	}
	return false
}

// Counts is a document's structure: metric name → number. The keys per
// format are fixed by DESIGN.md (docx tables, rows, cells, paragraphs; pptx
// slides, paragraphs, runs; xlsx sheets, charts, images, …; hwpx sections,
// paragraphs, tables). JSON output has sorted keys.
type Counts map[string]int

// Add adds o into c.
func (c Counts) Add(o Counts) {
	for k, v := range o {
		c[k] += v
	}
}

// Keys returns the metric names in sorted order.
func (c Counts) Keys() []string {
	ks := make([]string, 0, len(c))
	for k := range c {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// MarshalJSON writes the metrics with sorted keys (encoding/json already
// sorts map keys; this keeps a nil map as {}).
func (c Counts) MarshalJSON() ([]byte, error) {
	if c == nil {
		return []byte("{}"), nil
	}
	return json.Marshal(map[string]int(c))
}

// Site is the structure of one place in a document: a part, a table, a
// table cell, a slide, a sheet. The audit compares sites with the same Where
// to say where structure was lost ("table 3, row 2, cell 2").
type Site struct {
	// Part is the zip entry the site lives in.
	Part string `json:"part"`
	// Where names the place for people, e.g. "body table 3, row 2, cell 2"
	// or "slide 4". It is the site's identity within Part.
	Where string `json:"where"`
	// Counts is the structure inside the site (nested content included).
	Counts Counts `json:"counts"`
}
