package synth

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Hangul (.hwpx) is an OCF container of OWPML parts (KS X 6101), not
// OOXML. The layout follows what Hancom Office itself writes (checked
// against files saved by Hangul 2020+): `mimetype` first and stored with
// the bytes application/hwp+zip, version.xml stored second,
// META-INF/container.xml naming Contents/content.hpf as
// application/hwpml-package+xml, content.hpf with a manifest and a spine,
// Contents/header.xml with secCnt and every property that a section's
// IDRef points at, and Contents/sectionN.xml. Namespaces are Hancom's,
// including the OPF namespace with its trailing slash and the attribute
// spelled "tagetApplication".

const hwpxNS = ` xmlns:ha="http://www.hancom.co.kr/hwpml/2011/app" xmlns:hp="http://www.hancom.co.kr/hwpml/2011/paragraph" xmlns:hp10="http://www.hancom.co.kr/hwpml/2016/paragraph" xmlns:hs="http://www.hancom.co.kr/hwpml/2011/section" xmlns:hc="http://www.hancom.co.kr/hwpml/2011/core" xmlns:hh="http://www.hancom.co.kr/hwpml/2011/head" xmlns:hhs="http://www.hancom.co.kr/hwpml/2011/history" xmlns:hm="http://www.hancom.co.kr/hwpml/2011/master-page" xmlns:hpf="http://www.hancom.co.kr/schema/2011/hpf" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:opf="http://www.idpf.org/2007/opf/" xmlns:ooxmlchart="http://www.hancom.co.kr/hwpml/2016/ooxmlchart" xmlns:hwpunitchar="http://www.hancom.co.kr/hwpml/2016/HwpUnitChar" xmlns:epub="http://www.idpf.org/2007/ops" xmlns:config="urn:oasis:names:tc:opendocument:xmlns:config:1.0"`

const hwpxXMLHeader = `<?xml version="1.0" encoding="UTF-8" standalone="yes" ?>`

// A4 in HWPUNIT (1/7200 inch) and Hancom's default margins.
const (
	hwpPageW   = 59528
	hwpPageH   = 84188
	hwpMarginL = 8504
	hwpTextW   = hwpPageW - 2*hwpMarginL
	hwpCellMar = 510
)

// hwpxCharPr is one character property: the key of a run's formatting.
type hwpxCharPr struct {
	bold, italic, underline bool
	height                  int // 1/100 pt
	color                   string
	font                    int // fontRef id (0 dotum, 1 batang)
}

// hwpxWriter collects the character properties and border fills the
// sections use, so that header.xml defines exactly what is referenced.
type hwpxWriter struct {
	charPrs     []hwpxCharPr
	charIndex   map[hwpxCharPr]int
	borderFills []string // fill colour per borderFill id-1 ("" none)
	fillIndex   map[string]int
	tableID     int
	text        strings.Builder // preview text
}

// Border fills 1 and 2 are fixed (no borders; no borders with an empty
// brush for characters), 3 is a solid-line cell, 4+ solid cells with a
// background.
func newHwpxWriter() *hwpxWriter {
	w := &hwpxWriter{charIndex: map[hwpxCharPr]int{}, fillIndex: map[string]int{}}
	w.charPr(hwpxCharPr{height: 1000, color: "000000", font: 1})
	return w
}

func (w *hwpxWriter) charPr(c hwpxCharPr) int {
	if id, ok := w.charIndex[c]; ok {
		return id
	}
	id := len(w.charPrs)
	w.charPrs = append(w.charPrs, c)
	w.charIndex[c] = id
	return id
}

// cellFill returns the borderFill id of a solid-bordered cell with the
// given background ("" none).
func (w *hwpxWriter) cellFill(color string) int {
	if color == "" {
		return 3
	}
	color = strings.ToUpper(color)
	if id, ok := w.fillIndex[color]; ok {
		return id
	}
	w.borderFills = append(w.borderFills, color)
	id := 3 + len(w.borderFills)
	w.fillIndex[color] = id
	return id
}

