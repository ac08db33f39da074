package pptx_test

import (
	"bytes"
	"context"
	"sort"
	"strings"
	"testing"

	"github.com/editaudit/editaudit/formats"
	"github.com/editaudit/editaudit/formats/pptx"
	"github.com/editaudit/editaudit/internal/testdoc"
)

const (
	nsDecl  = `xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"`
	relBase = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/"
	ctBase  = "application/vnd.openxmlformats-officedocument.presentationml."
)

// rels builds a .rels part from id, type, target triples.
func rels(triples ...string) string {
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">`)
	for i := 0; i+2 < len(triples); i += 3 {
		b.WriteString(`<Relationship Id="` + triples[i] + `" Type="` + relBase + triples[i+1] + `" Target="` + triples[i+2] + `"/>`)
	}
	b.WriteString(`</Relationships>`)
	return b.String()
}

// presXML wraps children in p:presentation.
func presXML(children string) string {
	return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><p:presentation ` + nsDecl + `>` + children + `</p:presentation>`
}

const (
	masterLst = `<p:sldMasterIdLst><p:sldMasterId id="2147483648" r:id="rId1"/></p:sldMasterIdLst>`
	sldLst    = `<p:sldIdLst><p:sldId id="256" r:id="rId2"/></p:sldIdLst>`
	sizes     = `<p:sldSz cx="9144000" cy="6858000"/><p:notesSz cx="6858000" cy="9144000"/>`
	emptyTree = `<p:nvGrpSpPr><p:cNvPr id="1" name=""/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr><p:grpSpPr/>`
	clrMap    = `<p:clrMap bg1="lt1" tx1="dk1" bg2="lt2" tx2="dk2" accent1="accent1" accent2="accent2" accent3="accent3" accent4="accent4" accent5="accent5" accent6="accent6" hlink="hlink" folHlink="folHlink"/>`
	layoutLst = `<p:sldLayoutIdLst><p:sldLayoutId id="2147483649" r:id="rId1"/></p:sldLayoutIdLst>`
)

func masterXML(children string) string {
	return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><p:sldMaster ` + nsDecl + `>` + children + `</p:sldMaster>`
}

// shape is a text box named name with the given text body and geometry.
func shape(id, name, prst, txBody string) string {
	return `<p:sp><p:nvSpPr><p:cNvPr id="` + id + `" name="` + name + `"/><p:cNvSpPr txBox="1"/><p:nvPr/></p:nvSpPr>` +
		`<p:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="100" cy="100"/></a:xfrm><a:prstGeom prst="` + prst + `"><a:avLst/></a:prstGeom></p:spPr>` +
		txBody + `</p:sp>`
}

func textBody(paras ...string) string {
	var b strings.Builder
	b.WriteString(`<p:txBody><a:bodyPr/><a:lstStyle/>`)
	for _, p := range paras {
		b.WriteString(`<a:p><a:r><a:rPr lang="en-US"/><a:t>` + p + `</a:t></a:r></a:p>`)
	}
	b.WriteString(`</p:txBody>`)
	return b.String()
}

// table is a graphic frame with a rows×cols table whose cells hold cell.
func table(id string, rows, cols int, cell string) string {
	var b strings.Builder
	b.WriteString(`<p:graphicFrame><p:nvGraphicFramePr><p:cNvPr id="` + id + `" name="Table ` + id + `"/><p:cNvGraphicFramePr/><p:nvPr/></p:nvGraphicFramePr>` +
		`<p:xfrm><a:off x="0" y="0"/><a:ext cx="100" cy="100"/></p:xfrm><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/table"><a:tbl><a:tblGrid>`)
	for c := 0; c < cols; c++ {
		b.WriteString(`<a:gridCol w="100"/>`)
	}
	b.WriteString(`</a:tblGrid>`)
	for r := 0; r < rows; r++ {
		b.WriteString(`<a:tr h="10">`)
		for c := 0; c < cols; c++ {
			b.WriteString(`<a:tc>` + cell + `<a:tcPr/></a:tc>`)
		}
		b.WriteString(`</a:tr>`)
	}
	b.WriteString(`</a:tbl></a:graphicData></a:graphic></p:graphicFrame>`)
	return b.String()
}

const cellText = `<a:txBody><a:bodyPr/><a:lstStyle/><a:p><a:r><a:t>x</a:t></a:r></a:p></a:txBody>`

func slideXML(shapes string) string {
	return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><p:sld ` + nsDecl + `><p:cSld><p:spTree>` + emptyTree + shapes + `</p:spTree></p:cSld><p:clrMapOvr><a:masterClrMapping/></p:clrMapOvr></p:sld>`
}

func notesXML() string {
	return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><p:notes ` + nsDecl + `><p:cSld><p:spTree>` + emptyTree +
		shape("2", "Notes Placeholder 1", "rect", textBody("speaker notes")) + `</p:spTree></p:cSld></p:notes>`
}

