//go:build linux

package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/editaudit/editaudit/internal/testdoc"
)

var (
	cliOnce sync.Once
	cliBin  string
)

// TestMain removes the command built for the attack tests once they are
// done (it is shared by every test, so no test's TempDir can hold it).
func TestMain(m *testing.M) {
	code := m.Run()
	if cliBin != "" {
		os.RemoveAll(filepath.Dir(cliBin))
	}
	os.Exit(code)
}

// editauditBin builds the command once for the attack tests, which run it
// as a process (to kill it, limit its memory, signal it).
func editauditBin(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds and runs the command as a process")
	}
	cliOnce.Do(func() {
		dir, err := os.MkdirTemp("", "editaudit-attack-bin-")
		if err != nil {
			t.Fatal(err)
		}
		cliBin = filepath.Join(dir, "editaudit")
		cmd := exec.Command("go", "build", "-o", cliBin, ".")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go build: %v\n%s", err, out)
		}
	})
	return cliBin
}

// runBin runs the command with a deadline; code -1 means it had to be
// killed at the deadline (it hung).
func runBin(t *testing.T, deadline time.Duration, env []string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	cmd := exec.Command(editauditBin(t), args...)
	cmd.Env = append(os.Environ(), env...)
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	select {
	case <-done:
		return cmd.ProcessState.ExitCode(), o.String(), e.String()
	case <-time.After(deadline):
		cmd.Process.Kill()
		<-done
		return -1, o.String(), e.String()
	}
}

// TestAttackSpecialFiles: a FIFO (no writer), a device and a folder as
// input never hang audit, check or corpus run: each is told from its stat
// before any open — the finding file.missing for a document being judged,
// a usage error for any other path (the original, the manifest), a failed
// pair in a corpus run. A FIFO used to hang all three, deaf to SIGTERM.
func TestAttackSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	f := cliFiles(t, dir)
	fifo := filepath.Join(dir, "pipe.docx")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip(err)
	}
	fifoManifest := filepath.Join(dir, "pipe.csv")
	if err := syscall.Mkfifo(fifoManifest, 0o644); err != nil {
		t.Fatal(err)
	}
	store := t.TempDir()
	manifest := filepath.Join(dir, "pairs.csv")
	os.WriteFile(manifest, []byte("id,original,edited\nfifo,orig.docx,pipe.docx\ndev,orig.docx,/dev/zero\nfifo-orig,pipe.docx,ok.docx\nok,orig.docx,ok.docx\n"), 0o644)
	for _, tc := range []struct {
		name string
		args []string
		code int
		say  string
	}{
		{"audit FIFO", []string{"audit", "--render", "off", "--store", store, f["orig.docx"], fifo}, exitBlocked, "named pipe (FIFO)"},
		{"audit FIFO original", []string{"audit", "--render", "off", "--store", store, fifo, f["ok.docx"]}, exitUsage, "named pipe (FIFO)"},
		{"audit device", []string{"audit", "--render", "off", "--store", store, f["orig.docx"], "/dev/zero"}, exitBlocked, "character device"},
		{"check FIFO", []string{"check", fifo}, exitBlocked, "named pipe (FIFO)"},
		{"check device", []string{"check", "/dev/urandom"}, exitBlocked, "character device"},
		{"sanitize FIFO", []string{"sanitize", fifo, filepath.Join(dir, "clean.docx")}, exitUsage, "named pipe (FIFO)"},
		{"corpus run, FIFO manifest", []string{"corpus", "run", "--render", "off", "--progress", "none", "--store", store, "--out", filepath.Join(dir, "run0"), fifoManifest}, exitUsage, "named pipe (FIFO)"},
		{"corpus run", []string{"corpus", "run", "--render", "off", "--progress", "none", "--store", store, "--out", filepath.Join(dir, "run"), manifest}, exitOK, ""},
	} {
		start := time.Now()
		code, stdout, stderr := runBin(t, 60*time.Second, nil, tc.args...)
		if code == -1 {
			t.Errorf("%s: hung (killed after 60s)", tc.name)
			continue
		}
		if code != tc.code || !strings.Contains(stdout+stderr, tc.say) {
			t.Errorf("%s: exit %d, want %d with %q\nstdout %.300s\nstderr %s", tc.name, code, tc.code, tc.say, stdout, stderr)
		}
		t.Logf("%s: exit %d in %s", tc.name, code, time.Since(start).Round(time.Millisecond))
	}
	b, _ := os.ReadFile(filepath.Join(dir, "run", "results.jsonl"))
	for _, want := range []string{`"id":"fifo"`, `"id":"dev"`, `"id":"fifo-orig"`, "named pipe (FIFO)", "character device", `"id":"ok"`} {
		if !bytes.Contains(b, []byte(want)) {
			t.Errorf("results.jsonl lacks %s:\n%s", want, b)
		}
	}
}

