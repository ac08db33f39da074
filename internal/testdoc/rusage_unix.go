//go:build unix

package testdoc

import (
	"syscall"
	"time"
)

// CPUTime is the user and system CPU time this process has used, for
// benchmarks that report CPU next to wall time.
func CPUTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// MaxRSS is the peak resident memory of this process so far, in bytes
// (Linux reports kilobytes).
func MaxRSS() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return int64(ru.Maxrss) * 1024
}
