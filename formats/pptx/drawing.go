package pptx

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/editaudit/editaudit/formats"
)

// DrawingML content models and numbers in slide-family parts: preset
// adjust guides, transform coordinates, shape ids, shape trees and text
// paragraphs. Each rule is a row of ContentRules (docs/validation.md lists the
// same rows).

// ContentRule is one content-model or value rule of a PowerPoint part.
type ContentRule struct {
	Code     string
	Grade    formats.Grade
	When     string
	Evidence string
}

// ContentRules are the PowerPoint rules, in docs/validation.md order.
var ContentRules = []ContentRule{
	{Code: CodeAdjustGuide, Grade: formats.Fatal,
		When:     "an a:gd in the a:avLst of an a:prstGeom whose name is not one of the adjust guides the preset declares (presetShapeDefinitions.xml): any guide on rect, ellipse and the 62 other presets without adjust handles; adj1 on roundRect (whose guide is adj)",
		Evidence: "iOfficeAI/OfficeCLI#235, #238 (PowerPoint validates every a:gd name against the preset's definition and refuses the file, 0x80070570); scanny/python-pptx#674 (wrong guide names for upDownArrow: the file cannot be opened)"},
	{Code: CodeXfrmInvalid, Grade: formats.Fatal,
		When:     "a:off/a:chOff without an integer x and y, a:ext/a:chExt without an integer cx and cy from 0 to 27273042316900 (in a:xfrm or p:xfrm), or an a:tcPr cell margin that is not an integer (NaN)",
		Evidence: "gitbrent/PptxGenJS#1440 (marL=\"NaN\" in a table cell: PowerPoint's repair dialog), DEFECTS.md (missing required attributes, NaN, negative a:ext: REPAIR, confirmed); ECMA-376 Part 1 §20.1.7.4, §20.1.7.6 (ST_Coordinate, ST_PositiveCoordinate)"},
	{Code: CodeParagraphOrder, Grade: formats.Fatal,
		When:     "an a:pPr that is not the first child of its a:p",
		Evidence: "gitbrent/PptxGenJS#1083 (a:pPr between runs: PowerPoint 2016 reports an error); ECMA-376 Part 1 §21.1.2.2.6 (CT_TextParagraph: pPr first)"},
	{Code: CodeParagraphOrder, Grade: formats.Error,
		When:     "a run, break or field after the a:endParaRPr of its a:p",
		Evidence: "the-open-agent/openagent#2355 (runs appended after a:endParaRPr are in the XML but PowerPoint does not render them: silent loss)"},
	{Code: CodeColorInvalid, Grade: formats.Fatal,
		When:     "an a:srgbClr whose val is not six hexadecimal digits (a CSS colour: #1F4E79, rgba(…), a colour name)",
		Evidence: "dream-num/dsh-univer-office#44 (srgbClr val=\"RGBA(47, 107, 255, 0.55)\": PowerPoint's repair prompt; the same deck with six-digit hex opens); ChristopherVR/pptx-viewer#67 (a '#'-prefixed hex: repair prompt); gitbrent/PptxGenJS#588 (colour \"White\" instead of FFFFFF: repair); ECMA-376 Part 1 §20.1.10.48 (ST_HexColorRGB)"},
	{Code: CodeShapeIDDuplicate, Grade: formats.Info,
		When:     "two shapes in one slide, layout or master with the same p:cNvPr id (mc:Fallback copies ignored)",
		Evidence: "ECMA-376 Part 1 §19.3.1.12 (ids unique in the slide); gitbrent/PptxGenJS#1532 (PptxGenJS writes duplicates with a table and a shape; no repair reported); healthy real decks carry them (docx4j_AutoShapes-187slides, oxsdk_3dtestdash), so PowerPoint tolerates them: info"},
	{Code: CodeShapeTree, Grade: formats.Warning,
		When:     "a p:spTree or p:grpSp whose first children are not p:nvGrpSpPr and p:grpSpPr, with a child after p:extLst, or with a child that is not a shape (p:sp, p:grpSp, p:graphicFrame, p:cxnSp, p:pic, p:contentPart, mc:AlternateContent)",
		Evidence: "ECMA-376 Part 1 §19.3.1.22 (CT_GroupShape); python-openxml/python-docx#245 (scanny: appending \"often will work\" but \"working can be client specific\", so the python-openxml libraries insert in schema order; python-pptx adds shapes before p:extLst); PowerPoint's reaction not documented"},
}

