package synth_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"

	"github.com/editaudit/editaudit/synth"
)

// TestCapsTable: the caps table of docs/synth.md states every cap with the
// value the code enforces.
func TestCapsTable(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "docs", "synth.md"))
	if err != nil {
		t.Fatal(err)
	}
	caps := map[string]int{
		"MaxSpecBytes": synth.MaxSpecBytes, "MaxBlocks": synth.MaxBlocks, "MaxTotalBlocks": synth.MaxTotalBlocks,
		"MaxRuns": synth.MaxRuns, "MaxTotalRuns": synth.MaxTotalRuns, "MaxTextLen": synth.MaxTextLen, "MaxTitleLen": synth.MaxTitleLen,
		"MaxTotalText": synth.MaxTotalText, "MaxRows": synth.MaxRows, "MaxCells": synth.MaxCells,
		"MaxTotalCells": synth.MaxTotalCells, "MaxNesting": synth.MaxNesting, "MaxListItems": synth.MaxListItems,
		"MaxImageBytes": synth.MaxImageBytes, "MaxTotalImage": synth.MaxTotalImage, "MaxImagePixels": synth.MaxImagePixels,
		"MaxImagePoints": synth.MaxImagePoints, "MaxSlides": synth.MaxSlides, "MaxSlideParas": synth.MaxSlideParas,
		"MaxSlideRows": synth.MaxSlideRows, "MaxSheets": synth.MaxSheets, "MaxSheetRows": synth.MaxSheetRows,
		"MaxSheetCols": synth.MaxSheetCols, "MaxSheetCells": synth.MaxSheetCells, "MaxSheetItems": synth.MaxSheetItems,
		"MaxFormulaLen": synth.MaxFormulaLen, "MaxCharts": synth.MaxCharts, "MaxChartSeries": synth.MaxChartSeries,
		"MaxChartPoints": synth.MaxChartPoints, "MaxSections": synth.MaxSections, "MaxValidationList": synth.MaxValidationList,
		"MaxPages": synth.MaxPages, "MaxListedErrors": synth.MaxListedErrors,
	}
	seen := map[string]bool{}
	for _, m := range regexp.MustCompile("(?m)^\\| `(Max[A-Za-z]+)` \\| ([0-9]+) \\|").FindAllStringSubmatch(string(doc), -1) {
		want, ok := caps[m[1]]
		if !ok {
			t.Errorf("docs/synth.md lists %s, which synth does not define", m[1])
			continue
		}
		if got, _ := strconv.Atoi(m[2]); got != want {
			t.Errorf("docs/synth.md: %s = %d, the code says %d", m[1], got, want)
		}
		seen[m[1]] = true
	}
	for name := range caps {
		if !seen[name] {
			t.Errorf("docs/synth.md's caps table lacks %s", name)
		}
	}
}
