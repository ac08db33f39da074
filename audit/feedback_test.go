package audit

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/editaudit/editaudit/formats"
)

func illegalChar(i int) formats.Finding {
	return formats.Finding{Code: formats.CodeXMLIllegalChar, Grade: formats.Fatal, Part: "word/document.xml",
		Line: 2, Column: 100 + i, Locator: fmt.Sprintf("/w:document/w:body/w:p[%d]/w:r[1]/w:t", i+1),
		Message: fmt.Sprintf("Control character U+%04X in text.", i%31+1), Fix: "Remove the character."}
}

func warning(i int) formats.Finding {
	return formats.Finding{Code: formats.CodeRelsOrphanPart, Grade: formats.Warning,
		Part: fmt.Sprintf("word/media/image%d.png", i), Message: "Part is not the target of any relationship."}
}

func TestFeedback(t *testing.T) {
	tests := []struct {
		name string
		r    Result
		opts FeedbackOptions
		want []string // substrings, in this order
		not  []string
	}{
		{
			name: "blocked and restored",
			r: Result{Blocked: true, Restored: true, RejectedCopy: "rejected.docx",
				NewFindings: []formats.Finding{illegalChar(30)}},
			want: []string{
				"BLOCKED: the edit introduced 1 fatal defect; the application will refuse or repair this file. The original was restored. The rejected edit is kept as rejected.docx.\n",
				"New findings: 1 (1 fatal):\n",
				"1. fatal xml.illegal-char at word/document.xml:2:130 (/w:document/w:body/w:p[31]/w:r[1]/w:t)\n   Control character U+001F in text.\n   Fix: Remove the character.\n",
				"Structure: nothing lost.\n",
				"Pages: not compared (rendering off).",
			},
		},
		{
			name: "passed, nothing at all",
			r:    Result{Pages: Pages{Status: PagesOK, Before: 3, After: 3}},
			want: []string{"PASSED: nothing new at fatal.\nNo new findings.\nStructure: nothing lost.\nPages: 3 before, 3 after; none changed."},
			not:  []string{"original already", "restored", "fixed"},
		},
		{
			name: "two fatal, findings sorted fatal first",
			r: Result{Blocked: true, NewFindings: []formats.Finding{warning(1), illegalChar(2), illegalChar(1)},
				Preexisting: formats.Tally{Total: 411, Fatal: 9, Warning: 402}},
			want: []string{
				"introduced 2 fatal defects;",
				"New findings: 3 (2 fatal, 1 warning):",
				"1. fatal xml.illegal-char at word/document.xml:2:101",
				"2. fatal xml.illegal-char at word/document.xml:2:102",
				"3. warning rels.orphan-part at word/media/image1.png\n",
				"The original already had 411 problems, 9 fatal; they are not yours.",
			},
		},
		{
			name: "one pre-existing, resolved",
			r: Result{Preexisting: formats.Tally{Total: 1, Error: 1},
				Resolved: []formats.Finding{illegalChar(1), warning(1)}},
			want: []string{"The original already had 1 problem (not fatal); it is not yours.\nThe edit fixed 2 problems the original had (1 fatal)."},
		},
		{
			name: "finding cap stated",
			r:    Result{Blocked: true, NewFindings: many(27)},
			want: []string{"20. fatal", "… and 7 more new findings not listed (cap 20)."},
			not:  []string{"21. fatal"},
		},
		{
			name: "smaller finding cap",
			r:    Result{Blocked: true, NewFindings: many(4)},
			opts: FeedbackOptions{MaxFindings: 3},
			want: []string{"3. fatal", "… and 1 more new finding not listed (cap 3)."},
		},
		{
			name: "package-level finding, no line",
			r: Result{NewFindings: []formats.Finding{{Code: formats.CodeZipCRC, Grade: formats.Error, Message: "CRC mismatch"},
				{Code: formats.CodeCTNoType, Grade: formats.Error, Part: "ppt/slides/slide3.xml", Line: 7, Message: "no content type"}}},
			want: []string{"1. error zip.crc at the package\n   CRC mismatch", "2. error ct.no-type at ppt/slides/slide3.xml:7\n"},
		},
		{
			name: "shrunk with where",
			r: Result{Structure: Structure{Shrunk: []Shrink{
				{Metric: "tables", Before: 5, After: 1, Where: "body table 3, row 2, cell 2: 2 nested tables removed"},
				{Metric: "slides", Before: 12, After: 11}}}},
			want: []string{"Structure that shrank (never blocks; make sure the instruction asked for it):\n- tables 5 → 1 (body table 3, row 2, cell 2: 2 nested tables removed)\n- slides 12 → 11\n"},
		},
		{
			name: "pages ok with everything",
			r: Result{Pages: Pages{Status: PagesOK, Before: 10, After: 10,
				Changed: []ChangedPage{{Before: 2, After: 2, Ratio: .01}, {Before: 4, After: 3, Moved: true},
					{Before: 9, After: 9, MarginsOnly: true}},
				Inserted: []int{4}, Deleted: []int{6}, Reflowed: []Reflow{{From: 5, To: 8, Cause: 4}},
				Shown:    []ShownPage{{Before: 2, After: 2}, {After: 4}, {Before: 6}},
				NotShown: []int{9}}},
			want: []string{
				"Pages: 10 before, 10 after:\n",
				"- changed: 2.\n",
				"- only the header/footer bands changed (e.g. page numbers): 9.\n",
				"- moved, unchanged: 3 (was 4).\n",
				"- inserted: 4.\n",
				"- deleted (original numbering): 6.\n",
				"- reflowed: 5–8 (pushed by the change on page 4).\n",
				"- shown as before | after images: 2, 4 (inserted), original 6 (deleted).\n",
				"- page 9 also changed (not shown: --show 3).",
			},
		},
		{
			name: "show 0",
			r: Result{Pages: Pages{Status: PagesOK, Before: 2, After: 2,
				Changed: []ChangedPage{{Before: 1, After: 1}, {Before: 2, After: 2}}, NotShown: []int{1, 2}}},
			want: []string{"- changed: 1, 2.\n- pages 1, 2 changed (not shown: --show 0)."},
		},
		{
			name: "long page lists are capped",
			r: Result{Pages: Pages{Status: PagesOK, Before: 40, After: 60,
				Inserted: seq(21, 40)}},
			want: []string{"- inserted: 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32 … and 8 more (cap 12 listed)."},
		},
		{
			name: "pages failed",
			r:    Result{Pages: Pages{Status: PagesFailed, Message: "soffice exited with status 81.\n"}},
			want: []string{"Pages: not compared; rendering failed: soffice exited with status 81."},
			not:  []string{".."},
		},
		{
			name: "pages unsupported",
			r:    Result{Pages: Pages{Status: PagesUnsupported, Message: "LibreOffice cannot open .hwpx files"}},
			want: []string{"Pages: not compared; no renderer for this format: LibreOffice cannot open .hwpx files."},
		},
		{
			name: "newlines in messages cannot break the layout",
			r: Result{NewFindings: []formats.Finding{{Code: "x.y", Grade: formats.Info, Part: "a.xml",
				Message: "line one\n\nline two", Fix: "do\tthis"}}},
			want: []string{"   line one line two\n   Fix: do this\n"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := Feedback(&tc.r, tc.opts)
			rest := got
			for _, w := range tc.want {
				i := strings.Index(rest, w)
				if i < 0 {
					t.Fatalf("missing (or out of order) %q in:\n%s", w, got)
				}
				rest = rest[i+len(w):]
			}
			for _, n := range tc.not {
				if strings.Contains(got, n) {
					t.Errorf("unexpected %q in:\n%s", n, got)
				}
			}
			if strings.HasSuffix(got, "\n") {
				t.Error("trailing newline")
			}
			if again := Feedback(&tc.r, tc.opts); again != got {
				t.Error("not deterministic")
			}
			if n := utf8.RuneCountInString(got); n > DefaultMaxChars {
				t.Errorf("%d characters", n)
			}
		})
	}
}

