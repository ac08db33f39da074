package formats

import (
	"context"
	"fmt"
	"net/url"
	"path"
	"regexp"
	"strings"
)

// Namespaces of the OPC parts and relationship attributes, Transitional and
// Strict (ISO/IEC 29500-1 Strict renames the officeDocument namespaces).
const (
	NSContentTypes = "http://schemas.openxmlformats.org/package/2006/content-types"
	NSPackageRels  = "http://schemas.openxmlformats.org/package/2006/relationships"
	NSRelsT        = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
	NSRelsS        = "http://purl.oclc.org/ooxml/officeDocument/relationships"
)

var relNamespaces = []string{NSRelsT, NSRelsS}

// ContentTypes is a parsed [Content_Types].xml (OPC part 2 §10.1.2).
type ContentTypes struct {
	// Defaults maps a lower-case extension to its content type.
	Defaults map[string]string
	// Overrides maps a lower-case part name (no leading slash) to its type.
	Overrides map[string]string
	// OverrideNames keeps each Override's PartName as written.
	OverrideNames map[string]string
	// OverrideAt is where each Override was written (line, column).
	OverrideAt map[string][2]int
}

// Resolve returns a part's content type: its Override, else the Default for
// its extension (both case-insensitive), else "".
func (c *ContentTypes) Resolve(part string) string {
	key := normPart(part)
	if t, ok := c.Overrides[key]; ok {
		return t
	}
	ext := strings.TrimPrefix(path.Ext(key), ".")
	return c.Defaults[ext]
}

// Rel is one relationship.
type Rel struct {
	ID, Type, Target string
	External         bool
	// Resolved is the normalized target part name for internal targets
	// ("" for external ones).
	Resolved     string
	Line, Column int
}

// Rels is the relationships part of one source part.
type Rels struct {
	// Part is the .rels part name; Source the part it describes ("" for
	// the package).
	Part, Source string
	Rels         []Rel
	byID         map[string]*Rel
}

// ByID returns the relationship with the given id, or nil.
func (r *Rels) ByID(id string) *Rel {
	if r == nil {
		return nil
	}
	return r.byID[id]
}

// ByType returns the relationships whose type ends with "/"+suffix
// (Transitional and Strict types share their last segment).
func (r *Rels) ByType(suffix string) []Rel {
	if r == nil {
		return nil
	}
	var out []Rel
	for _, x := range r.Rels {
		if strings.HasSuffix(x.Type, "/"+suffix) {
			out = append(out, x)
		}
	}
	return out
}

// RelsPartOf returns the name of the .rels part of source ("" = package):
// word/document.xml → word/_rels/document.xml.rels (OPC §9.3.2).
func RelsPartOf(source string) string {
	if source == "" {
		return "_rels/.rels"
	}
	d, f := path.Split(source)
	return d + "_rels/" + f + ".rels"
}

// RelsOf returns the relationships of source ("" for the package), parsing
// the .rels part on first use; nil when the source has none.
func (p *Package) RelsOf(ctx context.Context, source string) *Rels {
	key := normPart(source)
	if p.relsRead[key] {
		return p.rels[key]
	}
	p.relsRead[key] = true
	rp := RelsPartOf(strings.TrimPrefix(source, "/"))
	e := p.Entry(rp)
	if e == nil {
		return nil
	}
	rh := &relsHandler{rels: &Rels{Part: e.Part, Source: strings.TrimPrefix(source, "/"), byID: map[string]*Rel{}}, p: p}
	p.ScanPart(ctx, e.Part, rh)
	p.rels[key] = rh.rels
	return rh.rels
}

// validXMLID matches an xsd:ID (an NCName): the Id a relationship must
// have (OPC §9.3.2.1 [M1.26]).
var validXMLID = regexp.MustCompile(`^[\p{L}_][\p{L}\p{N}_.\-\x{00B7}\x{0300}-\x{036F}\x{203F}-\x{2040}]*$`)

