//go:build linux

package render

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"time"
)

// setParentDeathSignal makes the kernel kill the direct child when this
// process dies without cleaning up (SIGKILL, crash). Pool runs soffice.bin
// directly when it can, so the child is LibreOffice itself.
func setParentDeathSignal(a *syscall.SysProcAttr) { a.Pdeathsig = syscall.SIGKILL }

// clockTicks is USER_HZ, the unit of /proc/<pid>/stat times (100 on every
// Linux architecture Go supports).
const clockTicks = 100

// groupCPU returns the CPU time (user+system, including reaped children)
// used so far by the processes of process group pgid, read from
// /proc/<pid>/stat (proc(5)). ok is false when /proc cannot be read.
func groupCPU(pgid int) (cpu time.Duration, ok bool) {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return 0, false
	}
	want := strconv.Itoa(pgid)
	var ticks int64
	for _, e := range ents {
		if e.Name()[0] < '0' || e.Name()[0] > '9' {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue // exited meanwhile
		}
		// The command name (field 2) may hold spaces and parentheses: the
		// fields that follow start after its last ')'.
		i := bytes.LastIndexByte(b, ')')
		if i < 0 || i+2 > len(b) {
			continue
		}
		f := bytes.Fields(b[i+2:])
		// f[0] state, f[2] pgrp, f[11..14] utime stime cutime cstime.
		if len(f) < 15 || string(f[2]) != want {
			continue
		}
		for _, k := range []int{11, 12, 13, 14} {
			n, _ := strconv.ParseInt(string(f[k]), 10, 64)
			ticks += n
		}
	}
	return time.Duration(ticks) * time.Second / clockTicks, true
}
