package formats

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"math"
	"math/bits"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	xunicode "golang.org/x/text/encoding/unicode"
	"golang.org/x/text/transform"
)

// xmlTokenizer reads the tokens of one XML part the way encoding/xml's
// Decoder.RawToken does in Strict mode (same tokens, same decoded text,
// same errors at the same input positions), but over its own buffer and
// without allocating per token. On top of what RawToken does it replaces
// the characters XML 1.0 §2.2 forbids (C0 controls other than tab, LF and
// CR; U+FFFE; U+FFFF) with spaces as it reads them, recording each, so one
// bad character does not hide the rest of the part, and it enforces the
// token-size limit: no token (a tag, a text node, a comment, a CDATA
// section, a processing instruction, a directive) longer than maxTok bytes
// is read whole.
//
// Input is read in chunks into buf; bytes before the current token are
// dropped between tokens, so a part of any size is scanned in memory
// bounded by its largest token. Indexes into buf stay valid within a token
// (fill only appends); compact moves data only between tokens.
type xmlTokenizer struct {
	r    io.Reader
	buf  []byte
	pos  int   // next unread byte (start of the next token)
	end  int   // buf[:end] is scanned (illegal characters replaced) and may be parsed
	raw  int   // buf[end:raw] is read but not scanned yet
	stop int   // min(end, tokEnd): the parsing loops run up to it
	base int64 // stream offset of buf[0]
	rerr error // why no input follows buf[:raw] (io.EOF or a read error); nil while more may come

	maxTok int
	tokEnd int  // buffer index where the current token would pass maxTok
	over   bool // the current token needed a byte at tokEnd
	maxIll int  // illegal characters recorded at most (0: all)
	nIll   int
	scanTo int64 // stream offset the scan stops at (draining after an error)

	// The scan's position, in the old filter's terms: lines and 1-based
	// columns counting characters (bytes that are not UTF-8 continuation
	// bytes). Advanced lazily.
	fOff   int64 // offset the counts below are up to
	fLine  int
	fChars int // characters after the last line feed before fOff

	ills []*illegal // recorded, not taken yet, in offset order
	open int        // entries of ills still collecting context

	// The parse position, as encoding/xml's InputPos: line, and 1-based
	// column counting bytes. Advanced lazily.
	pOff  int64
	pLine int
	pLS   int64 // offset of the start of pLine

	// The current token.
	kind      tokKind
	start     int // buffer index of its first byte
	name      *xname
	attrs     []rawAttr
	selfClose bool
	text      []byte // decoded character data, comment or directive body, PI data
	target    string // PI target
	err       error  // for tokErr
	errLine   int
	errCol    int
	errOff    int64

	names   map[string]*xname
	recent  [256]*xname // a direct-mapped cache in front of names
	scratch []byte
	vals    []byte
}

// tokKind is the kind of a token.
type tokKind uint8

const (
	tokEOF       tokKind = iota // the input ended cleanly between tokens
	tokErr                      // a syntax or read error: err, errLine, errCol
	tokStart                    // a start tag: name, attrs, selfClose
	tokEnd                      // an end tag: name
	tokText                     // character data, decoded: text
	tokCDATA                    // a CDATA section's content: text
	tokComment                  // a comment
	tokProcInst                 // a processing instruction: target, text
	tokDirective                // <!…> other than a comment or CDATA: text (DOCTYPE…)
)

// xname is an interned element or attribute name, split the way
// encoding/xml's nsname splits it.
type xname struct {
	raw    string // as written: "w:tbl"
	prefix string // "w"; "" when unprefixed (or when the colon leads or ends the name)
	local  string // "tbl"
	bad    uint8  // nameNotXML or nameColons, or 0
}

const (
	nameNotXML uint8 = 1 + iota // not an XML name (XML 1.0 §2.3 as encoding/xml checks it)
	nameColons                  // more than one colon: not a qualified name
)

// rawAttr is one attribute as written (value decoded).
type rawAttr struct {
	name  *xname
	value string
}

// illegal is one XML-illegal character found in the input.
type illegal struct {
	r         rune
	off       int64
	at        int // buffer index while collecting context
	line, col int
	excerpt   []byte
	need      int // bytes of "after" context still to collect
}

const (
	excerptLen    = 24
	tokBufSize    = 32 << 10
	keepBehind    = 64 // bytes kept before the current token on compaction (excerpt context)
	maxNames      = 1 << 14
	illegalUTF8Ex = 0xEF // lead byte of U+FFFE and U+FFFF
)