// TestSignalWatchdog: the first SIGINT/SIGTERM cancels the command's
// context; a second one, or the grace period running out while something
// still blocks (a system call no context reaches: a hung network file
// system), ends the process with exit 130.
func TestSignalWatchdog(t *testing.T) {
	for _, second := range []bool{true, false} {
		sigs := make(chan os.Signal, 2)
		ctx, cancel := context.WithCancel(context.Background())
		exited := make(chan int, 1)
		go watchSignals(sigs, cancel, 200*time.Millisecond, io.Discard, func(code int) { exited <- code })
		sigs <- syscall.SIGTERM
		select {
		case <-ctx.Done():
		case <-time.After(5 * time.Second):
			t.Fatal("the first signal did not cancel the context")
		}
		start := time.Now()
		if second {
			sigs <- syscall.SIGINT
		}
		select {
		case code := <-exited:
			if code != exitCancel {
				t.Errorf("exit %d, want 130", code)
			}
			if d := time.Since(start); second && d > 150*time.Millisecond {
				t.Logf("a second signal took %s to end the process", d)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("second signal %v: the process was not ended", second)
		}
	}
}

// TestAttackFileLargerThanMemory: a sparse 4 GiB file, larger than the
// 2.5 GiB of address space the process is given (ulimit -v), as the edited
// file of an audit and of a corpus run, and resumed: never read, reported
// as a new fatal zip.limit, the run finishes and so does its resume. It
// used to crash with "fatal error: out of memory" (exit 2), every resume
// too.
func TestAttackFileLargerThanMemory(t *testing.T) {
	bin := editauditBin(t)
	dir := t.TempDir()
	f := cliFiles(t, dir)
	huge := filepath.Join(dir, "huge.docx")
	testdoc.Sparse(t, huge, 4<<30)
	manifest := filepath.Join(dir, "pairs.csv")
	os.WriteFile(manifest, []byte("id,original,edited\nhuge,orig.docx,huge.docx\nok,orig.docx,ok.docx\n"), 0o644)
	store := t.TempDir()
	run := filepath.Join(dir, "run")
	limited := func(args ...string) (int, string, string) {
		// 2.5 GiB of address space: a Go process reserves about 1.7 GiB
		// of it idle, so the file cannot be held in memory.
		sh := `ulimit -v 2621440 && exec "$@"`
		cmd := exec.Command("bash", append([]string{"-c", sh, "bash", bin}, args...)...)
		var o, e bytes.Buffer
		cmd.Stdout, cmd.Stderr = &o, &e
		cmd.Run()
		return cmd.ProcessState.ExitCode(), o.String(), e.String()
	}
	code, stdout, stderr := limited("audit", "--render", "off", "--store", store, "--format", "json", f["orig.docx"], huge)
	if code != exitBlocked || !strings.Contains(stdout, "zip.limit") {
		t.Errorf("audit: exit %d\n%.500s\n%s", code, stdout, stderr)
	}
	for i, what := range []string{"run", "resume"} {
		code, stdout, stderr = limited("corpus", "run", "--render", "off", "--progress", "none", "--store", store, "--out", run, manifest)
		if code != exitOK {
			t.Errorf("corpus %s under ulimit -v: exit %d\n%s\n%s", what, code, stdout, stderr)
		}
		want := "2 audited"
		if i == 1 {
			want = "2 kept from an earlier run"
		}
		if !strings.Contains(stdout, want) {
			t.Errorf("corpus %s: %q not in\n%s", what, want, stdout)
		}
	}
}

// TestAttackRestoreKilled: `audit --restore` killed with SIGKILL at random
// moments (fixed seed): at every moment the edited path exists and holds
// either the rejected edit or the original, whole; whenever it holds the
// original, the rejected bytes are kept; the original is never touched.
func TestAttackRestoreKilled(t *testing.T) {
	bin := editauditBin(t)
	rng := rand.New(rand.NewSource(18))
	store := t.TempDir()
	var restored, untouched int
	for i := 0; i < 12; i++ {
		dir := t.TempDir()
		f := cliFiles(t, dir)
		orig, _ := os.ReadFile(f["orig.docx"])
		bad, _ := os.ReadFile(f["broken.docx"])
		cmd := exec.Command(bin, "audit", "--render", "off", "--store", store, "--restore", f["orig.docx"], f["broken.docx"])
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Duration(rng.Intn(60)) * time.Millisecond)
		cmd.Process.Signal(syscall.SIGKILL)
		cmd.Wait()
		got, err := os.ReadFile(f["broken.docx"])
		switch {
		case err != nil:
			t.Fatalf("run %d: the edited path is gone after kill -9: %v", i, err)
		case bytes.Equal(got, orig):
			restored++
			var kept bool
			ents, _ := os.ReadDir(dir)
			for _, e := range ents {
				if b, _ := os.ReadFile(filepath.Join(dir, e.Name())); e.Name() != "broken.docx" && bytes.Equal(b, bad) {
					kept = true
				}
			}
			if !kept {
				t.Fatalf("run %d: restored, but the rejected bytes are nowhere", i)
			}
		case bytes.Equal(got, bad):
			untouched++
		default:
			t.Fatalf("run %d: the edited path holds %d bytes that are neither the edit nor the original", i, len(got))
		}
		if b, _ := os.ReadFile(f["orig.docx"]); !bytes.Equal(b, orig) {
			t.Fatalf("run %d: the original was modified", i)
		}
	}
	t.Logf("12 kills: %d after the restore, %d before it", restored, untouched)
}

