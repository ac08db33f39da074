package content

import (
	"context"
	"strconv"
	"strings"

	"github.com/editaudit/editaudit/formats"
	"github.com/editaudit/editaudit/formats/docx"
)

func isW(e *formats.Element) bool {
	return e.Name.Space == docx.NSW || e.Name.Space == docx.NSWStrict
}

func isWNamed(e *formats.Element, local string) bool {
	return e != nil && e.Name.Local == local && isW(e)
}

// extractDocx reads the paragraphs of the body and of every header,
// footer, footnotes, endnotes and comments part the main part relates to.
func extractDocx(ctx context.Context, p *formats.Package, x *extraction) error {
	if p.MainPart == "" || !p.Has(p.MainPart) {
		x.fail("", "the package", "it has no main document part")
		return ctx.Err()
	}
	rels := p.RelsOf(ctx, p.MainPart)
	st := newWordStyles()
	if r := rels.ByType("styles"); len(r) > 0 && !r[0].External && p.Has(r[0].Resolved) {
		part := p.Entry(r[0].Resolved).Part
		x.contextParts = append(x.contextParts, part)
		if why := x.scanPart(ctx, p, part, &wordStylesHandler{st: st}); why != "" {
			x.formatsUnknown = part + " did not parse (" + why + ")"
			st = newWordStyles()
		}
	} else {
		x.contextParts = append(x.contextParts, "")
	}
	// Theme fonts ("+Body", w:asciiTheme="minorHAnsi") name the theme's
	// typefaces; they are compared by name, so that a writer that spells
	// out the typeface (LibreOffice does) changes nothing.
	if r := rels.ByType("theme"); len(r) > 0 && !r[0].External && p.Has(r[0].Resolved) {
		part := p.Entry(r[0].Resolved).Part
		x.contextParts = append(x.contextParts, part)
		th := &themeFontsHandler{fonts: map[string]string{}}
		if why := x.scanPart(ctx, p, part, th); why != "" {
			x.formatsUnknown = part + " did not parse (" + why + ")"
		} else {
			st.themeFonts = th.fonts
		}
	} else {
		x.contextParts = append(x.contextParts, "")
	}
	parts, missing := docx.StoryParts(p, rels)
	parts[0] = p.Entry(p.MainPart).Part
	for _, m := range missing {
		// A story the relationships name but the package lacks: the file
		// is broken there, its paragraphs are not "deleted".
		x.fail(strings.ToLower(m), m, "the part is missing")
	}
	stylesSame := x.from != nil && x.formatsUnknown == "" && x.from.xa.formatsUnknown == "" &&
		x.sameContext(ctx, p, x.from.xa.contextParts, x.contextParts)
	for _, part := range parts {
		if err := ctx.Err(); err != nil {
			return err
		}
		key := strings.ToLower(part)
		label := docx.PartLabel(p.MainPart, part)
		x.readStory(ctx, p, part, label, stylesSame, func() storyHandler { return newWordHandler(x, st, part, key, label) })
	}
	return ctx.Err()
}

// collected implements storyHandler.
func (h *wordHandler) collected() []*unit { return h.units }

// Word run properties (ECMA-376 Part 1 §17.3.2), as far as they show.
const (
	rpBold uint16 = 1 << iota
	rpItalic
	rpUnderline
	rpStrike
	rpFont
	rpSize
	rpColor
	rpHighlight
	rpShading
)

// rprops is a partial set of run properties: set says which are given.
type rprops struct {
	set                             uint16
	link                            bool // a PowerPoint hyperlink (a:hlinkClick)
	bold, italic, underline, strike bool
	font, size, color, highlight    string
	shading                         string
}

// merge lays o over p.
func (p *rprops) merge(o rprops) {
	if o.set&rpBold != 0 {
		p.bold = o.bold
	}
	if o.set&rpItalic != 0 {
		p.italic = o.italic
	}
	if o.set&rpUnderline != 0 {
		p.underline = o.underline
	}
	if o.set&rpStrike != 0 {
		p.strike = o.strike
	}
	if o.set&rpFont != 0 {
		p.font = o.font
	}
	if o.set&rpSize != 0 {
		p.size = o.size
	}
	if o.set&rpColor != 0 {
		p.color = o.color
	}
	if o.set&rpHighlight != 0 {
		p.highlight = o.highlight
	}
	if o.set&rpShading != 0 {
		p.shading = o.shading
	}
	p.set |= o.set
}