// newXMLTokenizer starts reading r: a UTF-8 byte order mark is skipped and
// a UTF-16 part (OPC allows it, ECMA-376 part 2 §8.1.4; the BOM tells the
// byte order) is transcoded to UTF-8 first. maxTok > 0 caps the bytes of
// one token; maxIll > 0 caps the illegal characters recorded (the rest are
// still replaced).
func newXMLTokenizer(r io.Reader, maxTok, maxIll int) *xmlTokenizer {
	t := &xmlTokenizer{r: r, buf: make([]byte, tokBufSize), maxTok: maxTok, maxIll: maxIll,
		scanTo: math.MaxInt64, fLine: 1, pLine: 1, names: make(map[string]*xname, 64)}
	for t.raw < 3 && t.rerr == nil {
		t.read()
	}
	head := t.buf[:t.raw]
	switch {
	case bytes.HasPrefix(head, []byte{0xEF, 0xBB, 0xBF}):
		t.buf = t.buf[3:]
		t.raw -= 3
	case bytes.HasPrefix(head, []byte{0xFF, 0xFE}), bytes.HasPrefix(head, []byte{0xFE, 0xFF}):
		dec := xunicode.UTF16(xunicode.LittleEndian, xunicode.UseBOM).NewDecoder()
		rest := r
		if t.rerr != nil && t.rerr != io.EOF {
			rest = &errReader{t.rerr}
		}
		t.r = transform.NewReader(io.MultiReader(bytes.NewReader(bytes.Clone(head)), rest), dec)
		t.raw, t.rerr = 0, nil
	}
	t.scan()
	return t
}

type errReader struct{ err error }

func (e *errReader) Read([]byte) (int, error) { return 0, e.err }

// read reads once into buf[raw:], growing buf when it is full (no further
// than the current token can need).
func (t *xmlTokenizer) read() {
	if t.raw == len(t.buf) {
		n := 2 * len(t.buf)
		if t.maxTok > 0 {
			n = min(n, max(t.tokEnd+keepBehind, len(t.buf)+keepBehind))
		}
		nb := make([]byte, n)
		copy(nb, t.buf[:t.raw])
		t.buf = nb
	}
	for tries := 0; ; tries++ {
		n, err := t.r.Read(t.buf[t.raw:])
		t.raw += n
		if err != nil {
			t.rerr = err
			return
		}
		if n > 0 {
			return
		}
		if tries == 100 {
			t.rerr = io.ErrNoProgress
			return
		}
	}
}

// fill makes more scanned input available after end; false when none
// will come (rerr tells why).
func (t *xmlTokenizer) fill() bool {
	old := t.end
	for t.end == old {
		if t.rerr != nil {
			return false
		}
		t.read()
		t.scan()
	}
	t.stop = min(t.end, t.tokEnd)
	return true
}

// more makes buf[k] (k ≥ stop) parseable; false when the input ends first
// or when byte k would make the current token longer than maxTok (over).
func (t *xmlTokenizer) more(k int) bool {
	if k >= t.tokEnd {
		t.over = true
		return false
	}
	for k >= t.end {
		if !t.fill() {
			return false
		}
	}
	t.stop = min(t.end, t.tokEnd)
	return true
}

// peekPast returns buf[k] ignoring the token limit, reading when needed.
func (t *xmlTokenizer) peekPast(k int) (byte, bool) {
	for k >= t.end {
		if !t.fill() {
			return 0, false
		}
	}
	return t.buf[k], true
}

// compact drops the bytes before the current token (keeping a little
// context) so the buffer does not grow with the part.
func (t *xmlTokenizer) compact() {
	if t.pos < len(t.buf)/2 || t.pos <= keepBehind {
		return
	}
	t.dropBefore(t.pos - keepBehind)
}

// dropBefore moves buf[drop:raw] to the front.
func (t *xmlTokenizer) dropBefore(drop int) {
	t.advanceF(drop)
	t.advanceP(drop)
	copy(t.buf, t.buf[drop:t.raw])
	t.base += int64(drop)
	t.pos -= drop
	t.end -= drop
	t.raw -= drop
	for _, il := range t.ills {
		il.at -= drop
	}
}

// scan processes buf[end:raw]: it replaces XML-illegal characters with
// spaces, recording them, and moves end. A last byte or two that may
// start U+FFFE or U+FFFF stay unscanned until more input or the end of
// input tells.
func (t *xmlTokenizer) scan() {
	from, to := t.end, t.raw
	if t.rerr == nil {
		switch {
		case to >= 1 && t.buf[to-1] == 0xEF:
			to--
		case to >= 2 && t.buf[to-2] == 0xEF && t.buf[to-1] == 0xBF:
			to -= 2
		}
	}
	to = int(min(int64(to), t.scanTo-t.base))
	if to <= from {
		return
	}
	t.findIllegal(from, to)
	if t.open > 0 {
		t.feed(from, to)
	}
	t.end = to
}

const (
	lsb = 0x0101010101010101
	msb = 0x8080808080808080
)

// findIllegal replaces and records the XML-illegal characters in
// buf[from:to] (XML 1.0 §2.2 Char: U+0000–U+0008, U+000B, U+000C,
// U+000E–U+001F, U+FFFE, U+FFFF).
func (t *xmlTokenizer) findIllegal(from, to int) {
	b := t.buf
	k := from
	for k < to {
		// Eight bytes at a time: skip words with no byte below 0x20 and no
		// 0xEF (the lead byte of U+FFFE and U+FFFF).
		if k+8 <= to {
			w := le64(b[k:])
			lo := (w - 0x2020202020202020) &^ w & msb
			x := w ^ 0xEFEFEFEFEFEFEFEF
			ef := (x - lsb) &^ x & msb
			if lo|ef == 0 {
				k += 8
				continue
			}
		}
		c := b[k]
		switch {
		case c < 0x20 && c != '\t' && c != '\n' && c != '\r':
			t.record(rune(c), k, 1)
			b[k] = ' '
		case c == illegalUTF8Ex && k+2 < t.raw && b[k+1] == 0xBF && (b[k+2] == 0xBE || b[k+2] == 0xBF):
			t.record(0xFFFE+rune(b[k+2]-0xBE), k, 3)
			b[k], b[k+1], b[k+2] = ' ', ' ', ' '
			k += 2
		}
		k++
	}
}