type relsHandler struct {
	NopHandler
	rels *Rels
	p    *Package
}

func (h *relsHandler) Start(e *Element) {
	if e.Name.Local != "Relationship" || e.Depth != 2 {
		return
	}
	id, _ := e.Get("", "Id")
	typ, _ := e.Get("", "Type")
	target, _ := e.Get("", "Target")
	mode, _ := e.Get("", "TargetMode")
	r := Rel{ID: id, Type: typ, Target: target, External: strings.EqualFold(mode, "External"), Line: e.Line, Column: e.Column}
	part := h.rels.Part
	switch {
	case id == "":
		h.p.Add(Finding{Code: CodeRelsMalformed, Grade: Fatal, Part: part, Line: e.Line, Column: e.Column, Locator: e.Locator(), Anchor: "noid:" + target,
			Message: fmt.Sprintf("a relationship to %q has no Id", target), Fix: "give every Relationship a unique Id such as rId7"})
	case !validXMLID.MatchString(id):
		// OPC §9.3.2.1: Id is xsd:ID; PowerPoint repairs files whose ids are
		// not (PptxGenJS#1020 shows the repair for duplicates).
		h.p.Add(Finding{Code: CodeRelsInvalidID, Grade: Fatal, Part: part, Line: e.Line, Column: e.Column, Locator: e.Locator(), Anchor: id,
			Message: fmt.Sprintf("the relationship Id %q is not a valid XML ID (it must start with a letter or _ and hold no spaces)", id),
			Fix:     "rename the Id (for example rId" + fmt.Sprint(len(h.rels.Rels)+1) + ") and every r:id that refers to it"})
	case h.rels.byID[id] != nil:
		// PptxGenJS#1020: duplicate relationship ids → PowerPoint repair.
		h.p.Add(Finding{Code: CodeRelsDuplicateID, Grade: Fatal, Part: part, Line: e.Line, Column: e.Column, Locator: e.Locator(), Anchor: id,
			Message: fmt.Sprintf("the relationship Id %q is used twice in this .rels part", id),
			Fix:     "give each relationship a unique Id and point each r:id at the right one"})
	}
	if target == "" && !r.External {
		h.p.Add(Finding{Code: CodeRelsMalformed, Grade: Fatal, Part: part, Line: e.Line, Column: e.Column, Locator: e.Locator(), Anchor: "notarget:" + id,
			Message: fmt.Sprintf("the relationship %q has no Target", id), Fix: "set Target to the related part's name"})
	}
	if !r.External && target != "" {
		r.Resolved = ResolveTarget(h.rels.Source, target)
	}
	h.rels.Rels = append(h.rels.Rels, r)
	if id != "" && h.rels.byID[id] == nil {
		h.rels.byID[id] = &h.rels.Rels[len(h.rels.Rels)-1]
	}
}

// End re-points byID at the final slice elements (append may move them).
func (h *relsHandler) End(e *Element) {
	if e.Depth != 1 {
		return
	}
	for i := range h.rels.Rels {
		r := &h.rels.Rels[i]
		if r.ID != "" {
			if cur := h.rels.byID[r.ID]; cur != nil && cur.Line == r.Line && cur.Column == r.Column {
				h.rels.byID[r.ID] = r
			}
		}
	}
}

