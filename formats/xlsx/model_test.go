package xlsx_test

import (
	"strings"
	"testing"

	"github.com/editaudit/editaudit/formats"
	"github.com/editaudit/editaudit/formats/xlsx"
)

// stylesXML has 2 fonts, 2 fills, 1 border, 1 cell style format, 3 cell
// formats (xf 2 uses custom number format 164) and 1 differential format.
const stylesXML = `<numFmts count="1"><numFmt numFmtId="164" formatCode="0.000"/></numFmts>` +
	`<fonts count="2"><font/><font><b/></font></fonts><fills count="2"><fill/><fill/></fills><borders count="1"><border/></borders>` +
	`<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>` +
	`<cellXfs count="3"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/><xf numFmtId="14" fontId="1" fillId="1" borderId="0" xfId="0"/><xf numFmtId="164" fontId="0" fillId="0" borderId="0" xfId="0"/></cellXfs>` +
	`<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles><dxfs count="1"><dxf><font><b/></font></dxf></dxfs>`

// headerBook is a sheet with the header row of Table1 (A1:C3, columns a, b, c).
func headerBook(header string) book {
	return book{sheets: one(rows(`<row r="1">`+header+`</row>`)+tableParts(1), tableRel(1)), sst: []string{"a", "b", "c", "B"},
		parts: map[string]string{"xl/tables/table1.xml": tablePart(1, "Table1", "A1:C3", "a", "b", "c")}}
}

func pivotBook(cacheID string) book {
	b := book{sheets: one(rows(), `<Relationship Id="rIdP" Type="`+relT+`pivotTable" Target="../pivotTables/pivotTable1.xml"/>`),
		wbExtra: `<pivotCaches><pivotCache cacheId="7" r:id="rIdC"/></pivotCaches>`,
		wbRels:  `<Relationship Id="rIdC" Type="` + relT + `pivotCacheDefinition" Target="pivotCache/pivotCacheDefinition1.xml"/>`,
		parts: map[string]string{
			"xl/pivotTables/pivotTable1.xml":          `<pivotTableDefinition xmlns="` + nsMain + `" name="PivotTable1" cacheId="` + cacheID + `"><location ref="A3:B7" firstHeaderRow="1" firstDataRow="1" firstDataCol="1"/></pivotTableDefinition>`,
			"xl/pivotCache/pivotCacheDefinition1.xml": `<pivotCacheDefinition xmlns="` + nsMain + `"/>`,
		}}
	return b
}

