package baseline

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/editaudit/editaudit/internal/fsutil"
)

// The store keeps each original's bytes beside its snapshots, addressed by
// their sha256 alone: <dir>/v1/doc/<sha[:2]>/<sha>. A snapshot holds what
// the audit compares against (report, page signatures, PDF) but not the
// document, and the content diff needs the document: an original given by
// its sha256 alone (the service's original_sha256) is read from here.

// documentPath is where the bytes of the document with this sha256 live.
func (s *Store) documentPath(sha string) string {
	return filepath.Join(s.Dir, "v1", "doc", sha[:2], sha)
}

func validSHA(sha string) bool {
	if len(sha) != 64 {
		return false
	}
	for _, c := range sha {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

// PutDocument keeps data, whose sha256 is sha, unless the store has it
// already. Written to a temporary file and renamed into place.
func (s *Store) PutDocument(sha string, data []byte) error {
	if !validSHA(sha) {
		return fmt.Errorf("baseline: bad document key %q", sha)
	}
	if sum := sha256.Sum256(data); hex.EncodeToString(sum[:]) != sha {
		return fmt.Errorf("baseline: document bytes do not match %s", sha)
	}
	dst := s.documentPath(sha)
	if st, err := os.Stat(dst); err == nil && st.Mode().IsRegular() && st.Size() == int64(len(data)) {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	return fsutil.WriteFileAtomic(dst, data, 0o644)
}

// Document returns the bytes of the document whose sha256 is sha, or
// ErrNotFound. Bytes that no longer hash to sha are removed and reported
// as ErrNotFound, never returned.
func (s *Store) Document(sha string) ([]byte, error) {
	if !validSHA(sha) {
		return nil, fmt.Errorf("baseline: bad document key %q", sha)
	}
	p := s.documentPath(sha)
	st, err := os.Lstat(p)
	if errors.Is(err, os.ErrNotExist) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("baseline: %s is not a regular file", p)
	}
	b, err := os.ReadFile(p)
	if err != nil {
		return nil, err
	}
	if sum := sha256.Sum256(b); hex.EncodeToString(sum[:]) != sha {
		_ = os.Remove(p)
		return nil, ErrNotFound
	}
	return b, nil
}