func notesMasterXML() string {
	return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><p:notesMaster ` + nsDecl + `><p:cSld><p:spTree>` + emptyTree + `</p:spTree></p:cSld>` + clrMap + `</p:notesMaster>`
}

// deck is a minimal healthy one-slide deck (and, with notes, a notes slide
// and notes master) as a map of parts.
func deck(notes bool) map[string]string {
	m := map[string]string{
		"_rels/.rels":                     rels("rId1", "officeDocument", "ppt/presentation.xml"),
		"ppt/presentation.xml":            presXML(masterLst + sldLst + sizes),
		"ppt/_rels/presentation.xml.rels": rels("rId1", "slideMaster", "slideMasters/slideMaster1.xml", "rId2", "slide", "slides/slide1.xml"),
		"ppt/slideMasters/slideMaster1.xml": masterXML(`<p:cSld><p:spTree>` + emptyTree + `</p:spTree></p:cSld>` + clrMap + layoutLst +
			`<p:txStyles><p:titleStyle/><p:bodyStyle/><p:otherStyle/></p:txStyles>`),
		"ppt/slideMasters/_rels/slideMaster1.xml.rels": rels("rId1", "slideLayout", "../slideLayouts/slideLayout1.xml"),
		"ppt/slideLayouts/slideLayout1.xml":            `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><p:sldLayout ` + nsDecl + `><p:cSld><p:spTree>` + emptyTree + `</p:spTree></p:cSld></p:sldLayout>`,
		"ppt/slideLayouts/_rels/slideLayout1.xml.rels": rels("rId1", "slideMaster", "../slideMasters/slideMaster1.xml"),
		"ppt/slides/slide1.xml":                        slideXML(shape("2", "Title 1", "rect", textBody("Hello", "World")) + table("3", 2, 2, cellText)),
		"ppt/slides/_rels/slide1.xml.rels":             rels("rId1", "slideLayout", "../slideLayouts/slideLayout1.xml"),
	}
	if notes {
		m["ppt/presentation.xml"] = presXML(masterLst + `<p:notesMasterIdLst><p:notesMasterId r:id="rId3"/></p:notesMasterIdLst>` + sldLst + sizes)
		m["ppt/_rels/presentation.xml.rels"] = rels("rId1", "slideMaster", "slideMasters/slideMaster1.xml", "rId2", "slide", "slides/slide1.xml", "rId3", "notesMaster", "notesMasters/notesMaster1.xml")
		m["ppt/slides/_rels/slide1.xml.rels"] = rels("rId1", "slideLayout", "../slideLayouts/slideLayout1.xml", "rId2", "notesSlide", "../notesSlides/notesSlide1.xml")
		m["ppt/notesSlides/notesSlide1.xml"] = notesXML()
		m["ppt/notesSlides/_rels/notesSlide1.xml.rels"] = rels("rId1", "notesMaster", "../notesMasters/notesMaster1.xml", "rId2", "slide", "../slides/slide1.xml")
		m["ppt/notesMasters/notesMaster1.xml"] = notesMasterXML()
	}
	return m
}

// contentTypes writes [Content_Types].xml with an Override for every
// presentation part present, by folder.
func contentTypes(parts map[string]string) string {
	folders := map[string]string{"ppt/presentation.xml": "presentation.main+xml", "ppt/slides/": "slide+xml",
		"ppt/slideLayouts/": "slideLayout+xml", "ppt/slideMasters/": "slideMaster+xml", "ppt/notesSlides/": "notesSlide+xml",
		"ppt/notesMasters/": "notesMaster+xml", "ppt/handoutMasters/": "handoutMaster+xml"}
	var ct strings.Builder
	ct.WriteString(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
		`<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>`)
	names := make([]string, 0, len(parts))
	for n := range parts {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if strings.Contains(n, "_rels/") {
			continue
		}
		for prefix, typ := range folders {
			if strings.HasPrefix(n, prefix) {
				ct.WriteString(`<Override PartName="/` + n + `" ContentType="` + ctBase + typ + `"/>`)
			}
		}
	}
	ct.WriteString(`</Types>`)
	return ct.String()
}

// zipOf writes parts into a zip, [Content_Types].xml first (generated
// when absent), then the others sorted.
func zipOf(t testing.TB, parts map[string]string) []byte {
	t.Helper()
	all := make(map[string]string, len(parts)+1)
	for n, v := range parts {
		all[n] = v
	}
	if _, ok := all["[Content_Types].xml"]; !ok {
		all["[Content_Types].xml"] = contentTypes(parts)
	}
	return testdoc.ZipMap(all)
}

// inspectBytes runs what inspect.Reader runs for a pptx: open, the pptx
// inspector, the core's remaining checks; findings sorted.
func inspectBytes(t testing.TB, data []byte) *formats.Report {
	t.Helper()
	ctx := context.Background()
	p, err := formats.Open(ctx, bytes.NewReader(data), int64(len(data)), "test.pptx", formats.DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	if p.Format != formats.PPTX {
		t.Fatalf("detected %s, findings %v", p.Format, p.Findings())
	}
	rep := &formats.Report{Format: p.Format}
	if err := pptx.Inspect(ctx, p, rep); err != nil {
		t.Fatal(err)
	}
	if err := p.ScanRest(ctx); err != nil {
		t.Fatal(err)
	}
	rep.Findings = append(rep.Findings, p.Findings()...)
	formats.Sort(rep.Findings)
	return rep
}

func inspectParts(t testing.TB, parts map[string]string) *formats.Report {
	t.Helper()
	return inspectBytes(t, zipOf(t, parts))
}

func TestHealthyDeckHasNoFindings(t *testing.T) {
	for _, notes := range []bool{false, true} {
		rep := inspectParts(t, deck(notes))
		if len(rep.Findings) != 0 {
			t.Errorf("notes=%v: healthy deck has findings: %v", notes, rep.Findings)
		}
	}
}

func find(rep *formats.Report, code string) []formats.Finding {
	var out []formats.Finding
	for _, f := range rep.Findings {
		if f.Code == code {
			out = append(out, f)
		}
	}
	return out
}

// TestChecks: for each check a deck that triggers it (the code at the grade)
// and a near miss that must not.
func TestChecks(t *testing.T) {
	type mut func(m map[string]string)
	setPres := func(children string) mut {
		return func(m map[string]string) { m["ppt/presentation.xml"] = presXML(children) }
	}
	setSlide := func(shapes string) mut {
		return func(m map[string]string) { m["ppt/slides/slide1.xml"] = slideXML(shapes) }
	}
	setMaster := func(children string) mut {
		return func(m map[string]string) { m["ppt/slideMasters/slideMaster1.xml"] = masterXML(children) }
	}
	cSld := `<p:cSld><p:spTree>` + emptyTree + `</p:spTree></p:cSld>`
	txStyles := `<p:txStyles><p:titleStyle/><p:bodyStyle/><p:otherStyle/></p:txStyles>`
	notesLst := `<p:notesMasterIdLst><p:notesMasterId r:id="rId3"/></p:notesMasterIdLst>`
	tests := []struct {
		name    string
		notes   bool
		mutate  mut
		code    string
		grade   formats.Grade // "" = the code must be absent
		wantFix string        // substring of the fix, when set
	}{
		{"sldIdLst before sldMasterIdLst", false, setPres(sldLst + masterLst + sizes), pptx.CodePresentationOrder, formats.Fatal, "after </p:sldMasterIdLst>"},
		{"near miss: schema order", false, setPres(masterLst + sldLst + sizes), pptx.CodePresentationOrder, "", ""},
		{"notesMasterIdLst after sldIdLst (PptxGenJS)", true, setPres(masterLst + sldLst + notesLst + sizes), pptx.CodePresentationOrder, formats.Info, "leave it"},
		{"near miss: notesMasterIdLst in place", true, setPres(masterLst + notesLst + sldLst + sizes), pptx.CodePresentationOrder, "", ""},
		{"sldSz before sldIdLst", false, setPres(masterLst + `<p:sldSz cx="9144000" cy="6858000"/>` + sldLst + `<p:notesSz cx="1" cy="1"/>`), pptx.CodePresentationOrder, formats.Warning, "leave it"},
		{"two sldSz", false, setPres(masterLst + sldLst + `<p:sldSz cx="9144000" cy="6858000"/>` + sizes), pptx.CodePresentationOrder, formats.Warning, ""},
		{"master: sldLayoutIdLst before clrMap", false, setMaster(cSld + layoutLst + clrMap + txStyles), pptx.CodeMasterOrder, formats.Fatal, "directly after </p:cSld>"},
		{"master: txStyles before hf", false, setMaster(cSld + clrMap + layoutLst + txStyles + `<p:hf sldNum="0"/>`), pptx.CodeMasterOrder, formats.Warning, ""},
		{"near miss: master with transition in mc:AlternateContent", false, setMaster(cSld + clrMap + layoutLst +
			`<mc:AlternateContent xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006"><mc:Choice xmlns:p14="http://schemas.microsoft.com/office/powerpoint/2010/main" Requires="p14"><p:transition/></mc:Choice><mc:Fallback><p:transition/></mc:Fallback></mc:AlternateContent>` +
			`<p:hf sldNum="0"/>` + txStyles), pptx.CodeMasterOrder, "", ""},
		{"sldId r:id undefined (core)", false, setPres(masterLst + `<p:sldIdLst><p:sldId id="256" r:id="rId9"/></p:sldIdLst>` + sizes), formats.CodeRelsUndefinedID, formats.Fatal, ""},
		{"slide rel target missing (core)", false, func(m map[string]string) {
			delete(m, "ppt/slides/slide1.xml")
			delete(m, "ppt/slides/_rels/slide1.xml.rels")
		}, formats.CodeRelsTargetMissing, formats.Fatal, ""},
		{"sldId without r:id", false, setPres(masterLst + `<p:sldIdLst><p:sldId id="256" r:id="rId2"/><p:sldId id="257"/></p:sldIdLst>` + sizes), pptx.CodeSldIDNoRel, formats.Fatal, ""},
		{"sldId naming the master relationship", false, setPres(masterLst + `<p:sldIdLst><p:sldId id="256" r:id="rId2"/><p:sldId id="257" r:id="rId1"/></p:sldIdLst>` + sizes), pptx.CodeSldIDNotSlide, formats.Fatal, ""},
		{"duplicate sldId id", false, func(m map[string]string) {
			twoSlides(m)
			m["ppt/presentation.xml"] = presXML(masterLst + `<p:sldIdLst><p:sldId id="256" r:id="rId2"/><p:sldId id="256" r:id="rId3"/></p:sldIdLst>` + sizes)
		}, pptx.CodeSldIDDuplicate, formats.Fatal, ""},
		{"near miss: two slides, distinct ids", false, twoSlides, pptx.CodeSldIDDuplicate, "", ""},
		{"sldId id 255", false, setPres(masterLst + `<p:sldIdLst><p:sldId id="255" r:id="rId2"/></p:sldIdLst>` + sizes), pptx.CodeSldIDRange, formats.Warning, "p14:sectionLst"},
		{"sldId id 2147483648", false, setPres(masterLst + `<p:sldIdLst><p:sldId id="2147483648" r:id="rId2"/></p:sldIdLst>` + sizes), pptx.CodeSldIDRange, formats.Warning, ""},
		{"near miss: sldId id 2147483647", false, setPres(masterLst + `<p:sldIdLst><p:sldId id="2147483647" r:id="rId2"/></p:sldIdLst>` + sizes), pptx.CodeSldIDRange, "", ""},
		{"sldId id not a number", false, setPres(masterLst + `<p:sldIdLst><p:sldId id="NaN" r:id="rId2"/></p:sldIdLst>` + sizes), pptx.CodeSldIDInvalid, formats.Fatal, ""},
		{"sldId without id", false, setPres(masterLst + `<p:sldIdLst><p:sldId r:id="rId2"/></p:sldIdLst>` + sizes), pptx.CodeSldIDInvalid, formats.Fatal, ""},
		{"slide related but not listed", false, func(m map[string]string) {
			twoSlides(m)
			m["ppt/presentation.xml"] = presXML(masterLst + sldLst + sizes)
		}, pptx.CodeSlideNotListed, formats.Warning, ""},
		{"p:txBody without a:p", false, setSlide(shape("2", "Title 1", "rect", `<p:txBody><a:bodyPr/><a:lstStyle/></p:txBody>`)), pptx.CodeTxBodyNoP, formats.Fatal, "<a:p><a:endParaRPr"},
		{"a:txBody in a table cell without a:p", false, setSlide(table("3", 1, 1, `<a:txBody><a:bodyPr/><a:lstStyle/></a:txBody>`)), pptx.CodeTxBodyNoP, formats.Fatal, ""},
		{"near miss: empty paragraph", false, setSlide(shape("2", "Title 1", "rect", `<p:txBody><a:bodyPr/><a:lstStyle/><a:p><a:endParaRPr/></a:p></p:txBody>`) + table("3", 1, 1, `<a:txBody><a:bodyPr/><a:p/></a:txBody>`)), pptx.CodeTxBodyNoP, "", ""},
		{"prst oval", false, setSlide(shape("2", "Circle", "oval", textBody("o"))), pptx.CodePresetGeometry, formats.Fatal, `prst="ellipse"`},
		{"prst roundedRectangle", false, setSlide(shape("2", "Box", "roundedRectangle", textBody("o"))), pptx.CodePresetGeometry, formats.Fatal, `prst="roundRect"`},
		{"prst wrong case", false, setSlide(shape("2", "Box", "RoundRect", textBody("o"))), pptx.CodePresetGeometry, formats.Fatal, `prst="roundRect"`},
		{"prst missing", false, setSlide(`<p:sp><p:nvSpPr><p:cNvPr id="2" name="X"/><p:cNvSpPr/><p:nvPr/></p:nvSpPr><p:spPr><a:prstGeom/></p:spPr></p:sp>`), pptx.CodePresetGeometry, formats.Fatal, ""},
		{"near miss: ellipse, roundRect, chartPlus", false, setSlide(shape("2", "A", "ellipse", textBody("o")) + shape("3", "B", "roundRect", textBody("o")) + shape("4", "C", "chartPlus", textBody("o"))), pptx.CodePresetGeometry, "", ""},
		{"notes slide without notes master", true, func(m map[string]string) {
			m["ppt/notesSlides/_rels/notesSlide1.xml.rels"] = rels("rId2", "slide", "../slides/slide1.xml")
			delete(m, "ppt/notesMasters/notesMaster1.xml")
			m["ppt/presentation.xml"] = presXML(masterLst + sldLst + sizes)
			m["ppt/_rels/presentation.xml.rels"] = rels("rId1", "slideMaster", "slideMasters/slideMaster1.xml", "rId2", "slide", "slides/slide1.xml")
		}, pptx.CodeNotesNoMaster, formats.Fatal, ""},
		{"near miss: notes slide with notes master", true, nil, pptx.CodeNotesNoMaster, "", ""},
		{"notes master not listed (python-pptx)", true, setPres(masterLst + sldLst + sizes), pptx.CodeNotesMasterNotListed, formats.Warning, "after </p:sldMasterIdLst>"},
		{"near miss: notes master listed", true, nil, pptx.CodeNotesMasterNotListed, "", ""},
		{"layout without its .rels", false, func(m map[string]string) { delete(m, "ppt/slideLayouts/_rels/slideLayout1.xml.rels") }, pptx.CodeLayoutNoMaster, formats.Warning, "slideMaster"},
		{"slide without layout", false, func(m map[string]string) { m["ppt/slides/_rels/slide1.xml.rels"] = rels() }, pptx.CodeSlideNoLayout, formats.Fatal, ""},
		{"adjust guide on rect", false, setSlide(strings.Replace(shape("2", "Box", "rect", textBody("o")), `<a:avLst/>`, `<a:avLst><a:gd name="adj" fmla="val 14000"/></a:avLst>`, 1)), pptx.CodeAdjustGuide, formats.Fatal, "write <a:avLst/>"},
		{"adjust guide adj1 on roundRect", false, setSlide(strings.Replace(shape("2", "Box", "roundRect", textBody("o")), `<a:avLst/>`, `<a:avLst><a:gd name="adj1" fmla="val 14000"/></a:avLst>`, 1)), pptx.CodeAdjustGuide, formats.Fatal, `name="adj"`},
		{"near miss: declared guides on roundRect and upDownArrow, guides in a custom geometry", false, setSlide(
			strings.Replace(shape("2", "A", "roundRect", textBody("o")), `<a:avLst/>`, `<a:avLst><a:gd name="adj" fmla="val 14000"/></a:avLst>`, 1) +
				strings.Replace(shape("3", "B", "upDownArrow", textBody("o")), `<a:avLst/>`, `<a:avLst><a:gd name="adj1" fmla="val 50000"/><a:gd name="adj2" fmla="val 50000"/></a:avLst>`, 1) +
				`<p:sp><p:nvSpPr><p:cNvPr id="4" name="C"/><p:cNvSpPr/><p:nvPr/></p:nvSpPr><p:spPr><a:custGeom><a:avLst><a:gd name="anything" fmla="val 1"/></a:avLst></a:custGeom></p:spPr></p:sp>`), pptx.CodeAdjustGuide, "", ""},
		{"NaN offset", false, setSlide(strings.Replace(shape("2", "Box", "rect", textBody("o")), `<a:off x="0" y="0"/>`, `<a:off x="NaN" y="0"/>`, 1)), pptx.CodeXfrmInvalid, formats.Fatal, "integer"},
		{"negative extent", false, setSlide(strings.Replace(shape("2", "Box", "rect", textBody("o")), `<a:ext cx="100" cy="100"/>`, `<a:ext cx="100" cy="-5"/>`, 1)), pptx.CodeXfrmInvalid, formats.Fatal, ""},
		{"extent without cy", false, setSlide(strings.Replace(table("3", 1, 1, cellText), `<a:ext cx="100" cy="100"/>`, `<a:ext cx="100"/>`, 1)), pptx.CodeXfrmInvalid, formats.Fatal, ""},
		{"cell margin NaN", false, setSlide(table("3", 1, 1, strings.Replace(cellText, `</a:txBody>`, `</a:txBody><a:tcPr marL="NaN"/>`, 1))), pptx.CodeXfrmInvalid, formats.Fatal, ""},
		{"near miss: negative offset, extension list a:ext, NaN in SmartArt-like rule", false, setSlide(strings.Replace(shape("2", "Box", "rect", textBody("o")), `<a:off x="0" y="0"/>`, `<a:off x="-914400" y="0"/>`, 1) +
			`<p:sp><p:nvSpPr><p:cNvPr id="5" name="E"><a:extLst><a:ext uri="{X}"/></a:extLst></p:cNvPr><p:cNvSpPr/><p:nvPr/></p:nvSpPr><p:spPr/></p:sp>`), pptx.CodeXfrmInvalid, "", ""},
		{"a:pPr after a run", false, setSlide(shape("2", "T", "rect", `<p:txBody><a:bodyPr/><a:p><a:r><a:t>x</a:t></a:r><a:pPr algn="ctr"/></a:p></p:txBody>`)), pptx.CodeParagraphOrder, formats.Fatal, "start of the <a:p>"},
		{"run after endParaRPr", false, setSlide(shape("2", "T", "rect", `<p:txBody><a:bodyPr/><a:p><a:endParaRPr/><a:r><a:t>lost</a:t></a:r></a:p></p:txBody>`)), pptx.CodeParagraphOrder, formats.Error, "before <a:endParaRPr>"},
		{"near miss: pPr, runs, endParaRPr", false, setSlide(shape("2", "T", "rect", `<p:txBody><a:bodyPr/><a:p><a:pPr/><a:r><a:t>x</a:t></a:r><a:br/><a:endParaRPr/></a:p></p:txBody>`)), pptx.CodeParagraphOrder, "", ""},
		{"colour with a #", false, setSlide(strings.Replace(shape("2", "Box", "rect", textBody("o")), `<p:spPr>`, `<p:spPr><a:solidFill><a:srgbClr val="#1F4E79"/></a:solidFill>`, 1)), pptx.CodeColorInvalid, formats.Fatal, `val="1F4E79"`},
		{"colour as CSS rgba", false, setSlide(strings.Replace(shape("2", "Box", "rect", textBody("o")), `<p:spPr>`, `<p:spPr><a:solidFill><a:srgbClr val="RGBA(47, 107, 255, 0.55)"/></a:solidFill>`, 1)), pptx.CodeColorInvalid, formats.Fatal, "six hexadecimal digits"},
		{"near miss: hex colour with alpha, scheme colour", false, setSlide(strings.Replace(shape("2", "Box", "rect", textBody("o")), `<p:spPr>`, `<p:spPr><a:solidFill><a:srgbClr val="1f4e79"><a:alpha val="55000"/></a:srgbClr></a:solidFill><a:ln><a:solidFill><a:schemeClr val="accent1"/></a:solidFill></a:ln>`, 1)), pptx.CodeColorInvalid, "", ""},
		{"two shapes with one id", false, setSlide(shape("2", "A", "rect", textBody("a")) + shape("2", "B", "rect", textBody("b"))), pptx.CodeShapeIDDuplicate, formats.Info, "one more than the largest id"},
		{"near miss: one id in mc:Choice and mc:Fallback", false, setSlide(`<mc:AlternateContent xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006"><mc:Choice xmlns:p14="http://schemas.microsoft.com/office/powerpoint/2010/main" Requires="p14">` + shape("2", "A", "rect", textBody("a")) + `</mc:Choice><mc:Fallback>` + shape("2", "A", "rect", textBody("a")) + `</mc:Fallback></mc:AlternateContent>`), pptx.CodeShapeIDDuplicate, "", ""},
		{"shape after p:extLst", false, setSlide(`<p:extLst><p:ext uri="{X}"/></p:extLst>` + shape("2", "A", "rect", textBody("a"))), pptx.CodeShapeTree, formats.Warning, "before p:extLst"},
		{"near miss: p:extLst last", false, setSlide(shape("2", "A", "rect", textBody("a")) + `<p:extLst><p:ext uri="{X}"/></p:extLst>`), pptx.CodeShapeTree, "", ""},
		{"layout id below 2147483648", false, func(m map[string]string) {
			m["ppt/slideMasters/slideMaster1.xml"] = strings.Replace(m["ppt/slideMasters/slideMaster1.xml"], `id="2147483649"`, `id="256"`, 1)
		}, pptx.CodeMasterID, formats.Warning, "2147483648"},
		{"layout id equal to the master's", false, func(m map[string]string) {
			m["ppt/slideMasters/slideMaster1.xml"] = strings.Replace(m["ppt/slideMasters/slideMaster1.xml"], `id="2147483649"`, `id="2147483648"`, 1)
		}, pptx.CodeMasterID, formats.Warning, ""},
		{"sldMasterId naming the slide relationship (core)", false, setPres(`<p:sldMasterIdLst><p:sldMasterId id="2147483648" r:id="rId2"/></p:sldMasterIdLst>` + sldLst + sizes), formats.CodeRelsWrongType, formats.Fatal, "slideMaster"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := deck(tc.notes)
			if tc.mutate != nil {
				tc.mutate(m)
			}
			rep := inspectParts(t, m)
			got := find(rep, tc.code)
			if tc.grade == "" {
				if len(got) > 0 {
					t.Fatalf("near miss reported %v", got)
				}
				for _, f := range rep.Findings {
					if f.Grade == formats.Fatal || f.Grade == formats.Error {
						t.Errorf("near miss has %s", f)
					}
				}
				return
			}
			if len(got) != 1 {
				t.Fatalf("want one %s, got %v (all: %v)", tc.code, got, rep.Findings)
			}
			f := got[0]
			if f.Grade != tc.grade {
				t.Errorf("grade %s, want %s: %s", f.Grade, tc.grade, f)
			}
			if f.Part == "" || f.Message == "" || f.Fix == "" || f.Anchor == "" {
				t.Errorf("finding lacks part/message/fix/anchor: %+v", f)
			}
			if strings.ContainsAny(f.Anchor, "[") {
				t.Errorf("anchor %q looks positional", f.Anchor)
			}
			if tc.wantFix != "" && !strings.Contains(f.Fix, tc.wantFix) {
				t.Errorf("fix %q lacks %q", f.Fix, tc.wantFix)
			}
			if strings.HasSuffix(f.Part, ".xml") && !strings.HasSuffix(f.Part, ".rels") && f.Code != pptx.CodeLayoutNoMaster &&
				f.Code != pptx.CodeSlideNoLayout && f.Code != pptx.CodeNotesNoMaster && f.Code != pptx.CodeNotesMasterNotListed && f.Code != pptx.CodeSlideNotListed {
				if f.Line == 0 || f.Column == 0 || f.Locator == "" {
					t.Errorf("finding inside an XML part lacks line/column/locator: %+v", f)
				}
			}
		})
	}
}

