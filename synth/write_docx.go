package synth

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// WordprocessingML namespaces (ECMA-376 part 1 §17, §20.4 for drawings).
const (
	nsW   = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
	nsR   = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
	nsWP  = "http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing"
	nsA   = "http://schemas.openxmlformats.org/drawingml/2006/main"
	nsPic = "http://schemas.openxmlformats.org/drawingml/2006/picture"

	ctDocxMain   = "application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"
	ctDocxStyles = "application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml"
	ctDocxSet    = "application/vnd.openxmlformats-officedocument.wordprocessingml.settings+xml"
	ctDocxNum    = "application/vnd.openxmlformats-officedocument.wordprocessingml.numbering+xml"
	ctDocxHeader = "application/vnd.openxmlformats-officedocument.wordprocessingml.header+xml"
	ctDocxFooter = "application/vnd.openxmlformats-officedocument.wordprocessingml.footer+xml"
	ctDocxFonts  = "application/vnd.openxmlformats-officedocument.wordprocessingml.fontTable+xml"

	twipsPerMM   = 1440 / 25.4
	cellMarginTw = 108 // Word's default left/right cell margin, twips
)

// docxWriter renders a DocxSpec. Parts are built as strings; the only
// state is counters that make ids unique (drawing ids across all parts,
// numbering instances, media names).
type docxWriter struct {
	d       *DocxSpec
	docPrID int
	media   *pkgMedia // pictures and charts, each picture once
	numbers []docxNum // w:num instances
	bullets int       // numId of the shared bullet list, 0 until used
	err     error     // the first image or chart that failed
	images  imageCache
}

type docxNum struct{ id, abstract int }

// docxPart is the part being written (body, header, footer): it owns the
// relationships its images add.
type docxPart struct {
	rels   *rels
	pstyle string      // style of plain paragraphs (Header, Footer)
	origin *bodyOrigin // the container's children and their spec paths
}

func writeDocx(s *Spec, e *env) ([]byte, error) {
	d := s.Docx
	w := &docxWriter{d: d, media: newPkgMedia("word"), images: e.images}
	pageW, pageH, margin := docxPage(d.Page)
	textW := pageW - 2*margin

	docRels := &rels{}
	docRels.add(relStyles, "styles.xml")
	docRels.add(relSettings, "settings.xml")
	docRels.add(relFontTable, "fontTable.xml")

	var headerXML, footerXML []byte
	var headerRels, footerRels *rels
	var headerID, footerID string
	if len(d.Header) > 0 {
		headerRels = &rels{}
		headerXML = w.hdrFtr("hdr", "$.docx.header", d.Header, &docxPart{rels: headerRels, pstyle: "Header", origin: e.origins.body("word/header1.xml", "$.docx.header", 1)}, textW)
		headerID = docRels.add(relHeader, "header1.xml")
	}
	if len(d.Footer) > 0 {
		footerRels = &rels{}
		footerXML = w.hdrFtr("ftr", "$.docx.footer", d.Footer, &docxPart{rels: footerRels, pstyle: "Footer", origin: e.origins.body("word/footer1.xml", "$.docx.footer", 1)}, textW)
		footerID = docRels.add(relFooter, "footer1.xml")
	}

	var body xb
	body.s(xmlHeader, `<w:document xmlns:w="`, nsW, `" xmlns:r="`, nsR, `" xmlns:wp="`, nsWP, `" xmlns:a="`, nsA, `" xmlns:pic="`, nsPic, `"><w:body>`)
	w.blocks(&body, &docxPart{rels: docRels, origin: e.origins.body("word/document.xml", "$.docx.body", 2)}, d.Body, textW, "$.docx.body")
	sectPr(&body, headerID, footerID, pageW, pageH, margin)
	body.s(`</w:body></w:document>`)

	if w.err != nil {
		return nil, fmt.Errorf("synth: docx: %w", w.err)
	}
	if len(w.numbers) > 0 {
		docRels.add(relNumbering, "numbering.xml")
	}

	ct := &contentTypes{}
	ct.def("rels", ctRels)
	ct.def("xml", ctXML)
	w.media.declare(ct)
	ct.over("word/document.xml", ctDocxMain)
	ct.over("word/styles.xml", ctDocxStyles)
	ct.over("word/settings.xml", ctDocxSet)
	ct.over("word/fontTable.xml", ctDocxFonts)
	if len(w.numbers) > 0 {
		ct.over("word/numbering.xml", ctDocxNum)
	}
	if headerXML != nil {
		ct.over("word/header1.xml", ctDocxHeader)
	}
	if footerXML != nil {
		ct.over("word/footer1.xml", ctDocxFooter)
	}
	ct.over("docProps/core.xml", ctCore)
	ct.over("docProps/app.xml", ctExtended)

	pkgRels := &rels{}
	pkgRels.add(relOfficeDoc, "word/document.xml")
	pkgRels.add(relCore, "docProps/core.xml")
	pkgRels.add(relExtended, "docProps/app.xml")

	parts := []zipPart{
		{name: "[Content_Types].xml", data: ct.xml()},
		{name: "_rels/.rels", data: pkgRels.xml()},
		{name: "docProps/core.xml", data: corePropsXML(s.Title)},
		{name: "docProps/app.xml", data: appPropsXML("")},
		{name: "word/document.xml", data: body.bytes()},
		{name: "word/_rels/document.xml.rels", data: docRels.xml()},
		{name: "word/styles.xml", data: []byte(docxStyles())},
		{name: "word/settings.xml", data: []byte(docxSettings)},
		{name: "word/fontTable.xml", data: []byte(docxFonts)},
	}
	if len(w.numbers) > 0 {
		parts = append(parts, zipPart{name: "word/numbering.xml", data: w.numberingXML()})
	}
	if headerXML != nil {
		parts = append(parts, zipPart{name: "word/header1.xml", data: headerXML})
		if len(headerRels.list) > 0 {
			parts = append(parts, zipPart{name: "word/_rels/header1.xml.rels", data: headerRels.xml()})
		}
	}
	if footerXML != nil {
		parts = append(parts, zipPart{name: "word/footer1.xml", data: footerXML})
		if len(footerRels.list) > 0 {
			parts = append(parts, zipPart{name: "word/_rels/footer1.xml.rels", data: footerRels.xml()})
		}
	}
	parts = append(parts, w.media.parts...)
	return writeZip(parts)
}

