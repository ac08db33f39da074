package docx_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/editaudit/editaudit/formats"
	"github.com/editaudit/editaudit/formats/docx"
	"github.com/editaudit/editaudit/formats/inspect"
)

// corpusDir returns $EDITAUDIT_CORPUS or skips the test.
func corpusDir(t testing.TB) string {
	t.Helper()
	dir := os.Getenv("EDITAUDIT_CORPUS")
	if dir == "" {
		t.Skip("EDITAUDIT_CORPUS not set")
	}
	return dir
}

// TestCorpusCounts asserts the structure counts of real files against
// numbers verified independently: a Python counter over the unzipped
// parts (ElementTree DOM, w:p/w:tbl/w:tr/w:tc anywhere in the main part and
// its header/footer/footnotes/endnotes/comments parts, mc:Fallback and
// second mc:Choice branches skipped) — see VALIDATION.md. Where a raw grep
// of "<w:p " differs, the difference is exactly the paragraphs of VML
// fallback text boxes, also listed there.
func TestCorpusCounts(t *testing.T) {
	dir := corpusDir(t)
	type c = formats.Counts
	cases := []struct {
		file string
		want formats.Counts
	}{
		{"oxsdk_complex-table-nested8.docx", c{"tables": 8, "rows": 16, "cells": 32, "paragraphs": 33, "nested_tables": 7}},
		{"docxtemplater_table-in-table-corruption.docx", c{"tables": 2, "rows": 4, "cells": 8, "paragraphs": 18, "nested_tables": 1}},
		{"pydocx_tbl-cell-access.docx", c{"tables": 4, "rows": 12, "cells": 33, "paragraphs": 37, "nested_tables": 0}},
		{"oxsdk_table-2007.docx", c{"tables": 9, "rows": 99, "cells": 520, "paragraphs": 724, "nested_tables": 0}},
		{"docxtpl_nested_for_tpl.docx", c{"tables": 0, "rows": 0, "cells": 0, "paragraphs": 18, "nested_tables": 0}},
		{"pydocx_blk-paras-and-tables.docx", c{"tables": 6, "rows": 8, "cells": 12, "paragraphs": 23, "nested_tables": 1}},
		{"oxsdk_EquityFax.dotx", c{"tables": 7, "rows": 13, "cells": 36, "paragraphs": 52, "nested_tables": 5}},
		{"oxsdk_EventSchedulePlanner.dotx", c{"tables": 15, "rows": 122, "cells": 688, "paragraphs": 692, "nested_tables": 14}},
		{"poi_drawing.docx", c{"tables": 12, "rows": 18, "cells": 25, "paragraphs": 227, "nested_tables": 7}},
		{"mammoth_text-box.docx", c{"tables": 0, "rows": 0, "cells": 0, "paragraphs": 2, "nested_tables": 0}},
		{"onlyoffice_sample.docx", c{"tables": 0, "rows": 0, "cells": 0, "paragraphs": 21, "nested_tables": 0}},
		{"oxsdk_Comment042.docx", c{"tables": 0, "rows": 0, "cells": 0, "paragraphs": 41, "nested_tables": 0}},
		{"poi_bug65649.docx", c{"tables": 21, "rows": 2304, "cells": 13367, "paragraphs": 15948, "nested_tables": 0}},
		{"mammoth_strict-format.docx", c{"tables": 0, "rows": 0, "cells": 0, "paragraphs": 1, "nested_tables": 0}},
	}
	for _, tc := range cases {
		t.Run(tc.file, func(t *testing.T) {
			rep, err := inspect.File(context.Background(), filepath.Join(dir, "docx", tc.file), inspect.Options{})
			if err != nil {
				t.Fatal(err)
			}
			for k, v := range tc.want {
				if rep.Counts[k] != v {
					t.Errorf("%s = %d, want %d", k, rep.Counts[k], v)
				}
			}
		})
	}
}

// TestCorpusHealthyDocx: no healthy real Word file gets a fatal finding
// from the Word checks (a check that flags a file Word opens is wrong, or
// its grade is). Findings above info are logged; VALIDATION.md explains
// each.
func TestCorpusHealthyDocx(t *testing.T) {
	dir := corpusDir(t)
	files, _ := filepath.Glob(filepath.Join(dir, "docx", "*"))
	if len(files) == 0 {
		t.Fatalf("no files in %s/docx", dir)
	}
	for _, f := range files {
		rep, err := inspect.File(context.Background(), f, inspect.Options{})
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		if rep.Format != formats.DOCX {
			t.Errorf("%s: detected %s", filepath.Base(f), rep.Format)
		}
		for _, k := range []string{docx.MetricTables, docx.MetricRows, docx.MetricCells, docx.MetricParagraphs, docx.MetricNestedTables} {
			if _, ok := rep.Counts[k]; !ok {
				t.Errorf("%s: no %s count", filepath.Base(f), k)
			}
		}
		for _, fd := range rep.Findings {
			if fd.Grade == formats.Fatal {
				t.Errorf("%s: healthy file has a fatal finding: %s", filepath.Base(f), fd)
			}
			if fd.Grade.Rank() < formats.Info.Rank() {
				t.Logf("%s: %s", filepath.Base(f), fd)
			}
		}
	}
}

// TestCorpusBrokenDocx logs what the checks say on the broken Word files
// (recorded in VALIDATION.md) and asserts the Word-level findings there.
func TestCorpusBrokenDocx(t *testing.T) {
	dir := corpusDir(t)
	files, _ := filepath.Glob(filepath.Join(dir, "broken", "*.do[ct][xm]"))
	if len(files) == 0 {
		t.Fatalf("no Word files in %s/broken", dir)
	}
	for _, f := range files {
		rep, err := inspect.File(context.Background(), f, inspect.Options{})
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		if len(rep.Findings) == 0 {
			t.Errorf("%s: a broken file without findings", filepath.Base(f))
		}
		for _, fd := range rep.Findings {
			t.Logf("%s: %s", filepath.Base(f), fd)
		}
	}
}
