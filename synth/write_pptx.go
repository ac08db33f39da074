package synth

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

const (
	ctPptxMain   = "application/vnd.openxmlformats-officedocument.presentationml.presentation.main+xml"
	ctPptxSlide  = "application/vnd.openxmlformats-officedocument.presentationml.slide+xml"
	ctPptxLayout = "application/vnd.openxmlformats-officedocument.presentationml.slideLayout+xml"
	ctPptxMaster = "application/vnd.openxmlformats-officedocument.presentationml.slideMaster+xml"
	ctPptxNotesM = "application/vnd.openxmlformats-officedocument.presentationml.notesMaster+xml"
	ctPptxNotesS = "application/vnd.openxmlformats-officedocument.presentationml.notesSlide+xml"
	ctPptxPres   = "application/vnd.openxmlformats-officedocument.presentationml.presProps+xml"
	ctPptxView   = "application/vnd.openxmlformats-officedocument.presentationml.viewProps+xml"
	ctPptxTblSty = "application/vnd.openxmlformats-officedocument.presentationml.tableStyles+xml"
)

// writePptx renders a deck: presentation.xml with its children in
// CT_Presentation order (sldMasterIdLst, notesMasterIdLst, sldIdLst, sldSz,
// notesSz, defaultTextStyle), one master with two layouts, a notes master
// when any slide has notes, and one part per slide and notes slide.
func writePptx(s *Spec, e *env) ([]byte, error) {
	p := s.Pptx
	g := geomFor(p.Size)
	hasNotes := false
	for i := range p.Slides {
		if p.Slides[i].Notes != "" {
			hasNotes = true
		}
	}

	ct := &contentTypes{}
	ct.def("rels", ctRels)
	ct.def("xml", ctXML)
	ct.over("ppt/presentation.xml", ctPptxMain)

	pres, presRels := presentationXML(g, p, hasNotes)

	parts := []zipPart{
		{name: "[Content_Types].xml"}, // filled in at the end
		{name: "_rels/.rels"},
		{name: "docProps/core.xml", data: corePropsXML(s.Title)},
		{name: "docProps/app.xml", data: appPropsXML("")},
		{name: "ppt/presentation.xml", data: pres},
		{name: "ppt/_rels/presentation.xml.rels", data: presRels.xml()},
		{name: "ppt/presProps.xml", data: []byte(presPropsXML)},
		{name: "ppt/viewProps.xml", data: []byte(viewPropsXML)},
		{name: "ppt/tableStyles.xml", data: tableStylesXML()},
		{name: "ppt/theme/theme1.xml", data: themeXML("Office Theme")},
		{name: "ppt/slideMasters/slideMaster1.xml", data: masterXML(g)},
		{name: "ppt/slideMasters/_rels/slideMaster1.xml.rels", data: (&rels{list: []rel{
			{id: "rId1", typ: relLayout, target: "../slideLayouts/slideLayout1.xml"},
			{id: "rId2", typ: relLayout, target: "../slideLayouts/slideLayout2.xml"},
			{id: "rId3", typ: relTheme, target: "../theme/theme1.xml"},
		}}).xml()},
	}
	for n := 1; n <= 2; n++ {
		parts = append(parts,
			zipPart{name: fmt.Sprintf("ppt/slideLayouts/slideLayout%d.xml", n), data: layoutXML(n)},
			zipPart{name: fmt.Sprintf("ppt/slideLayouts/_rels/slideLayout%d.xml.rels", n), data: (&rels{list: []rel{{id: "rId1", typ: relMaster, target: "../slideMasters/slideMaster1.xml"}}}).xml()})
		ct.over(fmt.Sprintf("ppt/slideLayouts/slideLayout%d.xml", n), ctPptxLayout)
	}
	ct.over("ppt/slideMasters/slideMaster1.xml", ctPptxMaster)
	ct.over("ppt/theme/theme1.xml", ctTheme)
	if hasNotes {
		parts = append(parts,
			zipPart{name: "ppt/notesMasters/notesMaster1.xml", data: notesMasterXML()},
			zipPart{name: "ppt/notesMasters/_rels/notesMaster1.xml.rels", data: (&rels{list: []rel{{id: "rId1", typ: relTheme, target: "../theme/theme2.xml"}}}).xml()},
			zipPart{name: "ppt/theme/theme2.xml", data: themeXML("Office Theme")})
		ct.over("ppt/notesMasters/notesMaster1.xml", ctPptxNotesM)
		ct.over("ppt/theme/theme2.xml", ctTheme)
	}

	media := newPkgMedia("ppt")
	slides, err := pptxSlides(g, p.Slides, ct, media, e)
	if err != nil {
		return nil, err
	}
	parts = append(parts, slides...)
	media.declare(ct)
	ct.over("ppt/presProps.xml", ctPptxPres)
	ct.over("ppt/viewProps.xml", ctPptxView)
	ct.over("ppt/tableStyles.xml", ctPptxTblSty)
	ct.over("docProps/core.xml", ctCore)
	ct.over("docProps/app.xml", ctExtended)
	parts = append(parts, media.parts...)

	pkgRels := &rels{}
	pkgRels.add(relOfficeDoc, "ppt/presentation.xml")
	pkgRels.add(relCore, "docProps/core.xml")
	pkgRels.add(relExtended, "docProps/app.xml")
	parts[0].data = ct.xml()
	parts[1].data = pkgRels.xml()
	return writeZip(parts)
}

