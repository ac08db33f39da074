package convert_test

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"image"
	"image/png"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/editaudit/editaudit/formats"
	"github.com/editaudit/editaudit/formats/hwpx/convert"
	"github.com/editaudit/editaudit/internal/testdoc"
)

const (
	decl = `<?xml version="1.0" encoding="UTF-8" standalone="yes" ?>`
	ns   = `xmlns:hp="http://www.hancom.co.kr/hwpml/2011/paragraph" xmlns:hs="http://www.hancom.co.kr/hwpml/2011/section" xmlns:hh="http://www.hancom.co.kr/hwpml/2011/head" xmlns:hc="http://www.hancom.co.kr/hwpml/2011/core"`
)

// header: fonts (함초롬바탕, 맑은 고딕), charPr 0 (10 pt) and 1 (bold 12 pt
// red), paraPr 0 (justify, 160%) and 1 (centre, 130%, hanging 10 pt),
// borderFill 1 (none) and 2 (solid 0.12 mm, yellow fill), bullet 1.
const header = decl + `<hh:head ` + ns + ` version="1.4" secCnt="1"><hh:refList>` +
	`<hh:fontfaces><hh:fontface lang="HANGUL" fontCnt="2"><hh:font id="0" face="함초롬바탕" type="TTF"/><hh:font id="1" face="맑은 고딕" type="TTF"/></hh:fontface>` +
	`<hh:fontface lang="LATIN" fontCnt="2"><hh:font id="0" face="함초롬바탕" type="TTF"/><hh:font id="1" face="Arial" type="TTF"/></hh:fontface></hh:fontfaces>` +
	`<hh:borderFills><hh:borderFill id="1"><hh:leftBorder type="NONE" width="0.1 mm" color="#000000"/><hh:rightBorder type="NONE" width="0.1 mm" color="#000000"/><hh:topBorder type="NONE" width="0.1 mm" color="#000000"/><hh:bottomBorder type="NONE" width="0.1 mm" color="#000000"/></hh:borderFill>` +
	`<hh:borderFill id="2"><hh:leftBorder type="SOLID" width="0.12 mm" color="#000000"/><hh:rightBorder type="SOLID" width="0.12 mm" color="#000000"/><hh:topBorder type="SOLID" width="0.12 mm" color="#000000"/><hh:bottomBorder type="DOUBLE_SLIM" width="0.5 mm" color="#0000FF"/><hc:fillBrush><hc:winBrush faceColor="#FFFF00" hatchColor="#000000" alpha="0"/></hc:fillBrush></hh:borderFill></hh:borderFills>` +
	`<hh:charProperties><hh:charPr id="0" height="1000" textColor="#000000" shadeColor="none"><hh:fontRef hangul="0" latin="0" hanja="0" japanese="0" other="0" symbol="0" user="0"/><hh:ratio hangul="100" latin="100" hanja="100" japanese="100" other="100" symbol="100" user="100"/><hh:spacing hangul="0" latin="0" hanja="0" japanese="0" other="0" symbol="0" user="0"/><hh:relSz hangul="100" latin="100" hanja="100" japanese="100" other="100" symbol="100" user="100"/><hh:offset hangul="0" latin="0" hanja="0" japanese="0" other="0" symbol="0" user="0"/></hh:charPr>` +
	`<hh:charPr id="1" height="1200" textColor="#FF0000" shadeColor="none"><hh:fontRef hangul="1" latin="1" hanja="1" japanese="1" other="1" symbol="1" user="1"/><hh:ratio hangul="95" latin="95" hanja="95" japanese="95" other="95" symbol="95" user="95"/><hh:spacing hangul="-5" latin="-5" hanja="-5" japanese="-5" other="-5" symbol="-5" user="-5"/><hh:relSz hangul="100" latin="100" hanja="100" japanese="100" other="100" symbol="100" user="100"/><hh:offset hangul="0" latin="0" hanja="0" japanese="0" other="0" symbol="0" user="0"/><hh:bold/><hh:underline type="BOTTOM" shape="SOLID" color="#000000"/></hh:charPr></hh:charProperties>` +
	`<hh:bullets><hh:bullet id="1" char="•"/></hh:bullets>` +
	`<hh:paraProperties><hh:paraPr id="0" tabPrIDRef="0"><hh:align horizontal="JUSTIFY"/><hp:switch><hp:case hp:required-namespace="http://www.hancom.co.kr/hwpml/2016/HwpUnitChar"><hh:margin><hc:intent value="0"/><hc:left value="0"/><hc:right value="0"/><hc:prev value="0"/><hc:next value="0"/></hh:margin><hh:lineSpacing type="PERCENT" value="160"/></hp:case><hp:default><hh:margin><hc:intent value="0"/><hc:left value="0"/><hc:right value="0"/><hc:prev value="0"/><hc:next value="0"/></hh:margin><hh:lineSpacing type="PERCENT" value="160"/></hp:default></hp:switch></hh:paraPr>` +
	`<hh:paraPr id="1" tabPrIDRef="0"><hh:align horizontal="CENTER"/><hh:heading type="BULLET" idRef="1" level="0"/><hp:switch><hp:case hp:required-namespace="http://www.hancom.co.kr/hwpml/2016/HwpUnitChar"><hh:margin><hc:intent value="-1000"/><hc:left value="500"/><hc:right value="0"/><hc:prev value="200"/><hc:next value="300"/></hh:margin><hh:lineSpacing type="PERCENT" value="130"/></hp:case><hp:default><hh:margin><hc:intent value="-2000"/><hc:left value="1000"/><hc:right value="0"/><hc:prev value="400"/><hc:next value="600"/></hh:margin><hh:lineSpacing type="PERCENT" value="130"/></hp:default></hp:switch></hh:paraPr></hh:paraProperties>` +
	`<hh:styles><hh:style id="0" type="PARA" name="바탕글" paraPrIDRef="0" charPrIDRef="0"/></hh:styles></hh:refList></hh:head>`