// docxPage returns the page width, height and margin in twips: A4 (or
// Letter), portrait unless landscape, margins of 25 mm unless given.
func docxPage(pg *PageSpec) (w, h, margin int) {
	w, h = 11906, 16838
	margin = 1440
	if pg == nil {
		return w, h, int(math.Round(25 * twipsPerMM))
	}
	if pg.Size == "Letter" {
		w, h = 12240, 15840
	}
	if pg.Landscape {
		w, h = h, w
	}
	if pg.MarginMM > 0 {
		margin = int(math.Round(pg.MarginMM * twipsPerMM))
	}
	return w, h, margin
}

// sectPr writes the body's section properties: the header and footer
// references, the page size and orientation, the margins.
func sectPr(b *xb, headerID, footerID string, pageW, pageH, margin int) {
	b.s(`<w:sectPr>`)
	if headerID != "" {
		b.s(`<w:headerReference w:type="default" r:id="`, headerID, `"/>`)
	}
	if footerID != "" {
		b.s(`<w:footerReference w:type="default" r:id="`, footerID, `"/>`)
	}
	b.s(`<w:pgSz`).iattr("w:w", int64(pageW)).iattr("w:h", int64(pageH))
	if pageW > pageH {
		b.s(` w:orient="landscape"`)
	}
	b.s(`/><w:pgMar`).iattr("w:top", int64(margin)).iattr("w:right", int64(margin)).iattr("w:bottom", int64(margin)).iattr("w:left", int64(margin))
	b.s(` w:header="708" w:footer="708" w:gutter="0"/><w:cols w:space="708"/><w:docGrid w:linePitch="360"/></w:sectPr>`)
}

func (w *docxWriter) hdrFtr(root, path string, bs []Block, p *docxPart, textW int) []byte {
	var b xb
	b.s(xmlHeader, `<w:`, root, ` xmlns:w="`, nsW, `" xmlns:r="`, nsR, `" xmlns:wp="`, nsWP, `" xmlns:a="`, nsA, `" xmlns:pic="`, nsPic, `">`)
	w.blocks(&b, p, bs, textW, path)
	b.s(`</w:`, root, `>`)
	return b.bytes()
}