// TestModelChecks: the reference-integrity and content-model checks
// (model.go, styles.go), each with a trigger and a near miss.
func TestModelChecks(t *testing.T) {
	cell := func(attrs string) book {
		return book{sheets: one(rows(`<row r="1"><c r="A1"` + attrs + `><v>1</v></c></row>`)), styles: stylesXML}
	}
	cases := []checkCase{
		{"cell style past cellXfs", cell(` s="3"`), xlsx.CodeStyleUndefined, formats.Fatal, "holds 3 entries (indexes 0–2)"},
		{"near miss: last cell style", cell(` s="2"`), xlsx.CodeStyleUndefined, "", ""},
		{"near miss: style index without a styles part", book{sheets: one(rows(`<row r="1"><c r="A1" s="9"><v>1</v></c></row>`))}, xlsx.CodeStyleUndefined, "", ""},
		{"row style past cellXfs", book{sheets: one(rows(`<row r="1" s="5" customFormat="1"/>`)), styles: stylesXML}, xlsx.CodeStyleUndefined, formats.Fatal, "row/@s"},
		{"column style past cellXfs", book{sheets: one(`<cols><col min="1" max="2" width="9" style="3"/></cols>` + rows()), styles: stylesXML}, xlsx.CodeStyleUndefined, formats.Fatal, "col/@style"},
		{"format naming a missing font", book{sheets: one(""), styles: strings.Replace(stylesXML, `fontId="1"`, `fontId="2"`, 1)}, xlsx.CodeStyleUndefined, formats.Fatal, "xf/@fontId"},
		{"format naming an undefined custom number format", book{sheets: one(""), styles: strings.Replace(stylesXML, `numFmtId="164" fontId`, `numFmtId="165" fontId`, 1)}, xlsx.CodeStyleUndefined, formats.Warning, "number format 165"},
		{"conditional format naming a missing dxf", book{sheets: one(rows() + `<conditionalFormatting sqref="A1"><cfRule type="expression" dxfId="1" priority="1"><formula>A1&gt;0</formula></cfRule></conditionalFormatting>`), styles: stylesXML}, xlsx.CodeStyleUndefined, formats.Fatal, "dxfs"},
		{"near miss: dxf 0", book{sheets: one(rows() + `<conditionalFormatting sqref="A1"><cfRule type="expression" dxfId="0" priority="1"><formula>A1&gt;0</formula></cfRule></conditionalFormatting>`), styles: stylesXML}, xlsx.CodeStyleUndefined, "", ""},

		{"duplicate sheetId", book{sheets: []sheet{{name: "A"}, {name: "B"}}, sheetIDs: []string{"2", "2"}}, xlsx.CodeSheetID, formats.Fatal, "already the id of sheet 'A'"},
		{"missing sheetId", book{sheets: []sheet{{name: "A"}}, sheetIDs: []string{"-"}}, xlsx.CodeSheetID, formats.Fatal, "has no sheetId"},
		{"near miss: sheetIds 4 and 2", book{sheets: []sheet{{name: "A"}, {name: "B"}}, sheetIDs: []string{"4", "2"}}, xlsx.CodeSheetID, "", ""},

		{"localSheetId past the last sheet", book{sheets: one(""), wbExtra: `<definedNames><definedName name="_xlnm.Print_Area" localSheetId="1">Sheet1!$A$1:$C$10</definedName></definedNames>`}, xlsx.CodeDefinedNameSheet, formats.Fatal, "localSheetId=\"1\""},
		{"name on a deleted sheet", book{sheets: one(""), wbExtra: `<definedNames><definedName name="Rates">'Old rates'!$A$1:$A$9</definedName></definedNames>`}, xlsx.CodeDefinedNameSheet, formats.Fatal, "'Old rates'"},
		{"near miss: external, 3-D, #REF! and quoted names", book{sheets: []sheet{{name: "Sheet1"}, {name: "Bob's"}}, wbExtra: `<definedNames><definedName name="a">[1]Gone!$A$1</definedName><definedName name="b">Sheet1:'Bob''s'!$A$1</definedName><definedName name="c">#REF!$A$1</definedName><definedName name="d" localSheetId="1">SUM(sheet1!A1,'[Book.xlsx]X'!B2)</definedName></definedNames>`}, xlsx.CodeDefinedNameSheet, "", ""},

		{"table header changed", headerBook(`<c r="A1" t="s"><v>0</v></c><c r="B1" t="inlineStr"><is><t>Total</t></is></c><c r="C1" t="s"><v>2</v></c>`), xlsx.CodeTableHeader, formats.Fatal, `holds "Total", but the table's column is named "b"`},
		{"table header case differs", headerBook(`<c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>3</v></c><c r="C1" t="s"><v>2</v></c>`), xlsx.CodeTableHeader, formats.Fatal, `"B"`},
		{"table header cell empty", headerBook(`<c r="A1" t="s"><v>0</v></c><c r="C1" t="s"><v>2</v></c>`), xlsx.CodeTableHeader, formats.Warning, "B1"},
		{"near miss: headers match (shared, inline, escaped)", book{sheets: one(rows(`<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="inlineStr"><is><t>b</t></is></c><c r="C1" t="s"><v>1</v></c></row>`)+tableParts(1), tableRel(1)), sst: []string{"a", "x\ny"},
			parts: map[string]string{"xl/tables/table1.xml": tablePart(1, "Table1", "A1:C3", "a", "b", "x_x000a_y")}}, xlsx.CodeTableHeader, "", ""},

		{"empty mergeCells", book{sheets: one(rows() + `<mergeCells count="0"/>`)}, xlsx.CodeEmptyContainer, formats.Fatal, "delete the empty <mergeCells>"},
		{"empty hyperlinks", book{sheets: one(rows() + `<hyperlinks></hyperlinks>`)}, xlsx.CodeEmptyContainer, formats.Fatal, "hyperlink"},
		{"empty cols: schema only", book{sheets: one(`<cols/>` + rows())}, xlsx.CodeEmptyContainer, formats.Warning, "col"},
		{"near miss: one merge", book{sheets: one(rows() + `<mergeCells count="1"><mergeCell ref="A1:B1"/></mergeCells>`)}, xlsx.CodeEmptyContainer, "", ""},
		{"merge with an empty ref", book{sheets: one(rows() + `<mergeCells count="1"><mergeCell ref=""/></mergeCells>`)}, xlsx.CodeRefInvalid, formats.Fatal, "ref=\"\""},

		{"validation range past the last row", book{sheets: one(rows() + dv(`type="whole" sqref="A3:A1048577"`, "1"))}, xlsx.CodeRefOutOfRange, formats.Fatal, "A1048577"},
		{"cell past column XFD", book{sheets: one(rows(`<row r="1"><c r="XFE1"><v>1</v></c></row>`))}, xlsx.CodeRefOutOfRange, formats.Fatal, "XFE1"},
		{"row past the last row", book{sheets: one(rows(`<row r="1048577"><c><v>1</v></c></row>`))}, xlsx.CodeRefOutOfRange, formats.Fatal, "row 1048577"},
		{"merge past the last row", book{sheets: one(rows() + `<mergeCells count="1"><mergeCell ref="A1048576:A1048577"/></mergeCells>`)}, xlsx.CodeRefOutOfRange, formats.Fatal, "merged range"},
		{"near miss: the last cell and whole columns", book{sheets: one(rows(`<row r="1048576"><c r="XFD1048576"><v>1</v></c></row>`) + dv(`type="whole" sqref="A1:A1048576 XFD1"`, "1"))}, xlsx.CodeRefOutOfRange, "", ""},

		{"pivot table naming a missing cache", pivotBook("3"), xlsx.CodePivotCache, formats.Fatal, `cacheId="3"`},
		{"near miss: pivot cache 7", pivotBook("7"), xlsx.CodePivotCache, "", ""},
	}
	runCases(t, cases)
	// The near misses of this table are not fatal at all.
	for _, c := range cases {
		if c.grade == "" && run(t, c.b).Fatal() {
			t.Errorf("%s: near miss is fatal: %v", c.name, run(t, c.b).Findings)
		}
	}
}
