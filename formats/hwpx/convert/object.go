package convert

import (
	"fmt"
	"strings"
)

// geom is where and how big a drawing object (picture, shape, table) is.
type geom struct {
	w, h                 int // HWPUNIT
	inline               bool
	vertRel, horzRel     string
	vertAlign, horzAlign string
	vOff, hOff           int
	wrap                 string
	out                  [4]int // left, right, top, bottom
}

func readGeom(n *node) geom {
	g := geom{}
	for _, name := range []string{"sz", "curSz", "orgSz"} {
		if s := n.child(name); s != nil && s.int("width", 0) > 0 && s.int("height", 0) > 0 {
			g.w, g.h = s.int("width", 0), s.int("height", 0)
			break
		}
	}
	// A drawing larger than any paper Hangul offers (about 1.5 m) is
	// hostile or broken; it is drawn at that size.
	g.w, g.h = clamp(g.w, 0, maxLength), clamp(g.h, 0, maxLength)
	pos := n.child("pos")
	g.inline = pos.attr("treatAsChar") == "1"
	g.vertRel, g.horzRel = strings.ToUpper(pos.attr("vertRelTo")), strings.ToUpper(pos.attr("horzRelTo"))
	g.vertAlign, g.horzAlign = strings.ToUpper(pos.attr("vertAlign")), strings.ToUpper(pos.attr("horzAlign"))
	g.vOff, g.hOff = clamp(pos.int("vertOffset", 0), -maxLength, maxLength), clamp(pos.int("horzOffset", 0), -maxLength, maxLength)
	g.wrap = strings.ToUpper(n.attr("textWrap"))
	if om := n.child("outMargin"); om != nil {
		g.out = [4]int{om.int("left", 0), om.int("right", 0), om.int("top", 0), om.int("bottom", 0)}
		for i := range g.out {
			g.out[i] = clamp(g.out[i], 0, maxLength/10)
		}
	}
	return g
}

// maxLength bounds every length read from the document (HWPUNIT): 1.5 m.
const maxLength = 4_250_000

// frameStyle is the graphic-properties of a frame placed by g, plus extra
// properties (borders, fill, padding).
func (c *conv) frameStyle(w *writer, g geom, extra string) string {
	var b strings.Builder
	b.WriteString("<style:graphic-properties")
	if g.inline {
		b.WriteString(` style:vertical-pos="top" style:vertical-rel="baseline"`)
	} else {
		switch g.wrap {
		case "SQUARE", "TIGHT", "THROUGH":
			b.WriteString(` style:wrap="parallel" style:number-wrapped-paragraphs="no-limit"`)
		case "BEHIND_TEXT":
			b.WriteString(` style:wrap="run-through" style:run-through="background"`)
		case "IN_FRONT_OF_TEXT":
			b.WriteString(` style:wrap="run-through" style:run-through="foreground"`)
		default:
			b.WriteString(` style:wrap="none"`)
		}
		vrel := map[string]string{"PAPER": "page", "PAGE": "page-content", "PARA": "paragraph"}[g.vertRel]
		if vrel == "" {
			vrel = "paragraph"
		}
		hrel := map[string]string{"PAPER": "page", "PAGE": "page-content", "COLUMN": "paragraph", "PARA": "paragraph"}[g.horzRel]
		if hrel == "" {
			hrel = "paragraph"
		}
		vpos := map[string]string{"CENTER": "middle", "BOTTOM": "bottom"}[g.vertAlign]
		if vpos == "" {
			vpos = "from-top"
		}
		hpos := map[string]string{"CENTER": "center", "RIGHT": "right"}[g.horzAlign]
		if hpos == "" {
			hpos = "from-left"
		}
		fmt.Fprintf(&b, ` style:vertical-pos="%s" style:vertical-rel="%s" style:horizontal-pos="%s" style:horizontal-rel="%s" style:flow-with-text="false"`, vpos, vrel, hpos, hrel)
	}
	fmt.Fprintf(&b, ` fo:margin-left="%s" fo:margin-right="%s" fo:margin-top="%s" fo:margin-bottom="%s"`, pt(g.out[0]), pt(g.out[1]), pt(g.out[2]), pt(g.out[3]))
	b.WriteString(extra)
	b.WriteString("/>")
	return w.st.get("graphic", "fr", "", b.String())
}

// frameAttrs are the draw:frame attributes that place it.
func frameAttrs(g geom) string {
	if g.inline {
		return fmt.Sprintf(` text:anchor-type="as-char" svg:width="%s" svg:height="%s"`, pt(g.w), pt(g.h))
	}
	s := fmt.Sprintf(` text:anchor-type="paragraph" svg:width="%s" svg:height="%s"`, pt(g.w), pt(g.h))
	if g.horzAlign == "" || g.horzAlign == "LEFT" {
		s += ` svg:x="` + pt(g.hOff) + `"`
	}
	if g.vertAlign == "" || g.vertAlign == "TOP" {
		s += ` svg:y="` + pt(g.vOff) + `"`
	}
	return s
}