// blocks writes a block list. Two adjacent tables get an empty paragraph
// between them (Word would otherwise merge them into one table); a list
// that must end with a paragraph (a cell, a header, the body before
// sectPr) gets one after a trailing table. path is the list's spec path
// when it is the part's own (top-level) list: each element written is then
// recorded with the block it came from; "" inside table cells.
func (w *docxWriter) blocks(b *xb, p *docxPart, bs []Block, width int, path string) {
	rec := func(q, bp string, table bool) {
		if path != "" {
			p.origin.add(q, bp, table)
		}
	}
	prevTable := false
	for i := range bs {
		bl := &bs[i]
		bp := path + "[" + strconv.Itoa(i) + "]"
		if bl.Table != nil && prevTable {
			b.s(`<w:p/>`)
			rec("w:p", bp, false)
		}
		w.block(b, p, bl, width)
		switch {
		case bl.Table != nil:
			rec("w:tbl", bp, true)
		case bl.List != nil:
			for range bl.List.Items {
				rec("w:p", bp, false)
			}
		default:
			rec("w:p", bp, false)
		}
		prevTable = bl.Table != nil
	}
	if prevTable || len(bs) == 0 {
		// ECMA-376 §17.4.66 (tc): a cell's last block must be a paragraph;
		// Word also expects one before the body's sectPr.
		b.s(`<w:p/>`)
		rec("w:p", path, false)
	}
}

func (w *docxWriter) block(b *xb, p *docxPart, bl *Block, width int) {
	switch {
	case bl.Heading != nil:
		h := bl.Heading
		w.paragraph(b, p, "Heading"+strconv.Itoa(h.Level), "", h.Text, h.Runs, nil, runStyle{})
	case bl.Paragraph != nil:
		w.paragraph(b, p, p.pstyle, bl.Paragraph.Align, bl.Paragraph.Text, bl.Paragraph.Runs, nil, runStyle{})
	case bl.Table != nil:
		w.table(b, p, bl.Table, width)
	case bl.List != nil:
		numID := w.listNum(bl.List.Ordered)
		for i := range bl.List.Items {
			it := &bl.List.Items[i]
			w.paragraph(b, p, "ListParagraph", "", it.Text, it.Runs, &[2]int{numID, it.Level}, runStyle{})
		}
	case bl.Image != nil:
		w.imageParagraph(b, p, bl.Image, width)
	case bl.Chart != nil:
		w.chartParagraph(b, p, bl.Chart, width)
	case bl.PageBreak:
		b.s(`<w:p><w:r><w:br w:type="page"/></w:r></w:p>`)
	}
}

// runStyle is inherited formatting (table header rows are bold).
type runStyle struct{ bold bool }

func jcVal(align string) string {
	switch align {
	case "center":
		return "center"
	case "right":
		return "right"
	case "justify":
		return "both"
	}
	return ""
}

// paragraph writes a w:p. pPr children follow CT_PPrBase order: pStyle,
// numPr, jc.
func (w *docxWriter) paragraph(b *xb, p *docxPart, style, align, text string, runs []Run, num *[2]int, inh runStyle) {
	b.s(`<w:p>`)
	jc := jcVal(align)
	if style != "" || num != nil || jc != "" {
		b.s(`<w:pPr>`)
		if style != "" {
			b.s(`<w:pStyle w:val="`, style, `"/>`)
		}
		if num != nil {
			b.s(`<w:numPr><w:ilvl w:val="`, strconv.Itoa(num[1]), `"/><w:numId w:val="`, strconv.Itoa(num[0]), `"/></w:numPr>`)
		}
		if jc != "" {
			b.s(`<w:jc w:val="`, jc, `"/>`)
		}
		b.s(`</w:pPr>`)
	}
	if len(runs) == 0 && text != "" {
		w.run(b, Run{Text: text, Bold: inh.bold})
	}
	for _, r := range runs {
		if inh.bold {
			r.Bold = true
		}
		w.run(b, r)
	}
	b.s(`</w:p>`)
}

// rPr writes run properties in CT_RPr order: b, i, color, sz, szCs, u.
func rPr(b *xb, r Run) {
	if !r.Bold && !r.Italic && !r.Underline && r.Size == 0 && r.Color == "" {
		return
	}
	b.s(`<w:rPr>`)
	if r.Bold {
		b.s(`<w:b/><w:bCs/>`)
	}
	if r.Italic {
		b.s(`<w:i/><w:iCs/>`)
	}
	if r.Color != "" {
		b.s(`<w:color w:val="`, strings.ToUpper(r.Color), `"/>`)
	}
	if r.Size != 0 {
		hp := strconv.Itoa(int(math.Round(r.Size * 2)))
		b.s(`<w:sz w:val="`, hp, `"/><w:szCs w:val="`, hp, `"/>`)
	}
	if r.Underline {
		b.s(`<w:u w:val="single"/>`)
	}
	b.s(`</w:rPr>`)
}

