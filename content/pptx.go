package content

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/editaudit/editaudit/formats"
	"github.com/editaudit/editaudit/formats/pptx"
)

func isP(e *formats.Element) bool {
	return e.Name.Space == pptx.NSPresentationT || e.Name.Space == pptx.NSPresentationS
}

func isA(e *formats.Element) bool {
	return e.Name.Space == pptx.NSDrawingT || e.Name.Space == pptx.NSDrawingS
}

func isANamed(e *formats.Element, local string) bool {
	return e != nil && e.Name.Local == local && isA(e)
}

// slideEntry is one p:sldId of presentation.xml.
type slideEntry struct{ id, rid string }

type presListHandler struct {
	formats.NopHandler
	slides   []slideEntry
	defaults pLevels
	st       *pStyleHandler
}

func (h *presListHandler) End(e *formats.Element) { h.st.End(e) }

func (h *presListHandler) Start(e *formats.Element) {
	h.st.Start(e)
	if e.Depth == 3 && e.Name.Local == "sldId" && isP(e) && e.Parent.Name.Local == "sldIdLst" {
		id, _ := e.Get("", "id")
		rid, ok := e.Get(formats.NSRelsT, "id")
		if !ok {
			rid, _ = e.Get(formats.NSRelsS, "id")
		}
		h.slides = append(h.slides, slideEntry{strings.TrimSpace(id), rid})
	}
}

