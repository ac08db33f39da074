package synth

import "strconv"

// Fixed parts of a generated deck: theme, slide master and layouts, notes
// master, table style, properties. Element order follows the PresentationML
// schema (ECMA-376 part 1 §19.3): in a master, clrMap precedes
// sldLayoutIdLst (the reverse makes PowerPoint refuse the file, DEFECTS.md).

const nsP = "http://schemas.openxmlformats.org/presentationml/2006/main"

const pptxNS = ` xmlns:a="` + nsA + `" xmlns:r="` + nsR + `" xmlns:p="` + nsP + `"`

// themeXML is a complete DrawingML theme (§20.1.6): colour scheme, font
// scheme and a format scheme with three entries in every style list.
func themeXML(name string) []byte {
	solid := func(c string) string { return `<a:solidFill><a:schemeClr val="` + c + `"/></a:solidFill>` }
	ln := func(w string) string {
		return `<a:ln w="` + w + `" cap="flat" cmpd="sng" algn="ctr"><a:solidFill><a:schemeClr val="phClr"/></a:solidFill><a:prstDash val="solid"/><a:miter lim="800000"/></a:ln>`
	}
	return []byte(xmlHeader + `<a:theme xmlns:a="` + nsA + `" name="` + esc(name) + `"><a:themeElements>` +
		`<a:clrScheme name="Office"><a:dk1><a:sysClr val="windowText" lastClr="000000"/></a:dk1><a:lt1><a:sysClr val="window" lastClr="FFFFFF"/></a:lt1>` +
		`<a:dk2><a:srgbClr val="44546A"/></a:dk2><a:lt2><a:srgbClr val="E7E6E6"/></a:lt2><a:accent1><a:srgbClr val="4472C4"/></a:accent1><a:accent2><a:srgbClr val="ED7D31"/></a:accent2>` +
		`<a:accent3><a:srgbClr val="A5A5A5"/></a:accent3><a:accent4><a:srgbClr val="FFC000"/></a:accent4><a:accent5><a:srgbClr val="5B9BD5"/></a:accent5><a:accent6><a:srgbClr val="70AD47"/></a:accent6>` +
		`<a:hlink><a:srgbClr val="0563C1"/></a:hlink><a:folHlink><a:srgbClr val="954F72"/></a:folHlink></a:clrScheme>` +
		`<a:fontScheme name="Office"><a:majorFont><a:latin typeface="Calibri Light"/><a:ea typeface=""/><a:cs typeface=""/></a:majorFont><a:minorFont><a:latin typeface="Calibri"/><a:ea typeface=""/><a:cs typeface=""/></a:minorFont></a:fontScheme>` +
		`<a:fmtScheme name="Office"><a:fillStyleLst>` + solid("phClr") + solid("phClr") + solid("phClr") + `</a:fillStyleLst>` +
		`<a:lnStyleLst>` + ln("6350") + ln("12700") + ln("19050") + `</a:lnStyleLst>` +
		`<a:effectStyleLst><a:effectStyle><a:effectLst/></a:effectStyle><a:effectStyle><a:effectLst/></a:effectStyle><a:effectStyle><a:effectLst/></a:effectStyle></a:effectStyleLst>` +
		`<a:bgFillStyleLst>` + solid("phClr") + solid("phClr") + solid("phClr") + `</a:bgFillStyleLst></a:fmtScheme>` +
		`</a:themeElements><a:objectDefaults/><a:extraClrSchemeLst/></a:theme>`)
}

const grpSp = `<p:nvGrpSpPr><p:cNvPr id="1" name=""/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr><p:grpSpPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="0" cy="0"/><a:chOff x="0" y="0"/><a:chExt cx="0" cy="0"/></a:xfrm></p:grpSpPr>`

const clrMap = `bg1="lt1" tx1="dk1" bg2="lt2" tx2="dk2" accent1="accent1" accent2="accent2" accent3="accent3" accent4="accent4" accent5="accent5" accent6="accent6" hlink="hlink" folHlink="folHlink"`

func xfrm(x, y, cx, cy int64) string {
	f := func(n int64) string { return strconv.FormatInt(n, 10) }
	return `<a:xfrm><a:off x="` + f(x) + `" y="` + f(y) + `"/><a:ext cx="` + f(cx) + `" cy="` + f(cy) + `"/></a:xfrm>`
}