// object converts a drawing object of a run into a frame in the paragraph.
func (c *conv) object(w *writer, in *inline, n *node) {
	if c.depth > maxNesting {
		c.note(fmt.Sprintf("content nested deeper than %d levels is not shown", maxNesting))
		return
	}
	g := readGeom(n)
	if g.w == 0 || g.h == 0 {
		if n.name != "container" {
			c.note(fmt.Sprintf("a %s without a size is not shown", n.name))
			return
		}
	}
	c.frames++
	id := c.frames
	switch n.name {
	case "pic":
		ref := n.child("img").attr("binaryItemIDRef")
		if img := c.image(ref); img != "" {
			st := c.frameStyle(w, g, "")
			fmt.Fprintf(&in.b, `<draw:frame draw:style-name="%s" draw:name="Image%d" draw:z-index="%d"%s><draw:image xlink:href="%s" xlink:type="simple" xlink:show="embed" xlink:actuate="onLoad"/></draw:frame>`,
				st, id, id, frameAttrs(g), esc(img))
		} else {
			c.note("a picture whose image (BinData) is missing is drawn as a grey box")
			c.box(w, in, g, id)
		}
	case "rect", "ellipse", "polygon", "curve", "arc", "textart":
		extra := shapeLook(n)
		st := c.frameStyle(w, g, extra)
		sub := &writer{b: &strings.Builder{}, st: w.st}
		if dt := n.child("drawText"); dt != nil {
			c.depth++
			c.blocks(sub, dt.child("subList"))
			c.depth--
		}
		if n.name != "rect" {
			c.note(fmt.Sprintf("a %s is drawn as a rectangle", n.name))
		}
		fmt.Fprintf(&in.b, `<draw:frame draw:style-name="%s" draw:name="Frame%d" draw:z-index="%d"%s><draw:text-box>%s</draw:text-box></draw:frame>`,
			st, id, id, frameAttrs(g), sub.b.String())
	case "container":
		// A group: its members are placed one by one where the group is.
		for _, k := range n.kids {
			switch k.name {
			case "pic", "rect", "ellipse", "container", "line", "connectLine", "polygon", "curve", "arc":
				c.depth++
				c.object(w, in, k)
				c.depth--
			}
		}
		c.note("grouped drawing objects are placed one by one, not as a group")
		return
	case "line", "connectLine":
		c.note("lines and connectors are not drawn")
		return
	default: // ole, video, chart
		c.note(fmt.Sprintf("embedded %s objects are drawn as grey boxes", n.name))
		c.box(w, in, g, id)
	}
	if g.inline {
		in.objects = true
	}
	in.visible = true
}

// box draws a light grey frame of the object's size in its place.
func (c *conv) box(w *writer, in *inline, g geom, id int) {
	st := c.frameStyle(w, g, ` fo:border="0.1mm solid #808080" fo:background-color="#eeeeee" draw:fill="solid" draw:fill-color="#eeeeee"`)
	fmt.Fprintf(&in.b, `<draw:frame draw:style-name="%s" draw:name="Frame%d" draw:z-index="%d"%s><draw:text-box/></draw:frame>`, st, id, id, frameAttrs(g))
	if g.inline {
		in.objects = true
	}
	in.visible = true
}

// shapeLook is the border, fill and padding of a drawing shape.
func shapeLook(n *node) string {
	var b strings.Builder
	ls := n.child("lineShape")
	if ls != nil && !strings.EqualFold(ls.attr("style"), "NONE") && ls.attr("style") != "" {
		w := clamp(ls.int("width", 33), 1, 10000)
		col := color(ls.attr("color"))
		if col == "" {
			col = "#000000"
		}
		style := "solid"
		switch strings.ToUpper(ls.attr("style")) {
		case "DASH", "LONG_DASH", "DASH_DOT", "DASH_DOT_DOT":
			style = "dashed"
		case "DOT", "CIRCLE":
			style = "dotted"
		}
		fmt.Fprintf(&b, ` fo:border="%s %s %s"`, pt(w), style, col)
	} else {
		b.WriteString(` fo:border="none"`)
	}
	if wb := n.child("fillBrush").child("winBrush"); wb != nil && color(wb.attr("faceColor")) != "" {
		fmt.Fprintf(&b, ` fo:background-color="%s" draw:fill="solid" draw:fill-color="%s"`, color(wb.attr("faceColor")), color(wb.attr("faceColor")))
	} else {
		b.WriteString(` fo:background-color="transparent" draw:fill="none"`)
	}
	tm := n.child("drawText").child("textMargin")
	fmt.Fprintf(&b, ` fo:padding-left="%s" fo:padding-right="%s" fo:padding-top="%s" fo:padding-bottom="%s"`,
		pt(clamp(tm.int("left", 283), 0, 100000)), pt(clamp(tm.int("right", 283), 0, 100000)), pt(clamp(tm.int("top", 283), 0, 100000)), pt(clamp(tm.int("bottom", 283), 0, 100000)))
	va := map[string]string{"CENTER": "middle", "BOTTOM": "bottom"}[strings.ToUpper(n.child("drawText").child("subList").attr("vertAlign"))]
	if va == "" {
		va = "top"
	}
	b.WriteString(` draw:textarea-vertical-align="` + va + `"`)
	return b.String()
}
