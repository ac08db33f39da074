package formats

import (
	"bufio"
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/encoding/unicode"
	"golang.org/x/text/transform"
)

// Element is one open XML element during a scan. Handlers may read it and
// keep per-element state in Data; they must not keep the pointer after End.
type Element struct {
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
	Parent *Element
	// Children is the number of child elements seen so far; LastChild is
	// the name of the most recently closed child.
	Children  int
	LastChild xml.Name
	// Data is free for the handler.
	Data any

	childCounts []nameCount
	nsDecl      []nsBinding
}

type nameCount struct {
	name string
	n    int
}

type nsBinding struct{ prefix, uri, prev string }

// QName returns the name as written, "w:tbl".
func (e *Element) QName() string {
	if e.Prefix == "" {
		return e.Name.Local
	}
	return e.Prefix + ":" + e.Name.Local
}

// Is reports whether the element has local name local in one of the
// namespaces nss (Transitional and Strict URIs are usually both given).
func (e *Element) Is(local string, nss ...string) bool {
	if e.Name.Local != local {
		return false
	}
	for _, ns := range nss {
		if e.Name.Space == ns {
			return true
		}
	}
	return len(nss) == 0
}

// Get returns the attribute with local name local in namespace space
// ("" for an unprefixed attribute).
func (e *Element) Get(space, local string) (string, bool) {
	for _, a := range e.Attr {
		if a.Name.Local == local && a.Name.Space == space {
			return a.Value, true
		}
	}
	return "", false
}

// GetAny returns the first attribute with local name local, whatever its
// namespace (for attributes written with either the Transitional or the
// Strict namespace).
func (e *Element) GetAny(local string) (string, bool) {
	for _, a := range e.Attr {
		if a.Name.Local == local {
			return a.Value, true
		}
	}
	return "", false
}