// presentationXML writes ppt/presentation.xml and its relationships: the
// master, the slides in order, the notes master when any slide has notes,
// the properties, theme and table styles.
func presentationXML(g pptxGeom, p *PptxSpec, hasNotes bool) ([]byte, *rels) {
	presRels := &rels{}
	presRels.add(relMaster, "slideMasters/slideMaster1.xml")
	var slideRIDs []string
	for i := range p.Slides {
		slideRIDs = append(slideRIDs, presRels.add(relSlide, fmt.Sprintf("slides/slide%d.xml", i+1)))
	}
	notesMasterRID := ""
	if hasNotes {
		notesMasterRID = presRels.add(relNotesMast, "notesMasters/notesMaster1.xml")
	}
	presRels.add(relPresProps, "presProps.xml")
	presRels.add(relViewProps, "viewProps.xml")
	presRels.add(relTheme, "theme/theme1.xml")
	presRels.add(relTblStyles, "tableStyles.xml")

	var pres xb
	pres.s(xmlHeader, `<p:presentation`, pptxNS, ` saveSubsetFonts="1"><p:sldMasterIdLst><p:sldMasterId id="2147483648" r:id="rId1"/></p:sldMasterIdLst>`)
	if hasNotes {
		pres.s(`<p:notesMasterIdLst><p:notesMasterId r:id="`, notesMasterRID, `"/></p:notesMasterIdLst>`)
	}
	pres.s(`<p:sldIdLst>`)
	for i, rid := range slideRIDs {
		pres.s(`<p:sldId id="`, strconv.Itoa(256+i), `" r:id="`, rid, `"/>`)
	}
	pres.s(`</p:sldIdLst><p:sldSz cx="`, strconv.FormatInt(g.w, 10), `" cy="`, strconv.FormatInt(g.h, 10), `"`, g.sizeType, `/><p:notesSz cx="6858000" cy="9144000"/>`)
	pres.s(defaultTextStyle(), `</p:presentation>`)
	return pres.bytes(), presRels
}

