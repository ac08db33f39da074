//go:build unix

package corpus

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/editaudit/editaudit/audit"
	"github.com/editaudit/editaudit/corpus/results"
)

// TestMissingEditIsAFinding: an edited path that names no document
// (missing, a FIFO, a folder) is the finding file.missing, blocked, as in
// the audit command and DESIGN.md, not a pair the tool failed; a resume
// keeps it until the file appears, then audits it. A missing original is
// still a failed pair.
func TestMissingEditIsAFinding(t *testing.T) {
	dir := t.TempDir()
	pairs := tinyPairs(t, dir, 2)
	fifo := filepath.Join(dir, "pipe.docx")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip(err)
	}
	later := filepath.Join(dir, "later.docx")
	pairs = append(pairs,
		Pair{ID: "missing", Original: pairs[0].Original, Edited: later},
		Pair{ID: "fifo", Original: pairs[0].Original, Edited: fifo},
		Pair{ID: "folder", Original: pairs[0].Original, Edited: dir},
		Pair{ID: "no-original", Original: filepath.Join(dir, "gone.docx"), Edited: pairs[0].Edited})
	out := filepath.Join(dir, "run")
	store := openTestStore(t)
	run := func() (*RunStats, map[string]results.Line) {
		t.Helper()
		st, err := RunPairs(context.Background(), pairs, RunOptions{Out: out, Store: store, Render: audit.RenderOff})
		if err != nil {
			t.Fatal(err)
		}
		lines := map[string]results.Line{}
		if _, err := results.Scan(filepath.Join(out, results.ResultsFile), func(l results.Line) error {
			lines[l.ID] = l
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		return st, lines
	}
	st, lines := run()
	if st.Audited != 5 || st.Failed != 1 {
		t.Errorf("first run: %+v, want 5 audited, 1 failed (the missing original)", st)
	}
	for _, id := range []string{"missing", "fifo", "folder"} {
		l := lines[id]
		if l.Failed || !l.Blocked || !bytes.Contains(l.Raw, []byte(`"code":"file.missing"`)) {
			t.Errorf("%s: failed %v blocked %v: %s", id, l.Failed, l.Blocked, l.Raw)
		}
	}
	if !lines["no-original"].Failed {
		t.Errorf("a missing original: %s, want a failed pair", lines["no-original"].Raw)
	}
	if err := os.WriteFile(later, tinyDocx("Hello later"), 0o644); err != nil {
		t.Fatal(err)
	}
	st, lines = run()
	// The pair whose file appeared and the failed pair are audited again;
	// the FIFO, the folder and the two edits are kept.
	if st.Audited+st.Failed != 2 || st.Skipped != 4 {
		t.Errorf("resume: %+v, want 2 audited again, 4 kept", st)
	}
	if l := lines["missing"]; l.Blocked || l.Failed {
		t.Errorf("the edit that appeared: %s", l.Raw)
	}
}
