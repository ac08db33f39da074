package content

import (
	"context"
	"strconv"
	"strings"

	"github.com/editaudit/editaudit/formats"
)

// PowerPoint run formatting is resolved through the inheritance PowerPoint
// applies (Apache POI's XSLF follows the same rules): a placeholder's text
// takes what its run does not say from the shape's list style, the
// matching placeholder of the slide layout, then of the slide master, then
// the master's title style (titles), other style (date, footer, slide
// number) or body style (every other placeholder); a text box takes it from
// its own list style, then the presentation's default text style. Theme
// fonts (+mj-lt) and scheme colours (tx1, accent1 and their lumMod/lumOff)
// are resolved through the master's theme and colour map. So a writer that
// spells out inherited values (LibreOffice does) changes nothing, and a run
// that loses a direct bold the title style also gives stays bold.

// pLevels holds the run properties of a list style: [0] its defPPr, [1…9]
// its lvl1pPr…lvl9pPr (a:defRPr of each).
type pLevels [10]rprops

// at returns the properties for paragraph level lvl (0-based a:pPr/@lvl).
func (l *pLevels) at(lvl int) rprops {
	if l == nil {
		return rprops{}
	}
	p := l[0]
	if lvl >= 0 && lvl < 9 {
		p.merge(l[lvl+1])
	}
	return p
}

// pPlaceholder is a placeholder of a layout or master.
type pPlaceholder struct {
	typ, idx string
	levels   pLevels
}

// pMaster is a slide master or notes master.
type pMaster struct {
	title, body, other pLevels
	phs                []pPlaceholder
	clrMap             map[string]string
	fonts              map[string]string // "+mj-lt" → typeface
	colors             map[string]string // "dk1" → RGB
}

// pLayout is a slide layout (nil master: unknown).
type pLayout struct {
	phs    []pPlaceholder
	master *pMaster
}

// pptxStyles caches the layouts and masters of one package.
type pptxStyles struct {
	x        *extraction // scans the parts
	defaults pLevels
	layouts  map[string]*pLayout
	masters  map[string]*pMaster
	// parts lists the layout, master and theme parts read (for reuse,
	// which needs them unchanged).
	parts []string
	// unknown says why some formatting could not be resolved.
	unknown string
}

// masterOf reads (once) the master part and its theme.
func (s *pptxStyles) masterOf(ctx context.Context, p *formats.Package, part string) *pMaster {
	if m, ok := s.masters[strings.ToLower(part)]; ok {
		return m
	}
	m := &pMaster{clrMap: map[string]string{}, fonts: map[string]string{}, colors: map[string]string{}}
	s.masters[strings.ToLower(part)] = m
	s.parts = append(s.parts, part)
	h := &pStyleHandler{master: m}
	if why := s.x.scanPart(ctx, p, part, h); why != "" {
		s.unknown = part + " did not parse (" + why + ")"
		return m
	}
	m.phs = h.phs
	for _, r := range p.RelsOf(ctx, part).ByType("theme") {
		if r.External || !p.Has(r.Resolved) {
			continue
		}
		tpart := p.Entry(r.Resolved).Part
		s.parts = append(s.parts, tpart)
		th := &pThemeHandler{fonts: m.fonts, colors: &themeColorsHandler{colors: m.colors}}
		if why := s.x.scanPart(ctx, p, tpart, th); why != "" {
			s.unknown = tpart + " did not parse (" + why + ")"
		}
		break
	}
	return m
}

// layoutPart names a slide's layout part ("" when it has none).
func layoutPart(ctx context.Context, p *formats.Package, slide string) string {
	for _, r := range p.RelsOf(ctx, slide).ByType("slideLayout") {
		if !r.External && p.Has(r.Resolved) {
			return p.Entry(r.Resolved).Part
		}
	}
	return ""
}

