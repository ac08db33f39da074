package formats

// The scanner as it was before xmltok.go (encoding/xml's RawToken behind a
// filtering reader), kept as the reference the differential tests compare
// the new one with. filter false leaves the input as it is: the scan is
// then encoding/xml's verdict alone.

import (
	"archive/zip"
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"

	"golang.org/x/text/encoding/unicode"
	"golang.org/x/text/transform"

	"github.com/editaudit/editaudit/internal/testdoc"
)

type lNop struct{}

func (lNop) Start(*lElement)        {}
func (lNop) End(*lElement)          {}
func (lNop) Text(*lElement, []byte) {}

// lElement is one open XML element during a scan. Handlers may read it and
// keep per-element state in Data; they must not keep the pointer after End.
type lElement struct {
	// Name is the element's name: Space is the namespace URI (resolved),
	// Local the local name.
	Name xml.Name
	// Prefix is the namespace prefix as written ("w" in w:tbl).
	Prefix string
	// Attr holds the attributes; Name.Space of each is the namespace URI
	// (empty for unprefixed attributes), and RawAttr keeps the prefixes.
	Attr    []xml.Attr
	RawAttr []xml.Attr
	// Line and Column locate the start tag (1-based; the column counts bytes).
	Line, Column int
	// Depth is 1 for the root element.
	Depth int
	// Index is the 1-based position among the parent's children with the
	// same qualified name.
	Index int
	// Parent is the enclosing element (nil for the root).
	Parent *lElement
	// Children is the number of child elements seen so far; LastChild is
	// the name of the most recently closed child.
	Children  int
	LastChild xml.Name
	// Data is free for the handler.
	Data any

	childCounts []lNameCount
	nsDecl      []lNsBinding
}

type lNameCount struct {
	name string
	n    int
}

type lNsBinding struct{ prefix, uri, prev string }

// QName returns the name as written, "w:tbl".
func (e *lElement) QName() string {
	if e.Prefix == "" {
		return e.Name.Local
	}
	return e.Prefix + ":" + e.Name.Local
}

// Locator returns the XPath-like path of the element with positions, e.g.
// /w:document/w:body/w:tbl[2]/w:tr[3]/w:tc[1].
func (e *lElement) Locator() string {
	var parts []string
	for x := e; x != nil; x = x.Parent {
		if x.Parent == nil {
			parts = append(parts, x.QName())
		} else {
			parts = append(parts, x.QName()+"["+strconv.Itoa(x.Index)+"]")
		}
	}
	var b strings.Builder
	for i := len(parts) - 1; i >= 0; i-- {
		b.WriteByte('/')
		b.WriteString(parts[i])
	}
	return b.String()
}

// lHandler receives the events of one XML part, in document order.
type lHandler interface {
	// Start is called after e's start tag was read (e.Children is 0).
	Start(e *lElement)
	// End is called at e's end tag, with all children seen.
	End(e *lElement)
	// Text is called with character data directly inside e (CDATA
	// included). The slice is only valid during the call.
	Text(e *lElement, text []byte)
}

// legacyScanXML reads one XML part from r and calls h for its events. It never
// resolves DTDs or entities (a DOCTYPE is itself a finding and ends the
// scan), enforces lim.MaxDepth and lim.MaxTokenSize, and reports every
// XML-illegal character (XML 1.0 §2.2 Char production) with its code point,
// line, column and an excerpt, continuing past it. part names the part in
// findings. h may be nil.
func legacyScanXML(part string, r io.Reader, lim Limits, h lHandler, filter bool) ScanResult {
	if h == nil {
		h = lNop{}
	}
	s := &lScanner{part: part, lim: lim, h: h, nofilter: !filter}
	return s.run(r)
}

type lScanner struct {
	nofilter bool
	off      int64 // the decoder's input offset after the last token
	perCode  map[string]int
	part     string
	lim      Limits
	h        lHandler
	f        *lCharFilter
	res      ScanResult
	stack    []*lElement
	ns       map[string]string
	root     *lElement
}

// lDecodeInput strips a UTF-8 byte order mark and transcodes a UTF-16 part
// (allowed by OPC, ECMA-376 part 2 §8.1.4) to UTF-8.
func lDecodeInput(r io.Reader) io.Reader {
	br := bufio.NewReaderSize(r, 64<<10)
	head, _ := br.Peek(3)
	switch {
	case bytes.HasPrefix(head, []byte{0xEF, 0xBB, 0xBF}):
		_, _ = br.Discard(3)
	case bytes.HasPrefix(head, []byte{0xFF, 0xFE}), bytes.HasPrefix(head, []byte{0xFE, 0xFF}):
		dec := unicode.UTF16(unicode.LittleEndian, unicode.UseBOM).NewDecoder()
		return transform.NewReader(br, dec)
	}
	return br
}

