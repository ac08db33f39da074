package content

import (
	"fmt"
	"hash/maphash"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"github.com/editaudit/editaudit/formats"
)

// Format is the resolved formatting of a run of text: what a reader sees,
// not how the markup says it (rsid attributes, proofing marks, language
// tags and run splits are not formatting).
type Format struct {
	Bold, Italic, Underline, Strike bool
	// Font is the typeface name ("theme:minorHAnsi" for a theme font).
	Font string
	// Size in points ("11pt").
	Size string
	// Color is the text colour ("FF0000", "scheme:accent1"; "" = automatic).
	Color string
	// Highlight is the highlight or shading ("yellow", "shading D9D9D9").
	Highlight string
	// Style is the character style (Word), the number format (Excel).
	Style string
}

// plain reports whether f has none of the emphasis a run can lose: bold,
// italic, underline, strikethrough, highlight.
func (f Format) plain() bool {
	return !f.Bold && !f.Italic && !f.Underline && !f.Strike && f.Highlight == ""
}

// run is a stretch of a unit's text in one format.
type run struct {
	n int32 // bytes of text
	f int32 // index in the document's format table
}

// unit is one located piece of content: a paragraph (a table cell's
// paragraph included) with its text and formatting.
type unit struct {
	part  string
	where string
	// scope groups units that can be paired as "the same unit, changed":
	// the same kind of container (body, a cell, a text box, a slide's
	// shape). A body paragraph is never reported as changed into a cell.
	scope string
	text  string
	hash  uint64 // of the normalised text
	// style is the paragraph style (resolved to its id or name; "" none).
	style string
	runs  []run
	// group is the key of the part (or slide) the unit comes from: when
	// it fails to parse on either side, its units are left out on both.
	group string
}

// formats interns the formats of one document.
type formatTable struct {
	list  []Format
	index map[Format]int32
}

func newFormatTable() *formatTable {
	return &formatTable{index: map[Format]int32{}}
}

func (t *formatTable) intern(f Format) int32 {
	if i, ok := t.index[f]; ok {
		return i
	}
	i := int32(len(t.list))
	t.list = append(t.list, f)
	t.index[f] = i
	return i
}

// story is one sequence of units aligned as a whole: the Word body or one
// header, the whole deck, one Hangul section.
type story struct {
	// key matches a story of the original with one of the edited file.
	key   string
	part  string
	units []*unit
}

// extraction is what a format's extractor read from one package.
type extraction struct {
	stories []*story
	formats *formatTable
	// failed holds the parts (by group key; "" for the whole package)
	// that did not parse; their units are left out on both sides.
	failed map[string]failure
	// order lists the failures in the order found, for messages.
	order []string
	// formatsUnknown says why formatting cannot be resolved (a styles
	// part that did not parse); formatting is then compared on neither
	// side.
	formatsUnknown string
	// units counts the units read; past maxUnits none is kept and the
	// whole package fails (memory stays bounded).
	units, maxUnits int
	// kept records the units per part (the original's extraction); from
	// lets the edited file's extraction reuse them (reuse.go).
	kept map[string]*partUnits
	from *reuse
	// contextParts are the parts formatting is resolved through
	// (word/styles.xml and the theme, Contents/header.xml; "" none).
	contextParts []string
	// contextKey is what else formatting depends on (PowerPoint: the
	// presentation's default text style).
	contextKey string
	// hashes of the parts read completely (the original's extraction,
	// with seed), for sameAsOriginal.
	hashes map[string]uint64
	seed   maphash.Seed
}

// take counts one more unit and reports whether it may be kept.
func (x *extraction) take() bool {
	x.units++
	if x.units == x.maxUnits+1 {
		x.fail("", "the package", fmt.Sprintf("it has more than %d paragraphs, the most the content diff compares", x.maxUnits))
	}
	return x.units <= x.maxUnits
}

// failure is a part that could not be read: what names it for people.
type failure struct{ what, why string }

