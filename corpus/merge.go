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
	// Gaps say what the merge lacks or holds twice (a missing shard, an
	// unfinished one, two folders of one shard) when
	// MergeOptions.AllowPartial let it go on; empty for a complete set.
	Gaps []string
}

// MergeOptions tune Merge.
type MergeOptions struct {
	// AllowPartial merges an incomplete or overlapping set of run folders
	// (MergeStats.Gaps says what is wrong with it) instead of refusing it
	// with ErrMergeIncomplete.
	AllowPartial bool
}

// Errors of Merge.
var (
	// ErrMergeConflict is returned when two run folders hold results for
	// one id made from different inputs (not shards of one manifest).
	ErrMergeConflict = errors.New("corpus: run folders disagree")
	// ErrMergeIncomplete is returned when the run folders are not one
	// whole set: a shard is missing or unfinished, two folders hold the
	// same shard, shards of different N or manifests are mixed, or a
	// folder's run.json cannot tell what it holds. The message names each
	// problem.
	ErrMergeIncomplete = errors.New("corpus: the run folders are not a complete set")
	// ErrMergeFolders is returned when the folders given cannot be merged
	// as asked: the output is also an input, or already holds a finished
	// merge or run, or an input is not a run folder.
	ErrMergeFolders = errors.New("corpus: merge")
)

// mergeMarker marks an output folder a merge is writing: a merge that
// finds it was interrupted and starts over.
const mergeMarker = ".merge-in-progress"

// Merge combines run folders (typically the N shards of one manifest)
// into out: one results.jsonl sorted by id (numbers in ids compared as
// numbers), every pair's folder, one run.json with every session, and
// summary.json and index.html over all pairs. The lines are copied byte
// for byte. An id present in two folders is kept once when both results
// were made from the same inputs, toolchain and engine, and is a conflict
// otherwise.
//
// The folders must make one whole set (every shard 1/N … N/N once, each
// finished), else ErrMergeIncomplete names what is missing, unless
// opts.AllowPartial. Nothing in the inputs is ever written: pair files are
// hard links (or copies) renamed into out, never a file of out opened for
// writing. out must not already hold a finished merge or run; a merge
// interrupted (killed) is started over by running it again. Each input's
// results.jsonl is read through one open file, so a run still writing an
// input is seen in one consistent state.
func Merge(out string, runDirs []string, opts MergeOptions) (*MergeStats, error) {
	if err := checkMergeFolders(out, runDirs); err != nil {
		return nil, err
	}
	infos, err := readRunInfos(runDirs)
	if err != nil {
		return nil, err
	}
	files := make([]*os.File, len(runDirs))
	for i, d := range runDirs {
		f, err := os.Open(filepath.Join(d, results.ResultsFile))
		if err != nil {
			return nil, err
		}
		defer f.Close()
		files[i] = f
	}
	stats := &MergeStats{Runs: len(runDirs)}
	where, counts, err := locateLines(runDirs, files, stats)
	if err != nil {
		return nil, err
	}
	stats.Gaps = mergeGaps(runDirs, infos, counts)
	if len(stats.Gaps) > 0 && !opts.AllowPartial {
		return nil, fmt.Errorf("%w (nothing was written; --allow-partial merges it anyway):\n  %s", ErrMergeIncomplete, strings.Join(stats.Gaps, "\n  "))
	}

	if err := os.MkdirAll(out, 0o755); err != nil {
		return nil, err
	}
	unlock, err := lockRun(out)
	if err != nil {
		return nil, err
	}
	defer unlock()
	if err := startMerge(out, runDirs); err != nil {
		return nil, err
	}
	ids := make([]string, 0, len(where))
	for id := range where {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool { return formats.NaturalLess(ids[i], ids[j]) })
	for _, id := range ids {
		l := where[id]
		src := filepath.Join(runDirs[l.run], filepath.FromSlash(PairDir(id)))
		if err := copyPairTree(src, filepath.Join(out, filepath.FromSlash(PairDir(id)))); err != nil {
			return nil, err
		}
	}
	ri := mergeRunInfo(runDirs, infos)
	if err := writeRunInfo(out, ri); err != nil {
		return nil, err
	}
	if err := copyLines(out, files, ids, where); err != nil {
		return nil, err
	}
	stats.Pairs = len(ids)
	if err := WriteOutputs(out); err != nil {
		return nil, err
	}
	// The merge is whole: only now is the marker removed (durably).
	if err := os.Remove(filepath.Join(out, mergeMarker)); err != nil {
		return nil, err
	}
	syncDir(out)
	return stats, nil
}