func writeHwpx(s *Spec, e *env) ([]byte, error) {
	w := newHwpxWriter()
	var sections [][]byte
	for i := range s.Hwpx.Sections {
		sections = append(sections, w.section(&s.Hwpx.Sections[i]))
	}
	parts := []zipPart{
		{name: "mimetype", data: []byte("application/hwp+zip"), store: true},
		{name: "version.xml", data: []byte(hwpxXMLHeader + `<hv:HCFVersion xmlns:hv="http://www.hancom.co.kr/hwpml/2011/version" tagetApplication="WORDPROCESSOR" major="5" minor="1" micro="1" buildNumber="0" os="1" xmlVersion="1.5" application="Hancom Office Hangul" appVersion="12, 0, 0, 0"/>`), store: true},
		{name: "Contents/header.xml", data: w.header(len(sections))},
	}
	for i, sec := range sections {
		name := fmt.Sprintf("Contents/section%d.xml", i)
		e.origins.part(name, fmt.Sprintf("$.hwpx.sections[%d]", i))
		parts = append(parts, zipPart{name: name, data: sec})
	}
	preview := w.text.String()
	if r := []rune(preview); len(r) > 1000 {
		preview = string(r[:1000])
	}
	parts = append(parts,
		zipPart{name: "Preview/PrvText.txt", data: []byte(preview)},
		zipPart{name: "settings.xml", data: []byte(hwpxXMLHeader + `<ha:HWPApplicationSetting xmlns:ha="http://www.hancom.co.kr/hwpml/2011/app" xmlns:config="urn:oasis:names:tc:opendocument:xmlns:config:1.0"><ha:CaretPosition listIDRef="0" paraIDRef="0" pos="0"/></ha:HWPApplicationSetting>`)},
		zipPart{name: "META-INF/container.xml", data: []byte(hwpxXMLHeader + `<ocf:container xmlns:ocf="urn:oasis:names:tc:opendocument:xmlns:container" xmlns:hpf="http://www.hancom.co.kr/schema/2011/hpf"><ocf:rootfiles><ocf:rootfile full-path="Contents/content.hpf" media-type="application/hwpml-package+xml"/><ocf:rootfile full-path="Preview/PrvText.txt" media-type="text/plain"/></ocf:rootfiles></ocf:container>`)},
		zipPart{name: "Contents/content.hpf", data: contentHPF(s.Title, len(sections))},
		zipPart{name: "META-INF/manifest.xml", data: []byte(hwpxXMLHeader + `<odf:manifest xmlns:odf="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0"/>`)},
	)
	return writeZip(parts)
}

func contentHPF(title string, nsec int) []byte {
	var b xb
	b.s(hwpxXMLHeader, `<opf:package`, hwpxNS, ` version="" unique-identifier="" id=""><opf:metadata>`)
	if title != "" {
		b.s(`<opf:title>`).t(title).s(`</opf:title>`)
	} else {
		b.s(`<opf:title/>`)
	}
	b.s(`<opf:language>ko</opf:language><opf:meta name="creator" content="text">editaudit corpus</opf:meta><opf:meta name="subject" content="text"/><opf:meta name="description" content="text"/>`)
	b.s(`<opf:meta name="lastsaveby" content="text">editaudit corpus</opf:meta><opf:meta name="CreatedDate" content="text">`, fixedDate, `</opf:meta><opf:meta name="ModifiedDate" content="text">`, fixedDate, `</opf:meta><opf:meta name="keyword" content="text"/></opf:metadata>`)
	b.s(`<opf:manifest><opf:item id="header" href="Contents/header.xml" media-type="application/xml"/>`)
	for i := 0; i < nsec; i++ {
		n := strconv.Itoa(i)
		b.s(`<opf:item id="section`, n, `" href="Contents/section`, n, `.xml" media-type="application/xml"/>`)
	}
	b.s(`<opf:item id="settings" href="settings.xml" media-type="application/xml"/></opf:manifest><opf:spine><opf:itemref idref="header" linear="yes"/>`)
	for i := 0; i < nsec; i++ {
		b.s(`<opf:itemref idref="section`, strconv.Itoa(i), `" linear="yes"/>`)
	}
	b.s(`</opf:spine></opf:package>`)
	return b.bytes()
}

