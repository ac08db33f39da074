//go:build unix

package testdoc

import (
	"fmt"
	"os"
	"strconv"
	"strings"
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

// TreeCPU is the user+system CPU time of process pid, its reaped children
// and every live descendant (Linux /proc; 0 elsewhere): what a benchmark
// of a server with warm LibreOffice processes, alive throughout, must
// count.
func TreeCPU(pid int) time.Duration {
	parent := map[int]int{}
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		p, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if f := statFields(p); f != nil {
			pp, _ := strconv.Atoi(f[1])
			parent[p] = pp
		}
	}
	var ticks int64
	for p := range parent {
		q := p
		for q != 0 && q != pid {
			q = parent[q]
		}
		if q != pid {
			continue
		}
		f := statFields(p)
		if f == nil {
			continue
		}
		for _, i := range []int{11, 12, 13, 14} { // utime stime cutime cstime
			n, _ := strconv.ParseInt(f[i], 10, 64)
			ticks += n
		}
	}
	return time.Duration(ticks) * 10 * time.Millisecond // USER_HZ = 100 on Linux
}

// statFields is /proc/pid/stat after the command name: field 0 is state.
func statFields(pid int) []string {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return nil
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return nil
	}
	return strings.Fields(s[i+1:])
}
