package xlsx_test

import (
	"strings"
	"testing"

	"github.com/editaudit/editaudit/formats"
	"github.com/editaudit/editaudit/formats/xlsx"
)

// TestHealthyBookIsClean: the minimal workbook the cases build on has no
// finding at all, so every finding a case expects comes from its defect.
func TestHealthyBookIsClean(t *testing.T) {
	b := book{sheets: one(rows(`<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1"><v>1.5</v></c></row>`)),
		sst: []string{"hello"}, metadata: 1}
	rep := run(t, b)
	if len(rep.Findings) != 0 {
		t.Fatalf("healthy workbook has findings: %v", rep.Findings)
	}
}

// twoTables returns a sheet holding tables 1 and 2 with the given XML.
func twoTables(t1, t2, extraBody string) book {
	return book{
		sheets: one(rows()+extraBody+tableParts(1, 2), tableRel(1), tableRel(2)),
		parts:  map[string]string{"xl/tables/table1.xml": t1, "xl/tables/table2.xml": t2},
	}
}

func long(n int, c string) string { return strings.Repeat(c, n) }

// TestChecks: for each check, a workbook that triggers it and a near miss
// that must not.
func TestChecks(t *testing.T) {

	table1 := tablePart(1, "Table1", "A1:C3", "a", "b", "c")
	cases := []checkCase{
		{"no sheets", book{}, xlsx.CodeNoSheets, formats.Fatal, "no sheet"},
		{"one sheet", book{sheets: one("")}, xlsx.CodeNoSheets, "", ""},

		{"name 32 chars", book{sheets: []sheet{{name: long(32, "a")}}}, xlsx.CodeSheetName, formats.Fatal, "32 characters"},
		{"name 31 chars", book{sheets: []sheet{{name: long(31, "a")}}}, xlsx.CodeSheetName, "", ""},
		{"name 16 emoji = 32 UTF-16 units", book{sheets: []sheet{{name: long(16, "😀")}}}, xlsx.CodeSheetName, formats.Fatal, "32 characters"},
		{"name colon", book{sheets: []sheet{{name: "a:b"}}}, xlsx.CodeSheetName, formats.Fatal, `":"`},
		{"name bracket", book{sheets: []sheet{{name: "a[1]"}}}, xlsx.CodeSheetName, formats.Fatal, `"["`},
		{"name blank", book{sheets: []sheet{{name: ""}}}, xlsx.CodeSheetName, formats.Fatal, "blank"},
		{"name apostrophe", book{sheets: []sheet{{name: "'Data"}}}, xlsx.CodeSheetName, formats.Fatal, "apostrophe"},
		{"name inner apostrophe", book{sheets: []sheet{{name: "Bob's data"}}}, xlsx.CodeSheetName, "", ""},
		{"dup case-insensitive", book{sheets: []sheet{{name: "Data"}, {name: "data"}}}, xlsx.CodeSheetNameDup, formats.Fatal, `"data" repeats "Data"`},
		{"no dup", book{sheets: []sheet{{name: "Data"}, {name: "Data2"}}}, xlsx.CodeSheetNameDup, "", ""},

		{"sst past end", book{sheets: one(rows(`<row r="3"><c r="B3" t="s"><v>2</v></c></row>`)), sst: []string{"a", "b"}}, xlsx.CodeSSTIndex, formats.Fatal, "Sheet1!B3"},
		{"sst last", book{sheets: one(rows(`<row r="3"><c r="B3" t="s"><v>1</v></c></row>`)), sst: []string{"a", "b"}}, xlsx.CodeSSTIndex, "", ""},
		{"sst negative", book{sheets: one(rows(`<row r="1"><c r="A1" t="s"><v>-1</v></c></row>`)), sst: []string{"a"}}, xlsx.CodeSSTIndex, formats.Fatal, "-1"},
		{"sst no table", book{sheets: one(rows(`<row r="1"><c r="A1" t="s"><v>0</v></c></row>`))}, xlsx.CodeSSTIndex, formats.Fatal, "no shared strings"},
		{"sst not a number", book{sheets: one(rows(`<row r="1"><c r="A1" t="s"><v>abc</v></c></row>`)), sst: []string{"a"}}, xlsx.CodeSSTIndex, formats.Fatal, "not a string index"},

		{"date text in number cell", book{sheets: one(rows(`<row r="1"><c r="A1"><v>28.01.2007</v></c></row>`))}, xlsx.CodeNumericText, formats.Fatal, "28.01.2007"},
		{"t=n text", book{sheets: one(rows(`<row r="1"><c r="A1" t="n"><v>x</v></c></row>`))}, xlsx.CodeNumericText, formats.Fatal, "Sheet1!A1"},
		// From the held-out evaluation: formula syntax, shared formulas, calcChain, activeTab.
		{"formula ends with =", book{sheets: one(rows(`<row r="1"><c r="A1"><f>== Totals ===</f></c></row>`))}, xlsx.CodeFormulaSyntax, formats.Fatal, `operator "="`},
		{"formula ends with +", book{sheets: one(rows(`<row r="1"><c r="A1"><f>A2+</f></c></row>`))}, xlsx.CodeFormulaSyntax, formats.Fatal, `operator "+"`},
		{"near miss: percent and comparison", book{sheets: one(rows(`<row r="1"><c r="A1"><f>A2%</f></c><c r="B1"><f>A2&lt;&gt;"="</f></c></row>`))}, xlsx.CodeFormulaSyntax, "", ""},
		{"shared master gone", book{sheets: one(rows(`<row r="1"><c r="A1"><v>1</v></c><c r="B1"><f t="shared" si="0"/><v>2</v></c><c r="C1"><f t="shared" si="0"/><v>3</v></c></row>`))}, xlsx.CodeSharedFormula, formats.Fatal, `2 cell(s) from B1`},
		{"near miss: shared master present", book{sheets: one(rows(`<row r="1"><c r="A1"><f t="shared" ref="A1:C1" si="0">D1+1</f><v>1</v></c><c r="B1"><f t="shared" si="0"/><v>2</v></c><c r="C1"><f t="shared" si="0"/><v>3</v></c></row>`))}, xlsx.CodeSharedFormula, "", ""},
		{"calcChain names a value cell", book{sheets: one(rows(`<row r="1"><c r="A1"><f>1+1</f><v>2</v></c><c r="B1"><v>5</v></c></row>`)),
			wbRels: `<Relationship Id="rIdC" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/calcChain" Target="calcChain.xml"/>`,
			parts:  map[string]string{"xl/calcChain.xml": `<calcChain xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><c r="A1" i="1"/><c r="B1"/></calcChain>`}}, xlsx.CodeCalcChain, formats.Fatal, "(B1)"},
		{"calcChain names a missing sheet", book{sheets: one(rows(`<row r="1"><c r="A1"><f>1+1</f><v>2</v></c></row>`)),
			wbRels: `<Relationship Id="rIdC" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/calcChain" Target="calcChain.xml"/>`,
			parts:  map[string]string{"xl/calcChain.xml": `<calcChain xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><c r="A1" i="1"/><c r="A1" i="7"/></calcChain>`}}, xlsx.CodeCalcChain, formats.Fatal, `sheetId="7"`},
		{"near miss: calcChain with an array range", book{sheets: one(rows(`<row r="1"><c r="A1"><f t="array" ref="A1:A2">B1:B2*2</f><v>2</v></c></row><row r="2"><c r="A2"><v>4</v></c></row>`)),
			wbRels: `<Relationship Id="rIdC" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/calcChain" Target="calcChain.xml"/>`,
			parts:  map[string]string{"xl/calcChain.xml": `<calcChain xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><c r="A1" i="1" a="1"/><c r="A2"/></calcChain>`}}, xlsx.CodeCalcChain, "", ""},
		{"activeTab past the last sheet", book{sheets: []sheet{{name: "A"}, {name: "B"}}, wbViews: `<bookViews><workbookView activeTab="2"/></bookViews>`}, xlsx.CodeActiveTab, formats.Fatal, `activeTab="2"`},
		{"near miss: activeTab on the last sheet", book{sheets: []sheet{{name: "A"}, {name: "B"}}, wbViews: `<bookViews><workbookView activeTab="1"/></bookViews>`}, xlsx.CodeActiveTab, "", ""},
		{"exponent number", book{sheets: one(rows(`<row r="1"><c r="A1"><v>-1.5E+3</v></c><c r="B1"><v>.5</v></c></row>`))}, xlsx.CodeNumericText, "", ""},
		{"t=str text", book{sheets: one(rows(`<row r="1"><c r="A1" t="str"><f>"x"</f><v>x</v></c></row>`))}, xlsx.CodeNumericText, "", ""},

		{"inline 32768", book{sheets: one(rows(`<row r="1"><c r="A1" t="inlineStr"><is><t>` + long(32768, "a") + `</t></is></c></row>`))}, xlsx.CodeTextTooLong, formats.Fatal, "32768 characters"},
		{"inline 32767", book{sheets: one(rows(`<row r="1"><c r="A1" t="inlineStr"><is><t>` + long(32767, "a") + `</t></is></c></row>`))}, xlsx.CodeTextTooLong, "", ""},
		{"escapes count once", book{sheets: one(rows(`<row r="1"><c r="A1" t="inlineStr"><is><t>` + long(32760, "a") + `_x000D__x000A_</t></is></c></row>`))}, xlsx.CodeTextTooLong, "", ""},
		{"rich runs add up", book{sheets: one(rows(`<row r="1"><c r="A1" t="inlineStr"><is><r><t>` + long(20000, "a") + `</t></r><r><t>` + long(13000, "b") + `</t></r></is></c></row>`))}, xlsx.CodeTextTooLong, formats.Fatal, "33000"},
		{"shared string too long", book{sheets: one(""), sst: []string{long(40000, "z")}}, xlsx.CodeTextTooLong, formats.Fatal, "shared string 0"},

		{"merge overlap", book{sheets: one(rows() + `<mergeCells count="2"><mergeCell ref="A1:B2"/><mergeCell ref="B2:C3"/></mergeCells>`)}, xlsx.CodeMergeOverlap, formats.Fatal, "B2:C3 overlaps the merged range A1:B2"},
		{"merge adjacent", book{sheets: one(rows() + `<mergeCells count="2"><mergeCell ref="A1:B2"/><mergeCell ref="C1:D2"/></mergeCells>`)}, xlsx.CodeMergeOverlap, "", ""},
		{"merge in table", book{sheets: one(rows()+`<mergeCells count="1"><mergeCell ref="B2:C2"/></mergeCells>`+tableParts(1), tableRel(1)), parts: map[string]string{"xl/tables/table1.xml": table1}}, xlsx.CodeMergeInTable, formats.Fatal, "Table1"},
		{"merge beside table", book{sheets: one(rows()+`<mergeCells count="1"><mergeCell ref="E1:F1"/></mergeCells>`+tableParts(1), tableRel(1)), parts: map[string]string{"xl/tables/table1.xml": table1}}, xlsx.CodeMergeInTable, "", ""},

		{"tables overlap", twoTables(table1, tablePart(2, "Table2", "C3:D5", "x", "y"), ""), xlsx.CodeTableOverlap, formats.Fatal, "overlaps the table Table1"},
		{"tables apart", twoTables(table1, tablePart(2, "Table2", "D1:E3", "x", "y"), ""), xlsx.CodeTableOverlap, "", ""},
		{"autofilter on table", book{sheets: one(rows()+`<autoFilter ref="A1:B9"/>`+tableParts(1), tableRel(1)), parts: map[string]string{"xl/tables/table1.xml": table1}}, xlsx.CodeTableOverlap, formats.Fatal, "autoFilter"},
		{"autofilter apart", book{sheets: one(rows()+`<autoFilter ref="E1:F9"/>`+tableParts(1), tableRel(1)), parts: map[string]string{"xl/tables/table1.xml": table1}}, xlsx.CodeTableOverlap, "", ""},
		{"table name dup across sheets", book{
			sheets: []sheet{{name: "A", body: rows() + tableParts(1), rels: []string{tableRel(1)}}, {name: "B", body: rows() + tableParts(2), rels: []string{tableRel(2)}}},
			parts:  map[string]string{"xl/tables/table1.xml": table1, "xl/tables/table2.xml": tablePart(2, "TABLE1", "A1:C3", "a", "b", "c")}},
			xlsx.CodeTableNameDup, formats.Fatal, "TABLE1"},
		{"table names differ", twoTables(table1, tablePart(2, "Table2", "E1:G3", "a", "b", "c"), ""), xlsx.CodeTableNameDup, "", ""},
		{"table name space", twoTables(table1, tablePart(2, "My Table", "E1:G3", "a", "b", "c"), ""), xlsx.CodeTableName, formats.Fatal, "space"},
		{"table name cell ref", twoTables(table1, tablePart(2, "AB12", "E1:G3", "a", "b", "c"), ""), xlsx.CodeTableName, formats.Fatal, "cell reference"},
		{"table name R1C1", twoTables(table1, tablePart(2, "R2C3", "E1:G3", "a", "b", "c"), ""), xlsx.CodeTableName, formats.Fatal, "R1C1"},
		{"table name fine", twoTables(table1, tablePart(2, "_Sales.2024", "E1:G3", "a", "b", "c"), ""), xlsx.CodeTableName, "", ""},
		{"table id dup", twoTables(table1, tablePart(1, "Table2", "E1:G3", "a", "b", "c"), ""), xlsx.CodeTableID, formats.Fatal, "id 1"},
		{"table width", twoTables(table1, tablePart(2, "Table2", "E1:G3", "a", "b"), ""), xlsx.CodeTableColumns, formats.Fatal, "spans 3 columns"},
		{"table count attr", twoTables(table1, strings.Replace(tablePart(2, "Table2", "E1:G3", "a", "b", "c"), `count="3"`, `count="4"`, 1), ""), xlsx.CodeTableColumns, formats.Fatal, "count=4"},
		{"table columns fine", twoTables(table1, tablePart(2, "Table2", "E1:G3", "a", "b", "c"), ""), xlsx.CodeTableColumns, "", ""},
		{"column dup", twoTables(table1, tablePart(2, "Table2", "E1:F3", "Name", "name"), ""), xlsx.CodeTableColumnDup, formats.Fatal, `"Name" and "name"`},
		{"columns differ", twoTables(table1, tablePart(2, "Table2", "E1:F3", "Name", "Name2"), ""), xlsx.CodeTableColumnDup, "", ""},

		{"rows descending", book{sheets: one(rows(`<row r="2"><c r="A2"><v>1</v></c></row>`, `<row r="1"><c r="A1"><v>1</v></c></row>`))}, xlsx.CodeRowOrder, formats.Fatal, "row 1 comes after row 2"},
		{"rows implicit", book{sheets: one(rows(`<row><c><v>1</v></c></row>`, `<row><c><v>1</v></c><c><v>2</v></c></row>`, `<row r="5"><c r="A5"><v>1</v></c></row>`))}, xlsx.CodeRowOrder, "", ""},
		{"implicit row then its number", book{sheets: one(rows(`<row r="1"/>`, `<row/>`, `<row r="2"/>`))}, xlsx.CodeRowOrder, formats.Fatal, "row 2 comes after row 2"},
		{"cells descending", book{sheets: one(rows(`<row r="1"><c r="B1"><v>1</v></c><c r="A1"><v>1</v></c></row>`))}, xlsx.CodeCellOrder, formats.Fatal, "Sheet1!A1 comes after B1"},
		{"cells implicit", book{sheets: one(rows(`<row r="1"><c><v>1</v></c><c><v>1</v></c><c r="D1"><v>1</v></c><c><v>1</v></c></row>`))}, xlsx.CodeCellOrder, "", ""},
		{"implicit cell then its ref", book{sheets: one(rows(`<row r="1"><c r="A1"><v>1</v></c><c><v>1</v></c><c r="B1"><v>1</v></c></row>`))}, xlsx.CodeCellOrder, formats.Fatal, "B1 comes after B1"},
		{"cell in wrong row", book{sheets: one(rows(`<row r="1"><c r="A2"><v>1</v></c></row>`))}, xlsx.CodeCellRow, formats.Warning, "A2 sits in row 1"},

		{"drawing after tableParts", book{sheets: one(rows()+tableParts(1)+`<drawing r:id="rIdD"/>`, tableRel(1), `<Relationship Id="rIdD" Type="`+relT+`drawing" Target="../drawings/drawing1.xml"/>`),
			parts: map[string]string{"xl/tables/table1.xml": table1, "xl/drawings/drawing1.xml": drawing("")}}, xlsx.CodeChildOrder, formats.Fatal, "<drawing> comes after <tableParts>"},
		{"schema order", book{sheets: one(`<sheetPr/><dimension ref="A1"/><sheetViews><sheetView workbookViewId="0"/></sheetViews><cols><col min="1" max="1" width="9"/></cols>`+rows()+`<mergeCells count="1"><mergeCell ref="A1:B1"/></mergeCells><conditionalFormatting sqref="A1"><cfRule type="expression" priority="1"><formula>A1&gt;1</formula></cfRule></conditionalFormatting><conditionalFormatting sqref="B1"><cfRule type="expression" priority="2"><formula>B1&gt;1</formula></cfRule></conditionalFormatting><pageMargins left="0.7" right="0.7" top="0.75" bottom="0.75" header="0.3" footer="0.3"/><drawing r:id="rIdD"/><mc:AlternateContent><mc:Choice Requires="x14"><controls/></mc:Choice><mc:Fallback><controls/></mc:Fallback></mc:AlternateContent>`+tableParts(1), tableRel(1), `<Relationship Id="rIdD" Type="`+relT+`drawing" Target="../drawings/drawing1.xml"/>`),
			parts: map[string]string{"xl/tables/table1.xml": tablePart(1, "Table1", "D5:E6", "a", "b"), "xl/drawings/drawing1.xml": drawing("")}}, xlsx.CodeChildOrder, "", ""},
		{"mergeCells before sheetData", book{sheets: one(`<mergeCells count="1"><mergeCell ref="A1:B1"/></mergeCells>` + rows())}, xlsx.CodeChildOrder, formats.Fatal, "<sheetData> comes after <mergeCells>"},
		{"sheetData twice", book{sheets: one(rows() + rows())}, xlsx.CodeChildOrder, formats.Fatal, "appears twice"},
		{"controls in choice out of order", book{sheets: one(rows() + tableParts() + `<mc:AlternateContent><mc:Choice Requires="x14"><controls/></mc:Choice></mc:AlternateContent>`)}, xlsx.CodeChildOrder, formats.Fatal, "<controls> comes after <tableParts>"},

		{"LET without _xlpm", book{sheets: one(fcell("B3", "_xlfn.LET(x,1,x+1)"))}, xlsx.CodeLetXlpm, formats.Fatal, "_xlfn.LET(_xlpm.x,1,_xlpm.x+1)"},
		{"LET with _xlpm", book{sheets: one(fcell("B3", "_xlfn.LET(_xlpm.x,1,_xlpm.x+1)"))}, xlsx.CodeLetXlpm, "", ""},
		{"LET use without _xlpm", book{sheets: one(fcell("B3", "_xlfn.LET(_xlpm.total,SUM(A1:A3),total*2)"))}, xlsx.CodeLetXlpm, formats.Fatal, "exceljs#2838"},
		{"LET string mentions name", book{sheets: one(fcell("B3", `_xlfn.LET(_xlpm.x,"x and x",_xlpm.x&"x")`))}, xlsx.CodeLetXlpm, "", ""},
		{"LAMBDA without _xlpm", book{sheets: one(fcell("B3", "_xlfn.LAMBDA(a,b,a*b)(2,3)"))}, xlsx.CodeLetXlpm, formats.Fatal, "_xlfn.LAMBDA(_xlpm.a,_xlpm.b,_xlpm.a*_xlpm.b)(2,3)"},
		{"LAMBDA with _xlpm", book{sheets: one(fcell("B3", "_xlfn.LAMBDA(_xlpm.a,_xlpm.b,_xlpm.a*_xlpm.b)(2,3)"))}, xlsx.CodeLetXlpm, "", ""},
		{"LET-bound lambda called bare", book{sheets: one(fcell("B3", "_xlfn.LET(_xlpm.f,_xlfn.LAMBDA(_xlpm.v,_xlpm.v+1),f(2))"))}, xlsx.CodeLetXlpm, formats.Fatal, "_xlpm.f(2)"},
		{"defined name LAMBDA", book{sheets: one(""), wbExtra: `<definedNames><definedName name="Inc">_xlfn.LAMBDA(n,n+1)</definedName></definedNames>`}, xlsx.CodeLetXlpm, formats.Fatal, "defined name Inc"},

		{"XLOOKUP bare", book{sheets: one(fcell("B3", "XLOOKUP(A1,C:C,D:D)"))}, xlsx.CodeFuturePrefix, formats.Error, "_xlfn.XLOOKUP(A1,C:C,D:D)"},
		{"XLOOKUP prefixed", book{sheets: one(fcell("B3", "_xlfn.XLOOKUP(A1,C:C,D:D)"))}, xlsx.CodeFuturePrefix, "", ""},
		{"future name in a string", book{sheets: one(fcell("B3", `IF(A1="XLOOKUP(x)",1,2)`))}, xlsx.CodeFuturePrefix, "", ""},
		{"FILTER bare", book{sheets: one(fcell("B3", "SUM(FILTER(A1:A3,B1:B3>0))"))}, xlsx.CodeFuturePrefix, formats.Error, "SUM(_xlfn._xlws.FILTER(A1:A3,B1:B3>0))"},
		{"lower-case stdev.s", book{sheets: one(fcell("B3", "stdev.s(A1:A3)+CONCAT(A1,B1)"))}, xlsx.CodeFuturePrefix, formats.Error, "_xlfn.stdev.s(A1:A3)+_xlfn.CONCAT(A1,B1)"},
		{"IFS in conditional format", book{sheets: one(rows() + `<conditionalFormatting sqref="A1"><cfRule type="expression" priority="1"><formula>IFS(A1&gt;1,TRUE)</formula></cfRule></conditionalFormatting>`)}, xlsx.CodeFuturePrefix, formats.Error, "conditional format on Sheet1!A1"},
		{"networkdays.intl needs none", book{sheets: one(fcell("B3", "NETWORKDAYS.INTL(A1,A2)+ECMA.CEILING(A1,1)"))}, xlsx.CodeFuturePrefix, "", ""},
		{"FILTER without _xlws", book{sheets: one(fcell("B3", "SUM(_xlfn.FILTER(A1:A3,B1:B3>0))"))}, xlsx.CodeXlwsPrefix, formats.Warning, "_xlfn._xlws.FILTER"},
		{"FILTER with _xlws", book{sheets: one(fcell("B3", "SUM(_xlfn._xlws.FILTER(A1:A3,B1:B3>0))"))}, xlsx.CodeXlwsPrefix, "", ""},

		{"UNIQUE without cm", book{sheets: one(fcell("B1", "_xlfn.UNIQUE(A1:A3)"))}, xlsx.CodeDynamicArray, formats.Error, "=@UNIQUE(A1:A3)"},
		{"UNIQUE with cm", book{metadata: 1, sheets: one(rows(`<row r="1"><c r="B1" cm="1"><f t="array" ref="B1:B3">_xlfn.UNIQUE(A1:A3)</f><v>1</v></c></row>`))}, xlsx.CodeDynamicArray, "", ""},
		{"UNIQUE inside SUM", book{sheets: one(fcell("B1", "SUM(_xlfn.UNIQUE(A1:A3))"))}, xlsx.CodeDynamicArray, "", ""},
		{"legacy array range", book{sheets: one(rows(`<row r="1"><c r="B1"><f t="array" ref="B1:B3">_xlfn.SEQUENCE(3)</f><v>1</v></c></row>`))}, xlsx.CodeDynamicArray, "", ""},
		{"XLOOKUP scalar", book{sheets: one(fcell("B1", "_xlfn.XLOOKUP(A1,C:C,D:D)"))}, xlsx.CodeDynamicArray, "", ""},

		{"cm past metadata", book{metadata: 1, sheets: one(rows(`<row r="1"><c r="B1" cm="2"><f t="array" ref="B1">_xlfn.UNIQUE(A1:A3)</f><v>1</v></c></row>`))}, xlsx.CodeCellMetadata, formats.Warning, "cm=2"},
		{"cm without metadata", book{sheets: one(rows(`<row r="1"><c r="B1" cm="1"><f t="array" ref="B1">_xlfn.UNIQUE(A1:A3)</f><v>1</v></c></row>`))}, xlsx.CodeCellMetadata, formats.Warning, "0 cell-metadata"},
		{"cm in range", book{metadata: 2, sheets: one(rows(`<row r="1"><c r="B1" cm="2"><f t="array" ref="B1">_xlfn.UNIQUE(A1:A3)</f><v>1</v></c></row>`))}, xlsx.CodeCellMetadata, "", ""},

		{"semicolons", book{sheets: one(fcell("B3", "SUM(A1;A2)"))}, xlsx.CodeSeparator, formats.Fatal, "SUM(A1,A2)"},
		{"array constant rows", book{sheets: one(fcell("B3", "SUM({1,2;3,4})"))}, xlsx.CodeSeparator, "", ""},
		{"semicolon in string", book{sheets: one(fcell("B3", `IF(A1="a;b",1,2)`))}, xlsx.CodeSeparator, "", ""},
		{"semicolon in sheet name", book{sheets: []sheet{{name: "S;1"}, {name: "S2", body: rows(`<row r="1"><c r="A1"><f>'S;1'!A1+1</f></c></row>`)}}}, xlsx.CodeSeparator, "", ""},
		{"semicolon in structured ref", book{sheets: one(fcell("B3", "SUM(Table1[[#This Row],[a;b]])"))}, xlsx.CodeSeparator, "", ""},
		{"localized SUMME", book{sheets: one(fcell("B3", "SUMME(A1:A3)"))}, xlsx.CodeLocalized, formats.Fatal, "write the formula as: SUM(A1:A3)"},
		{"localized XVERWEIS gets prefix", book{sheets: one(fcell("B3", "XVERWEIS(A1,C:C,D:D)"))}, xlsx.CodeLocalized, formats.Fatal, "_xlfn.XLOOKUP(A1,C:C,D:D)"},
		{"localized WENN with ;", book{sheets: one(fcell("B3", "WENN(A1>1;1;2)"))}, xlsx.CodeSeparator, formats.Fatal, "IF(A1>1,1,2)"},
		{"localized name in a macro workbook", book{sheets: one(fcell("B3", "SUMME(A1:A3)")), vba: true}, xlsx.CodeLocalized, formats.Warning, "VBA project"},
		{"english SUM", book{sheets: one(fcell("B3", "SUM(A1:A3)"))}, xlsx.CodeLocalized, "", ""},
		{"named lambda SUMME", book{sheets: one(fcell("B3", "SUMME(1)")), wbExtra: `<definedNames><definedName name="SUMME">_xlfn.LAMBDA(_xlpm.n,_xlpm.n+1)</definedName></definedNames>`}, xlsx.CodeLocalized, "", ""},

		{"manual calc", book{sheets: one(""), wbExtra: `<calcPr calcId="191029" calcMode="manual" fullCalcOnLoad="1"/>`}, xlsx.CodeCalcManual, formats.Warning, "remove the calcMode attribute"},
		{"auto calc", book{sheets: one(""), wbExtra: `<calcPr calcId="191029" calcMode="auto"/>`}, xlsx.CodeCalcManual, "", ""},

		{"list 256", book{sheets: one(rows() + dv(`type="list" sqref="A1"`, `"`+long(256, "x")+`"`))}, xlsx.CodeDVListTooLong, formats.Fatal, "256 characters"},
		{"list 255", book{sheets: one(rows() + dv(`type="list" sqref="A1"`, `"`+long(255, "x")+`"`))}, xlsx.CodeDVListTooLong, "", ""},
		{"list escaped quotes 255", book{sheets: one(rows() + dv(`type="list" sqref="A1"`, `"`+long(253, "x")+`""""`+`"`))}, xlsx.CodeDVListTooLong, "", ""},
		{"list from range", book{sheets: one(rows() + dv(`type="list" sqref="A1"`, `$Z$1:$Z$500`))}, xlsx.CodeDVListTooLong, "", ""},
		{"x14 list 256", book{sheets: one(rows() + `<extLst><ext uri="{CCE6A557-97BC-4b89-ADB6-D9C93CAAB3DF}"><x14:dataValidations count="1"><x14:dataValidation type="list"><x14:formula1><xm:f>"` + long(256, "y") + `"</xm:f></x14:formula1><xm:sqref>A1</xm:sqref></x14:dataValidation></x14:dataValidations></ext></extLst>`)}, xlsx.CodeDVListTooLong, formats.Fatal, "on Sheet1!A1"},
		{"prompt 256", book{sheets: one(rows() + dv(`type="whole" sqref="A1" showInputMessage="1" prompt="`+long(256, "p")+`"`, `1`))}, xlsx.CodeDVTextTooLong, formats.Fatal, "input message"},
		{"error 256", book{sheets: one(rows() + dv(`type="whole" sqref="A1" error="`+long(256, "e")+`"`, `1`))}, xlsx.CodeDVTextTooLong, formats.Fatal, "error message"},
		{"prompt 255", book{sheets: one(rows() + dv(`type="whole" sqref="A1" prompt="`+long(255, "p")+`" error="`+long(255, "e")+`" promptTitle="`+long(32, "t")+`"`, `1`))}, xlsx.CodeDVTextTooLong, "", ""},
		{"title 33", book{sheets: one(rows() + dv(`type="whole" sqref="A1" promptTitle="`+long(33, "t")+`"`, `1`))}, xlsx.CodeDVTextTooLong, formats.Warning, "input title"},
	}
	runCases(t, cases)
}

