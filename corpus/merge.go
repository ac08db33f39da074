package corpus

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
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
	if len(runDirs) == 0 {
		return nil, errors.New("corpus: merge needs at least one run folder")
	}
	absOut, err := filepath.Abs(out)
	if err != nil {
		return nil, err
	}
	for _, d := range runDirs {
		a, err := filepath.Abs(d)
		if err != nil {
			return nil, err
		}
		if a == absOut {
			return nil, fmt.Errorf("corpus: merge: the output folder %s is also an input", out)
		}
		if _, err := os.Stat(filepath.Join(d, ResultsFile)); err != nil {
			return nil, fmt.Errorf("corpus: merge: %s is not a run folder: %w", d, err)
		}
	}
	if _, err := os.Stat(filepath.Join(out, ResultsFile)); err == nil {
		return nil, fmt.Errorf("corpus: merge: %s already holds %s; merge into a new folder", out, ResultsFile)
	}
	if err := os.MkdirAll(filepath.Join(out, PairsDir), 0o755); err != nil {
		return nil, err
	}

	// Pass 1: where each id's (last valid) line is, and its key.
	type loc struct {
		run  int
		off  int64
		size int
		key  resumeKey
		err  bool
	}
	where := map[string]loc{}
	stats := &MergeStats{Runs: len(runDirs)}
	for i, d := range runDirs {
		path := filepath.Join(d, ResultsFile)
		last, err := lastLines(path)
		if err != nil {
			return nil, err
		}
		err = scanLines(path, func(n int, off int64, line []byte) error {
			var s slimRecord
			if json.Unmarshal(line, &s) != nil || s.ID == "" || last[s.ID] != n {
				return nil
			}
			l := loc{run: i, off: off, size: len(line), key: s.key(), err: s.Error != ""}
			prev, dup := where[s.ID]
			if !dup {
				where[s.ID] = l
				return nil
			}
			if prev.key != l.key && !prev.err && !l.err {
				return fmt.Errorf("%w: pair %q has results from different inputs or builds in %s and %s", ErrMergeConflict, s.ID, runDirs[prev.run], d)
			}
			stats.Duplicates++
			if prev.err && !l.err { // a result beats a failure
				where[s.ID] = l
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	ids := make([]string, 0, len(where))
	for id := range where {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool { return naturalLess(ids[i], ids[j]) })

	// Pass 2: copy the lines in id order, and each pair's folder.
	files := make([]*os.File, len(runDirs))
	for i, d := range runDirs {
		f, err := os.Open(filepath.Join(d, ResultsFile))
		if err != nil {
			return nil, err
		}
		defer f.Close()
		files[i] = f
	}
	err = rewriteAtomic(filepath.Join(out, ResultsFile), func(w io.Writer) error {
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
	if err != nil {
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

// mergeRunInfo combines the run.json of each folder: sessions
// concatenated, selected pairs summed, shards listed (or none when they
// make up every shard of one N), unpaired files united.
func mergeRunInfo(runDirs []string) (*RunInfo, error) {
	out := &RunInfo{Schema: RunSchema, Sessions: []Session{}}
	var sources []string
	shards := map[string]bool{}
	whole := false
	origOnly, editOnly := map[string]bool{}, map[string]bool{}
	for _, d := range runDirs {
		ri, err := ReadRunInfo(d)
		if err != nil {
			return nil, fmt.Errorf("corpus: %s: %w", filepath.Join(d, RunFile), err)
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
		sort.Slice(out.Shards, func(i, j int) bool { return naturalLess(out.Shards[i], out.Shards[j]) })
	}
	if len(origOnly)+len(editOnly) > 0 {
		out.Unpaired = &Unpaired{OriginalsOnly: setKeys(origOnly), EditedOnly: setKeys(editOnly)}
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
		return copyRegular(p, target)
	})
}

func copyRegular(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.Create(dst)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
