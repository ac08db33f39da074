package audit

import (
	"bytes"
	"errors"
	"math/rand"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
	"time"
)

// restoreFixture writes the audited edited bytes A at dir/edited.docx and
// returns the two docs restore is given.
func restoreFixture(t *testing.T, dir string) (orig, edited doc) {
	t.Helper()
	p := filepath.Join(dir, "edited.docx")
	if err := os.WriteFile(p, []byte("A: the audited, rejected edit"), 0o640); err != nil {
		t.Fatal(err)
	}
	a, _ := os.ReadFile(p)
	o := []byte("ORIGINAL bytes")
	return doc{name: "original.docx", data: o, sha: sha256Hex(o)}, doc{name: p, path: p, data: a, sha: sha256Hex(a)}
}

// TestRestoreIsCompareAndSwap: a save that lands while the audit runs is
// never overwritten. A writer saves B (write a temp file, rename it over:
// what editors and python-docx's save do) at a random moment around the
// restore, 200 times with a fixed seed. Whatever the order, B is at the
// edited path at the end; a successful restore kept exactly the audited
// bytes A as the rejected copy; a refused one says ErrEditedChanged and
// leaves no rejected copy and no temp file.
func TestRestoreIsCompareAndSwap(t *testing.T) {
	rng := rand.New(rand.NewSource(18))
	var ok, refused int
	for i := 0; i < 200; i++ {
		dir := t.TempDir()
		orig, edited := restoreFixture(t, dir)
		rej := filepath.Join(dir, "edited.rejected.docx")
		b := []byte("B: a newer save by someone else")
		delay := time.Duration(rng.Intn(400)) * time.Microsecond
		var wg sync.WaitGroup
		wg.Add(1)
		go func() {
			defer wg.Done()
			time.Sleep(delay)
			tmp := filepath.Join(dir, ".save.tmp")
			if err := os.WriteFile(tmp, b, 0o644); err != nil {
				t.Error(err)
				return
			}
			if err := os.Rename(tmp, edited.path); err != nil {
				t.Error(err)
			}
		}()
		runtime.Gosched()
		done, err := restore(edited.path, orig, edited, rej)
		wg.Wait()
		got, rerr := os.ReadFile(edited.path)
		if rerr != nil || !bytes.Equal(got, b) {
			t.Fatalf("run %d (delay %s): the edited path holds %q (%v), want the newer save B (restore: %v)", i, delay, got, rerr, err)
		}
		switch {
		case err == nil:
			ok++
			if kept, _ := os.ReadFile(done.rejected); !bytes.Equal(kept, edited.data) {
				t.Fatalf("run %d: rejected copy %q, want the audited bytes", i, kept)
			}
		case errors.Is(err, ErrEditedChanged):
			refused++
			if _, err := os.Stat(rej); err == nil {
				t.Fatalf("run %d: a refused restore left a rejected copy", i)
			}
		default:
			t.Fatalf("run %d: %v", i, err)
		}
		ents, _ := os.ReadDir(dir)
		for _, e := range ents {
			if n := e.Name(); n != "edited.docx" && n != "edited.rejected.docx" {
				t.Fatalf("run %d: %s left in the folder", i, n)
			}
		}
	}
	t.Logf("200 races: %d restored before the save, %d refused after it", ok, refused)
	if ok == 0 || refused == 0 {
		t.Logf("only one order was hit (the delays did not straddle the restore on this machine)")
	}
}

// TestRestoreRefusesAChangedFile: the file changed after the audit (same
// size, other bytes): refused with ErrEditedChanged, nothing written.
func TestRestoreRefusesAChangedFile(t *testing.T) {
	dir := t.TempDir()
	orig, edited := restoreFixture(t, dir)
	changed := bytes.ToUpper(edited.data)
	if err := os.WriteFile(edited.path, changed, 0o640); err != nil {
		t.Fatal(err)
	}
	if _, err := restore(edited.path, orig, edited, filepath.Join(dir, "rej.docx")); !errors.Is(err, ErrEditedChanged) {
		t.Fatalf("restore of a changed file: %v", err)
	}
	if got, _ := os.ReadFile(edited.path); !bytes.Equal(got, changed) {
		t.Error("the changed file was overwritten")
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Errorf("%d entries in the folder, want 1", len(ents))
	}
}
