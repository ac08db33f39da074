//go:build !unix

package pixeldiff

import (
	"os/exec"
	"syscall"
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