func TestFeedbackCharacterBound(t *testing.T) {
	// 20 findings with long messages and fixes: the character cap binds
	// before the finding cap, findings are dropped (not cut mid-line), and
	// the cut is stated.
	var fs []formats.Finding
	for i := 0; i < 20; i++ {
		f := illegalChar(i)
		f.Message = strings.Repeat("A long explanation of what is wrong. ", 12)
		f.Fix = strings.Repeat("A long fix. ", 30)
		fs = append(fs, f)
	}
	r := &Result{Blocked: true, NewFindings: fs}
	for _, max := range []int{0, 2500, 1000} {
		got := Feedback(r, FeedbackOptions{MaxChars: max})
		limit := max
		if limit == 0 {
			limit = DefaultMaxChars
		}
		if n := utf8.RuneCountInString(got); n > limit {
			t.Errorf("MaxChars %d: %d characters", max, n)
		}
		if !strings.Contains(got, fmt.Sprintf("not listed (cap: %d characters of feedback).", limit)) {
			t.Errorf("MaxChars %d: cut not stated:\n%s", max, got)
		}
		if !strings.HasSuffix(got, "Pages: not compared (rendering off).") {
			t.Errorf("MaxChars %d: the sections after the findings were lost", max)
		}
		// Per-field caps: a message is cut to 300 characters with "…".
		if !strings.Contains(got, "…\n   Fix: ") {
			t.Errorf("MaxChars %d: long message not clipped", max)
		}
	}

	// Pathological: even the fixed sections exceed the bound. The text is
	// cut, and says so.
	r = &Result{Structure: Structure{}}
	for i := 0; i < 100; i++ {
		r.Structure.Shrunk = append(r.Structure.Shrunk, Shrink{Metric: fmt.Sprintf("metric%d", i), Before: 2, After: 1,
			Where: strings.Repeat("somewhere ", 30)})
	}
	got := Feedback(r, FeedbackOptions{})
	if n := utf8.RuneCountInString(got); n > DefaultMaxChars {
		t.Errorf("%d characters", n)
	}
	if !strings.HasSuffix(got, fmt.Sprintf("[feedback cut at %d characters]", DefaultMaxChars)) {
		t.Errorf("hard cut not stated: …%s", got[len(got)-80:])
	}
	if !utf8.ValidString(got) {
		t.Error("cut inside a character")
	}
}

