package reports

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"

	"github.com/editaudit/editaudit/audit"
	"github.com/editaudit/editaudit/content"
	"github.com/editaudit/editaudit/internal/plural"
)

// sarifContentKinds are the content change kinds in the order their rules
// and results are written, with each rule's short description.
var sarifContentKinds = []struct {
	kind      content.Kind
	desc      string
	one, many string
}{
	{content.KindText, "content: text changed", "text change", "text changes"},
	{content.KindFormat, "content: formatting changed", "formatting change", "formatting changes"},
	{content.KindCell, "content: cell changed", "cell changed", "cells changed"},
	{content.KindInserted, "content: inserted", "%s inserted", "%s inserted"},
	{content.KindDeleted, "content: deleted", "%s deleted", "%s deleted"},
	{content.KindMoved, "content: moved", "%s moved", "%s moved"},
}

// sarifContentLocations caps the logical locations of one content result.
const sarifContentLocations = 10

// sarifContentProps is the property bag of a content result.
type sarifContentProps struct {
	Kind content.Kind `json:"kind"`
	// Count is the number of changes of the kind (content.summary, the
	// changes not listed included); Listed how many the audit listed.
	Count  int `json:"count"`
	Listed int `json:"listed"`
	// Lost counts the format changes that lost emphasis.
	Lost int `json:"formattingLost,omitempty"`
}

// sarifContent is the content diff as SARIF: one rule per change kind
// present (id "content.<kind>", after the finding rules, from index
// first), and one result per kind at level "note" (a content change never
// blocks) whose message counts the changes and names the first locations,
// and whose logical locations are those changes (name = where,
// fullyQualifiedName = part + " " + where). Nothing when the diff was off
// or found nothing.
func sarifContent(r *audit.Result, first int, loc func() sarifLocation) ([]sarifRule, []sarifResult) {
	c := r.Content
	if c == nil || c.Status == content.StatusOff || c.Status == "" {
		return nil, nil
	}
	counts := map[content.Kind]int{
		content.KindText: c.Summary.Text, content.KindFormat: c.Summary.Format, content.KindCell: c.Summary.Cells,
		content.KindInserted: c.Summary.Inserted, content.KindDeleted: c.Summary.Deleted, content.KindMoved: c.Summary.Moved,
	}
	byKind := map[content.Kind][]content.Change{}
	for _, ch := range c.Changes {
		byKind[ch.Kind] = append(byKind[ch.Kind], ch)
	}
	var rules []sarifRule
	var res []sarifResult
	for _, k := range sarifContentKinds {
		listed := byKind[k.kind]
		n := max(counts[k.kind], len(listed))
		if n == 0 {
			continue
		}
		id := "content." + string(k.kind)
		rules = append(rules, sarifRule{ID: id, ShortDescription: sarifMessage{Text: k.desc}})
		l := loc()
		var wheres []string
		for i, ch := range listed {
			if i == sarifContentLocations {
				break
			}
			wheres = append(wheres, ch.Where)
			l.LogicalLocations = append(l.LogicalLocations, sarifLogical{Name: ch.Where, FullyQualifiedName: ch.Part + " " + ch.Where, Kind: "element"})
		}
		noun := plural.Word(n, k.one, k.many)
		if strings.Contains(noun, "%s") {
			unit := contentUnit(r)
			noun = fmt.Sprintf(noun, plural.Word(n, unit[:len(unit)-1], unit))
		}
		msg := fmt.Sprintf("Content: %d %s", n, noun)
		if k.kind == content.KindFormat && c.Summary.FormattingLost > 0 {
			msg += fmt.Sprintf(" (%d lost bold, italic, underline, strikethrough, highlight or colour)", c.Summary.FormattingLost)
		}
		if len(wheres) > 0 {
			msg += ". Where: " + strings.Join(wheres, "; ")
			if len(listed) > len(wheres) {
				msg += fmt.Sprintf(" (the first %d of the %d changes listed in content.changes)", len(wheres), len(listed))
			}
		}
		props := sarifContentProps{Kind: k.kind, Count: n, Listed: len(listed)}
		if k.kind == content.KindFormat {
			props.Lost = c.Summary.FormattingLost
		}
		h := sha256.Sum256([]byte(id))
		locs := []sarifLocation{}
		if l.PhysicalLocation != nil || l.LogicalLocations != nil {
			locs = []sarifLocation{l}
		}
		res = append(res, sarifResult{RuleID: id, RuleIndex: first + len(rules) - 1, Level: "note",
			Message: sarifMessage{Text: msg + "."}, Locations: locs,
			PartialFingerprints: map[string]string{"editauditKey/v1": hex.EncodeToString(h[:])},
			Properties:          props})
	}
	return rules, res
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
