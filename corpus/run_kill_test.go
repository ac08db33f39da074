//go:build unix

package corpus

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/editaudit/editaudit/corpus/results"
	"github.com/editaudit/editaudit/internal/testdoc"
)

// buildCLI builds cmd/editaudit into a temporary folder.
func buildCLI(t *testing.T) string { return testdoc.BuildCLI(t) }

// countLines counts the newline-terminated lines of a file.
func countLines(path string) int {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0
	}
	return bytes.Count(b, []byte("\n"))
}

// lastProgress returns the last JSON progress line on stderr.
func lastProgress(t *testing.T, stderr string) ProgressEvent {
	t.Helper()
	var e ProgressEvent
	found := false
	sc := bufio.NewScanner(strings.NewReader(stderr))
	for sc.Scan() {
		var x ProgressEvent
		if json.Unmarshal(sc.Bytes(), &x) == nil && x.Type != "" {
			e, found = x, true
		}
	}
	if !found {
		t.Fatalf("no progress line on stderr:\n%s", stderr)
	}
	return e
}

// currentLines reads results.jsonl after a kill: it must end with a
// whole line and every line must be a record (a superseded line of a
// retried pair may still be there: compaction happens on the next start).
// It returns the current line of each id whose result is not an error.
func currentLines(t *testing.T, path string) map[string]string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		if os.IsNotExist(err) {
			return map[string]string{}
		}
		t.Fatal(err)
	}
	if len(b) > 0 && b[len(b)-1] != '\n' {
		t.Fatalf("%s ends with a torn line after kill -9", results.ResultsFile)
	}
	done := map[string]string{}
	for i, line := range bytes.Split(bytes.TrimSuffix(b, []byte("\n")), []byte("\n")) {
		var r results.Record
		if err := json.Unmarshal(line, &r); err != nil {
			t.Fatalf("line %d is not a record after kill -9: %v", i+1, err)
		}
		if r.Failed() {
			delete(done, r.ID)
		} else {
			done[r.ID] = string(line)
		}
	}
	return done
}

// TestRunKilledAndResumed runs the CLI as a subprocess and kills it with
// SIGKILL at random moments (a fixed seed), four times, then interrupts a
// resume with SIGINT, then resumes to the end. After every kill
// results.jsonl holds only whole records; a finished pair's line is never
// rewritten by a later session (it is not audited twice); SIGINT exits 130
// and says how to resume; the last resume skips exactly the finished
// pairs and leaves one clean line per pair.
func TestRunKilledAndResumed(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the CLI")
	}
	bin := buildCLI(t)
	dir := t.TempDir()
	l := buildLabelled(t, dir)
	var manifest bytes.Buffer
	for _, p := range l.pairs {
		b, _ := json.Marshal(map[string]string{"id": p.ID, "group": p.Group, "original": p.Original, "edited": p.Edited})
		manifest.Write(append(b, '\n'))
	}
	mpath := filepath.Join(dir, "pairs.jsonl")
	if err := os.WriteFile(mpath, manifest.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "run")
	resultsPath := filepath.Join(out, results.ResultsFile)
	args := []string{"corpus", "run", "--render", "off", "--jobs", "2", "--progress", "json", "--store", filepath.Join(dir, "store"), "--out", out, mpath}
	start := func() (*exec.Cmd, *bytes.Buffer) {
		cmd := exec.Command(bin, args...)
		var stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &bytes.Buffer{}, &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		return cmd, &stderr
	}
	// A finished pair's line, once written, must stay byte for byte.
	kept := map[string]string{}
	checkKept := func(when string) {
		now := currentLines(t, resultsPath)
		for id, line := range kept {
			if now[id] != line {
				t.Fatalf("%s: the finished pair %s was audited again or lost", when, id)
			}
		}
		kept = now
	}

	rng := rand.New(rand.NewSource(18))
	for i := 1; i <= 4; i++ {
		cmd, _ := start()
		// Random moments inside the run: after a few lines are written,
		// then a random extra delay.
		want := countLines(resultsPath) + 1 + rng.Intn(6)
		deadline := time.Now().Add(60 * time.Second)
		for countLines(resultsPath) < want && time.Now().Before(deadline) {
			time.Sleep(5 * time.Millisecond)
		}
		time.Sleep(time.Duration(rng.Intn(200)) * time.Millisecond)
		if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		_ = cmd.Wait()
		checkKept(fmt.Sprintf("kill %d", i))
		t.Logf("kill -9 #%d: %d pairs finished", i, len(kept))
	}

	// A resume interrupted by SIGINT: exit 130, whole lines, how to resume.
	cmd, stderr := start()
	time.Sleep(time.Duration(100+rng.Intn(400)) * time.Millisecond)
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		_ = cmd.Process.Kill()
		t.Fatal("SIGINT did not end the run within 30s")
	}
	if code := cmd.ProcessState.ExitCode(); code != 130 && code != 0 {
		t.Errorf("exit code %d after SIGINT, want 130\n%s", code, stderr)
	} else if code == 130 && !strings.Contains(stderr.String(), "resume") {
		t.Errorf("stderr does not say how to resume:\n%s", stderr)
	}
	checkKept("SIGINT")
	if ri, err := results.ReadRunInfo(out); err != nil || len(ri.Sessions) != 5 || (cmd.ProcessState.ExitCode() == 130 && !ri.Sessions[4].Cancelled) {
		t.Errorf("run.json after 5 sessions: %+v %v", ri, err)
	}

	// The last resume finishes every pair, skipping the finished ones.
	cmd, stderr = start()
	if err := cmd.Wait(); err != nil {
		t.Fatalf("resume: %v\n%s", err, stderr)
	}
	e := lastProgress(t, stderr.String())
	if e.Type != "done" || e.Skipped != int64(len(kept)) || e.Done != int64(len(l.pairs)) || e.Failed != 1 {
		t.Errorf("last progress %+v, want done with %d skipped of %d", e, len(kept), len(l.pairs))
	}
	checkKept("the last resume")
	got := readAll(t, out)
	if len(got) != len(l.pairs) {
		t.Errorf("%d records, want %d", len(got), len(l.pairs))
	}
	for _, p := range l.pairs {
		rec := got[p.ID]
		if rec == nil {
			t.Errorf("%s: no line", p.ID)
			continue
		}
		if exp, ok := l.expect[p.ID]; ok {
			checkOutcome(t, rec, exp, false)
		}
	}
	for _, f := range []string{results.SummaryFile, results.IndexFile, results.RunFile} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Error(err)
		}
	}
}
