package synth

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"

	"github.com/editaudit/editaudit/internal/plural"
)

// OutcomeSchema names what `editaudit synth --format json` prints and
// editaudit mcp's synth tool returns as its structured content (DESIGN.md
// "Synth"): a Written or a Refused.
const OutcomeSchema = "editaudit.synth/v1"

// Written is editaudit.synth/v1 for a document written: where, its
// sha256, its format and page count (nil when it was not rendered), and
// the notes of Result.
type Written struct {
	Schema string   `json:"schema"`
	Status string   `json:"status"` // "ok"
	Path   string   `json:"path"`
	SHA256 string   `json:"sha256"`
	Format string   `json:"format"`
	Pages  *int     `json:"pages"` // null when the document was not rendered
	Notes  []string `json:"notes,omitempty"`
}

// WrittenAs is the Written of r once its Data is at path.
func (r *Result) WrittenAs(path string) Written {
	sum := sha256.Sum256(r.Data)
	w := Written{Schema: OutcomeSchema, Status: "ok", Path: path, SHA256: hex.EncodeToString(sum[:]), Format: r.Format, Notes: r.Notes}
	if r.Pages > 0 {
		pages := r.Pages
		w.Pages = &pages
	}
	return w
}

// Refused is editaudit.synth/v1 for a spec with errors: every listed
// error with its JSON path and cap, and how many more there are.
type Refused struct {
	Schema string        `json:"schema"`
	Status string        `json:"status"` // "error"
	Errors []RefusedItem `json:"errors"`
	More   int           `json:"more"`
}

// RefusedItem is one error of a Refused.
type RefusedItem struct {
	Path    string `json:"path"`
	Message string `json:"message"`
	Cap     int    `json:"cap,omitempty"`
}

// Refused is l as editaudit.synth/v1.
func (l *SpecErrors) Refused() Refused {
	j := Refused{Schema: OutcomeSchema, Status: "error", Errors: []RefusedItem{}, More: l.More}
	for _, e := range l.Errors {
		j.Errors = append(j.Errors, RefusedItem{Path: e.Path, Message: e.Msg, Cap: e.Cap})
	}
	return j
}

// Text is l as `editaudit synth` prints it for the spec named source:
// "SOURCE: 3 problems in the spec; nothing was written", then one line per
// error, "  $.path: message (cap N)", and how many more were not listed.
func (l *SpecErrors) Text(source string) string {
	var b strings.Builder
	n := len(l.Errors) + l.More
	fmt.Fprintf(&b, "%s: %s in the spec; nothing was written\n", source, plural.Of(n, "problem", "problems"))
	for _, e := range l.Errors {
		b.WriteString("  " + e.Path + ": " + e.Msg)
		if e.Cap > 0 && !strings.Contains(e.Msg, fmt.Sprint(e.Cap)) {
			fmt.Fprintf(&b, " (cap %d)", e.Cap)
		}
		b.WriteByte('\n')
	}
	if l.More > 0 {
		fmt.Fprintf(&b, "  … and %d more not listed (the first %d are)\n", l.More, MaxListedErrors)
	}
	return b.String()
}
