//go:build unix

package fsutil

import (
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestSweepStale: a folder whose owning process was killed with SIGKILL is
// swept; one held by a live process (another process, or this one) is
// kept; a young folder without a lock is kept, an old one swept.
func TestSweepStale(t *testing.T) {
	tmp := t.TempDir()
	// A live owner in this process.
	mine, release, err := MkdirTempOwned(tmp, "editaudit-render-")
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	// An owner in another process (the test binary, re-run as a helper
	// that takes the folder and waits), then killed with SIGKILL.
	spawn := func() (*exec.Cmd, string) {
		cmd := exec.Command(os.Args[0], "-test.run=^TestHelperOwner$")
		cmd.Env = append(os.Environ(), "FSUTIL_OWNER_IN="+tmp)
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		buf := make([]byte, 4096)
		n, _ := out.Read(buf)
		dir := string(buf[:n])
		if dir == "" {
			t.Fatal("the helper did not say its folder")
		}
		return cmd, dir
	}
	killed, killedDir := spawn()
	alive, aliveDir := spawn()
	defer func() { alive.Process.Kill(); alive.Wait() }()
	if err := killed.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	killed.Wait()
	old := filepath.Join(tmp, "editaudit-render-old")
	young := filepath.Join(tmp, "editaudit-render-young")
	for _, d := range []string{old, young} {
		if err := os.Mkdir(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	day := time.Now().Add(-25 * time.Hour)
	os.Chtimes(old, day, day)
	other := filepath.Join(tmp, "someone-else")
	os.Mkdir(other, 0o700)

	removed := SweepStale(tmp, "editaudit-render-")
	gone := map[string]bool{}
	for _, r := range removed {
		gone[r] = true
	}
	for d, want := range map[string]bool{killedDir: true, old: true, aliveDir: false, mine: false, young: false} {
		if _, err := os.Stat(d); (err == nil) == want || gone[d] != want {
			t.Errorf("%s: removed %v, want %v", filepath.Base(d), gone[d], want)
		}
	}
	if _, err := os.Stat(other); err != nil {
		t.Error("a folder of another prefix was swept")
	}
}

// TestHelperOwner is the helper process of TestSweepStale.
func TestHelperOwner(t *testing.T) {
	dir := os.Getenv("FSUTIL_OWNER_IN")
	if dir == "" {
		t.Skip("a helper of TestSweepStale")
	}
	p, _, err := MkdirTempOwned(dir, "editaudit-render-")
	if err != nil {
		os.Exit(1)
	}
	os.WriteFile(filepath.Join(p, "document.pdf"), []byte("%PDF"), 0o600)
	os.Stdout.WriteString(p)
	time.Sleep(time.Minute)
	os.Exit(0)
}