// run writes one run; tabs and newlines become w:tab and w:br, a field a
// complex field (§17.16.18) with a cached result.
func (w *docxWriter) run(b *xb, r Run) {
	if r.Field != "" {
		for _, part := range []string{
			`<w:fldChar w:fldCharType="begin"/>`,
			`<w:instrText xml:space="preserve"> ` + r.Field + ` </w:instrText>`,
			`<w:fldChar w:fldCharType="separate"/>`,
			`<w:t>1</w:t>`,
			`<w:fldChar w:fldCharType="end"/>`,
		} {
			b.s(`<w:r>`)
			rPr(b, r)
			b.s(part, `</w:r>`)
		}
		return
	}
	b.s(`<w:r>`)
	rPr(b, r)
	start := 0
	flush := func(end int) {
		if end > start {
			b.s(`<w:t xml:space="preserve">`).t(r.Text[start:end]).s(`</w:t>`)
		}
	}
	for i := 0; i < len(r.Text); i++ {
		switch r.Text[i] {
		case '\t':
			flush(i)
			b.s(`<w:tab/>`)
			start = i + 1
		case '\n':
			flush(i)
			b.s(`<w:br/>`)
			start = i + 1
		}
	}
	flush(len(r.Text))
	b.s(`</w:r>`)
}

// listNum returns the numId for a new list: bulleted lists share one
// instance; every numbered list gets its own instance restarting at 1.
func (w *docxWriter) listNum(ordered bool) int {
	if !ordered {
		if w.bullets == 0 {
			w.bullets = len(w.numbers) + 1
			w.numbers = append(w.numbers, docxNum{id: w.bullets, abstract: 0})
		}
		return w.bullets
	}
	id := len(w.numbers) + 1
	w.numbers = append(w.numbers, docxNum{id: id, abstract: 1})
	return id
}

// numberingXML writes two abstract definitions (bullets, decimal outline)
// and the w:num instances: abstractNum elements precede num elements
// (CT_Numbering).
func (w *docxWriter) numberingXML() []byte {
	var b xb
	b.s(xmlHeader, `<w:numbering xmlns:w="`, nsW, `">`)
	bullets := []string{"\u2022", "\u25E6", "\u25AA"}
	b.s(`<w:abstractNum w:abstractNumId="0"><w:multiLevelType w:val="hybridMultilevel"/>`)
	for l := 0; l < 9; l++ {
		b.s(`<w:lvl w:ilvl="`, strconv.Itoa(l), `"><w:start w:val="1"/><w:numFmt w:val="bullet"/><w:lvlText w:val="`, bullets[l%3], `"/><w:lvlJc w:val="left"/>`)
		b.s(`<w:pPr><w:ind w:left="`, strconv.Itoa(720*(l+1)), `" w:hanging="360"/></w:pPr></w:lvl>`)
	}
	b.s(`</w:abstractNum>`)
	fmts := []string{"decimal", "lowerLetter", "lowerRoman"}
	b.s(`<w:abstractNum w:abstractNumId="1"><w:multiLevelType w:val="hybridMultilevel"/>`)
	for l := 0; l < 9; l++ {
		b.s(`<w:lvl w:ilvl="`, strconv.Itoa(l), `"><w:start w:val="1"/><w:numFmt w:val="`, fmts[l%3], `"/><w:lvlText w:val="%`, strconv.Itoa(l+1), `."/><w:lvlJc w:val="left"/>`)
		b.s(`<w:pPr><w:ind w:left="`, strconv.Itoa(720*(l+1)), `" w:hanging="360"/></w:pPr></w:lvl>`)
	}
	b.s(`</w:abstractNum>`)
	for _, n := range w.numbers {
		b.s(`<w:num w:numId="`, strconv.Itoa(n.id), `"><w:abstractNumId w:val="`, strconv.Itoa(n.abstract), `"/>`)
		if n.abstract == 1 {
			b.s(`<w:lvlOverride w:ilvl="0"><w:startOverride w:val="1"/></w:lvlOverride>`)
		}
		b.s(`</w:num>`)
	}
	b.s(`</w:numbering>`)
	return b.bytes()
}