// Paragraph property ids: one per alignment.
func hwpxParaPr(align string) int {
	switch align {
	case "left":
		return 1
	case "center":
		return 2
	case "right":
		return 3
	}
	return 0 // justify, Hancom's default for body text
}

// header writes Contents/header.xml. refList children follow the OWPML
// order: fontfaces, borderFills, charProperties, tabProperties,
// paraProperties, styles.
func (w *hwpxWriter) header(nsec int) []byte {
	var b xb
	b.s(hwpxXMLHeader, `<hh:head`, hwpxNS, ` version="1.5" secCnt="`, strconv.Itoa(nsec), `">`)
	b.s(`<hh:beginNum page="1" footnote="1" endnote="1" pic="1" tbl="1" equation="1"/><hh:refList><hh:fontfaces itemCnt="7">`)
	for _, lang := range []string{"HANGUL", "LATIN", "HANJA", "JAPANESE", "OTHER", "SYMBOL", "USER"} {
		b.s(`<hh:fontface lang="`, lang, `" fontCnt="2">`)
		for id, face := range []string{"함초롬돋움", "함초롬바탕"} {
			b.s(`<hh:font id="`, strconv.Itoa(id), `" face="`, face, `" type="TTF" isEmbedded="0"><hh:typeInfo familyType="FCAT_GOTHIC" weight="6" proportion="4" contrast="0" strokeVariation="1" armStyle="1" letterform="1" midline="1" xHeight="1"/></hh:font>`)
		}
		b.s(`</hh:fontface>`)
	}
	b.s(`</hh:fontfaces><hh:borderFills itemCnt="`, strconv.Itoa(3+len(w.borderFills)), `">`)
	borderFill := func(id int, line, fill string) {
		b.s(`<hh:borderFill id="`, strconv.Itoa(id), `" threeD="0" shadow="0" centerLine="NONE" breakCellSeparateLine="0"><hh:slash type="NONE" Crooked="0" isCounter="0"/><hh:backSlash type="NONE" Crooked="0" isCounter="0"/>`)
		for _, side := range []string{"left", "right", "top", "bottom"} {
			b.s(`<hh:`, side, `Border type="`, line, `" width="0.12 mm" color="#000000"/>`)
		}
		b.s(`<hh:diagonal type="SOLID" width="0.1 mm" color="#000000"/>`)
		if fill != "" {
			b.s(`<hc:fillBrush><hc:winBrush faceColor="`, fill, `" hatchColor="#999999" alpha="0"/></hc:fillBrush>`)
		}
		b.s(`</hh:borderFill>`)
	}
	borderFill(1, "NONE", "")
	borderFill(2, "NONE", "none")
	borderFill(3, "SOLID", "")
	for i, c := range w.borderFills {
		borderFill(4+i, "SOLID", "#"+c)
	}
	b.s(`</hh:borderFills><hh:charProperties itemCnt="`, strconv.Itoa(len(w.charPrs)), `">`)
	langs := func(tag, v string) {
		b.s(`<hh:`, tag, ` hangul="`, v, `" latin="`, v, `" hanja="`, v, `" japanese="`, v, `" other="`, v, `" symbol="`, v, `" user="`, v, `"/>`)
	}
	for id, c := range w.charPrs {
		b.s(`<hh:charPr id="`, strconv.Itoa(id), `" height="`, strconv.Itoa(c.height), `" textColor="#`, c.color, `" shadeColor="none" useFontSpace="0" useKerning="0" symMark="NONE" borderFillIDRef="2">`)
		langs("fontRef", strconv.Itoa(c.font))
		langs("ratio", "100")
		langs("spacing", "0")
		langs("relSz", "100")
		langs("offset", "0")
		if c.italic {
			b.s(`<hh:italic/>`)
		}
		if c.bold {
			b.s(`<hh:bold/>`)
		}
		if c.underline {
			b.s(`<hh:underline type="BOTTOM" shape="SOLID" color="#`, c.color, `"/>`)
		} else {
			b.s(`<hh:underline type="NONE" shape="SOLID" color="#000000"/>`)
		}
		b.s(`<hh:strikeout shape="NONE" color="#000000"/><hh:outline type="NONE"/><hh:shadow type="NONE" color="#B2B2B2" offsetX="10" offsetY="10"/></hh:charPr>`)
	}
	b.s(`</hh:charProperties><hh:tabProperties itemCnt="1"><hh:tabPr id="0" autoTabLeft="0" autoTabRight="0"/></hh:tabProperties>`)
	b.s(`<hh:paraProperties itemCnt="4">`)
	for id, align := range []string{"JUSTIFY", "LEFT", "CENTER", "RIGHT"} {
		b.s(`<hh:paraPr id="`, strconv.Itoa(id), `" tabPrIDRef="0" condense="0" fontLineHeight="0" snapToGrid="1" suppressLineNumbers="0" checked="0">`)
		b.s(`<hh:align horizontal="`, align, `" vertical="BASELINE"/><hh:heading type="NONE" idRef="0" level="0"/>`)
		b.s(`<hh:breakSetting breakLatinWord="KEEP_WORD" breakNonLatinWord="KEEP_WORD" widowOrphan="0" keepWithNext="0" keepLines="0" pageBreakBefore="0" lineWrap="BREAK"/><hh:autoSpacing eAsianEng="0" eAsianNum="0"/>`)
		margin := `<hh:margin><hc:intent value="0" unit="HWPUNIT"/><hc:left value="0" unit="HWPUNIT"/><hc:right value="0" unit="HWPUNIT"/><hc:prev value="0" unit="HWPUNIT"/><hc:next value="0" unit="HWPUNIT"/></hh:margin><hh:lineSpacing type="PERCENT" value="160" unit="HWPUNIT"/>`
		b.s(`<hp:switch><hp:case hp:required-namespace="http://www.hancom.co.kr/hwpml/2016/HwpUnitChar">`, margin, `</hp:case><hp:default>`, margin, `</hp:default></hp:switch>`)
		b.s(`<hh:border borderFillIDRef="2" offsetLeft="0" offsetRight="0" offsetTop="0" offsetBottom="0" connect="0" ignoreMargin="0"/></hh:paraPr>`)
	}
	b.s(`</hh:paraProperties><hh:styles itemCnt="1"><hh:style id="0" type="PARA" name="바탕글" engName="Normal" paraPrIDRef="0" charPrIDRef="0" nextStyleIDRef="0" langID="1042" lockForm="0"/></hh:styles>`)
	b.s(`</hh:refList><hh:compatibleDocument targetProgram="HWP201X"><hh:layoutCompatibility/></hh:compatibleDocument><hh:docOption><hh:linkinfo path="" pageInherit="0" footnoteInherit="0"/></hh:docOption><hh:trackchageConfig flags="56"/></hh:head>`)
	return b.bytes()
}

