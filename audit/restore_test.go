package audit_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/editaudit/editaudit/audit"
	"github.com/editaudit/editaudit/baseline"
	"github.com/editaudit/editaudit/formats"
	"github.com/editaudit/editaudit/formats/inspect"
	"github.com/editaudit/editaudit/internal/testdoc"
)

// blockedPair writes an original and a blocked edit of it (an illegal
// character) into dir.
func blockedPair(t *testing.T, dir string) (origPath, editedPath string, orig, bad []byte) {
	t.Helper()
	orig = synthDoc(t, "contract.json")
	bad = mutateDoc(t, "xml.illegal-char", orig)
	return write(t, dir, "original.docx", orig), write(t, dir, "edited.docx", bad), orig, bad
}

func restoreFiles(t *testing.T, o, e string, out string) (*audit.Result, error) {
	t.Helper()
	return audit.Files(context.Background(), o, e, audit.Options{Render: audit.RenderOff, Restore: true, OutDir: out})
}

// TestRestoreFollowsSymlink: a symbolic link as the edited path stays a
// link; its target gets the original's bytes, the rejected bytes are kept,
// and the result says the link was followed. (It used to replace the link
// by a regular file, leaving the target with the rejected bytes, while
// saying restored: true.)
func TestRestoreFollowsSymlink(t *testing.T) {
	dir := t.TempDir()
	o, real, orig, bad := blockedPair(t, dir)
	linkDir := t.TempDir()
	link := filepath.Join(linkDir, "edited.docx")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	res, err := restoreFiles(t, o, link, "")
	if err != nil || !res.Restored {
		t.Fatalf("restore through a link: %v", err)
	}
	if st, err := os.Lstat(link); err != nil || st.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the link was replaced: %v %v", st.Mode(), err)
	}
	if to, _ := os.Readlink(link); to != real {
		t.Errorf("the link now points to %s", to)
	}
	if got, _ := os.ReadFile(real); !bytes.Equal(got, orig) {
		t.Error("the link's target does not hold the original's bytes")
	}
	if got, _ := os.ReadFile(filepath.Join(linkDir, "edited.rejected.docx")); !bytes.Equal(got, bad) {
		t.Error("the rejected bytes were not kept beside the link")
	}
	if !strings.Contains(res.RestoreNote, "symbolic link") || !strings.Contains(res.Feedback, real) {
		t.Errorf("note %q / feedback %q do not say the link was followed", res.RestoreNote, res.Feedback)
	}

	// A dangling link is refused, nothing written.
	dangling := filepath.Join(linkDir, "gone.docx")
	if err := os.Symlink(filepath.Join(dir, "nothing.docx"), dangling); err != nil {
		t.Fatal(err)
	}
	if _, err := restoreFiles(t, o, dangling, ""); err == nil {
		t.Error("a dangling link as the edited path: no error")
	}
}

// TestRestoreKeepsModeOwnerAndEarlierCopies: the restored file keeps the
// edited file's mode and owner; a second rejected edit is kept beside the
// first (edited.rejected-2.docx), never over it; hard links are named.
func TestRestoreKeepsModeOwnerAndEarlierCopies(t *testing.T) {
	dir := t.TempDir()
	o, e, orig, bad := blockedPair(t, dir)
	if err := os.Chmod(e, 0o600); err != nil {
		t.Fatal(err)
	}
	chowned := os.Chown(e, 4321, 4322) == nil // as root
	if _, err := restoreFiles(t, o, e, ""); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(e)
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want 0600", st.Mode().Perm())
	}
	if s := st.Sys().(*syscall.Stat_t); chowned && (s.Uid != 4321 || s.Gid != 4322) {
		t.Errorf("owner %d:%d, want 4321:4322", s.Uid, s.Gid)
	}
	first := filepath.Join(dir, "edited.rejected.docx")
	if got, _ := os.ReadFile(first); !bytes.Equal(got, bad) {
		t.Fatal("first rejected copy wrong")
	}

	// The agent breaks it again, differently; a hard link to it elsewhere.
	bad2 := mutateDoc(t, "xml.not-well-formed", orig)
	if err := os.WriteFile(e, bad2, 0o600); err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(dir, "other-name.docx")
	if err := os.Link(e, other); err != nil {
		t.Fatal(err)
	}
	res, err := restoreFiles(t, o, e, "")
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(first); !bytes.Equal(got, bad) {
		t.Error("the earlier rejected copy was overwritten")
	}
	second := filepath.Join(dir, "edited.rejected-2.docx")
	if got, _ := os.ReadFile(second); !bytes.Equal(got, bad2) || res.RejectedCopy != second {
		t.Errorf("second rejected copy at %s", res.RejectedCopy)
	}
	if got, _ := os.ReadFile(e); !bytes.Equal(got, orig) {
		t.Error("not restored")
	}
	if !strings.Contains(res.RestoreNote, "1 other hard links") {
		t.Errorf("note %q does not name the hard link", res.RestoreNote)
	}
}