// table writes a w:tbl of the given width in twips. Properties follow
// CT_TblPr order (tblStyle, tblW, tblLayout, tblLook) and CT_TcPr order
// (tcW, gridSpan, vMerge, shd); every cell ends with a paragraph.
func (w *docxWriter) table(b *xb, p *docxPart, t *Table, width int) {
	grid := 0
	for _, c := range t.Rows[0].Cells {
		grid += max(c.Span, 1)
	}
	cols := make([]int, grid)
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
	b.s(`<w:tbl><w:tblPr>`)
	if !t.NoBorders {
		b.s(`<w:tblStyle w:val="TableGrid"/>`)
	}
	b.s(`<w:tblW w:w="`, strconv.Itoa(width), `" w:type="dxa"/><w:tblLayout w:type="fixed"/>`)
	b.s(`<w:tblLook w:val="04A0" w:firstRow="1" w:lastRow="0" w:firstColumn="1" w:lastColumn="0" w:noHBand="0" w:noVBand="1"/></w:tblPr><w:tblGrid>`)
	for _, c := range cols {
		b.s(`<w:gridCol w:w="`, strconv.Itoa(c), `"/>`)
	}
	b.s(`</w:tblGrid>`)
	for ri := range t.Rows {
		header := ri < t.HeaderRows
		b.s(`<w:tr>`)
		if header {
			b.s(`<w:trPr><w:tblHeader/></w:trPr>`)
		}
		col := 0
		for ci := range t.Rows[ri].Cells {
			c := &t.Rows[ri].Cells[ci]
			span := max(c.Span, 1)
			cw := 0
			for k := col; k < col+span && k < grid; k++ {
				cw += cols[k]
			}
			col += span
			b.s(`<w:tc><w:tcPr><w:tcW w:w="`, strconv.Itoa(cw), `" w:type="dxa"/>`)
			if span > 1 {
				b.s(`<w:gridSpan w:val="`, strconv.Itoa(span), `"/>`)
			}
			switch c.VMerge {
			case "restart":
				b.s(`<w:vMerge w:val="restart"/>`)
			case "continue":
				b.s(`<w:vMerge/>`)
			}
			shade := c.Shade
			if shade == "" && header {
				shade = "D9E2F3"
			}
			if shade != "" {
				b.s(`<w:shd w:val="clear" w:color="auto" w:fill="`, strings.ToUpper(shade), `"/>`)
			}
			b.s(`</w:tcPr>`)
			inh := runStyle{bold: header || c.Bold}
			switch {
			case len(c.Blocks) > 0:
				w.blocks(b, p, c.Blocks, max(cw-2*cellMarginTw, 200), "")
			case c.Text != "":
				w.paragraph(b, p, "", "", c.Text, nil, nil, inh)
			default:
				b.s(`<w:p/>`)
			}
			b.s(`</w:tc>`)
		}
		b.s(`</w:tr>`)
	}
	b.s(`</w:tbl>`)
}

func colWeight(t *Table, i int) float64 {
	if i < len(t.Widths) {
		return t.Widths[i]
	}
	return 1
}

// imageParagraph writes an inline picture (§20.4.2.8 inline) in its own
// paragraph, scaled down to the available width.
func (w *docxWriter) imageParagraph(b *xb, p *docxPart, im *Image, width int) {
	pic, err := w.images.load(im)
	if err != nil {
		if w.err == nil {
			w.err = err
		}
		return
	}
	cx, cy := pic.size(im)
	if maxCx := int64(width) * 635; cx > maxCx { // 635 EMU per twip
		cy = cy * maxCx / cx
		cx = maxCx
	}
	name := w.media.picture(pic)
	rid := p.rels.add(relImage, strings.TrimPrefix(name, "word/"))
	w.docPrID++
	id := strconv.Itoa(w.docPrID)
	b.s(`<w:p>`)
	if jc := jcVal(im.Align); jc != "" {
		b.s(`<w:pPr><w:jc w:val="`, jc, `"/></w:pPr>`)
	}
	ext := `cx="` + strconv.FormatInt(cx, 10) + `" cy="` + strconv.FormatInt(cy, 10) + `"`
	b.s(`<w:r><w:drawing><wp:inline distT="0" distB="0" distL="0" distR="0"><wp:extent `, ext, `/><wp:effectExtent l="0" t="0" r="0" b="0"/>`)
	b.s(`<wp:docPr id="`, id, `" name="Picture `, id, `"`).attr("descr", im.Alt).s(`/>`)
	b.s(`<wp:cNvGraphicFramePr><a:graphicFrameLocks noChangeAspect="1"/></wp:cNvGraphicFramePr>`)
	b.s(`<a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:pic>`)
	b.s(`<pic:nvPicPr><pic:cNvPr id="0" name="`, name[len("word/media/"):], `"/><pic:cNvPicPr/></pic:nvPicPr>`)
	b.s(`<pic:blipFill><a:blip r:embed="`, rid, `"/><a:stretch><a:fillRect/></a:stretch></pic:blipFill>`)
	b.s(`<pic:spPr><a:xfrm><a:off x="0" y="0"/><a:ext `, ext, `/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom></pic:spPr>`)
	b.s(`</pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p>`)
}

