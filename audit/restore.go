package audit

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/editaudit/editaudit/internal/fsutil"
)

// restore puts the original bytes back at editedPath and keeps the
// rejected bytes at rejectedPath (written first, so nothing is lost if the
// restore fails).
func restore(editedPath string, original, rejected []byte, rejectedPath string) error {
	if err := os.MkdirAll(filepath.Dir(rejectedPath), 0o755); err != nil {
		return fmt.Errorf("keeping the rejected file: %w", err)
	}
	if err := fsutil.WriteFileAtomic(rejectedPath, rejected, 0o644); err != nil {
		return fmt.Errorf("keeping the rejected file: %w", err)
	}
	perm := os.FileMode(0o644)
	if st, err := os.Stat(editedPath); err == nil {
		perm = st.Mode().Perm()
	}
	if err := fsutil.WriteFileAtomic(editedPath, original, perm); err != nil {
		return fmt.Errorf("restoring the original at %s: %w", editedPath, err)
	}
	return nil
}