// TestFilesRefusesSpecialFiles: a FIFO, a device and a folder as either
// input are told from their stat before any open, at once (a FIFO used to
// hang the audit): as the edited file, the finding file.missing; as the
// original, inspect.ErrNotRegular.
func TestFilesRefusesSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	o, _, _, _ := blockedPair(t, dir)
	fifo := filepath.Join(dir, "pipe.docx")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip(err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for _, p := range []string{fifo, "/dev/zero", dir} {
			// As the edited file: the finding file.missing, blocked, and
			// with Restore nothing is put over it.
			res, err := audit.Files(context.Background(), o, p, audit.Options{Render: audit.RenderOff, Restore: true})
			if err != nil || !res.Blocked || res.Restored || len(res.NewFindings) != 1 || res.NewFindings[0].Code != formats.CodeFileMissing {
				t.Errorf("%s as the edited file: %v %+v", p, err, res)
			}
			// As the original: an error.
			if _, err := audit.Files(context.Background(), p, o, audit.Options{Render: audit.RenderOff}); !errors.Is(err, inspect.ErrNotRegular) {
				t.Errorf("%s as the original: %v, want ErrNotRegular", p, err)
			}
		}
		if st, err := os.Stat(fifo); err != nil || st.Mode()&os.ModeNamedPipe == 0 {
			t.Errorf("the FIFO was replaced: %v", err)
		}
	}()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		t.Fatal("the audit blocked on a special file")
	}
}

// TestFilesOverLimitNotRead: an edited file over the size limit is not
// read (a sparse 1 TiB file would exhaust memory): the audit reports the
// limit as a new fatal finding and can restore it; the rejected copy is
// the same file (a hard link), never read either.
func TestFilesOverLimitNotRead(t *testing.T) {
	dir := t.TempDir()
	o, _, orig, _ := blockedPair(t, dir)
	e := filepath.Join(dir, "huge.docx")
	testdoc.Sparse(t, e, 1<<40)
	res, err := restoreFiles(t, o, e, "")
	if err != nil {
		t.Fatal(err)
	}
	if !res.Blocked || len(res.NewFindings) != 1 || res.NewFindings[0].Code != formats.CodeZipLimit {
		t.Fatalf("blocked %v, findings %v", res.Blocked, res.NewFindings)
	}
	if got, _ := os.ReadFile(e); !bytes.Equal(got, orig) {
		t.Error("not restored")
	}
	if st, err := os.Stat(filepath.Join(dir, "huge.rejected.docx")); err != nil || st.Size() != 1<<40 {
		t.Errorf("rejected copy: %v", err)
	}
}

// TestTamperedStoreEntryRebuilt: a snapshot.json edited in the store so
// that the edit's fatal finding looks pre-existing (it used to let the
// blocked edit pass) fails its checksum: the entry is rebuilt from the
// original and the edit is blocked again.
func TestTamperedStoreEntryRebuilt(t *testing.T) {
	dir := t.TempDir()
	o, e, _, _ := blockedPair(t, dir)
	store, err := baseline.OpenStore(filepath.Join(dir, "store"))
	if err != nil {
		t.Fatal(err)
	}
	opts := audit.Options{Render: audit.RenderOff, Store: store}
	res, err := audit.Files(context.Background(), o, e, opts)
	if err != nil || !res.Blocked {
		t.Fatalf("first audit: blocked %v, %v", res != nil && res.Blocked, err)
	}
	var entry string
	filepath.WalkDir(store.Dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Name() == "snapshot.json" {
			entry = p
		}
		return nil
	})
	b, err := os.ReadFile(entry)
	if err != nil {
		t.Fatal(err)
	}
	var snap map[string]any
	if err := json.Unmarshal(b, &snap); err != nil {
		t.Fatal(err)
	}
	rep := snap["report"].(map[string]any)
	fj, _ := json.Marshal(res.NewFindings[0])
	var f any
	json.Unmarshal(fj, &f)
	rep["findings"] = append(rep["findings"].([]any), f)
	b, _ = json.Marshal(snap)
	if err := os.WriteFile(entry, b, 0o644); err != nil {
		t.Fatal(err)
	}
	res, err = audit.Files(context.Background(), o, e, opts)
	if err != nil || !res.Blocked || len(res.NewFindings) != 1 {
		t.Errorf("after tampering with the store: blocked %v, %d new findings, %v", res != nil && res.Blocked, len(res.NewFindings), err)
	}
}