const secPr = `<hp:secPr tabStop="8000" outlineShapeIDRef="1"><hp:pagePr landscape="WIDELY" width="59528" height="84188"><hp:margin header="4252" footer="4252" gutter="0" left="8504" right="8504" top="5668" bottom="4252"/></hp:pagePr></hp:secPr>`

func para(pr, cp int, text string) string {
	return fmt.Sprintf(`<hp:p paraPrIDRef="%d" styleIDRef="0"><hp:run charPrIDRef="%d"><hp:t>%s</hp:t></hp:run></hp:p>`, pr, cp, text)
}

// tbl builds a table of cells: rows of "text" or "text|cs|rs".
func tbl(rows [][]string) string {
	var b strings.Builder
	b.WriteString(`<hp:p paraPrIDRef="0"><hp:run charPrIDRef="0"><hp:tbl rowCnt="` + strconv.Itoa(len(rows)) + `" colCnt="3" borderFillIDRef="2" pageBreak="CELL" repeatHeader="0"><hp:sz width="30000" height="6000"/><hp:pos treatAsChar="1" vertRelTo="PARA" horzRelTo="PARA" vertAlign="TOP" horzAlign="LEFT" vertOffset="0" horzOffset="0"/><hp:outMargin left="0" right="0" top="0" bottom="0"/><hp:inMargin left="510" right="510" top="141" bottom="141"/>`)
	for r, row := range rows {
		b.WriteString("<hp:tr>")
		col := 0
		for _, c := range row {
			if c == "" { // a slot covered by a cell above
				col++
				continue
			}
			parts := strings.Split(c, "|")
			cs, rs := 1, 1
			if len(parts) == 3 {
				cs, _ = strconv.Atoi(parts[1])
				rs, _ = strconv.Atoi(parts[2])
			}
			fmt.Fprintf(&b, `<hp:tc borderFillIDRef="2"><hp:subList vertAlign="CENTER">%s</hp:subList><hp:cellAddr colAddr="%d" rowAddr="%d"/><hp:cellSpan colSpan="%d" rowSpan="%d"/><hp:cellSz width="%d" height="2000"/><hp:cellMargin left="510" right="510" top="141" bottom="141"/></hp:tc>`,
				para(0, 0, parts[0]), col, r, cs, rs, 10000*cs)
			col += cs
		}
		b.WriteString("</hp:tr>")
	}
	b.WriteString(`</hp:tbl></hp:run></hp:p>`)
	return b.String()
}