// extractPptx reads the paragraphs of every slide, in the order of the
// slide list, and of each slide's notes; the deck is one story. A slide is
// identified across the two files by its p:sldId id (which PowerPoint and
// python-pptx keep when slides are added, removed or reordered), else by
// its part name.
func extractPptx(ctx context.Context, p *formats.Package, x *extraction) error {
	if p.MainPart == "" || !p.Has(p.MainPart) {
		x.fail("", "the package", "it has no presentation part")
		return ctx.Err()
	}
	pres := p.Entry(p.MainPart).Part
	ph := &presListHandler{}
	ph.st = &pStyleHandler{defaults: &ph.defaults}
	if why := x.scanPart(ctx, p, pres, ph); why != "" {
		x.fail("", pres, pres+" did not parse: "+why)
		return ctx.Err()
	}
	rels := p.RelsOf(ctx, pres)
	styles := &pptxStyles{x: x, defaults: ph.defaults, layouts: map[string]*pLayout{}, masters: map[string]*pMaster{}}
	// Units of the original are reused only when what their formatting
	// was resolved through is unchanged: the same default text style and
	// the same layouts, masters and themes.
	x.contextKey = fmt.Sprint(ph.defaults)
	stylesSame := x.from != nil && x.from.xa.contextKey == x.contextKey &&
		x.sameContext(ctx, p, x.from.xa.contextParts, x.from.xa.contextParts)
	defer func() {
		x.contextParts = styles.parts
		if styles.unknown != "" {
			x.formatsUnknown = styles.unknown
		}
	}()
	deck := &story{key: "deck", part: pres}
	n := 0
	for _, s := range ph.slides {
		r := rels.ByID(s.rid)
		if r == nil || r.External || r.Resolved == "" {
			continue // not a slide the deck shows (the validators say why)
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		n++
		key := "slide:" + s.id
		if s.id == "" {
			key = "slide:" + strings.ToLower(r.Resolved)
		}
		if !p.Has(r.Resolved) {
			x.fail(key, "slide "+strconv.Itoa(n), "its part "+r.Resolved+" is missing")
			continue
		}
		part := p.Entry(r.Resolved).Part
		lpart := layoutPart(ctx, p, part)
		pctx := key + "|" + strconv.Itoa(n) + "|" + strings.ToLower(lpart)
		if units, ok := x.reusedIf(stylesSame, ctx, p, part, pctx); ok {
			deck.units = append(deck.units, units...)
		} else {
			h := newSlideHandler(x, part, key, n, false, styles, styles.layoutOf(ctx, p, lpart))
			if why := x.scanPart(ctx, p, part, h); why != "" {
				x.fail(key, "slide "+strconv.Itoa(n)+" ("+part+")", why)
				continue
			}
			x.keep(part, pctx, h.units)
			deck.units = append(deck.units, h.units...)
		}
		for _, nr := range p.RelsOf(ctx, part).ByType("notesSlide") {
			if nr.External || nr.Resolved == "" || !p.Has(nr.Resolved) {
				continue
			}
			npart := p.Entry(nr.Resolved).Part
			nkey := "notes:" + key
			if units, ok := x.reusedIf(stylesSame, ctx, p, npart, nkey+"|"+strconv.Itoa(n)); ok {
				deck.units = append(deck.units, units...)
				break
			}
			nh := newSlideHandler(x, npart, nkey, n, true, styles, styles.notesLayout(ctx, p, npart))
			if why := x.scanPart(ctx, p, npart, nh); why != "" {
				x.fail(nkey, "the notes of slide "+strconv.Itoa(n)+" ("+npart+")", why)
				break
			}
			x.keep(npart, nkey+"|"+strconv.Itoa(n), nh.units)
			deck.units = append(deck.units, nh.units...)
			break
		}
	}
	x.stories = append(x.stories, deck)
	return ctx.Err()
}

// pShape is an open shape (p:sp, p:graphicFrame, p:grpSp, p:cxnSp, p:pic).
type pShape struct {
	name, id, ph string
	idx          string  // the placeholder's idx
	levels       pLevels // the shape's own list style
	rows, cells  int     // table rows, cells in the current row
	inTable      bool
}

// pBody is an open text body (p:txBody, a:txBody of a table cell).
type pBody struct {
	where, scope string
	n            int
	skip         bool // a notes shape that is not the notes text
}

// slideHandler extracts the paragraphs of one slide or notes slide.
type slideHandler struct {
	formats.NopHandler
	x         *extraction
	part, key string
	slide     int
	notes     bool
	units     []*unit
	mc        mcState
	shapes    []pShape
	bodies    []pBody
	para      *builder
	paraWhere string
	paraScope string
	inPara    bool
	lvl       int // the paragraph's level (a:pPr/@lvl)
	direct    rprops
	fmt       int32
	inRun     bool
	rp        rPrReader
	// the shape's own list style being read
	lst      *pLevels
	lstDepth int
	lstLevel int
	// styles resolves inherited formatting through layout (nil: unknown).
	styles *pptxStyles
	layout *pLayout
}

func newSlideHandler(x *extraction, part, key string, slide int, notes bool, styles *pptxStyles, layout *pLayout) *slideHandler {
	return &slideHandler{x: x, part: part, key: key, slide: slide, notes: notes, para: &builder{}, styles: styles, layout: layout}
}

func isShape(e *formats.Element) bool {
	if !isP(e) {
		return false
	}
	switch e.Name.Local {
	case "sp", "graphicFrame", "grpSp", "cxnSp", "pic":
		return true
	}
	return false
}

// Start implements formats.Handler.
func (h *slideHandler) Start(e *formats.Element) {
	if _, mc := h.mc.start(e); mc {
		return
	}
	if h.rp.depth > 0 {
		h.rp.start(e)
		return
	}
	switch {
	case isShape(e):
		h.shapes = append(h.shapes, pShape{})
	case isP(e) && e.Name.Local == "cNvPr":
		if n := len(h.shapes); n > 0 {
			h.shapes[n-1].name, _ = e.Get("", "name")
			h.shapes[n-1].id, _ = e.Get("", "id")
		}
	case isP(e) && e.Name.Local == "ph":
		if n := len(h.shapes); n > 0 {
			t, ok := e.Get("", "type")
			if !ok {
				t = "obj" // CT_Placeholder's default type
			}
			h.shapes[n-1].ph = t
			h.shapes[n-1].idx, _ = e.Get("", "idx")
		}
	case isANamed(e, "lstStyle") && len(h.shapes) > 0 && len(h.bodies) > 0:
		h.lst, h.lstDepth = &h.shapes[len(h.shapes)-1].levels, e.Depth
	case h.lst != nil && e.Depth == h.lstDepth+1:
		h.lstLevel = levelIndex(e.Name.Local)
	case h.lst != nil && e.Depth == h.lstDepth+2 && h.lstLevel >= 0 && isANamed(e, "defRPr"):
		h.rp.begin(e, &h.lst[h.lstLevel])
	case isANamed(e, "tbl"):
		if n := len(h.shapes); n > 0 {
			h.shapes[n-1].inTable, h.shapes[n-1].rows = true, 0
		}
	case isANamed(e, "tr"):
		if n := len(h.shapes); n > 0 {
			h.shapes[n-1].rows++
			h.shapes[n-1].cells = 0
		}
	case isANamed(e, "tc"):
		if n := len(h.shapes); n > 0 {
			h.shapes[n-1].cells++
		}
	case e.Name.Local == "txBody" && (isP(e) || isA(e)):
		h.bodies = append(h.bodies, h.body())
	case isANamed(e, "p") && len(h.bodies) > 0 && !h.inPara:
		b := &h.bodies[len(h.bodies)-1]
		b.n++
		h.inPara = !b.skip
		h.lvl = 0
		if h.inPara {
			h.para.reset()
			h.paraWhere, h.paraScope = b.where, b.scope
			if b.n > 1 {
				h.paraWhere += ", paragraph " + strconv.Itoa(b.n)
			}
		}
	case h.inPara && isANamed(e, "pPr") && isANamed(e.Parent, "p"):
		if v, ok := e.Get("", "lvl"); ok {
			h.lvl, _ = strconv.Atoi(v)
		}
	case h.inPara && (isANamed(e, "r") || isANamed(e, "fld")):
		h.inRun, h.direct, h.fmt = true, rprops{}, -1
	case h.inPara && h.inRun && isANamed(e, "rPr"):
		h.rp.begin(e, &h.direct)
	case h.inPara && isANamed(e, "br") && isANamed(e.Parent, "p"):
		h.para.addString("\n", h.resolve(rprops{}))
	}
}

// resolve interns the format of a run with direct properties d.
func (h *slideHandler) resolve(d rprops) int32 {
	var sh pShape
	if n := len(h.shapes); n > 0 {
		sh = h.shapes[n-1]
	}
	return h.x.formats.intern(h.styles.resolve(h.layout, &sh, h.lvl, d))
}

// drawingColor names a DrawingML colour element.
func drawingColor(e *formats.Element) string {
	v, _ := e.Get("", "val")
	switch e.Name.Local {
	case "srgbClr":
		return strings.ToUpper(v)
	case "schemeClr":
		return "scheme:" + v
	case "prstClr":
		return v
	case "sysClr":
		if l, ok := e.Get("", "lastClr"); ok {
			return strings.ToUpper(l)
		}
		return "system:" + v
	}
	return e.Name.Local
}

// hundredthPoints turns a DrawingML sz (hundredths of a point) into "24pt".
func hundredthPoints(v string) string {
	n, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil {
		return v
	}
	if n%100 == 0 {
		return strconv.Itoa(n/100) + "pt"
	}
	return strconv.FormatFloat(float64(n)/100, 'f', -1, 64) + "pt"
}

// body opens a text body in the innermost shape.
func (h *slideHandler) body() pBody {
	var s pShape
	if n := len(h.shapes); n > 0 {
		s = h.shapes[n-1]
	}
	slide := "slide " + strconv.Itoa(h.slide)
	if h.notes {
		// A notes slide holds the slide image, the notes text (the body
		// placeholder) and header, footer, number placeholders.
		return pBody{where: slide + " notes", scope: h.key, skip: s.ph != "body"}
	}
	where := slide + ", shape '" + s.name + "'"
	scope := h.key + "/" + s.id
	if s.inTable {
		where += ", row " + strconv.Itoa(s.rows) + ", cell " + strconv.Itoa(s.cells)
		scope += "|cell"
	}
	return pBody{where: where, scope: scope}
}

func (h *slideHandler) runFormat() int32 {
	if h.fmt < 0 {
		h.fmt = h.resolve(h.direct)
	}
	return h.fmt
}

// Text implements formats.Handler.
func (h *slideHandler) Text(e *formats.Element, t []byte) {
	if h.mc.skip > 0 || !h.inPara || !h.inRun || !isANamed(e, "t") {
		return
	}
	h.para.add(t, h.runFormat())
}

// End implements formats.Handler.
func (h *slideHandler) End(e *formats.Element) {
	if h.mc.end(e) || e.Name.Space == nsMC {
		return
	}
	if h.rp.depth > 0 {
		h.rp.end(e)
		return
	}
	switch {
	case h.lst != nil && e.Depth == h.lstDepth:
		h.lst = nil
	case isShape(e):
		if n := len(h.shapes); n > 0 {
			h.shapes = h.shapes[:n-1]
		}
	case e.Name.Local == "txBody" && (isP(e) || isA(e)):
		if n := len(h.bodies); n > 0 {
			h.bodies = h.bodies[:n-1]
		}
	case isANamed(e, "p") && h.inPara && len(h.bodies) > 0:
		h.inPara = false
		if h.x.take() {
			h.units = append(h.units, h.para.unit(h.key, h.part, h.paraWhere, h.paraScope, ""))
		}
	case isANamed(e, "r") || isANamed(e, "fld"):
		h.inRun = false
	}
}
