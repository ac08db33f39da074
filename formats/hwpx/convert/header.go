package convert

import (
	"strconv"
	"strings"
)

// Script indexes of HWPX's per-language attributes (fontRef, ratio,
// spacing, relSz, offset): OWPML writes them in this order.
const (
	langHangul = iota
	langLatin
	langHanja
	langJapanese
	langOther
	langSymbol
	langUser
	nLang
)

var langNames = [nLang]string{"hangul", "latin", "hanja", "japanese", "other", "symbol", "user"}
var fontfaceLang = map[string]int{"HANGUL": langHangul, "LATIN": langLatin, "HANJA": langHanja, "JAPANESE": langJapanese, "OTHER": langOther, "SYMBOL": langSymbol, "USER": langUser}

// header is what the converter uses from Contents/header.xml.
type header struct {
	fonts       [nLang]map[int]fontInfo // lang → font id → face
	borderFills map[int]*borderFill
	charPrs     map[int]*charPr
	paraPrs     map[int]*paraPr
	styles      map[int]*style
	tabPrs      map[int][]tabStop
	numberings  map[int]*numbering
	bullets     map[int]string
}

type fontInfo struct{ face, kind string }

type border struct {
	kind  string // SOLID, DASH, DOT, DOUBLE_SLIM, … ; NONE
	width float64
	color string
}

func (b border) visible() bool { return b.kind != "" && b.kind != "NONE" }

type borderFill struct {
	left, right, top, bottom border
	fill                     string // "#rrggbb" or ""
}

type charPr struct {
	height                     int // HWPUNIT (1/100 pt)
	color, shade               string
	font                       [nLang]int
	ratio, spacing, relSz, off [nLang]int
	bold, italic               bool
	underline, strike          string // "" when none; else the line shape
	underColor, strikeColor    string
	sup, sub                   bool
	outline, shadow            bool
}

type paraPr struct {
	align                           string
	indent, left, right, prev, next int // HWPUNIT
	lineKind                        string
	lineValue                       int
	headingType                     string
	headingID, headingLevel         int
	tabPr                           int
	keepNext, keepLines             bool
	pageBreakBefore                 bool
	borderFill                      int
	breakNonLatin                   string
}

type style struct {
	name           string
	paraPr, charPr int
}

type tabStop struct {
	pos    int
	kind   string
	leader string
}

type numbering struct {
	start int
	heads map[int]paraHead // level (1-based) → head
}

type paraHead struct {
	start  int
	format string // numFormat: DIGIT, CIRCLED_DIGIT, HANGUL_SYLLABLE…
	text   string // "^1." style template
}

func parseHeader(root *node) *header {
	h := &header{borderFills: map[int]*borderFill{}, charPrs: map[int]*charPr{}, paraPrs: map[int]*paraPr{},
		styles: map[int]*style{}, tabPrs: map[int][]tabStop{}, numberings: map[int]*numbering{}, bullets: map[int]string{}}
	for i := range h.fonts {
		h.fonts[i] = map[int]fontInfo{}
	}
	if root == nil {
		return h
	}
	ref := root.child("refList")
	for _, ff := range ref.child("fontfaces").children("fontface") {
		lang, ok := fontfaceLang[strings.ToUpper(ff.attr("lang"))]
		if !ok {
			continue
		}
		for _, f := range ff.children("font") {
			h.fonts[lang][f.int("id", -1)] = fontInfo{face: f.attr("face"), kind: f.child("typeInfo").attr("familyType")}
		}
	}
	for _, bf := range ref.child("borderFills").children("borderFill") {
		b := &borderFill{left: readBorder(bf.child("leftBorder")), right: readBorder(bf.child("rightBorder")),
			top: readBorder(bf.child("topBorder")), bottom: readBorder(bf.child("bottomBorder"))}
		if wb := bf.child("fillBrush").child("winBrush"); wb != nil {
			b.fill = color(wb.attr("faceColor"))
		}
		h.borderFills[bf.int("id", -1)] = b
	}
	for _, c := range ref.child("charProperties").children("charPr") {
		h.charPrs[c.int("id", -1)] = readCharPr(c)
	}
	for _, t := range ref.child("tabProperties").children("tabPr") {
		var stops []tabStop
		for _, it := range t.children("tabItem") {
			pos := it.int("pos", 0)
			if it.fromDefault() {
				pos /= 2
			}
			stops = append(stops, tabStop{pos: pos, kind: it.attr("type"), leader: it.attr("leader")})
		}
		h.tabPrs[t.int("id", -1)] = stops
	}
	for _, nb := range ref.child("numberings").children("numbering") {
		nm := &numbering{start: nb.int("start", 1), heads: map[int]paraHead{}}
		for _, ph := range nb.children("paraHead") {
			nm.heads[ph.int("level", 0)] = paraHead{start: ph.int("start", 1), format: ph.attr("numFormat"), text: textOf(ph)}
		}
		h.numberings[nb.int("id", -1)] = nm
	}
	for _, b := range ref.child("bullets").children("bullet") {
		h.bullets[b.int("id", -1)] = b.attr("char")
	}
	for _, p := range ref.child("paraProperties").children("paraPr") {
		h.paraPrs[p.int("id", -1)] = readParaPr(p)
	}
	for _, s := range ref.child("styles").children("style") {
		h.styles[s.int("id", -1)] = &style{name: s.attr("name"), paraPr: s.int("paraPrIDRef", -1), charPr: s.int("charPrIDRef", -1)}
	}
	return h
}

