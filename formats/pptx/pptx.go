// Package pptx validates and counts PowerPoint packages (.pptx, .pptm,
// .potx, .ppsx and their Strict variants).
//
// Inspect scans presentation.xml, every slide in the order of the slide
// list (p:sldIdLst), and every slide layout, slide master, notes slide,
// notes master and handout master once each. In the same pass it counts
// structure (slides, paragraphs, runs, tables, notes) and runs the
// PowerPoint checks of DEFECTS.md: presentation.xml and slide-master child
// order, slide-list integrity, text bodies without paragraphs, preset
// geometry names and notes slides without a notes master, and the rules of
// drawing.go (ContentRules, ReferenceRules: adjust-guide names, DrawingML
// numbers, paragraph child order, shape trees, shape, master and layout ids,
// slides without a layout). Package-level
// checks (content types, relationships, XML well-formedness) are the core's
// (formats.Package.ScanRest) and are not repeated here.
//
// It imports formats (and internal packages) only; it must not import
// formats/inspect, content, pixeldiff, render, baseline, audit, reports or corpus
// (formats/inspect wires it; the others judge what it reports).
package pptx

import (
	"context"
	"fmt"
	"strings"

	"github.com/editaudit/editaudit/formats"
)

// Namespaces, Transitional and Strict (ISO/IEC 29500-1 Strict renames them).
const (
	NSPresentationT = "http://schemas.openxmlformats.org/presentationml/2006/main"
	NSPresentationS = "http://purl.oclc.org/ooxml/presentationml/main"
	NSDrawingT      = "http://schemas.openxmlformats.org/drawingml/2006/main"
	NSDrawingS      = "http://purl.oclc.org/ooxml/drawingml/main"
	NSMarkupCompat  = "http://schemas.openxmlformats.org/markup-compatibility/2006"
)

var (
	nsP = []string{NSPresentationT, NSPresentationS}
	nsA = []string{NSDrawingT, NSDrawingS}
)

// Finding codes of the PowerPoint checks. They are a public interface (JSON,
// SARIF rule ids): add new ones, never rename. The grade of each is set where
// it is emitted, with the evidence cited there.
const (
	// CodePresentationOrder: a child of p:presentation is out of the
	// CT_Presentation sequence. Fatal only for the orderings PowerPoint is
	// known to repair; info for the one healthy generators write.
	CodePresentationOrder = "pptx.presentation-order"
	// CodeMasterOrder: a child of p:sldMaster is out of the CT_SlideMaster
	// sequence (fatal for p:sldLayoutIdLst before p:clrMap).
	CodeMasterOrder = "pptx.master-order"
	// CodeSldIDInvalid: a p:sldId whose id is missing or not a number.
	CodeSldIDInvalid = "pptx.sldid-invalid"
	// CodeSldIDRange: a p:sldId id outside ST_SlideId (256…2147483647).
	CodeSldIDRange = "pptx.sldid-out-of-range"
	// CodeSldIDDuplicate: two p:sldId with the same id.
	CodeSldIDDuplicate = "pptx.sldid-duplicate"
	// CodeSldIDNoRel: a p:sldId without r:id.
	CodeSldIDNoRel = "pptx.sldid-no-rel"
	// CodeSldIDNotSlide: a p:sldId whose relationship is not a slide
	// relationship to an internal part.
	CodeSldIDNotSlide = "pptx.sldid-not-slide"
	// CodeSlideNotListed: a slide relationship of presentation.xml that no
	// p:sldId uses (the slide is in the package but not in the deck).
	CodeSlideNotListed = "pptx.slide-not-listed"
	// CodeSlideNoLayout: a listed slide without a slideLayout relationship.
	CodeSlideNoLayout = "pptx.slide-no-layout"
	// CodeLayoutNoMaster: a slide layout without a slideMaster relationship.
	CodeLayoutNoMaster = "pptx.layout-no-master"
	// CodeTxBodyNoP: a p:txBody or a:txBody with no a:p.
	CodeTxBodyNoP = "pptx.txbody-no-p"
	// CodePresetGeometry: a:prstGeom/@prst missing or not in ST_ShapeType.
	CodePresetGeometry = "pptx.bad-preset-geometry"
	// CodeNotesNoMaster: a notes slide with no notes master relationship.
	CodeNotesNoMaster = "pptx.notes-no-master"
	// CodeNotesMasterNotListed: notes slides and a notes master exist but
	// presentation.xml has no p:notesMasterIdLst.
	CodeNotesMasterNotListed = "pptx.notes-master-not-listed"
	// CodeAdjustGuide: an a:gd in a preset geometry's a:avLst whose name
	// the preset does not declare (any a:gd on rect, ellipse…). Fatal.
	CodeAdjustGuide = "pptx.adjust-guide-invalid"
	// CodeXfrmInvalid: a:off, a:ext, a:chOff or a:chExt with a missing,
	// non-integer (NaN) or out-of-range coordinate, or a cell margin that
	// is not a number. Fatal.
	CodeXfrmInvalid = "pptx.number-invalid"
	// CodeShapeIDDuplicate: two shapes of one slide share a p:cNvPr id.
	// Info: PowerPoint opens such decks.
	CodeShapeIDDuplicate = "pptx.shape-id-duplicate"
	// CodeMasterID: a slide master or layout id missing, not a number,
	// below 2147483648 or used twice. Warning.
	CodeMasterID = "pptx.master-id-invalid"
	// CodeShapeTree: a shape tree (p:spTree, p:grpSp) whose children break
	// CT_GroupShape: p:nvGrpSpPr and p:grpSpPr not first, something after
	// p:extLst, a child that is not a shape. Warning.
	CodeShapeTree = "pptx.shape-tree"
	// CodeParagraphOrder: a:pPr not the first child of a:p (fatal), or
	// content after a:endParaRPr (error).
	CodeParagraphOrder = "pptx.paragraph-order"
	// CodeColorInvalid: an a:srgbClr whose val is not six hex digits
	// (a CSS colour such as #1F4E79 or rgba(…)).
	CodeColorInvalid = "pptx.color-invalid"
)

