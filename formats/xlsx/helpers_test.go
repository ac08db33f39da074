package xlsx_test

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/editaudit/editaudit/formats"
	"github.com/editaudit/editaudit/formats/inspect"
	"github.com/editaudit/editaudit/internal/testdoc"
)

const (
	nsMain = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
	nsR    = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
	relT   = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/"
)

// sheet is one worksheet of a test workbook: its name, the XML inside
// <worksheet> (default <sheetData/>), and extra relationships.
type sheet struct {
	name, body string
	rels       []string // Relationship elements of the sheet's .rels
}

// book describes a small workbook built in memory.
type book struct {
	sheets   []sheet
	wbExtra  string            // XML after </sheets> in workbook.xml (definedNames, calcPr)
	sst      []string          // shared strings; nil: no sharedStrings part
	metadata int               // cellMetadata blocks; 0: no metadata part
	parts    map[string]string // extra parts (tables, drawings, charts)
	strict   bool              // write ISO/IEC 29500 Strict namespaces
	vba      bool              // add xl/vbaProject.bin and its relationship
	styles   string            // the inner XML of xl/styles.xml; "": no styles part
	sheetIDs []string          // sheetId of each sheet (default 1, 2, …; "-" for none)
	wbRels   string            // extra Relationship elements of workbook.xml.rels
	wbViews  string            // XML before <sheets> in workbook.xml (bookViews)
}

// contentType returns the Override content type of a test part.
func contentType(part string) string {
	const ml = "application/vnd.openxmlformats-officedocument."
	switch {
	case part == "xl/workbook.xml":
		return ml + "spreadsheetml.sheet.main+xml"
	case strings.HasPrefix(part, "xl/worksheets/"):
		return ml + "spreadsheetml.worksheet+xml"
	case strings.HasPrefix(part, "xl/chartsheets/"):
		return ml + "spreadsheetml.chartsheet+xml"
	case part == "xl/sharedStrings.xml":
		return ml + "spreadsheetml.sharedStrings+xml"
	case part == "xl/styles.xml":
		return ml + "spreadsheetml.styles+xml"
	case strings.HasPrefix(part, "xl/pivotTables/"):
		return ml + "spreadsheetml.pivotTable+xml"
	case strings.HasPrefix(part, "xl/pivotCache/"):
		return ml + "spreadsheetml.pivotCacheDefinition+xml"
	case part == "xl/calcChain.xml":
		return ml + "spreadsheetml.calcChain+xml"
	case part == "xl/metadata.xml":
		return ml + "spreadsheetml.sheetMetadata+xml"
	case strings.HasPrefix(part, "xl/tables/"):
		return ml + "spreadsheetml.table+xml"
	case strings.HasPrefix(part, "xl/drawings/"):
		return ml + "drawing+xml"
	case strings.HasPrefix(part, "xl/charts/"):
		return ml + "drawingml.chart+xml"
	case part == "xl/vbaProject.bin":
		return "application/vnd.ms-office.vbaProject"
	}
	return ""
}

// bytes writes the workbook as a zip, parts in a fixed order.
func (b book) bytes() []byte {
	parts := map[string]string{}
	var sheetsXML, wbRels strings.Builder
	for i, s := range b.sheets {
		n := i + 1
		id := fmt.Sprintf(` sheetId="%d"`, n)
		if i < len(b.sheetIDs) {
			id = ` sheetId="` + b.sheetIDs[i] + `"`
			if b.sheetIDs[i] == "-" {
				id = ""
			}
		}
		fmt.Fprintf(&sheetsXML, `<sheet name="%s"%s r:id="rId%d"/>`, xmlEscape(s.name), id, n)
		fmt.Fprintf(&wbRels, `<Relationship Id="rId%d" Type="%sworksheet" Target="worksheets/sheet%d.xml"/>`, n, relT, n)
		body := s.body
		if body == "" {
			body = "<sheetData/>"
		}
		parts[fmt.Sprintf("xl/worksheets/sheet%d.xml", n)] = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>` +
			`<worksheet xmlns="` + nsMain + `" xmlns:r="` + nsR + `" xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006" xmlns:x14="http://schemas.microsoft.com/office/spreadsheetml/2009/9/main" xmlns:xm="http://schemas.microsoft.com/office/excel/2006/main">` + body + `</worksheet>`
		if len(s.rels) > 0 {
			parts[fmt.Sprintf("xl/worksheets/_rels/sheet%d.xml.rels", n)] = relsXML(strings.Join(s.rels, ""))
		}
	}
	if b.sst != nil {
		var si strings.Builder
		for _, s := range b.sst {
			si.WriteString("<si><t>" + s + "</t></si>")
		}
		parts["xl/sharedStrings.xml"] = `<sst xmlns="` + nsMain + `" count="` + fmt.Sprint(len(b.sst)) + `">` + si.String() + `</sst>`
		wbRels.WriteString(`<Relationship Id="rIdS" Type="` + relT + `sharedStrings" Target="sharedStrings.xml"/>`)
	}
	wbRels.WriteString(b.wbRels)
	if b.styles != "" {
		parts["xl/styles.xml"] = `<styleSheet xmlns="` + nsMain + `">` + b.styles + `</styleSheet>`
		wbRels.WriteString(`<Relationship Id="rIdY" Type="` + relT + `styles" Target="styles.xml"/>`)
	}
	if b.vba {
		parts["xl/vbaProject.bin"] = "\xd0\xcf\x11\xe0"
		wbRels.WriteString(`<Relationship Id="rIdV" Type="http://schemas.microsoft.com/office/2006/relationships/vbaProject" Target="vbaProject.bin"/>`)
	}
	if b.metadata > 0 {
		parts["xl/metadata.xml"] = metadataXML(b.metadata)
		wbRels.WriteString(`<Relationship Id="rIdM" Type="` + relT + `sheetMetadata" Target="metadata.xml"/>`)
	}
	parts["xl/workbook.xml"] = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>` +
		`<workbook xmlns="` + nsMain + `" xmlns:r="` + nsR + `">` + b.wbViews + `<sheets>` + sheetsXML.String() + `</sheets>` + b.wbExtra + `</workbook>`
	parts["xl/_rels/workbook.xml.rels"] = relsXML(wbRels.String())
	parts["_rels/.rels"] = relsXML(`<Relationship Id="rId1" Type="` + relT + `officeDocument" Target="xl/workbook.xml"/>`)
	for k, v := range b.parts {
		parts[k] = v
	}
	if b.strict {
		for k, v := range parts {
			v = strings.ReplaceAll(v, nsMain, "http://purl.oclc.org/ooxml/spreadsheetml/main")
			v = strings.ReplaceAll(v, relT, "http://purl.oclc.org/ooxml/officeDocument/relationships/")
			parts[k] = strings.ReplaceAll(v, nsR, "http://purl.oclc.org/ooxml/officeDocument/relationships")
		}
	}
	var ct strings.Builder
	ct.WriteString(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
		`<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>` +
		`<Default Extension="xml" ContentType="application/xml"/><Default Extension="png" ContentType="image/png"/>`)
	names := make([]string, 0, len(parts))
	for k := range parts {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		if t := contentType(k); t != "" {
			ct.WriteString(`<Override PartName="/` + k + `" ContentType="` + t + `"/>`)
		}
	}
	ct.WriteString(`</Types>`)
	parts["[Content_Types].xml"] = ct.String()
	return testdoc.ZipMap(parts)
}

func relsXML(inner string) string {
	return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` + inner + `</Relationships>`
}