// chartParagraph writes a native chart inline (§20.4.2.8) in its own
// paragraph: 6 × 3.5 inches unless sized, scaled down to the width.
func (w *docxWriter) chartParagraph(b *xb, p *docxPart, c *Chart, width int) {
	name, err := w.media.chart(c)
	if err != nil {
		if w.err == nil {
			w.err = err
		}
		return
	}
	rid := p.rels.add(relChart, strings.TrimPrefix(name, "word/"))
	wPt, hPt := c.Width, c.Height
	if wPt == 0 {
		wPt = 432
	}
	if hPt == 0 {
		hPt = 252
	}
	cx, cy := int64(math.Round(wPt*12700)), int64(math.Round(hPt*12700))
	if maxCx := int64(width) * 635; cx > maxCx {
		cy = cy * maxCx / cx
		cx = maxCx
	}
	w.docPrID++
	id := strconv.Itoa(w.docPrID)
	b.s(`<w:p><w:r><w:drawing><wp:inline distT="0" distB="0" distL="0" distR="0"><wp:extent cx="`, strconv.FormatInt(cx, 10), `" cy="`, strconv.FormatInt(cy, 10), `"/><wp:effectExtent l="0" t="0" r="0" b="0"/>`)
	b.s(`<wp:docPr id="`, id, `" name="Chart `, id, `"`).attr("descr", c.Title).s(`/><wp:cNvGraphicFramePr/>`, chartGraphic(rid))
	b.s(`</wp:inline></w:drawing></w:r></w:p>`)
}

