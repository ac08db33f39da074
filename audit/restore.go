package audit

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/editaudit/editaudit/internal/fsutil"
)

// ErrEditedChanged is returned by Files with Restore when the edited file
// no longer holds the bytes that were audited (another save came in while
// the audit ran): nothing is restored and nothing is lost.
var ErrEditedChanged = errors.New("audit: the edited file changed after it was audited; nothing was restored (audit it again)")

// restored is what restore did.
type restored struct {
	rejected string   // where the rejected bytes are kept
	notes    []string // what the user should know (a followed link, hard links)
}

// restore is a compare-and-swap: it puts the original's bytes at
// editedPath only if that file still holds the bytes that were audited, and
// keeps those rejected bytes at rejectedPath (or, when that name is taken
// by an earlier rejected copy, at the first free NAME-2, NAME-3…; an
// earlier copy is never overwritten).
//
// A symbolic link is followed: the link stays, its target gets the
// original's bytes. The new file gets the old one's mode and, where the
// process may, its owner. The swap is one atomic exchange of directory
// entries (renameat2 RENAME_EXCHANGE); the file swapped out is checked
// once more to be the audited bytes and swapped back if it is not, so a
// save that lands between the check and the swap is not overwritten.
func restore(editedPath string, orig, edited doc, rejectedPath string) (*restored, error) {
	out := &restored{}
	target := editedPath
	lst, err := os.Lstat(editedPath)
	if err != nil {
		return nil, fmt.Errorf("restoring %s: %w", editedPath, err)
	}
	if lst.Mode()&fs.ModeSymlink != 0 {
		real, err := filepath.EvalSymlinks(editedPath)
		if err != nil {
			return nil, fmt.Errorf("restoring %s: it is a symbolic link whose target cannot be resolved (%w); nothing restored", editedPath, err)
		}
		target = real
		out.notes = append(out.notes, fmt.Sprintf("%s is a symbolic link: the original was put at its target %s, the link is unchanged", editedPath, real))
	}
	st, err := fsutil.StatRegular(target)
	if err != nil {
		return nil, fmt.Errorf("restoring %s: %w", editedPath, err)
	}
	if err := sameAsAudited(target, edited); err != nil {
		return nil, err
	}
	links, uid, gid, owned := fileOwner(st)

	// 1. The original's bytes in a new file beside the target, with the
	// target's mode and owner.
	tmp, err := writeBeside(target, orig, st.Mode().Perm())
	if err != nil {
		return nil, fmt.Errorf("restoring the original at %s: %w", editedPath, err)
	}
	defer os.Remove(tmp) // after a successful swap it names the rejected file's old entry
	if owned {
		if err := os.Lchown(tmp, uid, gid); err != nil {
			out.notes = append(out.notes, fmt.Sprintf("the restored file could not be given the edited file's owner %d:%d (%v)", uid, gid, errors.Unwrap(err)))
		}
	}

	// 2. The rejected bytes kept first, so nothing is lost if the swap
	// fails: a hard link to the edited file (same inode, owner and mode)
	// when it can, a copy otherwise.
	rej, err := keepRejected(target, edited, rejectedPath)
	if err != nil {
		return nil, fmt.Errorf("keeping the rejected file: %w", err)
	}
	out.rejected = rej

	// 3. The swap, and the check of what was swapped out.
	swapped, err := exchange(tmp, target)
	if err != nil {
		os.Remove(rej)
		return nil, fmt.Errorf("restoring the original at %s: %w", editedPath, err)
	}
	if !swapped {
		// The file system cannot exchange two names: check once more and
		// rename over (the window between the two is a few microseconds).
		if err := sameAsAudited(target, edited); err != nil {
			os.Remove(rej)
			return nil, err
		}
		if err := os.Rename(tmp, target); err != nil {
			os.Remove(rej)
			return nil, fmt.Errorf("restoring the original at %s: %w", editedPath, err)
		}
	} else if err := sameAsAudited(tmp, edited); err != nil {
		// A save landed between the check and the swap: put it back.
		if _, berr := exchange(tmp, target); berr != nil {
			return nil, fmt.Errorf("%w; and swapping the new save back failed (%v): it is kept as %s, the original is at %s", err, berr, tmp, target)
		}
		os.Remove(rej)
		return nil, err
	}
	syncDir(filepath.Dir(target))
	syncDir(filepath.Dir(rej))
	if links > 1 {
		out.notes = append(out.notes, fmt.Sprintf("%s had %d other hard links; they still hold the rejected bytes (only this name was restored)", editedPath, links-1))
	}
	return out, nil
}

