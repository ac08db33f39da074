//go:build linux

package audit

import (
	"errors"

	"golang.org/x/sys/unix"
)

// exchange swaps the directory entries a and b atomically (renameat2
// RENAME_EXCHANGE, Linux 3.15): each name then holds the other's file, and
// at no instant does either name hold nothing. swapped is false, without an
// error, when the file system cannot exchange (the caller falls back).
func exchange(a, b string) (swapped bool, err error) {
	err = unix.Renameat2(unix.AT_FDCWD, a, unix.AT_FDCWD, b, unix.RENAME_EXCHANGE)
	if errors.Is(err, unix.EINVAL) || errors.Is(err, unix.ENOSYS) || errors.Is(err, unix.EOPNOTSUPP) {
		return false, nil
	}
	return err == nil, err
}
