//go:build unix

package fsutil

import "syscall"

// openNoBlock keeps an open of a FIFO from waiting for a writer, and of a
// terminal from becoming the controlling one.
const openNoBlock = syscall.O_NONBLOCK | syscall.O_NOCTTY