// ResolveTarget resolves a relative or absolute target URI against the
// source part's folder (OPC §9.3.3, RFC 3986 §5), without fragment or query.
func ResolveTarget(source, target string) string {
	t := strings.ReplaceAll(target, `\`, "/")
	if i := strings.IndexAny(t, "#?"); i >= 0 {
		t = t[:i]
	}
	if u, err := url.PathUnescape(t); err == nil {
		t = u
	}
	if t == "" {
		return ""
	}
	if strings.HasPrefix(t, "/") {
		return strings.TrimPrefix(path.Clean(t), "/")
	}
	r := path.Clean(path.Join(Dir(source), t))
	return strings.TrimPrefix(r, "/")
}

// relRef is one r:id-style attribute seen in a part, with the element
// that carries it (for the relationship-type check of refkinds.go).
type relRef struct {
	attr, id, loc string
	elemNS, elem  string
	line, col     int
}

// refHandler records relationship-id attributes and forwards events.
type refHandler struct {
	next  Handler
	relNS []string
	refs  []relRef
}

func (h *refHandler) Start(e *Element) {
	for _, a := range e.Attr {
		for _, ns := range h.relNS {
			if a.Name.Space == ns {
				h.refs = append(h.refs, relRef{attr: "r:" + a.Name.Local, id: a.Value, loc: e.Locator(), elemNS: e.Name.Space, elem: e.Name.Local, line: e.Line, col: e.Column})
			}
		}
	}
	if h.next != nil {
		h.next.Start(e)
	}
}
func (h *refHandler) End(e *Element) {
	if h.next != nil {
		h.next.End(e)
	}
}
func (h *refHandler) Text(e *Element, t []byte) {
	if h.next != nil {
		h.next.Text(e, t)
	}
}

// parseContentTypes reads [Content_Types].xml and checks it (OPC §10.1.2).
func (p *Package) parseContentTypes(ctx context.Context) {
	e := p.Entry("[Content_Types].xml")
	if e == nil {
		return
	}
	ct := &ContentTypes{Defaults: map[string]string{}, Overrides: map[string]string{}, OverrideNames: map[string]string{}, OverrideAt: map[string][2]int{}}
	h := &ctHandler{ct: ct, p: p, part: e.Part}
	p.ScanPart(ctx, e.Part, h)
	p.ContentTypes = ct
}

type ctHandler struct {
	NopHandler
	ct   *ContentTypes
	p    *Package
	part string
}

func (h *ctHandler) Start(e *Element) {
	if e.Depth != 2 {
		return
	}
	add := func(code, anchor, msg, fix string) {
		h.p.Add(Finding{Code: code, Grade: Fatal, Part: h.part, Line: e.Line, Column: e.Column, Locator: e.Locator(), Anchor: anchor, Message: msg, Fix: fix})
	}
	switch e.Name.Local {
	case "Default":
		ext, _ := e.Get("", "Extension")
		typ, _ := e.Get("", "ContentType")
		k := strings.ToLower(strings.TrimPrefix(ext, "."))
		if _, dup := h.ct.Defaults[k]; dup {
			// OPC §10.1.2.2.2 [M2.6]: one Default per extension.
			add(CodeCTDuplicateDefault, k, fmt.Sprintf("two Default elements for the extension %q", ext), "keep one Default per extension")
			return
		}
		h.ct.Defaults[k] = typ
	case "Override":
		name, _ := e.Get("", "PartName")
		typ, _ := e.Get("", "ContentType")
		k := normPart(name)
		switch {
		case strings.HasSuffix(name, "/") || name == "":
			// OPC §10.1.2.2.3: PartName is a part name; a folder is not one.
			add(CodeCTOverrideFolder, k, fmt.Sprintf("the Override PartName %q names a folder, not a part", name), "remove this Override")
			return
		case k == "[content_types].xml":
			// OPC §10.1.2.2.3 [M2.4]: the content types stream is not a part.
			add(CodeCTOverrideSelf, k, "an Override names [Content_Types].xml itself, which is not a part", "remove this Override")
			return
		}
		if _, dup := h.ct.Overrides[k]; dup {
			// OPC §10.1.2.2.3 [M2.7]: one Override per part name.
			add(CodeCTDuplicateOverride, k, fmt.Sprintf("two Override elements for the part %q", name), "keep one Override per part")
			return
		}
		h.ct.Overrides[k] = typ
		h.ct.OverrideNames[k] = name
		h.ct.OverrideAt[k] = [2]int{e.Line, e.Column}
	}
}