// layoutOf reads (once) a layout part and its master; nil for "".
func (s *pptxStyles) layoutOf(ctx context.Context, p *formats.Package, part string) *pLayout {
	if part == "" {
		return nil
	}
	if l, ok := s.layouts[strings.ToLower(part)]; ok {
		return l
	}
	l := &pLayout{}
	s.layouts[strings.ToLower(part)] = l
	s.parts = append(s.parts, part)
	h := &pStyleHandler{}
	if why := s.x.scanPart(ctx, p, part, h); why != "" {
		s.unknown = part + " did not parse (" + why + ")"
		return l
	}
	l.phs = h.phs
	for _, mr := range p.RelsOf(ctx, part).ByType("slideMaster") {
		if !mr.External && p.Has(mr.Resolved) {
			l.master = s.masterOf(ctx, p, p.Entry(mr.Resolved).Part)
			break
		}
	}
	return l
}

// notesLayout is the notes master of a notes slide, as a layout without
// placeholders of its own.
func (s *pptxStyles) notesLayout(ctx context.Context, p *formats.Package, notes string) *pLayout {
	for _, r := range p.RelsOf(ctx, notes).ByType("notesMaster") {
		if !r.External && p.Has(r.Resolved) {
			return &pLayout{master: s.masterOf(ctx, p, p.Entry(r.Resolved).Part)}
		}
	}
	return nil
}

// masterType is the type of the master placeholder a placeholder of type t
// inherits from.
func masterType(t string) string {
	switch t {
	case "title", "ctrTitle":
		return "title"
	case "dt", "ftr", "sldNum", "hdr":
		return t
	}
	return "body"
}

// findPh returns the placeholder a slide's placeholder (type t, idx i)
// inherits from: same idx, else same type (§19.3.1.36).
func findPh(phs []pPlaceholder, t, i string, byType bool) *pPlaceholder {
	if i != "" && !byType {
		for k := range phs {
			if phs[k].idx == i {
				return &phs[k]
			}
		}
	}
	mt := masterType(t)
	for k := range phs {
		if masterType(phs[k].typ) == mt && (byType || i == "" || phs[k].idx == "") {
			return &phs[k]
		}
	}
	return nil
}

// resolve is the Format of a run: direct properties over the inherited
// ones of shape sh at paragraph level lvl.
func (s *pptxStyles) resolve(l *pLayout, sh *pShape, lvl int, direct rprops) Format {
	var p rprops
	var m *pMaster
	if l != nil {
		m = l.master
	}
	if sh.ph == "" {
		p = s.defaults.at(lvl)
	} else if m != nil {
		switch masterType(sh.ph) {
		case "title":
			p = m.title.at(lvl)
		case "dt", "ftr", "sldNum", "hdr":
			p = m.other.at(lvl)
		default:
			p = m.body.at(lvl)
		}
		if ph := findPh(m.phs, sh.ph, sh.idx, true); ph != nil {
			p.merge(ph.levels.at(lvl))
		}
		if ph := findPh(l.phs, sh.ph, sh.idx, false); ph != nil {
			p.merge(ph.levels.at(lvl))
		}
	}
	p.merge(sh.levels.at(lvl))
	p.merge(direct)
	f := p.format("", nil)
	if direct.link {
		f.Underline, f.Color = true, "scheme:hlink"
	}
	if m != nil {
		if face, ok := m.fonts[f.Font]; ok {
			f.Font = face
		}
		f.Color = m.color(f.Color)
		f.Highlight = m.color(f.Highlight)
	}
	return f
}

// color resolves a colour as read ("scheme:tx1 lumMod=75000 …", "FF0000")
// to RGB through the colour map and the theme; what it cannot resolve
// stays as read.
func (m *pMaster) color(c string) string {
	if c == "" {
		return ""
	}
	fields := strings.Fields(c)
	base := fields[0]
	if slot, ok := strings.CutPrefix(base, "scheme:"); ok {
		if mapped, ok := m.clrMap[slot]; ok {
			slot = mapped
		}
		rgb, ok := m.colors[slot]
		if !ok {
			return c
		}
		base = rgb
	}
	if len(base) != 6 {
		return c
	}
	lumMod, lumOff := 1.0, 0.0
	for _, f := range fields[1:] {
		k, v, _ := strings.Cut(f, "=")
		n, err := strconv.ParseFloat(v, 64)
		if err != nil {
			return c
		}
		switch k {
		case "lumMod":
			lumMod = n / 100000
		case "lumOff":
			lumOff = n / 100000
		default:
			return c // a modifier not resolved: compared as written
		}
	}
	if lumMod == 1 && lumOff == 0 {
		return base
	}
	return adjustLum(base, lumMod, lumOff)
}

