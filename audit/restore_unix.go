//go:build unix

package audit

import (
	"os"
	"syscall"
)

// fileOwner returns a file's link count and owner; ok is false when the
// system does not say.
func fileOwner(st os.FileInfo) (links uint64, uid, gid int, ok bool) {
	s, isStat := st.Sys().(*syscall.Stat_t)
	if !isStat {
		return 1, 0, 0, false
	}
	return uint64(s.Nlink), int(s.Uid), int(s.Gid), true
}
