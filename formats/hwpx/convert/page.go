package convert

import (
	"fmt"
	"strings"
)

// pageSetup is a section's paper and margins (HWPUNIT).
type pageSetup struct {
	width, height                                    int
	left, right, top, bottom, header, footer, gutter int
	border                                           *borderFill
	borderPaper                                      bool
	borderOff                                        [4]int // left, right, top, bottom
	tabStop                                          int
	outline                                          int
}

// A4 with Hangul's default margins, for a section without hp:secPr.
var defaultPage = pageSetup{width: 59528, height: 84188, left: 8504, right: 8504, top: 5668, bottom: 4252, header: 4252, footer: 4252, tabStop: 8000, outline: 1}

func readPage(secPr *node, h *header) pageSetup {
	ps := defaultPage
	if secPr == nil {
		return ps
	}
	ps.tabStop = secPr.int("tabStop", 8000)
	ps.outline = secPr.int("outlineShapeIDRef", 1)
	if pp := secPr.child("pagePr"); pp != nil {
		ps.width = clamp(pp.int("width", ps.width), 2834, maxLength)
		ps.height = clamp(pp.int("height", ps.height), 2834, maxLength)
		if strings.EqualFold(pp.attr("landscape"), "NARROWLY") {
			// OWPML: NARROWLY is landscape, the paper's size given upright.
			ps.width, ps.height = ps.height, ps.width
		}
		if m := pp.child("margin"); m != nil {
			get := func(n string, def int) int { return clamp(m.int(n, def), 0, maxLength) }
			ps.left, ps.right, ps.top, ps.bottom = get("left", ps.left), get("right", ps.right), get("top", ps.top), get("bottom", ps.bottom)
			ps.header, ps.footer, ps.gutter = get("header", ps.header), get("footer", ps.footer), get("gutter", 0)
		}
	}
	// Margins that leave no room for text (hostile or broken): shrunk so a
	// body of at least an inch remains.
	if ps.left+ps.right+ps.gutter > ps.width-7200 {
		ps.left, ps.right, ps.gutter = (ps.width-7200)/2, (ps.width-7200)/2, 0
	}
	if ps.top+ps.header+ps.bottom+ps.footer > ps.height-7200 {
		ps.top, ps.bottom, ps.header, ps.footer = (ps.height-7200)/2, (ps.height-7200)/2, 0, 0
	}
	for _, pbf := range secPr.children("pageBorderFill") {
		if !strings.EqualFold(pbf.attr("type"), "BOTH") {
			continue
		}
		bf := h.borderFills[pbf.int("borderFillIDRef", -1)]
		if bf == nil || !(bf.left.visible() || bf.right.visible() || bf.top.visible() || bf.bottom.visible()) {
			continue
		}
		ps.border = bf
		ps.borderPaper = !strings.EqualFold(pbf.attr("textBorder"), "CONTENT")
		o := pbf.child("offset")
		ps.borderOff = [4]int{clamp(o.int("left", 1417), 0, 100000), clamp(o.int("right", 1417), 0, 100000), clamp(o.int("top", 1417), 0, 100000), clamp(o.int("bottom", 1417), 0, 100000)}
	}
	return ps
}

// hf is a section's headers and footers, by the pages they apply to.
type hf struct {
	header, headerEven, footer, footerEven *node
	pageNum                                *node
}

// collectHF finds the header, footer and page-number controls of a
// section's top-level paragraphs. Hangul applies each from the page where
// it stands; the converter applies the first of each kind to the whole
// section.
func collectHF(sec *node) hf {
	var out hf
	for _, p := range sec.kids {
		if p.name != "p" {
			continue
		}
		for _, run := range p.children("run") {
			for _, ctrl := range run.children("ctrl") {
				for _, k := range ctrl.kids {
					kind := strings.ToUpper(k.attr("applyPageType"))
					switch k.name {
					case "header":
						if (kind == "BOTH" || kind == "ODD" || kind == "") && out.header == nil {
							out.header = k
						}
						if (kind == "BOTH" || kind == "EVEN" || kind == "") && out.headerEven == nil {
							out.headerEven = k
						}
					case "footer":
						if (kind == "BOTH" || kind == "ODD" || kind == "") && out.footer == nil {
							out.footer = k
						}
						if (kind == "BOTH" || kind == "EVEN" || kind == "") && out.footerEven == nil {
							out.footerEven = k
						}
					case "pageNum":
						if out.pageNum == nil {
							out.pageNum = k
						}
					}
				}
			}
		}
	}
	return out
}

// firstSecPr finds the section's hp:secPr (in the first paragraph's runs).
func firstSecPr(sec *node) *node {
	for _, p := range sec.kids {
		if p.name != "p" {
			continue
		}
		for _, run := range p.children("run") {
			if s := run.child("secPr"); s != nil {
				return s
			}
		}
	}
	return nil
}

