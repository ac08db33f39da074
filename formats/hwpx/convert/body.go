package convert

import (
	"context"
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/editaudit/editaudit/formats"
)

// maxNesting bounds tables in tables, text boxes in cells… (the deepest
// real document of the corpus nests tables 3 deep); deeper content is
// left out with a note instead of recursing without end.
const maxNesting = 24

// conv holds the state of one conversion.
type conv struct {
	ctx     context.Context
	p       *formats.Package
	h       *header
	bin     map[string]string // binary item id → part
	content *styleSet         // automatic styles of content.xml
	styles  *styleSet         // automatic styles of styles.xml (page layouts, header/footer content)
	pics    []picture
	picName map[string]string // part → Pictures/ name
	notes   []string
	noted   map[string]int
	masters []string // style:master-page elements
	nums    counters
	outline int // the current section's outline numbering id
	tables  int
	secLeft int // the current section's left margin (HWPUNIT)
	frames  int
	depth   int
	err     error
}

type picture struct {
	name, mediaType string
	data            []byte
}

// writer is where blocks go: the body of content.xml or a header/footer
// in styles.xml, each with its own automatic styles.
type writer struct {
	b      *strings.Builder
	st     *styleSet
	master string // master page the next block starts, "" for none
	brk    bool   // the next block starts a new page
}

// note records what the converter approximated or left out, once per kind
// (with a count).
func (c *conv) note(s string) {
	if c.noted == nil {
		c.noted = map[string]int{}
	}
	if _, ok := c.noted[s]; !ok {
		c.notes = append(c.notes, s)
	}
	c.noted[s]++
}

// blocks converts the paragraphs of a list (a section, a cell, a header).
func (c *conv) blocks(w *writer, list *node) {
	if c.depth > maxNesting {
		c.note(fmt.Sprintf("content nested deeper than %d levels is not shown", maxNesting))
		return
	}
	c.depth++
	defer func() { c.depth-- }()
	for _, k := range list.kids {
		if c.err != nil {
			return
		}
		if k.name == "p" {
			c.para(w, k)
		}
	}
}

// inline is paragraph content being gathered, with what sizes its lines.
type inline struct {
	b        strings.Builder
	maxH     int  // the largest character height, HWPUNIT
	objects  bool // holds as-char objects (the line must not be exact)
	visible  bool // holds text or objects
	firstCP  int  // the character shape of the first run
	hasFirst bool
}

func (c *conv) para(w *writer, p *node) {
	if err := c.ctx.Err(); err != nil {
		c.err = err
		return
	}
	pp := c.h.paraPrs[p.int("paraPrIDRef", 0)]
	if pp == nil {
		pp = &paraPr{align: "JUSTIFY", lineKind: "PERCENT", lineValue: 160, borderFill: -1}
	}
	if p.attr("pageBreak") == "1" || pp.pageBreakBefore {
		w.brk = true
	}
	cur := &inline{firstCP: -1}
	if prefix := c.paraHead(pp); prefix != "" {
		cp := c.firstCharPr(p)
		cur.b.WriteString(`<text:span text:style-name="` + c.spanStyle(w, cp, "") + `">`)
		textRun(&cur.b, prefix+" ")
		cur.b.WriteString(`</text:span>`)
		cur.visible = true
	}
	emitted := false
	flush := func(force bool) {
		if !cur.visible && !force {
			return
		}
		c.emitPara(w, p, pp, cur)
		emitted = true
		cur = &inline{firstCP: cur.firstCP, hasFirst: cur.hasFirst}
	}
	markpen := ""
	for _, run := range p.kids {
		if run.name != "run" {
			continue
		}
		cpID := run.int("charPrIDRef", 0)
		cp := c.h.charPrs[cpID]
		if !cur.hasFirst {
			cur.firstCP, cur.hasFirst = cpID, true
		}
		if cp != nil {
			cur.maxH = max(cur.maxH, cp.height)
		}
		for _, k := range run.kids {
			switch k.name {
			case "t":
				markpen = c.text(w, cur, k, cpID, markpen)
			case "tbl":
				if c.depth > maxNesting {
					c.note(fmt.Sprintf("content nested deeper than %d levels is not shown", maxNesting))
					continue
				}
				flush(false)
				c.table(w, k, pp)
				emitted = true
			case "ctrl":
				c.ctrl(w, cur, k, cpID)
			case "pic", "rect", "ellipse", "container", "ole", "line", "connectLine", "polygon", "curve", "arc", "video", "chart", "textart":
				c.object(w, cur, k)
			case "equation":
				script := textOf(k.child("script"))
				cur.b.WriteString(`<text:span text:style-name="` + c.spanStyle(w, cp, "") + `">`)
				textRun(&cur.b, script)
				cur.b.WriteString(`</text:span>`)
				cur.visible = true
				c.note("equations are shown as their script text, not typeset")
			case "checkBtn", "radioBtn", "btn", "edit", "comboBox", "listBox":
				c.formControl(w, cur, k)
			}
		}
	}
	if cur.visible || !emitted {
		flush(true)
	}
}