// dv is a <dataValidations> element with one validation.
func dv(attrs, formula1 string) string {
	return `<dataValidations count="1"><dataValidation ` + attrs + `><formula1>` + xmlEscape(formula1) + `</formula1></dataValidation></dataValidations>`
}

// drawing is a drawing part holding inner anchors.
func drawing(inner string) string {
	return `<xdr:wsDr xmlns:xdr="http://schemas.openxmlformats.org/drawingml/2006/spreadsheetDrawing" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:r="` + nsR + `" xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006">` + inner + `</xdr:wsDr>`
}

// checkCase is a workbook and the finding of one code it must give.
type checkCase struct {
	name  string
	b     book
	code  string
	grade formats.Grade // "" : the code must be absent
	// contains is a text the first finding's message or fix must hold.
	contains string
}

// runCases inspects each case: one finding of the code at the grade, with
// part, message, fix, anchor and position; a near miss has none.
func runCases(t *testing.T, cases []checkCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rep := run(t, c.b)
			got := withCode(rep.Findings, c.code)
			if c.grade == "" {
				if len(got) > 0 {
					t.Fatalf("near miss reported %s: %v", c.code, got)
				}
				return
			}
			if len(got) == 0 {
				t.Fatalf("no %s finding; findings: %v", c.code, rep.Findings)
			}
			f := got[0]
			if f.Grade != c.grade {
				t.Errorf("grade %s, want %s: %s", f.Grade, c.grade, f)
			}
			if f.Part == "" || f.Message == "" || f.Fix == "" || f.Anchor == "" || f.Line == 0 || f.Locator == "" {
				t.Errorf("incomplete finding: %+v", f)
			}
			if !strings.Contains(f.Message+" "+f.Fix, c.contains) {
				t.Errorf("finding does not mention %q:\n%s\nfix: %s", c.contains, f.Message, f.Fix)
			}
		})
	}
}
