//go:build !unix

package fsutil

// openNoBlock: no FIFOs to guard against outside unix.
const openNoBlock = 0
