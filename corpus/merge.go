package corpus

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/editaudit/editaudit/corpus/results"
	"github.com/editaudit/editaudit/formats"
	"github.com/editaudit/editaudit/internal/fsutil"
)

// MergeStats is what Merge did.
type MergeStats struct {
	Runs  int // run folders read
	Pairs int // results written
	// Duplicates are ids found in more than one run folder with the same
	// inputs; the first run's result was kept.
	Duplicates int
}

// ErrMergeConflict is returned when two run folders hold results for one
// id made from different inputs (not shards of one manifest).
var ErrMergeConflict = errors.New("corpus: run folders disagree")

// Merge combines run folders (typically the N shards of one manifest)
// into out: one results.jsonl sorted by id (numbers in ids compared as
// numbers), every pair's folder, one run.json with every session, and
// summary.json and index.html over all pairs. The lines are copied byte
// for byte. An id present in two folders is kept once when both results
// were made from the same inputs, toolchain and engine, and is a conflict
// otherwise. out must not already hold results.
func Merge(out string, runDirs []string) (*MergeStats, error) {
	if err := checkMergeFolders(out, runDirs); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Join(out, results.PairsDir), 0o755); err != nil {
		return nil, err
	}
	stats := &MergeStats{Runs: len(runDirs)}
	where, err := locateLines(runDirs, stats)
	if err != nil {
		return nil, err
	}
	ids := make([]string, 0, len(where))
	for id := range where {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool { return formats.NaturalLess(ids[i], ids[j]) })
	if err := copyLines(out, runDirs, ids, where); err != nil {
		return nil, err
	}
	stats.Pairs = len(ids)

	ri, err := mergeRunInfo(runDirs)
	if err != nil {
		return nil, err
	}
	if err := writeRunInfo(out, ri); err != nil {
		return nil, err
	}
	return stats, WriteOutputs(out)
}

// checkMergeFolders refuses an output folder that is also an input or
// already holds results, and inputs that are not run folders.
func checkMergeFolders(out string, runDirs []string) error {
	if len(runDirs) == 0 {
		return errors.New("corpus: merge needs at least one run folder")
	}
	absOut, err := filepath.Abs(out)
	if err != nil {
		return err
	}
	for _, d := range runDirs {
		a, err := filepath.Abs(d)
		if err != nil {
			return err
		}
		if a == absOut {
			return fmt.Errorf("corpus: merge: the output folder %s is also an input", out)
		}
		if _, err := os.Stat(filepath.Join(d, results.ResultsFile)); err != nil {
			return fmt.Errorf("corpus: merge: %s is not a run folder: %w", d, err)
		}
	}
	if _, err := os.Stat(filepath.Join(out, results.ResultsFile)); err == nil {
		return fmt.Errorf("corpus: merge: %s already holds %s; merge into a new folder", out, results.ResultsFile)
	}
	return nil
}

// lineLoc is where the line kept for one id is: which run folder, its
// byte offset and size, its resume key, whether it is an error line.
type lineLoc struct {
	run  int
	off  int64
	size int
	key  results.Key
	err  bool
}

