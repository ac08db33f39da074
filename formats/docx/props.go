package docx

import (
	"fmt"
	"strings"

	"github.com/editaudit/editaudit/formats"
)

// propOrder is the schema order of a property element's children.
type propOrder struct {
	// clause cites the schema type.
	clause string
	// grade of an out-of-order finding.
	grade formats.Grade
	index map[string]uint8
	names []string
}

func newPropOrder(grade formats.Grade, clause string, groups ...string) *propOrder {
	o := &propOrder{clause: clause, grade: grade, index: map[string]uint8{}}
	for i, g := range groups {
		// names separated by "|" form a choice: they share a position.
		for _, n := range strings.Split(g, "|") {
			o.index[n] = uint8(i + 1)
		}
		o.names = append(o.names, g)
	}
	return o
}

// The sequences of ECMA-376 part 1 (Transitional schema wml.xsd). EG_RPrBase
// is a choice in the schema, so any order of run properties is valid there;
// it is checked against the order the schema lists (and Word writes)
// because applications drop out-of-order run properties silently
// (DEFECTS.md: w:color in w:rPr). Children outside the w namespace (w14:…
// extensions) are not checked.
//
// Grades (DEFECTS.md: "varies … warning unless measured"): warning for
// table and cell properties (Word repairs out-of-order table properties),
// run properties (silently dropped) and section properties; info for
// paragraph properties, because ONLYOFFICE writes w:pPr children in its own
// order (corpus: onlyoffice_sample.docx) and Word opens those files.
var (
	orderPPr = newPropOrder(formats.Info, "CT_PPr, §17.3.1.26",
		"pStyle", "keepNext", "keepLines", "pageBreakBefore", "framePr", "widowControl", "numPr",
		"suppressLineNumbers", "pBdr", "shd", "tabs", "suppressAutoHyphens", "kinsoku", "wordWrap",
		"overflowPunct", "topLinePunct", "autoSpaceDE", "autoSpaceDN", "bidi", "adjustRightInd",
		"snapToGrid", "spacing", "ind", "contextualSpacing", "mirrorIndents", "suppressOverlap", "jc",
		"textDirection", "textAlignment", "textboxTightWrap", "outlineLvl", "divId", "cnfStyle",
		"rPr", "sectPr", "pPrChange")
	orderRPr = newPropOrder(formats.Warning, "CT_RPr, §17.3.2.28",
		"ins", "del", "moveFrom", "moveTo",
		"rStyle", "rFonts", "b", "bCs", "i", "iCs", "caps", "smallCaps", "strike", "dstrike", "outline",
		"shadow", "emboss", "imprint", "noProof", "snapToGrid", "vanish", "webHidden", "color", "spacing",
		"w", "kern", "position", "sz", "szCs", "highlight", "u", "effect", "bdr", "shd", "fitText",
		"vertAlign", "rtl", "cs", "em", "lang", "eastAsianLayout", "specVanish", "oMath", "rPrChange")
	orderTblPr = newPropOrder(formats.Warning, "CT_TblPr, §17.4.60",
		"tblStyle", "tblpPr", "tblOverlap", "bidiVisual", "tblStyleRowBandSize", "tblStyleColBandSize",
		"tblW", "jc", "tblCellSpacing", "tblInd", "tblBorders", "shd", "tblLayout", "tblCellMar",
		"tblLook", "tblCaption", "tblDescription", "tblPrChange")
	orderTcPr = newPropOrder(formats.Warning, "CT_TcPr, §17.4.70",
		"cnfStyle", "tcW", "gridSpan", "hMerge", "vMerge", "tcBorders", "shd", "noWrap", "tcMar",
		"textDirection", "tcFitText", "vAlign", "hideMark", "headers", "cellIns|cellDel|cellMerge", "tcPrChange")
	orderSectPr = newPropOrder(formats.Warning, "CT_SectPr, §17.6.17",
		"headerReference|footerReference", "footnotePr", "endnotePr", "type", "pgSz", "pgMar", "paperSrc",
		"pgBorders", "lnNumType", "pgNumType", "cols", "formProt", "vAlign", "noEndnote", "titlePg",
		"textDirection", "bidi", "rtlGutter", "docGrid", "printerSettings", "sectPrChange")
)

// orderOf returns the child order of a property element, or nil.
func orderOf(local string) *propOrder {
	switch local {
	case "pPr":
		return orderPPr
	case "rPr":
		return orderRPr
	case "tblPr":
		return orderTblPr
	case "tcPr":
		return orderTcPr
	case "sectPr":
		return orderSectPr
	}
	return nil
}

// ownProp is the property element each structure owns, first among its
// children (ECMA-376 part 1: CT_P pPr?, CT_R rPr?, CT_Tc tcPr?).
func ownProp(k kind) string {
	switch k {
	case kP:
		return "pPr"
	case kR:
		return "rPr"
	case kTc:
		return "tcPr"
	}
	return ""
}

// Frame flags for the property checks.
const (
	flagProp    = 1 << iota // the owner's property element was seen
	flagContent             // a content child was seen
	flagGrid                // a w:tbl's w:tblGrid was seen
	flagBad                 // the property element's children are out of order
)