// Presentation-level rules that are not content models (docs/validation.md
// lists them with the reference kinds).
var (
	ruleSlideNoLayout = ContentRule{Code: CodeSlideNoLayout, Grade: formats.Fatal,
		When:     "a listed slide without a slideLayout relationship",
		Evidence: "PHPOffice/PHPPresentation#294 (fixing #276, #266: a default slide layout added \"so that Mac PPT does not think the presentation needs repair\"); CristalTeam/pptx#5 (slides added without their layouts: repair, \"for other slides no layout exists\"); ECMA-376 Part 1 §13.3.8"}
	ruleMasterID = ContentRule{Code: CodeMasterID, Grade: formats.Warning,
		When:     "a p:sldMasterId or p:sldLayoutId whose id is missing, not a number, below 2147483648, or shared with another master or layout",
		Evidence: "ECMA-376 Part 1 §19.7.13, §19.7.15 (ST_SlideMasterId, ST_SlideLayoutId ≥ 2147483648; one id space for masters and layouts); every real deck keeps to it; PowerPoint's reaction not documented"}
)

// ReferenceRules are the PowerPoint reference rules of the generated tables
// of docs/validation.md (the slide list's own checks, pptx.sldid-*, are
// written out in its PowerPoint section).
var ReferenceRules = []ContentRule{ruleSlideNoLayout, ruleMasterID}

// maxPositiveCoordinate is ST_PositiveCoordinate's maximum (EMU).
const maxPositiveCoordinate = 27273042316900

// treeState follows the children of a shape tree.
type treeState struct {
	info    *shapeInfo // the group's own p:cNvPr
	n       int
	afterX  bool // p:extLst was seen
	reports int
}

// paraState follows the children of the open a:p (paragraphs do not
// nest, so one state per part handler is enough).
type paraState struct {
	depth   int  // the a:p's depth (0: none open)
	content bool // a child other than a:pPr was seen
	ended   bool // a:endParaRPr was seen
}

// shapeTreeChildren are the children CT_GroupShape allows after its
// properties.
var shapeTreeChildren = map[string]bool{"sp": true, "grpSp": true, "graphicFrame": true, "cxnSp": true, "pic": true, "contentPart": true}

// drawingStart applies the drawing rules to a new element (outside
// mc:Fallback, whose content repeats its mc:Choice).
func (h *partHandler) drawingStart(e *formats.Element) {
	parent := e.Parent
	if parent == nil {
		return
	}
	if st, ok := parent.Data.(*treeState); ok {
		h.treeChild(e, st)
	}
	if h.para.depth > 0 && e.Depth == h.para.depth+1 && e.Is(e.Name.Local, nsA...) {
		h.paraChild(e, &h.para)
	}
	if !e.Is(e.Name.Local, nsA...) {
		if e.Is("cNvPr", nsP...) && h.fallback == 0 {
			h.shapeID(e)
		}
		return
	}
	switch e.Name.Local {
	case "gd":
		if parent.Is("avLst", nsA...) && parent.Parent != nil && parent.Parent.Is("prstGeom", nsA...) {
			h.checkGuide(e, parent.Parent)
		}
	case "srgbClr":
		h.checkColor(e)
	case "off", "chOff":
		if inXfrm(parent) {
			h.checkCoords(e, "x", "y", false)
		}
	case "ext", "chExt":
		if inXfrm(parent) {
			h.checkCoords(e, "cx", "cy", true)
		}
	case "tcPr":
		for _, m := range []string{"marL", "marR", "marT", "marB"} {
			if v, ok := e.Get("", m); ok {
				if _, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64); err != nil {
					h.badNumber(e, m, v, "a cell margin in EMU (an integer)")
				}
			}
		}
	}
}

