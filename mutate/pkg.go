package mutate

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/beevik/etree"
	"github.com/editaudit/editaudit/formats"
	"github.com/editaudit/editaudit/formats/docx"
	"github.com/editaudit/editaudit/formats/pptx"
)

// Package helpers shared by the injectors: XML parts as etree documents,
// content types, relationships and reachability.

const ctPart = "[Content_Types].xml"

// loadXML parses a part.
func loadXML(p *zpkg, name string) (*etree.Document, error) {
	data, err := p.read(name)
	if err != nil {
		return nil, err
	}
	doc := etree.NewDocument()
	if err := doc.ReadFromBytes(data); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if doc.Root() == nil {
		return nil, fmt.Errorf("%s: no root element", name)
	}
	return doc, nil
}

// saveXML writes a part back.
func saveXML(p *zpkg, name string, doc *etree.Document) error {
	data, err := doc.WriteToBytes()
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	p.set(name, data)
	return nil
}

// is reports whether el is the element local in namespace ns (or its
// strict twin).
func is(el *etree.Element, ns, local string) bool {
	return el != nil && el.Tag == local && sameNS(el.NamespaceURI(), ns)
}

// walk visits el and its descendants in document order; visit returns
// false to skip an element's children.
func walk(el *etree.Element, visit func(*etree.Element) bool) {
	if !visit(el) {
		return
	}
	for _, c := range el.ChildElements() {
		walk(c, visit)
	}
}

// descendants returns every descendant of el named ns:local, in order.
func descendants(el *etree.Element, ns, local string) []*etree.Element {
	var out []*etree.Element
	for _, c := range el.ChildElements() {
		walk(c, func(e *etree.Element) bool {
			if is(e, ns, local) {
				out = append(out, e)
			}
			return true
		})
	}
	return out
}

// children returns the child elements of el named ns:local.
func children(el *etree.Element, ns, local string) []*etree.Element {
	var out []*etree.Element
	for _, c := range el.ChildElements() {
		if is(c, ns, local) {
			out = append(out, c)
		}
	}
	return out
}

// Namespaces the injectors match elements by (the formats' names for
// them). The relationship attributes and DrawingML are also accepted in
// their Strict (ISO/IEC 29500) form, see sameNS.
const (
	nsW = docx.NSW
	nsP = pptx.NSPresentationT
	nsA = pptx.NSDrawingT
	nsR = formats.NSRelsT
)

// sameNS reports whether got is ns or, for the relationship and DrawingML
// namespaces, its Strict twin.
func sameNS(got, ns string) bool {
	switch ns {
	case nsR:
		return got == nsR || got == formats.NSRelsS
	case nsA:
		return got == nsA || got == pptx.NSDrawingS
	}
	return got == ns
}

// attrNS returns the value of the attribute local in namespace ns.
func attrNS(el *etree.Element, ns, local string) (string, bool) {
	for _, a := range el.Attr {
		if a.Key == local && a.Space != "" && sameNS(a.NamespaceURI(), ns) {
			return a.Value, true
		}
	}
	return "", false
}

// relEntry is one relationship of a .rels part.
type relEntry struct {
	id, typ, target string // target resolved to a part name ("" if external)
	el              *etree.Element
}

// readRels returns the relationships of part ("" for the package; none
// if it has no .rels), their targets resolved as the validators resolve
// them (formats.ResolveTarget).
func readRels(p *zpkg, part string) ([]relEntry, *etree.Document, error) {
	name := formats.RelsPartOf(part)
	if !p.has(name) {
		return nil, nil, nil
	}
	doc, err := loadXML(p, name)
	if err != nil {
		return nil, nil, err
	}
	var out []relEntry
	for _, r := range doc.Root().ChildElements() {
		if r.Tag != "Relationship" {
			continue
		}
		e := relEntry{id: r.SelectAttrValue("Id", ""), typ: r.SelectAttrValue("Type", ""), el: r}
		if !strings.EqualFold(r.SelectAttrValue("TargetMode", ""), "External") {
			e.target = formats.ResolveTarget(part, r.SelectAttrValue("Target", ""))
		}
		out = append(out, e)
	}
	return out, doc, nil
}

// mainPart returns the part the package relationship officeDocument names.
func mainPart(p *zpkg) (string, error) {
	rs, _, err := readRels(p, "")
	if err != nil {
		return "", err
	}
	for _, r := range rs {
		if strings.HasSuffix(r.typ, "/officeDocument") && r.target != "" {
			return r.target, nil
		}
	}
	return "", fmt.Errorf("%w: no officeDocument relationship", ErrNotApplicable)
}