// pptxSlides writes each slide (with its layout, picture, chart and notes
// slide relationships) and its notes slide, declaring their content types
// in ct in order; pictures and charts go into media.
func pptxSlides(g pptxGeom, slides []Slide, ct *contentTypes, media *pkgMedia, e *env) (out []zipPart, err error) {
	for i := range slides {
		sl := &slides[i]
		n := i + 1
		srels := &rels{}
		layout := 2
		if len(sl.Body) > 0 {
			layout = 1
		}
		srels.add(relLayout, fmt.Sprintf("../slideLayouts/slideLayout%d.xml", layout))
		var imageRID, chartRID string
		var pic picture
		if sl.Image != nil {
			var err error
			pic, err = e.images.load(sl.Image)
			if err != nil {
				return nil, fmt.Errorf("synth: pptx slide %d: %w", n, err)
			}
			imageRID = srels.add(relImage, "../"+strings.TrimPrefix(media.picture(pic), "ppt/"))
		}
		if sl.Chart != nil {
			name, err := media.chart(sl.Chart)
			if err != nil {
				return nil, fmt.Errorf("synth: pptx slide %d: %w", n, err)
			}
			e.origins.part(name, fmt.Sprintf("$.pptx.slides[%d].chart", i))
			chartRID = srels.add(relChart, "../"+strings.TrimPrefix(name, "ppt/"))
		}
		if sl.Notes != "" {
			srels.add(relNotesSlide, fmt.Sprintf("../notesSlides/notesSlide%d.xml", n))
		}
		e.origins.part(fmt.Sprintf("ppt/slides/slide%d.xml", n), fmt.Sprintf("$.pptx.slides[%d]", i))
		e.origins.part(fmt.Sprintf("ppt/notesSlides/notesSlide%d.xml", n), fmt.Sprintf("$.pptx.slides[%d].notes", i))
		out = append(out,
			zipPart{name: fmt.Sprintf("ppt/slides/slide%d.xml", n), data: slideXML(g, sl, imageRID, chartRID, pic)},
			zipPart{name: fmt.Sprintf("ppt/slides/_rels/slide%d.xml.rels", n), data: srels.xml()})
		ct.over(fmt.Sprintf("ppt/slides/slide%d.xml", n), ctPptxSlide)
		if sl.Notes != "" {
			out = append(out,
				zipPart{name: fmt.Sprintf("ppt/notesSlides/notesSlide%d.xml", n), data: notesSlideXML(sl.Notes)},
				zipPart{name: fmt.Sprintf("ppt/notesSlides/_rels/notesSlide%d.xml.rels", n), data: (&rels{list: []rel{
					{id: "rId1", typ: relNotesMast, target: "../notesMasters/notesMaster1.xml"},
					{id: "rId2", typ: relSlide, target: fmt.Sprintf("../slides/slide%d.xml", n)},
				}}).xml()})
			ct.over(fmt.Sprintf("ppt/notesSlides/notesSlide%d.xml", n), ctPptxNotesS)
		}
	}
	return out, nil
}

