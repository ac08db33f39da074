package baseline

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/editaudit/editaudit/formats"
	"github.com/editaudit/editaudit/internal/fsutil"
)

// Store keeps snapshots on disk, addressed by the sha256 of the original's
// bytes and the toolchain key: <dir>/v1/<sha[:2]>/<sha>-<toolchain>/
// holding snapshot.json, its checksum (snapshot.sha256) and original.pdf.
// Entries are written to a temp folder and renamed into place, so a reader
// never sees half an entry; a corrupt entry (unparsable, wrong schema, a
// snapshot.json whose bytes do not match their checksum, PDF hash
// mismatch) is removed and rebuilt, never trusted. Safe for concurrent use by several processes:
// two writers of one key race on the rename and one wins.
type Store struct {
	Dir string
}

// DefaultDir is the store used when none is given: the user's cache
// folder (e.g. ~/.cache/editaudit).
func DefaultDir() (string, error) {
	d, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(d, "editaudit"), nil
}

// ErrNotFound is returned by Get for a missing (or discarded corrupt) entry.
var ErrNotFound = errors.New("baseline: snapshot not in store")

// OpenStore opens (creating) a store rooted at dir.
func OpenStore(dir string) (*Store, error) {
	if err := os.MkdirAll(filepath.Join(dir, "v1", "tmp"), 0o755); err != nil {
		return nil, fmt.Errorf("baseline: store %s: %w", dir, err)
	}
	return &Store{Dir: dir}, nil
}

func (s *Store) entryDir(key string) string {
	return filepath.Join(s.Dir, "v1", key[:2], key)
}

