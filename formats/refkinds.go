package formats

import (
	"fmt"
	"strings"
)

// RelRefKind is one kind of relationship reference: an r:* attribute on
// an element that must name a relationship of one of Types (the last
// segment of the relationship type, Transitional and Strict alike). The
// core checks that the relationship exists (rels.undefined-id, every
// element); this table adds that it is of the right type
// (rels.wrong-type), graded per row with the evidence beside it.
//
// The table is the audit trail: docs/validation.md lists it row by row, and a
// test keeps the two in step.
type RelRefKind struct {
	// Element is the element's local name; NS its namespaces (Transitional
	// and Strict).
	Element string
	NS      []string
	// Attr is the local name of the r: attribute ("id", "embed", "link").
	Attr string
	// Types are the relationship types the reference may name.
	Types []string
	// Grade of a reference to a relationship of another type.
	Grade Grade
	// Effect says what the application does, for the message.
	Effect string
	// Evidence cites the public report or spec clause behind Grade.
	Evidence string
}

// Namespaces used by the reference table (the formats packages declare
// their own copies; the core must not import them).
const (
	nsWordT    = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
	nsWordS    = "http://purl.oclc.org/ooxml/wordprocessingml/main"
	nsDrawingT = "http://schemas.openxmlformats.org/drawingml/2006/main"
	nsDrawingS = "http://purl.oclc.org/ooxml/drawingml/main"
	nsChartT   = "http://schemas.openxmlformats.org/drawingml/2006/chart"
	nsChartS   = "http://purl.oclc.org/ooxml/drawingml/chart"
	nsSheetT   = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
	nsSheetS   = "http://purl.oclc.org/ooxml/spreadsheetml/main"
	nsPresT    = "http://schemas.openxmlformats.org/presentationml/2006/main"
	nsPresS    = "http://purl.oclc.org/ooxml/presentationml/main"
)

// RelRefKinds is the table of relationship-reference kinds checked for
// their relationship type. p:sldId is checked by formats/pptx
// (pptx.sldid-not-slide) and is not repeated here.
var RelRefKinds = []RelRefKind{
	{Element: "headerReference", NS: []string{nsWordT, nsWordS}, Attr: "id", Types: []string{"header"}, Grade: Fatal,
		Effect:   "Word reports unreadable content",
		Evidence: "anthropics/skills#1569 (hard-coded header/footer relationship ids make Word report unreadable content); ECMA-376 Part 1 §17.10.5: the relationship shall be a header relationship"},
	{Element: "footerReference", NS: []string{nsWordT, nsWordS}, Attr: "id", Types: []string{"footer"}, Grade: Fatal,
		Effect:   "Word reports unreadable content",
		Evidence: "anthropics/skills#1569; ECMA-376 Part 1 §17.10.2: the relationship shall be a footer relationship"},
	{Element: "sheet", NS: []string{nsSheetT, nsSheetS}, Attr: "id", Types: []string{"worksheet", "chartsheet", "dialogsheet", "macrosheet", "xlMacrosheet", "xlIntlMacrosheet"}, Grade: Fatal,
		Effect:   "Excel cannot load the sheet and repairs the workbook",
		Evidence: "ECMA-376 Part 1 §18.2.19: r:id names the sheet part; a sheet entry whose part cannot be loaded as a sheet is repaired like a missing sheet part (the same grade as pptx.sldid-not-slide)"},
	{Element: "sldMasterId", NS: []string{nsPresT, nsPresS}, Attr: "id", Types: []string{"slideMaster"}, Grade: Fatal,
		Effect:   "PowerPoint cannot load the slide master and repairs the deck",
		Evidence: "ECMA-376 Part 1 §19.2.1.33: r:id names the slide master; the same grade as pptx.sldid-not-slide (a slide entry whose part is not a slide)"},
	{Element: "notesMasterId", NS: []string{nsPresT, nsPresS}, Attr: "id", Types: []string{"notesMaster"}, Grade: Warning,
		Effect:   "PowerPoint's reaction is not documented",
		Evidence: "ECMA-376 Part 1 §19.2.1.22; no public report of the effect"},
	{Element: "handoutMasterId", NS: []string{nsPresT, nsPresS}, Attr: "id", Types: []string{"handoutMaster"}, Grade: Warning,
		Effect:   "PowerPoint's reaction is not documented",
		Evidence: "ECMA-376 Part 1 §19.2.1.13; no public report of the effect"},
	{Element: "blip", NS: []string{nsDrawingT, nsDrawingS}, Attr: "embed", Types: []string{"image"}, Grade: Warning,
		Effect:   "the application cannot draw the picture",
		Evidence: "ECMA-376 Part 1 §20.1.8.13 (r:embed names an image part); the effect of another part type is not documented"},
	{Element: "chart", NS: []string{nsChartT, nsChartS}, Attr: "id", Types: []string{"chart"}, Grade: Warning,
		Effect:   "the application cannot draw the chart",
		Evidence: "ECMA-376 Part 1 §21.2.2.27; the effect of another part type is not documented"},
	{Element: "hyperlink", NS: []string{nsWordT, nsWordS}, Attr: "id", Types: []string{"hyperlink"}, Grade: Warning,
		Effect:   "the link does not go where it should",
		Evidence: "ECMA-376 Part 1 §17.16.22 (r:id names a hyperlink relationship); effect not documented"},
	{Element: "tablePart", NS: []string{nsSheetT, nsSheetS}, Attr: "id", Types: []string{"table"}, Grade: Warning,
		Effect:   "Excel's reaction is not documented",
		Evidence: "ECMA-376 Part 1 §18.3.1.94; effect not documented"},
	{Element: "drawing", NS: []string{nsSheetT, nsSheetS}, Attr: "id", Types: []string{"drawing"}, Grade: Warning,
		Effect:   "Excel's reaction is not documented",
		Evidence: "ECMA-376 Part 1 §18.3.1.36; effect not documented"},
}

