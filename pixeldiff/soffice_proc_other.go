//go:build unix && !linux

package pixeldiff

import "syscall"

// setParentDeathSignal is Linux-only; elsewhere Close and context
// cancellation are the only cleanup.
func setParentDeathSignal(*syscall.SysProcAttr) {}
