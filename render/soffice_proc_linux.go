//go:build linux

package render

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
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
	cpu, _, ok = groupUsage(pgid)
	return cpu, ok
}

// groupUsage returns the CPU time (as groupCPU) and the resident memory in
// bytes of the processes of process group pgid. It reads every process's
// stat file (a few milliseconds on a busy machine); procsUsage reads only
// the processes named.
func groupUsage(pgid int) (cpu time.Duration, rss int64, ok bool) {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return 0, 0, false
	}
	var ticks, pages int64
	for _, e := range ents {
		if e.Name()[0] < '0' || e.Name()[0] > '9' {
			continue
		}
		if t, p, grp, ok := procStat(e.Name()); ok && grp == pgid {
			ticks, pages = ticks+t, pages+p
		}
	}
	return time.Duration(ticks) * time.Second / clockTicks, pages * int64(os.Getpagesize()), true
}

// procsUsage is groupUsage of the processes pids only (a warm LibreOffice
// and its bridge, whose ids are known): ok is false when none can be read.
func procsUsage(pids ...int) (cpu time.Duration, rss int64, ok bool) {
	var ticks, pages int64
	for _, pid := range pids {
		if t, p, _, found := procStat(strconv.Itoa(pid)); found {
			ticks, pages, ok = ticks+t, pages+p, true
		}
	}
	return time.Duration(ticks) * time.Second / clockTicks, pages * int64(os.Getpagesize()), ok
}

// procStat reads /proc/<pid>/stat (proc(5)): CPU clock ticks (user and
// system, with reaped children), resident pages and process group.
func procStat(pid string) (ticks, pages int64, pgrp int, ok bool) {
	b, err := os.ReadFile(filepath.Join("/proc", pid, "stat"))
	if err != nil {
		return 0, 0, 0, false // exited meanwhile
	}
	// The command name (field 2) may hold spaces and parentheses: the
	// fields that follow start after its last ')'.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 || i+2 > len(b) {
		return 0, 0, 0, false
	}
	f := bytes.Fields(b[i+2:])
	// f[0] state, f[2] pgrp, f[11..14] utime stime cutime cstime,
	// f[21] rss (pages).
	if len(f) < 22 {
		return 0, 0, 0, false
	}
	for _, k := range []int{11, 12, 13, 14} {
		n, _ := strconv.ParseInt(string(f[k]), 10, 64)
		ticks += n
	}
	pages, _ = strconv.ParseInt(string(f[21]), 10, 64)
	pgrp, _ = strconv.Atoi(string(f[2]))
	return ticks, pages, pgrp, true
}

// boundSockets returns the paths of the Unix-domain sockets process pid
// has bound (LibreOffice's UNO pipe and its single-instance pipe,
// /tmp/OSL_PIPE_*), read from /proc/<pid>/fd and /proc/<pid>/net/unix.
// LibreOffice removes them when it exits normally; after a kill they are
// left behind, so the pool removes them itself.
func boundSockets(pid int) []string {
	dir := filepath.Join("/proc", strconv.Itoa(pid))
	fds, err := os.ReadDir(filepath.Join(dir, "fd"))
	if err != nil {
		return nil
	}
	inodes := map[string]bool{}
	for _, fd := range fds {
		l, err := os.Readlink(filepath.Join(dir, "fd", fd.Name()))
		if err == nil && strings.HasPrefix(l, "socket:[") {
			inodes[strings.TrimSuffix(strings.TrimPrefix(l, "socket:["), "]")] = true
		}
	}
	f, err := os.Open(filepath.Join(dir, "net", "unix"))
	if err != nil {
		return nil
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		// Num RefCount Protocol Flags Type St Inode Path
		fl := strings.Fields(sc.Text())
		if len(fl) >= 8 && inodes[fl[6]] && strings.HasPrefix(fl[7], "/") {
			out = append(out, fl[7])
		}
	}
	return out
}