// adjustLum applies DrawingML's lumMod and lumOff (§20.1.2.3.19–20) to the
// luminance of an RGB colour.
func adjustLum(rgb string, mod, off float64) string {
	v, err := strconv.ParseUint(rgb, 16, 32)
	if err != nil {
		return rgb
	}
	h, l, s := rgbToHLS(float64(v>>16&0xff)/255, float64(v>>8&0xff)/255, float64(v&0xff)/255)
	r, g, b := hlsToRGB(h, min(1, max(0, l*mod+off)), s)
	return hexRGB(r, g, b)
}

// pThemeHandler reads a theme's fonts (a:majorFont, a:minorFont) and
// colours.
type pThemeHandler struct {
	formats.NopHandler
	fonts  map[string]string
	colors *themeColorsHandler
}

func (h *pThemeHandler) Start(e *formats.Element) {
	h.colors.Start(e)
	if e.Parent == nil || (e.Parent.Name.Local != "majorFont" && e.Parent.Name.Local != "minorFont") {
		return
	}
	face, _ := e.Get("", "typeface")
	k := "+mj-"
	if e.Parent.Name.Local == "minorFont" {
		k = "+mn-"
	}
	switch e.Name.Local {
	case "latin":
		h.fonts[k+"lt"] = face
	case "ea":
		h.fonts[k+"ea"] = face
	case "cs":
		h.fonts[k+"cs"] = face
	}
}

// rPrReader reads one CT_TextCharacterProperties (a:rPr, a:defRPr) into
// rprops: the attributes b, i, u, strike, sz and the children a:latin,
// a:solidFill and a:highlight with their colour.
type rPrReader struct {
	p     *rprops
	depth int // depth of the element being read (0: none)
	clr   *string
	mask  uint16
}

func (r *rPrReader) begin(e *formats.Element, p *rprops) {
	r.p, r.depth = p, e.Depth
	for _, a := range e.Attr {
		if a.Name.Space != "" {
			continue
		}
		on := a.Value == "1" || a.Value == "true"
		switch a.Name.Local {
		case "b":
			p.bold, p.set = on, p.set|rpBold
		case "i":
			p.italic, p.set = on, p.set|rpItalic
		case "u":
			p.underline, p.set = a.Value != "none", p.set|rpUnderline
		case "strike":
			p.strike, p.set = a.Value != "noStrike", p.set|rpStrike
		case "sz":
			p.size, p.set = hundredthPoints(a.Value), p.set|rpSize
		}
	}
}

func (r *rPrReader) start(e *formats.Element) {
	switch {
	case e.Depth == r.depth+1 && isA(e) && e.Name.Local == "latin":
		if v, ok := e.Get("", "typeface"); ok && v != "" {
			r.p.font, r.p.set = v, r.p.set|rpFont
		}
	case e.Depth == r.depth+1 && isA(e) && e.Name.Local == "hlinkClick":
		// PowerPoint draws a hyperlink's text underlined in the theme's
		// hyperlink colour, whatever the run says.
		r.p.link = true
	case e.Depth == r.depth+1 && isA(e) && e.Name.Local == "solidFill":
		r.clr, r.mask = &r.p.color, rpColor
	case e.Depth == r.depth+1 && isA(e) && e.Name.Local == "highlight":
		r.clr, r.mask = &r.p.highlight, rpHighlight
	case e.Depth == r.depth+2 && r.clr != nil && isA(e):
		*r.clr = drawingColor(e)
		r.p.set |= r.mask
	case e.Depth == r.depth+3 && r.clr != nil && isA(e):
		if v, ok := e.Get("", "val"); ok {
			*r.clr += " " + e.Name.Local + "=" + v
		}
	}
}

