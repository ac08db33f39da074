package render

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
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

// TestConvertToRecalc: the Pool converts to another format, and with
// Recalc the profile makes LibreOffice recalculate on load: the stale
// cached 999 becomes 3; without Recalc LibreOffice keeps it (its default,
// OOXMLRecalcMode 1, "never"). Both kinds in one pool, alternating.
func TestConvertToRecalc(t *testing.T) {
	requireTools(t, "soffice")
	pool := newTestPool(t, PoolOptions{Workers: 1})
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
