//go:build !unix

package testdoc

import "time"

// CPUTime is 0 where getrusage is missing.
func CPUTime() time.Duration { return 0 }

// MaxRSS is 0 where getrusage is missing.
func MaxRSS() int64 { return 0 }

// TreeCPU is 0 where /proc is missing.
func TreeCPU(pid int) time.Duration { return 0 }