// checkMergeFolders refuses an output folder that is also an input (by
// path or through a link) or already holds a finished merge or run, and
// inputs that are not run folders.
func checkMergeFolders(out string, runDirs []string) error {
	if len(runDirs) == 0 {
		return fmt.Errorf("%w needs at least one run folder", ErrMergeFolders)
	}
	absOut, err := filepath.Abs(out)
	if err != nil {
		return err
	}
	outSt, outErr := os.Stat(out)
	for _, d := range runDirs {
		a, err := filepath.Abs(d)
		if err != nil {
			return err
		}
		if a == absOut {
			return fmt.Errorf("%w: the output folder %s is also an input", ErrMergeFolders, out)
		}
		if st, err := os.Stat(d); err == nil && outErr == nil && os.SameFile(st, outSt) {
			return fmt.Errorf("%w: the output folder %s is the input %s", ErrMergeFolders, out, d)
		}
		if _, err := os.Stat(filepath.Join(d, results.ResultsFile)); err != nil {
			return fmt.Errorf("%w: %s is not a run folder: %w", ErrMergeFolders, d, err)
		}
	}
	_, resErr := os.Stat(filepath.Join(out, results.ResultsFile))
	_, markErr := os.Stat(filepath.Join(out, mergeMarker))
	if resErr == nil && markErr != nil {
		return fmt.Errorf("%w: %s already holds a finished run or merge (%s); merge into a new folder, or remove it first", ErrMergeFolders, out, results.ResultsFile)
	}
	return nil
}