func le64(b []byte) uint64 {
	_ = b[7]
	return uint64(b[0]) | uint64(b[1])<<8 | uint64(b[2])<<16 | uint64(b[3])<<24 |
		uint64(b[4])<<32 | uint64(b[5])<<40 | uint64(b[6])<<48 | uint64(b[7])<<56
}

// record notes an illegal character of size bytes at buffer index k, with
// the excerpt before it (context after it is fed later).
func (t *xmlTokenizer) record(r rune, k, size int) {
	if t.maxIll > 0 && t.nIll >= t.maxIll {
		return // past the findings cap: replaced, not listed
	}
	t.nIll++
	t.advanceF(k)
	lo := max(0, k-excerptLen)
	ex := make([]byte, 0, (k-lo)+8+excerptLen)
	ex = append(ex, t.buf[lo:k]...)
	ex = append(ex, fmt.Sprintf("\\u%04X", r)...)
	t.ills = append(t.ills, &illegal{r: r, off: t.base + int64(k), at: k, line: t.fLine, col: t.fChars + 1, excerpt: ex, need: excerptLen + size})
	t.open++
}

// feed appends buf[from:to] (already scanned) to the excerpts still
// collecting context after their character.
func (t *xmlTokenizer) feed(from, to int) {
	for i := len(t.ills) - t.open; i < len(t.ills); i++ {
		il := t.ills[i]
		if il.need <= 0 {
			continue
		}
		start := max(il.at, from)
		if start >= to {
			continue
		}
		n := min(to-start, il.need)
		seg := t.buf[start : start+n]
		// The character's own bytes are skipped, not shown.
		skip := (il.need - excerptLen) // bytes of the character still to skip
		for len(seg) > 0 && skip > 0 {
			seg = seg[1:]
			skip--
			il.need--
		}
		il.excerpt = append(il.excerpt, seg...)
		il.need -= len(seg)
		if il.need == 0 {
			t.open--
		}
	}
}

// take returns the recorded characters at stream offsets below upto,
// reading on first when their excerpts still lack context.
func (t *xmlTokenizer) take(upto int64) []*illegal {
	if len(t.ills) == 0 || t.ills[0].off >= upto {
		return nil
	}
	i := 0
	for i < len(t.ills) && t.ills[i].off < upto {
		i++
	}
	for t.ills[i-1].need > 0 && t.base+int64(t.end) < t.scanTo && t.fill() {
	}
	for _, il := range t.ills[:i] {
		if il.need > 0 {
			t.open--
		}
	}
	out := t.ills[:i:i]
	t.ills = t.ills[i:]
	return out
}

// errContext is how far past a fatal error illegal characters are still
// looked for and listed (the old scanner listed those in the decoder's
// current 4 KiB read).
const errContext = 4096

// drainTo scans on for illegal characters only, up to stream offset off,
// the end of input or the findings cap, after the parse has stopped.
func (t *xmlTokenizer) drainTo(off int64) {
	t.scanTo = off
	for t.base+int64(t.end) < off && t.rerr == nil && (t.maxIll == 0 || t.nIll < t.maxIll) {
		if k := t.end - keepBehind; k > len(t.buf)/2 {
			t.dropBefore(k)
		}
		t.read()
		t.scan()
	}
}

// advanceF moves the character-counting position to buffer index k.
func (t *xmlTokenizer) advanceF(k int) {
	from := int(t.fOff - t.base)
	if k <= from {
		return
	}
	seg := t.buf[from:k]
	if n := bytes.Count(seg, []byte{'\n'}); n > 0 {
		t.fLine += n
		seg = seg[bytes.LastIndexByte(seg, '\n')+1:]
		t.fChars = 0
	}
	t.fChars += countChars(seg)
	t.fOff = t.base + int64(k)
}

// countChars counts the bytes of b that are not UTF-8 continuation bytes.
func countChars(b []byte) int {
	n := len(b)
	k := 0
	for ; k+8 <= len(b); k += 8 {
		w := le64(b[k:])
		n -= bits.OnesCount64(w &^ (w << 1) & msb)
	}
	for ; k < len(b); k++ {
		if b[k]&0xC0 == 0x80 {
			n--
		}
	}
	return n
}

// advanceP moves the parse position to buffer index k.
func (t *xmlTokenizer) advanceP(k int) {
	from := int(t.pOff - t.base)
	if k <= from {
		return
	}
	seg := t.buf[from:k]
	if n := bytes.Count(seg, []byte{'\n'}); n > 0 {
		t.pLine += n
		t.pLS = t.base + int64(from+bytes.LastIndexByte(seg, '\n')+1)
	}
	t.pOff = t.base + int64(k)
}

// posAt is encoding/xml's InputPos when its offset is buffer index k.
// ungot tells that the byte at k was read and pushed back: when that byte
// is a line feed, encoding/xml has moved its line back but not its line
// start, and reports column 0.
func (t *xmlTokenizer) posAt(k int, ungot bool) (line, col int) {
	t.advanceP(k)
	if ungot && k < t.raw && t.buf[k] == '\n' {
		return t.pLine, 0
	}
	return t.pLine, int(t.base+int64(k)-t.pLS) + 1
}

