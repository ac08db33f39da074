package fsutil

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// Errors of the input readers.
var (
	// ErrNotRegular: the path names a FIFO, a device, a socket or a folder.
	// It is refused from its stat, before any open: opening a FIFO for
	// reading blocks until a writer comes, in a system call no signal
	// interrupts from Go.
	ErrNotRegular = errors.New("not a regular file")
	// ErrTooLarge: the file is larger than the limit it is read under (seen
	// in its stat before reading, or while reading when it grows).
	ErrTooLarge = errors.New("file exceeds the size limit")
)

// KindOf names what a file that is not a regular file is, for a message:
// "folder", "named pipe (FIFO)", "socket", "character device", "block
// device", "special file".
func KindOf(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "folder"
	case m&fs.ModeNamedPipe != 0:
		return "named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		return "socket"
	case m&fs.ModeCharDevice != 0:
		return "character device"
	case m&fs.ModeDevice != 0:
		return "block device"
	}
	return "special file"
}

// StatRegular stats path (following symbolic links) and returns its
// FileInfo when it is a regular file; anything else is ErrNotRegular,
// naming what it is. Nothing is opened.
func StatRegular(path string) (os.FileInfo, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, &fs.PathError{Op: "read", Path: path, Err: fmt.Errorf("%w: it is a %s; refused without opening it", ErrNotRegular, KindOf(st.Mode()))}
	}
	return st, nil
}

// OpenRegular opens a regular file for reading. The stat comes first
// (StatRegular); the open itself does not block whatever the path has
// become meanwhile (O_NONBLOCK: a FIFO swapped in opens at once), and the
// opened file is checked again to be that same regular file.
func OpenRegular(path string) (*os.File, os.FileInfo, error) {
	st, err := StatRegular(path)
	if err != nil {
		return nil, nil, err
	}
	f, err := os.OpenFile(path, os.O_RDONLY|openNoBlock, 0)
	if err != nil {
		return nil, nil, err
	}
	fst, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	if !fst.Mode().IsRegular() || !os.SameFile(st, fst) {
		f.Close()
		return nil, nil, &fs.PathError{Op: "read", Path: path, Err: fmt.Errorf("%w: it was replaced by a %s while being opened", ErrNotRegular, KindOf(fst.Mode()))}
	}
	return f, fst, nil
}

// tooLarge is the error of a file over max bytes.
func tooLarge(path string, size, max int64) error {
	return &fs.PathError{Op: "read", Path: path, Err: fmt.Errorf("%w: %d bytes, over the %d-byte limit; not read", ErrTooLarge, size, max)}
}

// ReadRegular reads a regular file of at most max bytes (max ≤ 0: no
// limit). The size is checked from the stat before anything is read, and
// the read goes through a limited reader, so a file that grows while it is
// read cannot take more than max+1 bytes of memory.
func ReadRegular(path string, max int64) ([]byte, error) {
	f, st, err := OpenRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if max > 0 && st.Size() > max {
		return nil, tooLarge(path, st.Size(), max)
	}
	limit := st.Size() + 1 // one byte more shows a file that grew
	if max > 0 {
		limit = min(limit, max+1)
	}
	var buf bytes.Buffer
	buf.Grow(int(min(limit, 1<<30)))
	if _, err := buf.ReadFrom(io.LimitReader(f, limit)); err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	if max > 0 && int64(buf.Len()) > max {
		return nil, tooLarge(path, int64(buf.Len()), max)
	}
	if int64(buf.Len()) > st.Size() {
		// It grew while read: read the rest (bounded by max) so the caller
		// gets one whole state of the file rather than a prefix.
		rest := io.Reader(f)
		if max > 0 {
			rest = io.LimitReader(f, max+1-int64(buf.Len()))
		}
		if _, err := buf.ReadFrom(rest); err != nil {
			return nil, fmt.Errorf("reading %s: %w", path, err)
		}
		if max > 0 && int64(buf.Len()) > max {
			return nil, tooLarge(path, int64(buf.Len()), max)
		}
	}
	return buf.Bytes(), nil
}

// HashRegular returns the hex sha256 and the size of a regular file, read
// streaming (constant memory). A file over max bytes (max > 0) is
// ErrTooLarge, from its stat, without reading it.
func HashRegular(path string, max int64) (sum string, size int64, err error) {
	f, st, err := OpenRegular(path)
	if err != nil {
		return "", 0, err
	}
	defer f.Close()
	if max > 0 && st.Size() > max {
		return "", st.Size(), tooLarge(path, st.Size(), max)
	}
	r := io.Reader(f)
	if max > 0 {
		r = io.LimitReader(f, max+1)
	}
	h := sha256.New()
	n, err := io.Copy(h, r)
	if err != nil {
		return "", 0, fmt.Errorf("reading %s: %w", path, err)
	}
	if max > 0 && n > max {
		return "", n, tooLarge(path, n, max)
	}
	return hex.EncodeToString(h.Sum(nil)), n, nil
}