func (s *lScanner) run(r io.Reader) ScanResult {
	s.f = newLCharFilter(lDecodeInput(r), s.lim.MaxTokenSize)
	s.f.nofilter = s.nofilter
	d := xml.NewDecoder(s.f)
	d.Strict = true
	// Parts already transcoded to UTF-8 above: accept the declared name.
	d.CharsetReader = func(label string, in io.Reader) (io.Reader, error) {
		switch strings.ToLower(label) {
		case "utf-16", "utf-16le", "utf-16be", "utf16", "us-ascii", "ascii", "iso-8859-1", "latin1":
			return in, nil
		}
		return nil, fmt.Errorf("unsupported encoding %q", label)
	}
	s.ns = map[string]string{"xml": "http://www.w3.org/XML/1998/namespace"}
	for {
		line, col := d.InputPos()
		tok, err := d.RawToken()
		s.off = d.InputOffset()
		if err != nil {
			s.off = 1 << 62 // everything seen so far
			s.flushChars()
			if err == io.EOF {
				if len(s.stack) > 0 {
					s.addSyntax(d, fmt.Sprintf("the part ends inside <%s>: the end tag is missing", s.stack[len(s.stack)-1].QName()), s.stack[len(s.stack)-1].Locator())
					return s.res
				}
				if s.root == nil {
					s.addSyntax(d, "the part has no root element", "")
					return s.res
				}
				s.res.Complete = true
				return s.res
			}
			s.fail(d, err)
			return s.res
		}
		s.flushChars()
		switch t := tok.(type) {
		case xml.StartElement:
			if len(s.stack) == 0 && s.root != nil {
				s.addSyntax(d, fmt.Sprintf("a second root element <%s> follows the first; a part has exactly one root", lQname(t.Name)), "")
				return s.res
			}
			if len(s.stack) >= s.lim.MaxDepth {
				s.add(Finding{Code: CodeXMLTooDeep, Grade: Fatal, Line: line, Column: col,
					Locator: s.stack[len(s.stack)-1].Locator(),
					Message: fmt.Sprintf("elements nest deeper than %d levels; the scan stopped here", s.lim.MaxDepth),
					Fix:     "flatten the structure; real documents never nest this deep", Anchor: "depth"})
				return s.res
			}
			e := s.open(t, line, col)
			if e == nil {
				return s.res
			}
			s.h.Start(e)
		case xml.EndElement:
			if len(s.stack) == 0 {
				s.addSyntax(d, fmt.Sprintf("end tag </%s> without a start tag", lQname(t.Name)), "")
				return s.res
			}
			top := s.stack[len(s.stack)-1]
			if lQname(t.Name) != top.QName() {
				s.addSyntax(d, fmt.Sprintf("end tag </%s> does not match the open element <%s>", lQname(t.Name), top.QName()), top.Locator())
				return s.res
			}
			s.h.End(top)
			s.close(top)
		case xml.CharData:
			if len(s.stack) == 0 {
				if len(bytes.TrimSpace(t)) > 0 {
					s.addSyntax(d, "text outside the root element", "")
					return s.res
				}
				continue
			}
			s.h.Text(s.stack[len(s.stack)-1], t)
		case xml.Directive:
			// XML 1.0 §2.8. OOXML parts never carry a DTD (ECMA-376 part 2
			// §8.1.4: "MS shall not use DTD declarations"); a DOCTYPE is how
			// XXE and billion-laughs attacks arrive, and Word refuses it.
			if bytes.HasPrefix(bytes.TrimSpace(t), []byte("DOCTYPE")) {
				s.add(Finding{Code: CodeXMLDoctype, Grade: Fatal, Line: line, Column: col,
					Message: "the part declares a DOCTYPE (a DTD); Office packages must not, and its entities were not expanded (external-entity and entity-expansion attacks use it)",
					Fix:     "remove the <!DOCTYPE …> declaration and any entity references it defines", Anchor: "doctype"})
				return s.res
			}
		}
	}
}

func lQname(n xml.Name) string {
	if n.Space == "" {
		return n.Local
	}
	return n.Space + ":" + n.Local
}

// open pushes a new element, resolving namespaces (RawToken does not).
func (s *lScanner) open(t xml.StartElement, line, col int) *lElement {
	var parent *lElement
	if len(s.stack) > 0 {
		parent = s.stack[len(s.stack)-1]
	}
	e := &lElement{Prefix: t.Name.Space, Line: line, Column: col, Depth: len(s.stack) + 1, Parent: parent, RawAttr: t.Attr}
	for _, a := range t.Attr {
		switch {
		case a.Name.Space == "xmlns":
			e.nsDecl = append(e.nsDecl, lNsBinding{a.Name.Local, a.Value, s.ns[a.Name.Local]})
			s.ns[a.Name.Local] = a.Value
		case a.Name.Space == "" && a.Name.Local == "xmlns":
			e.nsDecl = append(e.nsDecl, lNsBinding{"", a.Value, s.ns[""]})
			s.ns[""] = a.Value
		}
	}
	e.Name = xml.Name{Space: s.ns[t.Name.Space], Local: t.Name.Local}
	if t.Name.Space != "" {
		if _, ok := s.ns[t.Name.Space]; !ok {
			s.add(Finding{Code: CodeXMLNotWellFormed, Grade: Fatal, Line: line, Column: col,
				Message: fmt.Sprintf("the prefix %q of <%s:%s> is not bound to a namespace", t.Name.Space, t.Name.Space, t.Name.Local),
				Fix:     fmt.Sprintf("declare xmlns:%s on the root element or use a declared prefix", t.Name.Space),
				Anchor:  "prefix:" + t.Name.Space})
		}
	}
	if len(t.Attr) > 0 {
		e.Attr = make([]xml.Attr, 0, len(t.Attr))
		for _, a := range t.Attr {
			if a.Name.Space == "xmlns" || (a.Name.Space == "" && a.Name.Local == "xmlns") {
				continue
			}
			n := a.Name
			if n.Space != "" {
				n.Space = s.ns[n.Space]
			}
			e.Attr = append(e.Attr, xml.Attr{Name: n, Value: a.Value})
		}
	}
	if parent != nil {
		parent.Children++
		q := e.QName()
		found := false
		for i := range parent.childCounts {
			if parent.childCounts[i].name == q {
				parent.childCounts[i].n++
				e.Index = parent.childCounts[i].n
				found = true
				break
			}
		}
		if !found {
			parent.childCounts = append(parent.childCounts, lNameCount{q, 1})
			e.Index = 1
		}
	} else {
		s.root = e
		s.res.Root = e.Name
		e.Index = 1
	}
	s.stack = append(s.stack, e)
	return e
}

func (s *lScanner) close(e *lElement) {
	for i := len(e.nsDecl) - 1; i >= 0; i-- {
		b := e.nsDecl[i]
		if b.prev == "" {
			delete(s.ns, b.prefix)
		} else {
			s.ns[b.prefix] = b.prev
		}
	}
	s.stack = s.stack[:len(s.stack)-1]
	if e.Parent != nil {
		e.Parent.LastChild = e.Name
	}
}

// add appends a finding, capping each code at lim.MaxFindingsPerCode.
func (s *lScanner) add(f Finding) {
	f.Part = s.part
	if s.perCode == nil {
		s.perCode = map[string]int{}
	}
	n := s.perCode[f.Code]
	s.perCode[f.Code]++
	max := s.lim.MaxFindingsPerCode
	if max > 0 && n == max {
		s.res.Findings = append(s.res.Findings, Finding{Code: CodeXMLTooManyFindings, Grade: Info, Part: s.part,
			Message: fmt.Sprintf("more than %d %s findings in this part; the rest are not listed", max, f.Code),
			Anchor:  f.Code})
	}
	if max > 0 && n >= max {
		return
	}
	s.res.Findings = append(s.res.Findings, f)
}

func (s *lScanner) addSyntax(d *xml.Decoder, msg, loc string) {
	line, col := d.InputPos()
	s.add(Finding{Code: CodeXMLNotWellFormed, Grade: Fatal, Line: line, Column: col, Locator: loc,
		Message: "the XML is not well-formed: " + msg,
		Fix:     "repair the markup at this position (unescaped & or <, a missing or mismatched end tag); Office refuses or repairs parts that do not parse",
		Anchor:  msg})
}