func newExtraction(maxUnits int) *extraction {
	return &extraction{formats: newFormatTable(), failed: map[string]failure{}, maxUnits: maxUnits}
}

func (x *extraction) fail(key, what, why string) {
	if _, dup := x.failed[key]; dup {
		return
	}
	x.failed[key] = failure{what, why}
	x.order = append(x.order, key)
}

// builder collects the text and runs of the unit being read.
type builder struct {
	text []byte
	runs []run
}

func (b *builder) reset() {
	b.text = b.text[:0]
	b.runs = b.runs[:0]
}

// add appends text in format f, merging with the previous run when the
// format is the same.
func (b *builder) add(t []byte, f int32) {
	b.text = append(b.text, t...)
	b.extend(len(t), f)
}

func (b *builder) addString(s string, f int32) {
	b.text = append(b.text, s...)
	b.extend(len(s), f)
}

// extend counts n more bytes of text in format f.
func (b *builder) extend(n int, f int32) {
	if n == 0 {
		return
	}
	if k := len(b.runs); k > 0 && b.runs[k-1].f == f {
		b.runs[k-1].n += int32(n)
		return
	}
	b.runs = append(b.runs, run{n: int32(n), f: f})
}

// unit makes the unit of the text collected so far.
func (b *builder) unit(group, part, where, scope, style string) *unit {
	var text string
	if utf8.Valid(b.text) {
		text = string(b.text)
	} else {
		text = strings.ToValidUTF8(string(b.text), "\uFFFD")
	}
	u := &unit{group: group, part: part, where: where, scope: scope, text: text, style: style, hash: hashNorm(text)}
	if len(text) == len(b.text) && len(b.runs) > 0 {
		u.runs = append([]run(nil), b.runs...)
	} else if len(text) > 0 {
		// The replacement changed byte lengths: one run in the first format.
		f := int32(0)
		if len(b.runs) > 0 {
			f = b.runs[0].f
		}
		u.runs = []run{{n: int32(len(text)), f: f}}
	}
	return u
}

// normalize is the text two units are compared by: Unicode NFC (Hangul
// written as jamo or as syllables compares equal), whitespace runs (tabs,
// line breaks, no-break spaces) collapsed to one space, trimmed.
func normalize(s string) string {
	if plainASCII(s) {
		return s
	}
	if !norm.NFC.IsNormalString(s) {
		s = norm.NFC.String(s)
	}
	var b strings.Builder
	space := false
	for _, r := range s {
		if unicode.IsSpace(r) {
			space = true
			continue
		}
		if space && b.Len() > 0 {
			b.WriteByte(' ')
		}
		space = false
		b.WriteRune(r)
	}
	return b.String()
}

// plainASCII reports whether s is ASCII already in normal form: single
// spaces between words, none at the ends (the common case, kept without
// copying).
func plainASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= 0x80, c == '\t', c == '\n', c == '\v', c == '\f', c == '\r':
			return false
		case c == ' ' && (i == 0 || i == len(s)-1 || s[i-1] == ' '):
			return false
		}
	}
	return true
}

// FNV-1a, 64 bits: deterministic, no state.
const (
	fnvOffset = 14695981039346656037
	fnvPrime  = 1099511628211
)

func hashByte(h uint64, c byte) uint64 { return (h ^ uint64(c)) * fnvPrime }

func hashBytes(h uint64, b []byte) uint64 {
	for _, c := range b {
		h = (h ^ uint64(c)) * fnvPrime
	}
	return h
}

func hashString(s string) uint64 {
	h := uint64(fnvOffset)
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= fnvPrime
	}
	return h
}

