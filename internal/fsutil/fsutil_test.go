package fsutil

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// TestWriteAtomic: both forms (durable and not) write content larger than
// their buffer whole, set the permissions, and on a failing writer leave
// the old content and no temp file.
func TestWriteAtomic(t *testing.T) {
	big := bytes.Repeat([]byte("abcdefghijklmnopqrstuvwxyz"), 120_000) // 3 MB, over the 1 MB buffer
	for name, replace := range map[string]func(string, os.FileMode, func(io.Writer) error) error{"WriteAtomic": WriteAtomic, "ReplaceAtomic": ReplaceAtomic} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			p := filepath.Join(dir, "f.txt")
			if err := replace(p, 0o600, func(w io.Writer) error { _, err := w.Write(big); return err }); err != nil {
				t.Fatal(err)
			}
			err := replace(p, 0o600, func(w io.Writer) error {
				w.Write([]byte("half"))
				return errors.New("boom")
			})
			if err == nil {
				t.Fatal("error lost")
			}
			b, _ := os.ReadFile(p)
			ents, _ := os.ReadDir(dir)
			if !bytes.Equal(b, big) || len(ents) != 1 {
				t.Errorf("%d bytes, %d entries", len(b), len(ents))
			}
			if st, _ := os.Stat(p); st.Mode().Perm() != 0o600 {
				t.Errorf("perm %v", st.Mode().Perm())
			}
		})
	}
}

func TestWriteFileAtomicAndSHA(t *testing.T) {
	p := filepath.Join(t.TempDir(), "f.txt")
	if err := WriteFileAtomic(p, []byte("one"), 0o644); err != nil {
		t.Fatal(err)
	}
	sum, err := SHA256File(p)
	if err != nil || sum != "7692c3ad3540bb803c020b3aee66cd8887123234ea0c6e7143c0add73ff431ed" {
		t.Errorf("sha %s %v", sum, err)
	}
}

func TestCopyFile(t *testing.T) {
	dir := t.TempDir()
	src, dst := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	if err := os.WriteFile(src, []byte("hello"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, durable := range []bool{false, true} {
		os.Remove(dst)
		if err := CopyFile(src, dst, 0o600, durable); err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(dst)
		st, _ := os.Stat(dst)
		if err != nil || string(b) != "hello" || st.Mode().Perm() != 0o600 {
			t.Errorf("durable %v: %q %v %v", durable, b, st.Mode(), err)
		}
	}
	// Never over an existing file.
	if err := CopyFile(src, dst, 0o644, false); err == nil {
		t.Error("copied over an existing file")
	}
	// A source that cannot be read leaves nothing behind.
	if err := CopyFile(dir, filepath.Join(dir, "c"), 0o644, false); err == nil {
		t.Error("copied a folder")
	}
	if _, err := os.Stat(filepath.Join(dir, "c")); !os.IsNotExist(err) {
		t.Errorf("a failed copy left its target: %v", err)
	}
}