func many(n int) []formats.Finding {
	fs := make([]formats.Finding, n)
	for i := range fs {
		fs[i] = illegalChar(i)
	}
	return fs
}

func seq(from, to int) []int {
	var out []int
	for i := from; i <= to; i++ {
		out = append(out, i)
	}
	return out
}

func TestLocation(t *testing.T) {
	for _, tc := range []struct {
		f    formats.Finding
		want string
	}{
		{formats.Finding{Part: "a.xml", Line: 2, Column: 9}, "a.xml:2:9"},
		{formats.Finding{Part: "a.xml", Line: 2}, "a.xml:2"},
		{formats.Finding{Part: "a.xml"}, "a.xml"},
		{formats.Finding{}, "the package"},
	} {
		if got := Location(tc.f); got != tc.want {
			t.Errorf("Location(%+v) = %q, want %q", tc.f, got, tc.want)
		}
	}
}

func TestCheckFeedback(t *testing.T) {
	rep := &formats.Report{Path: "new/offer.docx", Format: formats.DOCX,
		Findings: []formats.Finding{
			{Code: "docx.tc-no-final-p", Grade: formats.Fatal, Part: "word/document.xml", Line: 2, Column: 5120,
				Locator: "/w:document/w:body/w:tbl[1]/w:tr[2]/w:tc[3]", Message: "Table cell without a final paragraph: Word reports the file as corrupt.",
				Fix: "End every w:tc with a w:p (an empty <w:p/> is enough)."},
		},
		Counts: formats.Counts{"tables": 1, "rows": 4, "cells": 12, "paragraphs": 30}}
	want := "FATAL: new/offer.docx has 1 fatal defect; the application will refuse or repair this file.\n" +
		"Findings: 1 (1 fatal):\n" +
		"1. fatal docx.tc-no-final-p at word/document.xml:2:5120 (/w:document/w:body/w:tbl[1]/w:tr[2]/w:tc[3])\n" +
		"   Table cell without a final paragraph: Word reports the file as corrupt.\n" +
		"   Fix: End every w:tc with a w:p (an empty <w:p/> is enough).\n" +
		"Structure: cells 12, paragraphs 30, rows 4, tables 1.\n" +
		"Pages: 1–2 of 4 attached below as rendered images; the other 2 are not shown."
	if got := CheckFeedback(rep, []int{1, 2}, 4, FeedbackOptions{}); got != want {
		t.Errorf("check feedback:\n%s\nwant:\n%s", got, want)
	}

	ok := &formats.Report{Path: "a.xlsx", Format: formats.XLSX, Counts: formats.Counts{"sheets": 2}}
	if got := CheckFeedback(ok, nil, 0, FeedbackOptions{}); got != "OK: nothing at fatal in a.xlsx.\nNo findings.\nStructure: sheets 2.\nPages: none attached (not rendered)." {
		t.Errorf("feedback = %q", got)
	}
	for _, tc := range []struct {
		attached []int
		total    int
		want     string
	}{
		{[]int{1}, 1, "Pages: all 1 attached below as rendered images."},
		{[]int{1, 2, 4}, 0, "Pages: 1–2, 4 attached below as rendered images."},
	} {
		if got := checkPagesLine(tc.attached, tc.total); got != tc.want {
			t.Errorf("pages line %v of %d = %q, want %q", tc.attached, tc.total, got, tc.want)
		}
	}

	// The caps of Feedback apply: 25 findings list 20 and count the rest;
	// a small character budget lists fewer and says which cap cut them.
	many := &formats.Report{Path: "many.docx"}
	for i := range 25 {
		many.Findings = append(many.Findings, illegalChar(i))
	}
	got := CheckFeedback(many, nil, 0, FeedbackOptions{})
	if !strings.Contains(got, "\n20. fatal") || strings.Contains(got, "\n21. ") || !strings.Contains(got, "… and 5 more findings not listed (cap 20).") {
		t.Errorf("25 findings, cap 20:\n%s", got)
	}
	got = CheckFeedback(many, nil, 0, FeedbackOptions{MaxChars: 1000})
	if utf8.RuneCountInString(got) > 1000 || !strings.Contains(got, "not listed (cap: 1000 characters of feedback).") {
		t.Errorf("1000-character cap (%d characters):\n%s", utf8.RuneCountInString(got), got)
	}
}

