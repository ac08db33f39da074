package pptx

import (
	"fmt"
	"strings"

	"github.com/editaudit/editaudit/formats"
)

// presentationOrder is the child sequence of CT_Presentation (ECMA-376
// Part 1 §19.2.1.26, pml.xsd).
var presentationOrder = []string{"sldMasterIdLst", "notesMasterIdLst", "handoutMasterIdLst", "sldIdLst",
	"sldSz", "notesSz", "smartTags", "embeddedFontLst", "custShowLst", "photoAlbum", "custDataLst",
	"kinsoku", "defaultTextStyle", "modifyVerifier", "extLst"}

// masterOrder is the child sequence of CT_SlideMaster (ECMA-376 Part 1
// §19.3.1, p:sldMaster; pml.xsd).
var masterOrder = []string{"cSld", "clrMap", "sldLayoutIdLst", "transition", "timing", "hf", "txStyles", "extLst"}

// position is where an element was seen.
type position struct {
	line, column int
	locator      string
}

func posOf(e *formats.Element) position {
	return position{e.Line, e.Column, e.Locator()}
}

// seqCheck follows the children of one element against a schema sequence.
// Elements not in the sequence (mc:AlternateContent, extensions) are
// ignored: Office wraps optional children such as p:transition in
// mc:AlternateContent (poi_stress022.pptx), which is valid.
type seqCheck struct {
	rank    map[string]int
	maxRank int
	maxName string
	seen    map[string]position
}

func newSeqCheck(order []string) *seqCheck {
	s := &seqCheck{rank: map[string]int{}, maxRank: -1, seen: map[string]position{}}
	for i, n := range order {
		s.rank[n] = i
	}
	return s
}

// step records child name at pos and returns the name of the
// highest-ranked child seen before it when name comes too late ("" when in
// order), and whether name was already seen.
func (s *seqCheck) step(name string, pos position) (after string, dup, known bool) {
	r, ok := s.rank[name]
	if !ok {
		return "", false, false
	}
	_, dup = s.seen[name]
	if !dup {
		s.seen[name] = pos
	}
	if r < s.maxRank {
		return s.maxName, dup, true
	}
	s.maxRank, s.maxName = r, name
	return "", dup, true
}

// presHandler scans ppt/presentation.xml: the slide list and the order of
// the root's children.
type presHandler struct {
	formats.NopHandler
	in             *inspector
	seq            *seqCheck
	slides         []slideRef
	masters        []masterID
	notesMasterLst bool
}

func newPresHandler(in *inspector) *presHandler {
	return &presHandler{in: in, seq: newSeqCheck(presentationOrder)}
}

// Start implements formats.Handler.
func (h *presHandler) Start(e *formats.Element) {
	switch {
	case e.Depth == 2 && e.Is(e.Name.Local, nsP...):
		if e.Name.Local == "notesMasterIdLst" {
			h.notesMasterLst = true
		}
		h.order(e)
	case e.Depth == 3 && e.Is("sldMasterId", nsP...) && e.Parent.Is("sldMasterIdLst", nsP...):
		h.masters = append(h.masters, masterIDOf(e))
	case e.Depth == 3 && e.Is("sldId", nsP...) && e.Parent.Is("sldIdLst", nsP...):
		id, hasID := e.Get("", "id")
		rid, ok := e.Get(formats.NSRelsT, "id")
		if !ok {
			rid, _ = e.Get(formats.NSRelsS, "id")
		}
		h.slides = append(h.slides, slideRef{id: strings.TrimSpace(id), hasID: hasID, rid: rid, line: e.Line, column: e.Column, locator: e.Locator()})
	}
}