// Count keys (DESIGN.md: pptx slides, paragraphs, runs; plus notes and
// tables). runs counts a:r only: a:fld (slide number, date fields) and a:br
// are not runs.
const (
	KeySlides     = "slides"
	KeyParagraphs = "paragraphs"
	KeyRuns       = "runs"
	KeyNotes      = "notes"
	KeyTables     = "tables"
)

// slideRef is one p:sldId of the slide list.
type slideRef struct {
	id, rid      string
	hasID        bool
	line, column int
	locator      string
	part         string // resolved slide part ("" when unresolved)
}

// inspector holds the state of one inspection.
type inspector struct {
	ctx  context.Context
	p    *formats.Package
	rep  *formats.Report
	pres string
	// roots maps each scanned slide-family part (lower-case) to its root
	// element's local name (sld, sldLayout, sldMaster, notes, …).
	roots map[string]string
	// layoutIDs are the p:sldLayoutId entries of every slide master.
	layoutIDs []masterID
	// rootAt is where each scanned part's root element starts.
	rootAt map[string]position
}

// Inspect validates and counts the PowerPoint package p into rep. Findings
// go to p (p.Add); counts and sites to rep. The error is for cancellation
// only: every content problem is a finding.
func Inspect(ctx context.Context, p *formats.Package, rep *formats.Report) error {
	rep.AddCounts("", formats.Counts{KeySlides: 0, KeyParagraphs: 0, KeyRuns: 0, KeyNotes: 0, KeyTables: 0})
	if p.MainPart == "" || !p.Has(p.MainPart) {
		return nil // the core already reported the missing main part
	}
	in := &inspector{ctx: ctx, p: p, rep: rep, pres: p.Entry(p.MainPart).Part, roots: map[string]string{}, rootAt: map[string]position{}}
	ph := newPresHandler(in)
	p.ScanPart(ctx, in.pres, ph)
	if err := ctx.Err(); err != nil {
		return err
	}
	slides := in.resolveSlides(ph.slides)
	rep.AddCounts(in.pres, formats.Counts{KeySlides: len(ph.slides)})

	// Slides in presentation order: count and validate each part once.
	perPart := map[string]formats.Counts{}
	for i, s := range slides {
		if err := ctx.Err(); err != nil {
			return err
		}
		if s.part == "" {
			continue
		}
		c, done := perPart[strings.ToLower(s.part)]
		if !done {
			h := newPartHandler(in, s.part, true)
			p.ScanPart(ctx, s.part, h)
			c = formats.Counts{KeyParagraphs: h.paragraphs, KeyRuns: h.runs, KeyTables: h.tables}
			perPart[strings.ToLower(s.part)] = c
			in.roots[strings.ToLower(s.part)] = h.root
			in.rootAt[strings.ToLower(s.part)] = h.rootAt
			rep.AddCounts(s.part, c)
		}
		site := formats.Counts{}
		site.Add(c)
		rep.Sites = append(rep.Sites, formats.Site{Part: s.part, Where: fmt.Sprintf("slide %d", i+1), Counts: site})
	}
	in.countNotes(slides)
	return in.checkRest(ph)
}

