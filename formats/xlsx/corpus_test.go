package xlsx_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/editaudit/editaudit/formats"
	"github.com/editaudit/editaudit/formats/inspect"
	"github.com/editaudit/editaudit/formats/xlsx"
	"github.com/editaudit/editaudit/internal/testdoc"
)

// corpusDir returns $EDITAUDIT_CORPUS: a skip without it, a failure under CI.
func corpusDir(t testing.TB) string {
	t.Helper()
	return testdoc.Corpus(t)
}

// TestCorpusHealthy: the real workbooks all open in Excel, so none may get
// a fatal finding, and none gets an xlsx.* finding above info (docs/validation.md
// lists what the package-level checks report on them). With -v it lists
// every finding above info.
func TestCorpusHealthy(t *testing.T) {
	dir := corpusDir(t)
	files, _ := filepath.Glob(filepath.Join(dir, "xlsx", "*"))
	if len(files) == 0 {
		t.Fatal("no files in xlsx/")
	}
	for _, f := range files {
		base := filepath.Base(f)
		rep, err := inspect.File(context.Background(), f, inspect.Options{})
		if err != nil {
			t.Fatalf("%s: %v", base, err)
		}
		if rep.Format != formats.XLSX {
			t.Errorf("%s: detected %s", base, rep.Format)
		}
		for _, k := range []string{xlsx.KeySheets, xlsx.KeyCharts, xlsx.KeyImages, xlsx.KeyTables, xlsx.KeyDefinedNames,
			xlsx.KeyDataValidations, xlsx.KeyConditionalFormats, xlsx.KeyMergedRanges} {
			if _, ok := rep.Counts[k]; !ok {
				t.Errorf("%s: counts lack %q", base, k)
			}
		}
		if len(rep.Sites) != rep.Counts[xlsx.KeySheets] {
			t.Errorf("%s: %d sites for %d sheets", base, len(rep.Sites), rep.Counts[xlsx.KeySheets])
		}
		for _, fd := range rep.Findings {
			if fd.Grade.Rank() > formats.Warning.Rank() {
				continue
			}
			t.Logf("%s: %s", base, fd)
			if fd.Grade == formats.Fatal {
				t.Errorf("%s: healthy workbook has a fatal finding: %s", base, fd)
			}
			if strings.HasPrefix(fd.Code, "xlsx.") {
				t.Errorf("%s: healthy workbook has %s (add it to docs/validation.md with the reason, or fix the check)", base, fd)
			}
		}
	}
}

// verified holds counts checked independently with unzip and grep
// (sheets: <sheet in workbook.xml; defined_names: <definedName; tables:
// <tablePart in worksheets; data_validations: <dataValidation;
// conditional_formats: <conditionalFormatting outside x14; merged_ranges:
// <mergeCell; charts: <c:chart r:id in drawings; images: <xdr:pic in
// drawings — see docs/validation.md).
var verified = map[string]formats.Counts{
	"excelize_Book1.xlsx":                       {"sheets": 2, "defined_names": 0, "tables": 1, "data_validations": 0, "conditional_formats": 0, "merged_ranges": 1, "charts": 2, "images": 0},
	"oxsdk_StatusReport.xltx":                   {"sheets": 6, "defined_names": 2, "tables": 0, "data_validations": 1, "conditional_formats": 5, "merged_ranges": 5, "charts": 3, "images": 0},
	"poi_StructuredRefs-lots-with-lookups.xlsx": {"sheets": 5, "defined_names": 14, "tables": 3, "data_validations": 7, "conditional_formats": 12, "merged_ranges": 426, "charts": 1, "images": 0},
	"poi_stress024.xlsx":                        {"sheets": 5, "defined_names": 24, "tables": 0, "data_validations": 0, "conditional_formats": 28, "merged_ranges": 38, "charts": 2, "images": 7},
	"poi_57181.xlsm":                            {"sheets": 9, "defined_names": 213, "tables": 0, "data_validations": 0, "conditional_formats": 0, "merged_ranges": 88, "charts": 2, "images": 22},
	"oxsdk_FamilyBudget.xltx":                   {"sheets": 1, "defined_names": 1, "tables": 13, "data_validations": 0, "conditional_formats": 1, "merged_ranges": 15, "charts": 0, "images": 0},
	"poi_dataValidationTableRange.xlsx":         {"sheets": 2, "defined_names": 23, "tables": 10, "data_validations": 5, "conditional_formats": 2, "merged_ranges": 6, "charts": 1, "images": 0},
	"oxsdk_strict-xl8galry.xlsx":                {"sheets": 20, "defined_names": 0, "tables": 0, "data_validations": 0, "conditional_formats": 0, "merged_ranges": 0, "charts": 20, "images": 0},
	"onlyoffice_sample.xlsx":                    {"sheets": 1, "defined_names": 0, "tables": 0, "data_validations": 0, "conditional_formats": 0, "merged_ranges": 0, "charts": 2, "images": 1},
	"oxsdk_basicspreadsheet.xlsx":               {"sheets": 3, "defined_names": 0, "tables": 2, "data_validations": 0, "conditional_formats": 5, "merged_ranges": 1, "charts": 1, "images": 0},
	"poi_bug66675.xlsx":                         {"sheets": 2, "defined_names": 2, "tables": 0, "data_validations": 0, "conditional_formats": 0, "merged_ranges": 1654, "charts": 0, "images": 0},
}