// fail turns a decoder or filter error into a finding.
func (s *lScanner) fail(d *xml.Decoder, err error) {
	var loc string
	if len(s.stack) > 0 {
		loc = s.stack[len(s.stack)-1].Locator()
	}
	line, col := d.InputPos()
	switch {
	case errors.Is(err, ErrTokenTooLarge):
		s.add(Finding{Code: CodeXMLTokenTooLarge, Grade: Fatal, Line: s.f.line, Column: s.f.col, Locator: loc,
			Message: fmt.Sprintf("one XML token (a text node or a tag) is longer than %d bytes; the scan stopped here", s.lim.MaxTokenSize),
			Fix:     "split or remove the oversized text or attribute", Anchor: "token"})
		return
	case errors.Is(err, ErrEntryTooLarge), errors.Is(err, ErrRatio), errors.Is(err, ErrTotalTooLarge):
		s.add(Finding{Code: CodeZipLimit, Grade: Fatal, Line: line, Column: col,
			Message: "reading the part stopped at a limit: " + err.Error(), Fix: "the part is a decompression bomb or far larger than any real document part", Anchor: err.Error()})
		return
	}
	var se *xml.SyntaxError
	if errors.As(err, &se) {
		msg := se.Msg
		if strings.HasPrefix(msg, "illegal character code") {
			// A character reference to an illegal character, e.g. &#1;:
			// XML 1.0 §4.1 WFC Legal Character.
			s.add(Finding{Code: CodeXMLIllegalChar, Grade: Fatal, Line: line, Column: col, Locator: loc,
				Message: "a character reference names a character XML forbids (" + strings.TrimPrefix(msg, "illegal character code ") + "); the parse stopped here",
				Fix:     "remove the character reference; in SpreadsheetML strings write such characters as _xHHHH_",
				Anchor:  msg})
			return
		}
		if strings.HasPrefix(msg, "invalid character entity") {
			msg += " (entities other than the five predefined ones are not allowed without a DTD)"
		}
		s.addSyntax(d, msg, loc)
		return
	}
	// An I/O error from the zip reader (CRC, truncated entry).
	s.add(Finding{Code: CodeXMLNotWellFormed, Grade: Fatal, Line: line, Column: col, Locator: loc,
		Message: "the part could not be read to the end: " + err.Error(),
		Fix:     "the zip entry is damaged; re-save the document from its source", Anchor: "read:" + err.Error()})
}

// flushChars turns the illegal characters the filter replaced into findings.
func (s *lScanner) flushChars() {
	for _, c := range s.f.take(s.off) {
		var loc string
		if len(s.stack) > 0 {
			loc = s.stack[len(s.stack)-1].Locator()
		}
		// XML 1.0 §2.2: Char excludes U+0000–U+0008, U+000B, U+000C,
		// U+000E–U+001F, U+FFFE, U+FFFF. Excel replaces the part (exceljs#234,
		// rubyXL#243, PhpSpreadsheet#212); Word reports unreadable content.
		s.add(Finding{Code: CodeXMLIllegalChar, Grade: Fatal, Line: c.line, Column: c.col, Locator: loc,
			Message: fmt.Sprintf("the character U+%04X is not allowed in XML; it appears in …%s…", c.r, sanitizeExcerpt(string(c.excerpt))),
			Fix:     fmt.Sprintf("delete U+%04X from the text (in SpreadsheetML strings it may be written escaped as _x%04X_)", c.r, c.r),
			Anchor:  fmt.Sprintf("U+%04X %s", c.r, sanitizeExcerpt(string(c.excerpt)))})
	}
}

// lIllegal is one XML-illegal character seen by the filter.
type lIllegal struct {
	r         rune
	off       int64
	line, col int
	excerpt   []byte
	need      int // bytes of "after" context still to collect
	skip      int // bytes of the character itself still to skip
}

// lCharFilter passes bytes through to the decoder, replacing XML-illegal
// characters with spaces (so one bad character does not hide the rest of
// the part) and recording where they were; it also tracks line and column
// and the longest run between markup delimiters (the token-size limit).
type lCharFilter struct {
	nofilter bool
	r        io.Reader
	maxTok   int
	off      int64
	line     int
	col      int
	tokLen   int
	ring     [lExcerptLen]byte // the last bytes seen, for excerpts
	ringN    int               // bytes written to ring in all
	pending  []*lIllegal
	open     int // pending entries still collecting context
}

const lExcerptLen = 24

func newLCharFilter(r io.Reader, maxTok int) *lCharFilter {
	return &lCharFilter{r: r, maxTok: maxTok, line: 1, col: 1}
}

// take returns the recorded characters at offsets below upto (the
// decoder's position), so the caller knows the element they are in.
func (f *lCharFilter) take(upto int64) []lIllegal {
	var out []lIllegal
	i := 0
	for ; i < len(f.pending) && f.pending[i].off < upto; i++ {
		if f.pending[i].need > 0 {
			f.open--
		}
		out = append(out, *f.pending[i])
	}
	f.pending = f.pending[i:]
	return out
}

func (f *lCharFilter) Read(p []byte) (int, error) {
	if f.nofilter {
		return f.r.Read(p)
	}
	n, err := f.r.Read(p)
	for i := 0; i < n; i++ {
		c := p[i]
		switch {
		case c == '\n':
			f.line++
			f.col = 0
		case c == '<' || c == '>':
			f.tokLen = 0
		case c < 0x20 && c != '\t' && c != '\r':
			f.record(rune(c), 1)
			p[i] = ' '
		case c == 0xEF && i+2 < n && p[i+1] == 0xBF && (p[i+2] == 0xBE || p[i+2] == 0xBF):
			f.record(0xFFFE+rune(p[i+2]-0xBE), 3)
			p[i], p[i+1], p[i+2] = ' ', ' ', ' '
		}
		if c&0xC0 != 0x80 { // count characters, not continuation bytes
			f.col++
		}
		f.tokLen++
		f.feed(p[i])
		f.off++
		if f.maxTok > 0 && f.tokLen > f.maxTok {
			return i, ErrTokenTooLarge
		}
	}
	return n, err
}