// resolveSlides follows each p:sldId through presentation.xml's
// relationships to its slide part and checks the slide list's integrity.
// An r:id that the .rels part does not define, and a relationship whose
// target is missing, are reported by the core (rels.undefined-id,
// rels.target-missing, both fatal); they are not repeated here.
func (in *inspector) resolveSlides(refs []slideRef) []slideRef {
	p := in.p
	rels := p.RelsOf(in.ctx, in.pres)
	seenID := map[string]*slideRef{}
	for i := range refs {
		s := &refs[i]
		anchor := "sldId " + s.id
		in.checkSlideID(s, anchor, seenID)
		if s.rid == "" {
			// CT_SlideIdListEntry: r:id is required (pml.xsd); a slide entry
			// that names no part cannot be loaded: PowerPoint repairs
			// (DEFECTS.md "sldId → missing rel or part", confirmed).
			p.Add(formats.Finding{Code: CodeSldIDNoRel, Grade: formats.Fatal, Part: in.pres, Line: s.line, Column: s.column, Locator: s.locator, Anchor: anchor,
				Message: fmt.Sprintf("the slide list entry <p:sldId id=\"%s\"> has no r:id, so it names no slide part; PowerPoint repairs the deck", s.id),
				Fix:     "add r:id=\"…\" naming the slide's relationship in ppt/_rels/presentation.xml.rels, or delete this p:sldId"})
			continue
		}
		r := rels.ByID(s.rid)
		if r == nil {
			continue // rels.undefined-id (core)
		}
		if r.External || !strings.HasSuffix(r.Type, "/slide") {
			// The slide list must point at slide parts (ECMA-376 Part 1
			// §19.2.1, p:sldId "specifies a presentation slide"); PowerPoint
			// cannot load anything else as a slide, the same as a missing
			// slide (DEFECTS.md "sldId → missing rel or part": REPAIR).
			what := "an external target"
			if !r.External {
				what = fmt.Sprintf("a %s relationship to %s", lastSeg(r.Type), r.Resolved)
			}
			p.Add(formats.Finding{Code: CodeSldIDNotSlide, Grade: formats.Fatal, Part: in.pres, Line: s.line, Column: s.column, Locator: s.locator, Anchor: anchor + " " + s.rid,
				Message: fmt.Sprintf("the slide list entry <p:sldId id=\"%s\" r:id=\"%s\"> points to %s, not to a slide; PowerPoint repairs the deck", s.id, s.rid, what),
				Fix:     fmt.Sprintf("point r:id at the relationship of type …/relationships/slide for this slide, or delete the p:sldId (relationship %s is a %s)", s.rid, lastSeg(r.Type))})
			continue
		}
		if e := p.Entry(r.Resolved); e != nil {
			s.part = e.Part
		}
	}
	// Slide relationships no p:sldId uses: the part is in the package but
	// not in the deck. PowerPoint opens such decks and ignores the slide
	// (python-pptx's common "delete slide" recipe removes only the sldId;
	// ShapeCrawler#985: "the file loads normally in PowerPoint"), so this
	// is a warning, as DEFECTS.md grades plain orphan parts.
	used := map[string]bool{}
	for _, s := range refs {
		used[s.rid] = true
	}
	for _, r := range rels.ByType("slide") {
		if used[r.ID] || r.External || !p.Has(r.Resolved) {
			continue
		}
		part := p.Entry(r.Resolved).Part
		p.Add(formats.Finding{Code: CodeSlideNotListed, Grade: formats.Warning, Part: in.pres, Anchor: "unlisted " + part,
			Message: fmt.Sprintf("%s is related to the presentation (relationship %s) but no p:sldId lists it, so PowerPoint does not show it; it is not counted as a slide", part, r.ID),
			Fix:     fmt.Sprintf("if the slide was deleted on purpose, also remove relationship %s and the part; if it should be shown, add <p:sldId id=\"…\" r:id=\"%s\"/> to p:sldIdLst", r.ID, r.ID)})
	}
	return refs
}

