package render

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// The render cache keeps, per installation of LibreOffice (its binaries,
// by path, size and modification time, and the profile settings), what
// every pool would otherwise make again at each start: the initialised
// profile (a LibreOffice start of ~1 s CPU) and the version line (another
// start). Layout: <CacheDir>/<key>/{profile/, version}; an entry is made in
// a temporary folder and renamed into place whole, so a reader never sees
// half of one, and two processes making the same entry race harmlessly.

// cacheSchema changes when the layout or the way a profile is made does.
const cacheSchema = "render-cache/v1"

// defaultCacheDir is the user's cache folder, editaudit/render ("" when
// the system has none: then nothing is cached).
func defaultCacheDir() string {
	d, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(d, "editaudit", "render")
}

// statKey writes into h what identifies a file without reading it: its
// resolved path, size and modification time ("-" when missing).
func statKey(h io.Writer, path string) {
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		fmt.Fprintf(h, "%s\t-\n", path)
		return
	}
	info, err := os.Stat(real)
	if err != nil {
		fmt.Fprintf(h, "%s\t-\n", real)
		return
	}
	fmt.Fprintf(h, "%s\t%d\t%d\n", real, info.Size(), info.ModTime().UnixNano())
}

// installKey identifies a LibreOffice installation and the settings our
// profiles get: the program run, LibreOffice's main library and version
// file (which a package upgrade replaces), and ProfileKey.
func installKey(exe, progDir string) string {
	h := sha256.New()
	fmt.Fprintln(h, cacheSchema)
	statKey(h, exe)
	if progDir != "" {
		for _, f := range []string{"versionrc", "libmergedlo.so", "soffice.bin"} {
			statKey(h, filepath.Join(progDir, f))
		}
	}
	fmt.Fprintln(h, "profile", ProfileKey())
	return hex.EncodeToString(h.Sum(nil)[:10])
}

// installation is what a pool needs of a LibreOffice before it converts:
// an initialised profile to copy for each process, and the version line.
type installation struct {
	template string // the initialised profile (read only: copied, never run)
	version  string // "LibreOffice 7.4.7.2 40(Build:2)", "" when unknown
	cached   bool   // from (or now in) the cache folder
}

// prepareInstallation returns the initialised profile and the version of
// LibreOffice exe: from cacheDir when it holds them, else made (in
// cacheDir when it is writable, else in scratch, the pool's own folder).
// tmp is LibreOffice's TMPDIR for the runs that make them.
func prepareInstallation(ctx context.Context, exe, progDir, cacheDir, scratch, tmp string, deadline time.Duration) (installation, error) {
	if cacheDir != "" {
		entry := filepath.Join(cacheDir, installKey(exe, progDir))
		if inst, ok := readInstallation(entry); ok {
			return inst, nil
		}
		if err := os.MkdirAll(cacheDir, 0o700); err == nil {
			if work, err := os.MkdirTemp(cacheDir, "tmp-"); err == nil {
				if _, err := makeInstallation(ctx, exe, work, tmp, deadline); err != nil {
					os.RemoveAll(work)
					return installation{}, err
				}
				if err := os.Rename(work, entry); err != nil {
					os.RemoveAll(work) // another process made it first
				}
				if inst, ok := readInstallation(entry); ok {
					return inst, nil
				}
			}
		}
	}
	// No usable cache: made in the pool's folder, as before caching.
	if err := os.MkdirAll(scratch, 0o700); err != nil {
		return installation{}, fmt.Errorf("render: profile: %w", err)
	}
	return makeInstallation(ctx, exe, scratch, tmp, deadline)
}

// readInstallation loads a complete cache entry (ok false otherwise).
func readInstallation(entry string) (installation, bool) {
	v, err := os.ReadFile(filepath.Join(entry, "version"))
	if err != nil {
		return installation{}, false
	}
	tpl := filepath.Join(entry, "profile")
	if _, err := os.Stat(filepath.Join(tpl, "user", "registrymodifications.xcu")); err != nil {
		return installation{}, false
	}
	return installation{template: tpl, version: strings.TrimSpace(string(v)), cached: true}, true
}