// startMerge marks out as being merged into and clears what an
// interrupted merge left there (its pairs folder: names only are removed,
// never a file written). The marker lists the inputs.
func startMerge(out string, runDirs []string) error {
	if err := fsutil.WriteFileAtomic(filepath.Join(out, mergeMarker), []byte(strings.Join(runDirs, "\n")+"\n"), 0o644); err != nil {
		return err
	}
	for _, f := range []string{results.ResultsFile, results.SummaryFile, results.IndexFile, results.RunFile} {
		if err := os.Remove(filepath.Join(out, f)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	if err := os.RemoveAll(filepath.Join(out, results.PairsDir)); err != nil {
		return err
	}
	return os.MkdirAll(filepath.Join(out, results.PairsDir), 0o755)
}

// readRunInfos reads each input's run.json (nil when it has none); a
// damaged one is an error.
func readRunInfos(runDirs []string) ([]*results.RunInfo, error) {
	infos := make([]*results.RunInfo, len(runDirs))
	for i, d := range runDirs {
		ri, err := results.ReadRunInfo(d)
		if err != nil {
			return nil, fmt.Errorf("corpus: %s: %w", filepath.Join(d, results.RunFile), err)
		}
		infos[i] = ri
	}
	return infos, nil
}

// mergeGaps says why the run folders are not one whole set: every shard
// 1/N … N/N of one manifest exactly once, each holding all the pairs its
// run selected (or whole runs of different manifests). counts[i] is the
// number of results found in runDirs[i].
func mergeGaps(runDirs []string, infos []*results.RunInfo, counts []int) []string {
	var gaps []string
	holder := map[string]string{} // shard → folder
	whole := map[string]string{}  // source → folder holding all its pairs
	n := 0
	var sharded, unsharded []string
	sources := map[string]bool{}
	for i, ri := range infos {
		d := runDirs[i]
		if ri == nil {
			gaps = append(gaps, fmt.Sprintf("%s has no %s: which pairs it should hold is unknown", d, results.RunFile))
			continue
		}
		if counts[i] < ri.Selected {
			gaps = append(gaps, fmt.Sprintf("%s holds %d of the %d pairs its run selected (unfinished: resume it with the same command)", d, counts[i], ri.Selected))
		}
		if len(ri.Shards) == 0 {
			unsharded = append(unsharded, d)
			if prev, ok := whole[ri.Source]; ok {
				gaps = append(gaps, fmt.Sprintf("%s and %s both hold every pair of %s", prev, d, orUnnamed(ri.Source)))
			}
			whole[ri.Source] = d
			continue
		}
		sharded = append(sharded, d)
		sources[ri.Source] = true
		for _, s := range ri.Shards {
			sh, err := ParseShard(s)
			if err != nil {
				gaps = append(gaps, fmt.Sprintf("%s: shard %q: %v", d, s, err))
				continue
			}
			if n == 0 {
				n = sh.N
			} else if sh.N != n {
				gaps = append(gaps, fmt.Sprintf("%s holds shard %s, not a shard of %d like the others", d, s, n))
				continue
			}
			if prev, ok := holder[s]; ok {
				gaps = append(gaps, fmt.Sprintf("shard %s is in both %s and %s", s, prev, d))
				continue
			}
			holder[s] = d
		}
	}
	if len(sharded) > 0 && len(unsharded) > 0 {
		gaps = append(gaps, fmt.Sprintf("%s holds every pair, which overlaps the shards in %s", strings.Join(unsharded, ", "), strings.Join(sharded, ", ")))
	}
	if len(sources) > 1 {
		gaps = append(gaps, fmt.Sprintf("the shards come from %d different manifests", len(sources)))
	}
	var missing []string
	for k := 1; k <= n; k++ {
		if s := strconv.Itoa(k) + "/" + strconv.Itoa(n); holder[s] == "" {
			missing = append(missing, s)
		}
	}
	if len(missing) > 0 {
		what := "shard " + missing[0] + " is"
		if len(missing) > 1 {
			what = "shards " + strings.Join(missing, ", ") + " are"
		}
		gaps = append(gaps, fmt.Sprintf("%s missing (no folder given holds it)", what))
	}
	return gaps
}

func orUnnamed(source string) string {
	if source == "" {
		return "an unnamed manifest"
	}
	return source
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

// locateLines finds each id's current line in the run folders' results
// files (pass 1 of Merge) and counts the ids of each. An id in two folders
// is kept once — the first result, or a result over a failure — and
// counted in stats.Duplicates; two results from different keys are
// ErrMergeConflict.
func locateLines(runDirs []string, files []*os.File, stats *MergeStats) (map[string]lineLoc, []int, error) {
	where := map[string]lineLoc{}
	counts := make([]int, len(runDirs))
	for i, d := range runDirs {
		_, err := results.ScanFile(files[i], filepath.Join(d, results.ResultsFile), func(ln results.Line) error {
			counts[i]++
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
			return nil, nil, err
		}
	}
	return where, counts, nil
}

// copyLines writes out's results.jsonl from the located lines in ids
// order, byte for byte, read from the same open files they were located
// in (pass 2 of Merge).
func copyLines(out string, files []*os.File, ids []string, where map[string]lineLoc) error {
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
		}
		return nil
	})
}

// mergeRunInfo combines the run.json of each folder: sessions
// concatenated, selected pairs summed, shards listed (or none when they
// make up every shard of one N), unpaired files united.
func mergeRunInfo(runDirs []string, infos []*results.RunInfo) *results.RunInfo {
	out := &results.RunInfo{Schema: results.RunSchema, Sessions: []results.Session{}}
	var sources []string
	shards := map[string]bool{}
	whole := false
	origOnly, editOnly := map[string]bool{}, map[string]bool{}
	for _, ri := range infos {
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
		out.OutsideSelection += ri.OutsideSelection
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
	return out
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

// copyPairTree copies the regular files under src to dst: each is hard
// linked (or, across file systems, copied) to a new temp name beside its
// destination and renamed over it. A file of dst is never opened for
// writing, so a destination that is already a hard link to an input (an
// earlier, interrupted merge) can never be truncated through. Files that
// vanish meanwhile (a live run re-auditing the pair) are skipped.
func copyPairTree(src, dst string) error {
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
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
		err = linkOrCopy(p, target)
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		return err
	})
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return err
}

// linkOrCopy puts src's content at dst by a new directory entry renamed
// over dst.
func linkOrCopy(src, dst string) error {
	tmp := filepath.Join(filepath.Dir(dst), fmt.Sprintf(".%s.merge-%d", filepath.Base(dst), os.Getpid()))
	_ = os.Remove(tmp) // a leftover of this pid's earlier life
	if err := os.Link(src, tmp); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return err
		}
		if err := fsutil.CopyFile(src, tmp, 0o644, false); err != nil {
			os.Remove(tmp)
			return err
		}
	}
	if err := os.Rename(tmp, dst); err != nil {
		os.Remove(tmp)
		return err
	}
	return nil
}

func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		d.Close()
	}
}