// treeSums maps each regular file under dir (relative) to its sha256.
func treeSums(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() || d.Name() == "run.lock" {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		s := sha256.Sum256(b)
		rel, _ := filepath.Rel(dir, p)
		out[rel] = fmt.Sprintf("%d:%s", len(b), hex.EncodeToString(s[:8]))
		return nil
	})
	return out
}

// TestAttackMergeKilled: `corpus merge` killed with SIGKILL at random
// moments (fixed seed) and run again gives the same results as an
// uninterrupted merge, and no file of the input shards changes (a rerun
// used to truncate their hard-linked report.html files to 0 bytes).
func TestAttackMergeKilled(t *testing.T) {
	bin := editauditBin(t)
	dir := t.TempDir()
	manifest := corpusFixture(t, dir)
	store := filepath.Join(dir, "store")
	shards := cliShards(t, dir, store, manifest)
	before := map[string]map[string]string{}
	for _, d := range shards {
		before[d] = treeSums(t, d)
	}
	ref := filepath.Join(dir, "ref")
	if code, out, errs := cliRun(t, append([]string{"corpus", "merge", "--out", ref}, shards...)...); code != exitOK {
		t.Fatalf("merge: exit %d\n%s\n%s", code, out, errs)
	}
	want, _ := os.ReadFile(filepath.Join(ref, "results.jsonl"))
	rng := rand.New(rand.NewSource(18))
	for i := 0; i < 8; i++ {
		out := filepath.Join(dir, fmt.Sprintf("m%d", i))
		for k := 0; k < 2; k++ { // killed twice, then run to the end
			cmd := exec.Command(bin, append([]string{"corpus", "merge", "--out", out}, shards...)...)
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			time.Sleep(time.Duration(rng.Intn(40)) * time.Millisecond)
			cmd.Process.Signal(syscall.SIGKILL)
			cmd.Wait()
		}
		code, stdout, stderr := runBin(t, 60*time.Second, nil, append([]string{"corpus", "merge", "--out", out}, shards...)...)
		if code != exitOK && !(code == exitUsage && strings.Contains(stderr, "already holds")) {
			t.Fatalf("merge %d after two kills: exit %d\n%s\n%s", i, code, stdout, stderr)
		}
		if got, _ := os.ReadFile(filepath.Join(out, "results.jsonl")); !bytes.Equal(got, want) {
			t.Errorf("merge %d after kills differs from the uninterrupted merge", i)
		}
		for _, d := range shards {
			if after := treeSums(t, d); fmt.Sprint(after) != fmt.Sprint(before[d]) {
				t.Fatalf("merge %d changed the input %s:\nbefore %v\nafter  %v", i, d, before[d], after)
			}
		}
	}
}

