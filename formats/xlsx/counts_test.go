package xlsx_test

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/editaudit/editaudit/formats"
	"github.com/editaudit/editaudit/formats/inspect"
	"github.com/editaudit/editaudit/formats/xlsx"
)

// countedBook has two of each counted thing on Sheet1, and a picture in an
// mc:Fallback that must not count (the mc:Choice chartEx is the object).
func countedBook() book {
	anchor := func(inner string) string {
		return `<xdr:twoCellAnchor><xdr:from><xdr:col>0</xdr:col><xdr:colOff>0</xdr:colOff><xdr:row>0</xdr:row><xdr:rowOff>0</xdr:rowOff></xdr:from><xdr:to><xdr:col>3</xdr:col><xdr:colOff>0</xdr:colOff><xdr:row>5</xdr:row><xdr:rowOff>0</xdr:rowOff></xdr:to>` + inner + `<xdr:clientData/></xdr:twoCellAnchor>`
	}
	pic := `<xdr:pic><xdr:nvPicPr><xdr:cNvPr id="2" name="Picture 1"/><xdr:cNvPicPr/></xdr:nvPicPr><xdr:blipFill><a:blip r:embed="rIdI1"/></xdr:blipFill><xdr:spPr/></xdr:pic>`
	frame := func(id, chart string) string {
		return `<xdr:graphicFrame macro=""><xdr:nvGraphicFramePr><xdr:cNvPr id="` + id + `" name="Chart"/><xdr:cNvGraphicFramePr/></xdr:nvGraphicFramePr><xdr:xfrm/><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/chart">` + chart + `</a:graphicData></a:graphic></xdr:graphicFrame>`
	}
	dr := drawing(anchor(pic) +
		anchor(`<xdr:grpSp><xdr:nvGrpSpPr><xdr:cNvPr id="3" name="Group"/><xdr:cNvGrpSpPr/></xdr:nvGrpSpPr><xdr:grpSpPr/>`+strings.Replace(pic, `id="2"`, `id="4"`, 1)+`</xdr:grpSp>`) +
		anchor(frame("5", `<c:chart r:id="rIdC1"/>`)) +
		`<mc:AlternateContent><mc:Choice xmlns:cx1="http://schemas.microsoft.com/office/drawing/2015/9/8/chartex" Requires="cx1">` +
		anchor(frame("6", `<cx:chart xmlns:cx="http://schemas.microsoft.com/office/drawing/2014/chartex" r:id="rIdC2"/>`)) +
		`</mc:Choice><mc:Fallback>` + anchor(strings.Replace(pic, `id="2"`, `id="7"`, 1)) + `</mc:Fallback></mc:AlternateContent>`)
	body := rows(`<row r="1"><c r="A1"><v>1</v></c><c r="D1" t="inlineStr"><is><t>a</t></is></c><c r="E1" t="inlineStr"><is><t>b</t></is></c></row>`) +
		`<mergeCells count="2"><mergeCell ref="A10:B10"/><mergeCell ref="A11:B11"/></mergeCells>` +
		`<conditionalFormatting sqref="A1"><cfRule type="expression" priority="1"><formula>A1&gt;0</formula></cfRule></conditionalFormatting>` +
		`<conditionalFormatting sqref="A2"><cfRule type="expression" priority="2"><formula>A2&gt;0</formula></cfRule></conditionalFormatting>` +
		dv(`type="whole" sqref="A3"`, "1") +
		`<drawing r:id="rIdD"/>` + tableParts(1) +
		`<extLst><ext uri="{CCE6A557-97BC-4b89-ADB6-D9C93CAAB3DF}"><x14:dataValidations count="1"><x14:dataValidation type="list"><x14:formula1><xm:f>Sheet2!$A$1:$A$3</xm:f></x14:formula1><xm:sqref>A4</xm:sqref></x14:dataValidation></x14:dataValidations></ext></extLst>`
	return book{
		sheets: []sheet{{name: "Sheet1", body: body, rels: []string{tableRel(1),
			`<Relationship Id="rIdD" Type="` + relT + `drawing" Target="../drawings/drawing1.xml"/>`}}, {name: "Sheet2"}},
		wbExtra: `<definedNames><definedName name="Rate">Sheet1!$A$1</definedName><definedName name="_xlnm.Print_Area" localSheetId="0">Sheet1!$A$1:$C$9</definedName></definedNames>`,
		parts: map[string]string{
			"xl/tables/table1.xml":     tablePart(1, "Table1", "D1:E3", "a", "b"),
			"xl/drawings/drawing1.xml": dr,
			"xl/drawings/_rels/drawing1.xml.rels": relsXML(`<Relationship Id="rIdI1" Type="` + relT + `image" Target="../media/image1.png"/>` +
				`<Relationship Id="rIdC1" Type="` + relT + `chart" Target="../charts/chart1.xml"/>` +
				`<Relationship Id="rIdC2" Type="http://schemas.microsoft.com/office/2014/relationships/chartEx" Target="../charts/chartEx1.xml"/>`),
			"xl/media/image1.png":    "\x89PNG\r\n\x1a\n",
			"xl/charts/chart1.xml":   `<c:chartSpace xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart"/>`,
			"xl/charts/chartEx1.xml": `<cx:chartSpace xmlns:cx="http://schemas.microsoft.com/office/drawing/2014/chartex"/>`,
		},
	}
}