func inXfrm(e *formats.Element) bool {
	return e.Name.Local == "xfrm" && (e.Is("xfrm", nsA...) || e.Is("xfrm", nsP...))
}

// checkGuide checks an adjust guide's name against its preset.
func (h *partHandler) checkGuide(gd, geom *formats.Element) {
	prst, _ := geom.Get("", "prst")
	allowed, known := presetGuides[prst]
	if !known {
		return // pptx.bad-preset-geometry says so
	}
	name, _ := gd.Get("", "name")
	for _, a := range allowed {
		if a == name {
			return
		}
	}
	where := shapeOf(gd)
	want := "no adjust guides at all: its <a:avLst> must be empty"
	fix := fmt.Sprintf("remove <a:gd name=\"%s\" …/> (write <a:avLst/>)", name)
	if len(allowed) > 0 {
		want = "the adjust guides " + strings.Join(allowed, ", ")
		fix = fmt.Sprintf("rename the guide to one of %s (%s takes %s), or remove it", strings.Join(allowed, ", "), prst, strings.Join(allowed, ", "))
		if len(allowed) == 1 {
			fix = fmt.Sprintf("write <a:gd name=\"%s\" …/> instead of name=\"%s\" (the one guide %s declares), or remove it", allowed[0], name, prst)
		}
	}
	h.in.p.Add(formats.Finding{Code: CodeAdjustGuide, Grade: formats.Fatal, Part: h.part, Line: gd.Line, Column: gd.Column, Locator: gd.Locator(),
		Anchor:  fmt.Sprintf("%s %s gd %s", where, prst, name),
		Message: fmt.Sprintf("the preset shape %q of %s has an adjust guide named %q, but %s declares %s; PowerPoint refuses the file", prst, where, name, prst, want),
		Fix:     fix})
}

// checkCoords checks a transform's two coordinates: integers, and for
// extents from 0 to ST_PositiveCoordinate's maximum.
func (h *partHandler) checkCoords(e *formats.Element, a, b string, extent bool) {
	for _, name := range []string{a, b} {
		v, ok := e.Get("", name)
		if !ok {
			h.badNumber(e, name, "", "a required coordinate")
			continue
		}
		n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
		switch {
		case err != nil:
			h.badNumber(e, name, v, "an integer number of EMU")
		case extent && (n < 0 || n > maxPositiveCoordinate):
			h.badNumber(e, name, v, fmt.Sprintf("an extent from 0 to %d EMU", int64(maxPositiveCoordinate)))
		}
	}
}

func (h *partHandler) badNumber(e *formats.Element, attr, v, want string) {
	where := shapeOf(e)
	got := fmt.Sprintf("%s=%q", attr, v)
	if v == "" {
		got = "no " + attr + " attribute"
	}
	h.in.p.Add(formats.Finding{Code: CodeXfrmInvalid, Grade: formats.Fatal, Part: h.part, Line: e.Line, Column: e.Column, Locator: e.Locator(),
		Anchor:  fmt.Sprintf("%s <%s> %s", where, e.QName(), got),
		Message: fmt.Sprintf("<%s> of %s has %s, where the schema requires %s; PowerPoint repairs the deck", e.QName(), where, got, want),
		Fix:     fmt.Sprintf("write %s as an integer in EMU (914400 per inch; e.g. %s=\"914400\"); a NaN or an empty value usually comes from arithmetic on a missing size", attr, attr)})
}