// sameAsAudited checks that the file at path holds the audited bytes: the
// same sha256, or, for a file too large to have been read, the same file
// (device and inode), size and modification time.
func sameAsAudited(path string, d doc) error {
	if d.sha == "" {
		st, err := fsutil.StatRegular(path)
		if err != nil {
			return fmt.Errorf("%w: %v", ErrEditedChanged, err)
		}
		if d.info == nil || !os.SameFile(st, d.info) || st.Size() != d.info.Size() || !st.ModTime().Equal(d.info.ModTime()) {
			return fmt.Errorf("%w: %s is not the file that was audited", ErrEditedChanged, path)
		}
		return nil
	}
	sum, _, err := fsutil.HashRegular(path, 0)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrEditedChanged, err)
	}
	if sum != d.sha {
		return fmt.Errorf("%w: %s now has sha256 %.12s…, the audit read %.12s…", ErrEditedChanged, path, sum, d.sha)
	}
	return nil
}

// writeBeside writes d's bytes (from memory, or streamed from its file
// when it was too large to be read) into a new temp file in target's
// folder, durably, with perm.
func writeBeside(target string, d doc, perm os.FileMode) (string, error) {
	f, err := os.CreateTemp(filepath.Dir(target), "."+filepath.Base(target)+".editaudit-restore-*")
	if err != nil {
		return "", err
	}
	ok := false
	defer func() {
		if !ok {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	if err := copyDocTo(f, d); err != nil {
		return "", err
	}
	if err := f.Chmod(perm); err != nil {
		return "", err
	}
	if err := f.Sync(); err != nil {
		return "", err
	}
	if err := f.Close(); err != nil {
		return "", err
	}
	ok = true
	return f.Name(), nil
}

// copyDocTo writes d's bytes to w.
func copyDocTo(w io.Writer, d doc) error {
	if d.data != nil || d.path == "" {
		_, err := w.Write(d.data)
		return err
	}
	in, _, err := fsutil.OpenRegular(d.path)
	if err != nil {
		return err
	}
	defer in.Close()
	_, err = io.Copy(w, in)
	return err
}

// keepRejected keeps the rejected bytes at want or, when that name is
// taken, at the first free name-2.ext, name-3.ext… (up to 1000): a hard
// link to target when both are on one file system, a durable copy of the
// audited bytes otherwise. A name is claimed with link(2), which never
// replaces an existing file.
func keepRejected(target string, edited doc, want string) (string, error) {
	if err := os.MkdirAll(filepath.Dir(want), 0o755); err != nil {
		return "", err
	}
	var copied string // a temp copy, made once when linking target fails
	defer func() {
		if copied != "" {
			os.Remove(copied)
		}
	}()
	ext := filepath.Ext(want)
	stem := strings.TrimSuffix(want, ext)
	for i := 1; i <= 1000; i++ {
		name := want
		if i > 1 {
			name = stem + "-" + strconv.Itoa(i) + ext
		}
		src := target
		if copied != "" {
			src = copied
		}
		err := os.Link(src, name)
		if err == nil {
			return name, nil
		}
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if copied != "" {
			return "", err
		}
		// Another file system (or no hard links there): a copy of the
		// audited bytes beside the wanted name, then linked into place.
		if copied, err = writeBeside(want, edited, 0o644); err != nil {
			return "", err
		}
		i-- // the same name again, from the copy
	}
	return "", fmt.Errorf("%s and 999 numbered names beside it are taken", want)
}

func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		d.Close()
	}
}