// masterPage writes the page layout and master page of a section into
// styles.xml and returns the master page's name.
func (c *conv) masterPage(idx int, ps pageSetup, hfs hf) string {
	name := fmt.Sprintf("MP%d", idx)
	pl := fmt.Sprintf("PL%d", idx)
	hasHeader := hfs.header != nil || hfs.headerEven != nil || (hfs.pageNum != nil && strings.HasPrefix(strings.ToUpper(hfs.pageNum.attr("pos")), "TOP"))
	hasFooter := hfs.footer != nil || hfs.footerEven != nil || (hfs.pageNum != nil && strings.HasPrefix(strings.ToUpper(hfs.pageNum.attr("pos")), "BOTTOM"))
	// Hangul's body starts below the top margin and the header area (and
	// ends above the bottom margin and the footer area) whether or not a
	// header exists; LibreOffice's header lies inside its top margin only
	// when there is one.
	top, bottom := ps.top, ps.bottom
	if !hasHeader {
		top += ps.header
	}
	if !hasFooter {
		bottom += ps.footer
	}
	left := ps.left + ps.gutter
	var b strings.Builder
	fmt.Fprintf(&b, `<style:page-layout style:name="%s"><style:page-layout-properties fo:page-width="%s" fo:page-height="%s" style:print-orientation="%s"`,
		pl, pt(ps.width), pt(ps.height), map[bool]string{true: "landscape", false: "portrait"}[ps.width > ps.height])
	margins := [4]int{left, ps.right, top, bottom}
	if ps.border != nil {
		// The page border: drawn at its offsets from the paper edge
		// (textBorder PAPER) or from the body (CONTENT); ODF draws the
		// border at the page margin, with padding up to the body.
		var at [4]int
		for i := range at {
			if ps.borderPaper {
				at[i] = min(ps.borderOff[i], margins[i])
			} else {
				at[i] = max(margins[i]-ps.borderOff[i], 0)
			}
		}
		fmt.Fprintf(&b, ` fo:margin-left="%s" fo:margin-right="%s" fo:margin-top="%s" fo:margin-bottom="%s"`, pt(at[0]), pt(at[1]), pt(at[2]), pt(at[3]))
		fmt.Fprintf(&b, ` fo:padding-left="%s" fo:padding-right="%s" fo:padding-top="%s" fo:padding-bottom="%s"`,
			pt(margins[0]-at[0]), pt(margins[1]-at[1]), pt(margins[2]-at[2]), pt(margins[3]-at[3]))
		fmt.Fprintf(&b, ` fo:border-left="%s" fo:border-right="%s" fo:border-top="%s" fo:border-bottom="%s"`,
			borderProp(ps.border.left), borderProp(ps.border.right), borderProp(ps.border.top), borderProp(ps.border.bottom))
	} else {
		fmt.Fprintf(&b, ` fo:margin-left="%s" fo:margin-right="%s" fo:margin-top="%s" fo:margin-bottom="%s"`, pt(margins[0]), pt(margins[1]), pt(margins[2]), pt(margins[3]))
	}
	b.WriteString(`/>`)
	if hasHeader {
		fmt.Fprintf(&b, `<style:header-style><style:header-footer-properties fo:min-height="%s" fo:margin-bottom="0pt" style:dynamic-spacing="false"/></style:header-style>`, pt(max(ps.header, 1)))
	}
	if hasFooter {
		fmt.Fprintf(&b, `<style:footer-style><style:header-footer-properties fo:min-height="%s" fo:margin-top="0pt" style:dynamic-spacing="false"/></style:footer-style>`, pt(max(ps.footer, 1)))
	}
	b.WriteString(`</style:page-layout>`)
	c.styles.defs = append(c.styles.defs, b.String())

	var m strings.Builder
	fmt.Fprintf(&m, `<style:master-page style:name="%s" style:page-layout-name="%s">`, name, pl)
	region := func(tag string, n *node, top bool) {
		w := &writer{b: &strings.Builder{}, st: c.styles}
		if n != nil {
			c.blocks(w, n.child("subList"))
		}
		if hfs.pageNum != nil {
			pos := strings.ToUpper(hfs.pageNum.attr("pos"))
			if (top && strings.HasPrefix(pos, "TOP")) || (!top && strings.HasPrefix(pos, "BOTTOM")) {
				c.pageNumber(w, hfs.pageNum)
			}
		}
		if w.b.Len() == 0 {
			w.b.WriteString("<text:p/>")
		}
		fmt.Fprintf(&m, "<%s>%s</%s>", tag, w.b.String(), tag)
	}
	if hasHeader {
		region("style:header", hfs.header, true)
		if hfs.headerEven != hfs.header {
			region("style:header-left", hfs.headerEven, true)
		}
	}
	if hasFooter {
		region("style:footer", hfs.footer, false)
		if hfs.footerEven != hfs.footer {
			region("style:footer-left", hfs.footerEven, false)
		}
	}
	m.WriteString(`</style:master-page>`)
	c.masters = append(c.masters, m.String())
	return name
}

// pageNumber writes the paragraph of a page-number control ("- 1 -").
func (c *conv) pageNumber(w *writer, pn *node) {
	pos := strings.ToUpper(pn.attr("pos"))
	align := "center"
	switch {
	case strings.HasSuffix(pos, "LEFT"):
		align = "start"
	case strings.HasSuffix(pos, "RIGHT"):
		align = "end"
	}
	format := map[string]string{"ROMAN_CAPITAL": "I", "ROMAN_SMALL": "i", "LATIN_CAPITAL": "A", "LATIN_SMALL": "a"}[strings.ToUpper(pn.attr("formatType"))]
	if format == "" {
		format = "1"
	}
	side := pn.attr("sideChar")
	ps := w.st.get("paragraph", "P", ` style:parent-style-name="Standard"`, `<style:paragraph-properties fo:text-align="`+align+`"/>`)
	w.b.WriteString(`<text:p text:style-name="` + ps + `">`)
	if side != "" {
		textRun(w.b, side+" ")
	}
	w.b.WriteString(`<text:page-number text:select-page="current" style:num-format="` + format + `"/>`)
	if side != "" {
		textRun(w.b, " "+side)
	}
	w.b.WriteString(`</text:p>`)
}
