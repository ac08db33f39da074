package docx

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/editaudit/editaudit/formats"
)

// Reference integrity of WordprocessingML: the ids a story part uses and
// the part that must define them. Each kind is one row of IDRefKinds, with
// its grade and the evidence behind it; docs/validation.md lists the same rows
// (a test keeps the two in step).

// Finding codes of the reference checks.
const (
	// CodeCommentUndefined: a comment reference or range naming a comment
	// id the comments part does not define. Fatal.
	CodeCommentUndefined = "docx.comment-undefined"
	// CodeNoteUndefined: a footnote or endnote reference (in the body or in
	// settings.xml) naming a note the notes part does not define. Fatal.
	CodeNoteUndefined = "docx.note-undefined"
	// CodeNumUndefined: a w:numId naming no w:num of the numbering part.
	// Warning: Word shows the paragraph unnumbered.
	CodeNumUndefined = "docx.num-undefined"
	// CodeStyleUndefined: w:pStyle, w:rStyle or w:tblStyle naming no style
	// of styles.xml. Warning: Word uses the default style.
	CodeStyleUndefined = "docx.style-undefined"
	// CodeBookmarkUnpaired: a bookmarkStart without its bookmarkEnd (or
	// the reverse), or two bookmarks of one name in a part. Warning.
	CodeBookmarkUnpaired = "docx.bookmark-unpaired"
	// CodeParaIDRange: a w14:paraId or w14:textId that is not a hex number
	// from 1 to 0x7FFFFFFF. Warning.
	CodeParaIDRange = "docx.paraid-out-of-range"
	// CodeDurableIDRange: a comment durableId (commentsIds.xml,
	// commentsExtensible.xml) of 0x7FFFFFFF or more. Fatal.
	CodeDurableIDRange = "docx.durableid-out-of-range"
)

// IDRefKind is one kind of id reference of a Word document.
type IDRefKind struct {
	// Name of the kind ("comment"), used in messages and anchors.
	Name string
	// Elements are the w: elements carrying the reference, Attr the w:
	// attribute holding it.
	Elements []string
	Attr     string
	// Defined says what defines the id, for messages.
	Defined string
	// Code and Grade of a reference to an undefined id; Effect says what
	// Word does, Evidence why.
	Code     string
	Grade    formats.Grade
	Effect   string
	Evidence string
}

// The reference kinds, in the order they are reported.
var (
	refComment = &IDRefKind{Name: "comment", Elements: []string{"commentReference", "commentRangeStart", "commentRangeEnd"}, Attr: "id",
		Defined: "w:comment in the comments part", Code: CodeCommentUndefined, Grade: formats.Fatal,
		Effect:   "Word refuses to open the document",
		Evidence: "jvoisin/mat2#7 (comment ranges and references left after comments.xml was removed: \"the document refused to open in word\"); the Open XML SDK's 5Errors.docx test file (reference to comment 1 where comments.xml has 11)"}
	refFootnote = &IDRefKind{Name: "footnote", Elements: []string{"footnoteReference"}, Attr: "id",
		Defined: "w:footnote in the footnotes part", Code: CodeNoteUndefined, Grade: formats.Fatal,
		Effect:   "Word says \"One or more footnotes referenced in this document are missing or corrupt\" and repairs the file",
		Evidence: "jgm/pandoc#2032, #4621 (footnotes referenced but missing: that message, then \"Word found unreadable content\" and a repair)"}
	refEndnote = &IDRefKind{Name: "endnote", Elements: []string{"endnoteReference"}, Attr: "id",
		Defined: "w:endnote in the endnotes part", Code: CodeNoteUndefined, Grade: formats.Fatal,
		Effect:   "Word reports missing or corrupt notes and repairs the file (\"Show repairs: Endnotes\")",
		Evidence: "jgm/pandoc#4621 (the repair lists \"Endnotes 1\"); the same mechanism as footnotes (pandoc#2032)"}
	refNum = &IDRefKind{Name: "numbering", Elements: []string{"numId"}, Attr: "val",
		Defined: "w:num in the numbering part", Code: CodeNumUndefined, Grade: formats.Warning,
		Effect:   "Word opens the document and shows the paragraph without its number",
		Evidence: "stella/folio#863 (\"a w:numId naming a w:num the numbering part never defines is a file Word opens and renders unnumbered\"); opensagres/xdocreport#300 (paragraphs copied from a list into a document without lists)"}
	refStyle = &IDRefKind{Name: "style", Elements: []string{"pStyle", "rStyle", "tblStyle"}, Attr: "val",
		Defined: "w:style in styles.xml", Code: CodeStyleUndefined, Grade: formats.Warning,
		Effect:   "Word opens the document and formats the text with the default style instead",
		Evidence: "ECMA-376 Part 1 §17.7.4.17 (pStyle: a styleId that names no style is ignored and the default style applies); no report of Word refusing or repairing a document for it was found"}
	// IDRefKinds lists the kinds checked in the story parts.
	IDRefKinds = []*IDRefKind{refComment, refFootnote, refEndnote, refNum, refStyle}
)