// checkPropPlace flags a property element that is duplicated, comes after
// content, or sits inside a property element of its own name (w:pPr in
// w:pPr: Open XML SDK test file 5Errors). Word's reaction is not measured:
// warning. f is the new element's frame, parent its parent's index.
func (h *storyHandler) checkPropPlace(e *formats.Element, parent int) {
	if parent < 0 || !isW(e) {
		return
	}
	pf := &h.stack[parent]
	local := e.Name.Local
	var what string
	switch {
	case pf.kind == kProp && pf.local == local:
		what = fmt.Sprintf("<%s> is nested inside another <%s>", e.QName(), e.QName())
	case ownProp(pf.kind) == local:
		if pf.flags&flagProp != 0 {
			what = fmt.Sprintf("a second <%s> in the same element; only one is allowed and the second is ignored or makes Word repair the file", e.QName())
		} else if pf.flags&flagContent != 0 {
			what = fmt.Sprintf("<%s> comes after the element's content; it must be its first child", e.QName())
		}
		pf.flags |= flagProp
	case pf.kind == kTbl && (local == "tblPr" || local == "tblGrid"):
		if pf.n > 0 || (local == "tblPr" && pf.flags&(flagProp|flagGrid) != 0) || (local == "tblGrid" && pf.flags&flagGrid != 0) {
			what = fmt.Sprintf("<%s> is out of place in <w:tbl>: the order is <w:tblPr>, <w:tblGrid>, then the rows, each once", e.QName())
		}
		if local == "tblPr" {
			pf.flags |= flagProp
		} else {
			pf.flags |= flagGrid
		}
	case pf.kind == kTr && (local == "trPr" || local == "tblPrEx"):
		if pf.n > 0 || pf.flags&flagProp != 0 {
			what = fmt.Sprintf("<%s> is out of place in <w:tr>: <w:tblPrEx> and <w:trPr> come once each, before the cells", e.QName())
		}
		if local == "trPr" {
			pf.flags |= flagProp
		}
	}
	if what == "" {
		return
	}
	h.add(formats.Finding{Code: CodePropOrder, Grade: formats.Warning, Part: h.part, Line: e.Line, Column: e.Column,
		Locator: e.Locator(),
		Message: fmt.Sprintf("in %s, %s (schema violation; Word's reaction is not measured, other readers drop the properties)", h.whereNear(len(h.stack)-1), what),
		Fix:     fmt.Sprintf("merge the properties into one <%s> placed as the first child of its element", e.QName()),
		Anchor:  "misplaced " + e.QName() + " in " + kindNames[pf.kind] + pf.local})
}

var kindNames = map[kind]string{kP: "w:p", kR: "w:r", kTc: "w:tc", kTr: "w:tr", kTbl: "w:tbl", kProp: "w:"}

// checkPropChild records a child of an ordered property element.
func (h *storyHandler) checkPropChild(e *formats.Element, parent int) {
	pf := &h.stack[parent]
	if pf.order == nil || !isW(e) {
		return
	}
	i := pf.order.index[e.Name.Local]
	if i == 0 {
		return
	}
	if len(pf.seen) > 0 && i < pf.seen[len(pf.seen)-1] {
		pf.flags |= flagBad
	}
	pf.seen = append(pf.seen, i)
	pf.seenNames = append(pf.seenNames, e.Name.Local)
}

// endProp reports a property element whose children were out of order,
// with the order they must have.
func (h *storyHandler) endProp(e *formats.Element, f *frame) {
	if f.flags&flagBad == 0 {
		return
	}
	// Stable insertion sort of the children by schema position.
	names := append([]string(nil), f.seenNames...)
	pos := append([]uint8(nil), f.seen...)
	for i := 1; i < len(pos); i++ {
		for j := i; j > 0 && pos[j] < pos[j-1]; j-- {
			pos[j], pos[j-1] = pos[j-1], pos[j]
			names[j], names[j-1] = names[j-1], names[j]
		}
	}
	prefix := e.Prefix
	if prefix == "" {
		prefix = "w"
	}
	for i := range names {
		names[i] = prefix + ":" + names[i]
	}
	var got []string
	for _, n := range f.seenNames {
		got = append(got, prefix+":"+n)
	}
	h.add(formats.Finding{Code: CodePropOrder, Grade: f.order.grade, Part: h.part, Line: e.Line, Column: e.Column,
		Locator: e.Locator(),
		Message: fmt.Sprintf("in %s, the children of <%s> are out of schema order (%s): %s. Word repairs some out-of-order properties (table properties), silently drops others, and accepts others; not measured for this case",
			h.whereNear(len(h.stack)-1), e.QName(), f.order.clause, strings.Join(got, ", ")),
		Fix:    fmt.Sprintf("reorder the children of <%s> to: %s", e.QName(), strings.Join(names, ", ")),
		Anchor: fmt.Sprintf("%s order %s", e.QName(), strings.Join(got, ","))})
}