// record notes an illegal character of size bytes at the current position.
func (f *lCharFilter) record(r rune, size int) {
	n := min(f.ringN, lExcerptLen)
	ex := make([]byte, 0, n+2*lExcerptLen)
	for i := f.ringN - n; i < f.ringN; i++ {
		ex = append(ex, f.ring[i%lExcerptLen])
	}
	ex = append(ex, fmt.Sprintf("\\u%04X", r)...)
	f.pending = append(f.pending, &lIllegal{r: r, off: f.off, line: f.line, col: f.col, excerpt: ex, need: lExcerptLen, skip: size})
	f.open++
}

// feed appends b to the excerpt ring and to pending excerpts.
func (f *lCharFilter) feed(b byte) {
	f.ring[f.ringN%lExcerptLen] = b
	f.ringN++
	if f.open == 0 {
		return
	}
	for _, il := range f.pending {
		switch {
		case il.skip > 0:
			il.skip--
		case il.need > 0:
			il.excerpt = append(il.excerpt, b)
			il.need--
			if il.need == 0 {
				f.open--
			}
		}
	}
}

// ---- Differential tests: xmltok.go against encoding/xml and the old scanner.

// refTokens tokenizes in with encoding/xml's RawToken (Strict, the
// scanner's charset rule) after the old scanner's input handling: BOM and
// UTF-16 decoding, XML-illegal characters replaced with spaces. It returns
// one line per token and, last, the error with its position.
func refTokens(in []byte) []string {
	dec, _ := io.ReadAll(lDecodeInput(bytes.NewReader(in)))
	dec = replaceIllegal(dec)
	d := xml.NewDecoder(bytes.NewReader(dec))
	d.Strict = true
	d.CharsetReader = func(label string, in io.Reader) (io.Reader, error) {
		switch strings.ToLower(label) {
		case "utf-16", "utf-16le", "utf-16be", "utf16", "us-ascii", "ascii", "iso-8859-1", "latin1":
			return in, nil
		}
		return nil, fmt.Errorf("unsupported encoding %q", label)
	}
	var out []string
	for {
		line, col := d.InputPos()
		tok, err := d.RawToken()
		if err != nil {
			if err != io.EOF {
				l, c := d.InputPos()
				out = append(out, fmt.Sprintf("ERR %s @%d:%d", errMsg(err), l, c))
			}
			return out
		}
		switch t := tok.(type) {
		case xml.StartElement:
			s := fmt.Sprintf("S %s|%s @%d:%d", t.Name.Space, t.Name.Local, line, col)
			for _, a := range t.Attr {
				s += fmt.Sprintf(" %s|%s=%q", a.Name.Space, a.Name.Local, a.Value)
			}
			out = append(out, s)
		case xml.EndElement:
			out = append(out, fmt.Sprintf("E %s|%s", t.Name.Space, t.Name.Local))
		case xml.CharData:
			out = append(out, fmt.Sprintf("T %q", t))
		case xml.Comment:
			out = append(out, fmt.Sprintf("C %q", t))
		case xml.ProcInst:
			out = append(out, fmt.Sprintf("P %s %q", t.Target, t.Inst))
		case xml.Directive:
			out = append(out, fmt.Sprintf("D %q @%d:%d", t, line, col))
		}
	}
}

func errMsg(err error) string {
	var se *xml.SyntaxError
	if errors.As(err, &se) {
		return se.Msg
	}
	return err.Error()
}

// replaceIllegal is what the old scanner's filter did to the input, at
// every position (the filter missed U+FFFE/U+FFFF split across reads).
func replaceIllegal(b []byte) []byte {
	b = bytes.Clone(b)
	for i := 0; i < len(b); i++ {
		c := b[i]
		switch {
		case c < 0x20 && c != '\t' && c != '\n' && c != '\r':
			b[i] = ' '
		case c == 0xEF && i+2 < len(b) && b[i+1] == 0xBF && (b[i+2] == 0xBE || b[i+2] == 0xBF):
			b[i], b[i+1], b[i+2] = ' ', ' ', ' '
			i += 2
		}
	}
	return b
}

// ourTokens is refTokens for xmlTokenizer reading from r.
func ourTokens(r io.Reader) []string {
	t := newXMLTokenizer(r, 0, 0)
	var out []string
	for {
		switch t.next() {
		case tokEOF:
			return out
		case tokErr:
			return append(out, fmt.Sprintf("ERR %s @%d:%d", errMsg(t.err), t.errLine, t.errCol))
		case tokStart:
			line, col := t.posAt(t.start, false)
			s := fmt.Sprintf("S %s|%s @%d:%d", t.name.prefix, t.name.local, line, col)
			for _, a := range t.attrs {
				s += fmt.Sprintf(" %s|%s=%q", a.name.prefix, a.name.local, a.value)
			}
			out = append(out, s)
			if t.selfClose {
				out = append(out, fmt.Sprintf("E %s|%s", t.name.prefix, t.name.local))
			}
		case tokEnd:
			out = append(out, fmt.Sprintf("E %s|%s", t.name.prefix, t.name.local))
		case tokText, tokCDATA:
			out = append(out, fmt.Sprintf("T %q", t.text))
		case tokComment:
			out = append(out, fmt.Sprintf("C %q", t.text))
		case tokProcInst:
			out = append(out, fmt.Sprintf("P %s %q", t.target, t.text))
		case tokDirective:
			line, col := t.posAt(t.start, false)
			out = append(out, fmt.Sprintf("D %q @%d:%d", t.text, line, col))
		}
	}
}

func fmtAttrs(as []xml.Attr) string {
	var b strings.Builder
	for _, a := range as {
		fmt.Fprintf(&b, " %s|%s=%q", a.Name.Space, a.Name.Local, a.Value)
	}
	return b.String()
}

// evRec records every Handler event with every Element field.
type evRec struct{ ev []string }

func (r *evRec) Start(e *Element) {
	parent := ""
	if e.Parent != nil {
		parent = e.Parent.QName()
	}
	r.ev = append(r.ev, fmt.Sprintf("S %s|%s|%s attr[%s] raw[%s] @%d:%d d%d i%d c%d p=%s %s",
		e.Name.Space, e.Name.Local, e.Prefix, fmtAttrs(e.Attr), fmtAttrs(e.RawAttr), e.Line, e.Column, e.Depth, e.Index, e.Children, parent, e.Locator()))
}

func (r *evRec) End(e *Element) {
	r.ev = append(r.ev, fmt.Sprintf("E %s children=%d last=%s|%s", e.QName(), e.Children, e.LastChild.Space, e.LastChild.Local))
}

