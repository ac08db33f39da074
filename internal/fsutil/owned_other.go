//go:build !unix

package fsutil

import "os"

// lockOwner only creates the lock file where flock does not exist.
func lockOwner(path string) (func(), error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, err
	}
	return func() { f.Close() }, nil
}

// ownerAlive cannot tell here: every owned folder is kept.
func ownerAlive(path string) (bool, error) {
	if _, err := os.Stat(path); err != nil {
		return false, err
	}
	return true, nil
}
