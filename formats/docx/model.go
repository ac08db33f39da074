package docx

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/editaudit/editaudit/formats"
)

// Content models of the Word containers Word is strict about, and the
// per-part marks (bookmarks, paragraph ids). Each rule is a row of
// ContentRules with its grade and evidence; docs/validation.md lists the same
// rows.

// Finding codes of the content-model checks.
const (
	// CodeRunOutsideParagraph: a run (w:r), a hyperlink or run content
	// directly in a block container (w:body, a cell, a header, a text box…)
	// instead of inside a w:p. Fatal.
	CodeRunOutsideParagraph = "docx.run-outside-paragraph"
	// CodePInP: a w:p inside another w:p (not through a text box). Fatal.
	CodePInP = "docx.p-in-p"
	// CodeTableStructure: a w:tr outside a w:tbl, a w:tc outside a w:tr, a
	// paragraph or table directly in a w:tbl or w:tr. Warning.
	CodeTableStructure = "docx.table-structure"
	// CodeNumberInvalid: NaN or Infinity in a WordprocessingML measure
	// (a JavaScript generator's unset size). Fatal.
	CodeNumberInvalid = "docx.number-invalid"
)

// ContentRule is one content-model rule: what may not appear where.
type ContentRule struct {
	Code     string
	Grade    formats.Grade
	When     string
	Effect   string
	Evidence string
}

// ContentRules are the Word content-model rules, in docs/validation.md order.
var ContentRules = []ContentRule{
	{Code: CodeRunOutsideParagraph, Grade: formats.Fatal,
		When:     "a w:r, w:hyperlink, w:fldSimple, w:smartTag or run content (w:t, w:br, w:drawing…) whose nearest container is w:body, w:tc, w:txbxContent, w:hdr, w:ftr, w:footnote, w:endnote or w:comment (looked through w:sdt, w:customXml and mc:AlternateContent)",
		Effect:   "Word refuses to open the document",
		Evidence: "dolanmiu/docx#1607, #1693 (a PageBreak written as a section child — a run straight in w:body — makes Word refuse the file; removing it fixes it); ECMA-376 Part 1 §17.2.2 (CT_Body holds block-level content only)"},
	{Code: CodePInP, Grade: formats.Fatal,
		When:     "a w:p inside another w:p, other than through a text box (w:txbxContent)",
		Effect:   "Word refuses to open the document",
		Evidence: "tomduck/pandoc-eqnos#22 (a bookmark wrapped in a paragraph inside a paragraph: Word would not open the output); elapouya/python-docx-template#565 (subdocument paragraphs inserted into a paragraph: Word cannot open it); ECMA-376 Part 1 §17.3.1.22 (CT_P holds no paragraphs)"},
	{Code: CodeNumberInvalid, Grade: formats.Fatal,
		When:     "NaN, Infinity or -Infinity in a measure: w:ind, w:spacing, w:pgSz, w:pgMar, w:tblW/w:tcW/w:gridCol widths, or the w:val of w:sz, w:szCs, w:kern, w:position, w:spacing, w:w",
		Effect:   "Word reports the file corrupt",
		Evidence: "open-xml-templating/docxtemplater#753 (a NaN written by the image module: Word says the generated file is corrupted); gitbrent/PptxGenJS#1440 (the same NaN in PowerPoint: repair); ECMA-376 Part 1 §17.18.97 and §22.9.2 (ST_TwipsMeasure, ST_SignedTwipsMeasure: integers)"},
	{Code: CodeTableStructure, Grade: formats.Warning,
		When:     "a w:tr whose container is not a w:tbl, a w:tc whose container is not a w:tr, or a w:p / w:tbl directly in a w:tbl or w:tr",
		Effect:   "Word's reaction is not documented for these cases",
		Evidence: "ECMA-376 Part 1 §17.4 (CT_Tbl, CT_Row); no public report; Word refuses the related table defects (docx.tc-no-final-p, docx.tr-no-tc, docx.tbl-in-p), so this is worth fixing"},
}