// twoSlides adds a second slide (one paragraph) listed after the first.
func twoSlides(m map[string]string) {
	m["ppt/presentation.xml"] = presXML(masterLst + `<p:sldIdLst><p:sldId id="256" r:id="rId2"/><p:sldId id="257" r:id="rId3"/></p:sldIdLst>` + sizes)
	m["ppt/_rels/presentation.xml.rels"] = rels("rId1", "slideMaster", "slideMasters/slideMaster1.xml", "rId2", "slide", "slides/slide1.xml", "rId3", "slide", "slides/slide2.xml")
	m["ppt/slides/slide2.xml"] = slideXML(shape("2", "Title 1", "rect", textBody("Second")))
	m["ppt/slides/_rels/slide2.xml.rels"] = rels("rId1", "slideLayout", "../slideLayouts/slideLayout1.xml")
}

// TestAnchorsSurviveInsertion: the anchor of a finding does not change when
// an edit inserts a shape above it (lines and locators do).
func TestAnchorsSurviveInsertion(t *testing.T) {
	bad := shape("7", "Callout", "oval", `<p:txBody><a:bodyPr/></p:txBody>`)
	m := deck(false)
	m["ppt/slides/slide1.xml"] = slideXML(bad)
	before := inspectParts(t, m)
	m["ppt/slides/slide1.xml"] = slideXML(shape("2", "New", "rect", textBody("inserted")) + "\n" + bad)
	after := inspectParts(t, m)
	if len(before.Findings) != 2 || len(after.Findings) != 2 {
		t.Fatalf("want 2 findings each, got %v / %v", before.Findings, after.Findings)
	}
	for i := range before.Findings {
		if before.Findings[i].Key() != after.Findings[i].Key() {
			t.Errorf("key changed: %q → %q", before.Findings[i].Key(), after.Findings[i].Key())
		}
		if before.Findings[i].Locator == after.Findings[i].Locator {
			t.Errorf("test is vacuous: locator did not move (%s)", before.Findings[i].Locator)
		}
	}
}