// reachable returns every part reachable from the package relationships.
func reachable(p *zpkg) (map[string]bool, error) {
	seen := map[string]bool{}
	queue := []string{""}
	for len(queue) > 0 {
		part := queue[0]
		queue = queue[1:]
		rs, _, err := readRels(p, part)
		if err != nil {
			return nil, err
		}
		for _, r := range rs {
			if r.target != "" && !seen[r.target] && p.has(r.target) {
				seen[r.target] = true
				queue = append(queue, r.target)
			}
		}
	}
	return seen, nil
}

// dropUnreachable removes the parts that were reachable before an edit and
// are not any more — what python-docx, python-pptx and openpyxl do on save,
// since they write only the parts they can reach — with their .rels parts
// and content-type Overrides. It returns the removed part names.
func dropUnreachable(p *zpkg, before map[string]bool) ([]string, error) {
	after, err := reachable(p)
	if err != nil {
		return nil, err
	}
	var gone []string
	for part := range before {
		if !after[part] {
			gone = append(gone, part)
		}
	}
	sort.Strings(gone)
	for _, part := range gone {
		p.remove(part)
		p.remove(formats.RelsPartOf(part))
	}
	if len(gone) > 0 {
		if err := editContentTypes(p, func(ct *etree.Element) {
			for _, part := range gone {
				removeOverride(ct, part)
			}
		}); err != nil {
			return nil, err
		}
	}
	return gone, nil
}

// editContentTypes applies fn to the root of [Content_Types].xml.
func editContentTypes(p *zpkg, fn func(root *etree.Element)) error {
	doc, err := loadXML(p, ctPart)
	if err != nil {
		return err
	}
	fn(doc.Root())
	return saveXML(p, ctPart, doc)
}

// removeOverride removes the Override of part; it reports whether one was
// there. Part names compare case-insensitively (OPC part 2 §9.1.1.2).
func removeOverride(ct *etree.Element, part string) bool {
	found := false
	for _, o := range ct.ChildElements() {
		if o.Tag == "Override" && strings.EqualFold(strings.TrimPrefix(o.SelectAttrValue("PartName", ""), "/"), part) {
			ct.RemoveChild(o)
			found = true
		}
	}
	return found
}

// defaultFor returns the Default element for an extension, or nil.
func defaultFor(ct *etree.Element, ext string) *etree.Element {
	for _, d := range ct.ChildElements() {
		if d.Tag == "Default" && strings.EqualFold(d.SelectAttrValue("Extension", ""), ext) {
			return d
		}
	}
	return nil
}

// slideParts returns the slide parts of a deck in presentation order, with
// the sldId elements and the presentation relationships.
func slideParts(p *zpkg) (pres string, parts []string, err error) {
	pres, err = mainPart(p)
	if err != nil {
		return "", nil, err
	}
	doc, err := loadXML(p, pres)
	if err != nil {
		return "", nil, err
	}
	rs, _, err := readRels(p, pres)
	if err != nil {
		return "", nil, err
	}
	byID := map[string]string{}
	for _, r := range rs {
		byID[r.id] = r.target
	}
	for _, lst := range children(doc.Root(), nsP, "sldIdLst") {
		for _, s := range children(lst, nsP, "sldId") {
			rid, _ := attrNS(s, nsR, "id")
			if t := byID[rid]; t != "" && p.has(t) {
				parts = append(parts, t)
			}
		}
	}
	return pres, parts, nil
}

// textNode matches the first text element with at least two characters of
// content: w:t, a:t, hp:t, or SpreadsheetML t (any prefix).
var textNode = regexp.MustCompile(`<((?:[A-Za-z][\w.-]*:)?t)(?:\s[^>]*)?>([^<]{2,})</((?:[A-Za-z][\w.-]*:)?t)>`)