func section(body string) string {
	return decl + `<hs:sec ` + ns + `><hp:p paraPrIDRef="0"><hp:run charPrIDRef="0">` + secPr + `</hp:run></hp:p>` + body + `</hs:sec>`
}

// pkg builds an HWPX package; extra parts (name → data) are added, and a
// manifest item is listed for each BinData part.
func pkg(sections []string, extra map[string]string) []byte {
	parts := map[string]string{
		"mimetype":               "application/hwp+zip",
		"META-INF/container.xml": decl + `<ocf:container xmlns:ocf="urn:oasis:names:tc:opendocument:xmlns:container"><ocf:rootfiles><ocf:rootfile full-path="Contents/content.hpf" media-type="application/hwpml-package+xml"/></ocf:rootfiles></ocf:container>`,
		"Contents/header.xml":    header,
	}
	var items, spine strings.Builder
	items.WriteString(`<opf:item id="header" href="Contents/header.xml" media-type="application/xml"/>`)
	for i, s := range sections {
		name := fmt.Sprintf("Contents/section%d.xml", i)
		parts[name] = s
		fmt.Fprintf(&items, `<opf:item id="section%d" href="%s" media-type="application/xml"/>`, i, name)
		fmt.Fprintf(&spine, `<opf:itemref idref="section%d" linear="yes"/>`, i)
	}
	for name, data := range extra {
		parts[name] = data
		if strings.HasPrefix(name, "BinData/") {
			id := strings.TrimSuffix(strings.TrimPrefix(name, "BinData/"), filepath.Ext(name))
			fmt.Fprintf(&items, `<opf:item id="%s" href="%s" media-type="image/png" isEmbeded="1"/>`, id, name)
		}
	}
	parts["Contents/content.hpf"] = decl + `<opf:package xmlns:opf="http://www.idpf.org/2007/opf/"><opf:manifest>` + items.String() +
		`</opf:manifest><opf:spine><opf:itemref idref="header" linear="yes"/>` + spine.String() + `</opf:spine></opf:package>`
	return testdoc.ZipMap(parts)
}

