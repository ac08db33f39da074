//go:build unix

package fsutil

import (
	"errors"
	"os"
	"syscall"
)

// lockOwner creates path and holds an exclusive flock on it.
func lockOwner(path string) (func(), error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		return nil, err
	}
	return func() { f.Close() }, nil
}

// ownerAlive reports whether another process holds the lock at path (an
// error when there is no lock file).
func ownerAlive(path string) (bool, error) {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return false, err
	}
	defer f.Close()
	err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	if errors.Is(err, syscall.EWOULDBLOCK) {
		return true, nil
	}
	if err != nil {
		return true, nil // cannot tell: keep it
	}
	return false, nil // we got it: the owner is gone (closing f releases it)
}
