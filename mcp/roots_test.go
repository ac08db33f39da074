package mcp

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// rootsFixture is a root folder with a document, a sub-folder, links in
// and out, a FIFO outside reached by a link, and a sibling folder whose
// name starts with the root's.
func rootsFixture(t *testing.T) (root, sibling string, r *roots) {
	t.Helper()
	base := t.TempDir()
	root = filepath.Join(base, "docs")
	sibling = filepath.Join(base, "docs-old")
	outside := filepath.Join(base, "elsewhere")
	for _, d := range []string{root, filepath.Join(root, "sub"), sibling, outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{filepath.Join(root, "a.docx"), filepath.Join(root, "sub", "b.docx"), filepath.Join(sibling, "c.docx"), filepath.Join(outside, "d.docx")} {
		if err := os.WriteFile(f, []byte("PK"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := syscall.Mkfifo(filepath.Join(outside, "pipe.docx"), 0o644); err != nil {
		t.Fatal(err)
	}
	links := map[string]string{
		"in.docx":      filepath.Join(root, "sub", "b.docx"),
		"out.docx":     filepath.Join(outside, "d.docx"),
		"pipe.docx":    filepath.Join(outside, "pipe.docx"),
		"sibling.docx": filepath.Join(sibling, "c.docx"),
		"outdir":       outside,
		"dangling":     filepath.Join(root, "gone.docx"),
	}
	for name, to := range links {
		if err := os.Symlink(to, filepath.Join(root, name)); err != nil {
			t.Fatal(err)
		}
	}
	r, err := newRoots([]string{root})
	if err != nil {
		t.Fatal(err)
	}
	return root, sibling, r
}

// TestRootsFile: a document is read only when its path, as named and as
// resolved (links followed), lies under a root; everything else is
// refused with a message naming the path, and nothing is opened (a FIFO
// behind a link would block an open: the test would hang).
func TestRootsFile(t *testing.T) {
	root, sibling, r := rootsFixture(t)
	for _, tc := range []struct {
		path string
		want string // resolved path, or the refusal's words
		ok   bool
	}{
		{filepath.Join(root, "a.docx"), filepath.Join(root, "a.docx"), true},
		{"a.docx", filepath.Join(root, "a.docx"), true}, // relative: from the first root
		{"sub/../a.docx", filepath.Join(root, "a.docx"), true},
		{filepath.Join(root, "in.docx"), filepath.Join(root, "sub", "b.docx"), true},
		{filepath.Join(sibling, "c.docx"), "is outside the folders", false},
		{filepath.Join(root, "..", "docs-old", "c.docx"), "is outside the folders", false},
		{"../docs-old/c.docx", "is outside the folders", false},
		{filepath.Join(root, "sibling.docx"), "a symbolic link), outside", false},
		{filepath.Join(root, "out.docx"), "a symbolic link), outside", false},
		{filepath.Join(root, "pipe.docx"), "a symbolic link), outside", false},
		{filepath.Join(root, "outdir", "d.docx"), "a symbolic link), outside", false},
		{"/etc/passwd", "is outside the folders", false},
		{filepath.Join(root, "missing.docx"), "no such file", false},
		{filepath.Join(root, "dangling"), "no such file", false},
		{filepath.Join(root, "sub"), "it is a folder", false},
		{root, "it is a folder", false},
		{"", "is empty", false},
	} {
		got, err := r.file("path", tc.path)
		switch {
		case tc.ok && (err != nil || got != realPath(t, tc.want)):
			t.Errorf("%s: %q, %v; want %s", tc.path, got, err, tc.want)
		case !tc.ok && err == nil:
			t.Errorf("%s: accepted as %s", tc.path, got)
		case !tc.ok && (!strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), `path "`+tc.path+`"`)):
			t.Errorf("%s: %v; want the path named and %q", tc.path, err, tc.want)
		}
	}
}

// TestRootsTarget: a file to write (synth's out) may be new, in a folder
// under a root; an existing one is replaced only when it resolves under a
// root and is a regular file.
func TestRootsTarget(t *testing.T) {
	root, sibling, r := rootsFixture(t)
	for _, tc := range []struct {
		path string
		want string
		ok   bool
	}{
		{filepath.Join(root, "new.docx"), filepath.Join(root, "new.docx"), true},
		{"sub/new.docx", filepath.Join(root, "sub", "new.docx"), true},
		{filepath.Join(root, "a.docx"), filepath.Join(root, "a.docx"), true},
		{filepath.Join(root, "in.docx"), filepath.Join(root, "sub", "b.docx"), true},
		{filepath.Join(sibling, "new.docx"), "is outside the folders", false},
		{filepath.Join(root, "out.docx"), "a symbolic link), outside", false},
		{filepath.Join(root, "outdir", "new.docx"), "a symbolic link), outside", false},
		{filepath.Join(root, "nofolder", "new.docx"), "does not exist", false},
		{filepath.Join(root, "sub"), "not a regular file", false},
		{"/tmp/new.docx", "is outside the folders", false},
	} {
		got, err := r.target("out", tc.path)
		switch {
		case tc.ok && (err != nil || got != realPath(t, tc.want)):
			t.Errorf("%s: %q, %v; want %s", tc.path, got, err, tc.want)
		case !tc.ok && err == nil:
			t.Errorf("%s: accepted as %s", tc.path, got)
		case !tc.ok && !strings.Contains(err.Error(), tc.want):
			t.Errorf("%s: %v; want %q", tc.path, err, tc.want)
		}
	}
	if _, err := os.Stat(filepath.Join(root, "new.docx")); err == nil {
		t.Error("target wrote a file")
	}
}

// TestRootsThroughLink: a root given through a symbolic link (as /tmp is
// on some systems) accepts paths named either way.
func TestRootsThroughLink(t *testing.T) {
	root, _, _ := rootsFixture(t)
	link := filepath.Join(t.TempDir(), "link-to-docs")
	if err := os.Symlink(root, link); err != nil {
		t.Fatal(err)
	}
	r, err := newRoots([]string{link})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{filepath.Join(link, "a.docx"), filepath.Join(root, "a.docx")} {
		if got, err := r.file("path", p); err != nil || got != realPath(t, filepath.Join(root, "a.docx")) {
			t.Errorf("%s: %q, %v", p, got, err)
		}
	}
	if _, err := newRoots([]string{filepath.Join(root, "a.docx")}); err == nil {
		t.Error("a file accepted as a root")
	}
	if _, err := newRoots([]string{filepath.Join(root, "none")}); err == nil {
		t.Error("a missing folder accepted as a root")
	}
}

func realPath(t *testing.T, p string) string {
	t.Helper()
	dir, err := filepath.EvalSymlinks(filepath.Dir(p))
	if err != nil {
		t.Fatal(err)
	}
	return filepath.Join(dir, filepath.Base(p))
}