func open(t testing.TB, data []byte) *formats.Package {
	t.Helper()
	p, err := formats.Open(context.Background(), bytes.NewReader(data), int64(len(data)), "test.hwpx", formats.DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func convertBytes(t testing.TB, data []byte) ([]byte, *convert.Result) {
	t.Helper()
	var out bytes.Buffer
	res, err := convert.Convert(context.Background(), open(t, data), &out)
	if err != nil {
		t.Fatal(err)
	}
	return out.Bytes(), res
}

// part reads one entry of the ODT.
func part(t testing.TB, odt []byte, name string) string {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(odt), int64(len(odt)))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range zr.File {
		if f.Name == name {
			rc, _ := f.Open()
			defer rc.Close()
			b, _ := io.ReadAll(rc)
			return string(b)
		}
	}
	t.Fatalf("no %s in the ODT", name)
	return ""
}

// cellTexts returns the text of each table cell of content.xml as
// "table/row/col" → text (col counts covered cells, so it is the grid
// column), and the text of the body's top-level paragraphs in order.
func cellTexts(t testing.TB, content string) (map[string]string, []string) {
	t.Helper()
	dec := xml.NewDecoder(strings.NewReader(content))
	cells := map[string]string{}
	var paras []string
	var tables, rowStack, colStack []int
	depthP := 0
	var cur, para strings.Builder
	var key string
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("content.xml is not well-formed: %v", err)
		}
		switch e := tok.(type) {
		case xml.StartElement:
			switch e.Name.Local {
			case "table":
				if e.Name.Space == "urn:oasis:names:tc:opendocument:xmlns:table:1.0" {
					tables = append(tables, len(tables)+1)
					rowStack = append(rowStack, -1)
					colStack = append(colStack, 0)
				}
			case "table-row":
				rowStack[len(rowStack)-1]++
				colStack[len(colStack)-1] = 0
			case "table-cell":
				key = fmt.Sprintf("%d/%d/%d", len(tables), rowStack[len(rowStack)-1], colStack[len(colStack)-1])
				cur.Reset()
			case "p":
				depthP++
			}
		case xml.EndElement:
			switch e.Name.Local {
			case "table-cell":
				cells[key] = cur.String()
				colStack[len(colStack)-1]++
			case "covered-table-cell":
				colStack[len(colStack)-1]++
			case "table":
				if e.Name.Space == "urn:oasis:names:tc:opendocument:xmlns:table:1.0" {
					rowStack, colStack = rowStack[:len(rowStack)-1], colStack[:len(colStack)-1]
				}
			case "p":
				depthP--
				if depthP == 0 && len(rowStack) == 0 && para.Len() > 0 {
					paras = append(paras, para.String())
					para.Reset()
				}
			case "s":
				cur.WriteByte(' ')
				if len(rowStack) == 0 {
					para.WriteByte(' ')
				}
			}
		case xml.CharData:
			if depthP > 0 {
				cur.Write(e)
				if len(rowStack) == 0 {
					para.Write(e)
				}
			}
		}
	}
	return cells, paras
}

func TestConvertStructure(t *testing.T) {
	data := pkg([]string{section(para(1, 1, "제목 Title") + para(0, 0, "본문 한 줄") +
		tbl([][]string{{"A1", "B1|2|1"}, {"A2|1|2", "B2", "C2"}, {"", "B3", "C3"}}))}, nil)
	odt, res := convertBytes(t, data)
	if res.Sections != 1 {
		t.Fatalf("sections = %d", res.Sections)
	}
	if got := part(t, odt, "mimetype"); got != "application/vnd.oasis.opendocument.text" {
		t.Fatalf("mimetype %q", got)
	}
	content := part(t, odt, "content.xml")
	cells, paras := cellTexts(t, content)
	want := map[string]string{"1/0/0": "A1", "1/0/1": "B1", "1/1/0": "A2", "1/1/1": "B2", "1/1/2": "C2", "1/2/1": "B3", "1/2/2": "C3"}
	for k, v := range want {
		if cells[k] != v {
			t.Errorf("cell %s = %q, want %q (all: %v)", k, cells[k], v, cells)
		}
	}
	if len(paras) < 2 || paras[0] != "• 제목 Title" || paras[1] != "본문 한 줄" {
		t.Errorf("paragraphs %q lack the title", paras)
	}
	for _, want := range []string{
		`table:number-columns-spanned="2"`, `table:number-rows-spanned="2"`, `<table:covered-table-cell/>`,
		`style:column-width="100pt"`,  // 10000 HWPUNIT
		`style:min-row-height="20pt"`, // cellSz height 2000
		`fo:border-left="0.12mm solid #000000"`, `fo:border-bottom="0.5mm double #0000ff"`, `fo:background-color="#ffff00"`,
		`fo:font-weight="bold"`, `fo:color="#ff0000"`, `style:text-underline-style="solid"`,
		`style:text-scale="95%"`, `fo:letter-spacing="-0.6pt"`, // 5% of 12 pt
		`style:font-name-asian="Noto Sans CJK KR"`, `style:font-name="Liberation Sans"`,
		`fo:text-align="center"`, `fo:margin-left="15pt"`, `fo:text-indent="-10pt"`, `fo:margin-top="2pt"`, `fo:margin-bottom="3pt"`,
		`fo:line-height="15.6pt"`, // 130% of 12 pt
		`fo:line-height="16pt"`,   // 160% of 10 pt
		`•`,
	} {
		if !strings.Contains(content, want) {
			t.Errorf("content.xml lacks %s", want)
		}
	}
	styles := part(t, odt, "styles.xml")
	for _, want := range []string{`fo:page-width="595.28pt"`, `fo:page-height="841.88pt"`, `fo:margin-left="85.04pt"`,
		`fo:margin-top="99.2pt"`} { // top 56.68 + header 42.52: no header in the section
		if !strings.Contains(styles, want) {
			t.Errorf("styles.xml lacks %s", want)
		}
	}
	if meta := part(t, odt, "meta.xml"); !strings.Contains(meta, convert.Version) || !strings.Contains(meta, convert.Notice) {
		t.Errorf("meta.xml lacks the version or the notice: %s", meta)
	}
}