// hashNorm is hashString(normalize(s)), without building the normalised
// string unless s needs NFC composition.
func hashNorm(s string) uint64 {
	if plainASCII(s) {
		return hashString(s)
	}
	if !utf8.ValidString(s) || !norm.NFC.IsNormalString(s) {
		return hashString(normalize(s))
	}
	h := uint64(fnvOffset)
	space, started := false, false
	for i := 0; i < len(s); {
		c := s[i]
		n := 1
		isSpace := false
		if c < utf8.RuneSelf {
			isSpace = c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'
		} else {
			var r rune
			r, n = utf8.DecodeRuneInString(s[i:])
			isSpace = unicode.IsSpace(r)
		}
		if isSpace {
			space = true
			i += n
			continue
		}
		if space && started {
			h ^= ' '
			h *= fnvPrime
		}
		space, started = false, true
		for k := i; k < i+n; k++ {
			h ^= uint64(s[k])
			h *= fnvPrime
		}
		i += n
	}
	return h
}

// clip shortens s to at most max runes, keeping its start, with "…".
func clip(s string, max int) string {
	if utf8.RuneCountInString(s) <= max {
		return s
	}
	n := 0
	for i := range s {
		if n == max-1 {
			return s[:i] + "…"
		}
		n++
	}
	return s
}

// clipEnd keeps the last max runes of s, with a leading "…".
func clipEnd(s string, max int) string {
	n := utf8.RuneCountInString(s)
	if n <= max {
		return s
	}
	skip := n - (max - 1)
	for i := range s {
		if skip == 0 {
			return "…" + s[i:]
		}
		skip--
	}
	return s
}

// clipMiddle keeps the first and last half of max runes of s.
func clipMiddle(s string, max int) string {
	n := utf8.RuneCountInString(s)
	if n <= max {
		return s
	}
	head := (max - 1) / 2
	tail := max - 1 - head
	var b strings.Builder
	i := 0
	for _, r := range s {
		if i < head {
			b.WriteRune(r)
		} else if i == head {
			b.WriteString("…")
		}
		if i >= n-tail {
			b.WriteRune(r)
		}
		i++
	}
	return b.String()
}

// oneLine replaces line breaks and tabs by spaces, for a one-line rendering.
func oneLine(s string) string {
	if !strings.ContainsAny(s, "\n\r\t\v\f") {
		return s
	}
	return strings.Map(func(r rune) rune {
		switch r {
		case '\n', '\r', '\t', '\v', '\f':
			return ' '
		}
		return r
	}, s)
}

// nsMC is the markup-compatibility namespace (ECMA-376 Part 3), the same in
// Transitional and Strict.
const nsMC = "http://schemas.openxmlformats.org/markup-compatibility/2006"

// mcState follows markup compatibility (ECMA-376 Part 3 §10.2) during a
// scan: of an mc:AlternateContent only the first mc:Choice is read;
// further Choices and the Fallback repeat its content for older readers
// (Word writes every text box twice) and are skipped.
type mcState struct {
	alt  []int // choices seen per open mc:AlternateContent
	skip int   // depth inside skipped markup (0: reading)
}

// start handles a start tag. It reports whether e (and everything inside
// it) is skipped, and whether e is an mc element the caller must not
// interpret (AlternateContent, the Choice read).
func (m *mcState) start(e *formats.Element) (skipped, mc bool) {
	if m.skip > 0 {
		m.skip++
		return true, true
	}
	if e.Name.Space != nsMC {
		return false, false
	}
	switch e.Name.Local {
	case "AlternateContent":
		m.alt = append(m.alt, 0)
	case "Choice":
		if n := len(m.alt); n > 0 {
			m.alt[n-1]++
			if m.alt[n-1] > 1 {
				m.skip = 1
				return true, true
			}
		}
	case "Fallback":
		m.skip = 1
		return true, true
	}
	return false, true
}

// end handles an end tag and reports whether it closes skipped markup.
func (m *mcState) end(e *formats.Element) bool {
	if m.skip > 0 {
		m.skip--
		return true
	}
	if e.Name.Space == nsMC && e.Name.Local == "AlternateContent" && len(m.alt) > 0 {
		m.alt = m.alt[:len(m.alt)-1]
	}
	return false
}
