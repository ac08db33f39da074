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

// groupUsage is unknown without /proc: no memory cap either.
func groupUsage(int) (time.Duration, int64, bool) { return 0, 0, false }

// boundSockets is unknown without /proc.
func boundSockets(int) []string { return nil }

// procsUsage is unknown without /proc.
func procsUsage(...int) (time.Duration, int64, bool) { return 0, 0, false }