// slideXML lays out a slide: the title in the title placeholder; below it
// the body text, the table and the picture. With a picture next to text or
// a table, the picture takes the right 40 %; body text above a table takes
// a share of the height by its paragraph count.
func slideXML(g pptxGeom, sl *Slide, imageRID, chartRID string, pic picture) []byte {
	var b xb
	b.s(xmlHeader, `<p:sld`, pptxNS, `><p:cSld><p:spTree>`, grpSp)
	id := 2
	if sl.Title != "" {
		b.s(`<p:sp><p:nvSpPr><p:cNvPr id="`, strconv.Itoa(id), `" name="Title `, strconv.Itoa(id-1), `"/><p:cNvSpPr><a:spLocks noGrp="1"/></p:cNvSpPr><p:nvPr><p:ph type="title"/></p:nvPr></p:nvSpPr><p:spPr/>`)
		b.s(`<p:txBody><a:bodyPr><a:normAutofit/></a:bodyPr><a:lstStyle/>`)
		titleParas(&b, sl.Title)
		b.s(`</p:txBody></p:sp>`)
		id++
	}
	x, y, w, h := g.left, g.contentY, g.width, g.contentH
	const gap = 228600
	textW := w
	visual := sl.Image != nil || sl.Chart != nil
	if visual && (len(sl.Body) > 0 || sl.Table != nil) {
		textW = w*6/10 - gap/2
	}
	tableY, tableH := y, h
	if len(sl.Body) > 0 {
		bodyH := h
		if sl.Table != nil {
			bodyH = min(h/2, int64(len(sl.Body))*457200+91440)
			tableY, tableH = y+bodyH+gap/2, h-bodyH-gap/2
		}
		b.s(`<p:sp><p:nvSpPr><p:cNvPr id="`, strconv.Itoa(id), `" name="Content Placeholder `, strconv.Itoa(id-1), `"/><p:cNvSpPr><a:spLocks noGrp="1"/></p:cNvSpPr><p:nvPr><p:ph idx="1"/></p:nvPr></p:nvSpPr>`)
		b.s(`<p:spPr>`, xfrm(x, y, textW, bodyH), `</p:spPr><p:txBody><a:bodyPr><a:normAutofit/></a:bodyPr><a:lstStyle/>`)
		for i := range sl.Body {
			pptxPara(&b, &sl.Body[i], true)
		}
		b.s(`</p:txBody></p:sp>`)
		id++
	}
	if sl.Table != nil {
		pptxTable(&b, sl.Table, id, x, tableY, textW, tableH)
		id++
	}
	if sl.Image != nil {
		cx, cy := pic.size(sl.Image)
		ax, aw := x, w
		if len(sl.Body) > 0 || sl.Table != nil {
			ax, aw = x+textW+gap, w-textW-gap
		}
		// Fit inside the area, keeping the aspect ratio, centred; a picture
		// without a size given fills the area.
		scale := math.Min(float64(aw)/float64(cx), float64(h)/float64(cy))
		if sl.Image.Width > 0 || sl.Image.Height > 0 {
			scale = math.Min(1, scale)
		}
		cx, cy = int64(float64(cx)*scale), int64(float64(cy)*scale)
		px, py := ax+(aw-cx)/2, y+(h-cy)/2
		sid := strconv.Itoa(id)
		b.s(`<p:pic><p:nvPicPr><p:cNvPr id="`, sid, `" name="Picture `, strconv.Itoa(id-1), `"`).attr("descr", sl.Image.Alt).s(`/><p:cNvPicPr><a:picLocks noChangeAspect="1"/></p:cNvPicPr><p:nvPr/></p:nvPicPr>`)
		b.s(`<p:blipFill><a:blip r:embed="`, imageRID, `"/><a:stretch><a:fillRect/></a:stretch></p:blipFill>`)
		b.s(`<p:spPr>`, xfrm(px, py, cx, cy), `<a:prstGeom prst="rect"><a:avLst/></a:prstGeom></p:spPr></p:pic>`)
	}
	if sl.Chart != nil {
		ax, aw := x, w
		if len(sl.Body) > 0 || sl.Table != nil {
			ax, aw = x+textW+gap, w-textW-gap
		}
		// The chart fills its area unless sized; a given size is kept
		// when it fits, centred.
		cx, cy := aw, h
		if sl.Chart.Width > 0 {
			cx = min(aw, int64(math.Round(sl.Chart.Width*12700)))
		}
		if sl.Chart.Height > 0 {
			cy = min(h, int64(math.Round(sl.Chart.Height*12700)))
		}
		px, py := ax+(aw-cx)/2, y+(h-cy)/2
		sid := strconv.Itoa(id)
		b.s(`<p:graphicFrame><p:nvGraphicFramePr><p:cNvPr id="`, sid, `" name="Chart `, strconv.Itoa(id-1), `"`).attr("descr", sl.Chart.Title).s(`/><p:cNvGraphicFramePr/><p:nvPr/></p:nvGraphicFramePr>`)
		b.s(`<p:xfrm><a:off x="`, strconv.FormatInt(px, 10), `" y="`, strconv.FormatInt(py, 10), `"/><a:ext cx="`, strconv.FormatInt(cx, 10), `" cy="`, strconv.FormatInt(cy, 10), `"/></p:xfrm>`)
		b.s(chartGraphic(chartRID), `</p:graphicFrame>`)
	}
	b.s(`</p:spTree></p:cSld><p:clrMapOvr><a:masterClrMapping/></p:clrMapOvr></p:sld>`)
	return b.bytes()
}

func titleParas(b *xb, text string) {
	for _, line := range strings.Split(text, "\n") {
		b.s(`<a:p>`)
		if line != "" {
			b.s(`<a:r><a:rPr lang="en-US" dirty="0"/><a:t>`).t(line).s(`</a:t></a:r>`)
		} else {
			b.s(`<a:endParaRPr lang="en-US" dirty="0"/>`)
		}
		b.s(`</a:p>`)
	}
}

