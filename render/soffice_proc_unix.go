//go:build unix

package render

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
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

// joinProcessGroup starts cmd inside the existing process group pgid (a
// warm LibreOffice's), so that killing that group kills cmd too.
func joinProcessGroup(cmd *exec.Cmd, pgid int) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pgid: pgid}
	setParentDeathSignal(cmd.SysProcAttr)
}

// lockFolder takes an exclusive lock on dir/lock, held until release (or
// until this process ends, however it ends: the kernel drops flock(2)
// locks with their last descriptor). held is false when another process
// holds it.
func lockFolder(dir string) (release func(), held bool, err error) {
	f, err := os.OpenFile(filepath.Join(dir, "lock"), os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, false, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, false, nil
		}
		return nil, false, err
	}
	return func() { f.Close() }, true, nil
}
