package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/editaudit/editaudit/formats/inspect"
	"github.com/editaudit/editaudit/internal/fsutil"
)

// The paths commands read and write: inputs that must name a file, --out
// folders checked up front, reports written atomically, outputs that must
// not be an input.

// inputFile is a usage error (exit 2) unless path names a regular file:
// the rule for every path argument other than a document being judged
// (check FILE, audit EDITED), whose absence is the finding file.missing.
func inputFile(role, path string) error {
	if err := inspect.Present(path); err != nil {
		return usageErr("%s: %v", role, err)
	}
	return nil
}

// writableDir makes sure --out exists and can be written, before any work
// is done, so a read-only or full folder is a clear error up front.
func writableDir(dir string) error {
	if dir == "" {
		return nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("--out %s: %w", dir, err)
	}
	f, err := os.CreateTemp(dir, ".editaudit-write-test-*")
	if err != nil {
		return fmt.Errorf("--out %s is not writable: %w", dir, err)
	}
	name := f.Name()
	f.Close()
	return os.Remove(name)
}

// writeReport writes a report to dir/name atomically (a report is never
// left half-written) and prints its path on stdout.
func writeReport(stdout io.Writer, dir, name string, write func(io.Writer) error) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	p := filepath.Join(dir, name)
	if err := fsutil.WriteAtomic(p, 0o644, write); err != nil {
		return err
	}
	_, err := fmt.Fprintln(stdout, p)
	return err
}

// writeOutput writes data to path atomically: a temporary file in the
// same folder, synced, then renamed over path. "-" writes to stdout.
func writeOutput(path string, data []byte, stdout io.Writer) error {
	if path == "-" {
		_, err := stdout.Write(data)
		return err
	}
	return fsutil.WriteFileAtomic(path, data, 0o644)
}

// sameFile reports whether a and b name the same file: the same path, or
// two names of one existing file (a link).
func sameFile(a, b string) bool {
	if abs(a) == abs(b) {
		return true
	}
	fa, err := os.Stat(a)
	if err != nil {
		return false
	}
	fb, err := os.Stat(b)
	if err != nil {
		return false
	}
	return os.SameFile(fa, fb)
}

func abs(p string) string {
	a, err := filepath.Abs(p)
	if err != nil {
		return filepath.Clean(p)
	}
	return a
}