// textPart returns the part whose first text node the raw injectors edit:
// the docx main part, the first slide, the xlsx shared strings (else the
// first worksheet), the first hwpx section.
func textPart(p *zpkg, f string) (string, error) {
	switch f {
	case "docx":
		return mainPart(p)
	case "pptx":
		_, slides, err := slideParts(p)
		if err != nil {
			return "", err
		}
		for _, s := range slides {
			if data, err := p.read(s); err == nil && textNode.Match(data) {
				return s, nil
			}
		}
		return "", fmt.Errorf("%w: no slide with text", ErrNotApplicable)
	case "xlsx":
		for _, n := range p.names() {
			if strings.HasSuffix(strings.ToLower(n), "sharedstrings.xml") {
				return n, nil
			}
		}
		if sheet, err := firstWorksheet(p); err == nil {
			return sheet, nil
		}
		return "", fmt.Errorf("%w: no worksheet", ErrNotApplicable)
	case "hwpx":
		return "Contents/section0.xml", nil
	}
	return "", ErrNotApplicable
}

// insertInText inserts ins into the middle of the first text node of part
// (at a character boundary outside any entity reference), as raw bytes:
// the point of these injectors is XML that a parser rejects.
func insertInText(p *zpkg, part, ins string) (string, error) {
	data, err := p.read(part)
	if err != nil {
		return "", err
	}
	for off := 0; off < len(data); {
		m := textNode.FindSubmatchIndex(data[off:])
		if m == nil {
			break
		}
		for i := range m {
			m[i] += off
		}
		off = m[1]
		if string(data[m[2]:m[3]]) != string(data[m[6]:m[7]]) {
			continue // open and close tags differ: not a simple text element
		}
		text := data[m[4]:m[5]]
		var cuts []int
		inEntity := false
		for i := 0; i < len(text); {
			if !inEntity && i > 0 {
				cuts = append(cuts, i)
			}
			r, size := utf8.DecodeRune(text[i:])
			switch r {
			case '&':
				inEntity = true
			case ';':
				inEntity = false
			}
			i += size
		}
		if len(cuts) == 0 {
			continue
		}
		at := m[4] + cuts[len(cuts)/2]
		out := make([]byte, 0, len(data)+len(ins))
		out = append(out, data[:at]...)
		out = append(out, ins...)
		out = append(out, data[at:]...)
		p.set(part, out)
		excerpt := string(text)
		if len(excerpt) > 40 {
			excerpt = excerpt[:40] + "…"
		}
		return fmt.Sprintf("%s: inserted %q into text %q at byte %d", part, ins, excerpt, at), nil
	}
	return "", fmt.Errorf("%w: %s has no text node of two or more characters", ErrNotApplicable, part)
}

// replacementWord returns a word of the same length as w, different from
// it, with the same capitalisation pattern.
func replacementWord(w string) string {
	pool := map[int][]string{
		4: {"blue", "cold"}, 5: {"green", "happy"}, 6: {"silver", "orange"}, 7: {"diamond", "chicken"},
		8: {"elephant", "tomorrow"}, 9: {"blueberry", "dangerous"}, 10: {"lighthouse", "everything"},
		11: {"marshmallow", "butterflies"}, 12: {"thunderstorm", "extravaganza"},
	}
	n := len(w)
	cands := pool[n]
	if cands == nil {
		base := "lighthousekeeper"
		for len(base) < n {
			base += base
		}
		cands = []string{base[:n], strings.Repeat("x", n)}
	}
	r := cands[0]
	if strings.EqualFold(r, w) {
		r = cands[1]
	}
	switch {
	case strings.ToUpper(w) == w:
		return strings.ToUpper(r)
	case w[0] >= 'A' && w[0] <= 'Z':
		return strings.ToUpper(r[:1]) + r[1:]
	}
	return r
}

var asciiWord = regexp.MustCompile(`[A-Za-z]{4,}`)

// locator is an XPath-like path with 1-based positions among same-named
// siblings, e.g. /w:document/w:body/w:tbl[4]/w:tr[2]/w:tc[2].
func locator(el *etree.Element) string {
	var segs []string
	for e := el; e != nil && e.Parent() != nil; e = e.Parent() {
		name := e.FullTag()
		parent := e.Parent()
		if parent.Parent() == nil && parent.Tag == "" {
			segs = append(segs, name) // the root element
			break
		}
		n, pos := 0, 0
		for _, s := range parent.ChildElements() {
			if s.FullTag() == name {
				n++
				if s == e {
					pos = n
				}
			}
		}
		if n > 1 {
			name += "[" + strconv.Itoa(pos) + "]"
		}
		segs = append(segs, name)
	}
	for i, j := 0, len(segs)-1; i < j; i, j = i+1, j-1 {
		segs[i], segs[j] = segs[j], segs[i]
	}
	return "/" + strings.Join(segs, "/")
}
