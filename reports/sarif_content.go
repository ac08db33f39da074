package reports

import (
	"fmt"
	"strings"

	"github.com/editaudit/editaudit/audit"
	"github.com/editaudit/editaudit/content"
	"github.com/editaudit/editaudit/internal/plural"
)

// sarifContentKinds are the content change kinds in the order their notes
// are written, with each rule's short description and help and the noun
// of the note's count ("%s" is the unit: paragraphs, or cells).
var sarifContentKinds = []struct {
	kind        content.Kind
	short, help string
	one, many   string
}{
	{content.KindText, "content: text changed", "The text of a paragraph (or a cell of a Word, PowerPoint or Hangul table) changed; the audit's content.changes give each change as a word-level diff.", "text change", "text changes"},
	{content.KindFormat, "content: formatting changed", "The run formatting of a paragraph (bold, italic, underline, font, size, colour, highlight, style) or a cell's number format changed; formattingLost counts the changes that removed emphasis (what python-docx's paragraph.text = … does).", "formatting change", "formatting changes"},
	{content.KindCell, "content: cell changed", "A worksheet cell's value, formula or type changed.", "cell changed", "cells changed"},
	{content.KindInserted, "content: inserted", "Paragraphs (or a sheet) only the edited file has.", "%s inserted", "%s inserted"},
	{content.KindDeleted, "content: deleted", "Paragraphs (or a sheet) only the original has; numbered as in the original.", "%s deleted", "%s deleted"},
	{content.KindMoved, "content: moved", "Paragraphs (or sheets) whose text is unchanged but that sit elsewhere.", "%s moved", "%s moved"},
}

// sarifContentLocations caps the logical locations of one content note.
const sarifContentLocations = 10

// sarifContentResults are the content diff as notes: one per kind of
// change present (rule "content.<kind>"), whose message counts the
// changes (content.summary, those not listed included) and names the
// first locations, which are also its logical locations (name = where,
// fullyQualifiedName = part + " " + where). None when the diff was off or
// found nothing; a content change never blocks.
func sarifContentResults(rs *sarifRules, uri string, r *audit.Result) []sarifResult {
	c := r.Content
	if c == nil || c.Status == content.StatusOff || c.Status == "" {
		return nil
	}
	counts := map[content.Kind]int{
		content.KindText: c.Summary.Text, content.KindFormat: c.Summary.Format, content.KindCell: c.Summary.Cells,
		content.KindInserted: c.Summary.Inserted, content.KindDeleted: c.Summary.Deleted, content.KindMoved: c.Summary.Moved,
	}
	byKind := map[content.Kind][]content.Change{}
	for _, ch := range c.Changes {
		byKind[ch.Kind] = append(byKind[ch.Kind], ch)
	}
	unit := contentUnit(r)
	var out []sarifResult
	for _, k := range sarifContentKinds {
		listed := byKind[k.kind]
		n := max(counts[k.kind], len(listed))
		if n == 0 {
			continue
		}
		id := "content." + string(k.kind)
		var logical []sarifLogical
		var wheres []string
		for i, ch := range listed {
			if i == sarifContentLocations {
				break
			}
			wheres = append(wheres, ch.Where)
			logical = append(logical, sarifLogical{Name: ch.Where, FullyQualifiedName: ch.Part + " " + ch.Where, Kind: "element"})
		}
		noun := plural.Word(n, k.one, k.many)
		if strings.Contains(noun, "%s") {
			noun = fmt.Sprintf(noun, plural.Word(n, strings.TrimSuffix(unit, "s"), unit))
		}
		msg := fmt.Sprintf("Content: %d %s", n, noun)
		props := sarifResultProps{Kind: k.kind, Count: n}
		nl := len(listed)
		props.Listed = &nl
		if k.kind == content.KindFormat && c.Summary.FormattingLost > 0 {
			msg += fmt.Sprintf(" (%d lost bold, italic, underline, strikethrough, highlight or colour)", c.Summary.FormattingLost)
			props.FormattingLost = c.Summary.FormattingLost
		}
		if len(wheres) > 0 {
			msg += ". Where: " + strings.Join(wheres, "; ")
			if len(listed) > len(wheres) {
				msg += fmt.Sprintf(" (the first %d of the %d listed in content.changes)", len(wheres), len(listed))
			}
		}
		out = append(out, sarifResult{
			RuleID:              id,
			RuleIndex:           rs.use(id, noteRule(id, k.short, k.help+" Never blocks.", "docs/content.md", "content")),
			Level:               "note",
			Message:             sarifMessage{Text: msg + "."},
			Locations:           sarifLoc(uri, 0, 0, logical),
			Properties:          props,
			PartialFingerprints: map[string]string{"editauditKey/v1": hashOf(id)},
		})
	}
	return out
}

// sarifContentRun is the content status and summary of the run
// properties.
func sarifContentRun(r *audit.Result) (string, *content.Summary) {
	c := r.Content
	if c == nil || c.Status == "" || c.Status == content.StatusOff {
		return content.StatusOff, nil
	}
	s := c.Summary
	return c.Status, &s
}