// locateLines finds each id's current line in the run folders (pass 1 of
// Merge). An id in two folders is kept once — the first result, or a
// result over a failure — and counted in stats.Duplicates; two results
// from different keys are ErrMergeConflict.
func locateLines(runDirs []string, stats *MergeStats) (map[string]lineLoc, error) {
	where := map[string]lineLoc{}
	for i, d := range runDirs {
		_, err := results.Scan(filepath.Join(d, results.ResultsFile), func(ln results.Line) error {
			l := lineLoc{run: i, off: ln.Off, size: len(ln.Raw), key: ln.Key, err: ln.Failed}
			prev, dup := where[ln.ID]
			if !dup {
				where[ln.ID] = l
				return nil
			}
			if prev.key != l.key && !prev.err && !l.err {
				return fmt.Errorf("%w: pair %q has results from different inputs or builds in %s and %s", ErrMergeConflict, ln.ID, runDirs[prev.run], d)
			}
			stats.Duplicates++
			if prev.err && !l.err { // a result beats a failure
				where[ln.ID] = l
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return where, nil
}

// copyLines writes out's results.jsonl from the located lines in ids
// order, byte for byte, and copies each pair's folder (pass 2 of Merge).
func copyLines(out string, runDirs []string, ids []string, where map[string]lineLoc) error {
	files := make([]*os.File, len(runDirs))
	for i, d := range runDirs {
		f, err := os.Open(filepath.Join(d, results.ResultsFile))
		if err != nil {
			return err
		}
		defer f.Close()
		files[i] = f
	}
	return fsutil.WriteAtomic(filepath.Join(out, results.ResultsFile), 0o644, func(w io.Writer) error {
		buf := make([]byte, 0, 64<<10)
		for _, id := range ids {
			l := where[id]
			if cap(buf) < l.size+1 {
				buf = make([]byte, 0, l.size+1)
			}
			b := buf[:l.size]
			if _, err := files[l.run].ReadAt(b, l.off); err != nil {
				return err
			}
			if _, err := w.Write(append(b, '\n')); err != nil {
				return err
			}
			src := filepath.Join(runDirs[l.run], filepath.FromSlash(PairDir(id)))
			if _, err := os.Stat(src); err == nil {
				if err := copyPairTree(src, filepath.Join(out, filepath.FromSlash(PairDir(id)))); err != nil {
					return err
				}
			}
		}
		return nil
	})
}

// mergeRunInfo combines the run.json of each folder: sessions
// concatenated, selected pairs summed, shards listed (or none when they
// make up every shard of one N), unpaired files united.
func mergeRunInfo(runDirs []string) (*results.RunInfo, error) {
	out := &results.RunInfo{Schema: results.RunSchema, Sessions: []results.Session{}}
	var sources []string
	shards := map[string]bool{}
	whole := false
	origOnly, editOnly := map[string]bool{}, map[string]bool{}
	for _, d := range runDirs {
		ri, err := results.ReadRunInfo(d)
		if err != nil {
			return nil, fmt.Errorf("corpus: %s: %w", filepath.Join(d, results.RunFile), err)
		}
		if ri == nil {
			continue
		}
		if ri.Source != "" && !hasString(sources, ri.Source) {
			sources = append(sources, ri.Source)
		}
		if len(ri.Shards) == 0 {
			whole = true
		}
		for _, s := range ri.Shards {
			shards[s] = true
		}
		out.Selected += ri.Selected
		out.Sessions = append(out.Sessions, ri.Sessions...)
		if ri.Unpaired != nil {
			for _, p := range ri.Unpaired.OriginalsOnly {
				origOnly[p] = true
			}
			for _, p := range ri.Unpaired.EditedOnly {
				editOnly[p] = true
			}
		}
	}
	out.Source = strings.Join(sources, "; ")
	if !whole && !completeShards(shards) {
		for s := range shards {
			out.Shards = append(out.Shards, s)
		}
		sort.Slice(out.Shards, func(i, j int) bool { return formats.NaturalLess(out.Shards[i], out.Shards[j]) })
	}
	if len(origOnly)+len(editOnly) > 0 {
		out.Unpaired = &results.Unpaired{OriginalsOnly: setKeys(origOnly), EditedOnly: setKeys(editOnly)}
	}
	return out, nil
}

// completeShards reports whether the set is exactly 1/N … N/N of one N.
func completeShards(set map[string]bool) bool {
	if len(set) == 0 {
		return false
	}
	n := 0
	for s := range set {
		sh, err := ParseShard(s)
		if err != nil {
			return false
		}
		if n == 0 {
			n = sh.N
		}
		if sh.N != n {
			return false
		}
	}
	if len(set) != n {
		return false
	}
	for k := 1; k <= n; k++ {
		if !set[strconv.Itoa(k)+"/"+strconv.Itoa(n)] {
			return false
		}
	}
	return true
}

func hasString(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

func setKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// copyTree copies the regular files under src to dst (hard links when
// both are on one file system).
func copyPairTree(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		if os.Link(p, target) == nil {
			return nil
		}
		return fsutil.CopyFile(p, target, 0o644, false)
	})
}