// makeInstallation initialises a profile in dir/profile and writes the
// version line to dir/version.
func makeInstallation(ctx context.Context, exe, dir, tmp string, deadline time.Duration) (installation, error) {
	tpl := filepath.Join(dir, "profile")
	if err := initProfile(ctx, exe, tpl, tmp, deadline); err != nil {
		return installation{}, err
	}
	// --version on the profile just made: on the user's default profile it
	// may wait for a running LibreOffice of that profile.
	version := sofficeVersion(ctx, exe, tpl)
	if err := os.WriteFile(filepath.Join(dir, "version"), []byte(version+"\n"), 0o600); err != nil {
		return installation{}, fmt.Errorf("render: profile: %w", err)
	}
	return installation{template: tpl, version: version}, nil
}

// sofficeVersion runs `soffice --version` on profile and returns its
// "LibreOffice …" line ("" when it cannot be run).
func sofficeVersion(ctx context.Context, exe, profile string) string {
	out, err := runOutput(ctx, 30*time.Second, exe, "-env:UserInstallation="+fileURL(profile), "--version")
	if err != nil {
		return ""
	}
	for _, l := range strings.Split(string(out), "\n") {
		if strings.HasPrefix(l, "LibreOffice") {
			return strings.TrimSpace(l)
		}
	}
	return ""
}

// toolVersion returns run's answer (a program's version) from cacheDir
// when it was asked before for the same binary, else asks and remembers a
// non-empty answer. name is the program as found in PATH.
func toolVersion(cacheDir, name string, run func() string) string {
	if cacheDir == "" || name == "" {
		return run()
	}
	path, err := exec.LookPath(name)
	if err != nil {
		return run()
	}
	h := sha256.New()
	fmt.Fprintln(h, cacheSchema, "tool")
	statKey(h, path)
	file := filepath.Join(cacheDir, "tools", hex.EncodeToString(h.Sum(nil)[:10]))
	if b, err := os.ReadFile(file); err == nil {
		return strings.TrimSpace(string(b))
	}
	v := run()
	if v != "" && os.MkdirAll(filepath.Dir(file), 0o700) == nil {
		_ = writeFileRename(file, []byte(v+"\n"))
	}
	return v
}

// writeFileRename writes data to path through a temporary file renamed
// into place.
func writeFileRename(path string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(path), ".tmp-*")
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		os.Remove(f.Name())
	}
	return err
}

// sweepStale removes the working folders (editaudit-render-*) that pools
// of processes now gone left in dir: a process killed outright (SIGKILL,
// a crash) cannot remove its folder, and its LibreOffice processes died
// with it (parent-death signal) but left their UNO sockets, whose paths
// the folder lists. A folder is stale when its lock is not held; folders
// without a lock (being created, or made by another version) are left.
func sweepStale(dir string) {
	if dir == "" {
		dir = os.TempDir()
	}
	roots, _ := filepath.Glob(filepath.Join(dir, rootPattern))
	for _, root := range roots {
		if _, err := os.Stat(filepath.Join(root, "lock")); err != nil {
			continue
		}
		release, held, err := lockFolder(root)
		if err != nil || !held {
			continue
		}
		removeRecordedSockets(root)
		release()
		_ = os.RemoveAll(root)
	}
}

// rootPattern names a pool's working folder (os.MkdirTemp pattern).
const rootPattern = "editaudit-render-*"

// socketsFile, in a worker's folder, lists the socket paths its current
// LibreOffice has bound, one a line.
const socketsFile = "sockets"

// removeRecordedSockets removes the sockets the workers of root recorded.
func removeRecordedSockets(root string) {
	files, _ := filepath.Glob(filepath.Join(root, "w*", socketsFile))
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		removeSockets(strings.Fields(string(b)))
	}
}

// removeSockets removes the given paths when they are sockets (never any
// other kind of file).
func removeSockets(paths []string) {
	for _, p := range paths {
		if info, err := os.Lstat(p); err == nil && info.Mode().Type() == fs.ModeSocket {
			_ = os.Remove(p)
		}
	}
}