// secPr is the section definition Hancom puts in the first run of a
// section: A4 portrait, its default margins, footnote and endnote shapes.
const secPr = `<hp:secPr id="" textDirection="HORIZONTAL" spaceColumns="1134" tabStop="8000" tabStopVal="4000" tabStopUnit="HWPUNIT" outlineShapeIDRef="0" memoShapeIDRef="0" textVerticalWidthHead="0" masterPageCnt="0">` +
	`<hp:grid lineGrid="0" charGrid="0" wonggojiFormat="0"/><hp:startNum pageStartsOn="BOTH" page="0" pic="0" tbl="0" equation="0"/>` +
	`<hp:visibility hideFirstHeader="0" hideFirstFooter="0" hideFirstMasterPage="0" border="SHOW_ALL" fill="SHOW_ALL" hideFirstPageNum="0" hideFirstEmptyLine="0" showLineNumber="0"/>` +
	`<hp:lineNumberShape restartType="0" countBy="0" distance="0" startNumber="0"/>` +
	`<hp:pagePr landscape="WIDELY" width="59528" height="84188" gutterType="LEFT_ONLY"><hp:margin header="4252" footer="4252" gutter="0" left="8504" right="8504" top="5668" bottom="4252"/></hp:pagePr>` +
	`<hp:footNotePr><hp:autoNumFormat type="DIGIT" userChar="" prefixChar="" suffixChar=")" supscript="0"/><hp:noteLine length="-1" type="SOLID" width="0.12 mm" color="#000000"/><hp:noteSpacing betweenNotes="283" belowLine="567" aboveLine="850"/><hp:numbering type="CONTINUOUS" newNum="1"/><hp:placement place="EACH_COLUMN" beneathText="0"/></hp:footNotePr>` +
	`<hp:endNotePr><hp:autoNumFormat type="DIGIT" userChar="" prefixChar="" suffixChar=")" supscript="0"/><hp:noteLine length="14692344" type="SOLID" width="0.12 mm" color="#000000"/><hp:noteSpacing betweenNotes="0" belowLine="567" aboveLine="850"/><hp:numbering type="CONTINUOUS" newNum="1"/><hp:placement place="END_OF_DOCUMENT" beneathText="0"/></hp:endNotePr>` +
	`<hp:pageBorderFill type="BOTH" borderFillIDRef="1" textBorder="PAPER" headerInside="0" footerInside="0" fillArea="PAPER"><hp:offset left="1417" right="1417" top="1417" bottom="1417"/></hp:pageBorderFill>` +
	`<hp:pageBorderFill type="EVEN" borderFillIDRef="1" textBorder="PAPER" headerInside="0" footerInside="0" fillArea="PAPER"><hp:offset left="1417" right="1417" top="1417" bottom="1417"/></hp:pageBorderFill>` +
	`<hp:pageBorderFill type="ODD" borderFillIDRef="1" textBorder="PAPER" headerInside="0" footerInside="0" fillArea="PAPER"><hp:offset left="1417" right="1417" top="1417" bottom="1417"/></hp:pageBorderFill>` +
	`</hp:secPr><hp:ctrl><hp:colPr id="" type="NEWSPAPER" layout="LEFT" colCount="1" sameSz="1" sameGap="0"/></hp:ctrl>`

