package pptx_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/editaudit/editaudit/formats"
	"github.com/editaudit/editaudit/formats/pptx"
	"github.com/editaudit/editaudit/internal/testdoc"
)

// corpusDir returns $EDITAUDIT_CORPUS: a skip without it, a failure under CI.
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
// (grep -o '<a:p[ >/]', '<a:r[ >/]', '<a:tbl[ >/]' over ppt/slides/*.xml,
// the p:sldId entries of ppt/presentation.xml, ppt/notesSlides/*.xml; in
// these decks every slide part is listed once), and that no real deck
// carries a PowerPoint finding above info (docs/validation.md, PowerPoint).
func TestCorpusCounts(t *testing.T) {
	dir := corpusDir(t)
	want := map[string]formats.Counts{
		"oxsdk_2006Calendar.potx":                {"slides": 12, "paragraphs": 600, "runs": 461, "tables": 12, "notes": 12},
		"poi_real-deck-HowWeRefactor.pptx":       {"slides": 28, "paragraphs": 2251, "runs": 843, "tables": 2, "notes": 27},
		"pptx_tbl-cell.pptx":                     {"slides": 3, "paragraphs": 54, "runs": 20, "tables": 4, "notes": 0},
		"oxsdk_Pitchbook.potx":                   {"slides": 6, "paragraphs": 221, "runs": 212, "tables": 2, "notes": 6},
		"poi_stress021.pptx":                     {"slides": 41, "paragraphs": 1012, "runs": 1059, "tables": 10, "notes": 1},
		"onlyoffice_sample.pptx":                 {"slides": 8, "paragraphs": 30, "runs": 44, "tables": 0, "notes": 8},
		"docxtemplater_expected-a16-row-id.pptx": {"slides": 1, "paragraphs": 10, "runs": 26, "tables": 1, "notes": 0},
		"pptx_no-slides.pptx":                    {"slides": 0, "paragraphs": 0, "runs": 0, "tables": 0, "notes": 0},
	}
	for name, w := range want {
		rep := inspectFile(t, filepath.Join(dir, "pptx", name))
		for k, v := range w {
			if rep.Counts[k] != v {
				t.Errorf("%s: %s = %d, want %d", name, k, rep.Counts[k], v)
			}
		}
		if len(rep.Sites) != w["slides"] {
			t.Errorf("%s: %d sites for %d slides", name, len(rep.Sites), w["slides"])
		}
	}
}

// TestCorpusHealthy: no real deck gets a fatal finding, and none gets a
// PowerPoint finding above info (docs/validation.md lists what they carry).
func TestCorpusHealthy(t *testing.T) {
	dir := corpusDir(t)
	files, _ := filepath.Glob(filepath.Join(dir, "pptx", "*"))
	if len(files) == 0 {
		t.Fatalf("no decks in %s/pptx", dir)
	}
	for _, f := range files {
		rep := inspectFile(t, f)
		for _, fd := range rep.Findings {
			if fd.Grade == formats.Fatal {
				t.Errorf("%s: healthy deck has a fatal finding: %s", filepath.Base(f), fd)
			}
			if len(fd.Code) > 5 && fd.Code[:5] == "pptx." && fd.Grade.Rank() < formats.Info.Rank() {
				t.Errorf("%s: unexpected PowerPoint finding above info: %s", filepath.Base(f), fd)
			}
		}
	}
}

// TestCorpusBroken: the python-pptx fixture whose slide layout lost its
// .rels gets the layout finding (a warning: see docs/validation.md).
func TestCorpusBroken(t *testing.T) {
	dir := corpusDir(t)
	rep := inspectFile(t, filepath.Join(dir, "broken", "pptx_missing_rels_item.pptx"))
	found := false
	for _, f := range rep.Findings {
		if f.Code == pptx.CodeLayoutNoMaster && f.Part == "ppt/slideLayouts/slideLayout11.xml" && f.Grade == formats.Warning {
			found = true
		}
	}
	if !found {
		t.Errorf("no %s for slideLayout11: %v", pptx.CodeLayoutNoMaster, rep.Findings)
	}
}

// BenchmarkInspect measures the whole inspection (open, PowerPoint checks
// and counts, the core's remaining checks) of a typical real deck.
func BenchmarkInspect(b *testing.B) {
	dir := corpusDir(b)
	for _, name := range []string{"oxsdk_typical-deck.pptx", "poi_real-deck-aascu-5864.pptx"} {
		data, err := os.ReadFile(filepath.Join(dir, "pptx", name))
		if err != nil {
			b.Fatal(err)
		}
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				inspectBytes(b, data)
			}
		})
		// The same without the PowerPoint inspector: the core alone scans
		// every part generically; the difference is this package's cost.
		b.Run(name+"/core-only", func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				p, err := formats.Open(context.Background(), bytes.NewReader(data), int64(len(data)), name, formats.DefaultLimits())
				if err != nil {
					b.Fatal(err)
				}
				if err := p.ScanRest(context.Background()); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