// TestCounts: totals, the per-part breakdown and one site per sheet.
func TestCounts(t *testing.T) {
	for _, strict := range []bool{false, true} {
		b := countedBook()
		b.strict = strict
		rep := run(t, b)
		for _, f := range rep.Findings {
			if f.Grade.Rank() <= formats.Warning.Rank() {
				t.Errorf("strict=%v: unexpected finding %s", strict, f)
			}
		}
		want := formats.Counts{xlsx.KeySheets: 2, xlsx.KeyCharts: 2, xlsx.KeyImages: 2, xlsx.KeyTables: 1, xlsx.KeyDefinedNames: 2,
			xlsx.KeyDataValidations: 2, xlsx.KeyConditionalFormats: 2, xlsx.KeyMergedRanges: 2}
		for k, v := range want {
			if rep.Counts[k] != v {
				t.Errorf("strict=%v: %s = %d, want %d", strict, k, rep.Counts[k], v)
			}
		}
		if len(rep.Counts) != len(want) {
			t.Errorf("strict=%v: counts %v", strict, rep.Counts)
		}
		if got := rep.Parts["xl/drawings/drawing1.xml"]; got[xlsx.KeyCharts] != 2 || got[xlsx.KeyImages] != 2 {
			t.Errorf("strict=%v: drawing part counts %v", strict, got)
		}
		if got := rep.Parts["xl/worksheets/sheet1.xml"]; got[xlsx.KeyMergedRanges] != 2 || got[xlsx.KeyTables] != 1 {
			t.Errorf("strict=%v: sheet part counts %v", strict, got)
		}
		if got := rep.Parts["xl/workbook.xml"]; got[xlsx.KeySheets] != 2 || got[xlsx.KeyDefinedNames] != 2 {
			t.Errorf("strict=%v: workbook part counts %v", strict, got)
		}
		if len(rep.Sites) != 2 || rep.Sites[0].Where != "sheet 'Sheet1'" || rep.Sites[1].Where != "sheet 'Sheet2'" {
			t.Fatalf("strict=%v: sites %+v", strict, rep.Sites)
		}
		s1, s2 := rep.Sites[0].Counts, rep.Sites[1].Counts
		if s1[xlsx.KeyCharts] != 2 || s1[xlsx.KeyImages] != 2 || s1[xlsx.KeyDataValidations] != 2 || s1[xlsx.KeyConditionalFormats] != 2 {
			t.Errorf("strict=%v: Sheet1 site %v", strict, s1)
		}
		if len(s2) != 6 || s2[xlsx.KeyCharts] != 0 || s2[xlsx.KeyTables] != 0 {
			t.Errorf("strict=%v: Sheet2 site %v (want all six keys, zero)", strict, s2)
		}
	}
}

// TestStrictChecks: the checks read Strict namespaces too.
func TestStrictChecks(t *testing.T) {
	b := book{strict: true,
		sheets: []sheet{{name: "Data", body: rows(`<row r="1"><c r="A1"><f>_xlfn.LET(x,1,x)</f></c></row>`) + `<mergeCells count="2"><mergeCell ref="A1:B2"/><mergeCell ref="B2:C3"/></mergeCells>`}, {name: "DATA"}}}
	rep := run(t, b)
	if rep.Flavor != "xlsx-strict" {
		t.Errorf("flavor %q", rep.Flavor)
	}
	for _, code := range []string{xlsx.CodeSheetNameDup, xlsx.CodeLetXlpm, xlsx.CodeMergeOverlap} {
		if len(withCode(rep.Findings, code)) == 0 {
			t.Errorf("strict workbook: no %s in %v", code, rep.Findings)
		}
	}
}