// checkSlideID checks the p:sldId/@id value: ST_SlideId is an unsignedInt in
// [256, 2147483648) (ECMA-376 Part 1 §19.7, pml.xsd), unique in the list.
func (in *inspector) checkSlideID(s *slideRef, anchor string, seen map[string]*slideRef) {
	p := in.p
	if !s.hasID || !isUint(s.id) {
		// A required attribute missing or not a number: PowerPoint repairs
		// (DEFECTS.md "missing required attributes; NaN": REPAIR, confirmed).
		got := "no id attribute"
		if s.hasID {
			got = fmt.Sprintf("id=%q, which is not a number", s.id)
		}
		p.Add(formats.Finding{Code: CodeSldIDInvalid, Grade: formats.Fatal, Part: in.pres, Line: s.line, Column: s.column, Locator: s.locator, Anchor: "sldId r:id " + s.rid,
			Message: fmt.Sprintf("the slide list entry for r:id %q has %s; every p:sldId needs a unique numeric id from 256 to 2147483647", s.rid, got),
			Fix:     "set id to a number from 256 to 2147483647 that no other p:sldId uses (for example one more than the largest id in the list)"})
		return
	}
	if prev := seen[s.id]; prev != nil {
		// Duplicate slide ids: PowerPoint repairs (DEFECTS.md "duplicate
		// sldId/@id": REPAIR, confirmed).
		p.Add(formats.Finding{Code: CodeSldIDDuplicate, Grade: formats.Fatal, Part: in.pres, Line: s.line, Column: s.column, Locator: s.locator, Anchor: anchor + " dup",
			Message: fmt.Sprintf("two slide list entries have id %s (r:id %s and r:id %s); slide ids must be unique, PowerPoint repairs the deck", s.id, prev.rid, s.rid),
			Fix:     fmt.Sprintf("give the p:sldId with r:id %s an id no other p:sldId uses (one more than the largest id); if p14:sectionLst in p:extLst lists id %s, keep it pointing at the slide it meant", s.rid, s.id)})
		return
	}
	seen[s.id] = s
	if n := parseUint(s.id); n < 256 || n > 2147483647 {
		// Out of ST_SlideId's range. Every real deck in the corpus keeps to
		// it; python-pptx refuses such ids (python-pptx#972) and a deck whose
		// ids overflowed was reported to need repair (apache/poi#913, not
		// confirmed), so this is a warning, not fatal.
		p.Add(formats.Finding{Code: CodeSldIDRange, Grade: formats.Warning, Part: in.pres, Line: s.line, Column: s.column, Locator: s.locator, Anchor: anchor + " range",
			Message: fmt.Sprintf("slide id %s is outside the range the schema allows (256 to 2147483647, ST_SlideId); tools refuse it and PowerPoint may repair the deck", s.id),
			Fix:     "renumber this p:sldId to an unused id from 256 to 2147483647, and change the same id in p14:sectionLst (p:extLst) if it appears there"})
	}
}

// countNotes counts the notes slides of the listed slides.
func (in *inspector) countNotes(slides []slideRef) {
	seen := map[string]bool{}
	for _, s := range slides {
		if s.part == "" || seen[strings.ToLower(s.part)] {
			continue
		}
		seen[strings.ToLower(s.part)] = true
		for _, r := range in.p.RelsOf(in.ctx, s.part).ByType("notesSlide") {
			if r.External || !in.p.Has(r.Resolved) {
				continue
			}
			in.rep.AddCounts(in.p.Entry(r.Resolved).Part, formats.Counts{KeyNotes: 1})
			break // one notes slide per slide (ECMA-376 Part 1 §13.3.8)
		}
	}
}

func lastSeg(s string) string {
	if i := strings.LastIndexByte(s, '/'); i >= 0 {
		return s[i+1:]
	}
	return s
}

func isUint(s string) bool {
	if s == "" || len(s) > 20 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// parseUint parses a decimal string known to be digits, saturating.
func parseUint(s string) uint64 {
	var n uint64
	for i := 0; i < len(s); i++ {
		if n > (1<<63)/10 {
			return 1 << 63
		}
		n = n*10 + uint64(s[i]-'0')
	}
	return n
}