func TestConvertDeterministic(t *testing.T) {
	img := pngBytes(t)
	sec := section(para(0, 0, "그림") + `<hp:p paraPrIDRef="0"><hp:run charPrIDRef="0"><hp:pic><hp:sz width="7200" height="3600"/><hp:pos treatAsChar="1"/><hc:img binaryItemIDRef="image1"/></hp:pic></hp:run></hp:p>` +
		tbl([][]string{{"a", "b", "c"}}))
	data := pkg([]string{sec, section(para(0, 0, "둘째 구역"))}, map[string]string{"BinData/image1.png": img})
	a, _ := convertBytes(t, data)
	b, _ := convertBytes(t, data)
	if !bytes.Equal(a, b) {
		t.Fatal("two conversions of the same document differ")
	}
	if !strings.Contains(part(t, a, "content.xml"), `xlink:href="Pictures/1.png"`) || part(t, a, "Pictures/1.png") != img {
		t.Fatal("the picture is not embedded")
	}
	if !strings.Contains(part(t, a, "content.xml"), `style:master-page-name="MP2"`) {
		t.Fatal("the second section does not start its own master page")
	}
}

func pngBytes(t testing.TB) string {
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewGray(image.Rect(0, 0, 4, 2))); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// An edit of one table cell changes that cell of the converted document
// and nothing else; an edited paragraph changes that paragraph.
func TestConvertEditLocality(t *testing.T) {
	rows := [][]string{{"A1", "B1", "C1"}, {"A2", "B2", "C2"}}
	edited := [][]string{{"A1", "B1", "C1"}, {"A2", "수정된 셀", "C2"}}
	before, _ := convertBytes(t, pkg([]string{section(para(0, 0, "앞 문단") + tbl(rows) + para(0, 0, "뒤 문단"))}, nil))
	after, _ := convertBytes(t, pkg([]string{section(para(0, 0, "앞 문단") + tbl(edited) + para(0, 0, "뒤 문단"))}, nil))
	cb, pb := cellTexts(t, part(t, before, "content.xml"))
	ca, pa := cellTexts(t, part(t, after, "content.xml"))
	var changed []string
	for k := range cb {
		if cb[k] != ca[k] {
			changed = append(changed, k)
		}
	}
	if len(changed) != 1 || changed[0] != "1/1/1" || ca["1/1/1"] != "수정된 셀" {
		t.Fatalf("changed cells %v (after: %v)", changed, ca)
	}
	if strings.Join(pb, "|") != strings.Join(pa, "|") {
		t.Fatalf("paragraphs changed: %q → %q", pb, pa)
	}
	p2, _ := convertBytes(t, pkg([]string{section(para(0, 0, "앞 문단 고침") + tbl(rows) + para(0, 0, "뒤 문단"))}, nil))
	_, pp := cellTexts(t, part(t, p2, "content.xml"))
	if len(pp) != len(pb) || pp[0] != "앞 문단 고침" || pp[len(pp)-1] != pb[len(pb)-1] {
		t.Fatalf("paragraph edit: %q → %q", pb, pp)
	}
}