// checkColor applies the srgbClr rule of ContentRules.
func (h *partHandler) checkColor(e *formats.Element) {
	v, _ := e.Get("", "val")
	if isHex6(v) {
		return
	}
	where := shapeOf(e)
	fix := "write the colour as six hexadecimal digits, e.g. val=\"1F4E79\" (no '#'; transparency goes in a child <a:alpha val=\"55000\"/>)"
	if len(v) == 7 && v[0] == '#' && isHex6(v[1:]) {
		fix = fmt.Sprintf("write val=\"%s\" (without the '#')", v[1:])
	}
	h.in.p.Add(formats.Finding{Code: CodeColorInvalid, Grade: formats.Fatal, Part: h.part, Line: e.Line, Column: e.Column, Locator: e.Locator(),
		Anchor:  fmt.Sprintf("%s srgbClr val=%q", where, v),
		Message: fmt.Sprintf("<%s val=%q> in %s is not a colour PowerPoint reads (ST_HexColorRGB: six hexadecimal digits); PowerPoint repairs the deck", e.QName(), v, where),
		Fix:     fix})
}

// isHex6 reports whether s is six hexadecimal digits.
func isHex6(s string) bool {
	if len(s) != 6 {
		return false
	}
	for i := 0; i < 6; i++ {
		c := s[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}

// shapeID records a shape's p:cNvPr id and reports a second shape with it.
func (h *partHandler) shapeID(e *formats.Element) {
	id, _ := e.Get("", "id")
	name, _ := e.Get("", "name")
	if id == "" {
		return
	}
	if h.shapeIDs == nil {
		h.shapeIDs = map[string]string{}
	}
	first, dup := h.shapeIDs[id]
	if !dup {
		h.shapeIDs[id] = name
		return
	}
	h.in.p.Add(formats.Finding{Code: CodeShapeIDDuplicate, Grade: formats.Info, Part: h.part, Line: e.Line, Column: e.Column, Locator: e.Locator(),
		Anchor:  fmt.Sprintf("shape id %s %q", id, name),
		Message: fmt.Sprintf("the shape %q has id %s, already the id of %q on this slide; shape ids are unique per slide (animations, comments and connectors find shapes by id), though PowerPoint opens such decks", name, id, first),
		Fix:     "give the shape an id no other shape of the slide has (one more than the largest id in the slide)"})
}

// treeChild checks the children of a p:spTree or p:grpSp.
func (h *partHandler) treeChild(e *formats.Element, st *treeState) {
	st.n++
	local := e.Name.Local
	var what string
	switch {
	case e.Is("AlternateContent", NSMarkupCompat):
		if st.n <= 2 {
			what = "<mc:AlternateContent> before the group's properties"
		}
	case !e.Is(local, nsP...):
		what = fmt.Sprintf("<%s>, which is not a shape", e.QName())
	case st.n == 1 && local != "nvGrpSpPr", st.n == 2 && local != "grpSpPr":
		what = fmt.Sprintf("<%s> where the group's properties (p:nvGrpSpPr, then p:grpSpPr) must come first", e.QName())
	case local == "extLst":
		st.afterX = true
		return
	case st.afterX:
		what = fmt.Sprintf("<%s> after <p:extLst>, which must be the last child", e.QName())
	case st.n > 2 && !shapeTreeChildren[local]:
		what = fmt.Sprintf("<%s>, which is not a shape", e.QName())
	}
	if what == "" || st.reports > 0 {
		return
	}
	st.reports++
	tree := "the shape tree"
	if e.Parent.Name.Local == "grpSp" {
		tree = "a group shape"
	}
	h.in.p.Add(formats.Finding{Code: CodeShapeTree, Grade: formats.Warning, Part: h.part, Line: e.Line, Column: e.Column, Locator: e.Locator(),
		Anchor:  fmt.Sprintf("%s child %s", tree, e.QName()),
		Message: fmt.Sprintf("%s holds %s (CT_GroupShape: p:nvGrpSpPr, p:grpSpPr, the shapes, then p:extLst last); PowerPoint's reaction is not documented", tree, what),
		Fix:     "insert shapes after p:grpSpPr and before p:extLst (python-pptx's insert_element_before(el, 'p:extLst')), and keep only shapes in the tree"})
}

// paraChild checks the children of an a:p: a:pPr first, nothing after
// a:endParaRPr.
func (h *partHandler) paraChild(e *formats.Element, ps *paraState) {
	local := e.Name.Local
	switch {
	case local == "pPr" && ps.content:
		where := shapeOf(e)
		h.in.p.Add(formats.Finding{Code: CodeParagraphOrder, Grade: formats.Fatal, Part: h.part, Line: e.Line, Column: e.Column, Locator: e.Locator(),
			Anchor:  where + " pPr not first",
			Message: fmt.Sprintf("a paragraph of %s has its <a:pPr> after its runs; the paragraph properties must be the first child of <a:p>, and PowerPoint reports an error", where),
			Fix:     "move the <a:pPr …> element to the start of the <a:p> (merge it with an existing first <a:pPr>)"})
	case ps.ended && local != "endParaRPr" && local != "extLst":
		where := shapeOf(e)
		h.in.p.Add(formats.Finding{Code: CodeParagraphOrder, Grade: formats.Error, Part: h.part, Line: e.Line, Column: e.Column, Locator: e.Locator(),
			Anchor:  where + " after endParaRPr " + local,
			Message: fmt.Sprintf("a paragraph of %s has <%s> after its <a:endParaRPr>; PowerPoint does not show content placed after the end-of-paragraph properties", where, e.QName()),
			Fix:     fmt.Sprintf("move the <%s> before <a:endParaRPr>, which must be the last child of <a:p>", e.QName())})
	}
	switch local {
	case "pPr":
	case "endParaRPr":
		ps.ended = true
	default:
		ps.content = true
	}
}

// masterID is one p:sldMasterId or p:sldLayoutId entry.
type masterID struct {
	id, part, loc, elem string
	has                 bool
	line, col           int
}

func masterIDOf(e *formats.Element) masterID {
	id, has := e.Get("", "id")
	return masterID{id: strings.TrimSpace(id), has: has, loc: e.Locator(), elem: e.QName(), line: e.Line, col: e.Column}
}

// checkMasterIDs checks the ids of the slide masters (presentation.xml)
// and slide layouts (each master's p:sldLayoutIdLst): one id space, every
// id at least 2147483648 (ruleMasterID).
func (in *inspector) checkMasterIDs(ph *presHandler) {
	all := make([]masterID, 0, len(ph.masters))
	for _, m := range ph.masters {
		m.part = in.pres
		all = append(all, m)
	}
	all = append(all, in.layoutIDs...)
	seen := map[string]masterID{}
	for _, m := range all {
		var why, anchor string
		n, err := strconv.ParseUint(m.id, 10, 64)
		switch {
		case !m.has:
			why, anchor = "has no id", "no id"
		case err != nil:
			why, anchor = fmt.Sprintf("has id=%q, which is not a number", m.id), "id "+m.id
		case n < 2147483648 || n > 4294967295:
			why, anchor = fmt.Sprintf("has id %s, outside the range 2147483648–4294967295 that slide master and layout ids take", m.id), "id "+m.id+" range"
		default:
			if first, dup := seen[m.id]; dup {
				why, anchor = fmt.Sprintf("has id %s, already used by the %s in %s (masters and layouts share one id space)", m.id, first.elem, first.part), "id "+m.id+" twice"
			} else {
				seen[m.id] = m
			}
		}
		if why == "" {
			continue
		}
		in.p.Add(formats.Finding{Code: CodeMasterID, Grade: ruleMasterID.Grade, Part: m.part, Line: m.line, Column: m.col, Locator: m.loc,
			Anchor:  m.elem + " " + anchor,
			Message: fmt.Sprintf("the entry <%s> %s; PowerPoint's reaction is not documented", m.elem, why),
			Fix:     "give it an unused id of 2147483648 or more (one more than the largest slide master or layout id in the deck)"})
	}
}
