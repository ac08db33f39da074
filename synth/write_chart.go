package synth

import (
	"crypto/sha256"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Native charts of docx and pptx: a DrawingML chart part (ECMA-376 part 1
// §21.2, c:chartSpace) holding the series with cached values, so every
// reader draws it without recalculating, and the data as an embedded
// workbook (c:externalData), which Word and PowerPoint open to edit the
// chart — the layout python-docx, python-pptx and the Office applications
// themselves write. xlsx charts are excelize's (write_xlsx.go).

const (
	nsC           = "http://schemas.openxmlformats.org/drawingml/2006/chart"
	uriChart      = "http://schemas.openxmlformats.org/drawingml/2006/chart"
	relChart      = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/chart"
	relPackage    = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/package"
	ctChart       = "application/vnd.openxmlformats-officedocument.drawingml.chart+xml"
	ctXlsxPackage = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
)

// chartPalette are the Office theme's accent colours, one per series (or
// pie slice), in order.
var chartPalette = []string{"4472C4", "ED7D31", "A5A5A5", "FFC000", "5B9BD5", "70AD47", "264478", "9E480E", "636363", "997300"}

// pkgMedia names the pictures and charts of one package: each distinct
// picture once, charts numbered in order of use.
type pkgMedia struct {
	dir    string // "word" or "ppt"
	pics   map[[32]byte]string
	parts  []zipPart
	exts   map[string]string // extension → content type, of the pictures
	charts int
}

func newPkgMedia(dir string) *pkgMedia {
	return &pkgMedia{dir: dir, pics: map[[32]byte]string{}, exts: map[string]string{}}
}

// picture returns the part name of p ("word/media/image1.png"), adding it
// on first use.
func (m *pkgMedia) picture(p picture) string {
	sum := sha256.Sum256(p.data)
	if name, ok := m.pics[sum]; ok {
		return name
	}
	name := fmt.Sprintf("%s/media/image%d.%s", m.dir, len(m.pics)+1, p.ext)
	m.pics[sum] = name
	m.exts[p.ext] = p.contentType()
	m.parts = append(m.parts, zipPart{name: name, data: p.data})
	return name
}

// chart adds the parts of chart c (the chart, its relationships, its
// workbook) and returns the chart part's name.
func (m *pkgMedia) chart(c *Chart) (string, error) {
	m.charts++
	n := m.charts
	book, err := chartWorkbook(c)
	if err != nil {
		return "", fmt.Errorf("chart %d data: %w", n, err)
	}
	name := fmt.Sprintf("%s/charts/chart%d.xml", m.dir, n)
	embed := fmt.Sprintf("Microsoft_Excel_Worksheet%d.xlsx", n)
	crels := &rels{}
	rid := crels.add(relPackage, "../embeddings/"+embed)
	m.parts = append(m.parts,
		zipPart{name: name, data: chartXML(c, rid)},
		zipPart{name: fmt.Sprintf("%s/charts/_rels/chart%d.xml.rels", m.dir, n), data: crels.xml()},
		zipPart{name: m.dir + "/embeddings/" + embed, data: book})
	return name, nil
}

// declare adds the content types of the media to ct.
func (m *pkgMedia) declare(ct *contentTypes) {
	for _, ext := range []string{"jpeg", "png"} {
		if typ, ok := m.exts[ext]; ok {
			ct.def(ext, typ)
		}
	}
	if m.charts > 0 {
		ct.def("xlsx", ctXlsxPackage)
		for i := 1; i <= m.charts; i++ {
			ct.over(fmt.Sprintf("%s/charts/chart%d.xml", m.dir, i), ctChart)
		}
	}
}

// chartWorkbook is the chart's data as a workbook: categories down column
// A from A2, one series per column from B with its name in row 1 — the
// cells the chart's c:f references name.
func chartWorkbook(c *Chart) ([]byte, error) {
	rows := make([][]XCell, len(c.Categories)+1)
	rows[0] = make([]XCell, len(c.Series)+1)
	for j, se := range c.Series {
		rows[0][j+1] = XCell{Kind: "text", Text: se.Name}
	}
	for i, cat := range c.Categories {
		row := make([]XCell, len(c.Series)+1)
		row[0] = XCell{Kind: "text", Text: cat}
		for j, se := range c.Series {
			if i < len(se.Values) {
				row[j+1] = XCell{Kind: "number", Number: se.Values[i]}
			}
		}
		rows[i+1] = row
	}
	s := &Spec{Format: "xlsx", Xlsx: &XlsxSpec{Sheets: []Sheet{{Name: "Sheet1", Rows: rows}}}}
	return writeXlsx(s, newEnv(Options{}))
}

// chartXML writes the c:chartSpace of c (CT_ChartSpace order: date1904,
// lang, roundedCorners, chart, externalData); dataRID is the relationship
// of the embedded workbook.
func chartXML(c *Chart, dataRID string) []byte {
	var b xb
	b.s(xmlHeader, `<c:chartSpace xmlns:c="`, nsC, `" xmlns:a="`, nsA, `" xmlns:r="`, nsR, `">`)
	b.s(`<c:date1904 val="0"/><c:lang val="en-US"/><c:roundedCorners val="0"/><c:chart>`)
	if c.Title != "" {
		b.s(`<c:title><c:tx><c:rich><a:bodyPr/><a:lstStyle/>`)
		for _, line := range strings.Split(c.Title, "\n") {
			b.s(`<a:p><a:pPr><a:defRPr sz="1400" b="1"/></a:pPr><a:r><a:rPr lang="en-US" sz="1400" b="1"/><a:t>`).t(line).s(`</a:t></a:r></a:p>`)
		}
		b.s(`</c:rich></c:tx><c:overlay val="0"/></c:title><c:autoTitleDeleted val="0"/>`)
	} else {
		b.s(`<c:autoTitleDeleted val="1"/>`)
	}
	b.s(`<c:plotArea><c:layout/>`)
	n := len(c.Categories)
	switch c.Type {
	case "pie":
		b.s(`<c:pieChart><c:varyColors val="1"/>`)
		chartSeries(&b, c, 0, n)
		b.s(`<c:firstSliceAng val="0"/></c:pieChart>`)
	case "line":
		b.s(`<c:lineChart><c:grouping val="standard"/><c:varyColors val="0"/>`)
		for i := range c.Series {
			chartSeries(&b, c, i, n)
		}
		b.s(`<c:marker val="1"/><c:axId val="500000001"/><c:axId val="500000002"/></c:lineChart>`)
	default:
		dir := "col"
		if c.Type == "bar" {
			dir = "bar"
		}
		b.s(`<c:barChart><c:barDir val="`, dir, `"/><c:grouping val="clustered"/><c:varyColors val="0"/>`)
		for i := range c.Series {
			chartSeries(&b, c, i, n)
		}
		b.s(`<c:gapWidth val="150"/><c:axId val="500000001"/><c:axId val="500000002"/></c:barChart>`)
	}
	if c.Type != "pie" {
		catPos, valPos := "b", "l"
		if c.Type == "bar" {
			catPos, valPos = "l", "b"
		}
		// CT_CatAx and CT_ValAx in schema order.
		b.s(`<c:catAx><c:axId val="500000001"/><c:scaling><c:orientation val="minMax"/></c:scaling><c:delete val="0"/><c:axPos val="`, catPos, `"/>`)
		b.s(`<c:numFmt formatCode="General" sourceLinked="1"/><c:majorTickMark val="out"/><c:minorTickMark val="none"/><c:tickLblPos val="nextTo"/>`)
		b.s(`<c:crossAx val="500000002"/><c:crosses val="autoZero"/><c:auto val="1"/><c:lblAlgn val="ctr"/><c:lblOffset val="100"/><c:noMultiLvlLbl val="0"/></c:catAx>`)
		b.s(`<c:valAx><c:axId val="500000002"/><c:scaling><c:orientation val="minMax"/></c:scaling><c:delete val="0"/><c:axPos val="`, valPos, `"/><c:majorGridlines/>`)
		b.s(`<c:numFmt formatCode="General" sourceLinked="1"/><c:majorTickMark val="out"/><c:minorTickMark val="none"/><c:tickLblPos val="nextTo"/>`)
		b.s(`<c:crossAx val="500000001"/><c:crosses val="autoZero"/><c:crossBetween val="between"/></c:valAx>`)
	}
	b.s(`</c:plotArea><c:legend><c:legendPos val="r"/><c:overlay val="0"/></c:legend><c:plotVisOnly val="1"/><c:dispBlanksAs val="gap"/></c:chart>`)
	b.s(`<c:externalData r:id="`, dataRID, `"><c:autoUpdate val="0"/></c:externalData></c:chartSpace>`)
	return b.bytes()
}

// chartSeries writes series i with n points: CT_BarSer / CT_LineSer /
// CT_PieSer children in schema order (idx, order, tx, spPr, then
// invertIfNegative or marker or dPt, cat, val), references into the
// embedded workbook with their cached values.
func chartSeries(b *xb, c *Chart, i, n int) {
	se := &c.Series[i]
	col := colName(i + 2)
	is := strconv.Itoa(i)
	color := chartPalette[i%len(chartPalette)]
	b.s(`<c:ser><c:idx val="`, is, `"/><c:order val="`, is, `"/>`)
	b.s(`<c:tx><c:strRef><c:f>Sheet1!$`, col, `$1</c:f><c:strCache><c:ptCount val="1"/><c:pt idx="0"><c:v>`).t(se.Name).s(`</c:v></c:pt></c:strCache></c:strRef></c:tx>`)
	switch c.Type {
	case "pie":
		for k := 0; k < n; k++ {
			b.s(`<c:dPt><c:idx val="`, strconv.Itoa(k), `"/><c:bubble3D val="0"/><c:spPr><a:solidFill><a:srgbClr val="`, chartPalette[k%len(chartPalette)], `"/></a:solidFill><a:ln><a:solidFill><a:srgbClr val="FFFFFF"/></a:solidFill></a:ln></c:spPr></c:dPt>`)
		}
	case "line":
		b.s(`<c:spPr><a:ln w="28575" cap="rnd"><a:solidFill><a:srgbClr val="`, color, `"/></a:solidFill><a:round/></a:ln></c:spPr>`)
		b.s(`<c:marker><c:symbol val="circle"/><c:size val="5"/><c:spPr><a:solidFill><a:srgbClr val="`, color, `"/></a:solidFill></c:spPr></c:marker>`)
	default:
		b.s(`<c:spPr><a:solidFill><a:srgbClr val="`, color, `"/></a:solidFill></c:spPr><c:invertIfNegative val="0"/>`)
	}
	last := strconv.Itoa(n + 1)
	cnt := strconv.Itoa(n)
	b.s(`<c:cat><c:strRef><c:f>Sheet1!$A$2:$A$`, last, `</c:f><c:strCache><c:ptCount val="`, cnt, `"/>`)
	for k, cat := range c.Categories {
		b.s(`<c:pt idx="`, strconv.Itoa(k), `"><c:v>`).t(cat).s(`</c:v></c:pt>`)
	}
	b.s(`</c:strCache></c:strRef></c:cat>`)
	b.s(`<c:val><c:numRef><c:f>Sheet1!$`, col, `$2:$`, col, `$`, last, `</c:f><c:numCache><c:formatCode>General</c:formatCode><c:ptCount val="`, cnt, `"/>`)
	for k, x := range se.Values {
		if k >= n {
			break
		}
		b.s(`<c:pt idx="`, strconv.Itoa(k), `"><c:v>`, formatNumber(x), `</c:v></c:pt>`)
	}
	b.s(`</c:numCache></c:numRef></c:val>`)
	if c.Type == "line" {
		b.s(`<c:smooth val="0"/>`)
	}
	b.s(`</c:ser>`)
}

// formatNumber writes a number as spreadsheets do: the shortest decimal
// that reads back the same, without an exponent for everyday magnitudes.
func formatNumber(x float64) string {
	if math.Abs(x) >= 1e-6 && math.Abs(x) < 1e15 || x == 0 {
		return strconv.FormatFloat(x, 'f', -1, 64)
	}
	return strings.ToUpper(strconv.FormatFloat(x, 'g', -1, 64))
}

// chartGraphic is the a:graphic of a chart frame (docx inline, pptx
// graphicFrame) pointing at relationship rid.
func chartGraphic(rid string) string {
	return `<a:graphic><a:graphicData uri="` + uriChart + `"><c:chart xmlns:c="` + nsC + `" r:id="` + rid + `"/></a:graphicData></a:graphic>`
}