// Hostile and broken input: an error or a best-effort document, never a
// panic or a hang.
func TestConvertHostile(t *testing.T) {
	deep := strings.Repeat(`<hp:tbl><hp:tr><hp:tc><hp:subList><hp:p><hp:run>`, 40) + "x" + strings.Repeat(`</hp:run></hp:p></hp:subList></hp:tc></hp:tr></hp:tbl>`, 40)
	deepP := `<hp:p paraPrIDRef="0"><hp:run charPrIDRef="0">` + strings.Repeat(`<hp:tbl><hp:tr><hp:tc><hp:subList><hp:p><hp:run>`, 300) + strings.Repeat(`</hp:run></hp:p></hp:subList></hp:tc></hp:tr></hp:tbl>`, 300) + `</hp:run></hp:p>`
	huge := `<hp:p><hp:run><hp:tbl rowCnt="2000000000" colCnt="2000000000"><hp:sz width="2000000000" height="2000000000"/><hp:tr><hp:tc borderFillIDRef="99"><hp:subList/><hp:cellAddr colAddr="4000000000" rowAddr="-5"/><hp:cellSpan colSpan="1000000000" rowSpan="1000000000"/><hp:cellSz width="99999999999" height="-7"/></hp:tc></hp:tr></hp:tbl>` +
		`<hp:pic><hp:sz width="2000000000" height="2000000000"/><hp:pos treatAsChar="0" vertOffset="-2000000000" horzOffset="2000000000"/><hc:img binaryItemIDRef="nothere"/></hp:pic></hp:run></hp:p>`
	hugePage := decl + `<hs:sec ` + ns + `><hp:p><hp:run><hp:secPr><hp:pagePr width="999999999999" height="-5"><hp:margin left="2000000000" right="2000000000" top="-1" bottom="2000000000" header="2000000000" footer="0"/></hp:pagePr></hp:secPr><hp:t>x</hp:t></hp:run></hp:p></hs:sec>`
	cases := map[string][]byte{
		"nested 40 tables":                      pkg([]string{section(`<hp:p><hp:run>` + deep + `</hp:run></hp:p>`)}, nil),
		"nested 300 (over the XML depth limit)": pkg([]string{section(deepP)}, nil),
		"huge sizes and spans, missing BinData": pkg([]string{section(huge)}, nil),
		"huge page":                             pkg([]string{hugePage}, nil),
		"missing BinData part":                  pkg([]string{section(`<hp:p><hp:run><hp:pic><hp:sz width="100" height="100"/><hp:pos treatAsChar="1"/><hc:img binaryItemIDRef="image9"/></hp:pic></hp:run></hp:p>`)}, nil),
		"not well-formed section":               pkg([]string{section(para(0, 0, "ok") + `<hp:p><hp:run><hp:t>broken`)[:len(section(para(0, 0, "ok")))-10]}, nil),
		"no header, no manifest": testdoc.ZipMap(map[string]string{"mimetype": "application/hwp+zip",
			"Contents/section0.xml": section(para(5, 7, "no shapes"))}),
		"DOCTYPE entity bomb":     pkg([]string{decl + `<!DOCTYPE hs:sec [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]><hs:sec ` + ns + `><hp:p><hp:run><hp:t>&b;</hp:t></hp:run></hp:p></hs:sec>`}, nil),
		"empty zip-only mimetype": testdoc.ZipMap(map[string]string{"mimetype": "application/hwp+zip"}),
		"illegal characters":      pkg([]string{section(para(0, 0, "a\x01b&#1;c"))}, nil),
	}
	for name, data := range cases {
		t.Run(name, func(t *testing.T) {
			done := make(chan struct{})
			var out bytes.Buffer
			var err error
			var res *convert.Result
			go func() {
				defer close(done)
				res, err = convert.Convert(context.Background(), open(t, data), &out)
			}()
			select {
			case <-done:
			case <-time.After(30 * time.Second):
				t.Fatal("the conversion did not end")
			}
			if err != nil {
				t.Logf("error (allowed): %v", err)
				return
			}
			content := part(t, out.Bytes(), "content.xml")
			if _, _ = cellTexts(t, content); !strings.Contains(content, "<text:p") {
				t.Fatal("no paragraph in the output")
			}
			if err := xml.Unmarshal([]byte(part(t, out.Bytes(), "styles.xml")), new(struct{})); err != nil {
				t.Fatalf("styles.xml: %v", err)
			}
			t.Logf("notes: %q", res.Notes)
		})
	}
}

