package reports

import (
	"encoding/json"
	"io"

	"github.com/editaudit/editaudit/audit"
	"github.com/editaudit/editaudit/formats"
)

// WriteJSON writes r as the `--format json` object (schema
// editaudit.audit/v1, DESIGN.md "JSON"): indented by two spaces, HTML
// characters unescaped, and byte-stable — the list fields (new_findings,
// resolved, structure.shrunk, pages.changed and their boxes,
// pages.inserted, pages.deleted, pages.shown) are written as [] when empty,
// never null; an empty schema becomes editaudit.audit/v1, an empty
// pages.status "off", and an empty feedback is computed.
func WriteJSON(w io.Writer, r *audit.Result) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(normalized(r))
}

// normalized is a copy of r with the stable JSON shape; r is not changed.
func normalized(r *audit.Result) *audit.Result {
	c := *r
	if c.Schema == "" {
		c.Schema = audit.Schema
	}
	c.Feedback = feedbackOf(r)
	c.NewFindings = nonNil(c.NewFindings)
	c.Resolved = nonNil(c.Resolved)
	c.Structure.Shrunk = nonNil(c.Structure.Shrunk)
	if c.Structure.Before == nil {
		c.Structure.Before = formats.Counts{}
	}
	if c.Structure.After == nil {
		c.Structure.After = formats.Counts{}
	}
	if c.Pages.Status == "" {
		c.Pages.Status = audit.PagesOff
	}
	c.Pages.Changed = nonNil(c.Pages.Changed)
	if len(c.Pages.Changed) > 0 {
		ch := make([]audit.ChangedPage, len(c.Pages.Changed))
		copy(ch, c.Pages.Changed)
		for i := range ch {
			ch[i].Boxes = nonNil(ch[i].Boxes)
		}
		c.Pages.Changed = ch
	}
	c.Pages.Inserted = nonNil(c.Pages.Inserted)
	c.Pages.Deleted = nonNil(c.Pages.Deleted)
	c.Pages.Shown = nonNil(c.Pages.Shown)
	return &c
}

// nonNil turns a nil slice into an empty one so that it encodes as [].
func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
