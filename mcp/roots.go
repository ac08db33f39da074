package mcp

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/editaudit/editaudit/internal/fsutil"
)

// roots are the folders whose files the tools may read and write. Each is
// kept as given (absolute, cleaned) and resolved (symbolic links
// followed): a path is first judged as named, without touching the file
// system, then by what it resolves to.
type roots struct {
	given, real []string
}

// newRoots resolves the folders; each must exist and be a folder.
func newRoots(dirs []string) (*roots, error) {
	if len(dirs) == 0 {
		wd, err := os.Getwd()
		if err != nil {
			return nil, err
		}
		dirs = []string{wd}
	}
	r := &roots{}
	for _, d := range dirs {
		abs, err := filepath.Abs(d)
		if err != nil {
			return nil, fmt.Errorf("root %s: %w", d, err)
		}
		real, err := filepath.EvalSymlinks(abs)
		if err != nil {
			return nil, fmt.Errorf("root %s: %w", d, err)
		}
		st, err := os.Stat(real)
		if err != nil {
			return nil, fmt.Errorf("root %s: %w", d, err)
		}
		if !st.IsDir() {
			return nil, fmt.Errorf("root %s is not a folder", d)
		}
		r.given, r.real = append(r.given, abs), append(r.real, real)
	}
	return r, nil
}

// String lists the roots for messages.
func (r *roots) String() string { return strings.Join(r.given, ", ") }

// under reports whether p (absolute, cleaned) is dir or inside it. A
// sibling whose name starts with dir's ("/data/docs-old" beside
// "/data/docs") is not inside.
func under(p, dir string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

func (r *roots) inside(p string, list []string) bool {
	for _, d := range list {
		if under(p, d) {
			return true
		}
	}
	return false
}

// pathError is a path argument the tools refuse; its message names the
// argument and the path as given.
type pathError struct {
	arg, path, why string
}

func (e *pathError) Error() string { return fmt.Sprintf("%s %q: %s", e.arg, e.path, e.why) }

// abs makes p absolute: a relative path is taken from the first root.
func (r *roots) abs(p string) string {
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(r.given[0], p)
}

// outside is the refusal of a path outside every root.
func (r *roots) outside(arg, p, resolved string) *pathError {
	why := "is outside the folders this server may read and write (" + r.String() + "); nothing was read"
	if resolved != "" {
		why = "leads to " + resolved + " (a symbolic link), outside the folders this server may read and write (" + r.String() + "); nothing was read"
	}
	return &pathError{arg: arg, path: p, why: why}
}

// resolve judges the path p of argument arg: as named it must lie under a
// root (nothing outside is looked at, not even whether it exists), and
// resolved, every symbolic link followed, too. It returns the resolved
// path: the one to read or write, so that a link cannot lead elsewhere
// between the check and the use.
func (r *roots) resolve(arg, p string) (string, error) {
	if p == "" {
		return "", &pathError{arg: arg, path: p, why: "is empty: give the path of a file under " + r.String()}
	}
	abs := r.abs(p)
	if !r.inside(abs, r.given) && !r.inside(abs, r.real) {
		return "", r.outside(arg, p, "")
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return "", &pathError{arg: arg, path: p, why: "no such file"}
		}
		return "", &pathError{arg: arg, path: p, why: err.Error()}
	}
	if !r.inside(real, r.real) {
		return "", r.outside(arg, p, real)
	}
	return real, nil
}

// file resolves a document to read: it must exist and be a regular file
// (not a folder, a FIFO or a device, which are refused from their stat).
func (r *roots) file(arg, p string) (string, error) {
	real, err := r.resolve(arg, p)
	if err != nil {
		return "", err
	}
	if _, err := fsutil.StatRegular(real); err != nil {
		return "", &pathError{arg: arg, path: p, why: notRegular(err)}
	}
	return real, nil
}

// notRegular words fsutil.StatRegular's refusal.
func notRegular(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// target resolves a file to write: its folder must exist under a root;
// the file may not exist yet, and when it does (a link included) it must
// resolve under a root and be a regular file, which is then replaced.
func (r *roots) target(arg, p string) (string, error) {
	if p == "" {
		return "", &pathError{arg: arg, path: p, why: "is empty: give the path of the file to write, under " + r.String()}
	}
	abs := r.abs(p)
	if !r.inside(abs, r.given) && !r.inside(abs, r.real) {
		return "", r.outside(arg, p, "")
	}
	if _, err := os.Lstat(abs); err == nil {
		real, err := r.resolve(arg, p)
		if err != nil {
			return "", err
		}
		if st, err := os.Stat(real); err != nil || !st.Mode().IsRegular() {
			return "", &pathError{arg: arg, path: p, why: "exists and is not a regular file; nothing was written"}
		}
		return real, nil
	}
	dir, err := r.resolve(arg, filepath.Dir(abs))
	if err != nil {
		var pe *pathError
		if errors.As(err, &pe) && pe.why == "no such file" {
			return "", &pathError{arg: arg, path: p, why: "its folder " + filepath.Dir(abs) + " does not exist"}
		}
		return "", err
	}
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return "", &pathError{arg: arg, path: p, why: filepath.Dir(abs) + " is not a folder"}
	}
	return filepath.Join(dir, filepath.Base(abs)), nil
}