// firstCharPr is the character shape of a paragraph's first run.
func (c *conv) firstCharPr(p *node) *charPr {
	if r := p.child("run"); r != nil {
		return c.h.charPrs[r.int("charPrIDRef", 0)]
	}
	return nil
}

// paraHead is the numbering or bullet text a paragraph shape puts before
// the paragraph.
func (c *conv) paraHead(pp *paraPr) string {
	switch pp.headingType {
	case "BULLET":
		if ch, ok := c.h.bullets[pp.headingID]; ok {
			return ch
		}
	case "NUMBER":
		return c.nums.next(c.h.numberings[pp.headingID], pp.headingID, pp.headingLevel+1)
	case "OUTLINE":
		return c.nums.next(c.h.numberings[c.outline], c.outline, pp.headingLevel+1)
	}
	return ""
}

// emitPara writes one text:p with its automatic style.
func (c *conv) emitPara(w *writer, p *node, pp *paraPr, in *inline) {
	cp := c.h.charPrs[in.firstCP]
	if in.maxH == 0 {
		in.maxH = 1000
		if cp != nil {
			in.maxH = cp.height
		}
	}
	name := c.paraStyle(w, pp, cp, in.maxH, in.objects)
	w.b.WriteString(`<text:p text:style-name="` + name + `">`)
	w.b.WriteString(in.b.String())
	w.b.WriteString("</text:p>")
}