func readBorder(n *node) border {
	if n == nil {
		return border{kind: "NONE"}
	}
	return border{kind: strings.ToUpper(n.attr("type")), width: mmValue(n.attr("width")), color: color(n.attr("color"))}
}

// mmValue reads a border width as HWPX writes it ("0.12 mm").
func mmValue(s string) float64 {
	s = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(s), "mm"))
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || v < 0 || v > 20 {
		return 0.12
	}
	return v
}

// color normalises "#RRGGBB" (and Hancom's "#AARRGGBB") to "#rrggbb"; ""
// for "none" or anything else.
func color(s string) string {
	s = strings.TrimSpace(s)
	if !strings.HasPrefix(s, "#") {
		return ""
	}
	hex := s[1:]
	if len(hex) == 8 {
		if hex[:2] == "FF" || hex[:2] == "ff" {
			// fully transparent in Hancom's alpha convention
			return ""
		}
		hex = hex[2:]
	}
	if len(hex) != 6 {
		return ""
	}
	for _, c := range hex {
		if !strings.ContainsRune("0123456789abcdefABCDEF", c) {
			return ""
		}
	}
	return "#" + strings.ToLower(hex)
}

func langAttrs(n *node, def int) [nLang]int {
	var out [nLang]int
	for i, name := range langNames {
		out[i] = n.int(name, def)
	}
	return out
}

func readCharPr(c *node) *charPr {
	cp := &charPr{height: c.int("height", 1000), color: color(c.attr("textColor")), shade: color(c.attr("shadeColor"))}
	if cp.height <= 0 {
		cp.height = 1000
	}
	cp.font = langAttrs(c.child("fontRef"), 0)
	cp.ratio = langAttrs(c.child("ratio"), 100)
	cp.spacing = langAttrs(c.child("spacing"), 0)
	cp.relSz = langAttrs(c.child("relSz"), 100)
	cp.off = langAttrs(c.child("offset"), 0)
	cp.bold = c.child("bold") != nil
	cp.italic = c.child("italic") != nil
	cp.sup = c.child("supscript") != nil
	cp.sub = c.child("subscript") != nil
	if u := c.child("underline"); u != nil && !strings.EqualFold(u.attr("type"), "NONE") && u.attr("type") != "" {
		cp.underline = strings.ToUpper(u.attr("shape"))
		if strings.EqualFold(u.attr("type"), "CENTER") {
			// Hancom's "centre" underline is drawn through the text.
			cp.strike, cp.strikeColor = cp.underline, color(u.attr("color"))
			cp.underline = ""
		}
		cp.underColor = color(u.attr("color"))
	}
	if s := c.child("strikeout"); s != nil {
		if sh := strings.ToUpper(s.attr("shape")); sh != "" && sh != "NONE" && sh != "3D" {
			cp.strike, cp.strikeColor = sh, color(s.attr("color"))
		}
	}
	if o := c.child("outline"); o != nil && o.attr("type") != "" && !strings.EqualFold(o.attr("type"), "NONE") {
		cp.outline = true
	}
	if s := c.child("shadow"); s != nil && s.attr("type") != "" && !strings.EqualFold(s.attr("type"), "NONE") {
		cp.shadow = true
	}
	return cp
}

func readParaPr(p *node) *paraPr {
	pp := &paraPr{align: strings.ToUpper(p.child("align").attr("horizontal")), tabPr: p.int("tabPrIDRef", 0), lineKind: "PERCENT", lineValue: 160, borderFill: -1}
	if m := p.child("margin"); m != nil {
		div := 1
		if m.fromDefault() {
			// Hancom writes each length twice: in HWPUNIT inside the
			// hp:case of the HwpUnitChar namespace and doubled in
			// hp:default (every real file of the corpus that has both).
			div = 2
		}
		get := func(name string) int {
			c := m.child(name)
			if c == nil {
				return 0
			}
			return c.int("value", 0) / div
		}
		pp.indent, pp.left, pp.right, pp.prev, pp.next = get("intent"), get("left"), get("right"), get("prev"), get("next")
	}
	if ls := p.child("lineSpacing"); ls != nil {
		pp.lineKind = strings.ToUpper(ls.attr("type"))
		pp.lineValue = ls.int("value", 160)
		if ls.fromDefault() && pp.lineKind != "PERCENT" {
			pp.lineValue /= 2
		}
	}
	if hd := p.child("heading"); hd != nil {
		pp.headingType = strings.ToUpper(hd.attr("type"))
		pp.headingID = hd.int("idRef", 0)
		pp.headingLevel = hd.int("level", 0)
	}
	if bs := p.child("breakSetting"); bs != nil {
		pp.keepNext = bs.attr("keepWithNext") == "1"
		pp.keepLines = bs.attr("keepLines") == "1"
		pp.pageBreakBefore = bs.attr("pageBreakBefore") == "1"
		pp.breakNonLatin = strings.ToUpper(bs.attr("breakNonLatinWord"))
	}
	if b := p.child("border"); b != nil {
		pp.borderFill = b.int("borderFillIDRef", -1)
	}
	return pp
}

// textOf concatenates the text nodes under n.
func textOf(n *node) string {
	if n == nil {
		return ""
	}
	var b strings.Builder
	var walk func(*node)
	walk = func(n *node) {
		for _, k := range n.kids {
			if k.name == "" {
				b.WriteString(k.text)
			} else {
				walk(k)
			}
		}
	}
	walk(n)
	return b.String()
}
