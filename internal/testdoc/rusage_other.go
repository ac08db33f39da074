//go:build !unix

package testdoc

import "time"

// CPUTime is 0 where getrusage is missing.
func CPUTime() time.Duration { return 0 }

// MaxRSS is 0 where getrusage is missing.
func MaxRSS() int64 { return 0 }