// TestAttackRestoreSymlinkCLI: --restore on a symbolic link restores its
// target through the link, keeps the link, says so in the JSON.
func TestAttackRestoreSymlinkCLI(t *testing.T) {
	dir := t.TempDir()
	f := cliFiles(t, dir)
	orig, _ := os.ReadFile(f["orig.docx"])
	link := filepath.Join(t.TempDir(), "edited.docx")
	if err := os.Symlink(f["broken.docx"], link); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := cliRun(t, "audit", "--render", "off", "--store", t.TempDir(), "--format", "json", "--restore", f["orig.docx"], link)
	var res struct {
		Restored bool   `json:"restored"`
		Note     string `json:"restore_note"`
	}
	json.Unmarshal([]byte(stdout), &res)
	if code != exitBlocked || !res.Restored || !strings.Contains(res.Note, "symbolic link") {
		t.Fatalf("exit %d, %+v\n%s", code, res, stderr)
	}
	if st, _ := os.Lstat(link); st.Mode()&os.ModeSymlink == 0 {
		t.Error("the link was replaced by a file")
	}
	if b, _ := os.ReadFile(f["broken.docx"]); !bytes.Equal(b, orig) {
		t.Error("the link's target was not restored")
	}
}

// TestAttackStaleRenderFolders: a render killed with SIGKILL leaves its
// working folder (staged document, PDFs) in TMPDIR; the next start that
// renders sweeps it, and leaves nothing of its own.
func TestAttackStaleRenderFolders(t *testing.T) {
	bin := editauditBin(t)
	testdoc.Tool(t, "soffice")
	tmp := t.TempDir()
	dir := t.TempDir()
	doc := filepath.Join(dir, "contract.docx")
	os.WriteFile(doc, cliDocx(t, "cell", "Hello"), 0o644)
	env := []string{"TMPDIR=" + tmp}
	cmd := exec.Command(bin, "render", "--out", filepath.Join(dir, "pages"), doc)
	cmd.Env = append(os.Environ(), env...)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(60 * time.Second)
	for {
		// The document staged for LibreOffice: the pool is converting.
		m, _ := filepath.Glob(filepath.Join(tmp, "editaudit-render-*", "stage", "*"))
		if len(m) > 0 || time.Now().After(deadline) {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	stale, _ := filepath.Glob(filepath.Join(tmp, "editaudit-render-*"))
	if len(stale) == 0 {
		t.Fatal("the killed render left no folder: nothing to sweep (the kill came too late?)")
	}
	code, stdout, stderr := runBin(t, 180*time.Second, env, "render", "--out", filepath.Join(dir, "pages2"), doc)
	if code != exitOK {
		t.Fatalf("render after the kill: exit %d\n%s\n%s", code, stdout, stderr)
	}
	if left, _ := filepath.Glob(filepath.Join(tmp, "editaudit-*")); len(left) != 0 {
		t.Errorf("left in TMPDIR after the next render: %v", left)
	}
}

// TestAttackNoFonts: LibreOffice without a single font aborts on every
// document ("No fonts could be found on the system"). With --render on,
// audit and corpus run exit 3 saying the renderer cannot render even a
// test document (the run stops, nothing written for the pairs in flight);
// with auto, the audit passes with pages failed saying why (never "not
// installed"), not remembered. It used to be pages failed, exit 0 with
// --render on, cached as the original's.
func TestAttackNoFonts(t *testing.T) {
	testdoc.Tool(t, "soffice")
	dir := t.TempDir()
	f := cliFiles(t, dir)
	conf := filepath.Join(dir, "fonts.conf")
	os.WriteFile(conf, []byte(`<?xml version="1.0"?><!DOCTYPE fontconfig SYSTEM "fonts.dtd"><fontconfig><dir>`+filepath.Join(dir, "no-fonts")+`</dir><cachedir>`+filepath.Join(dir, "fc-cache")+`</cachedir></fontconfig>`), 0o644)
	env := []string{"FONTCONFIG_FILE=" + conf, "TMPDIR=" + t.TempDir()}
	store := t.TempDir()
	code, stdout, stderr := runBin(t, 300*time.Second, env, "audit", "--render", "on", "--store", store, f["orig.docx"], f["ok.docx"])
	if code != exitTool || !strings.Contains(stderr, "cannot render even a one-line test document") || !strings.Contains(stderr, "No fonts") {
		t.Errorf("audit --render on without fonts: exit %d\n%s\n%s", code, stdout, stderr)
	}
	manifest := filepath.Join(dir, "pairs.csv")
	os.WriteFile(manifest, []byte("id,original,edited\na,orig.docx,ok.docx\nb,orig.docx,broken.docx\n"), 0o644)
	run := filepath.Join(dir, "run")
	code, stdout, stderr = runBin(t, 300*time.Second, env, "corpus", "run", "--render", "on", "--progress", "none", "--store", store, "--out", run, manifest)
	// Stopped before the first pair (the warm engine's LibreOffice dies
	// before it listens), or at the first pair (the batch engine's).
	if code != exitTool || !strings.Contains(stderr, "the run stopped") && !strings.Contains(stderr, "cannot render even a one-line test document") {
		t.Errorf("corpus run --render on without fonts: exit %d\n%s\n%s", code, stdout, stderr)
	}
	if b, _ := os.ReadFile(filepath.Join(run, "results.jsonl")); len(b) != 0 {
		t.Errorf("the stopped run wrote results:\n%s", b)
	}
	code, stdout, stderr = runBin(t, 300*time.Second, env, "audit", "--render", "auto", "--store", store, "--format", "json", f["orig.docx"], f["ok.docx"])
	if code != exitOK || !strings.Contains(stdout, "No fonts") || strings.Contains(stdout, "not installed") {
		t.Errorf("audit --render auto without fonts: exit %d\n%.600s\n%s", code, stdout, stderr)
	}
	// Only inspection-only entries (-norender, as with --render off) may
	// be stored: never a page failure.
	m, _ := filepath.Glob(filepath.Join(store, "v1", "*", "*", "snapshot.json"))
	for _, e := range m {
		if !strings.HasSuffix(filepath.Dir(e), "-norender") {
			t.Errorf("stored without fonts: %s", e)
		}
	}
}
