//go:build linux

package pixeldiff

import "syscall"

// setParentDeathSignal makes the kernel kill the direct child when this
// process dies without cleaning up (SIGKILL, crash). Pool runs soffice.bin
// directly when it can, so the child is LibreOffice itself.
func setParentDeathSignal(a *syscall.SysProcAttr) { a.Pdeathsig = syscall.SIGKILL }
