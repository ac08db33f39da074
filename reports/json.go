package reports

import (
	"encoding/json"
	"io"

	"github.com/editaudit/editaudit/audit"
)

// WriteJSON writes r as the `--format json` object (schema
// editaudit.audit/v1, DESIGN.md "JSON"): indented by two spaces, HTML
// characters unescaped, and byte-stable — the list fields (new_findings,
// resolved, structure.shrunk, pages.changed and their boxes,
// pages.inserted, pages.deleted, pages.shown) are written as [] when empty,
// never null; an empty schema becomes editaudit.audit/v1, an empty
// pages.status "off", and an empty feedback is computed.
func WriteJSON(w io.Writer, r *audit.Result) error {
	return writeIndentedJSON(w, normalized(r))
}

// writeIndentedJSON writes v as the JSON writers do: indented by two
// spaces, HTML characters unescaped, newline-terminated.
func writeIndentedJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// normalized is a copy of r with the stable JSON shape (audit's one rule)
// and the feedback computed; r is not changed.
func normalized(r *audit.Result) *audit.Result {
	c := r.Normalized()
	c.Feedback = feedbackOf(r)
	return c
}

// nonNil turns a nil slice into an empty one so that it encodes as [].
func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