// TestCounts: slides follow the slide list (not part numbers), runs are a:r
// only, tables nest, mc:Fallback is not counted twice, unlisted slides are
// not counted.
func TestCounts(t *testing.T) {
	m := deck(true)
	m["ppt/presentation.xml"] = presXML(masterLst + `<p:notesMasterIdLst><p:notesMasterId r:id="rId3"/></p:notesMasterIdLst>` +
		`<p:sldIdLst><p:sldId id="300" r:id="rId4"/><p:sldId id="256" r:id="rId2"/></p:sldIdLst>` + sizes)
	m["ppt/_rels/presentation.xml.rels"] = rels("rId1", "slideMaster", "slideMasters/slideMaster1.xml", "rId2", "slide", "slides/slide1.xml",
		"rId3", "notesMaster", "notesMasters/notesMaster1.xml", "rId4", "slide", "slides/slide2.xml", "rId5", "slide", "slides/slide9.xml")
	// slide2 (listed first): a group holding a shape with a field and a
	// line break (not runs), and a table whose cell holds an
	// mc:AlternateContent shape (counted once).
	group := `<p:grpSp><p:nvGrpSpPr><p:cNvPr id="5" name="Group"/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr><p:grpSpPr/>` +
		shape("6", "Inner", "rect", `<p:txBody><a:bodyPr/><a:p><a:r><a:t>a</a:t></a:r><a:br/><a:fld id="{1}" type="slidenum"><a:t>2</a:t></a:fld></a:p></p:txBody>`) + `</p:grpSp>`
	alt := `<mc:AlternateContent xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006"><mc:Choice Requires="a14">` +
		shape("8", "Math", "rect", textBody("choice")) + `</mc:Choice><mc:Fallback>` + shape("8", "Math", "rect", textBody("fallback")) + `</mc:Fallback></mc:AlternateContent>`
	m["ppt/slides/slide2.xml"] = slideXML(group + table("7", 3, 2, cellText) + alt)
	m["ppt/slides/_rels/slide2.xml.rels"] = rels("rId1", "slideLayout", "../slideLayouts/slideLayout1.xml")
	m["ppt/slides/slide9.xml"] = slideXML(shape("2", "Orphan", "rect", textBody("a", "b", "c")))
	rep := inspectParts(t, m)
	want := formats.Counts{"slides": 2, "notes": 1, "tables": 2, "paragraphs": 1 + 6 + 1 + 2 + 4, "runs": 1 + 6 + 1 + 2 + 4}
	for k, v := range want {
		if rep.Counts[k] != v {
			t.Errorf("%s = %d, want %d (counts %v)", k, rep.Counts[k], v, rep.Counts)
		}
	}
	if len(rep.Sites) != 2 || rep.Sites[0].Part != "ppt/slides/slide2.xml" || rep.Sites[0].Where != "slide 1" || rep.Sites[1].Where != "slide 2" {
		t.Fatalf("sites %+v", rep.Sites)
	}
	if s := rep.Sites[0].Counts; s["paragraphs"] != 8 || s["runs"] != 8 || s["tables"] != 1 {
		t.Errorf("slide 1 counts %v", s)
	}
	if c := rep.Parts["ppt/slides/slide1.xml"]; c["paragraphs"] != 6 || c["tables"] != 1 {
		t.Errorf("slide1.xml breakdown %v", c)
	}
	if c := rep.Parts["ppt/notesSlides/notesSlide1.xml"]; c["notes"] != 1 {
		t.Errorf("notes breakdown %v", c)
	}
	if len(find(rep, pptx.CodeSlideNotListed)) != 1 {
		t.Errorf("slide9 not reported as unlisted: %v", rep.Findings)
	}
}