// onOff reads an ST_OnOff property element (§17.17.4): no val is on.
func onOff(e *formats.Element) bool {
	v, ok := e.GetAny("val")
	if !ok {
		return true
	}
	switch v {
	case "0", "false", "off":
		return false
	}
	return true
}

// parse reads one child of a w:rPr. Attributes that are noise (rsid,
// w:lang, w:noProof, w:szCs…) are never read.
func (p *rprops) parse(e *formats.Element) {
	switch e.Name.Local {
	case "b":
		p.bold, p.set = onOff(e), p.set|rpBold
	case "i":
		p.italic, p.set = onOff(e), p.set|rpItalic
	case "u":
		v, ok := e.GetAny("val")
		p.underline, p.set = !ok || v != "none", p.set|rpUnderline
	case "strike":
		p.strike, p.set = onOff(e), p.set|rpStrike
	case "dstrike":
		if onOff(e) {
			p.strike, p.set = true, p.set|rpStrike
		}
	case "rFonts":
		for _, a := range []string{"ascii", "hAnsi", "eastAsia"} {
			if v, ok := e.GetAny(a); ok && v != "" {
				p.font, p.set = v, p.set|rpFont
				return
			}
		}
		for _, a := range []string{"asciiTheme", "hAnsiTheme", "eastAsiaTheme"} {
			if v, ok := e.GetAny(a); ok && v != "" {
				p.font, p.set = "theme:"+v, p.set|rpFont
				return
			}
		}
	case "sz":
		if v, ok := e.GetAny("val"); ok {
			p.size, p.set = halfPoints(v), p.set|rpSize
		}
	case "color":
		// w:val is the colour shown; Word writes the theme colour it came
		// from beside it (§17.3.2.6), which other writers drop.
		v, _ := e.GetAny("val")
		if t, ok := e.GetAny("themeColor"); ok && t != "" && v == "" {
			v = "theme:" + t
		}
		if strings.EqualFold(v, "auto") {
			v = ""
		}
		p.color, p.set = strings.ToUpper(v), p.set|rpColor
	case "highlight":
		v, _ := e.GetAny("val")
		if v == "none" {
			v = ""
		}
		p.highlight, p.set = v, p.set|rpHighlight
	case "shd":
		v, _ := e.GetAny("fill")
		if strings.EqualFold(v, "auto") {
			v = ""
		}
		p.shading, p.set = strings.ToUpper(v), p.set|rpShading
	}
}

// halfPoints turns a w:sz value (half-points) into "11pt" / "10.5pt".
func halfPoints(v string) string {
	n, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil {
		return v
	}
	if n%2 == 0 {
		return strconv.Itoa(n/2) + "pt"
	}
	return strconv.Itoa(n/2) + ".5pt"
}

func (p rprops) format(charStyle string, themeFonts map[string]string) Format {
	f := Format{Bold: p.bold, Italic: p.italic, Underline: p.underline, Strike: p.strike,
		Font: p.font, Size: p.size, Color: p.color, Highlight: p.highlight, Style: charStyle}
	if t, ok := strings.CutPrefix(f.Font, "theme:"); ok && themeFonts[t] != "" {
		f.Font = themeFonts[t]
	}
	if f.Highlight == "" && p.shading != "" {
		f.Highlight = "shading " + p.shading
	}
	return f
}

// wordStyle is one w:style of styles.xml.
type wordStyle struct {
	typ, basedOn string
	props        rprops
}

// wordStyles resolves run formatting through the style hierarchy
// (§17.7.2): document defaults, the paragraph style and its basedOn
// chain, the character style and its chain, then direct formatting.
// Toggle properties are treated as plain overrides, not toggled (§17.7.3);
// a table style's conditional formatting is not applied.
type wordStyles struct {
	themeFonts  map[string]string // minorHAnsi → Calibri (ST_Theme, §17.18.96)
	defaults    rprops
	styles      map[string]*wordStyle
	defaultPara string
	cache       map[wordFmtKey]Format
	chainCache  map[string]rprops
}

type wordFmtKey struct {
	pStyle, rStyle string
	direct         rprops
}

