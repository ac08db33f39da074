package audit

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/editaudit/editaudit/content"
	"github.com/editaudit/editaudit/formats"
	"github.com/editaudit/editaudit/formats/inspect"
)

// missingEdit is the audit of an edit whose file is not there (why is
// inspect.Present's reason): an agent's script that exited 0 without
// saving. It is a normal Result, not an error (DESIGN.md "Gates"): the
// one new finding is file.missing (fatal), so the edit is blocked; the
// original is inspected for its counts and its own problems; structure,
// content and pages are not compared (nothing can be known of a missing
// file).
// With Restore the original is put back at the edited path when that
// path names nothing at all (a folder or a FIFO there is never replaced).
func missingEdit(ctx context.Context, orig doc, editedPath string, why error, opts Options) (*Result, error) {
	origRep, err := orig.inspect(ctx, opts.Limits)
	if err != nil {
		return nil, err
	}
	edRep := inspect.Missing(editedPath, why)
	res := &Result{
		Schema:      Schema,
		Original:    FileInfo{Path: formats.EscapeName(orig.name), SHA256: origRep.SHA256, Format: origRep.Format},
		Edited:      FileInfo{Path: formats.EscapeName(editedPath), Format: edRep.Format},
		NewFindings: edRep.Findings,
		Resolved:    []formats.Finding{},
		Preexisting: formats.TallyOf(origRep.Findings),
		Structure:   Structure{Before: copyCounts(origRep.Counts), After: formats.Counts{}, Shrunk: []Shrink{}},
		Pages:       Pages{Status: PagesOff, Message: "the edited file is missing; nothing was rendered"},
		Content:     &content.Result{Status: content.StatusOff, Message: "the edited file is missing; no content was compared", Changes: []content.Change{}},
		Blocked:     true,
	}
	if opts.Restore && errors.Is(why, fs.ErrNotExist) {
		if st, err := os.Stat(filepath.Dir(editedPath)); err == nil && st.IsDir() {
			// Put in place only if the path still names nothing: a file
			// saved meanwhile is never replaced (compare-and-swap).
			if err := restoreMissing(editedPath, orig); errors.Is(err, fs.ErrExist) {
				return nil, fmt.Errorf("%w: %s appeared while it was audited", ErrEditedChanged, editedPath)
			} else if err != nil {
				return nil, err
			}
			res.Restored = true
		}
	}
	res.Feedback = Feedback(res, FeedbackOptions{})
	return res, nil
}

// restoreMissing writes the original's bytes at path, which must not
// exist: a durable temp file beside it, linked into place (link(2) never
// replaces a file), then the temp name removed.
func restoreMissing(path string, orig doc) error {
	tmp, err := writeBeside(path, orig, 0o644)
	if err != nil {
		return err
	}
	defer os.Remove(tmp)
	if err := os.Link(tmp, path); err != nil {
		return err
	}
	syncDir(filepath.Dir(path))
	return nil
}

// editMissing reports whether r is the audit of a missing edited file.
func editMissing(r *Result) bool { return formats.FileMissing(r.NewFindings) }