// pptxGeom is the geometry of a slide size: title and content areas.
type pptxGeom struct {
	w, h               int64
	left, width        int64
	titleY, titleH     int64
	contentY, contentH int64
	sizeType           string
}

func geomFor(size string) pptxGeom {
	if size == "4:3" {
		return pptxGeom{w: 9144000, h: 6858000, left: 628650, width: 7886700, titleY: 365125, titleH: 1325563, contentY: 1825625, contentH: 4351338, sizeType: ` type="screen4x3"`}
	}
	return pptxGeom{w: 12192000, h: 6858000, left: 838200, width: 10515600, titleY: 365125, titleH: 1325563, contentY: 1825625, contentH: 4351338}
}

func lvlRPr(sz int, font string) string {
	return `<a:defRPr sz="` + strconv.Itoa(sz) + `" kern="1200"><a:solidFill><a:schemeClr val="tx1"/></a:solidFill><a:latin typeface="+` + font + `-lt"/><a:ea typeface="+` + font + `-ea"/><a:cs typeface="+` + font + `-cs"/></a:defRPr>`
}

func masterXML(g pptxGeom) []byte {
	var body string
	sizes := []int{2800, 2400, 2000, 1800, 1800}
	for l := 0; l < 5; l++ {
		marL := strconv.Itoa(228600 + 457200*l)
		n := strconv.Itoa(l + 1)
		body += `<a:lvl` + n + `pPr marL="` + marL + `" indent="-228600" algn="l" defTabSz="914400" rtl="0" eaLnBrk="1" latinLnBrk="0" hangingPunct="1">` +
			`<a:lnSpc><a:spcPct val="90000"/></a:lnSpc><a:spcBef><a:spcPts val="1000"/></a:spcBef><a:buFont typeface="Arial"/><a:buChar char="&#8226;"/>` +
			lvlRPr(sizes[l], "mn") + `</a:lvl` + n + `pPr>`
	}
	return []byte(xmlHeader + `<p:sldMaster` + pptxNS + `><p:cSld><p:bg><p:bgRef idx="1001"><a:schemeClr val="bg1"/></p:bgRef></p:bg><p:spTree>` + grpSp +
		`<p:sp><p:nvSpPr><p:cNvPr id="2" name="Title Placeholder 1"/><p:cNvSpPr><a:spLocks noGrp="1"/></p:cNvSpPr><p:nvPr><p:ph type="title"/></p:nvPr></p:nvSpPr>` +
		`<p:spPr>` + xfrm(g.left, g.titleY, g.width, g.titleH) + `<a:prstGeom prst="rect"><a:avLst/></a:prstGeom></p:spPr>` +
		`<p:txBody><a:bodyPr vert="horz" lIns="91440" tIns="45720" rIns="91440" bIns="45720" rtlCol="0" anchor="ctr"><a:normAutofit/></a:bodyPr><a:lstStyle/><a:p><a:r><a:rPr lang="en-US"/><a:t>Click to edit Master title style</a:t></a:r><a:endParaRPr lang="en-US"/></a:p></p:txBody></p:sp>` +
		`<p:sp><p:nvSpPr><p:cNvPr id="3" name="Text Placeholder 2"/><p:cNvSpPr><a:spLocks noGrp="1"/></p:cNvSpPr><p:nvPr><p:ph type="body" idx="1"/></p:nvPr></p:nvSpPr>` +
		`<p:spPr>` + xfrm(g.left, g.contentY, g.width, g.contentH) + `<a:prstGeom prst="rect"><a:avLst/></a:prstGeom></p:spPr>` +
		`<p:txBody><a:bodyPr vert="horz" lIns="91440" tIns="45720" rIns="91440" bIns="45720" rtlCol="0"><a:normAutofit/></a:bodyPr><a:lstStyle/><a:p><a:pPr lvl="0"/><a:r><a:rPr lang="en-US"/><a:t>Click to edit Master text styles</a:t></a:r></a:p></p:txBody></p:sp>` +
		`</p:spTree></p:cSld><p:clrMap ` + clrMap + `/>` +
		`<p:sldLayoutIdLst><p:sldLayoutId id="2147483649" r:id="rId1"/><p:sldLayoutId id="2147483650" r:id="rId2"/></p:sldLayoutIdLst>` +
		`<p:txStyles><p:titleStyle><a:lvl1pPr algn="l" defTabSz="914400" rtl="0" eaLnBrk="1" latinLnBrk="0" hangingPunct="1"><a:lnSpc><a:spcPct val="90000"/></a:lnSpc><a:spcBef><a:spcPct val="0"/></a:spcBef><a:buNone/>` +
		lvlRPr(4000, "mj") + `</a:lvl1pPr></p:titleStyle>` +
		`<p:bodyStyle>` + body + `</p:bodyStyle>` +
		`<p:otherStyle><a:defPPr><a:defRPr lang="en-US"/></a:defPPr><a:lvl1pPr marL="0" algn="l" defTabSz="914400" rtl="0" eaLnBrk="1" latinLnBrk="0" hangingPunct="1">` + lvlRPr(1800, "mn") + `</a:lvl1pPr></p:otherStyle>` +
		`</p:txStyles></p:sldMaster>`)
}

