package content

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// TextOptions bound the model-facing rendering of a Result.
type TextOptions struct {
	// MaxChanges is the most changes listed (DefaultTextChanges when 0).
	MaxChanges int
	// MaxChars bounds the whole text in characters (DefaultTextChars when
	// 0); listing stops early to stay under it.
	MaxChars int
}

// Defaults of TextOptions: 25 changes of at most lineRunes characters
// each stay under 8,000 characters with the header and the tail.
const (
	DefaultTextChanges = 25
	DefaultTextChars   = 7000
	lineRunes          = 240
)

// Text renders r for a model or a person: a "Content changed:" line of
// counts, one line per change (at most MaxChanges, with context around
// each text change in redline notation: [-deleted-]{+inserted+}), and a
// count of the changes not listed. It returns "" for a Result that is off.
func Text(r *Result, opts TextOptions) string {
	if r == nil || r.Status == StatusOff {
		return ""
	}
	maxChanges := opts.MaxChanges
	if maxChanges <= 0 {
		maxChanges = DefaultTextChanges
	}
	maxChars := opts.MaxChars
	if maxChars <= 0 {
		maxChars = DefaultTextChars
	}
	var b strings.Builder
	if r.Status == StatusPartial {
		b.WriteString("Content compared only in part: " + clip(r.Message, 600) + "\n")
	}
	total := len(r.Changes) + r.Truncated
	if total == 0 {
		if r.Status == StatusPartial {
			b.WriteString("Content: no change found in what was compared.\n")
		} else {
			b.WriteString("Content: no text, cell or formatting change.\n")
		}
		return b.String()
	}
	b.WriteString("Content changed: " + summaryLine(r.Summary) + "\n")
	listed := 0
	for _, ch := range r.Changes {
		if listed == maxChanges {
			break
		}
		line := "- " + changeLine(ch) + "\n"
		// Keep room for the closing line.
		if utf8.RuneCountInString(b.String())+utf8.RuneCountInString(line)+160 > maxChars {
			break
		}
		b.WriteString(line)
		listed++
	}
	if rest := total - listed; rest > 0 {
		fmt.Fprintf(&b, "… and %s not listed here (the summary above counts them all).\n", plural(rest, "more change", "more changes"))
	}
	return b.String()
}

// summaryLine counts what changed.
func summaryLine(s Summary) string {
	var parts []string
	add := func(n int, one, many string) {
		if n > 0 {
			parts = append(parts, plural(n, one, many))
		}
	}
	add(s.Text, "text edit", "text edits")
	add(s.Cells, "cell changed", "cells changed")
	if s.Format > 0 {
		f := plural(s.Format, "formatting change", "formatting changes")
		if s.FormattingLost > 0 {
			f += fmt.Sprintf(" (%d lost bold, italic, underline, highlight or colour)", s.FormattingLost)
		}
		parts = append(parts, f)
	}
	add(s.Inserted, "inserted", "inserted")
	add(s.Deleted, "deleted", "deleted")
	add(s.Moved, "moved", "moved")
	add(s.SheetsAdded, "sheet added", "sheets added")
	add(s.SheetsRemoved, "sheet removed", "sheets removed")
	add(s.SheetsRenamed, "sheet renamed", "sheets renamed")
	line := strings.Join(parts, ", ")
	if s.UnitsBefore > 0 {
		line += fmt.Sprintf("; %d of %d original units touched (%.1f%%)", s.Changed, s.UnitsBefore, 100*s.ChangedShare)
	}
	return line + "."
}

// changeLine renders one change on one line.
func changeLine(ch Change) string {
	q := func(s string) string { return "\"" + oneLine(s) + "\"" }
	var body string
	switch ch.Kind {
	case KindText:
		if len(ch.Diff) > 0 {
			body = "text: " + redline(ch.Diff, lineRunes)
		} else {
			body = "text: " + q(ch.Before) + " → " + q(ch.After)
		}
		if ch.Detail != "" && ch.Diff == nil {
			body += " (" + ch.Detail + ")"
		}
	case KindFormat:
		label := "formatting: "
		if ch.Lost {
			label = "formatting lost: "
		}
		body = label + ch.Detail
		if ch.Text != "" {
			body += " in " + q(clip(ch.Text, 60))
		}
	case KindCell:
		body = "cell: " + q(clip(ch.Before, 80)) + " → " + q(clip(ch.After, 80))
		if ch.Detail != "" {
			body += " (" + ch.Detail + ")"
		}
	case KindInserted:
		body = "inserted: " + q(clip(ch.After, 160))
		if ch.Detail != "" {
			body += " (" + ch.Detail + ")"
		}
	case KindDeleted:
		body = "deleted: " + q(clip(ch.Before, 160))
		if ch.Detail != "" {
			body += " (" + ch.Detail + ")"
		}
	case KindMoved:
		body = ch.Detail + ": " + q(clip(ch.After, 120))
	default:
		body = string(ch.Kind)
	}
	return clip(ch.Where+": "+body, lineRunes+60)
}
