package content

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/editaudit/editaudit/formats/xlsx"
	"github.com/editaudit/editaudit/internal/testdoc"
)

// peakHeap samples the live heap every 2 ms until stop is called
// and returns the highest value seen above the heap at the start.
func peakHeap() (stop func() uint64) {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	base := ms.HeapAlloc
	var peak atomic.Uint64
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(2 * time.Millisecond)
		defer t.Stop()
		var m runtime.MemStats
		for {
			select {
			case <-done:
				return
			case <-t.C:
				runtime.ReadMemStats(&m)
				if m.HeapAlloc > base && m.HeapAlloc-base > peak.Load() {
					peak.Store(m.HeapAlloc - base)
				}
			}
		}
	}()
	return func() uint64 {
		close(done)
		wg.Wait()
		return peak.Load()
	}
}

// benchDiff diffs a against b b.N times and reports CPU time besides the
// wall time, and the peak live heap of one more diff (sampled every 2 ms
// outside the timed loop: reading the heap statistics stops the world).
func benchDiff(b *testing.B, a, e []byte) *Result {
	b.Helper()
	b.ReportAllocs()
	b.SetBytes(int64(len(a) + len(e)))
	var r *Result
	start := testdoc.CPUTime()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		var err error
		if r, err = Bytes(context.Background(), a, e, Options{}); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64((testdoc.CPUTime()-start).Microseconds())/1000/float64(b.N), "cpu-ms/op")
	stop := peakHeap()
	if _, err := Bytes(context.Background(), a, e, Options{}); err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(stop())/(1<<20), "peak-heap-MB")
	return r
}

// BenchmarkTypical diffs typical real files against a one-word edit.
func BenchmarkTypical(b *testing.B) {
	for _, c := range []struct{ file, part, old, new string }{
		{"docx/oxsdk_table-2007.docx", "", "", ""},
		{sampleDocx, "word/document.xml", "<w:t>Some text.</w:t>", "<w:t>Some words.</w:t>"},
		{"pptx/oxsdk_typical-deck.pptx", "ppt/notesSlides/notesSlide1.xml", ">Title only<", ">Title alone<"},
		{"xlsx/onlyoffice_sample.xlsx", "", "", ""},
		{budgetXlsx, "xl/worksheets/sheet1.xml", "<v>2500</v>", "<v>2600</v>"},
		{"hwpx/pyhwpx_seoul_sihaengmun.hwpx", "", "", ""},
	} {
		b.Run(strings.TrimSuffix(c.file[strings.Index(c.file, "/")+1:], ""), func(b *testing.B) {
			a := corpusBytes(b, c.file)
			e := a
			if c.part != "" {
				e = testdoc.Edit(b, a, map[string]func(string) string{c.part: testdoc.Replacer(b, c.old, c.new)})
			}
			r := benchDiff(b, a, e)
			if c.part != "" && len(r.Changes) != 1 {
				b.Fatalf("%d changes", len(r.Changes))
			}
		})
	}
}

// BenchmarkLargestDocx diffs poi_bug65649.docx (15,944 paragraphs, 12.6 MB
// document.xml) against a copy with one word changed.
func BenchmarkLargestDocx(b *testing.B) {
	a := corpusBytes(b, "docx/poi_bug65649.docx")
	e := testdoc.Edit(b, a, map[string]func(string) string{"word/document.xml": func(s string) string {
		i := strings.LastIndex(s, "</w:t>")
		return s[:i] + " amended" + s[i:]
	}})
	r := benchDiff(b, a, e)
	if r.Summary.Text != 1 || r.Summary.UnitsBefore < 15000 {
		b.Fatalf("summary %+v", r.Summary)
	}
}

// generatedDocx is a Word document of n paragraphs (a 3×3 table every 50
// paragraphs, a bold run every 10th); touch is how many paragraphs, evenly
// spread, get one word changed.
func generatedDocx(n, touch int) []byte {
	var body strings.Builder
	words := []string{"party", "agreement", "term", "payment", "notice", "clause", "liability", "schedule", "period", "obligation"}
	every := 0
	if touch > 0 {
		every = n / touch
	}
	for i := 0; i < n; i++ {
		w := words[i%len(words)]
		if every > 0 && i%every == 0 && i/every < touch {
			w = "amended"
		}
		text := fmt.Sprintf("%d. The %s of section %d applies to the %s described in annex %d.", i+1, w, i/7, words[(i*7)%len(words)], i%13)
		if i%10 == 0 {
			fmt.Fprintf(&body, `<w:p><w:pPr><w:pStyle w:val="Heading1"/></w:pPr><w:r><w:rPr><w:b/></w:rPr><w:t>Article %d</w:t></w:r><w:r><w:t xml:space="preserve"> %s</w:t></w:r></w:p>`, i/10+1, text)
		} else {
			fmt.Fprintf(&body, `<w:p w:rsidR="00A1B2C3"><w:r><w:t>%s</w:t></w:r></w:p>`, text)
		}
		if i%50 == 49 {
			body.WriteString(`<w:tbl>`)
			for r := 0; r < 3; r++ {
				body.WriteString(`<w:tr>`)
				for c := 0; c < 3; c++ {
					fmt.Fprintf(&body, `<w:tc><w:p><w:r><w:t>%d-%d-%d</w:t></w:r></w:p></w:tc>`, i, r, c)
				}
				body.WriteString(`</w:tr>`)
			}
			body.WriteString(`</w:tbl>`)
		}
	}
	return wordPackage(body.String())
}