func metadataXML(n int) string {
	var bk strings.Builder
	for i := 0; i < n; i++ {
		bk.WriteString(`<bk><rc t="1" v="0"/></bk>`)
	}
	return `<metadata xmlns="` + nsMain + `" xmlns:xda="http://schemas.microsoft.com/office/spreadsheetml/2017/dynamicarray">` +
		`<metadataTypes count="1"><metadataType name="XLDAPR" minSupportedVersion="120000" copy="1" pasteAll="1" pasteValues="1" merge="1" splitFirst="1" rowColShift="1" clearFormats="1" clearComments="1" assign="1" coerce="1" cellMeta="1"/></metadataTypes>` +
		`<futureMetadata name="XLDAPR" count="1"><bk><extLst><ext uri="{bdbb8cdc-fa1e-496e-a857-3c3f30c029c3}"><xda:dynamicArrayProperties fDynamic="1" fCollapsed="0"/></ext></extLst></bk></futureMetadata>` +
		`<cellMetadata count="` + fmt.Sprint(n) + `">` + bk.String() + `</cellMetadata></metadata>`
}

func xmlEscape(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch r {
		case '&':
			b.WriteString("&amp;")
		case '<':
			b.WriteString("&lt;")
		case '"':
			b.WriteString("&quot;")
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// tablePart returns the XML of a table part with the given columns.
func tablePart(id int, name, ref string, cols ...string) string {
	var c strings.Builder
	for i, n := range cols {
		fmt.Fprintf(&c, `<tableColumn id="%d" name="%s"/>`, i+1, xmlEscape(n))
	}
	return fmt.Sprintf(`<table xmlns="%s" id="%d" name="%s" displayName="%s" ref="%s"><autoFilter ref="%s"/><tableColumns count="%d">%s</tableColumns><tableStyleInfo name="TableStyleMedium2" showRowStripes="1"/></table>`,
		nsMain, id, xmlEscape(name), xmlEscape(name), ref, ref, len(cols), c.String())
}

// tableRel is the sheet relationship to xl/tables/tableN.xml.
func tableRel(n int) string {
	return fmt.Sprintf(`<Relationship Id="rIdT%d" Type="%stable" Target="../tables/table%d.xml"/>`, n, relT, n)
}

// tableParts is the <tableParts> element for the given table numbers.
func tableParts(ns ...int) string {
	var b strings.Builder
	fmt.Fprintf(&b, `<tableParts count="%d">`, len(ns))
	for _, n := range ns {
		fmt.Fprintf(&b, `<tablePart r:id="rIdT%d"/>`, n)
	}
	return b.String() + `</tableParts>`
}

// rows returns a sheetData holding the given rows.
func rows(cells ...string) string {
	return "<sheetData>" + strings.Join(cells, "") + "</sheetData>"
}

// fcell is a sheetData with one formula cell at ref holding f (escaped
// here).
func fcell(ref, f string) string {
	return rows(`<row r="` + strings.TrimLeft(ref, "ABCDEFGHIJKLMNOPQRSTUVWXYZ") + `"><c r="` + ref + `"><f>` + xmlEscape(f) + `</f><v>0</v></c></row>`)
}

// run inspects b and returns the report.
func run(t *testing.T, b book) *formats.Report {
	t.Helper()
	rep, err := inspect.Bytes(context.Background(), b.bytes(), "test.xlsx", inspect.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Format != formats.XLSX {
		t.Fatalf("detected %q, want xlsx; findings %v", rep.Format, rep.Findings)
	}
	return rep
}

// withCode returns the findings of code.
func withCode(fs []formats.Finding, code string) []formats.Finding {
	var out []formats.Finding
	for _, f := range fs {
		if f.Code == code {
			out = append(out, f)
		}
	}
	return out
}

// one sheet named Sheet1 with body.
func one(body string, rels ...string) []sheet {
	return []sheet{{name: "Sheet1", body: body, rels: rels}}
}
