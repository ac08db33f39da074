package formats

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Element is one open XML element during a scan. Handlers may read it and
// keep per-element state in Data; they must not keep the pointer, nor its
// Attr or RawAttr slices, after End: the scanner reuses the Element for a
// later start tag.
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
	// Line and Column locate the start tag's '<' (1-based; the column
	// counts bytes, as encoding/xml's InputPos does).
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

	qname       string // the name as written (interned by the scanner)
	childCounts []nameCount
	childIdx    map[string]int // name → index in childCounts, once there are many
	attrs       []xml.Attr     // backing store of RawAttr and Attr, reused
	nsN         int            // namespace declarations this element made
}

type nameCount struct {
	name string
	n    int
}

// QName returns the name as written, "w:tbl".
func (e *Element) QName() string {
	if e.qname != "" {
		return e.qname
	}
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
//
// The tokens, decoded text and well-formedness errors are those of
// encoding/xml's Decoder.RawToken in Strict mode (xmltok.go reads them
// without its allocations); Element values are reused after End.
func ScanXML(part string, r io.Reader, lim Limits, h Handler) ScanResult {
	if h == nil {
		h = NopHandler{}
	}
	s := &scanner{part: part, lim: lim, h: h}
	return s.run(r)
}

type scanner struct {
	perCode map[string]int
	part    string
	lim     Limits
	h       Handler
	t       *xmlTokenizer
	res     ScanResult
	stack   []*Element
	free    []*Element
	ns      []nsBinding
	nsGen   int // changes whenever ns does (for the lookup cache)
	cache   struct {
		gen            int
		prefix, uri    string
		found, present bool
	}
	hasRoot bool
}

// nsBinding is one namespace declaration in scope. A declaration whose
// prefix was unbound (or bound to "") before it leaves the prefix unbound
// when it goes out of scope, as the map the scanner kept before did.
type nsBinding struct {
	prefix, uri, prev string
	dead              bool
}

func (s *scanner) run(r io.Reader) ScanResult {
	maxIll := 0
	if s.lim.MaxFindingsPerCode > 0 {
		maxIll = s.lim.MaxFindingsPerCode + 1 // one more than listed: the cap's own finding
	}
	t := newXMLTokenizer(r, s.lim.MaxTokenSize, maxIll)
	s.t = t
	s.ns = append(s.ns, nsBinding{prefix: "xml", uri: "http://www.w3.org/XML/1998/namespace"})
	for {
		k := t.next()
		if k == tokEOF || k == tokErr {
			if k == tokErr {
				// Illegal characters a little past the error are listed
				// too, whatever the reads were like.
				t.drainTo(t.errOff + errContext)
				s.flushChars(t.errOff + errContext)
			} else {
				s.flushChars(1 << 62) // everything
			}
			if k == tokEOF {
				if len(s.stack) > 0 {
					s.addSyntax(fmt.Sprintf("the part ends inside <%s>: the end tag is missing", s.stack[len(s.stack)-1].QName()), s.stack[len(s.stack)-1].Locator())
					return s.res
				}
				if !s.hasRoot {
					s.addSyntax("the part has no root element", "")
					return s.res
				}
				s.res.Complete = true
				return s.res
			}
			s.fail(t.err)
			return s.res
		}
		s.flushChars(t.offset(t.pos))
		switch k {
		case tokStart:
			if len(s.stack) == 0 && s.hasRoot {
				s.addSyntax(fmt.Sprintf("a second root element <%s> follows the first; a part has exactly one root", t.name.raw), "")
				return s.res
			}
			line, col := t.posAt(t.start, false)
			if len(s.stack) >= s.lim.MaxDepth {
				s.add(Finding{Code: CodeXMLTooDeep, Grade: Fatal, Line: line, Column: col,
					Locator: s.stack[len(s.stack)-1].Locator(),
					Message: fmt.Sprintf("elements nest deeper than %d levels; the scan stopped here", s.lim.MaxDepth),
					Fix:     "flatten the structure; real documents never nest this deep", Anchor: "depth"})
				return s.res
			}
			e := s.open(line, col)
			s.h.Start(e)
			if t.selfClose {
				s.h.End(e)
				s.close(e)
			}
		case tokEnd:
			if len(s.stack) == 0 {
				s.addSyntax(fmt.Sprintf("end tag </%s> without a start tag", t.name.raw), "")
				return s.res
			}
			top := s.stack[len(s.stack)-1]
			if t.name.raw != top.qname {
				s.addSyntax(fmt.Sprintf("end tag </%s> does not match the open element <%s>", t.name.raw, top.qname), top.Locator())
				return s.res
			}
			s.h.End(top)
			s.close(top)
		case tokText, tokCDATA:
			if len(s.stack) == 0 {
				if len(bytes.TrimSpace(t.text)) > 0 {
					s.addSyntax("text outside the root element", "")
					return s.res
				}
				continue
			}
			s.h.Text(s.stack[len(s.stack)-1], t.text)
		case tokProcInst:
			// XML 1.0 §2.8 and §2.6: the XML declaration, when present, is
			// the very first thing in the entity; a PI named xml anywhere
			// else is a well-formedness error (a template engine writing a
			// newline before <?xml).
			if strings.EqualFold(t.target, "xml") && t.offset(t.start) != 0 {
				line, col := t.posAt(t.start, false)
				s.add(Finding{Code: CodeXMLNotWellFormed, Grade: Fatal, Line: line, Column: col,
					Message: "the XML is not well-formed: the XML declaration <?xml …?> is not at the very start of the part (something, even a blank line, comes before it)",
					Fix:     "remove everything before <?xml (blank lines, spaces, text) so the declaration is the first thing in the part",
					Anchor:  "decl-not-first"})
			}
		case tokDirective:
			// XML 1.0 §2.8. OOXML parts never carry a DTD (ECMA-376 part 2
			// §8.1.4: "MS shall not use DTD declarations"); a DOCTYPE is how
			// XXE and billion-laughs attacks arrive, and Word refuses it.
			if bytes.HasPrefix(bytes.TrimSpace(t.text), []byte("DOCTYPE")) {
				line, col := t.posAt(t.start, false)
				s.add(Finding{Code: CodeXMLDoctype, Grade: Fatal, Line: line, Column: col,
					Message: "the part declares a DOCTYPE (a DTD); Office packages must not, and its entities were not expanded (external-entity and entity-expansion attacks use it)",
					Fix:     "remove the <!DOCTYPE …> declaration and any entity references it defines", Anchor: "doctype"})
				return s.res
			}
		}
	}
}

// lookup returns the namespace URI bound to prefix ("" for the default
// namespace) and whether it is bound.
func (s *scanner) lookup(prefix string) (string, bool) {
	c := &s.cache
	if c.present && c.gen == s.nsGen && c.prefix == prefix {
		return c.uri, c.found
	}
	uri, found := "", false
	for i := len(s.ns) - 1; i >= 0; i-- {
		if b := &s.ns[i]; b.prefix == prefix {
			if !b.dead {
				uri, found = b.uri, true
			}
			break
		}
	}
	c.present, c.gen, c.prefix, c.uri, c.found = true, s.nsGen, prefix, uri, found
	return uri, found
}

// open pushes a new element for the start tag just read, resolving
// namespaces (XML Namespaces 1.0 §6; RawToken does not).
func (s *scanner) open(line, col int) *Element {
	t := s.t
	var parent *Element
	if len(s.stack) > 0 {
		parent = s.stack[len(s.stack)-1]
	}
	var e *Element
	if n := len(s.free); n > 0 {
		e = s.free[n-1]
		s.free = s.free[:n-1]
		*e = Element{childCounts: e.childCounts[:0], attrs: e.attrs[:0]}
	} else {
		e = &Element{}
	}
	name := t.name
	e.Prefix, e.qname, e.Line, e.Column, e.Depth, e.Parent = name.prefix, name.raw, line, col, len(s.stack)+1, parent
	nAttr := len(t.attrs)
	if nAttr > 0 {
		store := e.attrs[:0]
		if cap(store) < 2*nAttr {
			store = make([]xml.Attr, 0, 2*nAttr)
		}
		store = store[:nAttr]
		for i, a := range t.attrs {
			store[i] = xml.Attr{Name: xml.Name{Space: a.name.prefix, Local: a.name.local}, Value: a.value}
			switch {
			case a.name.prefix == "xmlns":
				s.declare(a.name.local, a.value)
				e.nsN++
			case a.name.prefix == "" && a.name.local == "xmlns":
				s.declare("", a.value)
				e.nsN++
			}
		}
		e.attrs = store
		e.RawAttr = store[:nAttr:nAttr]
	}
	uri, bound := s.lookup(name.prefix)
	e.Name = xml.Name{Space: uri, Local: name.local}
	if name.prefix != "" && !bound {
		s.add(Finding{Code: CodeXMLNotWellFormed, Grade: Fatal, Line: line, Column: col,
			Message: fmt.Sprintf("the prefix %q of <%s:%s> is not bound to a namespace", name.prefix, name.prefix, name.local),
			Fix:     fmt.Sprintf("declare xmlns:%s on the root element or use a declared prefix", name.prefix),
			Anchor:  "prefix:" + name.prefix})
	}
	if nAttr > 0 {
		attr := e.attrs[nAttr:nAttr]
		for _, a := range t.attrs {
			n := a.name
			if n.prefix == "xmlns" || (n.prefix == "" && n.local == "xmlns") {
				continue
			}
			space := ""
			if n.prefix != "" {
				var bound bool
				space, bound = s.lookup(n.prefix)
				if !bound {
					// Namespaces in XML 1.0 §5 (Namespace constraint: Prefix
					// Declared) applies to attributes as to elements: a
					// paragraph pasted with w14:paraId into a part whose root
					// does not declare w14.
					s.add(Finding{Code: CodeXMLNotWellFormed, Grade: Fatal, Line: line, Column: col,
						Message: fmt.Sprintf("the prefix %q of the attribute %s:%s on <%s> is not bound to a namespace", n.prefix, n.prefix, n.local, name.raw),
						Fix:     fmt.Sprintf("declare xmlns:%s on the root element, or remove the attribute", n.prefix),
						Anchor:  "attr-prefix:" + n.prefix})
				}
			}
			if space == NSMarkupCompat || (space == "" && n.local == "Requires" && e.Name.Space == NSMarkupCompat && e.Name.Local == "Choice") {
				s.checkMCPrefixes(n.local, a.value, line, col)
			}
			attr = append(attr, xml.Attr{Name: xml.Name{Space: space, Local: n.local}, Value: a.value})
		}
		e.Attr = attr
	}
	if parent != nil {
		parent.Children++
		e.Index = parent.childIndex(e.qname)
	} else {
		s.hasRoot = true
		s.res.Root = e.Name
		e.Index = 1
	}
	s.stack = append(s.stack, e)
	return e
}

// NSMarkupCompat is the Markup Compatibility namespace (ECMA-376 Part 3).
const NSMarkupCompat = "http://schemas.openxmlformats.org/markup-compatibility/2006"

// checkMCPrefixes applies ECMA-376 Part 3 §10.1.1 (and §10.2.1 for
// mc:Choice/@Requires): every prefix listed in mc:Ignorable,
// mc:MustUnderstand or Requires must be declared in scope. Word refuses
// the file otherwise (MarkupRules, CodeXMLMCPrefix).
func (s *scanner) checkMCPrefixes(attr, value string, line, col int) {
	if attr != "Ignorable" && attr != "MustUnderstand" && attr != "Requires" {
		return
	}
	for _, p := range strings.Fields(value) {
		if _, ok := s.lookup(p); ok {
			continue
		}
		what := "mc:" + attr
		if attr == "Requires" {
			what = "mc:Choice Requires"
		}
		s.add(Finding{Code: CodeXMLMCPrefix, Grade: Fatal, Line: line, Column: col,
			Message: fmt.Sprintf("%s=%q lists the prefix %q, which is not declared here; the Markup Compatibility rules make that an error and Word refuses the file (\"unreadable content\")", what, value, p),
			Fix:     fmt.Sprintf("declare xmlns:%s on the root element (with the namespace it stands for), or remove %q from %s", p, p, what),
			Anchor:  "mc:" + attr + " " + p})
	}
}

// manyChildNames is how many distinct child names an element holds before
// their counts are indexed by a map (a linear search stays faster below).
const manyChildNames = 32

// childIndex counts one more child named q and returns its 1-based
// position among the children of that name.
func (e *Element) childIndex(q string) int {
	if e.childIdx != nil {
		if i, ok := e.childIdx[q]; ok {
			e.childCounts[i].n++
			return e.childCounts[i].n
		}
	} else {
		for i := range e.childCounts {
			if e.childCounts[i].name == q {
				e.childCounts[i].n++
				return e.childCounts[i].n
			}
		}
	}
	e.childCounts = append(e.childCounts, nameCount{q, 1})
	switch n := len(e.childCounts); {
	case e.childIdx != nil:
		e.childIdx[q] = n - 1
	case n > manyChildNames:
		e.childIdx = make(map[string]int, 2*n)
		for i, c := range e.childCounts {
			e.childIdx[c.name] = i
		}
	}
	return 1
}

// declare binds prefix to uri until the declaring element ends.
func (s *scanner) declare(prefix, uri string) {
	prev, _ := s.lookup(prefix)
	s.ns = append(s.ns, nsBinding{prefix: prefix, uri: uri, prev: prev})
	s.nsGen++
}

// close pops e (after its End) and returns it to the free list: handlers
// do not keep elements after End.
func (s *scanner) close(e *Element) {
	for ; e.nsN > 0; e.nsN-- {
		b := s.ns[len(s.ns)-1]
		s.ns = s.ns[:len(s.ns)-1]
		if b.prev == "" {
			for i := len(s.ns) - 1; i >= 0; i-- {
				if s.ns[i].prefix == b.prefix {
					s.ns[i].dead = true
					break
				}
			}
		}
		s.nsGen++
	}
	s.stack = s.stack[:len(s.stack)-1]
	if e.Parent != nil {
		e.Parent.LastChild = e.Name
	}
	e.Data, e.Parent = nil, nil
	s.free = append(s.free, e)
}

// add appends a finding, capping each code at lim.MaxFindingsPerCode.
func (s *scanner) add(f Finding) {
	f.Part = s.part
	// Messages quote the input (an entity name, a tag name); a part that
	// is not UTF-8 must not make them invalid text in every report.
	f.Message = strings.ToValidUTF8(f.Message, "\uFFFD")
	f.Anchor = strings.ToValidUTF8(f.Anchor, "\uFFFD")
	f.Locator = strings.ToValidUTF8(f.Locator, "\uFFFD")
	f.Fix = strings.ToValidUTF8(f.Fix, "\uFFFD")
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

// addSyntax reports a well-formedness error at the current position.
func (s *scanner) addSyntax(msg, loc string) {
	line, col := s.t.posAt(s.t.pos, false)
	s.addSyntaxAt(msg, loc, line, col)
}

func (s *scanner) addSyntaxAt(msg, loc string, line, col int) {
	s.add(Finding{Code: CodeXMLNotWellFormed, Grade: Fatal, Line: line, Column: col, Locator: loc,
		Message: "the XML is not well-formed: " + msg,
		Fix:     "repair the markup at this position (unescaped & or <, a missing or mismatched end tag); Office refuses or repairs parts that do not parse",
		Anchor:  msg})
}

// fail turns a tokenizer or read error into a finding.
func (s *scanner) fail(err error) {
	var loc string
	if len(s.stack) > 0 {
		loc = s.stack[len(s.stack)-1].Locator()
	}
	line, col := s.t.errLine, s.t.errCol
	switch {
	case errors.Is(err, ErrTokenTooLarge):
		s.add(Finding{Code: CodeXMLTokenTooLarge, Grade: Fatal, Line: line, Column: col, Locator: loc,
			Message: fmt.Sprintf("one XML token (a tag, a text node, a comment, a CDATA section, a processing instruction or a DOCTYPE) starting here is longer than %d bytes; the scan stopped", s.lim.MaxTokenSize),
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
		s.addSyntaxAt(msg, loc, line, col)
		return
	}
	// An I/O error from the zip reader (CRC, truncated entry).
	s.add(Finding{Code: CodeXMLNotWellFormed, Grade: Fatal, Line: line, Column: col, Locator: loc,
		Message: "the part could not be read to the end: " + err.Error(),
		Fix:     "the zip entry is damaged; re-save the document from its source", Anchor: "read:" + err.Error()})
}

// flushChars turns the illegal characters the tokenizer replaced before
// stream offset upto into findings.
func (s *scanner) flushChars(upto int64) {
	for _, c := range s.t.take(upto) {
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