// MarkRules are the Word rules about ids that are not references into
// another part: bookmarks, paragraph ids, comment durable ids.
var MarkRules = []ContentRule{
	{Code: CodeBookmarkUnpaired, Grade: formats.Warning,
		When:     "a w:bookmarkStart without the w:bookmarkEnd of its id in the same part, or two bookmarks of one name (a w:bookmarkEnd without its start: info)",
		Effect:   "Word drops the bookmark; fields and links that use it break",
		Evidence: "ECMA-376 Part 1 §17.13.6; Word's reaction not documented"},
	{Code: CodeParaIDRange, Grade: formats.Warning,
		When:     "a w14:paraId or w14:textId that is not a hexadecimal number from 1 to 7FFFFFFF (textId 77777777 aside)",
		Effect:   "not documented",
		Evidence: "[MS-OI29500] §2.6.2.3 (\"values MUST be greater than 0 and less than 0x80000000\"); plutext/docx4j#129 (a generator fixed for exceeding it)"},
	{Code: CodeDurableIDRange, Grade: formats.Fatal,
		When:     "a w16cid:durableId or w16cex:durableId of 7FFFFFFF or more (commentsIds.xml, commentsExtensible.xml)",
		Effect:   "Word reports an error",
		Evidence: "ONLYOFFICE/sdkjs#837 (\"numbers greater than 0x7FFFFFFE cause MS Office errors\"); superdoc/docx-editor#424 (Word rejects durableId values above 2^31)"},
}

// runLevel reports whether an element of kind k (local name local) belongs
// inside a paragraph: runs, hyperlinks, simple fields, smart tags, run
// content. Tracked-change wrappers (w:ins, w:del, w:moveFrom, w:moveTo)
// are left out: CT_Body admits them (EG_RunLevelElements).
func runLevel(k kind, local string) bool {
	switch k {
	case kR, kRunContent:
		return true
	case kRunHost:
		switch local {
		case "hyperlink", "fldSimple", "smartTag", "dir", "bdo":
			return true
		}
	}
	return false
}

// checkPlace applies the content-model rules to a new element of kind k
// whose parent frame is at index parent.
func (h *storyHandler) checkPlace(e *formats.Element, k kind, parent int) {
	if parent < 0 {
		return
	}
	host := h.host(parent)
	hk := kOther
	if host >= 0 {
		hk = h.stack[host].kind
	}
	switch {
	case runLevel(k, e.Name.Local) && (hk == kBlock || hk == kTc || hk == kTxbx):
		what := "a run"
		if k != kR {
			what = "<" + e.QName() + ">"
		}
		h.add(formats.Finding{Code: CodeRunOutsideParagraph, Grade: formats.Fatal, Part: h.part, Line: e.Line, Column: e.Column, Locator: e.Locator(),
			Anchor:  fmt.Sprintf("<%s> outside a paragraph after paragraph %q", e.QName(), h.lastPara),
			Message: fmt.Sprintf("%s sits directly in %s (after the paragraph %q), not inside a paragraph; runs and their content belong in a <w:p>, and Word refuses to open the document", what, containerWords(h, host), h.lastPara),
			Fix:     fmt.Sprintf("wrap it in a paragraph: <w:p>…<%s …>…</w:p>", e.QName())})
	case k == kP:
		for i := parent; i >= 0; i-- {
			switch h.stack[i].kind {
			case kTxbx, kTc, kTbl, kBlock:
				i = -1 // a text box or a table in between: its own rules apply
			case kP:
				p := &h.stack[i]
				p.pending = append(p.pending, pendingFinding{anchor: "paragraph in paragraph ", f: formats.Finding{
					Code: CodePInP, Grade: formats.Fatal, Part: h.part, Line: e.Line, Column: e.Column, Locator: e.Locator(),
					Message: fmt.Sprintf("a paragraph (<w:p>) sits inside %s; a paragraph cannot contain another paragraph, and Word refuses to open the document", h.whereP(i)),
					Fix:     "move the inner <w:p>…</w:p> out so it follows the outer paragraph's </w:p>, or merge its runs into the outer paragraph"}})
				i = -1
			}
		}
	case (k == kTr && hk != kTbl) || (k == kTc && hk != kTr) || ((k == kP || k == kTbl) && (hk == kTbl || hk == kTr)):
		in := containerWords(h, host)
		h.add(formats.Finding{Code: CodeTableStructure, Grade: formats.Warning, Part: h.part, Line: e.Line, Column: e.Column, Locator: e.Locator(),
			Anchor:  fmt.Sprintf("<%s> misplaced after paragraph %q", e.QName(), h.lastPara),
			Message: fmt.Sprintf("<%s> sits directly in %s; a table holds rows (<w:tr>), a row holds cells (<w:tc>), a cell holds paragraphs and tables. Word's reaction is not documented for this case", e.QName(), in),
			Fix:     tableFix(k)})
	}
}

func tableFix(k kind) string {
	switch k {
	case kTr:
		return "put the <w:tr> inside a <w:tbl> (after its <w:tblPr> and <w:tblGrid>)"
	case kTc:
		return "put the <w:tc> inside a <w:tr>"
	}
	return "put it inside a cell: <w:tr><w:tc>…</w:tc></w:tr>, and end the cell with a <w:p>"
}