// wordPackage is a Word document with the given body content (and a
// styles part: Normal, Heading1).
func wordPackage(body string) []byte {
	const w = `xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"`
	return testdoc.ZipMap(map[string]string{
		"[Content_Types].xml":          `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/><Override PartName="/word/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml"/></Types>`,
		"_rels/.rels":                  `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`,
		"word/_rels/document.xml.rels": `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/></Relationships>`,
		"word/styles.xml":              `<?xml version="1.0" encoding="UTF-8"?><w:styles ` + w + `><w:docDefaults><w:rPrDefault><w:rPr><w:rFonts w:ascii="Calibri"/><w:sz w:val="22"/></w:rPr></w:rPrDefault></w:docDefaults><w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/></w:style><w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/><w:basedOn w:val="Normal"/><w:rPr><w:sz w:val="32"/></w:rPr></w:style></w:styles>`,
		"word/document.xml":            `<?xml version="1.0" encoding="UTF-8"?><w:document ` + w + ` xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006"><w:body>` + body + `<w:sectPr/></w:body></w:document>`,
	})
}

// BenchmarkGenerated10k diffs a generated 10,000-paragraph document
// against itself and against an edit touching 500 paragraphs.
func BenchmarkGenerated10k(b *testing.B) {
	a := generatedDocx(10000, 0)
	b.Run("identical", func(b *testing.B) {
		r := benchDiff(b, a, generatedDocx(10000, 0))
		if len(r.Changes) != 0 || r.Summary.UnitsBefore != 10000+9*200 {
			b.Fatalf("summary %+v", r.Summary)
		}
	})
	b.Run("500-edited", func(b *testing.B) {
		r := benchDiff(b, a, generatedDocx(10000, 500))
		if r.Summary.Text != 500 || r.Truncated != 300 {
			b.Fatalf("summary %+v truncated %d", r.Summary, r.Truncated)
		}
	})
}

// generatedWorkbook is a workbook of rows × 10 cells: a shared-string
// label, eight numbers and a formula (a shared formula, as Excel writes a
// filled-down column); changed cells get another number.
func generatedWorkbook(rows, changed int) []byte {
	var sheet strings.Builder
	sheet.Grow(rows * 330)
	every := 0
	if changed > 0 {
		every = rows / changed
	}
	for r := 1; r <= rows; r++ {
		fmt.Fprintf(&sheet, `<row r="%d"><c r="A%d" t="s"><v>%d</v></c>`, r, r, r%1000)
		for c := 0; c < 8; c++ {
			v := (r*31 + c*7) % 9973
			if every > 0 && r%every == 0 && c == 3 && r/every <= changed {
				v = -1
			}
			fmt.Fprintf(&sheet, `<c r="%s%d" s="1"><v>%d</v></c>`, xlsx.ColName(c+2), r, v)
		}
		if r == 1 {
			fmt.Fprintf(&sheet, `<c r="J1"><f t="shared" ref="J1:J%d" si="0">SUM(B1:I1)</f><v>0</v></c></row>`, rows)
		} else {
			fmt.Fprintf(&sheet, `<c r="J%d"><f t="shared" si="0"/><v>0</v></c></row>`, r)
		}
	}
	var sst strings.Builder
	for i := 0; i < 1000; i++ {
		fmt.Fprintf(&sst, `<si><t>label %d</t></si>`, i)
	}
	return workbookPackage(sheet.String(), sst.String())
}

// workbookPackage is a workbook of one sheet "Data" with the given
// sheetData content and shared strings (si elements).
func workbookPackage(sheetData, sst string) []byte {
	const ns = `xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"`
	const rel = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
	return testdoc.ZipMap(map[string]string{
		"[Content_Types].xml":        `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/><Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/></Types>`,
		"_rels/.rels":                `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="` + rel + `/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
		"xl/_rels/workbook.xml.rels": `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="` + rel + `/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="` + rel + `/sharedStrings" Target="sharedStrings.xml"/><Relationship Id="rId3" Type="` + rel + `/styles" Target="styles.xml"/></Relationships>`,
		"xl/workbook.xml":            `<?xml version="1.0" encoding="UTF-8"?><workbook ` + ns + ` xmlns:r="` + rel + `"><sheets><sheet name="Data" sheetId="1" r:id="rId1"/></sheets></workbook>`,
		"xl/styles.xml":              `<?xml version="1.0" encoding="UTF-8"?><styleSheet ` + ns + `><fonts count="1"><font><sz val="11"/><name val="Calibri"/></font></fonts><fills count="1"><fill><patternFill patternType="none"/></fill></fills><cellXfs count="2"><xf numFmtId="0" fontId="0" fillId="0"/><xf numFmtId="4" fontId="0" fillId="0"/></cellXfs></styleSheet>`,
		"xl/sharedStrings.xml":       `<?xml version="1.0" encoding="UTF-8"?><sst ` + ns + `>` + sst + `</sst>`,
		"xl/worksheets/sheet1.xml":   `<?xml version="1.0" encoding="UTF-8"?><worksheet ` + ns + `><sheetData>` + sheetData + `</sheetData></worksheet>`,
	})
}

// BenchmarkWorkbook1M diffs a generated 1,000,000-cell workbook (100,000
// rows × 10 cells) against a copy with 1,000 cells changed.
func BenchmarkWorkbook1M(b *testing.B) {
	a := generatedWorkbook(100000, 0)
	e := generatedWorkbook(100000, 1000)
	r := benchDiff(b, a, e)
	if r.Summary.Cells != 1000 || r.Summary.UnitsBefore != 1000000 || r.Truncated != 800 {
		b.Fatalf("summary %+v truncated %d", r.Summary, r.Truncated)
	}
}