// offset is the stream offset of buffer index k.
func (t *xmlTokenizer) offset(k int) int64 { return t.base + int64(k) }

// at returns the byte at buffer index k, reading more input when needed;
// ok is false when the input ends before k (rerr tells why) or the token
// would pass the limit (over).
func (t *xmlTokenizer) at(k int) (byte, bool) {
	if k < t.stop || t.more(k) {
		return t.buf[k], true
	}
	return 0, false
}

// syntax ends the scan with a well-formedness error at buffer index k.
func (t *xmlTokenizer) syntax(msg string, k int, ungot bool) tokKind {
	t.errOff = t.offset(k)
	line, col := t.posAt(k, ungot)
	t.err = &xml.SyntaxError{Msg: msg, Line: line}
	t.errLine, t.errCol = line, col
	t.kind = tokErr
	return tokErr
}

// fail ends the scan with a non-syntax error at buffer index k.
func (t *xmlTokenizer) fail(err error, k int) tokKind {
	t.errOff = t.offset(k)
	t.err = err
	t.errLine, t.errCol = t.posAt(k, false)
	t.kind = tokErr
	return tokErr
}

// short ends the scan where a byte was required at k but none came
// (encoding/xml's mustgetc): the token passed the size limit, or the input
// ended.
func (t *xmlTokenizer) short(k int) tokKind {
	switch {
	case t.over:
		return t.tooLarge()
	case t.rerr == io.EOF:
		return t.syntax("unexpected EOF", k, false)
	}
	return t.fail(t.rerr, k)
}

// tooLarge ends the scan at a token longer than maxTok; the finding
// points at the token's start.
func (t *xmlTokenizer) tooLarge() tokKind {
	return t.fail(ErrTokenTooLarge, t.start)
}

// byte classes
const (
	cName       = 1 << iota // may continue a name (encoding/xml's isNameByte, or ≥ 0x80)
	cSpace                  // ' ', '\t', '\r', '\n'
	cText                   // stops a run of text: '<', '&', '\r', '>'
	cAttr                   // stops a run of an attribute value: '<', '&', '\r', '"', '\''
	cASCIIStart             // may start an ASCII name
)

var byteClass = func() (c [256]uint8) {
	for b := 0; b < 256; b++ {
		switch {
		case b >= 0x80, 'A' <= b && b <= 'Z', 'a' <= b && b <= 'z', '0' <= b && b <= '9', b == '_', b == ':', b == '.', b == '-':
			c[b] |= cName
		}
		if 'A' <= b && b <= 'Z' || 'a' <= b && b <= 'z' || b == '_' || b == ':' {
			c[b] |= cASCIIStart
		}
	}
	for _, b := range " \t\r\n" {
		c[b] |= cSpace
	}
	for _, b := range "<&\r>" {
		c[b] |= cText
	}
	for _, b := range "<&\r\"'" {
		c[b] |= cAttr
	}
	return c
}()

// next reads the next token. After tokErr or tokEOF it must not be called
// again.
func (t *xmlTokenizer) next() tokKind {
	t.compact()
	t.name, t.attrs, t.selfClose, t.text, t.target, t.over = nil, t.attrs[:0], false, nil, "", false
	i := t.pos
	t.start = i
	t.tokEnd = math.MaxInt
	if t.maxTok > 0 {
		t.tokEnd = i + t.maxTok
	}
	t.stop = min(t.end, t.tokEnd)
	b, ok := t.at(i)
	if !ok {
		if t.rerr == io.EOF {
			t.kind = tokEOF
			return tokEOF
		}
		return t.short(i)
	}
	if b != '<' {
		return t.readText(i)
	}
	i++
	b, ok = t.at(i)
	if !ok {
		return t.short(i)
	}
	switch b {
	case '/':
		return t.readEnd(i + 1)
	case '?':
		return t.readPI(i + 1)
	case '!':
		return t.readBang(i + 1)
	}
	return t.readStart(i)
}

// scanName reads a name at k (encoding/xml's readName): it returns the
// index after it; none is true when the byte at k cannot start one (it is
// left unread); short is true when no byte came at the returned index.
func (t *xmlTokenizer) scanName(k int) (e int, none, short bool) {
	b, ok := t.at(k)
	if !ok {
		return k, false, true
	}
	if byteClass[b]&cName == 0 {
		return k, true, false
	}
	for {
		k++
		for k < t.stop && byteClass[t.buf[k]]&cName != 0 {
			k++
		}
		if k < t.stop {
			return k, false, false
		}
		if !t.more(k) {
			return k, false, true
		}
		k--
	}
}

// intern returns the name for buf[s:e].
func (t *xmlTokenizer) intern(s, e int) *xname {
	b := t.buf[s:e]
	n := len(b) // ≥ 1
	h := uint32(n)*0x9E3779B1 ^ uint32(b[0]) ^ uint32(b[n-1])<<7 ^ uint32(b[n/2])<<13 ^ uint32(b[(n-1)/3])<<19
	h ^= h >> 11
	slot := &t.recent[h&uint32(len(t.recent)-1)]
	if x := *slot; x != nil && x.raw == string(b) {
		return x
	}
	x := t.internMap(b)
	*slot = x
	return x
}