// paraStyle returns the automatic paragraph style for a paragraph shape,
// the character shape of its first run, its largest character height and
// the pending page break and master page of w.
func (c *conv) paraStyle(w *writer, pp *paraPr, cp *charPr, maxH int, objects bool) string {
	var b strings.Builder
	b.WriteString("<style:paragraph-properties")
	switch pp.align {
	case "LEFT":
		b.WriteString(` fo:text-align="start"`)
	case "RIGHT":
		b.WriteString(` fo:text-align="end"`)
	case "CENTER":
		b.WriteString(` fo:text-align="center"`)
	case "DISTRIBUTE", "DISTRIBUTE_SPACE":
		b.WriteString(` fo:text-align="justify" fo:text-align-last="justify"`)
	default:
		b.WriteString(` fo:text-align="justify"`)
	}
	left, indent := pp.left, pp.indent
	if indent < 0 {
		// 내어쓰기: the first line starts at the left margin, the
		// following lines |indent| further in.
		left -= indent
	}
	fmt.Fprintf(&b, ` fo:margin-left="%s" fo:margin-right="%s" fo:text-indent="%s" fo:margin-top="%s" fo:margin-bottom="%s"`,
		pt(left), pt(pp.right), pt(indent), pt(max(pp.prev, 0)), pt(max(pp.next, 0)))
	v := clamp(pp.lineValue, 0, 1_000_000)
	switch pp.lineKind {
	case "FIXED":
		if objects {
			fmt.Fprintf(&b, ` style:line-height-at-least="%s"`, pt(max(v, 1)))
		} else {
			fmt.Fprintf(&b, ` fo:line-height="%s"`, pt(max(v, 1)))
		}
	case "BETWEEN_LINES":
		fmt.Fprintf(&b, ` style:line-spacing="%s"`, pt(v))
	case "AT_LEAST":
		fmt.Fprintf(&b, ` style:line-height-at-least="%s"`, pt(max(v, 1)))
	default:
		// PERCENT: Hangul makes a line the character height times the
		// percentage, the extra below the text (the lineseg's vertsize
		// plus spacing). LibreOffice's proportional spacing is relative to
		// the font's own line height instead, so the height is given.
		h := maxH * clamp(v, 10, 1000) / 100
		if objects {
			fmt.Fprintf(&b, ` style:line-height-at-least="%s"`, pt(max(h, 1)))
		} else {
			fmt.Fprintf(&b, ` fo:line-height="%s"`, pt(max(h, 1)))
		}
	}
	if pp.keepNext {
		b.WriteString(` fo:keep-with-next="always"`)
	}
	if pp.keepLines {
		b.WriteString(` fo:keep-together="always"`)
	}
	if w.brk && w.master == "" {
		b.WriteString(` fo:break-before="page"`)
	}
	if bf := c.h.borderFills[pp.borderFill]; bf != nil {
		if bf.fill != "" {
			fmt.Fprintf(&b, ` fo:background-color="%s"`, bf.fill)
		}
		if bf.left.visible() || bf.right.visible() || bf.top.visible() || bf.bottom.visible() {
			fmt.Fprintf(&b, ` fo:border-left="%s" fo:border-right="%s" fo:border-top="%s" fo:border-bottom="%s" fo:padding="1pt"`,
				borderProp(bf.left), borderProp(bf.right), borderProp(bf.top), borderProp(bf.bottom))
		}
	}
	b.WriteString(`>`)
	if stops := c.h.tabPrs[pp.tabPr]; len(stops) > 0 {
		b.WriteString("<style:tab-stops>")
		for _, s := range stops {
			if s.pos <= 0 {
				continue
			}
			kind := "left"
			switch s.kind {
			case "RIGHT":
				kind = "right"
			case "CENTER":
				kind = "center"
			case "DECIMAL":
				kind = "char"
			}
			fmt.Fprintf(&b, `<style:tab-stop style:position="%s" style:type="%s"`, pt(s.pos), kind)
			if kind == "char" {
				b.WriteString(` style:char="."`)
			}
			if s.leader != "" && s.leader != "NONE" && s.leader != "0" {
				b.WriteString(` style:leader-style="dotted" style:leader-text="."`)
			}
			b.WriteString("/>")
		}
		b.WriteString("</style:tab-stops>")
	}
	b.WriteString("</style:paragraph-properties>")
	b.WriteString(c.textProps(cp, ""))
	attrs := ` style:parent-style-name="Standard"`
	if w.master != "" {
		attrs += ` style:master-page-name="` + w.master + `"`
	}
	w.master, w.brk = "", false
	return w.st.get("paragraph", "P", attrs, b.String())
}

// spanStyle returns the automatic text style of a character shape.
func (c *conv) spanStyle(w *writer, cp *charPr, highlight string) string {
	if cp == nil {
		cp = &charPr{height: 1000, ratio: [nLang]int{100, 100, 100, 100, 100, 100, 100}, relSz: [nLang]int{100, 100, 100, 100, 100, 100, 100}}
	}
	return w.st.get("text", "T", "", c.textProps(cp, highlight))
}

// text converts one hp:t: text with tabs, line breaks, special spaces and
// marker-pen ranges. It returns the marker-pen colour in force at its end.
func (c *conv) text(w *writer, in *inline, t *node, cpID int, markpen string) string {
	cp := c.h.charPrs[cpID]
	var seg strings.Builder
	flush := func() {
		if seg.Len() == 0 {
			return
		}
		in.b.WriteString(`<text:span text:style-name="` + c.spanStyle(w, cp, markpen) + `">`)
		textRun(&in.b, seg.String())
		in.b.WriteString("</text:span>")
		seg.Reset()
	}
	for _, k := range t.kids {
		switch k.name {
		case "":
			seg.WriteString(k.text)
			if strings.TrimSpace(k.text) != "" {
				in.visible = true
			}
		case "tab":
			seg.WriteByte('\t')
			in.visible = true
		case "lineBreak":
			seg.WriteByte('\n')
		case "fwSpace":
			seg.WriteString("\u3000")
		case "nbSpace":
			seg.WriteString("\u00a0")
		case "hyphen":
			seg.WriteString("-")
		case "markpenBegin":
			flush()
			markpen = color(k.attr("color"))
		case "markpenEnd":
			flush()
			markpen = ""
		}
	}
	flush()
	return markpen
}

