package audit

import (
	"fmt"
	"os"
	"path/filepath"
)

// writeAtomic replaces path with data: a temp file in the same folder,
// fsync, rename, fsync of the folder. A reader sees the old bytes or the
// new, never a mix; a crash leaves the old file in place.
func writeAtomic(path string, data []byte, perm os.FileMode) error {
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".editaudit-*")
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
	if _, err := f.Write(data); err != nil {
		return err
	}
	if err := f.Chmod(perm); err != nil {
		return err
	}
	if err := f.Sync(); err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		return err
	}
	ok = true
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		d.Close()
	}
	return nil
}

// restore puts the original bytes back at editedPath and keeps the
// rejected bytes at rejectedPath (written first, so nothing is lost if the
// restore fails).
func restore(editedPath string, original, rejected []byte, rejectedPath string) error {
	if err := os.MkdirAll(filepath.Dir(rejectedPath), 0o755); err != nil {
		return fmt.Errorf("keeping the rejected file: %w", err)
	}
	if err := writeAtomic(rejectedPath, rejected, 0o644); err != nil {
		return fmt.Errorf("keeping the rejected file: %w", err)
	}
	perm := os.FileMode(0o644)
	if st, err := os.Stat(editedPath); err == nil {
		perm = st.Mode().Perm()
	}
	if err := writeAtomic(editedPath, original, perm); err != nil {
		return fmt.Errorf("restoring the original at %s: %w", editedPath, err)
	}
	return nil
}