// internMap looks a name up in (or adds it to) the names map.
func (t *xmlTokenizer) internMap(b []byte) *xname {
	if n, ok := t.names[string(b)]; ok {
		return n
	}
	raw := string(b)
	n := &xname{raw: raw, local: raw}
	switch {
	case !isTokName(raw):
		n.bad = nameNotXML
	case strings.Count(raw, ":") > 1:
		n.bad = nameColons
	default:
		if p, l, ok := strings.Cut(raw, ":"); ok && p != "" && l != "" {
			n.prefix, n.local = p, l
		}
	}
	if len(t.names) < maxNames {
		t.names[raw] = n
	}
	return n
}

// isTokName is encoding/xml's isName: XML 1.0 (4th edition) Letter, '_' or
// ':' first, then NameChar. Names with non-ASCII characters are checked by
// encoding/xml itself so the two agree exactly.
func isTokName(s string) bool {
	if s == "" || s[0] < utf8.RuneSelf && byteClass[s[0]]&cASCIIStart == 0 {
		return false
	}
	ascii := true
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			ascii = false
			break
		}
		if byteClass[s[i]]&cName == 0 {
			return false
		}
	}
	if ascii {
		return true
	}
	// ':' and '_' are alike for isName; with no colon, nsname accepts
	// exactly what isName accepts.
	d := xml.NewDecoder(strings.NewReader("<" + strings.ReplaceAll(s, ":", "_") + "/>"))
	_, err := d.RawToken()
	return err == nil
}

// skipSpace skips encoding/xml's space(): ' ', '\t', '\r', '\n'.
func (t *xmlTokenizer) skipSpace(k int) int {
	for {
		for k < t.stop && byteClass[t.buf[k]]&cSpace != 0 {
			k++
		}
		if k < t.stop || !t.more(k) {
			return k
		}
	}
}

// valRange is where an attribute value is: buf[s:e], or vals[s:e] when it
// needed decoding.
type valRange struct {
	s, e    int
	decoded bool
}

// readStart reads a start tag whose name begins at i.
func (t *xmlTokenizer) readStart(i int) tokKind {
	e, none, short := t.scanName(i)
	switch {
	case short:
		return t.short(e)
	case none:
		return t.syntax("expected element name after <", i, true)
	}
	n := t.intern(i, e)
	switch n.bad {
	case nameNotXML:
		return t.syntax("invalid XML name: "+n.raw, e, true)
	case nameColons:
		return t.syntax("expected element name after <", e, true)
	}
	t.name = n
	t.vals = t.vals[:0]
	var ranges [16]valRange
	vr := ranges[:0]
	i = e
	for {
		i = t.skipSpace(i)
		b, ok := t.at(i)
		if !ok {
			return t.short(i)
		}
		i++
		if b == '/' {
			if b, ok = t.at(i); !ok {
				return t.short(i)
			}
			i++
			if b != '>' {
				return t.syntax("expected /> in element", i, false)
			}
			t.selfClose = true
			break
		}
		if b == '>' {
			break
		}
		i--
		e, none, short := t.scanName(i)
		switch {
		case short:
			return t.short(e)
		case none:
			return t.syntax("expected attribute name in element", i, true)
		}
		an := t.intern(i, e)
		switch an.bad {
		case nameNotXML:
			return t.syntax("invalid XML name: "+an.raw, e, true)
		case nameColons:
			return t.syntax("expected attribute name in element", e, true)
		}
		i = t.skipSpace(e)
		if b, ok = t.at(i); !ok {
			return t.short(i)
		}
		i++
		if b != '=' {
			return t.syntax("attribute name without = in element", i, false)
		}
		i = t.skipSpace(i)
		if b, ok = t.at(i); !ok {
			return t.short(i)
		}
		i++
		if b != '"' && b != '\'' {
			return t.syntax("unquoted or missing attribute value in element", i, false)
		}
		var r valRange
		var k tokKind
		if i, r, k = t.readValue(i, b); k == tokErr {
			return k
		}
		t.attrs = append(t.attrs, rawAttr{name: an})
		vr = append(vr, r)
	}
	if len(t.attrs) > 0 {
		// One string holds every value of the tag.
		total := 0
		for _, r := range vr {
			total += r.e - r.s
		}
		var sb strings.Builder
		sb.Grow(total)
		for _, r := range vr {
			if r.decoded {
				sb.Write(t.vals[r.s:r.e])
			} else {
				sb.Write(t.buf[r.s:r.e])
			}
		}
		all := sb.String()
		at := 0
		for j, r := range vr {
			t.attrs[j].value = all[at : at+r.e-r.s]
			at += r.e - r.s
		}
	}
	t.pos = i
	t.kind = tokStart
	return tokStart
}