func layoutPh(id int, name, ph string) string {
	return `<p:sp><p:nvSpPr><p:cNvPr id="` + strconv.Itoa(id) + `" name="` + name + `"/><p:cNvSpPr><a:spLocks noGrp="1"/></p:cNvSpPr><p:nvPr>` + ph + `</p:nvPr></p:nvSpPr><p:spPr/>` +
		`<p:txBody><a:bodyPr/><a:lstStyle/><a:p><a:endParaRPr lang="en-US"/></a:p></p:txBody></p:sp>`
}

// layoutXML: layout 1 is "Title and Content" (type obj), layout 2 "Title
// Only"; both inherit geometry from the master.
func layoutXML(n int) []byte {
	typ, name, shapes := "obj", "Title and Content", layoutPh(2, "Title 1", `<p:ph type="title"/>`)+layoutPh(3, "Content Placeholder 2", `<p:ph idx="1"/>`)
	if n == 2 {
		typ, name, shapes = "titleOnly", "Title Only", layoutPh(2, "Title 1", `<p:ph type="title"/>`)
	}
	return []byte(xmlHeader + `<p:sldLayout` + pptxNS + ` type="` + typ + `" preserve="1"><p:cSld name="` + name + `"><p:spTree>` + grpSp + shapes +
		`</p:spTree></p:cSld><p:clrMapOvr><a:masterClrMapping/></p:clrMapOvr></p:sldLayout>`)
}

// notesMasterXML: a notes master with the slide image and notes body
// placeholders (notes slides without a notes master make PowerPoint repair
// the file, DEFECTS.md).
func notesMasterXML() []byte {
	return []byte(xmlHeader + `<p:notesMaster` + pptxNS + `><p:cSld><p:bg><p:bgRef idx="1001"><a:schemeClr val="bg1"/></p:bgRef></p:bg><p:spTree>` + grpSp +
		`<p:sp><p:nvSpPr><p:cNvPr id="2" name="Slide Image Placeholder 1"/><p:cNvSpPr><a:spLocks noGrp="1" noRot="1" noChangeAspect="1"/></p:cNvSpPr><p:nvPr><p:ph type="sldImg" idx="2"/></p:nvPr></p:nvSpPr>` +
		`<p:spPr>` + xfrm(685800, 1143000, 5486400, 3086100) + `<a:prstGeom prst="rect"><a:avLst/></a:prstGeom><a:noFill/><a:ln w="12700"><a:solidFill><a:prstClr val="black"/></a:solidFill></a:ln></p:spPr></p:sp>` +
		`<p:sp><p:nvSpPr><p:cNvPr id="3" name="Notes Placeholder 2"/><p:cNvSpPr><a:spLocks noGrp="1"/></p:cNvSpPr><p:nvPr><p:ph type="body" sz="quarter" idx="3"/></p:nvPr></p:nvSpPr>` +
		`<p:spPr>` + xfrm(685800, 4400550, 5486400, 3600450) + `<a:prstGeom prst="rect"><a:avLst/></a:prstGeom></p:spPr>` +
		`<p:txBody><a:bodyPr vert="horz" lIns="91440" tIns="45720" rIns="91440" bIns="45720" rtlCol="0"/><a:lstStyle/><a:p><a:pPr lvl="0"/><a:r><a:rPr lang="en-US"/><a:t>Click to edit Master text styles</a:t></a:r></a:p></p:txBody></p:sp>` +
		`</p:spTree></p:cSld><p:clrMap ` + clrMap + `/>` +
		`<p:notesStyle><a:lvl1pPr marL="0" algn="l" defTabSz="914400" rtl="0" eaLnBrk="1" latinLnBrk="0" hangingPunct="1">` + lvlRPr(1200, "mn") + `</a:lvl1pPr></p:notesStyle></p:notesMaster>`)
}

