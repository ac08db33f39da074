package audit

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/editaudit/editaudit/content"
	"github.com/editaudit/editaudit/formats"
	"github.com/editaudit/editaudit/internal/plural"
)

// The "Content" section of the feedback: what text, cells and formatting
// the edit changed (Result.Content), one line per change, bounded.

// DefaultMaxContentChanges is how many content changes the feedback lists
// one by one when FeedbackOptions.MaxContentChanges is 0.
const DefaultMaxContentChanges = 20

const (
	// fbMaxContentLine bounds one change's line.
	fbMaxContentLine = 280
	// fbMaxContentMessage bounds the note on what was left out (partial).
	fbMaxContentMessage = 400
	// fbContentQuote bounds a quoted text (inserted, deleted, moved, a
	// format change's text) and fbContentCell a cell's value or formula.
	fbContentQuote = 160
	fbContentText  = 60
	fbContentCell  = 80
)

// fbContentLines is the content section: the counts, then the changes one
// line each while they fit in budget characters (and under max), then one
// line counting the rest and naming the cap that cut them. The counts and
// the closing line are always there; budget bounds the listed changes.
// format names the units ("paragraphs", or "cells" for a workbook). Nil
// for a Result without content (built by hand, or an older record).
func fbContentLines(c *content.Result, format formats.Format, max, budget int) []string {
	if c == nil {
		return nil
	}
	var lines []string
	switch c.Status {
	case content.StatusOff, "":
		msg := strings.TrimRight(fbFold(c.Message, fbMaxWhere), ".")
		if msg == "" {
			return []string{"Content: not compared."}
		}
		return []string{"Content: not compared; " + fbClip(msg, fbMaxWhere) + "."}
	case content.StatusPartial:
		msg := strings.TrimRight(fbFold(c.Message, fbMaxContentMessage), ".")
		if msg == "" {
			msg = "no reason given"
		}
		lines = append(lines, "Content compared only in part: "+fbClip(msg, fbMaxContentMessage)+".")
	}
	total := len(c.Changes) + c.Truncated
	if total == 0 {
		if c.Status == content.StatusPartial {
			return append(lines, "Content: no change found in what was compared.")
		}
		return append(lines, "Content: no text, cell or formatting change.")
	}
	header := "Content changed: " + fbContentSummary(c.Summary, format) + "."
	var items []string
	used, redline := 0, false
	for _, ch := range c.Changes {
		if len(items) == max {
			break
		}
		l := "- " + fbClip(fbContentChange(ch), fbMaxContentLine)
		if used+fbRunes(l)+1 > budget {
			break
		}
		used += fbRunes(l) + 1
		items = append(items, l)
		redline = redline || (ch.Kind == content.KindText && len(ch.Diff) > 0)
	}
	if redline {
		header += " Redline: [-deleted-]{+inserted+}."
	}
	lines = append(lines, header)
	lines = append(lines, items...)
	if rest := total - len(items); rest > 0 {
		var cause string
		switch {
		case len(items) == max:
			cause = fmt.Sprintf("cap %d", max)
		case len(items) == len(c.Changes):
			cause = fmt.Sprintf("the audit's list stops at %d", len(c.Changes))
		default:
			cause = "cap: the feedback's character budget"
		}
		lines = append(lines, fmt.Sprintf("… and %d more content %s not listed (%s; the counts above include them).", rest, plural.Word(rest, "change", "changes"), cause))
	}
	return lines
}

// fbContentSummary counts what changed: "2 text edits, 1 formatting change
// (1 lost emphasis), 1 paragraph inserted; 3 of 412 paragraphs of the
// original touched (0.7%)".
func fbContentSummary(s content.Summary, format formats.Format) string {
	one, many := "paragraph", "paragraphs"
	if format == formats.XLSX {
		one, many = "cell", "cells"
	}
	var parts []string
	add := func(n int, sg, pl string) {
		if n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, plural.Word(n, sg, pl)))
		}
	}
	add(s.Text, "text edit", "text edits")
	add(s.Cells, "cell changed", "cells changed")
	if s.Format > 0 {
		f := fmt.Sprintf("%d %s", s.Format, plural.Word(s.Format, "formatting change", "formatting changes"))
		if s.FormattingLost > 0 {
			f += fmt.Sprintf(" (%d lost bold, italic, underline, strikethrough, highlight or colour)", s.FormattingLost)
		}
		parts = append(parts, f)
	}
	add(s.Inserted, one+" inserted", many+" inserted")
	add(s.Deleted, one+" deleted", many+" deleted")
	add(s.Moved, one+" moved", many+" moved")
	add(s.SheetsAdded, "sheet added", "sheets added")
	add(s.SheetsRemoved, "sheet removed", "sheets removed")
	add(s.SheetsRenamed, "sheet renamed", "sheets renamed")
	line := strings.Join(parts, ", ")
	if s.UnitsBefore > 0 {
		line += fmt.Sprintf("; %d of %d %s of the original touched (%.1f%%)", s.Changed, s.UnitsBefore, plural.Word(s.UnitsBefore, one, many), 100*s.ChangedShare)
	}
	return line
}