// readValue reads an attribute value after its opening quote at i-1 and
// returns the index after the closing quote (or where the input ended:
// encoding/xml then fails on the next byte it needs) and where the
// decoded value is.
func (t *xmlTokenizer) readValue(i int, quote byte) (int, valRange, tokKind) {
	s := i
	for i < t.stop && byteClass[t.buf[i]]&cAttr == 0 {
		i++
	}
	if i < t.stop && t.buf[i] == quote {
		r := valRange{s: s, e: i}
		return i + 1, r, t.checkChars(t.buf[s:i], true, i+1)
	}
	// Slow path: decoding, or more input needed.
	vs := len(t.vals)
	t.vals = append(t.vals, t.buf[s:i]...)
	plain := true
	for {
		s := i
		for i < t.stop && byteClass[t.buf[i]]&cAttr == 0 {
			i++
		}
		t.vals = append(t.vals, t.buf[s:i]...)
		if i >= t.stop {
			if t.more(i) {
				continue
			}
			if t.over {
				return i, valRange{}, t.tooLarge()
			}
			break
		}
		b := t.buf[i]
		i++
		switch b {
		case quote:
			r := valRange{s: vs, e: len(t.vals), decoded: true}
			return i, r, t.checkChars(t.vals[vs:], plain, i)
		case '<':
			return i, valRange{}, t.syntax("unescaped < inside quoted string", i, false)
		case '&':
			plain = false
			var k tokKind
			if i, k = t.entity(i, &t.vals); k == tokErr {
				return i, valRange{}, k
			}
		case '\r':
			// "\r\n" and a lone "\r" become "\n" (XML 1.0 §2.11).
			t.vals = append(t.vals, '\n')
			if c, ok := t.at(i); ok && c == '\n' {
				i++
			} else if t.over {
				return i, valRange{}, t.tooLarge()
			}
		default:
			t.vals = append(t.vals, b)
		}
	}
	// The input ended inside the value.
	r := valRange{s: vs, e: len(t.vals), decoded: true}
	return i, r, t.checkChars(t.vals[vs:], plain, i)
}

// checkChars is encoding/xml's check of decoded character data: every
// rune valid UTF-8 and an XML Char, reported at k (the end of the text).
// plain data (no character reference decoded into it) can only fail the
// UTF-8 check, since the scan already replaced illegal characters.
func (t *xmlTokenizer) checkChars(data []byte, plain bool, k int) tokKind {
	if plain {
		if utf8.Valid(data) {
			return tokNone
		}
		return t.syntax("invalid UTF-8", k, false)
	}
	for len(data) > 0 {
		r, size := utf8.DecodeRune(data)
		if r == utf8.RuneError && size == 1 {
			return t.syntax("invalid UTF-8", k, false)
		}
		data = data[size:]
		if !isInCharacterRange(r) {
			return t.syntax(fmt.Sprintf("illegal character code %U", r), k, false)
		}
	}
	return tokNone
}

// tokNone is returned by helpers that did not end the scan.
const tokNone tokKind = 255

// isInCharacterRange is XML 1.0 §2.2 Char.
func isInCharacterRange(r rune) bool {
	return r == 0x09 || r == 0x0A || r == 0x0D || r >= 0x20 && r <= 0xD7FF ||
		r >= 0xE000 && r <= 0xFFFD || r >= 0x10000 && r <= 0x10FFFF
}

// entity decodes the entity or character reference whose '&' is at i-1,
// appending its text to *out, as encoding/xml does in Strict mode: only
// the five predefined entities (XML 1.0 §4.6) and character references
// (§4.1), never a DTD's. It returns the index after it.
func (t *xmlTokenizer) entity(i int, out *[]byte) (int, tokKind) {
	amp := i - 1
	b, ok := t.at(i)
	if !ok {
		return i, t.short(i)
	}
	if b == '#' {
		i++
		if b, ok = t.at(i); !ok {
			return i, t.short(i)
		}
		base := 10
		if b == 'x' {
			base = 16
			i++
			if b, ok = t.at(i); !ok {
				return i, t.short(i)
			}
		}
		ds := i
		for '0' <= b && b <= '9' || base == 16 && ('a' <= b && b <= 'f' || 'A' <= b && b <= 'F') {
			i++
			if b, ok = t.at(i); !ok {
				return i, t.short(i)
			}
		}
		if b != ';' {
			return i, t.syntax("invalid character entity "+string(t.buf[amp:i])+" (no semicolon)", i, true)
		}
		n, err := strconv.ParseUint(string(t.buf[ds:i]), base, 64)
		i++
		if err != nil || n > unicode.MaxRune {
			return i, t.syntax("invalid character entity "+string(t.buf[amp:i]), i, false)
		}
		*out = utf8.AppendRune(*out, rune(n))
		return i, tokNone
	}
	// A name: encoding/xml reads name bytes, then wants ';'.
	e, none, short := t.scanName(i)
	if short {
		return e, t.short(e)
	}
	if none {
		e = i
	}
	if b, ok = t.at(e); !ok {
		return e, t.short(e)
	}
	if b != ';' {
		return e, t.syntax("invalid character entity "+string(t.buf[amp:e])+" (no semicolon)", e, true)
	}
	var r byte
	switch string(t.buf[i:e]) {
	case "lt":
		r = '<'
	case "gt":
		r = '>'
	case "amp":
		r = '&'
	case "apos":
		r = '\''
	case "quot":
		r = '"'
	default:
		return e + 1, t.syntax("invalid character entity "+string(t.buf[amp:e+1]), e+1, false)
	}
	*out = append(*out, r)
	return e + 1, tokNone
}