// TestCorpusCounts asserts the independently verified counts.
func TestCorpusCounts(t *testing.T) {
	dir := corpusDir(t)
	for name, want := range verified {
		rep, err := inspect.File(context.Background(), filepath.Join(dir, "xlsx", name), inspect.Options{})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for k, v := range want {
			if rep.Counts[k] != v {
				t.Errorf("%s: %s = %d, verified %d", name, k, rep.Counts[k], v)
			}
		}
		// The sites add up to the totals.
		sum := formats.Counts{}
		for _, s := range rep.Sites {
			sum.Add(s.Counts)
		}
		for _, k := range []string{xlsx.KeyCharts, xlsx.KeyImages, xlsx.KeyTables, xlsx.KeyDataValidations, xlsx.KeyConditionalFormats, xlsx.KeyMergedRanges} {
			if sum[k] != rep.Counts[k] {
				t.Errorf("%s: sites hold %d %s, totals %d", name, sum[k], k, rep.Counts[k])
			}
		}
	}
}

// TestCorpusSites: excelize_Book1.xlsx has Sheet1 with the table and both
// charts (sheet1.xml → drawing1.xml) and Sheet2 with the merge (checked
// with unzip).
func TestCorpusSites(t *testing.T) {
	dir := corpusDir(t)
	rep, err := inspect.File(context.Background(), filepath.Join(dir, "xlsx", "excelize_Book1.xlsx"), inspect.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Sites) != 2 {
		t.Fatalf("sites %v", rep.Sites)
	}
	s := rep.Sites[0]
	if s.Where != "sheet 'Sheet1'" || s.Part != "xl/worksheets/sheet1.xml" || s.Counts[xlsx.KeyCharts] != 2 || s.Counts[xlsx.KeyTables] != 1 || s.Counts[xlsx.KeyMergedRanges] != 0 {
		t.Errorf("site 1: %+v", s)
	}
	s = rep.Sites[1]
	if s.Where != "sheet 'Sheet2'" || s.Part != "xl/worksheets/sheet2.xml" || s.Counts[xlsx.KeyCharts] != 0 || s.Counts[xlsx.KeyMergedRanges] != 1 {
		t.Errorf("site 2: %+v", s)
	}
	if rep.Parts["xl/drawings/drawing1.xml"][xlsx.KeyCharts] != 2 || rep.Parts["xl/workbook.xml"][xlsx.KeySheets] != 2 {
		t.Errorf("parts: %v", rep.Parts)
	}
}

// TestCorpusBroken: the broken workbooks are all fatal, fast; the empty
// <sheets/> of excelize_BadWorkbook.xlsx is named by xlsx.no-sheets.
func TestCorpusBroken(t *testing.T) {
	dir := corpusDir(t)
	files, _ := filepath.Glob(filepath.Join(dir, "broken", "*.xlsx"))
	if len(files) == 0 {
		t.Fatal("no broken xlsx files")
	}
	for _, f := range files {
		base := filepath.Base(f)
		start := time.Now()
		rep, err := inspect.File(context.Background(), f, inspect.Options{})
		if err != nil {
			t.Fatalf("%s: %v", base, err)
		}
		if d := time.Since(start); d > time.Second {
			t.Errorf("%s: took %v", base, d)
		}
		if !rep.Fatal() {
			t.Errorf("%s: no fatal finding: %v", base, rep.Findings)
		}
		if base == "excelize_BadWorkbook.xlsx" && len(withCode(rep.Findings, xlsx.CodeNoSheets)) != 1 {
			t.Errorf("%s: want one %s, got %v", base, xlsx.CodeNoSheets, rep.Findings)
		}
	}
}

// BenchmarkInspectTypical inspects a typical real workbook (an Excel
// template with 6 sheets, charts, pivots and 358 formulas).
func BenchmarkInspectTypical(b *testing.B) {
	dir := corpusDir(b)
	data, err := os.ReadFile(filepath.Join(dir, "xlsx", "oxsdk_StatusReport.xltx"))
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := inspect.Bytes(context.Background(), data, "StatusReport.xltx", inspect.Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkInspectLarge inspects the largest worksheet data of the corpus
// (55,245 cells, 3,087 formulas, 213 defined names).
func BenchmarkInspectLarge(b *testing.B) {
	dir := corpusDir(b)
	data, err := os.ReadFile(filepath.Join(dir, "xlsx", "poi_57181.xlsm"))
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := inspect.Bytes(context.Background(), data, "57181.xlsm", inspect.Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
