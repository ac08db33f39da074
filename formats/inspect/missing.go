package inspect

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/editaudit/editaudit/formats"
	"github.com/editaudit/editaudit/internal/fsutil"
)

// ErrNotRegular matches Present's reason for a path that exists but is
// not a regular file (a folder, a FIFO, a device, a socket), and the
// error of File and every other reader of an input for such a path
// (refused from its stat, before any open: an open of a FIFO blocks).
var ErrNotRegular = fsutil.ErrNotRegular

// NotRegularError is that reason: what is at Path instead of a file.
type NotRegularError struct {
	Path string
	Kind string // "folder", "named pipe (FIFO)", "socket", "device", "special file"
}

func (e *NotRegularError) Error() string {
	return e.Path + " is a " + e.Kind + ", not a regular file"
}

// Is makes errors.Is(err, ErrNotRegular) true.
func (e *NotRegularError) Is(target error) bool { return target == ErrNotRegular }

// Present says whether path names a regular file a document can be read
// from: nil, or why not — the os error (fs.ErrNotExist, fs.ErrPermission)
// or ErrNotRegular naming what is there instead. It only stats path, so it
// never blocks on a FIFO.
func Present(path string) error {
	st, err := os.Stat(path)
	switch {
	case err != nil:
		return err
	case !st.Mode().IsRegular():
		return &NotRegularError{Path: path, Kind: fsutil.KindOf(st.Mode())}
	}
	return nil
}

// Missing is the Report of a document that is not there to inspect: its
// one finding is file.missing (fatal), saying why (why is Present's
// error) and how to fix it. The format is unknown and the counts are
// empty: structure that could not be read is unknown, never zero.
func Missing(path string, why error) *formats.Report {
	what := "does not exist"
	var nr *NotRegularError
	switch {
	case errors.As(why, &nr):
		what = "is a " + nr.Kind + ", not a document file"
	case errors.Is(why, fs.ErrNotExist):
	case why != nil:
		what = "cannot be opened (" + why.Error() + ")"
	}
	f := formats.Finding{Code: formats.CodeFileMissing, Grade: formats.Fatal, Anchor: "missing",
		Message: fmt.Sprintf("%s %s: there is no document to open (was it saved, and under this name?)", path, what),
		Fix:     fmt.Sprintf("write the document to %s and check that the program that edits it saved it before exiting", path)}
	return &formats.Report{Path: path, Format: formats.Unknown, Findings: []formats.Finding{f}, Counts: formats.Counts{}}
}

// Document inspects the document a command was asked to judge (`check
// FILE`, the edited side of an audit): like File, except that a path
// that is not a regular file it may open — missing, a folder, a FIFO,
// unreadable — is the Report Missing(path, why), not an error. The error
// is for I/O failures while reading and for cancellation.
func Document(ctx context.Context, path string, opts Options) (*formats.Report, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if why := Present(path); why != nil {
		return Missing(path, why), nil
	}
	rep, err := File(ctx, path, opts)
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrPermission) {
		return Missing(path, err), nil // gone or locked between the stat and the open
	}
	return rep, err
}