// containerWords names the container at stack index i for messages.
func containerWords(h *storyHandler, i int) string {
	if i < 0 {
		return "the part"
	}
	switch h.stack[i].kind {
	case kTc, kTr, kTbl:
		return h.where(i)
	case kTxbx:
		return "a text box of " + h.whereNear(i)
	case kBlock:
		if h.stack[i].local != "" {
			return "<w:" + h.stack[i].local + "> of " + h.label
		}
	}
	return h.label
}

// startW handles the w: elements the reference and mark checks need: the
// root of a defining part, its definitions, id references, bookmarks and
// paragraph ids.
func (h *storyHandler) startW(e *formats.Element, k kind) {
	local := e.Name.Local
	if k == kBlock {
		h.stack[len(h.stack)-1].local = local
	}
	switch {
	case e.Depth == 1:
		switch local {
		case "comments":
			h.defKind = refComment
		case "footnotes":
			h.defKind = refFootnote
		case "endnotes":
			h.defKind = refEndnote
		}
		return
	case e.Depth == 2 && h.defKind != nil && local == h.defKind.Name:
		if id, ok := getW(e, "id"); ok {
			h.refs.define(h.defKind, strings.TrimSpace(id))
		}
	case local == "bookmarkStart" || local == "bookmarkEnd":
		h.marks.bookmark(h, e, local == "bookmarkStart")
		return
	}
	if k == kP || k == kTr {
		h.marks.paraID(h, e)
	}
	if rk := refElems[local]; rk != nil {
		if v, ok := getW(e, rk.Attr); ok {
			v = strings.TrimSpace(v)
			if !h.refs.seen(rk, v) {
				h.refs.use(rk, v, h.part, h.whereNear(len(h.stack)-2), e)
			}
		}
	}
}

// seen counts one more use of (k, id) when it was recorded before.
func (x *idIndex) seen(k *IDRefKind, id string) bool {
	if u := x.uses[k][id]; u != nil {
		u.n++
		return true
	}
	return false
}

// mark is where a bookmark end or start, or a paragraph id, was seen.
type mark struct {
	name, loc string
	line, col int
	start     bool
}

// marks are the bookmarks and paragraph ids of one part.
type marks struct {
	starts, ends map[string]mark // bookmark id → first start / end
	names        map[string]mark // bookmark name → first start
	order        []string        // bookmark ids in document order
	dupNames     []mark
	badIDs       []mark
}

const nsW14 = "http://schemas.microsoft.com/office/word/2010/wordml"

func (m *marks) bookmark(h *storyHandler, e *formats.Element, start bool) {
	id, _ := getW(e, "id")
	id = strings.TrimSpace(id)
	at := mark{loc: e.Locator(), line: e.Line, col: e.Column, start: start}
	if m.starts == nil {
		m.starts, m.ends, m.names = map[string]mark{}, map[string]mark{}, map[string]mark{}
	}
	if !start {
		if _, ok := m.ends[id]; !ok {
			m.ends[id] = at
			if _, ok := m.starts[id]; !ok {
				m.order = append(m.order, id)
			}
		}
		return
	}
	name, _ := getW(e, "name")
	at.name = name
	if _, ok := m.starts[id]; !ok {
		m.starts[id] = at
		if _, ok := m.ends[id]; !ok {
			m.order = append(m.order, id)
		}
	}
	if name == "" {
		return
	}
	if _, ok := m.names[name]; ok {
		m.dupNames = append(m.dupNames, at)
	} else {
		m.names[name] = at
	}
}

// paraID checks w14:paraId and w14:textId: ST_LongHexNumber values that
// [MS-OI29500] §2.6.2.3 requires to be above 0 and below 0x80000000.
func (m *marks) paraID(h *storyHandler, e *formats.Element) {
	for _, a := range e.Attr {
		if a.Name.Space != nsW14 || (a.Name.Local != "paraId" && a.Name.Local != "textId") {
			continue
		}
		v, err := strconv.ParseUint(strings.TrimSpace(a.Value), 16, 64)
		if err == nil && v > 0 && v < 0x80000000 {
			continue
		}
		if a.Name.Local == "textId" && strings.EqualFold(a.Value, "77777777") {
			continue // the value Word writes for "no text id"
		}
		m.badIDs = append(m.badIDs, mark{name: "w14:" + a.Name.Local + "=" + a.Value, loc: e.Locator(), line: e.Line, col: e.Column})
	}
}

