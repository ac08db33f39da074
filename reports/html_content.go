package reports

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/editaudit/editaudit/audit"
	"github.com/editaudit/editaudit/content"
	"github.com/editaudit/editaudit/formats"
	"github.com/editaudit/editaudit/internal/plural"
)

// DefaultHTMLMaxContentChanges is the number of content changes the HTML
// report draws when HTMLOptions.MaxContentChanges is 0; the rest are
// counted, and the cap is stated. (The audit lists at most
// content.DefaultMaxChanges of them in the first place.)
const DefaultHTMLMaxContentChanges = 200

// contentView is the "Content" card of the audit report: a redline per
// changed location.
type contentView struct {
	Show bool
	// Notice explains a diff that was off or partial; NoticeClass is
	// "off" or "failed".
	Notice, NoticeClass string
	// Summary holds the counts (label, value).
	Summary [][2]string
	Empty   string
	Rows    []contentRow
	Cut     string
}

// contentRow is one change: a kind badge, where, and the change drawn as
// a redline (deletions struck, insertions underlined).
type contentRow struct {
	Kind, KindClass string
	Where, From     string
	Part            string
	// Pieces is the redline of a text change; Before/After the plain
	// sides of any other change (drawn struck and underlined).
	Pieces        []content.Op
	Before, After string
	// Arrow: draw Before → After (a cell, a format change, a rename).
	Arrow  bool
	Detail string
	// Text is the text of a format change or a moved paragraph.
	Text string
	Lost bool
}

// contentOf draws r.Content (nothing for a result without one).
func contentOf(r *audit.Result, max int) contentView {
	c := r.Content
	if c == nil {
		return contentView{}
	}
	v := contentView{Show: true}
	switch c.Status {
	case content.StatusOff, "":
		v.Notice, v.NoticeClass = "Content was not compared"+because(c.Message), "off"
		return v
	case content.StatusPartial:
		v.Notice, v.NoticeClass = "Content was compared only in part"+because(c.Message), "failed"
	}
	total := len(c.Changes) + c.Truncated
	if total == 0 {
		v.Empty = "No text, cell or formatting change."
		if c.Status == content.StatusPartial {
			v.Empty = "No change found in what was compared."
		}
	}
	s := c.Summary
	unit := contentUnit(r)
	if s.UnitsBefore > 0 || s.UnitsAfter > 0 {
		v.Summary = append(v.Summary, [2]string{"Compared", fmt.Sprintf("%d %s before, %d after; %d unchanged", s.UnitsBefore, unit, s.UnitsAfter, s.Unchanged)})
	}
	if total > 0 {
		v.Summary = append(v.Summary, [2]string{"Touched", fmt.Sprintf("%d of the original's %s (%.1f%%)", s.Changed, unit, 100*s.ChangedShare)})
		var kinds []string
		add := func(n int, label string) {
			if n > 0 {
				kinds = append(kinds, fmt.Sprintf("%s %d", label, n))
			}
		}
		add(s.Text, "text")
		add(s.Cells, "cells")
		add(s.Format, "formatting")
		add(s.Inserted, "inserted")
		add(s.Deleted, "deleted")
		add(s.Moved, "moved")
		add(s.SheetsAdded, "sheets added")
		add(s.SheetsRemoved, "sheets removed")
		add(s.SheetsRenamed, "sheets renamed")
		v.Summary = append(v.Summary, [2]string{"Changes", strings.Join(kinds, " · ")})
		if s.FormattingLost > 0 {
			v.Summary = append(v.Summary, [2]string{"Formatting lost", fmt.Sprintf("%d %s lost bold, italic, underline, strikethrough, highlight or colour", s.FormattingLost, plural.Word(s.FormattingLost, unit[:len(unit)-1], unit))})
		}
	}
	for i, ch := range c.Changes {
		if i == max {
			break
		}
		v.Rows = append(v.Rows, contentRowOf(ch))
	}
	if rest := total - len(v.Rows); rest > 0 {
		cause := fmt.Sprintf("cap %d", max)
		if len(v.Rows) == len(c.Changes) {
			cause = fmt.Sprintf("the audit lists %d; --format json has the same list", len(c.Changes))
		}
		v.Cut = fmt.Sprintf("… and %d more %s not drawn (%s); the counts above include them.", rest, plural.Word(rest, "change", "changes"), cause)
	}
	return v
}

func contentRowOf(ch content.Change) contentRow {
	row := contentRow{Kind: string(ch.Kind), KindClass: string(ch.Kind), Where: ch.Where, Part: ch.Part, Detail: ch.Detail, Lost: ch.Lost}
	switch ch.Kind {
	case content.KindText:
		if len(ch.Diff) > 0 {
			row.Pieces = ch.Diff
		} else {
			row.Before, row.After, row.Arrow = ch.Before, ch.After, true
		}
	case content.KindCell:
		row.Before, row.After, row.Arrow = ch.Before, ch.After, true
	case content.KindFormat:
		row.Before, row.After, row.Arrow, row.Text = ch.Before, ch.After, true, ch.Text
		if ch.Lost {
			row.Kind = "formatting lost"
		}
	case content.KindInserted:
		row.After = ch.After
	case content.KindDeleted:
		row.Before = ch.Before
	case content.KindMoved:
		row.From, row.Text = ch.From, ch.After
		if ch.From != "" && ch.Detail == "moved from "+ch.From {
			row.Detail = "" // the Where column says it
		}
	}
	if row.Kind == "format" {
		row.Kind = "formatting"
	}
	return row
}

// contentUnit names what the content diff counts: cells in a workbook,
// paragraphs elsewhere.
func contentUnit(r *audit.Result) string {
	if r.Original.Format == formats.XLSX || r.Edited.Format == formats.XLSX {
		return "cells"
	}
	return "paragraphs"
}

// contentTile is the tile of the content diff: how many changes.
func contentTile(r *audit.Result) (tileView, bool) {
	c := r.Content
	if c == nil {
		return tileView{}, false
	}
	t := tileView{Label: "Content changed", Value: "–", Class: "neutral"}
	switch c.Status {
	case content.StatusOff, "":
		t.Note = "not compared"
		return t, true
	}
	n := len(c.Changes) + c.Truncated
	t.Value = strconv.Itoa(n)
	switch {
	case c.Summary.FormattingLost > 0:
		t.Class, t.Note = "warn", fmt.Sprintf("%d lost formatting", c.Summary.FormattingLost)
	case n == 0:
		t.Note = "no text, cell or formatting change"
	default:
		t.Note = fmt.Sprintf("%d of %d %s touched", c.Summary.Changed, c.Summary.UnitsBefore, contentUnit(r))
	}
	if c.Status == content.StatusPartial {
		t.Class = "warn"
		t.Note = "compared in part · " + t.Note
	}
	return t, true
}
