package synth_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/editaudit/editaudit/internal/testdoc"
	"github.com/editaudit/editaudit/render"
	"github.com/editaudit/editaudit/synth"
	"github.com/editaudit/editaudit/synth/synthtest"
)

// officePool starts a real LibreOffice pool (skipped without soffice
// outside CI) for the tests of this file: the batch engine.
func officePool(t *testing.T) *render.Pool {
	t.Helper()
	return enginePool(t, render.EngineBatch)
}

// enginePool starts a real LibreOffice pool of the engine (EngineBatch or
// EngineWarm; the warm one needs python3-uno).
func enginePool(t *testing.T, engine string) *render.Pool {
	t.Helper()
	if testing.Short() {
		t.Skip("LibreOffice tests are long")
	}
	testdoc.Tool(t, "soffice")
	start := render.NewPool
	if engine == render.EngineWarm {
		start = render.NewWarmPool
	}
	pool, err := start(context.Background(), render.PoolOptions{Workers: 1, TempDir: t.TempDir()})
	if errors.Is(err, render.ErrNoRenderer) {
		testdoc.Missing(t, "LibreOffice ("+engine+" engine): "+err.Error())
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { pool.Close() })
	return pool
}

func exampleSpec(t *testing.T, name string) *synth.Spec {
	t.Helper()
	for _, p := range synthtest.ExampleSpecs(t) {
		if filepath.Base(p) == name+".json" {
			return synthtest.LoadSpec(t, p)
		}
	}
	t.Fatalf("no example %s", name)
	return nil
}

// sheetCell returns the <c> element of ref in a worksheet part, as text.
func sheetCell(t *testing.T, data []byte, part, ref string) string {
	t.Helper()
	xml := string(testdoc.Unzip(t, data)[part])
	m := regexp.MustCompile(`<c r="` + ref + `"[^>]*?(/>|>.*?</c>)`).FindString(xml)
	if m == "" {
		t.Fatalf("%s: no cell %s", part, ref)
	}
	return m
}

// TestRecalcWithLibreOffice: --recalc gives formula cells the values
// LibreOffice computed (SUM, IFS, TEXTJOIN, a text result, a boolean),
// keeps the file's own structure, says which cells LibreOffice 7 could not
// compute (XLOOKUP, LET, UNIQUE), and the result still passes the
// self-check and is byte-stable. Both engines: the batch one recalculates
// on load, the warm one (what `editaudit synth --recalc` gets where
// python3-uno is installed) with calculateAll on a running LibreOffice.
// The two engines' workbooks are the same bytes.
func TestRecalcWithLibreOffice(t *testing.T) {
	got := map[string][]byte{}
	for _, engine := range []string{render.EngineBatch, render.EngineWarm} {
		t.Run(engine, func(t *testing.T) { got[engine] = testRecalc(t, enginePool(t, engine)) })
	}
	if b, w := got[render.EngineBatch], got[render.EngineWarm]; b != nil && w != nil && string(b) != string(w) {
		t.Errorf("the batch and warm engines recalculated the workbook differently")
	}
}

