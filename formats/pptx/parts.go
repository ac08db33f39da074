package pptx

import (
	"fmt"
	"sort"
	"strings"

	"github.com/editaudit/editaudit/formats"
)

// shapeInfo identifies a shape (p:sp, p:graphicFrame, p:pic, …) by its
// p:cNvPr name and id: position-free, unlike an index in the shape tree.
type shapeInfo struct{ name, id string }

// txState tracks whether a text body has a paragraph.
type txState struct{ hasP bool }

// partHandler scans one slide, layout, master, notes or handout part: it
// counts (for listed slides), checks text bodies and preset geometry, and
// checks the child order of a slide master.
type partHandler struct {
	formats.NopHandler
	in    *inspector
	part  string
	count bool

	root                     string // local name of the root element (sld, sldLayout, sldMaster, notes, …)
	rootAt                   position
	paragraphs, runs, tables int
	fallback                 int // > 0 inside mc:Fallback: not counted (its Choice is)
	master                   *seqCheck
	shapeIDs                 map[string]string // p:cNvPr id → shape name
	layoutIDs                []masterID        // p:sldLayoutId entries of a slide master
	para                     paraState         // the open a:p
}

func newPartHandler(in *inspector, part string, count bool) *partHandler {
	return &partHandler{in: in, part: part, count: count}
}

// Start implements formats.Handler.
func (h *partHandler) Start(e *formats.Element) {
	if e.Depth == 1 {
		if e.Is(e.Name.Local, nsP...) {
			h.root = e.Name.Local
			h.rootAt = posOf(e)
			if h.root == "sldMaster" {
				h.master = newSeqCheck(masterOrder)
			}
		}
		return
	}
	if e.Is("Fallback", NSMarkupCompat) {
		// mc:AlternateContent holds the same content twice (Choice and
		// Fallback, ECMA-376 Part 3 §10.2); count it once.
		h.fallback++
		return
	}
	if e.Depth == 2 && h.master != nil && e.Is(e.Name.Local, nsP...) {
		masterOrderStep(h.in, h.part, h.master, e)
	}
	if h.fallback == 0 {
		h.drawingStart(e)
	}
	switch {
	case e.Is("spTree", nsP...), e.Is("grpSp", nsP...):
		e.Data = &treeState{}
	case e.Is("sldLayoutId", nsP...) && h.root == "sldMaster":
		h.layoutIDs = append(h.layoutIDs, masterIDOf(e))
	case e.Is("p", nsA...):
		if h.counting() {
			h.paragraphs++
		}
		if h.fallback == 0 {
			h.para = paraState{depth: e.Depth}
		}
		if e.Parent != nil {
			if st, ok := e.Parent.Data.(*txState); ok {
				st.hasP = true
			}
		}
	case e.Is("r", nsA...):
		if h.counting() {
			h.runs++
		}
	case e.Is("tbl", nsA...):
		if h.counting() {
			h.tables++
		}
	case e.Is("txBody", nsP...), e.Is("txBody", nsA...):
		e.Data = &txState{}
	case e.Is("cNvPr", nsP...):
		// p:sp/p:nvSpPr/p:cNvPr (and the same for every shape kind): the
		// identity belongs to the shape, two levels up.
		if e.Parent != nil && e.Parent.Parent != nil {
			name, _ := e.Get("", "name")
			id, _ := e.Get("", "id")
			info := &shapeInfo{name: name, id: id}
			if ts, ok := e.Parent.Parent.Data.(*treeState); ok {
				ts.info = info // a group or the slide's shape tree
			} else {
				e.Parent.Parent.Data = info
			}
		}
	case e.Is("prstGeom", nsA...):
		h.checkPreset(e)
	}
}

// End implements formats.Handler.
func (h *partHandler) End(e *formats.Element) {
	if h.para.depth == e.Depth && e.Is("p", nsA...) {
		h.para = paraState{}
	}
	if e.Is("Fallback", NSMarkupCompat) {
		h.fallback--
		return
	}
	if st, ok := e.Data.(*txState); ok && !st.hasP {
		h.emptyTxBody(e)
	}
}