func pptxAlgn(a string) string {
	switch a {
	case "left":
		return "l"
	case "center":
		return "ctr"
	case "right":
		return "r"
	case "justify":
		return "just"
	}
	return ""
}

// pptxPara writes an a:p (CT_TextParagraph: pPr, runs, endParaRPr).
func pptxPara(b *xb, p *Paragraph, body bool) {
	b.s(`<a:p>`)
	algn := pptxAlgn(p.Align)
	if p.Level > 0 || algn != "" {
		b.s(`<a:pPr`)
		if p.Level > 0 {
			b.s(` lvl="`, strconv.Itoa(p.Level), `"`)
		}
		if algn != "" {
			b.s(` algn="`, algn, `"`)
		}
		b.s(`/>`)
	}
	runs := p.Runs
	if len(runs) == 0 && p.Text != "" {
		runs = []Run{{Text: p.Text}}
	}
	for _, r := range runs {
		pptxRun(b, r)
	}
	if len(runs) == 0 {
		b.s(`<a:endParaRPr lang="en-US" dirty="0"/>`)
	}
	b.s(`</a:p>`)
}

// pptxRun writes a:r elements; a newline becomes a:br.
func pptxRun(b *xb, r Run) {
	for i, line := range strings.Split(r.Text, "\n") {
		if i > 0 {
			b.s(`<a:br>`)
			pptxRPr(b, r, "a:rPr")
			b.s(`</a:br>`)
		}
		if line == "" {
			continue
		}
		b.s(`<a:r>`)
		pptxRPr(b, r, "a:rPr")
		b.s(`<a:t>`).t(line).s(`</a:t></a:r>`)
	}
}

func pptxRPr(b *xb, r Run, tag string) {
	b.s(`<`, tag, ` lang="en-US"`)
	if r.Size != 0 {
		b.s(` sz="`, strconv.Itoa(int(math.Round(r.Size*100))), `"`)
	}
	if r.Bold {
		b.s(` b="1"`)
	}
	if r.Italic {
		b.s(` i="1"`)
	}
	if r.Underline {
		b.s(` u="sng"`)
	}
	b.s(` dirty="0"`)
	if r.Color != "" {
		b.s(`><a:solidFill><a:srgbClr val="`, strings.ToUpper(r.Color), `"/></a:solidFill></`, tag, `>`)
		return
	}
	b.s(`/>`)
}