func (r *evRec) Text(e *Element, t []byte) { r.ev = append(r.ev, fmt.Sprintf("T %s %q", e.QName(), t)) }

// lRec is evRec for the old scanner's elements.
type lRec struct{ ev []string }

func (r *lRec) Start(e *lElement) {
	parent := ""
	if e.Parent != nil {
		parent = e.Parent.QName()
	}
	r.ev = append(r.ev, fmt.Sprintf("S %s|%s|%s attr[%s] raw[%s] @%d:%d d%d i%d c%d p=%s %s",
		e.Name.Space, e.Name.Local, e.Prefix, fmtAttrs(e.Attr), fmtAttrs(e.RawAttr), e.Line, e.Column, e.Depth, e.Index, e.Children, parent, e.Locator()))
}

func (r *lRec) End(e *lElement) {
	r.ev = append(r.ev, fmt.Sprintf("E %s children=%d last=%s|%s", e.QName(), e.Children, e.LastChild.Space, e.LastChild.Local))
}

func (r *lRec) Text(e *lElement, t []byte) {
	r.ev = append(r.ev, fmt.Sprintf("T %s %q", e.QName(), t))
}

// fmtFindings writes findings one a line for comparison, invalid UTF-8 as
// ScanXML writes it (U+FFFD, since 03ec03b), which the legacy scanner
// compared against does not.
func fmtFindings(fs []Finding) []string {
	var out []string
	for _, f := range fs {
		out = append(out, strings.ToValidUTF8(fmt.Sprintf("%s %s %d:%d %s | %s | %s | %s", f.Code, f.Grade, f.Line, f.Column, f.Locator, f.Message, f.Anchor, f.Fix), "\uFFFD"))
	}
	return out
}

// firstDiff describes where two line lists part.
func firstDiff(a, b []string) string {
	for i := 0; i < min(len(a), len(b)); i++ {
		if a[i] != b[i] {
			return fmt.Sprintf("line %d:\n  got  %s\n  want %s", i, a[i], b[i])
		}
	}
	if len(a) != len(b) {
		extra := func(x []string) string {
			if len(x) > min(len(a), len(b)) {
				return x[min(len(a), len(b))]
			}
			return "(end)"
		}
		return fmt.Sprintf("lengths %d, %d; first extra: got %s | want %s", len(a), len(b), extra(a), extra(b))
	}
	return ""
}

// acceptedByEncodingXML reports whether encoding/xml alone, on the input
// as it is, reads the whole part as one well-formed element tree (an
// unbound prefix is the scanner's own check, not the decoder's).
func acceptedByEncodingXML(res ScanResult) bool {
	if !res.Complete {
		return false
	}
	for _, f := range res.Findings {
		if !strings.Contains(f.Message, "is not bound to a namespace") {
			return false
		}
	}
	return true
}

// beyondLegacy reports the findings of the held-out evaluation's namespace and
// declaration checks (MarkupRules), which neither encoding/xml nor the old
// scanner make.
func beyondLegacy(f Finding) bool {
	return f.Code == CodeXMLMCPrefix || strings.HasPrefix(f.Anchor, "attr-prefix:") || f.Anchor == "decl-not-first"
}

func withoutBeyondLegacy(fs []Finding) []Finding {
	var out []Finding
	for _, f := range fs {
		if !beyondLegacy(f) {
			out = append(out, f)
		}
	}
	return out
}

// diffCheck runs every comparison on one input:
//   - token by token, xmlTokenizer equals encoding/xml's RawToken on the
//     input the old filter produced, errors and positions included, read
//     whole and one byte at a time;
//   - when encoding/xml alone accepts the input, ScanXML gives the same
//     events and no other finding (MarkupRules' findings aside); when it rejects it, ScanXML reports a
//     fatal finding;
//   - ScanXML equals the old scanner: events and, when exact is true (the
//     input fits the old filter's first 4 KiB read, so both have seen the
//     same illegal characters when a fatal error stops them), findings.
func diffCheck(t testing.TB, in []byte, exact bool) {
	t.Helper()
	want := refTokens(in)
	if got := ourTokens(bytes.NewReader(in)); firstDiff(got, want) != "" {
		t.Fatalf("tokens differ from encoding/xml, %s\ninput %q", firstDiff(got, want), in)
	}
	if got := ourTokens(iotest.OneByteReader(bytes.NewReader(in))); firstDiff(got, want) != "" {
		t.Fatalf("tokens read byte by byte differ from encoding/xml, %s\ninput %q", firstDiff(got, want), in)
	}

	lim := DefaultLimits()
	var rec evRec
	res := ScanXML("p.xml", bytes.NewReader(in), lim, &rec)

	var pure lRec
	pureRes := legacyScanXML("p.xml", bytes.NewReader(in), lim, &pure, false)
	if acceptedByEncodingXML(pureRes) {
		if d := firstDiff(rec.ev, pure.ev); d != "" {
			t.Fatalf("events differ from encoding/xml's, %s\ninput %q", d, in)
		}
		// Beyond encoding/xml, the scanner reports illegal characters
		// where the decoder does not look (comments, processing
		// instructions, markup).
		var rest []Finding
		for _, f := range res.Findings {
			if f.Code != CodeXMLIllegalChar && !beyondLegacy(f) {
				rest = append(rest, f)
			}
		}
		if !res.Complete || firstDiff(fmtFindings(rest), fmtFindings(pureRes.Findings)) != "" {
			t.Fatalf("encoding/xml accepts, ScanXML: complete %v, findings %v\ninput %q", res.Complete, fmtFindings(res.Findings), in)
		}
	} else if !hasFatal(res.Findings) {
		t.Fatalf("encoding/xml rejects (%v), ScanXML reports no fatal finding: %v\ninput %q", fmtFindings(pureRes.Findings), fmtFindings(res.Findings), in)
	}

	var old lRec
	oldRes := legacyScanXML("p.xml", bytes.NewReader(in), lim, &old, true)
	if d := firstDiff(rec.ev, old.ev); d != "" {
		t.Fatalf("events differ from the old scanner's, %s\ninput %q", d, in)
	}
	if res.Complete != oldRes.Complete || res.Root != oldRes.Root {
		t.Fatalf("complete/root %v %v, old scanner %v %v\ninput %q", res.Complete, res.Root, oldRes.Complete, oldRes.Root, in)
	}
	if exact {
		if d := firstDiff(fmtFindings(withoutBeyondLegacy(res.Findings)), fmtFindings(oldRes.Findings)); d != "" {
			t.Fatalf("findings differ from the old scanner's, %s\ninput %q", d, in)
		}
	}

	// Read one byte at a time: same events; the same findings when the
	// scan was not stopped (after a fatal error, illegal characters are
	// listed as far as the input was read).
	var rec1 evRec
	res1 := ScanXML("p.xml", iotest.OneByteReader(bytes.NewReader(in)), lim, &rec1)
	if d := firstDiff(rec1.ev, rec.ev); d != "" || res1.Complete != res.Complete {
		t.Fatalf("byte-by-byte read: events differ, %s\ninput %q", d, in)
	}
	if res.Complete {
		if d := firstDiff(fmtFindings(res1.Findings), fmtFindings(res.Findings)); d != "" {
			t.Fatalf("byte-by-byte read: findings differ, %s\ninput %q", d, in)
		}
	}
}