func (h *partHandler) counting() bool { return h.count && h.fallback == 0 }

// shapeOf returns the identity of the shape e is in, for anchors and
// messages: `shape "Title 1" (id 2)`.
func shapeOf(e *formats.Element) string {
	for x := e.Parent; x != nil; x = x.Parent {
		if x.Name.Local == "spTree" {
			return "the shape tree"
		}
		s, ok := x.Data.(*shapeInfo)
		if ts, isTree := x.Data.(*treeState); isTree && ts.info != nil {
			s, ok = ts.info, true
		}
		if ok {
			return fmt.Sprintf("shape %q (id %s)", s.name, s.id)
		}
	}
	return "the shape tree"
}

// emptyTxBody reports a text body without a paragraph. CT_TextBody requires
// at least one a:p (ECMA-376 Part 1 §21.1.2.1.1, dml-main.xsd p minOccurs=1);
// PowerPoint shows the repair dialog and adds <a:p><a:endParaRPr/></a:p>
// (PptxGenJS#1048, #1160, #1380: confirmed by the repaired output).
func (h *partHandler) emptyTxBody(e *formats.Element) {
	where := shapeOf(e)
	if e.Parent != nil && e.Parent.Is("tc", nsA...) {
		where += ", a table cell"
	}
	h.in.p.Add(formats.Finding{Code: CodeTxBodyNoP, Grade: formats.Fatal, Part: h.part, Line: e.Line, Column: e.Column, Locator: e.Locator(), Anchor: where,
		Message: fmt.Sprintf("the text body <%s> of %s has no paragraph (a:p); a text body needs at least one, and PowerPoint repairs the deck", e.QName(), where),
		Fix:     fmt.Sprintf("add <a:p><a:endParaRPr lang=\"en-US\"/></a:p> as the last child of this <%s> (after a:bodyPr and a:lstStyle), which is what PowerPoint writes for empty text", e.QName())})
}

// presetFixes maps frequent wrong preset names to the ST_ShapeType value
// that was meant.
var presetFixes = map[string]string{
	"oval": "ellipse", "circle": "ellipse", "roundedRectangle": "roundRect", "roundRectangle": "roundRect",
	"roundedRect": "roundRect", "rectangle": "rect", "square": "rect", "arrow": "rightArrow",
	"star": "star5", "rightTriangle": "rtTriangle", "isoscelesTriangle": "triangle",
}

// checkPreset checks a:prstGeom/@prst against ST_ShapeType (ECMA-376 Part 1
// §20.1.10.56). An unknown name makes PowerPoint repair the deck and drop
// the shape (DEFECTS.md, single detailed report); prst is required
// (CT_PresetGeometry2D), and a missing required attribute is repaired too.
func (h *partHandler) checkPreset(e *formats.Element) {
	prst, ok := e.Get("", "prst")
	if ok && presetShapes[prst] {
		return
	}
	where := shapeOf(e)
	var msg, fix string
	switch {
	case !ok:
		msg = fmt.Sprintf("<a:prstGeom> of %s has no prst attribute; it is required, and PowerPoint repairs the deck", where)
		fix = "add prst=\"rect\" (or the intended preset shape name) to <a:prstGeom>"
	default:
		msg = fmt.Sprintf("the preset geometry %q of %s is not a DrawingML preset shape name; PowerPoint repairs the deck and drops the shape", prst, where)
		fix = "use a name from the ST_ShapeType list (ECMA-376 §20.1.10.56), case-sensitive"
		if want := suggestPreset(prst); want != "" {
			fix = fmt.Sprintf("write prst=\"%s\" instead of prst=\"%s\"", want, prst)
		}
	}
	h.in.p.Add(formats.Finding{Code: CodePresetGeometry, Grade: formats.Fatal, Part: h.part, Line: e.Line, Column: e.Column, Locator: e.Locator(), Anchor: where + " prst=" + prst,
		Message: msg, Fix: fix})
}