// order grades a child of p:presentation that is out of the CT_Presentation
// sequence. The grades follow the evidence, not the schema:
//
//   - p:sldIdLst before p:sldMasterIdLst: PowerPoint says the file needs
//     repair (jgm/pandoc#7536, fixed by pandoc#11310 by placing the slide
//     list after the master list) → fatal.
//   - p:notesMasterIdLst right after p:sldIdLst: PptxGenJS writes this in
//     every deck it makes (gen-xml.ts makeXmlPresentation, whose comment
//     says the schema position caused a warning in PowerPoint) and
//     PowerPoint opens them; a production pipeline that "fixed" it by
//     reordering made decks unopenable (DEFECTS.md) → info, fix: leave it.
//   - any other deviation: the effect is not measured → warning, and the
//     fix says how to reorder safely rather than asking for a hand edit.
func (h *presHandler) order(e *formats.Element) {
	name := e.Name.Local
	pos := posOf(e)
	after, dup, known := h.seq.step(name, pos)
	if !known {
		return
	}
	p := h.in.p
	part := h.in.pres
	if dup {
		// CT_Presentation allows each child once; a second one is not read
		// the way its writer meant (unmeasured) → warning.
		p.Add(formats.Finding{Code: CodePresentationOrder, Grade: formats.Warning, Part: part, Line: e.Line, Column: e.Column, Locator: pos.locator, Anchor: "dup:" + name,
			Message: fmt.Sprintf("p:presentation has more than one <p:%s>; the schema allows one, and PowerPoint may read only the first", name),
			Fix:     fmt.Sprintf("merge the entries of both <p:%s> elements into the first one and delete the second", name)})
		return
	}
	if after == "" {
		return
	}
	anchor := "order:" + name + "<" + after
	switch {
	case name == "sldMasterIdLst" && h.hasSeen("sldIdLst"):
		p.Add(formats.Finding{Code: CodePresentationOrder, Grade: formats.Fatal, Part: part, Line: e.Line, Column: e.Column, Locator: pos.locator, Anchor: "order:sldIdLst<sldMasterIdLst",
			Message: "the slide list <p:sldIdLst> comes before the slide master list <p:sldMasterIdLst> in presentation.xml; PowerPoint reports that the file needs repair (pandoc#7536)",
			Fix:     "move the whole <p:sldIdLst>…</p:sldIdLst> element to just after </p:sldMasterIdLst> (after </p:notesMasterIdLst> and </p:handoutMasterIdLst> when those directly follow it), where PowerPoint writes it; change nothing else"})
	case name == "notesMasterIdLst" && after == "sldIdLst":
		p.Add(formats.Finding{Code: CodePresentationOrder, Grade: formats.Info, Part: part, Line: e.Line, Column: e.Column, Locator: pos.locator, Anchor: anchor,
			Message: "<p:notesMasterIdLst> comes after <p:sldIdLst> (the schema puts it before). PptxGenJS writes every deck this way and PowerPoint opens them; at most the Notes Page view may not show the slide image (pandoc#11310)",
			Fix:     "leave it as it is: moving this element by hand has made decks unopenable. If the order must change, re-save the deck from PowerPoint, which writes the schema order"})
	default:
		p.Add(formats.Finding{Code: CodePresentationOrder, Grade: formats.Warning, Part: part, Line: e.Line, Column: e.Column, Locator: pos.locator, Anchor: anchor,
			Message: fmt.Sprintf("<p:%s> comes after <p:%s> in presentation.xml; the schema order is %s. PowerPoint's reaction to this ordering is not measured (it repairs some orderings and accepts others)", name, after, strings.Join(presentationOrder, ", ")),
			Fix:     fmt.Sprintf("if PowerPoint opens the deck, leave it; otherwise re-save it from PowerPoint, or move the whole <p:%s> element (with its children) to just before <p:%s> and check that the deck opens — do not move other elements", name, after)})
	}
}

func (h *presHandler) hasSeen(name string) bool {
	_, ok := h.seq.seen[name]
	return ok
}

// masterOrderStep grades a child of p:sldMaster that is out of the
// CT_SlideMaster sequence. p:sldLayoutIdLst before p:clrMap makes
// PowerPoint refuse the file (DEFECTS.md, single report) → fatal, with the
// fix PowerPoint's own order gives (every one of the 37 real decks in the
// corpus has cSld, clrMap, sldLayoutIdLst in that order). Other
// deviations are unmeasured → warning.
func masterOrderStep(in *inspector, part string, seq *seqCheck, e *formats.Element) {
	name := e.Name.Local
	pos := posOf(e)
	after, dup, known := seq.step(name, pos)
	if !known || (after == "" && !dup) {
		return
	}
	p := in.p
	if dup {
		p.Add(formats.Finding{Code: CodeMasterOrder, Grade: formats.Warning, Part: part, Line: e.Line, Column: e.Column, Locator: pos.locator, Anchor: "dup:" + name,
			Message: fmt.Sprintf("the slide master has more than one <p:%s>; the schema allows one", name),
			Fix:     fmt.Sprintf("keep one <p:%s> and delete the other", name)})
		return
	}
	if _, layoutsFirst := seq.seen["sldLayoutIdLst"]; name == "clrMap" && layoutsFirst {
		p.Add(formats.Finding{Code: CodeMasterOrder, Grade: formats.Fatal, Part: part, Line: e.Line, Column: e.Column, Locator: pos.locator, Anchor: "order:clrMap<sldLayoutIdLst",
			Message: "in the slide master, <p:sldLayoutIdLst> comes before <p:clrMap>; PowerPoint refuses to open such a deck",
			Fix:     "move the <p:clrMap …/> element to directly after </p:cSld>, before <p:sldLayoutIdLst> (the order PowerPoint itself writes: cSld, clrMap, sldLayoutIdLst, …); change nothing else"})
		return
	}
	p.Add(formats.Finding{Code: CodeMasterOrder, Grade: formats.Warning, Part: part, Line: e.Line, Column: e.Column, Locator: pos.locator, Anchor: "order:" + name + "<" + after,
		Message: fmt.Sprintf("in the slide master, <p:%s> comes after <p:%s>; the schema order is %s. PowerPoint's reaction to this ordering is not measured", name, after, strings.Join(masterOrder, ", ")),
		Fix:     fmt.Sprintf("if PowerPoint opens the deck, leave it; otherwise move the whole <p:%s> element to just before <p:%s> (PowerPoint's own order) and check that the deck opens", name, after)})
}
