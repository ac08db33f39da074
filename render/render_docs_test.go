package render

import (
	"fmt"
	"html"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/editaudit/editaudit/internal/testdoc"
)

// Minimal OOXML documents built in memory, so rendering tests need no
// fixture files: each is the smallest package LibreOffice and Office open.

const relsNS = "http://schemas.openxmlformats.org/package/2006/relationships"

// writeZip writes parts (name → content) as a zip package, names sorted
// ([Content_Types].xml sorts first, where Office writes it). With store,
// the entries are not compressed, so a marker like HANG stays greppable by
// the fault-injecting soffice wrapper.
func writeZip(t testing.TB, path string, parts map[string]string, store bool) string {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	names := slices.Sorted(maps.Keys(parts))
	ps := make([]testdoc.Part, len(names))
	for i, n := range names {
		ps[i] = testdoc.Part{Name: n, Data: parts[n], Store: store}
	}
	if err := os.WriteFile(path, testdoc.Zip(ps...), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func contentTypes(overrides map[string]string) string {
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">
<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>
<Default Extension="xml" ContentType="application/xml"/>
`)
	keys := make([]string, 0, len(overrides))
	for k := range overrides {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Fprintf(&b, `<Override PartName="%s" ContentType="%s"/>`+"\n", k, overrides[k])
	}
	b.WriteString(`</Types>`)
	return b.String()
}

func rels(targets ...[2]string) string {
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>` + "\n" + `<Relationships xmlns="` + relsNS + `">`)
	for i, t := range targets {
		fmt.Fprintf(&b, `<Relationship Id="rId%d" Type="%s" Target="%s"/>`, i+1, t[0], t[1])
	}
	b.WriteString(`</Relationships>`)
	return b.String()
}

const relOfficeDoc = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument"

// docxParts is a WordprocessingML package (ECMA-376 Part 1, §11.3.10): each
// element of pages is one page of paragraphs, separated by page breaks.
func docxParts(pages ...[]string) map[string]string {
	var body strings.Builder
	for i, paras := range pages {
		for _, p := range paras {
			fmt.Fprintf(&body, `<w:p><w:r><w:t xml:space="preserve">%s</w:t></w:r></w:p>`, html.EscapeString(p))
		}
		if i < len(pages)-1 {
			body.WriteString(`<w:p><w:r><w:br w:type="page"/></w:r></w:p>`)
		}
	}
	return map[string]string{
		"[Content_Types].xml": contentTypes(map[string]string{
			"/word/document.xml": "application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"}),
		"_rels/.rels": rels([2]string{relOfficeDoc, "word/document.xml"}),
		"word/document.xml": `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>` + body.String() +
			`<w:sectPr><w:pgSz w:w="11906" w:h="16838"/><w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440" w:header="708" w:footer="708" w:gutter="0"/></w:sectPr></w:body></w:document>`,
	}
}

// xlsxParts is a SpreadsheetML package (ECMA-376 Part 1, §12.3.23) with one
// sheet per element of sheets, cells as inline strings.
func xlsxParts(sheets ...[][]string) map[string]string {
	ov := map[string]string{"/xl/workbook.xml": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"}
	parts := map[string]string{"_rels/.rels": rels([2]string{relOfficeDoc, "xl/workbook.xml"})}
	var wb, wbRels strings.Builder
	var targets [][2]string
	wb.WriteString(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets>`)
	for i, rows := range sheets {
		name := fmt.Sprintf("xl/worksheets/sheet%d.xml", i+1)
		ov["/"+name] = "application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"
		fmt.Fprintf(&wb, `<sheet name="Sheet%d" sheetId="%d" r:id="rId%d"/>`, i+1, i+1, i+1)
		targets = append(targets, [2]string{"http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet", fmt.Sprintf("worksheets/sheet%d.xml", i+1)})
		var sd strings.Builder
		for r, row := range rows {
			fmt.Fprintf(&sd, `<row r="%d">`, r+1)
			for c, v := range row {
				fmt.Fprintf(&sd, `<c r="%c%d" t="inlineStr"><is><t>%s</t></is></c>`, 'A'+c, r+1, html.EscapeString(v))
			}
			sd.WriteString(`</row>`)
		}
		parts[name] = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>` + sd.String() + `</sheetData></worksheet>`
	}
	wb.WriteString(`</sheets></workbook>`)
	wbRels.WriteString(rels(targets...))
	parts["xl/workbook.xml"] = wb.String()
	parts["xl/_rels/workbook.xml.rels"] = wbRels.String()
	parts["[Content_Types].xml"] = contentTypes(ov)
	return parts
}

// pptxParts is a PresentationML package (ECMA-376 Part 1, §13.3.6): one
// master, one blank layout, a theme, one slide per title.
func pptxParts(titles ...string) map[string]string {
	const (
		pNS    = `xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"`
		rel    = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/"
		ctP    = "application/vnd.openxmlformats-officedocument.presentationml."
		spTree = `<p:cSld><p:spTree><p:nvGrpSpPr><p:cNvPr id="1" name=""/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr><p:grpSpPr/>%s</p:spTree></p:cSld>`
	)
	ov := map[string]string{
		"/ppt/presentation.xml":              ctP + "presentation.main+xml",
		"/ppt/slideMasters/slideMaster1.xml": ctP + "slideMaster+xml",
		"/ppt/slideLayouts/slideLayout1.xml": ctP + "slideLayout+xml",
		"/ppt/theme/theme1.xml":              "application/vnd.openxmlformats-officedocument.theme+xml",
	}
	parts := map[string]string{"_rels/.rels": rels([2]string{relOfficeDoc, "ppt/presentation.xml"})}
	presRels := [][2]string{{rel + "slideMaster", "slideMasters/slideMaster1.xml"}, {rel + "theme", "theme/theme1.xml"}}
	var sldIDs strings.Builder
	for i, title := range titles {
		n := i + 1
		name := fmt.Sprintf("ppt/slides/slide%d.xml", n)
		ov["/"+name] = ctP + "slide+xml"
		presRels = append(presRels, [2]string{rel + "slide", fmt.Sprintf("slides/slide%d.xml", n)})
		fmt.Fprintf(&sldIDs, `<p:sldId id="%d" r:id="rId%d"/>`, 255+n, len(presRels))
		shape := fmt.Sprintf(`<p:sp><p:nvSpPr><p:cNvPr id="2" name="Title"/><p:cNvSpPr/><p:nvPr/></p:nvSpPr><p:spPr><a:xfrm><a:off x="457200" y="457200"/><a:ext cx="8229600" cy="1143000"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom></p:spPr><p:txBody><a:bodyPr/><a:lstStyle/><a:p><a:r><a:rPr lang="en-US" sz="4000"/><a:t>%s</a:t></a:r></a:p></p:txBody></p:sp>`, html.EscapeString(title))
		parts[name] = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>` + "\n<p:sld " + pNS + ">" + fmt.Sprintf(spTree, shape) + `<p:clrMapOvr><a:masterClrMapping/></p:clrMapOvr></p:sld>`
		parts[fmt.Sprintf("ppt/slides/_rels/slide%d.xml.rels", n)] = rels([2]string{rel + "slideLayout", "../slideLayouts/slideLayout1.xml"})
	}
	parts["ppt/presentation.xml"] = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>` + "\n<p:presentation " + pNS + `><p:sldMasterIdLst><p:sldMasterId id="2147483648" r:id="rId1"/></p:sldMasterIdLst><p:sldIdLst>` + sldIDs.String() + `</p:sldIdLst><p:sldSz cx="9144000" cy="6858000"/><p:notesSz cx="6858000" cy="9144000"/></p:presentation>`
	parts["ppt/_rels/presentation.xml.rels"] = rels(presRels...)
	parts["ppt/slideMasters/slideMaster1.xml"] = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>` + "\n<p:sldMaster " + pNS + ">" + fmt.Sprintf(spTree, "") +
		`<p:clrMap bg1="lt1" tx1="dk1" bg2="lt2" tx2="dk2" accent1="accent1" accent2="accent2" accent3="accent3" accent4="accent4" accent5="accent5" accent6="accent6" hlink="hlink" folHlink="folHlink"/><p:sldLayoutIdLst><p:sldLayoutId id="2147483649" r:id="rId1"/></p:sldLayoutIdLst></p:sldMaster>`
	parts["ppt/slideMasters/_rels/slideMaster1.xml.rels"] = rels([2]string{rel + "slideLayout", "../slideLayouts/slideLayout1.xml"}, [2]string{rel + "theme", "../theme/theme1.xml"})
	parts["ppt/slideLayouts/slideLayout1.xml"] = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>` + "\n<p:sldLayout " + pNS + ` type="blank">` + fmt.Sprintf(spTree, "") + `<p:clrMapOvr><a:masterClrMapping/></p:clrMapOvr></p:sldLayout>`
	parts["ppt/slideLayouts/_rels/slideLayout1.xml.rels"] = rels([2]string{rel + "slideMaster", "../slideMasters/slideMaster1.xml"})
	parts["ppt/theme/theme1.xml"] = minimalTheme
	parts["[Content_Types].xml"] = contentTypes(ov)
	return parts
}

// minimalTheme is a DrawingML theme with the required color, font and
// format schemes (ECMA-376 Part 1, §20.1.6.9).
const minimalTheme = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<a:theme xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" name="T"><a:themeElements>
<a:clrScheme name="T"><a:dk1><a:srgbClr val="000000"/></a:dk1><a:lt1><a:srgbClr val="FFFFFF"/></a:lt1><a:dk2><a:srgbClr val="1F497D"/></a:dk2><a:lt2><a:srgbClr val="EEECE1"/></a:lt2><a:accent1><a:srgbClr val="4F81BD"/></a:accent1><a:accent2><a:srgbClr val="C0504D"/></a:accent2><a:accent3><a:srgbClr val="9BBB59"/></a:accent3><a:accent4><a:srgbClr val="8064A2"/></a:accent4><a:accent5><a:srgbClr val="4BACC6"/></a:accent5><a:accent6><a:srgbClr val="F79646"/></a:accent6><a:hlink><a:srgbClr val="0000FF"/></a:hlink><a:folHlink><a:srgbClr val="800080"/></a:folHlink></a:clrScheme>
<a:fontScheme name="T"><a:majorFont><a:latin typeface="Liberation Sans"/><a:ea typeface=""/><a:cs typeface=""/></a:majorFont><a:minorFont><a:latin typeface="Liberation Sans"/><a:ea typeface=""/><a:cs typeface=""/></a:minorFont></a:fontScheme>
<a:fmtScheme name="T"><a:fillStyleLst><a:solidFill><a:schemeClr val="phClr"/></a:solidFill><a:solidFill><a:schemeClr val="phClr"/></a:solidFill><a:solidFill><a:schemeClr val="phClr"/></a:solidFill></a:fillStyleLst>
<a:lnStyleLst><a:ln w="9525"><a:solidFill><a:schemeClr val="phClr"/></a:solidFill></a:ln><a:ln w="25400"><a:solidFill><a:schemeClr val="phClr"/></a:solidFill></a:ln><a:ln w="38100"><a:solidFill><a:schemeClr val="phClr"/></a:solidFill></a:ln></a:lnStyleLst>
<a:effectStyleLst><a:effectStyle><a:effectLst/></a:effectStyle><a:effectStyle><a:effectLst/></a:effectStyle><a:effectStyle><a:effectLst/></a:effectStyle></a:effectStyleLst>
<a:bgFillStyleLst><a:solidFill><a:schemeClr val="phClr"/></a:solidFill><a:solidFill><a:schemeClr val="phClr"/></a:solidFill><a:solidFill><a:schemeClr val="phClr"/></a:solidFill></a:bgFillStyleLst></a:fmtScheme>
</a:themeElements></a:theme>`