// hwpxPara is the state of the paragraph stream of one section or cell.
type hwpxPara struct {
	b         *xb
	first     bool // the next paragraph opens the section (carries secPr)
	pageBreak bool // the next paragraph starts a new page
}

func (w *hwpxWriter) section(sec *HSection) []byte {
	var b xb
	b.s(hwpxXMLHeader, `<hs:sec`, hwpxNS, `>`)
	st := &hwpxPara{b: &b, first: true}
	w.blocks(st, sec.Blocks, hwpTextW)
	if st.first || st.pageBreak {
		w.para(st, 0, nil, hwpxCharPr{})
	}
	b.s(`</hs:sec>`)
	return b.bytes()
}

func (w *hwpxWriter) blocks(st *hwpxPara, bs []Block, width int) {
	for i := range bs {
		bl := &bs[i]
		switch {
		case bl.Heading != nil:
			h := bl.Heading
			size := []int{1600, 1400, 1300, 1200, 1100, 1100}[h.Level-1]
			runs := h.Runs
			if len(runs) == 0 {
				runs = []Run{{Text: h.Text}}
			}
			w.para(st, 1, runs, hwpxCharPr{bold: true, height: size, font: 0})
		case bl.Paragraph != nil:
			runs := bl.Paragraph.Runs
			if len(runs) == 0 && bl.Paragraph.Text != "" {
				runs = []Run{{Text: bl.Paragraph.Text}}
			}
			w.para(st, hwpxParaPr(bl.Paragraph.Align), runs, hwpxCharPr{})
		case bl.Table != nil:
			w.tablePara(st, bl.Table, width)
		case bl.PageBreak:
			st.pageBreak = true
		}
	}
}

