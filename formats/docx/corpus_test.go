package docx_test

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/editaudit/editaudit/formats"
	"github.com/editaudit/editaudit/formats/docx"
	"github.com/editaudit/editaudit/formats/inspect"
	"github.com/editaudit/editaudit/internal/testdoc"
)

// corpusDir returns $EDITAUDIT_CORPUS: a skip without it, a failure under CI.
func corpusDir(t testing.TB) string {
	t.Helper()
	return testdoc.Corpus(t)
}

// TestCorpusCounts asserts the structure counts of real files against
// numbers verified independently: a Python counter over the unzipped
// parts (ElementTree DOM, w:p/w:tbl/w:tr/w:tc anywhere in the main part and
// its header/footer/footnotes/endnotes/comments parts, mc:Fallback and
// second mc:Choice branches skipped) — see docs/validation.md. Where a raw grep
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
	// The per-part breakdown of two files (same independent counter).
	parts := map[string]map[string]formats.Counts{
		"pydocx_blk-paras-and-tables.docx": {
			"word/document.xml":  {"tables": 4, "rows": 6, "cells": 8, "paragraphs": 12, "nested_tables": 1},
			"word/header1.xml":   {"tables": 1, "rows": 1, "cells": 2, "paragraphs": 3},
			"word/footer1.xml":   {"tables": 1, "rows": 1, "cells": 2, "paragraphs": 4},
			"word/footnotes.xml": {"paragraphs": 2},
			"word/endnotes.xml":  {"paragraphs": 2},
		},
		"docxtemplater_table-in-table-corruption.docx": {
			"word/document.xml": {"tables": 2, "rows": 4, "cells": 8, "paragraphs": 10, "nested_tables": 1},
			"word/header1.xml":  {"paragraphs": 4},
		},
	}
	for file, want := range parts {
		rep, err := inspect.File(context.Background(), filepath.Join(dir, "docx", file), inspect.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if len(rep.Parts) != len(want) && file == "pydocx_blk-paras-and-tables.docx" {
			t.Errorf("%s: %d parts counted, want %d: %v", file, len(rep.Parts), len(want), rep.Parts)
		}
		for part, wc := range want {
			for _, k := range []string{"tables", "rows", "cells", "paragraphs", "nested_tables"} {
				if rep.Parts[part][k] != wc[k] {
					t.Errorf("%s %s: %s = %d, want %d", file, part, k, rep.Parts[part][k], wc[k])
				}
			}
		}
	}
}