// refElems maps an element's local name to its reference kind.
var refElems = func() map[string]*IDRefKind {
	m := map[string]*IDRefKind{}
	for _, k := range IDRefKinds {
		for _, e := range k.Elements {
			m[e] = k
		}
	}
	return m
}()

// idUse is the first use of one (kind, id) pair, and how often it occurs.
type idUse struct {
	kind                *IDRefKind
	id, part, loc, elem string
	where               string
	line, col, n        int
}

// idIndex gathers the id references of every story part and the ids the
// defining parts declare.
type idIndex struct {
	uses  map[*IDRefKind]map[string]*idUse
	order []*idUse
	// defined ids per kind; a nil set means the defining part is absent,
	// known false means it could not be read to the end (no findings then).
	defined map[*IDRefKind]map[string]bool
	known   map[*IDRefKind]bool
	// partOf names the defining part per kind, for messages.
	partOf map[*IDRefKind]string
}

func newIDIndex() *idIndex {
	return &idIndex{uses: map[*IDRefKind]map[string]*idUse{}, defined: map[*IDRefKind]map[string]bool{},
		known: map[*IDRefKind]bool{}, partOf: map[*IDRefKind]string{}}
}

// use records a reference.
func (x *idIndex) use(k *IDRefKind, id, part, where string, e *formats.Element) {
	m := x.uses[k]
	if m == nil {
		m = map[string]*idUse{}
		x.uses[k] = m
	}
	if u := m[id]; u != nil {
		u.n++
		return
	}
	u := &idUse{kind: k, id: id, part: part, elem: e.QName(), where: where, line: e.Line, col: e.Column, loc: e.Locator(), n: 1}
	m[id] = u
	x.order = append(x.order, u)
}

// define records an id declared by kind k's defining part.
func (x *idIndex) define(k *IDRefKind, id string) {
	m := x.defined[k]
	if m == nil {
		m = map[string]bool{}
		x.defined[k] = m
	}
	m[id] = true
}

