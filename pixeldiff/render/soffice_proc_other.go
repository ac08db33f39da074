//go:build unix && !linux

package render

import (
	"syscall"
	"time"
)

// setParentDeathSignal is Linux-only; elsewhere Close and context
// cancellation are the only cleanup.
func setParentDeathSignal(*syscall.SysProcAttr) {}

// groupCPU is unknown without /proc: deadlines are wall-clock only.
func groupCPU(int) (time.Duration, bool) { return 0, false }