// docxStyles defines the styles the writer references: Normal, Heading1–6,
// ListParagraph, Header, Footer, the default table style and TableGrid.
// Fonts are named directly (no theme part).
func docxStyles() string {
	return xmlHeader + `<w:styles xmlns:w="` + nsW + `">` +
		`<w:docDefaults><w:rPrDefault><w:rPr><w:rFonts w:ascii="Calibri" w:hAnsi="Calibri" w:eastAsia="Calibri" w:cs="Calibri"/><w:sz w:val="22"/><w:szCs w:val="22"/><w:lang w:val="en-US" w:eastAsia="en-US" w:bidi="ar-SA"/></w:rPr></w:rPrDefault>` +
		`<w:pPrDefault><w:pPr><w:spacing w:after="120" w:line="264" w:lineRule="auto"/></w:pPr></w:pPrDefault></w:docDefaults>` +
		`<w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/><w:qFormat/></w:style>` +
		`<w:style w:type="character" w:default="1" w:styleId="DefaultParagraphFont"><w:name w:val="Default Paragraph Font"/><w:uiPriority w:val="1"/><w:semiHidden/><w:unhideWhenUsed/></w:style>` +
		`<w:style w:type="table" w:default="1" w:styleId="TableNormal"><w:name w:val="Normal Table"/><w:uiPriority w:val="99"/><w:semiHidden/><w:unhideWhenUsed/><w:tblPr><w:tblInd w:w="0" w:type="dxa"/><w:tblCellMar><w:top w:w="0" w:type="dxa"/><w:left w:w="108" w:type="dxa"/><w:bottom w:w="0" w:type="dxa"/><w:right w:w="108" w:type="dxa"/></w:tblCellMar></w:tblPr></w:style>` +
		`<w:style w:type="numbering" w:default="1" w:styleId="NoList"><w:name w:val="No List"/><w:uiPriority w:val="99"/><w:semiHidden/><w:unhideWhenUsed/></w:style>` +
		docxHeading(1, 32, 240, "1F3864") + docxHeading(2, 28, 200, "2F5496") + docxHeading(3, 24, 160, "2F5496") +
		docxHeading(4, 22, 120, "2F5496") + docxHeading(5, 22, 120, "404040") + docxHeading(6, 22, 120, "404040") +
		`<w:style w:type="paragraph" w:styleId="ListParagraph"><w:name w:val="List Paragraph"/><w:basedOn w:val="Normal"/><w:uiPriority w:val="34"/><w:qFormat/><w:pPr><w:spacing w:after="60"/><w:ind w:left="720"/><w:contextualSpacing/></w:pPr></w:style>` +
		`<w:style w:type="paragraph" w:styleId="Header"><w:name w:val="header"/><w:basedOn w:val="Normal"/><w:uiPriority w:val="99"/><w:unhideWhenUsed/><w:pPr><w:tabs><w:tab w:val="center" w:pos="4513"/><w:tab w:val="right" w:pos="9026"/></w:tabs><w:spacing w:after="0" w:line="240" w:lineRule="auto"/></w:pPr></w:style>` +
		`<w:style w:type="paragraph" w:styleId="Footer"><w:name w:val="footer"/><w:basedOn w:val="Normal"/><w:uiPriority w:val="99"/><w:unhideWhenUsed/><w:pPr><w:tabs><w:tab w:val="center" w:pos="4513"/><w:tab w:val="right" w:pos="9026"/></w:tabs><w:spacing w:after="0" w:line="240" w:lineRule="auto"/></w:pPr></w:style>` +
		`<w:style w:type="table" w:styleId="TableGrid"><w:name w:val="Table Grid"/><w:basedOn w:val="TableNormal"/><w:uiPriority w:val="39"/><w:pPr><w:spacing w:after="0" w:line="240" w:lineRule="auto"/></w:pPr><w:tblPr><w:tblBorders><w:top w:val="single" w:sz="4" w:space="0" w:color="auto"/><w:left w:val="single" w:sz="4" w:space="0" w:color="auto"/><w:bottom w:val="single" w:sz="4" w:space="0" w:color="auto"/><w:right w:val="single" w:sz="4" w:space="0" w:color="auto"/><w:insideH w:val="single" w:sz="4" w:space="0" w:color="auto"/><w:insideV w:val="single" w:sz="4" w:space="0" w:color="auto"/></w:tblBorders></w:tblPr></w:style>` +
		`</w:styles>`
}

func docxHeading(level, halfPts, before int, color string) string {
	l := strconv.Itoa(level)
	return `<w:style w:type="paragraph" w:styleId="Heading` + l + `"><w:name w:val="heading ` + l + `"/><w:basedOn w:val="Normal"/><w:next w:val="Normal"/><w:uiPriority w:val="9"/><w:qFormat/>` +
		`<w:pPr><w:keepNext/><w:keepLines/><w:spacing w:before="` + strconv.Itoa(before) + `" w:after="80"/><w:outlineLvl w:val="` + strconv.Itoa(level-1) + `"/></w:pPr>` +
		`<w:rPr><w:rFonts w:ascii="Calibri Light" w:hAnsi="Calibri Light" w:cs="Calibri Light"/><w:b/><w:bCs/><w:color w:val="` + color + `"/><w:sz w:val="` + strconv.Itoa(halfPts) + `"/><w:szCs w:val="` + strconv.Itoa(halfPts) + `"/></w:rPr></w:style>`
}

// docxSettings: CT_Settings children in schema order.
const docxSettings = xmlHeader + `<w:settings xmlns:w="` + nsW + `"><w:zoom w:percent="100"/><w:defaultTabStop w:val="720"/><w:characterSpacingControl w:val="doNotCompress"/>` +
	`<w:compat><w:compatSetting w:name="compatibilityMode" w:uri="http://schemas.microsoft.com/office/word" w:val="15"/></w:compat></w:settings>`

// docxFonts is word/fontTable.xml for the two fonts the styles name.
const docxFonts = xmlHeader + `<w:fonts xmlns:w="` + nsW + `">` +
	`<w:font w:name="Calibri"><w:panose1 w:val="020F0502020204030204"/><w:charset w:val="00"/><w:family w:val="swiss"/><w:pitch w:val="variable"/></w:font>` +
	`<w:font w:name="Calibri Light"><w:panose1 w:val="020F0302020204030204"/><w:charset w:val="00"/><w:family w:val="swiss"/><w:pitch w:val="variable"/></w:font>` +
	`</w:fonts>`