func TestCaptions(t *testing.T) {
	r := &Result{Pages: Pages{Changed: []ChangedPage{{Before: 2, After: 3, Ratio: 0.013}, {Before: 4, After: 5, MarginsOnly: true, Ratio: 0.0004}}}}
	for _, tc := range []struct {
		s    ShownPage
		want string
	}{
		{ShownPage{Before: 2, After: 3}, "Page 3 (edited) vs page 2 (original): before | after, changed regions outlined; 1.3% of the page changed."},
		{ShownPage{Before: 4, After: 5}, "Page 5 (edited) vs page 4 (original): before | after, changed regions outlined; only the header/footer bands changed; <0.1% of the page changed."},
		{ShownPage{After: 1}, "Page 1 (edited), inserted: it has no original page."},
		{ShownPage{Before: 7}, "Page 7 (original), deleted: it is not in the edited file."},
	} {
		if got := ShownCaption(r, tc.s); got != tc.want {
			t.Errorf("ShownCaption(%+v) = %q, want %q", tc.s, got, tc.want)
		}
	}
	if got := CheckPageCaption(2, 12); got != "Page 2 of 12, as rendered." {
		t.Errorf("CheckPageCaption(2, 12) = %q", got)
	}
	if got := CheckPageCaption(2, 0); got != "Page 2, as rendered." {
		t.Errorf("CheckPageCaption(2, 0) = %q", got)
	}
}

func TestImageBudgetNote(t *testing.T) {
	if got := ImageBudgetNote(ImageBudget{MaxBytes: 4 << 20, Offered: 3, Attached: 3}); got != "" {
		t.Errorf("nothing cut: %q", got)
	}
	got := ImageBudgetNote(ImageBudget{MaxBytes: 4 << 20, PageCap: 20, Uncapped: 30, Offered: 20, Attached: 12, Downscaled: 1,
		Dropped: []string{"page 13", "page 14", "page 15", "page 17", "original page 4", "page 18", "page 19"}})
	want := "Limits: 4.0 MB of output for text and images; the page cap (20) left out the last 30 pages; " +
		"7 page images did not fit and are not attached (pages 13–15, page 17, original page 4, pages 18–19); 1 image was downscaled to fit."
	if got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}
