package content

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/editaudit/editaudit/formats"
	"github.com/editaudit/editaudit/formats/xlsx"
	"github.com/editaudit/editaudit/internal/plural"
)

func isSML(e *formats.Element, local string) bool {
	return e != nil && e.Name.Local == local && (e.Name.Space == xlsx.NSMain || e.Name.Space == xlsx.NSMainS)
}

// xSheet is one sheet of workbook.xml.
type xSheet struct {
	name, id, rid string
	part          string
	worksheet     bool
	missing       string // the part the relationship names, when absent
}

// xBook is what the diff needs of one workbook.
type xBook struct {
	p        *formats.Package
	part     string
	sheets   []*xSheet
	sstPart  string
	sst      []uint64 // hash of each shared string's normalised text
	formats  *formatTable
	xfs      []int32 // cellXfs index → format
	defFmt   int32   // the format of a cell without a style
	noFormat string  // why the formats are unknown ("" when known)
}

type xWorkbookHandler struct {
	formats.NopHandler
	sheets []*xSheet
}

func (h *xWorkbookHandler) Start(e *formats.Element) {
	if e.Depth == 3 && isSML(e, "sheet") && isSML(e.Parent, "sheets") {
		s := &xSheet{}
		s.name, _ = e.Get("", "name")
		s.id, _ = e.Get("", "sheetId")
		var ok bool
		if s.rid, ok = e.Get(formats.NSRelsT, "id"); !ok {
			s.rid, _ = e.Get(formats.NSRelsS, "id")
		}
		h.sheets = append(h.sheets, s)
	}
}

// readBook reads the sheet list, the shared strings' hashes and the cell
// formats of a workbook. why is "" when the workbook and its shared
// strings were read; else nothing of it can be compared.
func readBook(ctx context.Context, p *formats.Package) (b *xBook, why string) {
	b = &xBook{p: p, formats: newFormatTable()}
	if p.MainPart == "" || !p.Has(p.MainPart) {
		return b, "it has no workbook part"
	}
	b.part = p.Entry(p.MainPart).Part
	wh := &xWorkbookHandler{}
	if why := scanPart(ctx, p, b.part, wh); why != "" {
		return b, b.part + " did not parse: " + why
	}
	rels := p.RelsOf(ctx, b.part)
	for _, s := range wh.sheets {
		r := rels.ByID(s.rid)
		if r == nil || r.External || r.Resolved == "" {
			continue
		}
		s.worksheet = strings.HasSuffix(r.Type, "/worksheet")
		if e := p.Entry(r.Resolved); e != nil {
			s.part = e.Part
		} else {
			s.missing = r.Resolved
		}
		b.sheets = append(b.sheets, s)
	}
	if r := rels.ByType("sharedStrings"); len(r) > 0 && !r[0].External && p.Has(r[0].Resolved) {
		b.sstPart = p.Entry(r[0].Resolved).Part
		h := &sstHandler{}
		if why := scanPart(ctx, p, b.sstPart, h); why != "" {
			return b, b.sstPart + " did not parse: " + why
		}
		b.sst = h.hashes
	}
	b.defFmt = b.formats.intern(Format{})
	theme := &themeColorsHandler{colors: map[string]string{}}
	if r := rels.ByType("theme"); len(r) > 0 && !r[0].External && p.Has(r[0].Resolved) {
		part := p.Entry(r[0].Resolved).Part
		if why := scanPart(ctx, p, part, theme); why != "" {
			b.noFormat = part + " did not parse (" + why + ")"
		}
	}
	if r := rels.ByType("styles"); len(r) > 0 && !r[0].External && p.Has(r[0].Resolved) && b.noFormat == "" {
		part := p.Entry(r[0].Resolved).Part
		h := &xStylesHandler{numFmts: map[int]string{}, theme: theme.colors}
		if why := scanPart(ctx, p, part, h); why != "" {
			b.noFormat = part + " did not parse (" + why + ")"
		} else {
			b.xfs = make([]int32, len(h.xfs))
			for i, xf := range h.xfs {
				var f Format
				if xf.font >= 0 && xf.font < len(h.fonts) {
					f = h.fonts[xf.font]
				}
				if xf.fill >= 0 && xf.fill < len(h.fills) {
					f.Highlight = h.fills[xf.fill]
				}
				f.Style = numFmtCode(xf.numFmt, h.numFmts)
				b.xfs[i] = b.formats.intern(f)
			}
			if len(b.xfs) > 0 {
				b.defFmt = b.xfs[0]
			}
		}
	}
	return b, ""
}

// cellFormat is the format of style index s.
func (b *xBook) cellFormat(s int) int32 {
	if s >= 0 && s < len(b.xfs) {
		return b.xfs[s]
	}
	return b.defFmt
}

// sstHandler hashes (or, with want, collects) the shared strings.
type sstHandler struct {
	formats.NopHandler
	hashes []uint64
	want   map[int]bool
	texts  map[int]string
	n      int
	text   []byte
	rPh    int
}

func (h *sstHandler) Start(e *formats.Element) {
	switch {
	case e.Depth == 2 && isSML(e, "si"):
		h.text = h.text[:0]
	case isSML(e, "rPh"):
		h.rPh++
	}
}

