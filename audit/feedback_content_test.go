package audit

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/editaudit/editaudit/content"
	"github.com/editaudit/editaudit/formats"
)

func TestContentFeedbackLines(t *testing.T) {
	if got := fbContentLines(nil, formats.DOCX, 20, 5000); got != nil {
		t.Errorf("no content: %q", got)
	}
	if got := fbContentLines(content.Off(), formats.DOCX, 20, 5000); len(got) != 1 || got[0] != "Content: not compared; the content diff was not asked for (--content off)." {
		t.Errorf("off: %q", got)
	}
	if got := fbContentLines(&content.Result{Status: content.StatusOK}, formats.DOCX, 20, 5000); len(got) != 1 || got[0] != "Content: no text, cell or formatting change." {
		t.Errorf("no change: %q", got)
	}
	r := &content.Result{Status: content.StatusPartial, Message: "word/header1.xml did not parse in the edited file", Changes: []content.Change{
		{Kind: content.KindText, Where: "body paragraph 2", Diff: []content.Op{{Op: "=", Text: "Pay "}, {Op: "-", Text: "100"}, {Op: "+", Text: "150"}, {Op: "=", Text: " now"}}},
		{Kind: content.KindFormat, Where: "body paragraph 3", Detail: "3 bold runs became plain", Text: "Heading", Lost: true},
		{Kind: content.KindFormat, Where: "body paragraph 4", Detail: "size 10pt → 12pt on 1 run", Text: "Body"},
		{Kind: content.KindCell, Where: "Sheet1!B4", Before: "1", After: "2", Detail: "value changed"},
		{Kind: content.KindDeleted, Where: "body paragraph 9", Before: "Gone\nfor good"},
		{Kind: content.KindInserted, Where: "body paragraph 10", After: "New"},
		{Kind: content.KindMoved, Where: "body paragraph 1", From: "body paragraph 7", Before: "Title", After: "Title", Detail: "moved from body paragraph 7"},
		{Kind: content.KindMoved, Where: "sheet 'B'", From: "position 1", Detail: "sheet moved from position 1 to 2"},
	}, Truncated: 7, Summary: content.Summary{UnitsBefore: 100, Changed: 10, Text: 8, Format: 2, FormattingLost: 1, Cells: 1,
		Inserted: 1, Deleted: 1, Moved: 2, ChangedShare: 0.1}}
	want := []string{
		"Content compared only in part: word/header1.xml did not parse in the edited file.",
		"Content changed: 8 text edits, 1 cell changed, 2 formatting changes (1 lost bold, italic, underline, strikethrough, highlight or colour), 1 paragraph inserted, 1 paragraph deleted, 2 paragraphs moved; 10 of 100 paragraphs of the original touched (10.0%). Redline: [-deleted-]{+inserted+}.",
		"- text changed in body paragraph 2: Pay [-100-]{+150+} now",
		`- formatting lost: 3 bold runs became plain in body paragraph 3 ("Heading")`,
		`- formatting changed: size 10pt → 12pt on 1 run in body paragraph 4 ("Body")`,
		`- cell Sheet1!B4: "1" → "2" (value changed)`,
		`- deleted at body paragraph 9 (original numbering): "Gone for good"`,
		`- inserted at body paragraph 10: "New"`,
		`- moved to body paragraph 1 from body paragraph 7: "Title"`,
		`- sheet 'B': sheet moved from position 1 to 2`,
		"… and 7 more content changes not listed (the audit's list stops at 8; the counts above include them).",
	}
	if got := fbContentLines(r, formats.DOCX, 20, 5000); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	got := fbContentLines(r, formats.DOCX, 1, 5000)
	if len(got) != 4 || got[3] != "… and 14 more content changes not listed (cap 1; the counts above include them)." {
		t.Errorf("cap 1: %q", got)
	}
	// The budget bounds the listed changes; the counts stay.
	got = fbContentLines(r, formats.DOCX, 20, 100)
	if len(got) != 4 || !strings.HasPrefix(got[1], "Content changed: ") || got[3] != "… and 14 more content changes not listed (cap: the feedback's character budget; the counts above include them)." {
		t.Errorf("budget 100: %q", got)
	}
	// A workbook counts cells.
	if got := fbContentSummary(content.Summary{UnitsBefore: 40, Changed: 1, Cells: 1, ChangedShare: 0.025}, formats.XLSX); got != "1 cell changed; 1 of 40 cells of the original touched (2.5%)" {
		t.Errorf("xlsx: %q", got)
	}
}