// openPara writes <hp:p …> and, for the first paragraph of a section, the
// run holding secPr.
func (w *hwpxWriter) openPara(st *hwpxPara, paraPr int) {
	pb := "0"
	if st.pageBreak {
		pb = "1"
		st.pageBreak = false
	}
	st.b.s(`<hp:p id="0" paraPrIDRef="`, strconv.Itoa(paraPr), `" styleIDRef="0" pageBreak="`, pb, `" columnBreak="0" merged="0">`)
	if st.first {
		st.b.s(`<hp:run charPrIDRef="0">`, secPr, `</hp:run>`)
		st.first = false
	}
}

// para writes one paragraph of runs; base is the inherited formatting
// (zero: body text).
func (w *hwpxWriter) para(st *hwpxPara, paraPr int, runs []Run, base hwpxCharPr) {
	w.openPara(st, paraPr)
	if len(runs) == 0 {
		st.b.s(`<hp:run charPrIDRef="0"/>`)
	}
	for _, r := range runs {
		c := hwpxCharPr{bold: base.bold || r.Bold, italic: r.Italic, underline: r.Underline, height: base.height, color: "000000", font: base.font}
		if c.height == 0 {
			c.height = 1000
			c.font = 1
		}
		if r.Size > 0 {
			c.height = int(math.Round(r.Size * 100))
		}
		if r.Color != "" {
			c.color = strings.ToUpper(r.Color)
		}
		id := w.charPr(c)
		st.b.s(`<hp:run charPrIDRef="`, strconv.Itoa(id), `"><hp:t>`)
		for i, line := range strings.Split(r.Text, "\n") {
			if i > 0 {
				st.b.s(`<hp:lineBreak/>`)
			}
			for j, part := range strings.Split(line, "\t") {
				if j > 0 {
					st.b.s(`<hp:tab width="4000" leader="NONE" type="LEFT"/>`)
				}
				st.b.t(part)
			}
		}
		st.b.s(`</hp:t></hp:run>`)
		w.text.WriteString(r.Text)
	}
	w.text.WriteString("\r\n")
	st.b.s(`</hp:p>`)
}

// hwpxCell is a cell's position in a table grid (row, column).
type hwpxCell struct{ r, c int }

// hwpxTableGrid lays a table out: its grid columns, each column's width
// (width shared by the columns' weights), the row span of each cell that
// starts a vertical merge, and each row's height (by its lines of text).
func hwpxTableGrid(t *Table, width int) (grid int, cols []int, rowSpan map[hwpxCell]int, rowH []int) {
	for _, c := range t.Rows[0].Cells {
		grid += max(c.Span, 1)
	}
	cols = make([]int, grid)
	sum := 0.0
	for i := range cols {
		sum += colWeight(t, i)
	}
	acc, used := 0.0, 0
	for i := range cols {
		acc += colWeight(t, i)
		end := int(math.Round(acc / sum * float64(width)))
		cols[i] = end - used
		used = end
	}
	rowSpan = map[hwpxCell]int{}
	starts := map[int]hwpxCell{}
	for ri := range t.Rows {
		col := 0
		for _, c := range t.Rows[ri].Cells {
			switch c.VMerge {
			case "restart":
				starts[col] = hwpxCell{ri, col}
				rowSpan[hwpxCell{ri, col}] = 1
			case "continue":
				rowSpan[starts[col]]++
			default:
				delete(starts, col)
			}
			col += max(c.Span, 1)
		}
	}
	rowH = make([]int, len(t.Rows))
	for ri := range t.Rows {
		lines := 1
		for _, c := range t.Rows[ri].Cells {
			lines = max(lines, len(c.Blocks), strings.Count(c.Text, "\n")+1)
		}
		rowH[ri] = 282 + 1600*lines
	}
	return grid, cols, rowSpan, rowH
}