// ctrl converts the controls that show inside a paragraph: automatic
// numbers (page numbers) and footnotes. Section-level controls (headers,
// footers, page numbers, columns) are read by the section.
func (c *conv) ctrl(w *writer, in *inline, ctrl *node, cpID int) {
	cp := c.h.charPrs[cpID]
	for _, k := range ctrl.kids {
		switch k.name {
		case "autoNum":
			span := `<text:span text:style-name="` + c.spanStyle(w, cp, "") + `">`
			switch strings.ToUpper(k.attr("numType")) {
			case "PAGE":
				in.b.WriteString(span + `<text:page-number text:select-page="current"/></text:span>`)
			case "TOTAL_PAGE":
				in.b.WriteString(span + `<text:page-count/></text:span>`)
			default:
				in.b.WriteString(span + esc(k.attr("num")) + `</text:span>`)
			}
			in.visible = true
		case "footNote", "endNote":
			class := "footnote"
			if k.name == "endNote" {
				class = "endnote"
			}
			c.frames++
			sub := &writer{b: &strings.Builder{}, st: w.st}
			c.blocks(sub, k.child("subList"))
			fmt.Fprintf(&in.b, `<text:note text:id="n%d" text:note-class="%s"><text:note-citation>%d</text:note-citation><text:note-body>%s</text:note-body></text:note>`,
				c.frames, class, c.frames, sub.b.String())
			in.visible = true
		}
	}
}

// formControl shows a form control the way it prints: a check box or radio
// button as its box and caption, other controls as their caption.
func (c *conv) formControl(w *writer, in *inline, k *node) {
	cp := c.h.charPrs[k.child("formCharPr").int("charPrIDRef", 0)]
	label := k.attr("caption")
	switch k.name {
	case "checkBtn":
		box := "☐"
		if strings.EqualFold(k.attr("value"), "CHECKED") {
			box = "☑"
		}
		label = box + label
	case "radioBtn":
		box := "○"
		if strings.EqualFold(k.attr("value"), "CHECKED") {
			box = "◉"
		}
		label = box + label
	case "edit":
		label = textOf(k.child("text"))
	}
	if label == "" {
		return
	}
	in.b.WriteString(`<text:span text:style-name="` + c.spanStyle(w, cp, "") + `">`)
	textRun(&in.b, label)
	in.b.WriteString("</text:span>")
	in.visible = true
}

// image returns the Pictures/ name of a binary item, adding it on first
// use; "" when the item or its part is missing.
func (c *conv) image(id string) string {
	part := c.bin[id]
	if part == "" {
		return ""
	}
	if n, ok := c.picName[part]; ok {
		return n
	}
	data, err := c.p.ReadPart(part)
	if err != nil || len(data) == 0 {
		c.picName[part] = ""
		return ""
	}
	ext := strings.ToLower(path.Ext(part))
	mt := map[string]string{".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".gif": "image/gif", ".bmp": "image/bmp",
		".wmf": "image/x-wmf", ".emf": "image/x-emf", ".tif": "image/tiff", ".tiff": "image/tiff", ".svg": "image/svg+xml"}[ext]
	if mt == "" {
		mt = "application/octet-stream"
	}
	name := fmt.Sprintf("Pictures/%d%s", len(c.pics)+1, ext)
	c.pics = append(c.pics, picture{name: name, mediaType: mt, data: data})
	c.picName[part] = name
	return name
}

// sortedKeys returns a map's keys in order (for deterministic output).
func sortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}