// Hostile content (megabytes of text in one change, newlines, many
// changes) cannot break the feedback's line structure or its bound.
func TestContentFeedbackBound(t *testing.T) {
	huge := strings.Repeat("clause\nwith newline ", 50000)
	var chs []content.Change
	for i := range 200 {
		chs = append(chs, content.Change{Kind: content.KindText, Where: fmt.Sprintf("body paragraph %d %s", i, huge[:500]),
			Diff: []content.Op{{Op: "=", Text: huge}, {Op: "-", Text: huge}, {Op: "+", Text: huge}}, Before: huge, After: huge},
			content.Change{Kind: content.KindFormat, Where: "x", Detail: huge, Text: huge, Lost: true})
	}
	r := &Result{Structure: Structure{}, Content: &content.Result{Status: content.StatusPartial, Message: huge, Changes: chs, Truncated: 5000,
		Summary: content.Summary{UnitsBefore: 10000, Changed: 5400, Text: 5200, Format: 200, FormattingLost: 200, ChangedShare: 0.54}},
		NewFindings: many(30)}
	for _, max := range []int{0, 8000, 3000, 1200} {
		fb := Feedback(r, FeedbackOptions{MaxChars: max})
		limit := max
		if limit == 0 {
			limit = DefaultMaxChars
		}
		if n := utf8.RuneCountInString(fb); n > limit {
			t.Errorf("MaxChars %d: %d characters", max, n)
		}
		if strings.Contains(fb, "[feedback cut at") {
			t.Errorf("MaxChars %d: hard cut; the lists should have shrunk first", max)
		}
		for _, want := range []string{"New findings: 30", "\nContent compared only in part: ", "\nContent changed: 5200 text edits", "more content changes not listed", "\nPages: "} {
			if !strings.Contains(fb, want) {
				t.Errorf("MaxChars %d: lacks %q:\n%s", max, want, fb)
			}
		}
		for _, l := range strings.Split(fb, "\n") {
			if utf8.RuneCountInString(l) > 420 && !strings.HasPrefix(l, "Content compared only in part") {
				t.Errorf("MaxChars %d: a line of %d characters", max, utf8.RuneCountInString(l))
			}
			if strings.HasPrefix(l, "with newline") {
				t.Errorf("MaxChars %d: a newline in the content broke a line", max)
			}
		}
	}
	// Findings and content share the room: with both lists long, each
	// keeps some of its entries at the default bound.
	fb := Feedback(r, FeedbackOptions{})
	if !strings.Contains(fb, "\n1. fatal ") || !strings.Contains(fb, "\n- text changed in ") {
		t.Errorf("one list starved the other:\n%s", fb)
	}
}

// No page changed but the content did: the pages line says so.
func TestContentFeedbackNoPageChanged(t *testing.T) {
	r := &Result{Pages: Pages{Status: PagesOK, Before: 187, After: 187},
		Content: &content.Result{Status: content.StatusOK, Changes: []content.Change{{Kind: content.KindText, Where: "slide 1, shape 'Title 3'",
			Diff: []content.Op{{Op: "-", Text: "line"}, {Op: "+", Text: "blue"}}}}, Summary: content.Summary{UnitsBefore: 187, Changed: 1, Text: 1}}}
	if fb := Feedback(r, FeedbackOptions{}); !strings.HasSuffix(fb, "\nPages: 187 before, 187 after; none changed on the rendered pages, although the content did (above).") {
		t.Errorf("feedback:\n%s", fb)
	}
	r.Content.Changes, r.Content.Summary = nil, content.Summary{UnitsBefore: 187}
	if fb := Feedback(r, FeedbackOptions{}); !strings.HasSuffix(fb, "\nPages: 187 before, 187 after; none changed.") {
		t.Errorf("feedback:\n%s", fb)
	}
}