func hasFatal(fs []Finding) bool {
	for _, f := range fs {
		if f.Grade == Fatal {
			return true
		}
	}
	return false
}

// edgeCases are hand-written inputs for the differential checks: every
// branch of encoding/xml's RawToken, its error messages and positions.
var edgeCases = []string{
	``, ` `, `<`, `<a`, `<a>`, `<a/>`, `<a></a>`, `<a></b>`, `</a>`, `<a/><b/>`, `x<a/>`, `<a/>x`, "<a/>\n \t\r\n",
	`<?xml version="1.0" encoding="UTF-8" standalone="yes"?><a/>`, `<?xml version="1.1"?><a/>`,
	`<?xml version='1.0' encoding='windows-1252'?><a/>`, `<?xml encoding="latin1"?><a>é</a>`, `<?xml encoding="UTF-16"?><a/>`,
	`<?xml?><a/>`, `<?x?><a/>`, `<? x?><a/>`, `<?1x?><a/>`, `<?x`, `<?x ?`, `<a><?pi data ? > ?></a>`, `<?a:b:c d?><a/>`,
	`<!-- c --><a/>`, `<!----><a/>`, `<!---><a/>-->`, `<!-- a -- b --><a/>`, `<!-x><a/>`, `<!--`, `<!-- -`, `<!-- --`, `<a><!-- < & --></a>`,
	`<a><![CDATA[x]]></a>`, `<a><![CDATA[]]></a>`, `<a><![CDATA[<&]]]]></a>`, `<a><![CDAT[x]]></a>`, `<a><![CDATA[x`, "<a><![CDATA[\r\nx\ry]]></a>",
	`<!DOCTYPE a><a/>`, `<!doctype a><a/>`, `<! DOCTYPE a><a/>`, `<!DOCTYPE a [<!ENTITY x "y">]><a>&x;</a>`, `<!ELEMENT a ANY><a/>`,
	`<!DOCTYPE a [<!-- > --> ]><a/>`, `<!DOCTYPE a "'>'"><a/>`, `<!X <>a/>`, `<!>x>`, `<!DOCTYPE`, `<!<!--x-->DOCTYPE a>`,
	`<a b="1" c='2'/>`, `<a b="1"c="2"/>`, `<a b = "1" />`, `<a b/>`, `<a b=1/>`, `<a b="1/>`, `<a b="<"/>`, `<a b="]]>"/>`, `<a / >`, `<a/ >`,
	`<a b="x&amp;y&lt;&gt;&quot;&apos;"/>`, `<a b="&#65;&#x42;&#X43;"/>`, `<a b="&#1;"/>`, `<a b="&foo;"/>`, `<a b="&amp"/>`, "<a b=\"x\r\ny\rz\n\tw\"/>",
	"<a>x\r\ny\rz</a>", "<a>\r</a>", "<a>&#13;\n</a>", "<a>\r&amp;\n</a>", `<a>&#0;</a>`, `<a>&#xD800;</a>`, `<a>&#x110000;</a>`, `<a>&#99999999999999999999;</a>`,
	`<a>&#;</a>`, `<a>&#x;</a>`, `<a>&#12a;</a>`, `<a>&#xg;</a>`, `<a>&;</a>`, `<a>& </a>`, "<a>&\n</a>", `<a>&lt</a>`, `<a>&lt`, `<a>&#`, `<a>&#x`, `<a>&#12`, `<a>&`,
	`<a>&é;</a>`, `<a>]]></a>`, `<a>]]&gt;</a>`, `<a>]>]]]></a>`, `<a>]]` + "\r" + `></a>`, `<a>x]]&amp;]]></a>`,
	`<1a/>`, `<-a/>`, `<.a/>`, `<:a/>`, `<a:/>`, `<a:b:c/>`, `<a:b xmlns:a="u"/>`, `<a:b/>`, `<é/>`, `<aé/>`, `<a` + "\u00b7" + `/>`, `<a` + "\u0300" + `/>`, "<\u0300/>",
	`<a xmlns="u"><b xmlns=""><c/></b></a>`, `<p:a xmlns:p="u"><p:b xmlns:p="v"/><p:c/></p:a>`,
	`<a xmlns:p=""><b xmlns:p="u"></b><p:c/></a>`, `<a xmlns:p="u" xmlns:p="v"><p:b/></a>`, `<a xml:lang="en" x:y="1"/>`, `<xmlns:a xmlns:xmlns="u"/>`,
	`<a xmlns:="u"/>`, `<a :b="1"/>`, `<a b:="1"/>`, `<a b:c:d="1"/>`,
	"<a>\x01</a>", "<a>x\x0by\x1fz</a>", "<a\x01b=\"1\"/>", "<a b\x01=\"1\"/>", "<a>\xef\xbf\xbe\xef\xbf\xbf</a>", "<a b=\"\x00\"/>", "<!--\x01--><a/>",
	"<a>\xff</a>", "<a b=\"\xc3\"/>", "<a>\xed\xa0\x80</a>", "<a>\xf4\x90\x80\x80</a>", "<a>é€😀</a>", "<a><![CDATA[\xff]]></a>", "<!--\xff--><a/>",
	"\xef\xbb\xbf<a/>", "\xef\xbb\xbf", "\xef\xbb", "\xff\xfe<\x00a\x00/\x00>\x00", "\xfe\xff\x00<\x00a\x00/\x00>", "\xff\xfe<\x00a\x00",
	"<a>\n<b\n/>\n</a\n>", "<\n", "</\n", "<a\n", "<a b\n", "<a b=\n", "<?\n", "<a>&\n;</a>", "<a>&#12\n</a>",
	"<a>x</a>\n\n<b/>", "<a></a>\n\xc2\xa0", "\xc2\xa0<a/>", "\xc2\x85<a/>", "<a/>\x0b", "<a/><!-- x -->", "<a/><?pi?>", "<a/><![CDATA[ ]]>", "<a/><![CDATA[x]]>",
	strings.Repeat("<a>", 300) + strings.Repeat("</a>", 300),
	"<a>" + strings.Repeat("\x01", 80) + "</a>",
	"<r>" + strings.Repeat("x", 5000) + "\xef\xbf\xbe" + strings.Repeat("y", 100) + "</r>",
	"<r>" + strings.Repeat("<e a=\"1\"/>", 700) + "&bad;</r>",
}