func newWordStyles() *wordStyles {
	return &wordStyles{styles: map[string]*wordStyle{}, cache: map[wordFmtKey]Format{}, chainCache: map[string]rprops{}}
}

// chain returns the merged run properties of a style and its ancestors.
func (s *wordStyles) chain(id string) rprops {
	if p, ok := s.chainCache[id]; ok {
		return p
	}
	var ids []string
	seen := map[string]bool{}
	for cur := id; cur != "" && !seen[cur] && len(ids) < 32; {
		st := s.styles[cur]
		if st == nil {
			break
		}
		seen[cur] = true
		ids = append(ids, cur)
		cur = st.basedOn
	}
	var p rprops
	for i := len(ids) - 1; i >= 0; i-- {
		p.merge(s.styles[ids[i]].props)
	}
	s.chainCache[id] = p
	return p
}

// paraStyle is the paragraph style in force: the one named, else the
// default paragraph style.
func (s *wordStyles) paraStyle(id string) string {
	if id == "" {
		return s.defaultPara
	}
	return id
}

func (s *wordStyles) resolve(pStyle, rStyle string, direct rprops) Format {
	k := wordFmtKey{pStyle, rStyle, direct}
	if f, ok := s.cache[k]; ok {
		return f
	}
	p := s.defaults
	p.merge(s.chain(s.paraStyle(pStyle)))
	if rStyle != "" {
		p.merge(s.chain(rStyle))
	}
	p.merge(direct)
	f := p.format(rStyle, s.themeFonts)
	if f.Size == "" {
		// §17.3.2.38: a size never applied in the style hierarchy is
		// 10 points.
		f.Size = "10pt"
	}
	if len(s.cache) < 1<<16 {
		s.cache[k] = f
	}
	return f
}

// themeFontsHandler reads the theme's major and minor fonts (DrawingML
// a:fontScheme, ECMA-376 Part 1 §20.1.4.1.18) under the names w:rFonts
// uses for them (ST_Theme).
type themeFontsHandler struct {
	formats.NopHandler
	fonts map[string]string
}

func (h *themeFontsHandler) Start(e *formats.Element) {
	if e.Parent == nil || (e.Parent.Name.Local != "majorFont" && e.Parent.Name.Local != "minorFont") {
		return
	}
	face, _ := e.Get("", "typeface")
	if face == "" {
		return
	}
	kind := strings.TrimSuffix(e.Parent.Name.Local, "Font") // major, minor
	switch e.Name.Local {
	case "latin":
		h.fonts[kind+"HAnsi"], h.fonts[kind+"Ascii"] = face, face
	case "ea":
		h.fonts[kind+"EastAsia"] = face
	case "cs":
		h.fonts[kind+"Bidi"] = face
	}
}

// wordStylesHandler reads styles.xml.
type wordStylesHandler struct {
	formats.NopHandler
	st  *wordStyles
	cur *wordStyle
	id  string
}

func (h *wordStylesHandler) Start(e *formats.Element) {
	if !isW(e) {
		return
	}
	switch {
	case e.Depth == 2 && e.Name.Local == "style":
		typ, _ := e.GetAny("type")
		id, _ := e.GetAny("styleId")
		h.cur, h.id = &wordStyle{typ: typ}, id
		if _, dup := h.st.styles[id]; !dup && id != "" {
			h.st.styles[id] = h.cur
		}
		if d, _ := e.GetAny("default"); typ == "paragraph" && (d == "1" || d == "true" || d == "on") && h.st.defaultPara == "" {
			h.st.defaultPara = id
		}
	case e.Depth == 3 && h.cur != nil && e.Name.Local == "basedOn":
		h.cur.basedOn, _ = e.GetAny("val")
	case e.Depth == 4 && h.cur != nil && isWNamed(e.Parent, "rPr"):
		h.cur.props.parse(e)
	case e.Depth == 5 && isWNamed(e.Parent, "rPr") && isWNamed(e.Parent.Parent, "rPrDefault"):
		h.st.defaults.parse(e)
	}
}

func (h *wordStylesHandler) End(e *formats.Element) {
	if e.Depth == 2 && isW(e) && e.Name.Local == "style" {
		h.cur = nil
	}
}

// wPara is an open paragraph.
type wPara struct {
	slot   int
	where  string
	scope  string
	pStyle string
	b      *builder
	// the run being read
	inRun  bool
	direct rprops
	rStyle string
	fmt    int32
}

