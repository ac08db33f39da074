package fsutil

import (
	"os"
	"path/filepath"
	"strings"
	"time"
)

// ownerLock is the file in an owned temp folder that its process holds
// locked while it lives.
const ownerLock = ".owner.lock"

// MkdirTempOwned creates a temp folder (os.MkdirTemp(dir, prefix+"*"))
// holding a lock file its process keeps locked until release is called or
// the process ends, however it ends (the kernel drops the lock of a
// killed process). SweepStale removes such folders whose owner is gone: a
// process killed with SIGKILL leaves no temp folder behind for long.
// release does not remove the folder.
func MkdirTempOwned(dir, prefix string) (path string, release func(), err error) {
	path, err = os.MkdirTemp(dir, prefix+"*")
	if err != nil {
		return "", nil, err
	}
	unlock, err := lockOwner(filepath.Join(path, ownerLock))
	if err != nil {
		os.RemoveAll(path)
		return "", nil, err
	}
	return path, unlock, nil
}

// SweepStale removes the folders prefix* directly in dir ("" means
// os.TempDir()) whose owner (MkdirTempOwned) is gone, and folders of
// prefix without a lock file (made by an older build) that have not been
// touched for a day. A folder created less than a minute ago without its
// lock yet is left alone (its owner may be between the two steps). It
// returns the folders removed; errors are ignored (another process may be
// sweeping too).
func SweepStale(dir, prefix string) []string {
	if dir == "" {
		dir = os.TempDir()
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var removed []string
	for _, e := range ents {
		if !e.IsDir() || !strings.HasPrefix(e.Name(), prefix) {
			continue
		}
		p := filepath.Join(dir, e.Name())
		info, err := e.Info()
		if err != nil {
			continue
		}
		stale := false
		switch held, err := ownerAlive(filepath.Join(p, ownerLock)); {
		case err == nil:
			stale = !held
		case os.IsNotExist(err):
			stale = time.Since(info.ModTime()) > 24*time.Hour
		}
		if stale && os.RemoveAll(p) == nil {
			removed = append(removed, p)
		}
	}
	return removed
}