// Locator returns the XPath-like path of the element with positions, e.g.
// /w:document/w:body/w:tbl[2]/w:tr[3]/w:tc[1].
func (e *Element) Locator() string {
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

// Handler receives the events of one XML part, in document order.
type Handler interface {
	// Start is called after e's start tag was read (e.Children is 0).
	Start(e *Element)
	// End is called at e's end tag, with all children seen.
	End(e *Element)
	// Text is called with character data directly inside e (CDATA
	// included). The slice is only valid during the call.
	Text(e *Element, text []byte)
}

// NopHandler ignores every event; embed it to implement only some methods.
type NopHandler struct{}

// Start implements Handler.
func (NopHandler) Start(*Element) {}

// End implements Handler.
func (NopHandler) End(*Element) {}

// Text implements Handler.
func (NopHandler) Text(*Element, []byte) {}

// ScanResult is what a scan of one XML part found.
type ScanResult struct {
	// Findings are the XML-level problems (well-formedness, illegal
	// characters, DOCTYPE, limits), in document order.
	Findings []Finding
	// Complete is false when the scan stopped before the end of the part.
	Complete bool
	// Root is the root element's name (zero when none was read).
	Root xml.Name
}

// ScanXML reads one XML part from r and calls h for its events. It never
// resolves DTDs or entities (a DOCTYPE is itself a finding and ends the
// scan), enforces lim.MaxDepth and lim.MaxTokenSize, and reports every
// XML-illegal character (XML 1.0 §2.2 Char production) with its code point,
// line, column and an excerpt, continuing past it. part names the part in
// findings. h may be nil.
func ScanXML(part string, r io.Reader, lim Limits, h Handler) ScanResult {
	if h == nil {
		h = NopHandler{}
	}
	s := &scanner{part: part, lim: lim, h: h}
	return s.run(r)
}

type scanner struct {
	off     int64 // the decoder's input offset after the last token
	perCode map[string]int
	part    string
	lim     Limits
	h       Handler
	f       *charFilter
	res     ScanResult
	stack   []*Element
	ns      map[string]string
	root    *Element
}

// decodeInput strips a UTF-8 byte order mark and transcodes a UTF-16 part
// (allowed by OPC, ECMA-376 part 2 §8.1.4) to UTF-8.
func decodeInput(r io.Reader) io.Reader {
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

func (s *scanner) run(r io.Reader) ScanResult {
	s.f = newCharFilter(decodeInput(r), s.lim.MaxTokenSize)
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
				s.addSyntax(d, fmt.Sprintf("a second root element <%s> follows the first; a part has exactly one root", qname(t.Name)), "")
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
				s.addSyntax(d, fmt.Sprintf("end tag </%s> without a start tag", qname(t.Name)), "")
				return s.res
			}
			top := s.stack[len(s.stack)-1]
			if qname(t.Name) != top.QName() {
				s.addSyntax(d, fmt.Sprintf("end tag </%s> does not match the open element <%s>", qname(t.Name), top.QName()), top.Locator())
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

func qname(n xml.Name) string {
	if n.Space == "" {
		return n.Local
	}
	return n.Space + ":" + n.Local
}

// open pushes a new element, resolving namespaces (RawToken does not).
func (s *scanner) open(t xml.StartElement, line, col int) *Element {
	var parent *Element
	if len(s.stack) > 0 {
		parent = s.stack[len(s.stack)-1]
	}
	e := &Element{Prefix: t.Name.Space, Line: line, Column: col, Depth: len(s.stack) + 1, Parent: parent, RawAttr: t.Attr}
	for _, a := range t.Attr {
		switch {
		case a.Name.Space == "xmlns":
			e.nsDecl = append(e.nsDecl, nsBinding{a.Name.Local, a.Value, s.ns[a.Name.Local]})
			s.ns[a.Name.Local] = a.Value
		case a.Name.Space == "" && a.Name.Local == "xmlns":
			e.nsDecl = append(e.nsDecl, nsBinding{"", a.Value, s.ns[""]})
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
			parent.childCounts = append(parent.childCounts, nameCount{q, 1})
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

func (s *scanner) close(e *Element) {
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
func (s *scanner) add(f Finding) {
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

func (s *scanner) addSyntax(d *xml.Decoder, msg, loc string) {
	line, col := d.InputPos()
	s.add(Finding{Code: CodeXMLNotWellFormed, Grade: Fatal, Line: line, Column: col, Locator: loc,
		Message: "the XML is not well-formed: " + msg,
		Fix:     "repair the markup at this position (unescaped & or <, a missing or mismatched end tag); Office refuses or repairs parts that do not parse",
		Anchor:  msg})
}

// fail turns a decoder or filter error into a finding.
func (s *scanner) fail(d *xml.Decoder, err error) {
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
func (s *scanner) flushChars() {
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

// illegal is one XML-illegal character seen by the filter.
type illegal struct {
	r         rune
	off       int64
	line, col int
	excerpt   []byte
	need      int // bytes of "after" context still to collect
	skip      int // bytes of the character itself still to skip
}

// charFilter passes bytes through to the decoder, replacing XML-illegal
// characters with spaces (so one bad character does not hide the rest of
// the part) and recording where they were; it also tracks line and column
// and the longest run between markup delimiters (the token-size limit).
type charFilter struct {
	r       io.Reader
	maxTok  int
	off     int64
	line    int
	col     int
	tokLen  int
	ring    [excerptLen]byte // the last bytes seen, for excerpts
	ringN   int              // bytes written to ring in all
	pending []*illegal
	open    int // pending entries still collecting context
}

const excerptLen = 24

func newCharFilter(r io.Reader, maxTok int) *charFilter {
	return &charFilter{r: r, maxTok: maxTok, line: 1, col: 1}
}

// take returns the recorded characters at offsets below upto (the
// decoder's position), so the caller knows the element they are in.
func (f *charFilter) take(upto int64) []illegal {
	var out []illegal
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

func (f *charFilter) Read(p []byte) (int, error) {
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
func (f *charFilter) record(r rune, size int) {
	n := min(f.ringN, excerptLen)
	ex := make([]byte, 0, n+2*excerptLen)
	for i := f.ringN - n; i < f.ringN; i++ {
		ex = append(ex, f.ring[i%excerptLen])
	}
	ex = append(ex, fmt.Sprintf("\\u%04X", r)...)
	f.pending = append(f.pending, &illegal{r: r, off: f.off, line: f.line, col: f.col, excerpt: ex, need: excerptLen, skip: size})
	f.open++
}

// feed appends b to the excerpt ring and to pending excerpts.
func (f *charFilter) feed(b byte) {
	f.ring[f.ringN%excerptLen] = b
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

// sanitizeExcerpt makes an excerpt printable on one line and valid UTF-8.
func sanitizeExcerpt(s string) string {
	s = strings.ToValidUTF8(s, "")
	// Drop a rune cut at either end.
	for len(s) > 0 {
		r, size := utf8.DecodeRuneInString(s)
		if r != utf8.RuneError || size > 1 {
			break
		}
		s = s[1:]
	}
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '\n' || r == '\r' || r == '\t':
			b.WriteByte(' ')
		case r < 0x20:
			fmt.Fprintf(&b, "\\u%04X", r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