// textEnds tells, when text reached the token limit at k, whether the text
// ends there (at '<' or at the end of input) rather than passing it.
func (t *xmlTokenizer) textEnds(k int) bool {
	b, ok := t.peekPast(k)
	return !ok || b == '<'
}

// readText reads character data starting at i (not '<').
func (t *xmlTokenizer) readText(i int) tokKind {
	s := i
	for {
		for i < t.stop && byteClass[t.buf[i]]&cText == 0 {
			i++
		}
		if i >= t.stop {
			if t.more(i) {
				continue
			}
			if t.over && !t.textEnds(i) {
				return t.tooLarge()
			}
			break
		}
		b := t.buf[i]
		if b == '<' {
			break
		}
		if b == '>' {
			if i-s >= 2 && t.buf[i-1] == ']' && t.buf[i-2] == ']' {
				return t.syntax("unescaped ]]> not in CDATA section", i+1, false)
			}
			i++
			continue
		}
		return t.readTextDecoding(s, i)
	}
	t.text = t.buf[s:i]
	t.pos = i
	if k := t.checkChars(t.text, true, i); k == tokErr {
		return k
	}
	t.kind = tokText
	return tokText
}

// readTextDecoding goes on with character data from i (a '&' or '\r') when
// it needs decoding; buf[s:i] is plain.
func (t *xmlTokenizer) readTextDecoding(s, i int) tokKind {
	out := append(t.scratch[:0], t.buf[s:i]...)
	var b0, b1 byte // the two previous bytes read since the last reference
	if i-s >= 1 {
		b1 = t.buf[i-1]
	}
	if i-s >= 2 {
		b0 = t.buf[i-2]
	}
	for {
		r := i
		for i < t.stop && byteClass[t.buf[i]]&cText == 0 {
			i++
		}
		if i > r {
			out = append(out, t.buf[r:i]...)
			if i-r >= 2 {
				b0, b1 = t.buf[i-2], t.buf[i-1]
			} else {
				b0, b1 = b1, t.buf[i-1]
			}
		}
		if i >= t.stop {
			if t.more(i) {
				continue
			}
			if t.over && !t.textEnds(i) {
				t.scratch = out
				return t.tooLarge()
			}
			break
		}
		b := t.buf[i]
		if b == '<' {
			break
		}
		i++
		switch b {
		case '>':
			if b0 == ']' && b1 == ']' {
				t.scratch = out
				return t.syntax("unescaped ]]> not in CDATA section", i, false)
			}
			out = append(out, b)
		case '&':
			var k tokKind
			if i, k = t.entity(i, &out); k == tokErr {
				t.scratch = out
				return k
			}
			b0, b1 = 0, 0
			continue
		case '\r':
			out = append(out, '\n')
			if c, ok := t.at(i); ok && c == '\n' {
				i++
				b0, b1 = '\r', '\n'
				continue
			}
			if t.over && !t.textEnds(i) {
				t.scratch = out
				return t.tooLarge()
			}
			t.over = false
		}
		b0, b1 = b1, b
	}
	t.scratch = out
	t.text = out
	t.pos = i
	if k := t.checkChars(out, false, i); k == tokErr {
		return k
	}
	t.kind = tokText
	return tokText
}

// readEnd reads an end tag whose name begins at i (after "</").
func (t *xmlTokenizer) readEnd(i int) tokKind {
	e, none, short := t.scanName(i)
	switch {
	case short:
		return t.short(e)
	case none:
		return t.syntax("expected element name after </", i, true)
	}
	n := t.intern(i, e)
	switch n.bad {
	case nameNotXML:
		return t.syntax("invalid XML name: "+n.raw, e, true)
	case nameColons:
		return t.syntax("expected element name after </", e, true)
	}
	i = t.skipSpace(e)
	b, ok := t.at(i)
	if !ok {
		return t.short(i)
	}
	i++
	if b != '>' {
		return t.syntax("invalid characters between </"+n.local+" and >", i, false)
	}
	t.name = n
	t.pos = i
	t.kind = tokEnd
	return tokEnd
}

// find returns the index of the first sep at or after i, reading more
// input as needed; ok is false when no more came first (at the returned
// index).
func (t *xmlTokenizer) find(i int, sep string) (int, bool) {
	for {
		if k := bytes.Index(t.buf[i:t.stop], []byte(sep)); k >= 0 {
			return i + k, true
		}
		i = max(i, t.stop-len(sep)+1)
		if !t.more(t.stop) {
			return t.stop, false
		}
	}
}

// readPI reads a processing instruction whose target begins at i.
func (t *xmlTokenizer) readPI(i int) tokKind {
	e, none, short := t.scanName(i)
	switch {
	case short:
		return t.short(e)
	case none:
		return t.syntax("expected target name after <?", i, true)
	}
	target := string(t.buf[i:e])
	if !isTokName(target) {
		return t.syntax("invalid XML name: "+target, e, true)
	}
	i = t.skipSpace(e)
	k, ok := t.find(i, "?>")
	if !ok {
		return t.short(k)
	}
	t.text = t.buf[i:k]
	t.target = target
	t.pos = k + 2
	if target == "xml" {
		content := string(t.text)
		if ver := procInst("version", content); ver != "" && ver != "1.0" {
			return t.fail(fmt.Errorf("xml: unsupported version %q; only version 1.0 is supported", ver), t.pos)
		}
		if enc := procInst("encoding", content); enc != "" && !strings.EqualFold(enc, "utf-8") {
			// The part was transcoded already when it had a UTF-16 byte
			// order mark; ASCII and Latin-1 names are taken at their word
			// (non-ASCII bytes then fail as invalid UTF-8).
			switch strings.ToLower(enc) {
			case "utf-16", "utf-16le", "utf-16be", "utf16", "us-ascii", "ascii", "iso-8859-1", "latin1":
			default:
				return t.fail(fmt.Errorf("xml: opening charset %q: %w", enc, fmt.Errorf("unsupported encoding %q", enc)), t.pos)
			}
		}
	}
	t.kind = tokProcInst
	return tokProcInst
}