// wordHandler extracts the paragraphs of one Word part.
type wordHandler struct {
	formats.NopHandler
	ns        string
	x         *extraction
	st        *wordStyles
	part, key string
	label     string
	units     []*unit
	fields    []wField
	mc        mcState
	skip      int // depth inside skipped markup (deletions, note separators)
	locs      locStack
	paras     []*wPara
	free      []*builder
	textBoxes int
}

func newWordHandler(x *extraction, st *wordStyles, part, key, label string) *wordHandler {
	return &wordHandler{x: x, st: st, part: part, key: key, label: label, locs: locStack{fallback: label}}
}

func (h *wordHandler) push(k uint8) { h.locs.push(k) }

func (h *wordHandler) pushContainer(label, sep, scope string) {
	h.locs.container(label, sep, scope)
	h.push(kContainer)
}

// w reports whether e is in the WordprocessingML namespace, remembering
// the string of the last match (the scanner hands every element of a part
// the same string, which then compares equal at once).
func (h *wordHandler) w(e *formats.Element) bool {
	if e.Name.Space == h.ns {
		return true
	}
	if isW(e) {
		h.ns = e.Name.Space
		return true
	}
	return false
}

func (h *wordHandler) wNamed(e *formats.Element, local string) bool {
	return e != nil && e.Name.Local == local && h.w(e)
}

// Start implements formats.Handler.
func (h *wordHandler) Start(e *formats.Element) {
	if h.skip > 0 {
		h.skip++
		return
	}
	if skipped, mc := h.mc.start(e); skipped {
		return
	} else if mc {
		h.push(kOther)
		return
	}
	if !h.w(e) {
		h.push(kOther)
		return
	}
	switch e.Name.Local {
	case "body":
		h.pushContainer(h.label, " ", h.label)
		return
	case "hdr", "ftr":
		if e.Depth == 1 {
			h.pushContainer(h.label, " ", h.label)
			return
		}
	case "footnote", "endnote", "comment":
		if e.Depth == 2 {
			if t, _ := e.GetAny("type"); t == "separator" || t == "continuationSeparator" || t == "continuationNotice" {
				h.skip = 1
				return
			}
			id, _ := e.GetAny("id")
			label := e.Name.Local + " " + id
			h.pushContainer(label, ", ", e.Name.Local)
			return
		}
	case "txbxContent":
		h.textBoxes++
		label := h.label + " text box " + strconv.Itoa(h.textBoxes)
		h.pushContainer(label, ", ", "txbx")
		return
	case "del", "moveFrom":
		// Tracked deletions: the text is gone from the document as shown
		// with changes accepted; property-level revision marks hold none.
		h.skip = 1
		return
	case "tbl", "tr", "tc":
		if k := h.locs.openTablePart(e.Name.Local); k != kOther {
			h.push(k)
			return
		}
	case "p":
		h.openParagraph()
		return
	case "r":
		if p := h.para(); p != nil && !h.wNamed(e.Parent, "rPr") {
			p.inRun, p.direct, p.rStyle, p.fmt = true, rprops{}, "", -1
		}
	case "pStyle":
		if p := h.para(); p != nil && h.wNamed(e.Parent, "pPr") && h.wNamed(e.Parent.Parent, "p") {
			p.pStyle, _ = e.GetAny("val")
		}
	case "tab", "br", "cr", "noBreakHyphen", "sym":
		if h.wNamed(e.Parent, "r") && !h.volatileResult() {
			h.special(e)
		}
	case "fldChar":
		h.fieldChar(e)
	case "fldSimple":
		if instr, _ := e.GetAny("instr"); volatileField(instr) {
			h.skip = 1
			return
		}
	default:
		if h.wNamed(e.Parent, "rPr") && h.wNamed(e.Parent.Parent, "r") {
			if p := h.para(); p != nil && p.inRun {
				if e.Name.Local == "rStyle" {
					p.rStyle, _ = e.GetAny("val")
				} else {
					p.direct.parse(e)
				}
			}
		}
	}
	h.push(kOther)
}

func (h *wordHandler) para() *wPara {
	if n := len(h.paras); n > 0 {
		return h.paras[n-1]
	}
	return nil
}