// validKey: hex sha256, a dash, a toolchain key of safe characters.
func validKey(key string) bool {
	if len(key) < 66 || key[64] != '-' {
		return false
	}
	for _, c := range key {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// Get loads the snapshot stored under key. A corrupt entry, or one made by
// another engine version, is removed and reported as ErrNotFound.
func (s *Store) Get(key string) (*Snapshot, error) {
	if !validKey(key) {
		return nil, fmt.Errorf("baseline: bad key %q", key)
	}
	dir := s.entryDir(key)
	b, err := os.ReadFile(filepath.Join(dir, "snapshot.json"))
	if errors.Is(err, os.ErrNotExist) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, err
	}
	// The checksum catches an entry changed after it was stored (a disk
	// error, a hand edit, a tampered finding list that would let a
	// blocked edit pass): it is rebuilt from the original.
	sum, err := os.ReadFile(filepath.Join(dir, checksumFile))
	if err != nil || strings.TrimSpace(string(sum)) != sha256Hex(b) {
		s.discard(dir)
		return nil, ErrNotFound
	}
	var snap Snapshot
	if err := json.Unmarshal(b, &snap); err != nil || snap.Schema != Schema || snap.Key != key || snap.Report == nil || snap.Engine != EngineVersion() {
		s.discard(dir)
		return nil, ErrNotFound
	}
	if snap.Pages.Status == PagesOK {
		pdf := filepath.Join(dir, "original.pdf")
		sum, err := fileSHA256(pdf)
		if err != nil || sum != snap.Pages.PDFSHA256 || len(snap.Pages.Sigs) == 0 {
			s.discard(dir)
			return nil, ErrNotFound
		}
		snap.pdf = pdf
	}
	return &snap, nil
}

func (s *Store) discard(dir string) {
	// Rename first so a concurrent reader never sees a half-deleted entry.
	tmp := filepath.Join(s.Dir, "v1", "tmp", fmt.Sprintf("discard-%d-%s", os.Getpid(), filepath.Base(dir)))
	if os.Rename(dir, tmp) == nil {
		_ = os.RemoveAll(tmp)
	}
}

// Put stores snap (and moves its temporary PDF into the store). After Put
// the snapshot's PDF path points into the store.
func (s *Store) Put(snap *Snapshot) error {
	if !validKey(snap.Key) {
		return fmt.Errorf("baseline: bad key %q", snap.Key)
	}
	tmp, err := os.MkdirTemp(filepath.Join(s.Dir, "v1", "tmp"), "put-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	if snap.Pages.Status == PagesOK {
		if snap.pdf == "" {
			return errors.New("baseline: snapshot with pages but no PDF")
		}
		if err := fsutil.CopyFile(snap.pdf, filepath.Join(tmp, "original.pdf"), 0o644, true); err != nil {
			return err
		}
	}
	b, err := json.Marshal(snap)
	if err != nil {
		return err
	}
	if err := writeSync(filepath.Join(tmp, "snapshot.json"), b); err != nil {
		return err
	}
	if err := writeSync(filepath.Join(tmp, checksumFile), []byte(sha256Hex(b)+"\n")); err != nil {
		return err
	}
	dst := s.entryDir(snap.Key)
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	if err := os.Rename(tmp, dst); err != nil {
		if _, statErr := os.Stat(filepath.Join(dst, "snapshot.json")); statErr == nil {
			// Another writer stored the same key first: use theirs.
		} else {
			return fmt.Errorf("baseline: storing %s: %w", snap.Key, err)
		}
	}
	if snap.Pages.Status == PagesOK {
		_ = snap.Close()
		snap.pdf, snap.tmp = filepath.Join(dst, "original.pdf"), false
	}
	return nil
}

// Snapshot returns the stored snapshot of the document at path for the
// renderer's toolchain, making and storing it when missing or corrupt.
// hit reports whether it came from the store.
func (s *Store) Snapshot(ctx context.Context, path, sha string, opts Options) (snap *Snapshot, hit bool, err error) {
	key := sha + "-" + ToolchainKey(ctx, opts.Renderer)
	snap, err = s.Cached(ctx, path, sha, opts)
	if err == nil {
		s.keepDocument(path, sha, opts)
		return snap, true, nil
	} else if !errors.Is(err, ErrNotFound) {
		return nil, false, err
	}
	snap, err = Make(ctx, path, opts)
	if err != nil {
		return nil, false, err
	}
	if snap.Key != key { // the file changed between hashing and reading
		return snap, false, nil
	}
	if snap.Pages.Transient { // only the document's own outcome is remembered
		return snap, false, nil
	}
	if err := s.Put(snap); err != nil {
		return snap, false, nil // a store that cannot be written is not fatal
	}
	s.keepDocument(path, sha, opts)
	return snap, false, nil
}

// checksumFile holds the hex sha256 of an entry's snapshot.json.
const checksumFile = "snapshot.sha256"

func sha256Hex(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// keepDocument stores the original's bytes (opts.Data, or the file at
// path, read only as a regular file within opts.Limits' file size) beside
// its snapshots unless the store has them; a failure only means a later
// audit by sha256 alone has to send the original again.
func (s *Store) keepDocument(path, sha string, opts Options) {
	if !validSHA(sha) {
		return
	}
	if st, err := os.Stat(s.documentPath(sha)); err == nil && st.Mode().IsRegular() {
		return
	}
	data := opts.Data
	if data == nil {
		max := opts.Limits.MaxFileSize
		if max <= 0 {
			max = formats.DefaultLimits().MaxFileSize
		}
		b, err := fsutil.ReadRegular(path, max)
		if err != nil {
			return
		}
		data = b
	}
	_ = s.PutDocument(sha, data)
}

// Cached returns the stored snapshot of the document at path (content sha)
// for the renderer's toolchain, or ErrNotFound; it never renders. The
// entry is addressed by content, but some findings depend on the name
// (package.extension-mismatch: the same bytes are fine as x.dotx and wrong
// as x.docx): they follow path — a document stored under another name is
// inspected again under this one, keeping the stored pages, which do not
// depend on the name.
func (s *Store) Cached(ctx context.Context, path, sha string, opts Options) (*Snapshot, error) {
	snap, err := s.Get(sha + "-" + ToolchainKey(ctx, opts.Renderer))
	if err != nil {
		return nil, err
	}
	if filepath.Base(snap.Report.Path) != filepath.Base(path) {
		rep, err := inspectDoc(ctx, path, opts)
		if err != nil {
			return nil, err
		}
		if rep.SHA256 != sha { // the file changed since it was hashed
			return nil, ErrNotFound
		}
		snap.Report = rep
	}
	snap.Report.Path = path
	return snap, nil
}

func fileSHA256(path string) (string, error) { return fsutil.SHA256File(path) }

func writeSync(path string, b []byte) error {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.Write(b); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
