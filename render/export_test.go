package render

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/editaudit/editaudit/internal/testdoc"
)

// staleWorkbook is a workbook whose A3 (=A1+A2) carries a stale cached
// value, 999, and whose A4 (=A1*10) carries none.
func staleWorkbook() []byte {
	return testdoc.ZipMap(map[string]string{
		"[Content_Types].xml":        `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>`,
		"_rels/.rels":                `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
		"xl/workbook.xml":            `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="S" sheetId="1" r:id="rId1"/></sheets></workbook>`,
		"xl/_rels/workbook.xml.rels": `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`,
		"xl/worksheets/sheet1.xml": `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>` +
			`<row r="1"><c r="A1"><v>1</v></c></row><row r="2"><c r="A2"><v>2</v></c></row>` +
			`<row r="3"><c r="A3"><f>A1+A2</f><v>999</v></c></row><row r="4"><c r="A4"><f>A1*10</f></c></row></sheetData></worksheet>`,
	})
}

// TestConvertToRecalc: both engines convert to another format (Exporter),
// and with Recalc LibreOffice recalculates: the stale cached 999 becomes
// 3; without Recalc LibreOffice keeps it (its default, OOXMLRecalcMode 1,
// "never"). The batch Pool recalculates on load (recalcSettings in the
// run's profile), the warm one with XCalculatable.calculateAll on the
// LibreOffice it keeps running. Both kinds in one pool, alternating.
func TestConvertToRecalc(t *testing.T) {
	requireTools(t, "soffice")
	t.Run("batch", func(t *testing.T) { testConvertToRecalc(t, newTestPool(t, PoolOptions{Workers: 1})) })
	t.Run("warm", func(t *testing.T) { testConvertToRecalc(t, newTestWarmPool(t, PoolOptions{Workers: 1})) })
}

func testConvertToRecalc(t *testing.T, pool *Pool) {
	in := filepath.Join(t.TempDir(), "stale.xlsx")
	if err := os.WriteFile(in, staleWorkbook(), 0o644); err != nil {
		t.Fatal(err)
	}
	value := func(target Target, ref string) string {
		t.Helper()
		out, err := pool.ConvertTo(context.Background(), in, target)
		if err != nil {
			t.Fatalf("ConvertTo %+v: %v", target, err)
		}
		defer os.Remove(out)
		if filepath.Ext(out) != ".xlsx" {
			t.Errorf("result %s is not .xlsx", out)
		}
		data, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		sheet := string(testdoc.Unzip(t, data)["xl/worksheets/sheet1.xml"])
		m := regexp.MustCompile(`<c r="` + ref + `"[^>]*>.*?<v>([^<]*)</v>`).FindStringSubmatch(sheet)
		if m == nil {
			t.Fatalf("%s has no value in %s", ref, sheet)
		}
		return m[1]
	}
	if v := value(XLSXRecalc, "A3"); v != "3" {
		t.Errorf("recalculated A3 = %s, want 3", v)
	}
	if v := value(XLSXRecalc, "A4"); v != "10" {
		t.Errorf("recalculated A4 = %s, want 10", v)
	}
	keep := XLSXRecalc
	keep.Recalc = false
	if v := value(keep, "A3"); v != "999" {
		t.Errorf("A3 without recalculation = %s, want the cached 999", v)
	}
	if v := value(XLSXRecalc, "A3"); v != "3" {
		t.Errorf("recalculated A3 after a plain run = %s, want 3", v)
	}
	pdf, err := pool.ConvertPDF(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	defer os.Remove(pdf)
	if n, err := CountPDFPages(context.Background(), pdf); err != nil || n != 1 {
		t.Errorf("PDF of the workbook: %d pages, %v", n, err)
	}
}

// TestEmojiOutlineFont: both engines run LibreOffice with the pool's
// fontconfig file (writeFontsConf: colour fonts rejected), so an emoji is
// drawn from the outline emoji font (Symbola) instead of being left blank
// by LibreOffice 7.4's PDF export of a colour font; the PDF names the font
// it embedded (pdffonts). The rocket (U+1F680) is in Symbola and Noto
// Color Emoji but not in DejaVu Sans, the text's font (which has a few
// smileys); without the pool's fontconfig LibreOffice picks the colour
// font and the PDF shows nothing there.
func TestEmojiOutlineFont(t *testing.T) {
	requireTools(t, "soffice", "pdffonts")
	if out, err := exec.Command("fc-list", ":family=Symbola").Output(); err != nil || len(bytes.TrimSpace(out)) == 0 {
		testdoc.Missing(t, "the Symbola font (Debian: fonts-symbola)")
	}
	doc := writeZip(t, filepath.Join(t.TempDir(), "emoji.docx"), docxParts([]string{"Launched \U0001F680 on time"}), false)
	for _, engine := range []string{EngineBatch, EngineWarm} {
		t.Run(engine, func(t *testing.T) {
			var pool *Pool
			if engine == EngineWarm {
				pool = newTestWarmPool(t, PoolOptions{Workers: 1})
			} else {
				pool = newTestPool(t, PoolOptions{Workers: 1})
			}
			pdf, err := pool.ConvertPDF(context.Background(), doc)
			if err != nil {
				t.Fatal(err)
			}
			defer os.Remove(pdf)
			out, err := exec.Command("pdffonts", pdf).CombinedOutput()
			if err != nil {
				t.Fatalf("pdffonts: %v: %s", err, out)
			}
			if !strings.Contains(string(out), "Symbola") || strings.Contains(string(out), "ColorEmoji") {
				t.Errorf("the emoji was not drawn from Symbola; fonts of the PDF:\n%s", out)
			}
		})
	}
}