func (h *wordHandler) openParagraph() {
	where, scope := h.locs.paragraph()
	var b *builder
	if n := len(h.free); n > 0 {
		b = h.free[n-1]
		h.free = h.free[:n-1]
		b.reset()
	} else {
		b = &builder{}
	}
	h.paras = append(h.paras, &wPara{slot: len(h.units), where: where, scope: scope, b: b, fmt: -1})
	h.units = append(h.units, nil)
	h.push(kPara)
}

// format returns the format index of the current run of p.
func (h *wordHandler) format(p *wPara) int32 {
	if p.fmt < 0 {
		if !p.inRun {
			return h.x.formats.intern(h.st.resolve(p.pStyle, "", rprops{}))
		}
		p.fmt = h.x.formats.intern(h.st.resolve(p.pStyle, p.rStyle, p.direct))
	}
	return p.fmt
}

// special adds the text of a run content element other than w:t.
func (h *wordHandler) special(e *formats.Element) {
	p := h.para()
	if p == nil {
		return
	}
	var s string
	switch e.Name.Local {
	case "tab":
		s = "\t"
	case "br", "cr":
		s = "\n"
	case "noBreakHyphen":
		s = "\u2011"
	case "sym":
		if v, ok := e.GetAny("char"); ok {
			if n, err := strconv.ParseUint(v, 16, 32); err == nil && n > 0 && n < 0x110000 {
				s = string(rune(n))
			}
		}
	}
	p.b.addString(s, h.format(p))
}

// Text implements formats.Handler.
func (h *wordHandler) Text(e *formats.Element, t []byte) {
	if h.skip > 0 || h.mc.skip > 0 || !h.w(e) || !h.wNamed(e.Parent, "r") {
		return
	}
	switch e.Name.Local {
	case "t":
		if p := h.para(); p != nil && !h.volatileResult() {
			p.b.add(t, h.format(p))
		}
	case "instrText":
		if n := len(h.fields); n > 0 && !h.fields[n-1].result && len(h.fields[n-1].instr) < 256 {
			h.fields[n-1].instr += string(t)
		}
	}
}

// wField is an open complex field (§17.16.18: fldChar begin, instrText,
// separate, the result, end).
type wField struct {
	instr            string
	result, volatile bool
}

func (h *wordHandler) fieldChar(e *formats.Element) {
	switch t, _ := e.GetAny("fldCharType"); t {
	case "begin":
		if len(h.fields) < 64 {
			h.fields = append(h.fields, wField{})
		}
	case "separate":
		if n := len(h.fields); n > 0 {
			f := &h.fields[n-1]
			f.result, f.volatile = true, volatileField(f.instr)
		}
	case "end":
		if n := len(h.fields); n > 0 {
			h.fields = h.fields[:n-1]
		}
	}
}

// volatileResult reports whether the text being read is the cached result
// of a field the application recomputes (a page number): not content.
func (h *wordHandler) volatileResult() bool {
	for i := range h.fields {
		if h.fields[i].result && h.fields[i].volatile {
			return true
		}
	}
	return false
}

// volatileFields are the fields whose result Word recomputes on opening,
// printing or laying out the document (§17.16.5): their cached text changes
// with every writer and layout and says nothing about the content.
var volatileFields = map[string]bool{"PAGE": true, "NUMPAGES": true, "SECTIONPAGES": true, "SECTION": true,
	"PAGEREF": true, "DATE": true, "TIME": true, "PRINTDATE": true, "SAVEDATE": true, "EDITTIME": true}

func volatileField(instr string) bool {
	f := strings.Fields(instr)
	return len(f) > 0 && volatileFields[strings.ToUpper(f[0])]
}

// End implements formats.Handler.
func (h *wordHandler) End(e *formats.Element) {
	if h.skip > 0 {
		h.skip--
		return
	}
	if h.mc.end(e) {
		return
	}
	switch h.locs.end() {
	case kPara:
		p := h.paras[len(h.paras)-1]
		h.paras = h.paras[:len(h.paras)-1]
		if h.x.take() {
			h.units[p.slot] = p.b.unit(h.key, h.part, p.where, p.scope, h.st.paraStyle(p.pStyle))
		}
		h.free = append(h.free, p.b)
	default:
		if h.wNamed(e, "r") {
			if p := h.para(); p != nil {
				p.inRun, p.fmt = false, -1
			}
		}
	}
}