// Format is the format whose parts carry the reference ("docx", "pptx",
// "xlsx", or "any" for DrawingML elements every format uses).
func (k RelRefKind) Format() string {
	switch k.NS[0] {
	case nsWordT:
		return "docx"
	case nsPresT:
		return "pptx"
	case nsSheetT:
		return "xlsx"
	}
	return "any"
}

// QName is the element's usual qualified name ("w:headerReference").
func (k RelRefKind) QName() string {
	switch k.NS[0] {
	case nsWordT:
		return "w:" + k.Element
	case nsPresT:
		return "p:" + k.Element
	case nsDrawingT:
		return "a:" + k.Element
	case nsChartT:
		return "c:" + k.Element
	}
	return k.Element
}

// relRefIndex maps "namespace local attr" to a row of RelRefKinds.
func relRefIndex() map[string]*RelRefKind {
	m := make(map[string]*RelRefKind, 2*len(RelRefKinds))
	for i := range RelRefKinds {
		k := &RelRefKinds[i]
		for _, ns := range k.NS {
			m[ns+" "+k.Element+" "+k.Attr] = k
		}
	}
	return m
}

// checkRefType reports a reference whose relationship exists but is of a
// type its element cannot use.
func (p *Package) checkRefType(idx map[string]*RelRefKind, part string, ref relRef, r *Rel) {
	kind := idx[ref.elemNS+" "+ref.elem+" "+strings.TrimPrefix(ref.attr, "r:")]
	if kind == nil {
		return
	}
	got := lastSeg(r.Type)
	for _, t := range kind.Types {
		if got == t {
			return
		}
	}
	target := r.Target
	if r.Resolved != "" {
		target = r.Resolved
	}
	p.Add(Finding{Code: CodeRelsWrongType, Grade: kind.Grade, Part: part, Line: ref.line, Column: ref.col, Locator: ref.loc,
		Anchor: fmt.Sprintf("%s %s=%s→%s", ref.elem, ref.attr, ref.id, got),
		Message: fmt.Sprintf("<%s %s=\"%s\"> must name a %s relationship, but %s is a %s relationship (to %s); %s",
			ref.elem, ref.attr, ref.id, strings.Join(kind.Types, " or "), ref.id, got, target, kind.Effect),
		Fix: fmt.Sprintf("point %s at the %s relationship in %s that this element means (add one if there is none), or restore relationship %s to a %s relationship",
			ref.attr, strings.Join(kind.Types, " or "), RelsPartOf(part), ref.id, kind.Types[0])})
}