func testRecalc(t *testing.T, pool *render.Pool) []byte {
	ctx := context.Background()
	spec := exampleSpec(t, "workbook")
	plain, err := synth.Build(ctx, spec, synth.BuildOptions{Options: synth.Options{Fixtures: true}})
	if err != nil {
		t.Fatal(err)
	}
	opts := synth.BuildOptions{Options: synth.Options{Fixtures: true}, Recalc: true, Exporter: pool}
	res, err := synth.Build(ctx, spec, opts)
	if err != nil {
		t.Fatal(err)
	}
	// G2 = SUM(C2:F2) = 120+135+150+160.
	if c := sheetCell(t, res.Data, "xl/worksheets/sheet1.xml", "G2"); !strings.Contains(c, "<v>565</v>") || strings.Contains(c, `t="str"`) {
		t.Errorf("G2 after recalc: %s", c)
	}
	if c := sheetCell(t, plain.Data, "xl/worksheets/sheet1.xml", "G2"); strings.Contains(c, "<v>") {
		t.Errorf("G2 without recalc already has a value: %s", c)
	}
	var computed, notes int
	for _, c := range regexp.MustCompile(`<c [^>]*>(<f[^>]*>[^<]*</f>)(<v>[^<]*</v>)?</c>`).FindAllStringSubmatch(string(testdoc.Unzip(t, res.Data)["xl/worksheets/sheet2.xml"]), -1) {
		if c[2] != "" {
			computed++
		}
	}
	if computed == 0 {
		t.Errorf("no formula cell of the Summary sheet got a value")
	}
	for _, n := range res.Notes {
		if strings.Contains(n, "keep no cached value") {
			notes++
			t.Log(n)
		}
	}
	if notes != 1 {
		t.Errorf("notes %q: want one naming the cells LibreOffice could not compute", res.Notes)
	}
	for _, part := range []string{"xl/metadata.xml", "xl/tables/table1.xml", "xl/charts/chart1.xml"} {
		if _, ok := testdoc.Unzip(t, res.Data)[part]; !ok {
			t.Errorf("recalc lost %s", part)
		}
	}
	again, err := synth.Build(ctx, spec, opts)
	if err != nil || string(again.Data) != string(res.Data) {
		t.Errorf("two recalculations differ (err %v)", err)
	}
	return res.Data
}

// TestToPDFWithLibreOffice: --to pdf writes LibreOffice's PDF with the
// page count Build reports: the deck has one page per slide, the contract
// three pages; pages are counted for documents too.
func TestToPDFWithLibreOffice(t *testing.T) {
	pool := officePool(t)
	ctx := context.Background()
	for _, tc := range []struct {
		name  string
		pages int
	}{{"deck", 6}, {"contract", 3}} {
		spec := exampleSpec(t, tc.name)
		res, err := synth.Build(ctx, spec, synth.BuildOptions{Options: synth.Options{Fixtures: true}, To: "pdf", Converter: pool})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if res.Format != "pdf" || !strings.HasPrefix(string(res.Data), "%PDF-") {
			t.Fatalf("%s: not a PDF (%s, %q)", tc.name, res.Format, res.Data[:min(8, len(res.Data))])
		}
		pdf := filepath.Join(t.TempDir(), tc.name+".pdf")
		os.WriteFile(pdf, res.Data, 0o644)
		n, err := render.CountPDFPages(ctx, pdf)
		if err != nil {
			t.Fatal(err)
		}
		if n != tc.pages || res.Pages != tc.pages {
			t.Errorf("%s: %d pages in the PDF, %d reported, want %d", tc.name, n, res.Pages, tc.pages)
		}
		doc, err := synth.Build(ctx, spec, synth.BuildOptions{Options: synth.Options{Fixtures: true}, Converter: pool})
		if err != nil || doc.Format != spec.Format || doc.Pages != tc.pages {
			t.Errorf("%s as %s: %d pages, err %v", tc.name, spec.Format, doc.Pages, err)
		}
	}
	// Over the page cap: a spec error at the body, with the cap.
	var body []synth.Block
	for i := 0; i <= synth.MaxPages; i++ {
		body = append(body, synth.Block{PageBreak: true})
	}
	_, err := synth.Build(ctx, &synth.Spec{Format: "docx", Docx: &synth.DocxSpec{Body: body}}, synth.BuildOptions{Converter: pool})
	var se *synth.SpecErrors
	if !errors.As(err, &se) || se.Errors[0].Path != "$.docx.body" || se.Errors[0].Cap != synth.MaxPages {
		t.Errorf("a %d-page document: err = %v, want a spec error at $.docx.body with the cap %d", synth.MaxPages+1, err, synth.MaxPages)
	}
}