// TestTenDefects: one workbook with ten (here eleven) different defects
// reports every one.
func TestTenDefects(t *testing.T) {
	sheet1 := `<sheetData>` +
		`<row r="2"><c r="A2" t="s"><v>5</v></c><c r="B2"><v>28.01.2007</v></c><c r="C2"><f>XLOOKUP(A1,D:D,E:E)</f></c><c r="D2"><f>SUM(A1;A2)</f></c><c r="E2"><f>_xlfn.LET(x,1,x)</f></c></row>` +
		`<row r="1"><c r="B1"><v>1</v></c><c r="A1"><v>1</v></c></row>` +
		`</sheetData>` +
		`<mergeCells count="2"><mergeCell ref="A5:B6"/><mergeCell ref="B6:C7"/></mergeCells>` +
		dv(`type="list" sqref="F1"`, `"`+long(300, "x")+`"`)
	b := book{
		sheets:  []sheet{{name: "Data", body: `<sheetFormatPr defaultRowHeight="15"/><dimension ref="A1:E2"/>` + sheet1}, {name: "data"}},
		sst:     []string{"a"},
		wbExtra: `<calcPr calcId="191029" calcMode="manual"/>`,
	}
	rep := run(t, b)
	want := []string{xlsx.CodeSheetNameDup, xlsx.CodeSSTIndex, xlsx.CodeNumericText, xlsx.CodeFuturePrefix, xlsx.CodeSeparator,
		xlsx.CodeLetXlpm, xlsx.CodeRowOrder, xlsx.CodeCellOrder, xlsx.CodeMergeOverlap, xlsx.CodeDVListTooLong, xlsx.CodeCalcManual,
		xlsx.CodeChildOrder}
	for _, code := range want {
		if len(withCode(rep.Findings, code)) == 0 {
			t.Errorf("missing %s", code)
		}
	}
	if t.Failed() {
		for _, f := range rep.Findings {
			t.Log(f)
		}
	}
}

// TestEscapedCharacters: _xHHHH_ escapes of control characters are legal
// SpreadsheetML (ECMA-376 §22.9.2.19) and draw no finding.
func TestEscapedCharacters(t *testing.T) {
	b := book{sheets: one(rows(`<row r="1"><c r="A1" t="inlineStr"><is><t>a_x0001_b_x001F_</t></is></c><c r="B1" t="s"><v>0</v></c></row>`)),
		sst: []string{"tab_x0009_and_x000B_vt"}}
	if rep := run(t, b); len(rep.Findings) != 0 {
		t.Fatalf("escaped characters reported: %v", rep.Findings)
	}
}

// FuzzSheet: any worksheet content inspects without a panic or a Go error.
func FuzzSheet(f *testing.F) {
	f.Add(rows(`<row r="1"><c r="A1" t="s"><v>0</v></c></row>`))
	f.Add(fcell("B2", "_xlfn.LET(x,1,x)") + `<mergeCells><mergeCell ref="A1:B2"/><mergeCell ref="B2:C3"/></mergeCells>`)
	f.Add(`<mc:AlternateContent><mc:Choice Requires="x14"><controls/></mc:Choice><mc:Fallback/></mc:AlternateContent>` + rows())
	f.Add(rows(`<row><c><is><r><t>a</t></r><rPh><t>b</t></rPh></is></c></row>`) + dv(`type="list"`, `"a,b"`))
	f.Fuzz(func(t *testing.T, body string) {
		b := book{sheets: one(body), sst: []string{"a"}, metadata: 1}
		if _, err := inspect.Bytes(context.Background(), b.bytes(), "fuzz.xlsx", inspect.Options{}); err != nil {
			t.Fatal(err)
		}
	})
}

// TestFindingCap: one code in one part is listed at most
// Limits.MaxFindingsPerCode times, then one info says the rest are cut.
func TestFindingCap(t *testing.T) {
	var r strings.Builder
	for i := 1; i <= 80; i++ {
		r.WriteString(`<row r="` + itoa(i) + `"><c r="A` + itoa(i) + `"><v>x</v></c></row>`)
	}
	rep := run(t, book{sheets: one(rows(r.String()))})
	if n := len(withCode(rep.Findings, xlsx.CodeNumericText)); n != 50 {
		t.Errorf("%d numeric-text findings, want 50", n)
	}
	if cut := withCode(rep.Findings, xlsx.CodeTooMany); len(cut) != 1 || cut[0].Grade != formats.Info {
		t.Errorf("cap finding: %v", cut)
	}
}

func itoa(i int) string { return strconv.Itoa(i) }