// fbContentChange is one change in one sentence, kind first, then where:
//
//	text changed in slide 1, shape 'Title 3': [-line-]{+blue+}
//	formatting lost: 3 bold runs became plain in body paragraph 12 ("Terms…")
//	cell 'Budget'!C5: "2500" → "2600" (value changed)
//	inserted at body paragraph 6: "A new clause."
//	deleted at body paragraph 5 (original numbering): "Some text."
//	moved to body paragraph 1 from body paragraph 58: "That was a page break"
func fbContentChange(ch content.Change) string {
	q := func(s string, n int) string { return "\"" + fbClipMiddle(fbFold(s, 4*n), n) + "\"" }
	detail := fbClip(fbFold(ch.Detail, fbMaxWhere), fbMaxWhere)
	ch.Where = fbClip(fbFold(ch.Where, fbMaxWhere), fbMaxWhere)
	ch.From = fbClip(fbFold(ch.From, fbMaxWhere), fbMaxWhere)
	sheet := strings.HasPrefix(ch.Where, "sheet '")
	switch ch.Kind {
	case content.KindText:
		if len(ch.Diff) > 0 {
			return "text changed in " + ch.Where + ": " + fbRedline(ch.Diff, fbMaxContentLine)
		}
		s := "changed in " + ch.Where
		if detail != "" {
			s += " (" + detail + ")"
		}
		return s + ": " + q(ch.Before, fbContentText) + " → " + q(ch.After, fbContentText)
	case content.KindFormat:
		s := "formatting changed: "
		if ch.Lost {
			s = "formatting lost: "
		}
		if detail == "" {
			detail = fbClip(fbFold(ch.Before, fbMaxWhere)+" → "+fbFold(ch.After, fbMaxWhere), fbMaxWhere)
		}
		s += detail + " in " + ch.Where
		if ch.Text != "" {
			s += " (" + q(ch.Text, fbContentText) + ")"
		}
		return s
	case content.KindCell:
		s := "cell " + ch.Where + ": " + q(ch.Before, fbContentCell) + " → " + q(ch.After, fbContentCell)
		if detail != "" {
			s += " (" + detail + ")"
		}
		return s
	case content.KindInserted, content.KindDeleted:
		verb, text := "inserted at ", ch.After
		if ch.Kind == content.KindDeleted {
			verb, text = "deleted at ", ch.Before
		}
		s := verb + ch.Where
		if ch.Kind == content.KindDeleted && !sheet {
			s += " (original numbering)"
		}
		if sheet && detail != "" {
			return s + " (" + detail + ")"
		}
		s += ": " + q(text, fbContentQuote)
		if detail != "" {
			s += " (" + detail + ")"
		}
		return s
	case content.KindMoved:
		if sheet || ch.From == "" {
			if detail == "" {
				detail = "moved"
			}
			return ch.Where + ": " + detail
		}
		return "moved to " + ch.Where + " from " + ch.From + ": " + q(ch.After, fbContentQuote)
	}
	s := string(ch.Kind) + " in " + ch.Where
	if detail != "" {
		s += ": " + detail
	}
	return s
}

// fbRedline writes a word-level diff on one line: kept text as is,
// [-deleted-], {+inserted+}; at most max characters, cut in the middle.
// The kept pieces come already shortened to their context.
func fbRedline(ops []content.Op, max int) string {
	var b strings.Builder
	for _, o := range ops {
		t := fbOneLineKeepEdges(fbClipMiddleBytes(o.Text, 4*max))
		switch o.Op {
		case "-":
			b.WriteString("[-" + t + "-]")
		case "+":
			b.WriteString("{+" + t + "+}")
		default:
			b.WriteString(t)
		}
	}
	return fbClipMiddle(strings.TrimSpace(b.String()), max)
}

// fbOneLineKeepEdges folds whitespace runs into single spaces like
// fbOneLine but keeps one leading and one trailing space, which separate a
// kept piece from the change beside it.
func fbOneLineKeepEdges(s string) string {
	t := fbOneLine(s)
	if t == "" {
		if s != "" {
			return " "
		}
		return ""
	}
	if strings.TrimLeft(s, " \t\r\n") != s {
		t = " " + t
	}
	if strings.TrimRight(s, " \t\r\n") != s {
		t += " "
	}
	return t
}

// fbFold is s on one line (fbOneLine), looking at no more than about 4n
// bytes of it: its middle is cut first, so that a megabyte of text costs
// no more than a short one.
func fbFold(s string, n int) string { return fbOneLine(fbClipMiddleBytes(s, 4*n)) }

// fbClipMiddleBytes keeps at most n bytes of s, its beginning and its end
// around "…", cut at character boundaries.
func fbClipMiddleBytes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	head, tail := n/2, len(s)-n/2
	for head > 0 && !utf8.RuneStart(s[head]) {
		head--
	}
	for tail < len(s) && !utf8.RuneStart(s[tail]) {
		tail++
	}
	return s[:head] + "…" + s[tail:]
}

// fbClipMiddle cuts s to at most n characters by taking out its middle
// ("begin…end").
func fbClipMiddle(s string, n int) string {
	r := []rune(s)
	if len(r) <= n || n < 3 {
		return s
	}
	head := (n - 1) / 2
	tail := n - 1 - head
	return string(r[:head]) + "…" + string(r[len(r)-tail:])
}
