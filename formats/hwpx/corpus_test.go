package hwpx_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/editaudit/editaudit/formats"
	"github.com/editaudit/editaudit/formats/hwpx"
	"github.com/editaudit/editaudit/internal/testdoc"
)

func corpusDir(tb testing.TB) string {
	tb.Helper()
	return testdoc.Corpus(tb)
}

func inspectFile(tb testing.TB, path string) *formats.Report {
	tb.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	return inspectBytes(tb, data)
}

// TestCorpusCounts asserts counts verified independently with unzip + grep
// (Contents/section*.xml parts, secCnt in Contents/header.xml,
// grep -o '<hp:p[ >/]' and '<hp:tbl[ >/]' over the sections); they also
// match the [auto:] counts of the corpus's SOURCES.md.
func TestCorpusCounts(t *testing.T) {
	dir := corpusDir(t)
	want := map[string]formats.Counts{
		"hwpxlib_error-20230728.hwpx":          {"sections": 3, "paragraphs": 1773, "tables": 44},
		"pyhwpx_mfds_admin_notice.hwpx":        {"sections": 4, "paragraphs": 170, "tables": 3},
		"pyhwpx_gov_donation_report_form.hwpx": {"sections": 1, "paragraphs": 1856, "tables": 56},
		"hwpxlib_error-20230818.hwpx":          {"sections": 1, "paragraphs": 453, "tables": 8},
		"pyhwpx_form_002.hwpx":                 {"sections": 1, "paragraphs": 644, "tables": 15},
	}
	for name, w := range want {
		rep := inspectFile(t, filepath.Join(dir, "hwpx", name))
		for k, v := range w {
			if rep.Counts[k] != v {
				t.Errorf("%s: %s = %d, want %d", name, k, rep.Counts[k], v)
			}
		}
		if len(rep.Sites) != w["sections"] {
			t.Errorf("%s: %d sites for %d sections", name, len(rep.Sites), w["sections"])
		}
	}
}

// TestCorpusHealthy: no real document gets a fatal finding, and the only
// Hangul findings they carry are info (docs/validation.md, Hangul).
func TestCorpusHealthy(t *testing.T) {
	dir := corpusDir(t)
	files, _ := filepath.Glob(filepath.Join(dir, "hwpx", "*"))
	if len(files) == 0 {
		t.Fatalf("no documents in %s/hwpx", dir)
	}
	for _, f := range files {
		rep := inspectFile(t, f)
		for _, fd := range rep.Findings {
			if fd.Grade != formats.Info {
				t.Errorf("%s: healthy document has %s", filepath.Base(f), fd)
			}
		}
	}
}

// TestCorpusBroken: what each broken HWPX file gets (docs/validation.md).
func TestCorpusBroken(t *testing.T) {
	dir := corpusDir(t)
	tests := []struct {
		file  string
		code  string
		grade formats.Grade
	}{
		{"pyhwpx_irb_form_blank.hwpx", hwpx.CodeHeaderMissing, formats.Fatal},
		{"pyhwpx_irb_form_blank.hwpx", hwpx.CodeRootfile, formats.Warning},
		{"hwpxfill_filled_notice_marine.hwpx", formats.CodeZipEntryName, formats.Fatal},
		{"hwpxfill_filled_notice_marine.hwpx", hwpx.CodeMimetypeLayout, formats.Warning},
		{"pyhwpx_hwpxlib-error-20251107_re.hwpx", hwpx.CodeMimetypeLayout, formats.Warning},
	}
	for _, tc := range tests {
		rep := inspectFile(t, filepath.Join(dir, "broken", tc.file))
		found := false
		for _, f := range rep.Findings {
			if f.Code == tc.code && f.Grade == tc.grade {
				found = true
			}
		}
		if !found {
			t.Errorf("%s: no %s %s among %v", tc.file, tc.grade, tc.code, rep.Findings)
		}
	}
	// The backslash-named package is still counted through its intended
	// part names (338 hp:p and 19 hp:tbl, counted with Python's zipfile in
	// its entry Contents\section0.xml).
	rep := inspectFile(t, filepath.Join(dir, "broken", "hwpxfill_filled_notice_marine.hwpx"))
	if rep.Counts["sections"] != 1 || rep.Counts["paragraphs"] != 338 || rep.Counts["tables"] != 19 {
		t.Errorf("marine counts %v", rep.Counts)
	}
	for _, f := range rep.Findings {
		if strings.HasPrefix(f.Code, "hwpx.") && f.Grade == formats.Fatal {
			t.Errorf("marine: the normalized names should satisfy the container checks: %s", f)
		}
	}
}
