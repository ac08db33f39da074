//go:build unix

package corpus

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/editaudit/editaudit/corpus/results"
)

// buildCLI builds cmd/editaudit into a temporary folder.
func buildCLI(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "editaudit")
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/editaudit")
	cmd.Dir = ".."
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

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

// TestRunKilledAndResumed runs the CLI as a subprocess. Two edited files
// are named pipes, so the run stops there with both jobs blocked: it is
// killed with SIGKILL mid-run, resumed and interrupted with SIGINT, then
// resumed to the end once the files are real. results.jsonl never holds a
// torn line or a duplicate, and no finished pair is audited twice.
func TestRunKilledAndResumed(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the CLI")
	}
	bin := buildCLI(t)
	dir := t.TempDir()
	l := buildLabelled(t, dir)
	const block = 10 // pairs[block] and pairs[block+1] block the run
	var manifest bytes.Buffer
	for _, p := range l.pairs {
		b, _ := json.Marshal(map[string]string{"id": p.ID, "group": p.Group, "original": p.Original, "edited": p.Edited})
		manifest.Write(append(b, '\n'))
	}
	mpath := filepath.Join(dir, "pairs.jsonl")
	if err := os.WriteFile(mpath, manifest.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	saved := map[string][]byte{}
	// The run feeds pairs interleaved by original; the two pipes are the
	// pairs fed in positions block and block+1.
	for _, p := range interleave(l.pairs)[block : block+2] {
		b, err := os.ReadFile(p.Edited)
		if err != nil {
			t.Fatal(err)
		}
		saved[p.Edited] = b
		if err := os.Remove(p.Edited); err != nil {
			t.Fatal(err)
		}
		if err := syscall.Mkfifo(p.Edited, 0o644); err != nil {
			t.Skipf("mkfifo: %v", err)
		}
	}
	// What a resume keeps: the results of the pairs fed before the pipes,
	// except failures (they are retried).
	kept := 0
	for _, p := range interleave(l.pairs)[:block] {
		if _, ok := l.expect[p.ID]; ok {
			kept++
		}
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
	waitLines := func(n int) {
		deadline := time.Now().Add(60 * time.Second)
		for countLines(resultsPath) < n {
			if time.Now().After(deadline) {
				t.Fatalf("%d lines after 60s, want %d", countLines(resultsPath), n)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}

	// 1. kill -9 while both jobs are blocked on the pipes.
	cmd, _ := start()
	waitLines(block)
	time.Sleep(300 * time.Millisecond)
	if n := countLines(resultsPath); n != block {
		t.Fatalf("%d lines while blocked, want %d", n, block)
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	if got := readAll(t, out); len(got) != block {
		t.Fatalf("%d records after kill -9, want %d", len(got), block)
	}

	// 2. resume, still blocked: SIGINT cancels it cleanly (exit 130).
	cmd, stderr := start()
	time.Sleep(1500 * time.Millisecond)
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
	if code := cmd.ProcessState.ExitCode(); code != 130 {
		t.Errorf("exit code %d after SIGINT, want 130\n%s", code, stderr)
	}
	if !strings.Contains(stderr.String(), "resume") {
		t.Errorf("stderr does not say how to resume:\n%s", stderr)
	}
	if got := readAll(t, out); len(got) != block {
		t.Errorf("%d records after SIGINT, want %d", len(got), block)
	}
	if ri, err := results.ReadRunInfo(out); err != nil || len(ri.Sessions) != 2 || !ri.Sessions[1].Cancelled || ri.Sessions[1].Skipped != kept {
		t.Errorf("run.json: %+v %v", ri, err)
	}

	// 3. the pipes become files: the resume finishes every pair, skipping
	// the ones done before.
	for path, b := range saved {
		if err := os.Remove(path); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd, stderr = start()
	if err := cmd.Wait(); err != nil {
		t.Fatalf("resume: %v\n%s", err, stderr)
	}
	e := lastProgress(t, stderr.String())
	if e.Type != "done" || e.Skipped != int64(kept) || e.Done != int64(len(l.pairs)) || e.Failed != 1 {
		t.Errorf("last progress %+v, want done with %d skipped of %d", e, kept, len(l.pairs))
	}
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
