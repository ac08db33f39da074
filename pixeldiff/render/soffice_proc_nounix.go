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