// report adds the part's bookmark and paragraph-id findings.
//
// Bookmarks: ECMA-376 Part 1 §17.13.6 pairs each w:bookmarkStart with the
// w:bookmarkEnd of its id, and names are unique; Word drops a bookmark it
// cannot pair (its reaction is not documented) → warning. Paragraph ids:
// [MS-OI29500] §2.6.2.3 ("values MUST be greater than 0 and less than
// 0x80000000"); docx4j#129 fixed a generator that exceeded it; Word's own
// reaction is not documented → warning.
func (m *marks) report(h *storyHandler) {
	for _, id := range m.order {
		s, hasS := m.starts[id]
		en, hasE := m.ends[id]
		switch {
		case hasS && !hasE:
			h.add(formats.Finding{Code: CodeBookmarkUnpaired, Grade: formats.Warning, Part: h.part, Line: s.line, Column: s.col, Locator: s.loc,
				Anchor:  "bookmark start " + s.name,
				Message: fmt.Sprintf("the bookmark %q (w:id=%s) starts here but no <w:bookmarkEnd w:id=\"%s\"> ends it in this part; Word drops the bookmark, and links or fields that use it break", s.name, id, id),
				Fix:     fmt.Sprintf("add <w:bookmarkEnd w:id=\"%s\"/> where the bookmark should end, or delete the <w:bookmarkStart>", id)})
		case hasE && !hasS:
			// A stray end marks nothing: info.
			h.add(formats.Finding{Code: CodeBookmarkUnpaired, Grade: formats.Info, Part: h.part, Line: en.line, Column: en.col, Locator: en.loc,
				Anchor:  "bookmark end " + id,
				Message: fmt.Sprintf("<w:bookmarkEnd w:id=\"%s\"> ends a bookmark that no <w:bookmarkStart> in this part starts; Word ignores it", id),
				Fix:     "delete this <w:bookmarkEnd> (it is left over from a deleted bookmark)"})
		}
	}
	for _, d := range m.dupNames {
		h.add(formats.Finding{Code: CodeBookmarkUnpaired, Grade: formats.Warning, Part: h.part, Line: d.line, Column: d.col, Locator: d.loc,
			Anchor:  "bookmark name twice " + d.name,
			Message: fmt.Sprintf("a second bookmark is named %q in this part; bookmark names are unique, and Word keeps only one of them", d.name),
			Fix:     "rename one of the bookmarks (and the fields or links that refer to it)"})
	}
	for _, b := range m.badIDs {
		h.add(formats.Finding{Code: CodeParaIDRange, Grade: formats.Warning, Part: h.part, Line: b.line, Column: b.col, Locator: b.loc,
			Anchor:  b.name,
			Message: fmt.Sprintf("%s is not a hexadecimal number from 1 to 7FFFFFFF, as Word requires of paragraph ids ([MS-OI29500] §2.6.2.3); comments and tracked changes anchored to the paragraph may be lost", b.name),
			Fix:     "give the paragraph a unique 8-digit hexadecimal id below 80000000 (or remove the attribute: Word assigns one)"})
	}
}

// measureAttrs are the WordprocessingML attributes that hold a measure
// (twips, half-points, eighths of a point) on any element.
var measureAttrs = map[string]bool{"left": true, "right": true, "start": true, "end": true, "hanging": true,
	"firstLine": true, "before": true, "after": true, "line": true, "top": true, "bottom": true,
	"header": true, "footer": true, "gutter": true, "w": true, "h": true}

// measureVal are the elements whose w:val is a measure.
var measureVal = map[string]bool{"sz": true, "szCs": true, "kern": true, "position": true, "spacing": true, "w": true}

// checkNumbers applies the CodeNumberInvalid rule of ContentRules to a
// w: element's attributes.
func (h *storyHandler) checkNumbers(e *formats.Element) {
	for _, a := range e.Attr {
		v := a.Value
		if v != "NaN" && v != "Infinity" && v != "-Infinity" {
			continue
		}
		if a.Name.Space != e.Name.Space || !(measureAttrs[a.Name.Local] || (a.Name.Local == "val" && measureVal[e.Name.Local])) {
			continue
		}
		h.add(formats.Finding{Code: CodeNumberInvalid, Grade: formats.Fatal, Part: h.part, Line: e.Line, Column: e.Column, Locator: e.Locator(),
			Anchor:  fmt.Sprintf("<%s> %s=%s", e.QName(), a.Name.Local, v),
			Message: fmt.Sprintf("<%s> has w:%s=%q, where Word needs an integer measure; a NaN or Infinity usually comes from arithmetic on a missing size, and Word reports the file corrupt", e.QName(), a.Name.Local, v),
			Fix:     fmt.Sprintf("write w:%s as an integer (twips for indents, spacing and widths: 1440 per inch; half-points for w:sz), or remove the attribute", a.Name.Local)})
	}
}