// findings reports the references whose id is not defined.
func (x *idIndex) findings() []formats.Finding {
	var out []formats.Finding
	for _, u := range x.order {
		k := u.kind
		if k == refNum && (u.id == "0" || u.id == "") {
			continue // numId 0 removes numbering (§17.9.18): not a reference
		}
		if !x.known[k] || x.defined[k][u.id] {
			continue
		}
		part := x.partOf[k]
		var why string
		if part == "" {
			why = fmt.Sprintf("the document has no part defining %ss (%s)", k.Name, k.Defined)
		} else {
			why = fmt.Sprintf("%s defines no %s with id %q%s", part, k.Name, u.id, definedList(x.defined[k]))
		}
		times := ""
		if u.n > 1 {
			times = fmt.Sprintf(" (%d references; the first is here)", u.n)
		}
		fix := fmt.Sprintf("define the %s (add it to %s) or point the reference at an id that exists", k.Name, orPart(part, k.Defined))
		switch k {
		case refComment:
			fix = fmt.Sprintf("delete the w:commentRangeStart, w:commentRangeEnd and the run holding w:commentReference with w:id=%q, or add <w:comment w:id=%q …> to %s", u.id, u.id, orPart(part, "the comments part"))
		case refFootnote, refEndnote:
			fix = fmt.Sprintf("delete the run holding this reference, or add <w:%s w:id=%q> with a paragraph to %s", k.Name, u.id, orPart(part, "the "+k.Name+"s part"))
		case refNum:
			fix = fmt.Sprintf("point w:numId at an existing w:num, or add <w:num w:numId=%q><w:abstractNumId w:val=\"…\"/></w:num> to %s", u.id, orPart(part, "the numbering part"))
		case refStyle:
			fix = fmt.Sprintf("add a <w:style w:styleId=%q> to %s, or name an existing style", u.id, orPart(part, "styles.xml"))
		}
		out = append(out, formats.Finding{Code: k.Code, Grade: k.Grade, Part: u.part, Line: u.line, Column: u.col, Locator: u.loc,
			Anchor:  fmt.Sprintf("%s id %s", k.Name, u.id),
			Message: fmt.Sprintf("<%s> in %s names %s %q, but %s%s; %s", u.elem, u.where, k.Name, u.id, why, times, k.Effect),
			Fix:     fix})
	}
	return out
}

func orPart(part, fallback string) string {
	if part == "" {
		return fallback
	}
	return part
}

// definedList names up to eight defined ids for messages.
func definedList(m map[string]bool) string {
	if len(m) == 0 {
		return " (it defines none)"
	}
	ids := make([]string, 0, len(m))
	for id := range m {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool { return formats.NaturalLess(ids[i], ids[j]) })
	if len(ids) > 8 {
		ids = append(ids[:8], "…")
	}
	return " (defined: " + strings.Join(ids, ", ") + ")"
}

// defsHandler reads the ids a defining part declares: comments
// (w:comment), notes (w:footnote, w:endnote) and styles (w:style).
type defsHandler struct {
	formats.NopHandler
	x    *idIndex
	kind *IDRefKind
	elem string
	attr string
}

func (h *defsHandler) Start(e *formats.Element) {
	if e.Depth == 2 && isW(e) && e.Name.Local == h.elem {
		if v, ok := getW(e, h.attr); ok {
			h.x.define(h.kind, strings.TrimSpace(v))
		}
	}
}

// getW returns the w: attribute local (Transitional or Strict), or an
// unqualified one of that name.
func getW(e *formats.Element, local string) (string, bool) {
	for _, a := range e.Attr {
		if a.Name.Local == local && (a.Name.Space == NSW || a.Name.Space == NSWStrict || a.Name.Space == "") {
			return a.Value, true
		}
	}
	return "", false
}