// end reports whether e ends the element being read.
func (r *rPrReader) end(e *formats.Element) bool {
	switch {
	case e.Depth == r.depth:
		r.depth, r.p, r.clr = 0, nil, nil
		return true
	case e.Depth == r.depth+1:
		r.clr = nil
	}
	return false
}

// listStyles are the elements holding a CT_TextListStyle.
var listStyles = map[string]bool{"lstStyle": true, "titleStyle": true, "bodyStyle": true, "otherStyle": true,
	"notesStyle": true, "defaultTextStyle": true}

// levelIndex is the pLevels index of a:defPPr / a:lvlNpPr (-1: neither).
func levelIndex(local string) int {
	if local == "defPPr" {
		return 0
	}
	if len(local) == 7 && strings.HasPrefix(local, "lvl") && strings.HasSuffix(local, "pPr") && local[3] >= '1' && local[3] <= '9' {
		return int(local[3] - '0')
	}
	return -1
}

// pStyleHandler reads the list styles of a slide master, notes master,
// slide layout or presentation.xml: the master's text styles and colour
// map, every placeholder's list style, the default text style.
type pStyleHandler struct {
	formats.NopHandler
	master   *pMaster
	defaults *pLevels
	phs      []pPlaceholder
	cur      *pPlaceholder // the placeholder shape being read
	curPh    bool
	spDepth  int
	target   *pLevels // the list style being read
	tgtDepth int
	level    int
	rp       rPrReader
}

func (h *pStyleHandler) Start(e *formats.Element) {
	if h.rp.depth > 0 {
		h.rp.start(e)
		return
	}
	switch {
	case isP(e) && e.Name.Local == "sp" && h.spDepth == 0:
		h.cur, h.curPh, h.spDepth = &pPlaceholder{}, false, e.Depth
	case isP(e) && e.Name.Local == "ph" && h.cur != nil:
		h.curPh = true
		h.cur.typ, _ = e.Get("", "type")
		if h.cur.typ == "" {
			h.cur.typ = "obj"
		}
		h.cur.idx, _ = e.Get("", "idx")
	case isP(e) && e.Name.Local == "clrMap" && h.master != nil:
		for _, a := range e.Attr {
			if a.Name.Space == "" {
				h.master.clrMap[a.Name.Local] = a.Value
			}
		}
	case listStyles[e.Name.Local] && h.target == nil:
		switch {
		case e.Name.Local == "lstStyle" && h.cur != nil && h.curPh:
			h.target = &h.cur.levels
		case e.Name.Local == "titleStyle" && h.master != nil:
			h.target = &h.master.title
		case (e.Name.Local == "bodyStyle" || e.Name.Local == "notesStyle") && h.master != nil:
			h.target = &h.master.body
		case e.Name.Local == "otherStyle" && h.master != nil:
			h.target = &h.master.other
		case e.Name.Local == "defaultTextStyle" && h.defaults != nil:
			h.target = h.defaults
		}
		h.tgtDepth = e.Depth
	case h.target != nil && e.Depth == h.tgtDepth+1:
		h.level = levelIndex(e.Name.Local)
	case h.target != nil && e.Depth == h.tgtDepth+2 && h.level >= 0 && isA(e) && e.Name.Local == "defRPr":
		h.rp.begin(e, &h.target[h.level])
	}
}

func (h *pStyleHandler) End(e *formats.Element) {
	if h.rp.depth > 0 {
		h.rp.end(e)
		return
	}
	switch {
	case h.target != nil && e.Depth == h.tgtDepth:
		h.target = nil
	case h.cur != nil && e.Depth == h.spDepth:
		if h.curPh {
			h.phs = append(h.phs, *h.cur)
		}
		h.cur, h.spDepth = nil, 0
	}
}
