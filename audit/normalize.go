package audit

import (
	"github.com/editaudit/editaudit/content"
	"github.com/editaudit/editaudit/formats"
)

// Normalized returns a copy of r in the stable JSON shape of
// editaudit.audit/v1 (DESIGN.md "JSON"), the one rule every writer of the
// object applies: the list fields (new_findings, resolved,
// structure.shrunk, pages.changed and their boxes, pages.inserted,
// pages.deleted, pages.shown, content.changes) are [] when empty, never
// null; the counts are {} when absent; an empty schema is Schema, an
// empty pages.status PagesOff, and a missing content {"status":"off"}.
// r is not changed (pages.changed and content are copied before they are
// touched); the feedback is left as it is.
func (r *Result) Normalized() *Result {
	c := *r
	if c.Schema == "" {
		c.Schema = Schema
	}
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
		c.Pages.Status = PagesOff
	}
	c.Pages.Changed = nonNil(c.Pages.Changed)
	if len(c.Pages.Changed) > 0 {
		ch := make([]ChangedPage, len(c.Pages.Changed))
		copy(ch, c.Pages.Changed)
		for i := range ch {
			ch[i].Boxes = nonNil(ch[i].Boxes)
		}
		c.Pages.Changed = ch
	}
	c.Pages.Inserted = nonNil(c.Pages.Inserted)
	c.Pages.Deleted = nonNil(c.Pages.Deleted)
	c.Pages.Shown = nonNil(c.Pages.Shown)
	if c.Content == nil {
		c.Content = &content.Result{Status: content.StatusOff, Changes: []content.Change{}}
	} else if c.Content.Changes == nil || c.Content.Status == "" {
		cc := *c.Content
		cc.Changes = nonNil(cc.Changes)
		if cc.Status == "" {
			cc.Status = content.StatusOff
		}
		c.Content = &cc
	}
	return &c
}

// nonNil turns a nil slice into an empty one so that it encodes as [].
func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
