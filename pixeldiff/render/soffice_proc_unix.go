//go:build unix

package render

import (
	"os/exec"
	"syscall"

	"golang.org/x/sys/unix"
)

// setProcessGroup starts cmd as the leader of a new process group, so that
// everything it spawns (the soffice script → oosplash → soffice.bin chain,
// a wrapper's children) can be killed at once.
func setProcessGroup(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
	setParentDeathSignal(cmd.SysProcAttr)
}

// killGroup sends SIGKILL to cmd's whole process group. It is a no-op before
// Start and harmless when the group is already gone.
func killGroup(cmd *exec.Cmd) {
	if cmd.Process == nil {
		return
	}
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
}

// signalName is "SIGSEGV (segmentation fault)" for a signal.
func signalName(s syscall.Signal) string {
	if n := unix.SignalName(s); n != "" {
		return n + " (" + s.String() + ")"
	}
	return s.String()
}
