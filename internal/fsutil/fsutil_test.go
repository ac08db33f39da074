package fsutil

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
)

func TestWriteAtomic(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "f.txt")
	if err := WriteFileAtomic(p, []byte("one"), 0o600); err != nil {
		t.Fatal(err)
	}
	// A failing writer leaves the old content and no temp file.
	err := WriteAtomic(p, 0o600, func(w io.Writer) error {
		w.Write([]byte("half"))
		return errors.New("boom")
	})
	if err == nil {
		t.Fatal("error lost")
	}
	b, _ := os.ReadFile(p)
	ents, _ := os.ReadDir(dir)
	if string(b) != "one" || len(ents) != 1 {
		t.Errorf("content %q, %d entries", b, len(ents))
	}
	st, _ := os.Stat(p)
	if st.Mode().Perm() != 0o600 {
		t.Errorf("perm %v", st.Mode().Perm())
	}
	sum, err := SHA256File(p)
	if err != nil || sum != "7692c3ad3540bb803c020b3aee66cd8887123234ea0c6e7143c0add73ff431ed" {
		t.Errorf("sha %s %v", sum, err)
	}
}

func TestReplaceAtomic(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "r.html")
	big := make([]byte, 3<<20) // larger than the write buffer
	for i := range big {
		big[i] = byte('a' + i%26)
	}
	if err := ReplaceAtomic(p, 0o644, func(w io.Writer) error { _, err := w.Write(big); return err }); err != nil {
		t.Fatal(err)
	}
	err := ReplaceAtomic(p, 0o644, func(w io.Writer) error {
		w.Write([]byte("half"))
		return errors.New("boom")
	})
	if err == nil {
		t.Fatal("error lost")
	}
	b, _ := os.ReadFile(p)
	ents, _ := os.ReadDir(dir)
	if len(b) != len(big) || string(b[:4]) != "abcd" || len(ents) != 1 {
		t.Errorf("%d bytes, %d entries", len(b), len(ents))
	}
	if st, _ := os.Stat(p); st.Mode().Perm() != 0o644 {
		t.Errorf("perm %v", st.Mode().Perm())
	}
}