// suggestPreset returns the valid name meant by a wrong one: a known
// mistake, or the same name in another letter case.
func suggestPreset(prst string) string {
	if want, ok := presetFixes[prst]; ok {
		return want
	}
	for k := range presetShapes {
		if strings.EqualFold(k, prst) {
			return k
		}
	}
	return ""
}

// checkRest scans and checks every presentation part not scanned with the
// slides: slide layouts and masters, notes slides and masters, handout
// masters, and slide parts that are not in the slide list.
func (in *inspector) checkRest(ph *presHandler) error {
	p := in.p
	roots := in.roots // the listed slides, scanned with the counting handler
	listed := map[string]bool{}
	for k := range roots {
		listed[k] = true
	}
	for _, part := range in.presentationParts() {
		if err := in.ctx.Err(); err != nil {
			return err
		}
		key := strings.ToLower(part)
		if _, done := roots[key]; done {
			continue
		}
		h := newPartHandler(in, part, false)
		p.ScanPart(in.ctx, part, h)
		roots[key] = h.root
		in.rootAt[key] = h.rootAt
		for i := range h.layoutIDs {
			h.layoutIDs[i].part = part
		}
		in.layoutIDs = append(in.layoutIDs, h.layoutIDs...)
	}
	keys := make([]string, 0, len(roots))
	for k := range roots {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return formats.NaturalLess(keys[i], keys[j]) })
	var notesSlides, notesMasters int
	for _, key := range keys {
		part := p.Entry(key).Part
		switch roots[key] {
		case "sld":
			if listed[key] && len(p.RelsOf(in.ctx, part).ByType("slideLayout")) == 0 {
				// ECMA-376 Part 1 §13.3.8: a slide is tied to its slide layout
				// by a relationship; it inherits placeholders and the master
				// from it. Without it PowerPoint repairs the deck
				// (ruleSlideNoLayout: PHPPresentation#294, CristalTeam/pptx#5).
				p.Add(formats.Finding{Code: CodeSlideNoLayout, Grade: ruleSlideNoLayout.Grade, Part: part, Line: in.rootAt[key].line, Column: in.rootAt[key].column, Locator: in.rootAt[key].locator, Anchor: "no-layout",
					Message: fmt.Sprintf("the slide %s has no slideLayout relationship, so it has no layout or master to inherit from; PowerPoint reports that the presentation needs repair", part),
					Fix:     fmt.Sprintf("add a relationship of type …/relationships/slideLayout from %s to one of the deck's slide layouts", formats.RelsPartOf(part))})
			}
		case "sldLayout":
			if len(p.RelsOf(in.ctx, part).ByType("slideMaster")) == 0 {
				// ECMA-376 Part 1 §13.3.9: a slide layout is tied to its slide
				// master by a relationship. Without it the layout inherits
				// nothing; python-pptx refuses such a package
				// (CorruptedPackageError, its missing_rels_item.pptx test).
				// PowerPoint's reaction is not documented publicly → warning.
				p.Add(formats.Finding{Code: CodeLayoutNoMaster, Grade: formats.Warning, Part: part, Line: in.rootAt[key].line, Column: in.rootAt[key].column, Locator: in.rootAt[key].locator, Anchor: "no-master",
					Message: fmt.Sprintf("the slide layout %s has no slideMaster relationship (its %s is missing or lists none), so it is not tied to a slide master; the schema requires one, libraries refuse the package, and PowerPoint may repair it", part, formats.RelsPartOf(part)),
					Fix:     fmt.Sprintf("write %s with a relationship of type …/relationships/slideMaster to the master whose p:sldLayoutIdLst lists this layout (for example Target=\"../slideMasters/slideMaster1.xml\")", formats.RelsPartOf(part))})
			}
		case "notes":
			notesSlides++
			if len(p.RelsOf(in.ctx, part).ByType("notesMaster")) == 0 {
				// A notes slide inherits its placeholders' geometry from the
				// notes master; without one PowerPoint repairs the deck
				// (DEFECTS.md, confirmed), Keynote rejects it and python-pptx
				// raises (iOfficeAI/OfficeCLI#255, #265). A relationship whose
				// target is missing is the core's rels.target-missing.
				p.Add(formats.Finding{Code: CodeNotesNoMaster, Grade: formats.Fatal, Part: part, Line: in.rootAt[key].line, Column: in.rootAt[key].column, Locator: in.rootAt[key].locator, Anchor: "no-notes-master",
					Message: fmt.Sprintf("the notes slide %s has no notesMaster relationship, so its notes have no master to inherit layout from; PowerPoint repairs the deck", part),
					Fix:     fmt.Sprintf("add a relationship of type …/relationships/notesMaster from %s to the deck's notes master (ppt/notesMasters/notesMaster1.xml), adding a notes master, its theme and <p:notesMasterIdLst> if the deck has none", formats.RelsPartOf(part))})
			}
		case "notesMaster":
			notesMasters++
		}
	}
	in.checkMasterIDs(ph)
	if notesSlides > 0 && notesMasters > 0 && !ph.notesMasterLst {
		// python-pptx adds a notes master without listing it in
		// presentation.xml (scanny/python-pptx#1128); PowerPoint opens such
		// decks, Keynote does not recognise the notes master → warning.
		p.Add(formats.Finding{Code: CodeNotesMasterNotListed, Grade: formats.Warning, Part: in.pres, Anchor: "no-notesMasterIdLst",
			Message: "the deck has notes slides and a notes master, but presentation.xml has no <p:notesMasterIdLst>; PowerPoint opens it, Keynote and strict readers do not find the notes master",
			Fix:     "add <p:notesMasterIdLst><p:notesMasterId r:id=\"…\"/></p:notesMasterIdLst> directly after </p:sldMasterIdLst>, with the r:id of presentation.xml's notesMaster relationship"})
	}
	return nil
}