func TestTokenizerEdgeCases(t *testing.T) {
	for _, in := range edgeCases {
		diffCheck(t, []byte(in), len(in) <= 4000)
	}
}

// TestTokenizerChunking: every way of splitting the input between reads
// gives the same tokens (fill boundaries inside names, values, references,
// "]]>", "-->", "?>", U+FFFE).
func TestTokenizerChunking(t *testing.T) {
	in := []byte("<?xml version=\"1.0\"?>\r\n<w:doc xmlns:w=\"u\" w:a=\"x&amp;y\r\nz\"><!-- c - ->< --><w:t>a]]&gt;b&#x263A;\r\nc\xef\xbf\xbfd</w:t><![CDATA[ x]]]> ]]><?pi a?b ?>\x01</w:doc>")
	want := refTokens(in)
	var wantScan evRec
	wantRes := ScanXML("p.xml", bytes.NewReader(in), DefaultLimits(), &wantScan)
	for i := 1; i < len(in); i++ {
		for j := i; j < len(in); j++ {
			r := io.MultiReader(bytes.NewReader(in[:i]), bytes.NewReader(in[i:j]), bytes.NewReader(in[j:]))
			if got := ourTokens(r); firstDiff(got, want) != "" {
				t.Fatalf("split at %d, %d: %s", i, j, firstDiff(got, want))
			}
			var rec evRec
			r = io.MultiReader(bytes.NewReader(in[:i]), bytes.NewReader(in[i:j]), bytes.NewReader(in[j:]))
			res := ScanXML("p.xml", r, DefaultLimits(), &rec)
			if d := firstDiff(rec.ev, wantScan.ev); d != "" {
				t.Fatalf("split at %d, %d: events %s", i, j, d)
			}
			if d := firstDiff(fmtFindings(res.Findings), fmtFindings(wantRes.Findings)); d != "" {
				t.Fatalf("split at %d, %d: findings %s", i, j, d)
			}
		}
	}
}

// TestTokenizerReadErrors: a read error ends the scan with a finding after
// the data before it was scanned, as before.
func TestTokenizerReadErrors(t *testing.T) {
	boom := errors.New("zip: checksum error")
	for _, in := range []string{"<a>text", "<a>text</a>", "<a b=\"x", "<a><!-- x"} {
		var rec evRec
		res := ScanXML("p.xml", io.MultiReader(strings.NewReader(in), iotest.ErrReader(boom)), DefaultLimits(), &rec)
		var old lRec
		oldRes := legacyScanXML("p.xml", io.MultiReader(strings.NewReader(in), iotest.ErrReader(boom)), DefaultLimits(), &old, true)
		if d := firstDiff(rec.ev, old.ev); d != "" {
			t.Errorf("%q: events %s", in, d)
		}
		if d := firstDiff(fmtFindings(res.Findings), fmtFindings(oldRes.Findings)); d != "" {
			t.Errorf("%q: findings %s", in, d)
		}
		if len(res.Findings) == 0 || !strings.Contains(res.Findings[len(res.Findings)-1].Message, "checksum error") {
			t.Errorf("%q: findings %v", in, fmtFindings(res.Findings))
		}
	}
}

// TestElementReuse: an Element is handed out again only after its End, and
// then with no trace of its former life.
func TestElementReuse(t *testing.T) {
	in := `<r xmlns:p="u"><a p:x="1" y="2"><b/></a><c z="3"/><d/><a/></r>`
	h := &reuseHandler{open: map[*Element]string{}}
	res := ScanXML("p.xml", strings.NewReader(in), DefaultLimits(), h)
	if !res.Complete || len(res.Findings) > 0 || h.bad != "" {
		t.Fatalf("complete %v findings %v: %s", res.Complete, res.Findings, h.bad)
	}
	if h.reused == 0 {
		t.Errorf("no element was reused")
	}
}

type reuseHandler struct {
	open   map[*Element]string
	seen   map[*Element]bool
	reused int
	bad    string
}

func (h *reuseHandler) Start(e *Element) {
	if _, ok := h.open[e]; ok {
		h.bad += "element handed out while open; "
	}
	if h.seen == nil {
		h.seen = map[*Element]bool{}
	}
	if h.seen[e] {
		h.reused++
	}
	h.seen[e] = true
	if e.Data != nil || e.Children != 0 || e.LastChild != (xml.Name{}) {
		h.bad += "reused element keeps state; "
	}
	e.Data = e.QName()
	h.open[e] = fmtAttrs(e.Attr) + fmtAttrs(e.RawAttr)
}

func (h *reuseHandler) End(e *Element) {
	if got := fmtAttrs(e.Attr) + fmtAttrs(e.RawAttr); got != h.open[e] || e.Data != e.QName() {
		h.bad += "attributes or data changed while open; "
	}
	delete(h.open, e)
}

func (h *reuseHandler) Text(*Element, []byte) {}

// corpusXMLParts calls fn with every XML part of every file in
// $EDITAUDIT_CORPUS/{docx,pptx,xlsx,hwpx} (skips without it).
func corpusXMLParts(t testing.TB, fn func(name string, data []byte)) {
	for _, sub := range []string{"docx", "pptx", "xlsx", "hwpx"} {
		files := testdoc.CorpusGlob(t, sub+"/*")
		for _, file := range files {
			zr, err := zip.OpenReader(file)
			if err != nil {
				t.Fatalf("%s: %v", file, err)
			}
			for _, f := range zr.File {
				n := strings.ToLower(f.Name)
				if !strings.HasSuffix(n, ".xml") && !strings.HasSuffix(n, ".rels") && !strings.HasSuffix(n, ".hpf") {
					continue
				}
				rc, err := f.Open()
				if err != nil {
					t.Fatalf("%s %s: %v", file, f.Name, err)
				}
				data, err := io.ReadAll(rc)
				rc.Close()
				if err != nil {
					t.Fatalf("%s %s: %v", file, f.Name, err)
				}
				fn(filepath.Base(file)+":"+f.Name, data)
			}
			zr.Close()
		}
	}
}