func TestConvertNotHWPX(t *testing.T) {
	data := testdoc.ZipMap(map[string]string{"[Content_Types].xml": `<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>`, "word/document.xml": "<w/>"})
	_, err := convert.Convert(context.Background(), open(t, data), io.Discard)
	if !errors.Is(err, convert.ErrNotHWPX) {
		t.Fatalf("err = %v, want ErrNotHWPX", err)
	}
	dir := t.TempDir()
	in := filepath.Join(dir, "x.hwpx")
	if err := os.WriteFile(in, []byte("not a zip"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "x.odt")
	if _, err := convert.ConvertFile(context.Background(), in, out, convert.Options{}); !errors.Is(err, convert.ErrNotHWPX) {
		t.Fatalf("ConvertFile err = %v", err)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Fatal("a failed conversion left an output file")
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Fatalf("the folder holds %d entries, want only the input", len(ents))
	}
}

// Every real HWPX file of the corpus converts, and LibreOffice renders each
// converted document to at least one page.
func TestCorpusRendersWithLibreOffice(t *testing.T) {
	root := testdoc.Corpus(t)
	files, _ := filepath.Glob(filepath.Join(root, "hwpx", "*.hwpx"))
	if len(files) == 0 {
		t.Fatal("no hwpx files in the corpus")
	}
	dir := t.TempDir()
	var odts []string
	for _, f := range files {
		out := filepath.Join(dir, strings.TrimSuffix(filepath.Base(f), ".hwpx")+convert.Ext)
		res, err := convert.ConvertFile(context.Background(), f, out, convert.Options{})
		if err != nil {
			t.Errorf("%s: %v", filepath.Base(f), err)
			continue
		}
		if res.Sections == 0 {
			t.Errorf("%s: no section converted", filepath.Base(f))
		}
		odts = append(odts, out)
	}
	soffice := testdoc.Tool(t, "soffice")
	pdfinfo := testdoc.Tool(t, "pdfinfo")
	prof := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, soffice, append([]string{"-env:UserInstallation=file://" + prof, "--headless", "--norestore", "--nologo", "--convert-to", "pdf", "--outdir", dir}, odts...)...)
	cmd.Env = append(os.Environ(), "LC_ALL=C.UTF-8")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("soffice: %v\n%s", err, out)
	}
	for _, odt := range odts {
		pdf := strings.TrimSuffix(odt, convert.Ext) + ".pdf"
		out, err := exec.Command(pdfinfo, pdf).Output()
		if err != nil {
			t.Errorf("%s: LibreOffice made no PDF (%v)", filepath.Base(odt), err)
			continue
		}
		pages := 0
		for _, l := range strings.Split(string(out), "\n") {
			if f := strings.Fields(l); len(f) == 2 && f[0] == "Pages:" {
				pages, _ = strconv.Atoi(f[1])
			}
		}
		if pages < 1 {
			t.Errorf("%s: %d pages", filepath.Base(odt), pages)
		}
	}
}