// pptxTable writes a graphicFrame holding an a:tbl. DrawingML tables keep
// a full grid: a cell spanning n columns is followed by n-1 cells with
// hMerge="1"; a vertical merge is rowSpan on the first cell and vMerge="1"
// on the cells it covers (§21.1.3.16 tc).
func pptxTable(b *xb, t *Table, id int, x, y, w, h int64) {
	grid := 0
	for _, c := range t.Rows[0].Cells {
		grid += max(c.Span, 1)
	}
	sum := 0.0
	for i := 0; i < grid; i++ {
		sum += colWeight(t, i)
	}
	rowH := min(int64(370840), h/int64(len(t.Rows)))
	// rowSpan of each restart cell: the continues below it.
	type pos struct{ r, c int }
	rowSpan := map[pos]int{}
	starts := map[int]pos{} // grid column → the restart cell above
	for ri := range t.Rows {
		col := 0
		for _, c := range t.Rows[ri].Cells {
			switch c.VMerge {
			case "restart":
				starts[col] = pos{ri, col}
				rowSpan[pos{ri, col}] = 1
			case "continue":
				rowSpan[starts[col]]++
			default:
				delete(starts, col)
			}
			col += max(c.Span, 1)
		}
	}
	sid := strconv.Itoa(id)
	b.s(`<p:graphicFrame><p:nvGraphicFramePr><p:cNvPr id="`, sid, `" name="Table `, strconv.Itoa(id-1), `"/><p:cNvGraphicFramePr><a:graphicFrameLocks noGrp="1"/></p:cNvGraphicFramePr><p:nvPr/></p:nvGraphicFramePr>`)
	b.s(`<p:xfrm><a:off x="`, strconv.FormatInt(x, 10), `" y="`, strconv.FormatInt(y, 10), `"/><a:ext cx="`, strconv.FormatInt(w, 10), `" cy="`, strconv.FormatInt(rowH*int64(len(t.Rows)), 10), `"/></p:xfrm>`)
	b.s(`<a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/table"><a:tbl><a:tblPr`)
	if t.HeaderRows > 0 {
		b.s(` firstRow="1"`)
	}
	b.s(` bandRow="1"><a:tableStyleId>`, tableStyleID, `</a:tableStyleId></a:tblPr><a:tblGrid>`)
	used := int64(0)
	acc := 0.0
	for i := 0; i < grid; i++ {
		acc += colWeight(t, i)
		end := int64(math.Round(acc / sum * float64(w)))
		b.s(`<a:gridCol w="`, strconv.FormatInt(end-used, 10), `"/>`)
		used = end
	}
	b.s(`</a:tblGrid>`)
	for ri := range t.Rows {
		b.s(`<a:tr h="`, strconv.FormatInt(rowH, 10), `">`)
		col := 0
		for _, c := range t.Rows[ri].Cells {
			span := max(c.Span, 1)
			b.s(`<a:tc`)
			if span > 1 {
				b.s(` gridSpan="`, strconv.Itoa(span), `"`)
			}
			if c.VMerge == "restart" && rowSpan[pos{ri, col}] > 1 {
				b.s(` rowSpan="`, strconv.Itoa(rowSpan[pos{ri, col}]), `"`)
			}
			if c.VMerge == "continue" {
				b.s(` vMerge="1"`)
			}
			b.s(`>`)
			cellBody(b, c)
			for k := 1; k < span; k++ {
				b.s(`<a:tc hMerge="1"`)
				if c.VMerge == "continue" {
					b.s(` vMerge="1"`)
				}
				b.s(`>`)
				cellBody(b, Cell{})
			}
			col += span
		}
		b.s(`</a:tr>`)
	}
	b.s(`</a:tbl></a:graphicData></a:graphic></p:graphicFrame>`)
}

func cellBody(b *xb, c Cell) {
	b.s(`<a:txBody><a:bodyPr/><a:lstStyle/>`)
	p := Paragraph{}
	if c.Text != "" {
		p.Runs = []Run{{Text: c.Text, Bold: c.Bold}}
	}
	pptxPara(b, &p, false)
	b.s(`</a:txBody><a:tcPr>`)
	if c.Shade != "" {
		b.s(`<a:solidFill><a:srgbClr val="`, strings.ToUpper(c.Shade), `"/></a:solidFill>`)
	}
	b.s(`</a:tcPr></a:tc>`)
}

// notesSlideXML: the slide image placeholder and the notes body, one
// paragraph per line.
func notesSlideXML(notes string) []byte {
	var b xb
	b.s(xmlHeader, `<p:notes`, pptxNS, `><p:cSld><p:spTree>`, grpSp)
	b.s(`<p:sp><p:nvSpPr><p:cNvPr id="2" name="Slide Image Placeholder 1"/><p:cNvSpPr><a:spLocks noGrp="1" noRot="1" noChangeAspect="1"/></p:cNvSpPr><p:nvPr><p:ph type="sldImg"/></p:nvPr></p:nvSpPr><p:spPr/></p:sp>`)
	b.s(`<p:sp><p:nvSpPr><p:cNvPr id="3" name="Notes Placeholder 2"/><p:cNvSpPr><a:spLocks noGrp="1"/></p:cNvSpPr><p:nvPr><p:ph type="body" idx="1"/></p:nvPr></p:nvSpPr><p:spPr/><p:txBody><a:bodyPr/><a:lstStyle/>`)
	for _, line := range strings.Split(notes, "\n") {
		p := Paragraph{Text: line}
		pptxPara(&b, &p, false)
	}
	b.s(`</p:txBody></p:sp></p:spTree></p:cSld><p:clrMapOvr><a:masterClrMapping/></p:clrMapOvr></p:notes>`)
	return b.bytes()
}