// tableStyleID is the built-in "Medium Style 2 - Accent 1", defined in
// tableStyles.xml as PowerPoint itself writes it so that every renderer
// draws the same table.
const tableStyleID = "{5C22544A-7EE6-4342-B048-85BDC9FD1C3A}"

func tableStylesXML() []byte {
	border := func(side string) string {
		return `<a:` + side + `><a:ln w="12700" cmpd="sng"><a:solidFill><a:schemeClr val="lt1"/></a:solidFill></a:ln></a:` + side + `>`
	}
	tint := func(v string) string {
		return `<a:fill><a:solidFill><a:schemeClr val="accent1"><a:tint val="` + v + `"/></a:schemeClr></a:solidFill></a:fill>`
	}
	return []byte(xmlHeader + `<a:tblStyleLst xmlns:a="` + nsA + `" def="` + tableStyleID + `"><a:tblStyle styleId="` + tableStyleID + `" styleName="Medium Style 2 - Accent 1">` +
		`<a:wholeTbl><a:tcTxStyle><a:fontRef idx="minor"><a:prstClr val="black"/></a:fontRef><a:schemeClr val="dk1"/></a:tcTxStyle><a:tcStyle><a:tcBdr>` +
		border("left") + border("right") + border("top") + border("bottom") + border("insideH") + border("insideV") +
		`</a:tcBdr>` + tint("20000") + `</a:tcStyle></a:wholeTbl>` +
		`<a:band1H><a:tcStyle><a:tcBdr/>` + tint("40000") + `</a:tcStyle></a:band1H>` +
		`<a:band2H><a:tcStyle><a:tcBdr/></a:tcStyle></a:band2H>` +
		`<a:firstRow><a:tcTxStyle b="on"><a:fontRef idx="minor"><a:prstClr val="black"/></a:fontRef><a:schemeClr val="lt1"/></a:tcTxStyle><a:tcStyle><a:tcBdr>` +
		`<a:bottom><a:ln w="38100" cmpd="sng"><a:solidFill><a:schemeClr val="lt1"/></a:solidFill></a:ln></a:bottom></a:tcBdr><a:fill><a:solidFill><a:schemeClr val="accent1"/></a:solidFill></a:fill></a:tcStyle></a:firstRow>` +
		`</a:tblStyle></a:tblStyleLst>`)
}

const presPropsXML = xmlHeader + `<p:presentationPr` + pptxNS + `/>`

const viewPropsXML = xmlHeader + `<p:viewPr` + pptxNS + `><p:normalViewPr><p:restoredLeft sz="15620"/><p:restoredTop sz="94660"/></p:normalViewPr><p:gridSpacing cx="76200" cy="76200"/></p:viewPr>`

// defaultTextStyle of presentation.xml (used by text outside placeholders,
// such as table cells).
func defaultTextStyle() string {
	s := `<p:defaultTextStyle><a:defPPr><a:defRPr lang="en-US"/></a:defPPr>`
	for l := 1; l <= 5; l++ {
		n := strconv.Itoa(l)
		s += `<a:lvl` + n + `pPr marL="` + strconv.Itoa(457200*(l-1)) + `" algn="l" defTabSz="914400" rtl="0" eaLnBrk="1" latinLnBrk="0" hangingPunct="1">` + lvlRPr(1800, "mn") + `</a:lvl` + n + `pPr>`
	}
	return s + `</p:defaultTextStyle>`
}