// TestTenDefects: one deck with several different defects reports each.
func TestManyDefects(t *testing.T) {
	m := deck(true)
	twoSlides(m)
	m["ppt/presentation.xml"] = presXML(`<p:sldIdLst><p:sldId id="256" r:id="rId2"/><p:sldId id="256" r:id="rId3"/><p:sldId id="12" r:id="rId1"/></p:sldIdLst>` + masterLst + sizes)
	m["ppt/slides/slide1.xml"] = slideXML(shape("2", "A", "oval", `<p:txBody><a:bodyPr/></p:txBody>`))
	m["ppt/slideMasters/slideMaster1.xml"] = masterXML(`<p:cSld><p:spTree>` + emptyTree + `</p:spTree></p:cSld>` + layoutLst + clrMap)
	delete(m, "ppt/slideLayouts/_rels/slideLayout1.xml.rels")
	m["ppt/notesSlides/_rels/notesSlide1.xml.rels"] = rels("rId2", "slide", "../slides/slide1.xml")
	rep := inspectParts(t, m)
	for _, code := range []string{pptx.CodePresentationOrder, pptx.CodeSldIDDuplicate, pptx.CodeSldIDRange, pptx.CodeSldIDNotSlide,
		pptx.CodePresetGeometry, pptx.CodeTxBodyNoP, pptx.CodeMasterOrder, pptx.CodeLayoutNoMaster, pptx.CodeNotesNoMaster} {
		if len(find(rep, code)) == 0 {
			t.Errorf("missing %s in %v", code, rep.Findings)
		}
	}
}