func (h *sstHandler) Text(e *formats.Element, t []byte) {
	if h.rPh == 0 && isSML(e, "t") && e.Depth >= 3 {
		h.text = append(h.text, t...)
	}
}

func (h *sstHandler) End(e *formats.Element) {
	switch {
	case isSML(e, "rPh"):
		h.rPh--
	case e.Depth == 2 && isSML(e, "si"):
		if h.want != nil {
			if h.want[h.n] {
				h.texts[h.n] = unescapeX(string(h.text))
			}
		} else {
			h.hashes = append(h.hashes, hashNorm(unescapeX(string(h.text))))
		}
		h.n++
	}
}

// unescapeX decodes SpreadsheetML's _xHHHH_ escapes (§22.9.2.19).
func unescapeX(s string) string {
	if !strings.Contains(s, "_x") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '_' && i+6 < len(s) && s[i+1] == 'x' && s[i+6] == '_' {
			if n, err := strconv.ParseUint(s[i+2:i+6], 16, 32); err == nil {
				b.WriteRune(rune(n))
				i += 6
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// xStylesHandler reads the fonts, fills, number formats and cellXfs of
// styles.xml (§18.8).
type xStylesHandler struct {
	formats.NopHandler
	theme   map[string]string // the theme's colours (color.go)
	fonts   []Format
	fills   []string
	numFmts map[int]string
	xfs     []xXf
	font    *Format
	fill    *string
	pattern string
}

type xXf struct{ font, fill, numFmt int }

func (h *xStylesHandler) Start(e *formats.Element) {
	if !(e.Name.Space == xlsx.NSMain || e.Name.Space == xlsx.NSMainS) {
		return
	}
	switch {
	case e.Name.Local == "numFmt" && isSML(e.Parent, "numFmts"):
		id, _ := e.Get("", "numFmtId")
		code, _ := e.Get("", "formatCode")
		if n, err := strconv.Atoi(id); err == nil {
			h.numFmts[n] = code
		}
	case e.Name.Local == "font" && isSML(e.Parent, "fonts"):
		h.fonts = append(h.fonts, Format{})
		h.font = &h.fonts[len(h.fonts)-1]
	case h.font != nil && isSML(e.Parent, "font"):
		v, hasVal := e.Get("", "val")
		on := !hasVal || (v != "0" && v != "false")
		switch e.Name.Local {
		case "b":
			h.font.Bold = on
		case "i":
			h.font.Italic = on
		case "u":
			h.font.Underline = !hasVal || v != "none"
		case "strike":
			h.font.Strike = on
		case "sz":
			h.font.Size = v + "pt"
		case "name":
			h.font.Font = v
		case "color":
			h.font.Color = smlColor(e, h.theme)
		}
	case e.Name.Local == "fill" && isSML(e.Parent, "fills"):
		h.fills = append(h.fills, "")
		h.fill = &h.fills[len(h.fills)-1]
	case h.fill != nil && e.Name.Local == "patternFill":
		h.pattern, _ = e.Get("", "patternType")
	case h.fill != nil && e.Name.Local == "fgColor" && isSML(e.Parent, "patternFill"):
		if h.pattern != "" && h.pattern != "none" {
			*h.fill = "fill " + smlColor(e, h.theme)
			if h.pattern != "solid" {
				*h.fill += " " + h.pattern
			}
		}
	case e.Name.Local == "xf" && isSML(e.Parent, "cellXfs"):
		atoi := func(name string) int {
			v, _ := e.Get("", name)
			n, err := strconv.Atoi(v)
			if err != nil {
				return 0
			}
			return n
		}
		h.xfs = append(h.xfs, xXf{font: atoi("fontId"), fill: atoi("fillId"), numFmt: atoi("numFmtId")})
	}
}

func (h *xStylesHandler) End(e *formats.Element) {
	switch {
	case isSML(e, "font") && isSML(e.Parent, "fonts"):
		h.font = nil
	case isSML(e, "fill") && isSML(e.Parent, "fills"):
		h.fill, h.pattern = nil, ""
	}
}

// builtinNumFmts are the number formats Excel knows by id (§18.8.30).
var builtinNumFmts = map[int]string{
	1: "0", 2: "0.00", 3: "#,##0", 4: "#,##0.00", 9: "0%", 10: "0.00%", 11: "0.00E+00",
	12: "# ?/?", 13: "# ??/??", 14: "mm-dd-yy", 15: "d-mmm-yy", 16: "d-mmm", 17: "mmm-yy",
	18: "h:mm AM/PM", 19: "h:mm:ss AM/PM", 20: "h:mm", 21: "h:mm:ss", 22: "m/d/yy h:mm",
	37: "#,##0 ;(#,##0)", 38: "#,##0 ;[Red](#,##0)", 39: "#,##0.00;(#,##0.00)",
	40: "#,##0.00;[Red](#,##0.00)", 45: "mm:ss", 46: "[h]:mm:ss", 47: "mmss.0", 48: "##0.0E+0", 49: "@",
}

func numFmtCode(id int, custom map[int]string) string {
	if c, ok := custom[id]; ok {
		if strings.EqualFold(c, "General") {
			return ""
		}
		return canonicalNumFmt(c)
	}
	if id == 0 {
		return ""
	}
	if c, ok := builtinNumFmts[id]; ok {
		return c
	}
	return "built-in format " + strconv.Itoa(id)
}

// canonicalNumFmt writes the literal text of a number format one way:
// "$"#,##0, \$#,##0 and $#,##0 show the same (§18.8.31: a backslash or
// quotes make a character literal; $ - + / ( ) : ! ^ & ' ~ { } < > = and
// space are literal by themselves), so each literal run is written quoted.
func canonicalNumFmt(code string) string {
	var b, lit strings.Builder
	flush := func() {
		if lit.Len() > 0 {
			b.WriteString(`"` + lit.String() + `"`)
			lit.Reset()
		}
	}
	rs := []rune(code)
	for i := 0; i < len(rs); i++ {
		switch c := rs[i]; {
		case c == '\\' && i+1 < len(rs):
			i++
			lit.WriteRune(rs[i])
		case c == '"':
			for i++; i < len(rs) && rs[i] != '"'; i++ {
				lit.WriteRune(rs[i])
			}
		case strings.ContainsRune("$-+/():!^&'~{}<>= ", c):
			lit.WriteRune(c)
		default:
			flush()
			b.WriteRune(c)
		}
	}
	flush()
	return b.String()
}

// cellInfo is one <c> as read.
type cellInfo struct {
	row, col int
	t        string
	s        int
	v        []byte
	f        []byte
	hasV     bool
	hasF     bool
	fShared  bool
	fMaster  bool // a shared formula's master (has text and ref)
	si       string
	is       []byte
	hasIs    bool
}

// sheetScanner streams the cells of a worksheet to a callback.
type sheetScanner struct {
	formats.NopHandler
	ns      string
	fn      func(*cellInfo)
	c       cellInfo
	on      bool
	row     int
	prevCol int
	inV     bool
	inF     bool
	inIs    int
	rPh     int
	merges  []cellRange // the sheet's merged ranges (mergeCell/@ref)
}

// cellRange is a rectangle of cells, inclusive.
type cellRange struct{ r0, c0, r1, c1 int }

// parseRange reads "B2:D4" (or "B2").
func parseRange(s string) (cellRange, bool) {
	a, b, _ := strings.Cut(s, ":")
	if b == "" {
		b = a
	}
	r0, c0, ok1 := parseA1(strings.ReplaceAll(a, "$", ""))
	r1, c1, ok2 := parseA1(strings.ReplaceAll(b, "$", ""))
	if !ok1 || !ok2 {
		return cellRange{}, false
	}
	return cellRange{min(r0, r1), min(c0, c1), max(r0, r1), max(c0, c1)}, true
}

// mergeIndex finds the merged range covering a cell.
type mergeIndex struct {
	byRow map[int][]int // row → ranges of at most mergeRows rows
	tall  []int         // the taller ranges
	rs    []cellRange
}

const mergeRows = 16

func newMergeIndex(rs []cellRange) *mergeIndex {
	m := &mergeIndex{byRow: map[int][]int{}, rs: rs}
	for i, r := range rs {
		if r.r1-r.r0 >= mergeRows {
			m.tall = append(m.tall, i)
			continue
		}
		for row := r.r0; row <= r.r1; row++ {
			m.byRow[row] = append(m.byRow[row], i)
		}
	}
	return m
}

// hidden reports whether the cell is inside a merged range without being
// its top-left cell: Excel shows only the top-left cell's content and
// formatting over the whole range (§18.3.1.55).
func (m *mergeIndex) hidden(row, col int) bool {
	check := func(i int) bool {
		r := m.rs[i]
		return row >= r.r0 && row <= r.r1 && col >= r.c0 && col <= r.c1 && (row != r.r0 || col != r.c0)
	}
	for _, i := range m.byRow[row] {
		if check(i) {
			return true
		}
	}
	for _, i := range m.tall {
		if check(i) {
			return true
		}
	}
	return false
}

// sml is isSML with the namespace string of the last match remembered:
// the scanner hands every element of a part the same string, which then
// compares equal at once.
func (h *sheetScanner) sml(e *formats.Element, local string) bool {
	if e == nil || e.Name.Local != local {
		return false
	}
	if e.Name.Space == h.ns {
		return true
	}
	if e.Name.Space == xlsx.NSMain || e.Name.Space == xlsx.NSMainS {
		h.ns = e.Name.Space
		return true
	}
	return false
}

func (h *sheetScanner) Start(e *formats.Element) {
	switch {
	case e.Depth == 3 && h.sml(e, "mergeCell"):
		if ref, ok := e.Get("", "ref"); ok {
			if r, ok := parseRange(ref); ok {
				h.merges = append(h.merges, r)
			}
		}
	case e.Depth == 3 && h.sml(e, "row") && h.sml(e.Parent, "sheetData"):
		if r, ok := e.Get("", "r"); ok {
			if n, err := strconv.Atoi(r); err == nil {
				h.row = n
			} else {
				h.row++
			}
		} else {
			h.row++
		}
		h.prevCol = 0
	case e.Depth == 4 && h.sml(e, "c"):
		c := &h.c
		*c = cellInfo{v: c.v[:0], f: c.f[:0], is: c.is[:0]}
		h.on = true
		c.row, c.col = h.row, h.prevCol+1
		if r, ok := e.Get("", "r"); ok {
			if row, col, ok := parseA1(r); ok {
				c.row, c.col = row, col
			}
		}
		h.prevCol = c.col
		c.t, _ = e.Get("", "t")
		if s, ok := e.Get("", "s"); ok {
			c.s, _ = strconv.Atoi(s)
		}
	case h.on && e.Depth == 5 && h.sml(e, "v"):
		h.inV, h.c.hasV = true, true
	case h.on && e.Depth == 5 && h.sml(e, "f"):
		h.inF, h.c.hasF = true, true
		if t, _ := e.Get("", "t"); t == "shared" {
			h.c.fShared = true
			h.c.si, _ = e.Get("", "si")
			_, h.c.fMaster = e.Get("", "ref")
		}
	case h.on && h.sml(e, "is"):
		h.inIs++
		h.c.hasIs = true
	case h.on && h.sml(e, "rPh"):
		h.rPh++
	}
}

func (h *sheetScanner) Text(e *formats.Element, t []byte) {
	switch {
	case h.inV:
		h.c.v = append(h.c.v, t...)
	case h.inF:
		h.c.f = append(h.c.f, t...)
	case h.inIs > 0 && h.rPh == 0 && h.sml(e, "t"):
		h.c.is = append(h.c.is, t...)
	}
}

func (h *sheetScanner) End(e *formats.Element) {
	switch {
	case h.on && e.Depth == 4 && h.sml(e, "c"):
		h.on = false
		if h.c.fShared && len(h.c.f) > 0 {
			h.c.fMaster = true
		}
		h.fn(&h.c)
	case h.inV && h.sml(e, "v"):
		h.inV = false
	case h.inF && h.sml(e, "f"):
		h.inF = false
	case h.sml(e, "is"):
		h.inIs--
	case h.sml(e, "rPh"):
		h.rPh--
	}
}

// Content classes of a cell value.
const (
	classEmpty   = 0
	classNumber  = 'n'
	classText    = 's'
	classBool    = 'b'
	classError   = 'e'
	classDate    = 'd'
	classFormula = 'f'
)

var classNames = map[byte]string{classNumber: "number", classText: "text", classBool: "boolean",
	classError: "error", classDate: "date", classFormula: "formula", classEmpty: "empty"}

// valueClass is the class of a cell's value (formula or not).
func valueClass(c *cellInfo) byte {
	switch c.t {
	case "s", "inlineStr", "str":
		if c.t == "inlineStr" && !c.hasIs && !c.hasV {
			return classEmpty
		}
		if c.t != "inlineStr" && !c.hasV {
			return classEmpty
		}
		return classText
	case "b":
		return classBool
	case "e":
		return classError
	case "d":
		return classDate
	}
	if !c.hasV || len(strings.TrimSpace(string(c.v))) == 0 {
		return classEmpty
	}
	return classNumber
}

// normNumber writes a number the same way whatever its spelling (1, 1.0,
// 1E0).
func normNumber(v string) string {
	v = strings.TrimSpace(v)
	f, err := strconv.ParseFloat(v, 64)
	switch a := math.Abs(f); {
	case err != nil:
		return v
	case f == 0:
		return "0"
	case a >= 1e-4 && a < 1e15:
		return strconv.FormatFloat(f, 'f', -1, 64)
	}
	return strconv.FormatFloat(f, 'g', -1, 64)
}

// sharedMaster is a shared formula's master cell.
type sharedMaster struct {
	canon    uint64
	text     string
	row, col int
}

// cellHasher computes a cell's content hash: its class and value, or its
// formula in canonical form (the cached value of a formula is not
// content: libraries drop it, Excel recomputes it).
type cellHasher struct {
	b       *xBook
	masters map[string]sharedMaster
}

func (ch *cellHasher) content(c *cellInfo) uint64 {
	if c.hasF {
		if c.fShared {
			if c.fMaster {
				f := string(c.f)
				canon := hashString("f" + canonicalFormula(f, c.row, c.col))
				ch.masters[c.si] = sharedMaster{canon: canon, text: f, row: c.row, col: c.col}
				return canon
			}
			if m, ok := ch.masters[c.si]; ok {
				// Children of a shared formula share the master's
				// canonical form.
				return m.canon
			}
			return hashString("f:shared:" + c.si)
		}
		if len(c.f) > 0 {
			return hashString("f" + canonicalFormula(string(c.f), c.row, c.col))
		}
	}
	switch valueClass(c) {
	case classEmpty:
		return 0
	case classText:
		switch c.t {
		case "s":
			if idx, ok := atoiBytes(c.v); ok && idx < len(ch.b.sst) {
				return ch.b.sst[idx] ^ 's'
			}
			return hashString("s:#" + string(c.v))
		case "inlineStr":
			return hashNorm(unescapeX(string(c.is))) ^ 's'
		}
		return hashNorm(string(c.v)) ^ 's'
	case classNumber:
		if plainInteger(c.v) {
			return hashBytes(hashByte(fnvOffset, 'n'), c.v)
		}
		return hashString("n" + normNumber(string(c.v)))
	default:
		return hashString(string(valueClass(c)) + strings.TrimSpace(string(c.v)))
	}
}

// atoiBytes parses a non-negative decimal integer (surrounding spaces
// allowed) without allocating.
func atoiBytes(b []byte) (int, bool) {
	b = bytes.TrimSpace(b)
	if len(b) == 0 || len(b) > 9 {
		return 0, false
	}
	n := 0
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}

// plainInteger reports whether b is an integer written the one way
// normNumber writes it: an optional minus, no leading zero, at most 15
// digits.
func plainInteger(b []byte) bool {
	neg := len(b) > 0 && b[0] == '-'
	if neg {
		b = b[1:]
	}
	if len(b) == 0 || len(b) > 15 || (b[0] == '0' && (len(b) > 1 || neg)) {
		return false
	}
	for _, c := range b {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// cellRec is one cell of the original sheet: 24 bytes.
type cellRec struct {
	key     uint64 // row << 16 | col
	content uint64
	fmt     int32
	seen    bool
}

func cmpKey(a, b uint64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func cellKey(row, col int) uint64 { return uint64(row)<<16 | uint64(col) }

func keyRowCol(k uint64) (int, int) { return int(k >> 16), int(k & 0xffff) }

// cellChange is one changed address.
type cellChange struct {
	key            uint64
	content, style bool
	inB            bool // the edited file has content at this address
	fa, fb         int32
}

// diffWorkbooks compares two workbooks sheet by sheet.
func diffWorkbooks(ctx context.Context, pa, pb *formats.Package, c *collector) ([]string, error) {
	ba, whyA := readBook(ctx, pa)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	bb, whyB := readBook(ctx, pb)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var notes []string
	if whyA != "" {
		notes = append(notes, "the original could not be read ("+whyA+"); no content was compared")
	}
	if whyB != "" {
		notes = append(notes, "the edited file could not be read ("+whyB+"); no content was compared")
	}
	if len(notes) > 0 {
		return notes, nil
	}
	notes = append(notes, c.formatsUnknown(ba.noFormat, bb.noFormat)...)
	// Match sheets by name (Excel compares names case-insensitively), then
	// the rest by sheetId (a rename keeps it).
	matchA := make([]int, len(ba.sheets))
	matchB := make([]int, len(bb.sheets))
	for i := range matchA {
		matchA[i] = -1
	}
	for j := range matchB {
		matchB[j] = -1
	}
	byName := map[string]int{}
	for i, s := range ba.sheets {
		if _, dup := byName[strings.ToLower(s.name)]; !dup {
			byName[strings.ToLower(s.name)] = i
		}
	}
	for j, s := range bb.sheets {
		if i, ok := byName[strings.ToLower(s.name)]; ok && matchA[i] < 0 {
			matchA[i], matchB[j] = j, i
		}
	}
	for j, s := range bb.sheets {
		if matchB[j] >= 0 || s.id == "" {
			continue
		}
		for i, t := range ba.sheets {
			if matchA[i] < 0 && t.id == s.id {
				matchA[i], matchB[j] = j, i
				break
			}
		}
	}
	// Sheets that changed place: not in the longest run of matched sheets
	// kept in order.
	var orderA, orderB []uint64
	for j := range bb.sheets {
		if matchB[j] >= 0 {
			orderB = append(orderB, uint64(matchB[j]))
		}
	}
	for i := range ba.sheets {
		if matchA[i] >= 0 {
			orderA = append(orderA, uint64(i))
		}
	}
	inOrder := map[int]bool{}
	for _, m := range commonSubsequence(orderA, orderB) {
		inOrder[int(orderA[m.i])] = true
	}
	d := &bookDiff{c: c, ba: ba, bb: bb}
	doneA := make([]bool, len(ba.sheets))
	removed := func(upto int) error {
		for i := 0; i < upto; i++ {
			if doneA[i] || matchA[i] >= 0 {
				continue
			}
			doneA[i] = true
			if err := d.sheetOnlyIn(ctx, ba.sheets[i], false); err != nil {
				return err
			}
		}
		return nil
	}
	for j, sb := range bb.sheets {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		i := matchB[j]
		if i < 0 {
			if err := d.sheetOnlyIn(ctx, sb, true); err != nil {
				return nil, err
			}
			continue
		}
		if err := removed(i); err != nil {
			return nil, err
		}
		doneA[i] = true
		sa := ba.sheets[i]
		if sa.name != sb.name {
			c.sum.SheetsRenamed++
			c.add(Change{Kind: KindText, Part: ba.part, Where: "sheet '" + sa.name + "'", Before: sa.name, After: sb.name,
				Detail: "sheet renamed"})
		}
		if !inOrder[i] {
			c.sum.Moved++
			c.add(Change{Kind: KindMoved, Part: bb.part, Where: "sheet '" + sb.name + "'",
				From: fmt.Sprintf("position %d", i+1), Before: sa.name, After: sb.name,
				Detail: fmt.Sprintf("sheet moved from position %d to %d", i+1, j+1)})
		}
		if sa.missing != "" || sb.missing != "" {
			side, m := "original", sa.missing
			if m == "" {
				side, m = "edited file", sb.missing
			}
			notes = append(notes, fmt.Sprintf("sheet '%s': its part %s is missing in the %s; its cells were not compared", sb.name, m, side))
			continue
		}
		if !sa.worksheet || !sb.worksheet {
			continue
		}
		note, err := d.sheetPair(ctx, sa, sb)
		if err != nil {
			return nil, err
		}
		if note != "" {
			notes = append(notes, note)
		}
	}
	if err := removed(len(ba.sheets)); err != nil {
		return nil, err
	}
	return notes, nil
}

type bookDiff struct {
	c      *collector
	ba, bb *xBook
}

// countCells counts the non-empty or formatted cells of a sheet.
func countCells(ctx context.Context, b *xBook, s *xSheet) (int, string) {
	if s.missing != "" {
		return 0, "its part " + s.missing + " is missing"
	}
	if !s.worksheet {
		return 0, ""
	}
	ch := &cellHasher{b: b, masters: map[string]sharedMaster{}}
	n := 0
	why := scanPart(ctx, b.p, s.part, &sheetScanner{fn: func(c *cellInfo) {
		if ch.content(c) != 0 || b.cellFormat(c.s) != b.defFmt {
			n++
		}
	}})
	return n, why
}

// sheetOnlyIn reports a sheet only one file has (added: the edited
// file), counting its cells as units inserted or deleted.
func (d *bookDiff) sheetOnlyIn(ctx context.Context, s *xSheet, added bool) error {
	b, verb := d.ba, "removed"
	if added {
		b, verb = d.bb, "added"
	}
	n, why := countCells(ctx, b, s)
	if err := ctx.Err(); err != nil {
		return err
	}
	c := d.c
	detail := fmt.Sprintf("sheet %s with %s", verb, plural.Of(n, "cell", "cells"))
	if why != "" {
		detail = "sheet " + verb + " (its cells could not be read: " + why + ")"
		n = 0
	}
	ch := Change{Part: s.part, Where: "sheet '" + s.name + "'", Detail: detail}
	if added {
		c.sum.SheetsAdded++
		c.sum.UnitsAfter += n
		c.sum.Inserted += n
		ch.Kind, ch.After = KindInserted, s.name
	} else {
		c.sum.SheetsRemoved++
		c.sum.UnitsBefore += n
		c.sum.Deleted += n
		c.sum.Changed += n
		ch.Kind, ch.Before = KindDeleted, s.name
	}
	c.add(ch)
	return nil
}

// sheetPair compares two worksheets cell by cell by address: the
// original's cells are kept as 24-byte records, the edited sheet is
// streamed against them.
func (d *bookDiff) sheetPair(ctx context.Context, sa, sb *xSheet) (string, error) {
	c := d.c
	cha := &cellHasher{b: d.ba, masters: map[string]sharedMaster{}}
	var recs []cellRec
	if e := d.ba.p.Entry(sa.part); e != nil {
		// About 30 bytes of XML a cell; a little more room than that.
		recs = make([]cellRec, 0, min(e.Size/24, 1<<24))
	}
	scanA := &sheetScanner{}
	scanA.fn = func(ci *cellInfo) {
		h, f := cha.content(ci), d.ba.cellFormat(ci.s)
		if h != 0 || d.ba.formats.list[f] != d.ba.formats.list[d.ba.defFmt] {
			recs = append(recs, cellRec{key: cellKey(ci.row, ci.col), content: h, fmt: f})
		}
	}
	whyA := scanPart(ctx, d.ba.p, sa.part, scanA)
	if err := ctx.Err(); err != nil {
		return "", err
	}
	if whyA != "" {
		return fmt.Sprintf("sheet '%s' (%s) did not parse in the original (%s); its cells were not compared", sa.name, sa.part, whyA), nil
	}
	slices.SortFunc(recs, func(x, y cellRec) int { return cmpKey(x.key, y.key) })
	fa, fb := d.ba.formats, d.bb.formats
	defB := fb.list[d.bb.defFmt]
	defA := fa.list[d.ba.defFmt]
	chb := &cellHasher{b: d.bb, masters: map[string]sharedMaster{}}
	var changes []cellChange
	unitsB, next := 0, 0
	// The edited cells of the first changes the cap lets through are kept
	// as they stream by (the sheet is in row order: they are the first
	// ones listed); the original's are read again afterwards.
	room := c.max - len(c.changes)
	rawB := map[uint64]*cellRaw{}
	scanB := &sheetScanner{}
	scanB.fn = func(ci *cellInfo) {
		h, f := chb.content(ci), d.bb.cellFormat(ci.s)
		styled := fb.list[f] != defB
		if h != 0 || styled {
			unitsB++
		}
		k := cellKey(ci.row, ci.col)
		// Both sheets are in row order: the next record is usually the
		// one.
		i, found := next, next < len(recs) && recs[next].key == k
		if !found {
			i, found = slices.BinarySearchFunc(recs, k, func(r cellRec, k uint64) int { return cmpKey(r.key, k) })
		}
		if found {
			next = i + 1
		}
		var ch cellChange
		if found && !recs[i].seen {
			r := &recs[i]
			r.seen = true
			ch = cellChange{key: k, content: r.content != h, style: !c.noFormats && fa.list[r.fmt] != fb.list[f], fa: r.fmt, fb: f}
		} else {
			ch = cellChange{key: k, content: h != 0, style: !c.noFormats && styled, fa: d.ba.defFmt, fb: f}
		}
		if ch.content || ch.style {
			ch.inB = h != 0
			if h != 0 && len(rawB) < room {
				rawB[k] = rawCell(ci, chb.masters)
			}
			changes = append(changes, ch)
		} else if found {
			c.sum.Unchanged++
		}
	}
	whyB := scanPart(ctx, d.bb.p, sb.part, scanB)
	if err := ctx.Err(); err != nil {
		return "", err
	}
	if whyB != "" {
		return fmt.Sprintf("sheet '%s' (%s) did not parse in the edited file (%s); its cells were not compared", sb.name, sb.part, whyB), nil
	}
	for i := range recs {
		r := &recs[i]
		if r.seen {
			continue
		}
		ch := cellChange{key: r.key, content: r.content != 0, style: !c.noFormats && fa.list[r.fmt] != defA, fa: r.fmt, fb: d.bb.defFmt}
		if ch.content || ch.style {
			changes = append(changes, ch)
		}
	}
	c.sum.UnitsBefore += len(recs)
	recs = nil
	// Formatting of a cell hidden under a merged range in both files does
	// not show (openpyxl rewrites those cells' styles on every save).
	styled := false
	for _, ch := range changes {
		styled = styled || ch.style
	}
	if styled && len(scanA.merges) > 0 && len(scanB.merges) > 0 {
		ma, mb := newMergeIndex(scanA.merges), newMergeIndex(scanB.merges)
		kept := changes[:0]
		for _, ch := range changes {
			if ch.style {
				row, col := keyRowCol(ch.key)
				if ma.hidden(row, col) && mb.hidden(row, col) {
					ch.style = false
				}
			}
			if ch.content || ch.style {
				kept = append(kept, ch)
			} else {
				c.sum.Unchanged++
			}
		}
		changes = kept
	}
	slices.SortStableFunc(changes, func(x, y cellChange) int { return cmpKey(x.key, y.key) })
	return d.report(ctx, sa, sb, changes, unitsB, rawB)
}

// report counts a sheet's changed cells and lists the first ones the cap
// allows, reading their before and after content in a second pass.
func (d *bookDiff) report(ctx context.Context, sa, sb *xSheet, changes []cellChange, unitsB int, rawB map[uint64]*cellRaw) (string, error) {
	c := d.c
	c.sum.UnitsAfter += unitsB
	nContent, nStyle := 0, 0
	for _, ch := range changes {
		if ch.content {
			nContent++
		}
		if ch.style {
			nStyle++
		}
	}
	c.sum.Cells += nContent
	c.sum.Format += nStyle
	c.sum.Changed += len(changes)
	// Entries the cap leaves room for.
	room := c.max - len(c.changes)
	var listed []cellChange
	entries := 0
	for _, ch := range changes {
		n := 0
		if ch.content {
			n++
		}
		if ch.style {
			n++
		}
		if entries+n > room {
			break
		}
		entries += n
		listed = append(listed, ch)
	}
	var rawA map[uint64]*cellRaw
	if len(listed) > 0 {
		want := map[uint64]bool{}
		missingB := false
		for _, ch := range listed {
			if ch.content {
				want[ch.key] = true
				if ch.inB && rawB[ch.key] == nil {
					missingB = true // the sheet was not in row order
				}
			}
		}
		var err error
		if rawA, err = d.ba.raw(ctx, sa, want); err != nil {
			return "", err
		}
		if missingB {
			if rawB, err = d.bb.raw(ctx, sb, want); err != nil {
				return "", err
			}
		}
		if err := d.ba.resolveStrings(ctx, rawA); err != nil {
			return "", err
		}
		if err := d.bb.resolveStrings(ctx, rawB); err != nil {
			return "", err
		}
	}
	for _, ch := range listed {
		row, col := keyRowCol(ch.key)
		where := sheetRef(sb.name) + "!" + a1(row, col)
		if ch.content {
			ra, rb := rawA[ch.key], rawB[ch.key]
			before, after := ra.display(), rb.display()
			c.add(Change{Kind: KindCell, Part: sb.part, Where: where, Before: before, After: after, Detail: cellDetail(ra, rb)})
		}
		if ch.style {
			fd := d.cellFormats(ch)
			before, after, detail := fd.describe("cell", "cells")
			lost := fd.lost()
			if lost {
				c.sum.FormattingLost++
			}
			var text string
			if rb := rawB[ch.key]; rb != nil {
				text = rb.display()
			}
			c.add(Change{Kind: KindFormat, Part: sb.part, Where: where, Before: before, After: after, Detail: detail, Text: text, Lost: lost})
		}
	}
	// The rest are counted; formatting lost among them too.
	for _, ch := range changes[len(listed):] {
		if ch.content {
			c.truncated++
		}
		if ch.style {
			c.truncated++
			if d.cellFormats(ch).lost() {
				c.sum.FormattingLost++
			}
		}
	}
	return "", nil
}

// cellFormats compares the formats of a changed cell.
func (d *bookDiff) cellFormats(ch cellChange) *fmtDiff {
	fd := newFmtDiff()
	fd.styleLabel, fd.styleNone = "number format", "General"
	fd.record(0, d.ba.formats.list[ch.fa], d.bb.formats.list[ch.fb])
	return fd
}

// sheetRef writes a sheet name as formulas do: quoted when it is not a
// plain name.
func sheetRef(name string) string {
	plain := name != ""
	for i, r := range name {
		if !(r == '_' || r == '.' || (r >= 'A' && r <= 'Z') || (r >= 'a' && r <= 'z') || r > 0x7f || (i > 0 && r >= '0' && r <= '9')) {
			plain = false
			break
		}
	}
	if plain {
		if _, _, isRef := parseCellRef(name); isRef {
			plain = false
		}
	}
	if plain {
		return name
	}
	return "'" + strings.ReplaceAll(name, "'", "''") + "'"
}

// cellRaw is a cell's content for display.
type cellRaw struct {
	class   byte
	formula string
	value   string
	sst     int // shared string index (-1: none)
}

func (r *cellRaw) display() string {
	if r == nil {
		return ""
	}
	if r.formula != "" {
		return "=" + clipMiddle(r.formula, textRunes)
	}
	switch r.class {
	case classBool:
		if r.value == "1" || strings.EqualFold(r.value, "true") {
			return "TRUE"
		}
		return "FALSE"
	}
	return clipMiddle(r.value, textRunes)
}

func (r *cellRaw) cls() byte {
	if r == nil {
		return classEmpty
	}
	if r.formula != "" {
		return classFormula
	}
	return r.class
}

// cellDetail says what changed in a cell.
func cellDetail(a, b *cellRaw) string {
	ca, cb := a.cls(), b.cls()
	switch {
	case ca == classEmpty:
		if cb == classFormula {
			return "formula added"
		}
		return "value added"
	case cb == classEmpty:
		return "cleared"
	case ca == classFormula && cb == classFormula:
		return "formula changed"
	case ca == classFormula:
		return "formula replaced by a value"
	case cb == classFormula:
		return "value replaced by a formula"
	case ca != cb:
		return "type " + classNames[ca] + " → " + classNames[cb]
	}
	return "value changed"
}

// rawCell is the display content of a cell as read, or nil for an empty
// one; a shared string is resolved later (sst ≥ 0).
func rawCell(c *cellInfo, masters map[string]sharedMaster) *cellRaw {
	r := &cellRaw{class: valueClass(c), sst: -1}
	switch {
	case c.hasF && c.fShared && !c.fMaster:
		if m, ok := masters[c.si]; ok {
			r.formula = translateFormula(m.text, c.row-m.row, c.col-m.col)
		} else {
			r.formula = "(shared formula " + c.si + ")"
		}
	case c.hasF && len(c.f) > 0:
		r.formula = string(c.f)
	}
	switch {
	case r.class == classEmpty:
	case c.t == "s":
		if idx, ok := atoiBytes(c.v); ok {
			r.sst = idx
		}
	case c.t == "inlineStr":
		r.value = unescapeX(string(c.is))
	case r.class == classNumber:
		r.value = normNumber(string(c.v))
	default:
		r.value = unescapeX(string(c.v))
	}
	if r.class == classEmpty && r.formula == "" {
		return nil
	}
	return r
}

// raw re-reads the cells of want from a sheet.
func (b *xBook) raw(ctx context.Context, s *xSheet, want map[uint64]bool) (map[uint64]*cellRaw, error) {
	out := map[uint64]*cellRaw{}
	masters := map[string]sharedMaster{}
	scanPart(ctx, b.p, s.part, &sheetScanner{fn: func(c *cellInfo) {
		if c.fShared && c.fMaster {
			masters[c.si] = sharedMaster{text: string(c.f), row: c.row, col: c.col}
		}
		k := cellKey(c.row, c.col)
		if !want[k] {
			return
		}
		if r := rawCell(c, masters); r != nil {
			out[k] = r
		}
	}})
	return out, ctx.Err()
}

// resolveStrings reads the shared strings the cells of raw name.
func (b *xBook) resolveStrings(ctx context.Context, raw map[uint64]*cellRaw) error {
	want := map[int]bool{}
	for _, r := range raw {
		if r.sst >= 0 {
			want[r.sst] = true
		}
	}
	if len(want) == 0 || b.sstPart == "" {
		return ctx.Err()
	}
	h := &sstHandler{want: want, texts: map[int]string{}}
	scanPart(ctx, b.p, b.sstPart, h)
	for _, r := range raw {
		if r.sst >= 0 {
			r.value = h.texts[r.sst]
		}
	}
	return ctx.Err()
}