// TestCorpusDifferential: every XML part of every real file gives the same
// events as encoding/xml (through the old scanner, which is encoding/xml
// alone when its filter has nothing to replace) and the same findings as
// the old scanner; parts up to 64 KiB also give the same tokens, comments
// and processing instructions included.
func TestCorpusDifferential(t *testing.T) {
	if testing.Short() {
		t.Skip("reads the whole corpus twice over")
	}
	parts, bytesRead := 0, 0
	seen := map[[32]byte]bool{}
	corpusXMLParts(t, func(name string, data []byte) {
		if sum := sha256.Sum256(data); seen[sum] {
			return // the same theme or settings part in many files
		} else {
			seen[sum] = true
		}
		parts++
		bytesRead += len(data)
		if len(data) <= 64<<10 {
			if got, want := ourTokens(bytes.NewReader(data)), refTokens(data); firstDiff(got, want) != "" {
				t.Errorf("%s: tokens %s", name, firstDiff(got, want))
				return
			}
		}
		var rec evRec
		res := ScanXML(name, bytes.NewReader(data), DefaultLimits(), &rec)
		var old lRec
		oldRes := legacyScanXML(name, bytes.NewReader(data), DefaultLimits(), &old, true)
		if d := firstDiff(rec.ev, old.ev); d != "" {
			t.Errorf("%s: events %s", name, d)
		}
		if d := firstDiff(fmtFindings(res.Findings), fmtFindings(oldRes.Findings)); d != "" || res.Complete != oldRes.Complete {
			t.Errorf("%s: findings %s (complete %v, old %v)", name, d, res.Complete, oldRes.Complete)
		}
		if bytes.Equal(replaceIllegal(data), data) {
			return // the old scanner's filter changed nothing: it was encoding/xml alone
		}
		var pure lRec
		if pureRes := legacyScanXML(name, bytes.NewReader(data), DefaultLimits(), &pure, false); acceptedByEncodingXML(pureRes) {
			if d := firstDiff(rec.ev, pure.ev); d != "" {
				t.Errorf("%s: events differ from encoding/xml's: %s", name, d)
			}
		}
	})
	t.Logf("%d distinct XML parts, %d bytes", parts, bytesRead)
	if parts == 0 {
		t.Fatal("no XML parts in the corpus")
	}
}

// FuzzTokenizerVsEncodingXML: see diffCheck. Seeds: the edge cases and,
// with $EDITAUDIT_CORPUS, the smaller real XML parts.
func FuzzTokenizerVsEncodingXML(f *testing.F) {
	for _, in := range edgeCases {
		f.Add([]byte(in))
	}
	if os.Getenv("EDITAUDIT_CORPUS") != "" {
		n := 0
		corpusXMLParts(f, func(_ string, data []byte) {
			if len(data) <= 8<<10 && n < 200 {
				f.Add(data)
				n++
			}
		})
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		diffCheck(t, in, len(in) <= 4000)
	})
}

// TestIllegalAfterError: after a fatal error the illegal characters up to
// 4 KiB past it are still listed, the same whatever the reads were like;
// those further on are not.
func TestIllegalAfterError(t *testing.T) {
	in := "<a>&bad;" + strings.Repeat("x", 100) + "\x01" + strings.Repeat("y", errContext) + "\x02</a>"
	for _, r := range []io.Reader{strings.NewReader(in), iotest.OneByteReader(strings.NewReader(in)), iotest.HalfReader(strings.NewReader(in))} {
		res := ScanXML("p.xml", r, DefaultLimits(), nil)
		got := codesOf(res.Findings)
		if strings.Join(got, ",") != CodeXMLIllegalChar+","+CodeXMLNotWellFormed || !strings.Contains(res.Findings[0].Message, "U+0001") {
			t.Errorf("findings %v", fmtFindings(res.Findings))
		}
	}
}

// TestTokenLimitPerToken: the limit counts the bytes of one token of any
// kind, at the limit it passes, one byte more it stops the scan, and the
// finding points at the token's start.
func TestTokenLimitPerToken(t *testing.T) {
	lim := DefaultLimits()
	lim.MaxTokenSize = 64
	for _, tc := range []struct {
		name, pre, mid string
		fixed          int // bytes of the token besides mid
	}{
		{"comment", "<r>\n  ", "-", 7}, // "<!--" + mid + "-->"
		{"cdata", "<r>\n  ", "<", 12},
		{"pi", "<r>\n  ", "<", 7},
		{"text", "<r>", ">", 0}, // the text node starts right after <r>
		{"value", "<r>\n  ", ">", 9},
		{"doctype", "\n  ", "<", 15},
	} {
		for _, over := range []bool{false, true} {
			n := lim.MaxTokenSize - tc.fixed
			if over {
				n++
			}
			mid := strings.Repeat(tc.mid, n)
			var tok string
			switch tc.name {
			case "comment":
				tok = "<!--" + strings.Repeat("x", n) + "-->"
			case "cdata":
				tok = "<![CDATA[" + mid + "]]>"
			case "pi":
				tok = "<?pi " + mid + "?>"
			case "text":
				tok = mid
			case "value":
				tok = `<e a="` + mid + `"/>`
			case "doctype":
				tok = "<!DOCTYPE r [" + strings.Repeat("x", n) + "]>"
			}
			if len(tok) != lim.MaxTokenSize+map[bool]int{false: 0, true: 1}[over] {
				t.Fatalf("%s: token of %d bytes", tc.name, len(tok))
			}
			in := tc.pre + tok + "</r>"
			if tc.name == "doctype" {
				in = tc.pre + tok + "<r/>"
			}
			res := ScanXML("p.xml", strings.NewReader(in), lim, nil)
			tooBig := hasCode(res.Findings, CodeXMLTokenTooLarge)
			if tooBig != over {
				t.Errorf("%s over=%v: findings %v", tc.name, over, fmtFindings(res.Findings))
				continue
			}
			if over {
				f := res.Findings[len(res.Findings)-1]
				line, col := 2, 3
				if tc.name == "text" {
					line, col = 1, 4
				}
				if f.Line != line || f.Column != col || res.Complete {
					t.Errorf("%s: at %d:%d complete %v, want %d:%d, false", tc.name, f.Line, f.Column, res.Complete, line, col)
				}
			}
		}
	}
}
