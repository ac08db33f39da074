// Package fsutil holds the file operations several packages need done the
// same careful way: atomic replacement of a file (durable or not), a
// copy that never overwrites, and reading or hashing an input (a regular
// file only, refused by its stat before any open otherwise; its size
// checked before it is read). It is internal: it is not part of editaudit's library
// API, and it imports no editaudit package.
package fsutil

import (
	"bufio"
	"io"
	"os"
	"path/filepath"
)

// WriteAtomic replaces path with what write produces: a temp file in the
// same folder (written through a buffer), fsync, chmod perm, rename, fsync
// of the folder. A reader sees the old file or the new one, never a mix,
// and after a crash the new one is there once WriteAtomic has returned; on
// any error the old file is untouched and the temp file removed.
func WriteAtomic(path string, perm os.FileMode, write func(io.Writer) error) error {
	return replace(path, perm, true, write)
}

// ReplaceAtomic is WriteAtomic without the two fsyncs, for files that can
// be made again from others (a report built from a results file): a reader
// still never sees half a file, but a crash soon after may leave the old
// one or an empty one.
func ReplaceAtomic(path string, perm os.FileMode, write func(io.Writer) error) error {
	return replace(path, perm, false, write)
}

func replace(path string, perm os.FileMode, durable bool, write func(io.Writer) error) error {
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	ok := false
	defer func() {
		if !ok {
			f.Close()
			os.Remove(tmp)
		}
	}()
	bw := bufio.NewWriterSize(f, 1<<20)
	if err := write(bw); err != nil {
		return err
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	if err := f.Chmod(perm); err != nil {
		return err
	}
	if durable {
		if err := f.Sync(); err != nil {
			return err
		}
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		return err
	}
	ok = true
	if durable {
		if d, err := os.Open(dir); err == nil {
			_ = d.Sync()
			d.Close()
		}
	}
	return nil
}

// WriteFileAtomic is WriteAtomic for bytes in memory.
func WriteFileAtomic(path string, data []byte, perm os.FileMode) error {
	return WriteAtomic(path, perm, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// SHA256File returns the hex sha256 of a regular file's bytes (a FIFO,
// device or folder is refused before it is opened: OpenRegular).
func SHA256File(path string) (string, error) {
	sum, _, err := HashRegular(path, 0)
	return sum, err
}

// CopyFile copies src to a new file dst with perm: dst must not exist
// (it is never overwritten, nor written through a link), and on any error
// it is removed. durable fsyncs dst before it is closed.
func CopyFile(src, dst string, perm os.FileMode, durable bool) error {
	in, _, err := OpenRegular(src) // a FIFO is refused before it could block the open
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return err
	}
	_, err = io.Copy(out, in)
	if err == nil && durable {
		err = out.Sync()
	}
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(dst)
	}
	return err
}