// procInst is encoding/xml's: the value of param="…" or param='…' in s.
func procInst(param, s string) string {
	param += "="
	lenp := len(param)
	i := 0
	var sep byte
	for i < len(s) {
		sub := s[i:]
		k := strings.Index(sub, param)
		if k < 0 || lenp+k >= len(sub) {
			return ""
		}
		i += lenp + k + 1
		if c := sub[lenp+k]; c == '\'' || c == '"' {
			sep = c
			break
		}
	}
	if sep == 0 {
		return ""
	}
	j := strings.IndexByte(s[i:], sep)
	if j < 0 {
		return ""
	}
	return s[i : i+j]
}

// readBang reads what follows "<!" at i: a comment, a CDATA section or a
// directive.
func (t *xmlTokenizer) readBang(i int) tokKind {
	b, ok := t.at(i)
	if !ok {
		return t.short(i)
	}
	i++
	switch b {
	case '-':
		if b, ok = t.at(i); !ok {
			return t.short(i)
		}
		i++
		if b != '-' {
			return t.syntax("invalid sequence <!- not part of <!--", i, false)
		}
		s := i
		for {
			k, ok := t.find(i, "-")
			if !ok {
				return t.short(k)
			}
			if b, ok = t.at(k + 1); !ok {
				return t.short(k + 1)
			}
			if b != '-' {
				i = k + 1
				continue
			}
			if b, ok = t.at(k + 2); !ok {
				return t.short(k + 2)
			}
			if b != '>' {
				return t.syntax(`invalid sequence "--" not allowed in comments`, k+3, false)
			}
			t.text = t.buf[s:k]
			t.pos = k + 3
			t.kind = tokComment
			return tokComment
		}
	case '[':
		for _, want := range []byte("CDATA[") {
			if b, ok = t.at(i); !ok {
				return t.short(i)
			}
			i++
			if b != want {
				return t.syntax("invalid <![ sequence", i, false)
			}
		}
		k, ok := t.find(i, "]]>")
		if !ok {
			if !t.over && t.rerr == io.EOF {
				return t.syntax("unexpected EOF in CDATA section", k, false)
			}
			return t.short(k)
		}
		data := t.buf[i:k]
		if bytes.IndexByte(data, '\r') >= 0 {
			data = normalizeCR(t.scratch[:0], data)
			t.scratch = data
		}
		t.text = data
		t.pos = k + 3
		if k := t.checkChars(data, true, t.pos); k == tokErr {
			return k
		}
		t.kind = tokCDATA
		return tokCDATA
	}
	return t.readDirective(i, b)
}

// normalizeCR appends data to out with "\r\n" and lone "\r" made "\n"
// (XML 1.0 §2.11).
func normalizeCR(out, data []byte) []byte {
	var prev byte
	for _, b := range data {
		switch {
		case b == '\r':
			out = append(out, '\n')
		case prev == '\r' && b == '\n':
		default:
			out = append(out, b)
		}
		prev = b
	}
	return out
}

// readDirective reads a directive (<!DOCTYPE …>, <!ENTITY …>) as
// encoding/xml does: first is the byte after "<!", i the index after it.
// Quoted '<' and '>' do not nest; comments inside become one space.
func (t *xmlTokenizer) readDirective(i int, first byte) tokKind {
	out := append(t.scratch[:0], first)
	var inquote byte
	depth := 0
	for {
		b, ok := t.at(i)
		if !ok {
			t.scratch = out
			return t.short(i)
		}
		i++
		if inquote == 0 && b == '>' && depth == 0 {
			break
		}
	handle:
		out = append(out, b)
		switch {
		case b == inquote:
			inquote = 0
		case inquote != 0:
		case b == '\'' || b == '"':
			inquote = b
		case b == '>':
			depth--
		case b == '<':
			const s = "!--"
			for j := 0; j < len(s); j++ {
				if b, ok = t.at(i); !ok {
					t.scratch = out
					return t.short(i)
				}
				i++
				if b != s[j] {
					out = append(out, s[:j]...)
					depth++
					goto handle
				}
			}
			out = out[:len(out)-1]
			var b0, b1 byte
			for {
				if b, ok = t.at(i); !ok {
					t.scratch = out
					return t.short(i)
				}
				i++
				if b0 == '-' && b1 == '-' && b == '>' {
					break
				}
				b0, b1 = b1, b
			}
			out = append(out, ' ')
		}
	}
	t.scratch = out
	t.text = out
	t.pos = i
	t.kind = tokDirective
	return tokDirective
}