// TestCorpusHealthyDocx: no healthy real Word file gets a fatal finding
// from the Word checks (a check that flags a file Word opens is wrong, or
// its grade is). Findings above info are logged; docs/validation.md explains
// each.
func TestCorpusHealthyDocx(t *testing.T) {
	dir := corpusDir(t)
	files := testdoc.CorpusGlob(t, "docx/*")
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
// (recorded in docs/validation.md) and asserts the Word-level findings: the
// package-level defects of the other broken files are the core's.
func TestCorpusBrokenDocx(t *testing.T) {
	dir := corpusDir(t)
	want := map[string][]string{ // file → Word codes that must be among the findings
		"oxsdk_5Errors.docx":       {docx.CodePropOrder}, // w:pPr in w:pPr, a second w:rPr in a run
		"poi_MultipleBodyBug.docx": {docx.CodeMultipleBody},
	}
	files := testdoc.CorpusGlob(t, "broken/*.do[ct][xm]")
	if len(files) == 0 {
		t.Fatalf("no Word files in %s/broken", dir)
	}
	for _, f := range files {
		base := filepath.Base(f)
		rep, err := inspect.File(context.Background(), f, inspect.Options{})
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		codes := map[string]bool{}
		for _, fd := range rep.Findings {
			codes[fd.Code] = true
			t.Logf("%s: %s", base, fd)
		}
		for _, c := range want[base] {
			if !codes[c] {
				t.Errorf("%s: no %s finding", base, c)
			}
		}
	}
}

// readZip returns the entries of a zip file in order.
func readZip(t *testing.T, path string) (names []string, parts map[string]string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	parts = map[string]string{}
	for _, p := range testdoc.Entries(t, data) {
		names = append(names, p.Name)
		parts[p.Name] = p.Data
	}
	return names, parts
}

// cellSpan returns the byte range of the first w:tc element in s
// (matching nested w:tc by depth).
func cellSpan(s string) (start, end int) {
	start = strings.Index(s, "<w:tc>")
	depth := 0
	for i := start; i < len(s); i++ {
		switch {
		case strings.HasPrefix(s[i:], "<w:tc>") || strings.HasPrefix(s[i:], "<w:tc "):
			depth++
		case strings.HasPrefix(s[i:], "</w:tc>"):
			depth--
			if depth == 0 {
				return start, i + len("</w:tc>")
			}
		}
	}
	return -1, -1
}

// TestCorpusEdits applies two damaging edits to a real file with tables
// nested 8 deep: deleting the paragraph after a nested table (Word's
// "Ambiguous cell mapping"), and python-docx's cell.text setter, which
// replaces a cell's content, nested tables included, by one paragraph.
func TestCorpusEdits(t *testing.T) {
	dir := corpusDir(t)
	names, parts := readZip(t, filepath.Join(dir, "docx", "oxsdk_complex-table-nested8.docx"))
	doc := parts["word/document.xml"]
	rezip := func(doc string) []byte {
		var ps []testdoc.Part
		for _, n := range names {
			body := parts[n]
			if n == "word/document.xml" {
				body = doc
			}
			ps = append(ps, testdoc.Part{Name: n, Data: body})
		}
		return testdoc.Zip(ps...)
	}
	inspectDoc := func(doc string) *formats.Report {
		rep, err := inspect.Bytes(context.Background(), rezip(doc), "edited.docx", inspect.Options{})
		if err != nil {
			t.Fatal(err)
		}
		return rep
	}

	// 1. The paragraph closing the innermost cell that holds a table.
	re := regexp.MustCompile(`</w:tbl><w:p [^>]*/></w:tc>`)
	loc := re.FindStringIndex(doc)
	if loc == nil {
		t.Fatal("pattern not found")
	}
	rep := inspectDoc(doc[:loc[0]] + "</w:tbl></w:tc>" + doc[loc[1]:])
	var tc []formats.Finding
	for _, f := range rep.Findings {
		if f.Code == docx.CodeTcNoFinalP {
			tc = append(tc, f)
		}
	}
	if len(tc) != 1 || tc[0].Grade != formats.Fatal || !strings.Contains(tc[0].Message, "ends with a nested table") ||
		!strings.HasPrefix(tc[0].Message, "body table 1, row 1, cell 1, table 1, row 1, cell 1, table 1") {
		t.Errorf("after deleting the closing paragraph: %v", tc)
	}

	// 2. cell.text = "…" on the outer cell holding all 7 nested tables.
	before := inspectDoc(doc)
	s, e := cellSpan(doc)
	wiped := doc[:s] + `<w:tc><w:p><w:r><w:t>new text</w:t></w:r></w:p></w:tc>` + doc[e:]
	after := inspectDoc(wiped)
	if after.Fatal() {
		t.Errorf("the wipe is valid XML and must not be fatal: %v", after.Findings)
	}
	if before.Counts["tables"] != 8 || after.Counts["tables"] != 1 || after.Counts["nested_tables"] != 0 ||
		after.Counts["rows"] >= before.Counts["rows"] {
		t.Errorf("counts before %v, after %v", before.Counts, after.Counts)
	}
	sites := func(r *formats.Report) map[string]formats.Counts {
		m := map[string]formats.Counts{}
		for _, s := range r.Sites {
			m[s.Where] = s.Counts
		}
		return m
	}
	sb, sa := sites(before), sites(after)
	if c := sb["body table 1, row 1, cell 1"]; c["tables"] != 7 {
		t.Errorf("cell site before the wipe: %v", c)
	}
	if _, ok := sa["body table 1, row 1, cell 1"]; ok {
		t.Errorf("the wiped cell still has a nested-table site")
	}
	if sb["body table 1"]["nested_tables"] != 7 || sa["body table 1"]["nested_tables"] != 0 {
		t.Errorf("table site before %v, after %v", sb["body table 1"], sa["body table 1"])
	}
}