// tablePara writes a paragraph holding a table (hp:tbl inside a run).
// Cells covered by a merge are omitted; the covering cell carries
// cellSpan, and every cell its grid address.
func (w *hwpxWriter) tablePara(st *hwpxPara, t *Table, width int) {
	nested := width < hwpTextW
	w.openPara(st, 0)
	grid, cols, rowSpan, rowH := hwpxTableGrid(t, width)
	total := 0
	for _, h := range rowH {
		total += h
	}
	w.tableID++
	border := 3
	if t.NoBorders {
		border = 1
	}
	treatAsChar := "0"
	if nested {
		treatAsChar = "1"
	}
	b := st.b
	b.s(`<hp:run charPrIDRef="0"><hp:tbl id="`, strconv.Itoa(1000000+w.tableID), `" zOrder="`, strconv.Itoa(w.tableID-1), `" numberingType="TABLE" textWrap="TOP_AND_BOTTOM" textFlow="BOTH_SIDES" lock="0" dropcapstyle="None" pageBreak="CELL" repeatHeader="1"`)
	b.s(` rowCnt="`, strconv.Itoa(len(t.Rows)), `" colCnt="`, strconv.Itoa(grid), `" cellSpacing="0" borderFillIDRef="`, strconv.Itoa(border), `" noAdjust="0">`)
	b.s(`<hp:sz width="`, strconv.Itoa(width), `" widthRelTo="ABSOLUTE" height="`, strconv.Itoa(total), `" heightRelTo="ABSOLUTE" protect="0"/>`)
	b.s(`<hp:pos treatAsChar="`, treatAsChar, `" affectLSpacing="0" flowWithText="1" allowOverlap="0" holdAnchorAndSO="0" vertRelTo="PARA" horzRelTo="COLUMN" vertAlign="TOP" horzAlign="LEFT" vertOffset="0" horzOffset="0"/>`)
	b.s(`<hp:outMargin left="0" right="0" top="0" bottom="283"/><hp:inMargin left="510" right="510" top="141" bottom="141"/>`)
	for ri := range t.Rows {
		b.s(`<hp:tr>`)
		col := 0
		for _, c := range t.Rows[ri].Cells {
			span := max(c.Span, 1)
			if c.VMerge == "continue" {
				col += span
				continue
			}
			rs := 1
			if c.VMerge == "restart" {
				rs = max(rowSpan[hwpxCell{ri, col}], 1)
			}
			cw := 0
			for k := col; k < col+span; k++ {
				cw += cols[k]
			}
			ch := 0
			for k := ri; k < ri+rs && k < len(rowH); k++ {
				ch += rowH[k]
			}
			header := ri < t.HeaderRows
			shade := c.Shade
			if shade == "" && header {
				shade = "D9E2F3"
			}
			fillID := w.cellFill(shade)
			if t.NoBorders && shade == "" {
				fillID = 1
			}
			hdr := "0"
			if header {
				hdr = "1"
			}
			b.s(`<hp:tc name="" header="`, hdr, `" hasMargin="0" protect="0" editable="0" dirty="0" borderFillIDRef="`, strconv.Itoa(fillID), `">`)
			b.s(`<hp:subList id="" textDirection="HORIZONTAL" lineWrap="BREAK" vertAlign="CENTER" linkListIDRef="0" linkListNextIDRef="0" textWidth="0" textHeight="0" hasTextRef="0" hasNumRef="0">`)
			inner := &hwpxPara{b: b}
			switch {
			case len(c.Blocks) > 0:
				w.blocks(inner, c.Blocks, max(cw-2*hwpCellMar, 1000))
				if inner.pageBreak {
					w.para(inner, 1, nil, hwpxCharPr{})
				}
			case c.Text != "":
				w.para(inner, 1, []Run{{Text: c.Text, Bold: c.Bold || header}}, hwpxCharPr{})
			default:
				w.para(inner, 1, nil, hwpxCharPr{})
			}
			b.s(`</hp:subList><hp:cellAddr colAddr="`, strconv.Itoa(col), `" rowAddr="`, strconv.Itoa(ri), `"/>`)
			b.s(`<hp:cellSpan colSpan="`, strconv.Itoa(span), `" rowSpan="`, strconv.Itoa(rs), `"/>`)
			b.s(`<hp:cellSz width="`, strconv.Itoa(cw), `" height="`, strconv.Itoa(ch), `"/><hp:cellMargin left="510" right="510" top="141" bottom="141"/></hp:tc>`)
			col += span
		}
		b.s(`</hp:tr>`)
	}
	b.s(`</hp:tbl><hp:t/></hp:run></hp:p>`)
}