// presentationParts lists the parts of the deck other than presentation.xml:
// the targets of the presentation's relationship graph (masters, layouts,
// slides, notes, handout master) and every XML part in the conventional
// folders, in a fixed order.
func (in *inspector) presentationParts() []string {
	p := in.p
	var out []string
	seen := map[string]bool{}
	add := func(part string) {
		e := p.Entry(part)
		if e == nil || e.Dir || seen[strings.ToLower(e.Part)] || !strings.HasSuffix(strings.ToLower(e.Part), ".xml") {
			return
		}
		seen[strings.ToLower(e.Part)] = true
		out = append(out, e.Part)
	}
	follow := map[string][]string{
		"presentation": {"slideMaster", "notesMaster", "handoutMaster", "slide"},
		"slideMaster":  {"slideLayout"},
		"slide":        {"slideLayout", "notesSlide"},
		"slideLayout":  {"slideMaster"},
		"notesSlide":   {"notesMaster"},
	}
	type item struct{ part, kind string }
	queue := []item{{in.pres, "presentation"}}
	for len(queue) > 0 && len(out) < p.Limits.MaxEntries {
		it := queue[0]
		queue = queue[1:]
		rels := p.RelsOf(in.ctx, it.part)
		for _, typ := range follow[it.kind] {
			for _, r := range rels.ByType(typ) {
				if r.External || !p.Has(r.Resolved) || seen[strings.ToLower(p.Entry(r.Resolved).Part)] {
					continue
				}
				add(r.Resolved)
				queue = append(queue, item{p.Entry(r.Resolved).Part, typ})
			}
		}
	}
	for _, dir := range []string{"ppt/slideMasters/", "ppt/slideLayouts/", "ppt/slides/", "ppt/notesMasters/", "ppt/notesSlides/", "ppt/handoutMasters/"} {
		for _, part := range p.PartsUnder(dir) {
			if !strings.Contains(part[len(dir):], "/") {
				add(part)
			}
		}
	}
	return out
}