// scanDefs scans the defining parts of the main part's relationships that
// the story scan did not read (styles, numbering, settings) and marks the
// kinds whose definitions are known.
func scanDefs(ctx context.Context, p *formats.Package, rels *formats.Rels, x *idIndex, storyDefs map[*IDRefKind]string, broken map[*IDRefKind]bool) []formats.Finding {
	first := func(typ string) string {
		if parts := relatedParts(p, rels, typ); len(parts) > 0 {
			return parts[0]
		}
		return ""
	}
	// Comments and notes were defined during the story scan.
	for _, k := range []*IDRefKind{refComment, refFootnote, refEndnote} {
		x.partOf[k] = storyDefs[k]
		x.known[k] = !broken[k]
	}
	if part := first("styles"); part != "" {
		res := p.ScanPart(ctx, part, &defsHandler{x: x, kind: refStyle, elem: "style", attr: "styleId"})
		x.partOf[refStyle], x.known[refStyle] = part, res.Complete
	} else {
		// Without styles.xml Word uses its built-in defaults (python-docx's
		// styles-less template opens): nothing to check against.
		x.known[refStyle] = false
	}
	var out []formats.Finding
	if part := first("numbering"); part != "" {
		nums, abs, ok := numberingIDs(ctx, p, part)
		out = append(out, abs...)
		x.partOf[refNum], x.known[refNum] = part, ok
		for _, id := range nums {
			x.define(refNum, id)
		}
	} else {
		x.known[refNum] = true // no numbering part: every numId > 0 names nothing
	}
	if part := first("settings"); part != "" {
		sh := &settingsHandler{x: x, part: part}
		p.ScanPart(ctx, part, sh)
	}
	return out
}

// settingsHandler reads settings.xml's w:footnotePr/w:footnote and
// w:endnotePr/w:endnote: the separator notes the document uses, which the
// notes part must define (jgm/pandoc#2032: settings naming footnotes -1
// and 0 with an empty footnotes.xml → "One or more footnotes referenced in
// this document are missing or corrupt").
type settingsHandler struct {
	formats.NopHandler
	x    *idIndex
	part string
}

func (h *settingsHandler) Start(e *formats.Element) {
	if e.Depth != 3 || !isW(e) || e.Parent == nil {
		return
	}
	var k *IDRefKind
	switch {
	case e.Name.Local == "footnote" && e.Parent.Name.Local == "footnotePr":
		k = refFootnote
	case e.Name.Local == "endnote" && e.Parent.Name.Local == "endnotePr":
		k = refEndnote
	default:
		return
	}
	if id, ok := getW(e, "id"); ok {
		h.x.use(k, strings.TrimSpace(id), h.part, "the document settings (separator notes)", e)
	}
}

// durableHandler checks the comment durable ids of commentsIds.xml and
// commentsExtensible.xml: values of 0x7FFFFFFF and above make Word report
// errors (ONLYOFFICE/sdkjs#837: "numbers greater than 0x7FFFFFFE cause MS
// Office errors"; superdoc/docx-editor#424: Word rejects w16cex:durableId
// values above 2^31) → fatal.
type durableHandler struct {
	formats.NopHandler
	part  string
	found []formats.Finding
}

func (h *durableHandler) Start(e *formats.Element) {
	if e.Depth != 2 {
		return
	}
	for _, a := range e.Attr {
		if a.Name.Local != "durableId" || a.Name.Space == "" {
			continue
		}
		v, err := strconv.ParseUint(strings.TrimSpace(a.Value), 16, 64)
		if err == nil && v < 0x7FFFFFFF {
			continue
		}
		h.found = append(h.found, formats.Finding{Code: CodeDurableIDRange, Grade: formats.Fatal, Part: h.part,
			Line: e.Line, Column: e.Column, Locator: e.Locator(), Anchor: "durableId " + a.Value,
			Message: fmt.Sprintf("<%s> has durableId=%q; a comment's durable id must be a hexadecimal number below 7FFFFFFF, and Word reports an error for larger ones", e.QName(), a.Value),
			Fix:     "give the comment a durable id below 7FFFFFFF (e.g. a random 31-bit value) that no other comment uses, the same in commentsIds.xml and commentsExtensible.xml"})
	}
}

// checkDurableIDs scans the comment id parts of the main part.
func checkDurableIDs(ctx context.Context, p *formats.Package, rels *formats.Rels) []formats.Finding {
	var out []formats.Finding
	for _, part := range relatedParts(p, rels, "commentsIds", "commentsExtensible") {
		h := &durableHandler{part: part}
		p.ScanPart(ctx, part, h)
		out = append(out, h.found...)
	}
	return out
}
