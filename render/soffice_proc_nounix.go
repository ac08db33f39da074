//go:build !unix

package render

import (
	"os/exec"
	"syscall"
	"time"
)

// setProcessGroup is a no-op where process groups do not exist.
func setProcessGroup(*exec.Cmd) {}

// killGroup kills the direct child only.
func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = cmd.Process.Kill()
	}
}

func signalName(s syscall.Signal) string { return s.String() }

// groupCPU is unknown here: deadlines are wall-clock only.
func groupCPU(int) (time.Duration, bool) { return 0, false }

// groupUsage is unknown here: no memory cap either.
func groupUsage(int) (time.Duration, int64, bool) { return 0, 0, false }

// boundSockets is unknown here.
func boundSockets(int) []string { return nil }

// joinProcessGroup only sets up the command where there are no groups.
func joinProcessGroup(*exec.Cmd, int) {}

// lockFolder cannot lock here: every folder counts as held by another
// owner, so none is swept.
func lockFolder(string) (func(), bool, error) { return func() {}, false, nil }

// procsUsage is unknown here.
func procsUsage(...int) (time.Duration, int64, bool) { return 0, 0, false }
