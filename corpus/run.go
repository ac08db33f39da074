package corpus

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"sync"
	"time"

	"github.com/editaudit/editaudit/audit"
	"github.com/editaudit/editaudit/baseline"
	"github.com/editaudit/editaudit/corpus/results"
	"github.com/editaudit/editaudit/formats"
	"github.com/editaudit/editaudit/internal/fsutil"
	"github.com/editaudit/editaudit/render"
	"github.com/editaudit/editaudit/reports"
)

// RunOptions configure RunPairs.
type RunOptions struct {
	// Out is the run folder (created): results.jsonl, pairs/, summary.json,
	// index.html, run.json.
	Out string
	// Store is the baseline store shared by every pair, so an original
	// used by many pairs is inspected and rendered once. Nil: a temporary
	// store for this call.
	Store *baseline.Store
	// Render is the audit's render mode (audit.RenderAuto, On, Off).
	Render string
	// Renderer is the one renderer every pair shares (NewRenderer); nil
	// does not render (with RenderAuto the pages say LibreOffice is
	// missing).
	Renderer *render.Renderer
	// Jobs is the number of pairs audited at once (DefaultJobs when 0).
	Jobs int
	// Shard selects the pairs of one shard; the zero Shard runs all.
	Shard Shard
	// Show is audit.Options.Show: the changed pages drawn per pair.
	Show int
	// Content is audit.Options.Content (audit.ContentOn or ContentOff;
	// "" is on). It is part of each pair's resume key.
	Content string
	// Limits bound each inspection; zero means defaults.
	Limits formats.Limits
	// Source names the manifest (or the two folders) in run.json.
	Source string
	// Unpaired are files found in only one of two folders (run.json).
	Unpaired *results.Unpaired
	// Progress, when set, counts the pairs (see StartProgress).
	Progress *Progress
	// SyncEvery is how often results.jsonl is fsynced and run.json
	// updated (default 2s). Every line is written whole as soon as its
	// pair is done, so a killed process loses nothing already written.
	SyncEvery time.Duration
}

// contentMode is the content mode every pair of the run is audited with:
// audit.ContentOn unless the options say off.
func (o RunOptions) contentMode() string {
	if o.Content == audit.ContentOff {
		return audit.ContentOff
	}
	return audit.ContentOn
}

// Errors of RunPairs about its folder.
var (
	// ErrRunBusy: another run holds the folder.
	ErrRunBusy = errors.New("corpus: another run is using the folder")
	// ErrShardMismatch: the folder belongs to another shard (resuming it
	// with this shard would mix the two).
	ErrShardMismatch = errors.New("corpus: the folder belongs to another shard")
	// ErrRunInfoDamaged: run.json cannot be read as a run record, so the
	// shard the folder belongs to is unknown; nothing is changed.
	ErrRunInfoDamaged = results.ErrRunInfoDamaged
)

// runShard is the shard a run folder was made for ("" for all pairs).
func runShard(ri *results.RunInfo) string {
	if len(ri.Shards) == 1 {
		return ri.Shards[0]
	}
	return ""
}

// cancelGrace is how long a cancelled run waits for its pairs in flight.
const cancelGrace = 5 * time.Second

// DefaultJobs is the default number of pairs audited at once: one per CPU
// without rendering; with a renderer, 8 per CPU (at most 32), because a
// rendering pair mostly waits for LibreOffice and the rasterizer, and the
// more pairs wait at once, the more documents each LibreOffice start
// converts (a start costs seconds, a small document a fraction of one).
func DefaultJobs(rendering bool) int {
	n := runtime.NumCPU()
	if rendering {
		return min(8*n, 32)
	}
	return n
}

// RunStats is what one RunPairs did.
type RunStats struct {
	// Selected pairs (after sharding), Audited and Failed by this call,
	// Skipped because results.jsonl already held their result.
	Selected, Audited, Failed, Skipped int
	// Outside counts the results kept in the folder of pairs this call did
	// not select (a subset of an earlier manifest): never dropped.
	Outside int
	// Cancelled: the context ended before every pair was done; the pairs
	// in flight were abandoned (not written) and are audited on resume.
	Cancelled bool
}

// NewRenderer starts the renderer a corpus run shares for mode
// (audit.StartRenderer: nil for off, and for auto without LibreOffice):
// the warm converter when LibreOffice's Python UNO bridge is installed,
// else the batch one, with the pool's default min(NumCPU, 4) LibreOffice
// processes. The returned func closes it.
func NewRenderer(ctx context.Context, mode string) (*render.Renderer, func(), error) {
	r, err := audit.StartRenderer(ctx, mode, render.Config{})
	return r, func() { r.Close() }, err
}

// RunPairs audits pairs into opts.Out. Each pair's result is appended to
// results.jsonl as one whole line as soon as it is done; a pair the tool
// cannot audit is recorded with its error and never stops the run. A pair
// whose valid result is already in results.jsonl with the same input
// hashes, toolchain key, render mode and engine is skipped, so re-running
// the same command resumes. At the end (also when ctx is cancelled)
// results.jsonl is compacted to one line per pair, and summary.json,
// index.html and run.json are written.
//
// The error is for the run itself (the folder cannot be written, or, with
// RenderOn, a renderer that cannot render even a test document:
// render.ErrRendererBroken); ctx's cancellation is reported in
// RunStats.Cancelled, not as an error.
func RunPairs(ctx context.Context, pairs []Pair, opts RunOptions) (*RunStats, error) {
	if opts.Out == "" {
		return nil, errors.New("corpus: no output folder")
	}
	switch opts.Content {
	case "", audit.ContentOn, audit.ContentOff:
	default:
		return nil, fmt.Errorf("%w, not %q", audit.ErrContentMode, opts.Content)
	}
	if err := os.MkdirAll(filepath.Join(opts.Out, results.PairsDir), 0o755); err != nil {
		return nil, err
	}
	unlock, err := lockRun(opts.Out)
	if err != nil {
		return nil, err
	}
	defer unlock()
	sel := opts.Shard.Select(pairs)
	inSel := make(map[string]bool, len(sel))
	for _, p := range sel {
		if inSel[p.ID] {
			return nil, fmt.Errorf("corpus: pair id %q appears twice", p.ID)
		}
		inSel[p.ID] = true
	}
	if opts.Store == nil {
		fsutil.SweepStale("", "editaudit-store-") // those of killed runs
		dir, release, err := fsutil.MkdirTempOwned("", "editaudit-store-")
		if err != nil {
			return nil, err
		}
		defer release()
		defer os.RemoveAll(dir)
		if opts.Store, err = baseline.OpenStore(dir); err != nil {
			return nil, err
		}
	}
	ri, err := results.ReadRunInfo(opts.Out)
	if err != nil {
		// Never taken for an empty history: the folder's shard is in it,
		// and a guess could mix shards. Nothing has been changed.
		if errors.Is(err, ErrRunInfoDamaged) {
			err = fmt.Errorf("%w; nothing was changed: results.jsonl is intact. Move run.json aside (or restore it from a backup) to resume", err)
		}
		return nil, fmt.Errorf("corpus: %s: %w", filepath.Join(opts.Out, results.RunFile), err)
	}
	if ri == nil {
		ri = &results.RunInfo{}
	}
	if want := opts.Shard.String(); len(ri.Sessions) > 0 && runShard(ri) != want {
		return nil, fmt.Errorf("%w: %s holds shard %q, not %q; give each shard its own folder", ErrShardMismatch, opts.Out, runShard(ri), want)
	}
	// Drop what a killed run left (a torn last line, superseded lines) and
	// learn what is done. Results of pairs this run does not select are
	// kept, and counted.
	done, ids, err := compactResults(opts.Out)
	if err != nil {
		return nil, err
	}
	outside := 0
	for id := range ids {
		if !inSel[id] {
			outside++
		}
	}
	// The progress counts a kept pair's verdict too, so that a resumed
	// run's blocked count is the run's, not this session's.
	keptBlocked := map[string]bool{}
	if len(done) > 0 {
		if _, err := results.Scan(filepath.Join(opts.Out, results.ResultsFile), func(l results.Line) error {
			if l.Blocked {
				keptBlocked[l.ID] = true
			}
			return nil
		}); err != nil {
			return nil, err
		}
	}
	jobs := opts.Jobs
	if jobs <= 0 {
		jobs = DefaultJobs(opts.Renderer != nil)
	}
	sess := startSession(ri, opts, len(sel), outside, jobs)
	if opts.Renderer != nil {
		sess.Toolchain = opts.Renderer.Toolchain(ctx).String()
	}
	if err := writeRunInfo(opts.Out, ri); err != nil {
		return nil, err
	}

	f, err := os.OpenFile(filepath.Join(opts.Out, results.ResultsFile), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	r := &runner{
		opts:        opts,
		done:        done,
		keptBlocked: keptBlocked,
		hashes:      map[string]string{},
		toolchain:   baseline.ToolchainKey(ctx, opts.Renderer),
		engine:      baseline.EngineVersion(),
		progress:    opts.Progress,
		maxFile:     limitsOr(opts.Limits).MaxFileSize,
	}
	if r.progress == nil {
		r.progress = NewProgress(len(sel))
	}
	stats := &RunStats{Selected: len(sel), Outside: outside}
	// The workers' context also ends when the run must stop on its own
	// (r.stop: a renderer that cannot render anything under RenderOn).
	runCtx, stop := context.WithCancelCause(ctx)
	defer stop(nil)
	r.stop = stop
	werr := r.write(runCtx, f, r.start(runCtx, sel, jobs), stats, ri, sess)
	serr := f.Sync()
	cerr := f.Close()
	if werr == nil {
		werr = errors.Join(serr, cerr)
	}
	stopped := context.Cause(runCtx)
	if ctx.Err() != nil || errors.Is(stopped, context.Canceled) {
		stopped = nil
	}
	stats.Skipped = int(r.skipped())
	stats.Cancelled = ctx.Err() != nil
	sess.Audited, sess.Failed, sess.Skipped, sess.Updated = stats.Audited, stats.Failed, stats.Skipped, time.Now()
	sess.Finished, sess.Cancelled = !stats.Cancelled && werr == nil && stopped == nil, stats.Cancelled
	if werr != nil {
		_ = writeRunInfo(opts.Out, ri)
		return stats, werr
	}
	if _, _, err := compactResults(opts.Out); err != nil {
		return stats, err
	}
	if err := writeRunInfo(opts.Out, ri); err != nil {
		return stats, err
	}
	if err := WriteOutputs(opts.Out); err != nil {
		return stats, err
	}
	return stats, stopped
}

// startSession records in ri what this invocation was asked to do and
// appends its session, which it returns.
func startSession(ri *results.RunInfo, opts RunOptions, selected, outside, jobs int) *results.Session {
	host, _ := os.Hostname()
	ri.Schema, ri.Source, ri.Selected, ri.Unpaired = results.RunSchema, opts.Source, selected+outside, opts.Unpaired
	ri.OutsideSelection = outside
	ri.Shards = nil
	if opts.Shard.N > 1 {
		ri.Shards = []string{opts.Shard.String()}
	}
	now := time.Now()
	ri.Sessions = append(ri.Sessions, results.Session{Shard: opts.Shard.String(), Host: host, Jobs: jobs, Render: opts.Render, Started: now, Updated: now})
	return &ri.Sessions[len(ri.Sessions)-1]
}

// start audits sel with jobs workers, in interleaved order, and returns
// the records as they are done; the channel is closed when every worker
// has stopped (at the end, or soon after ctx is cancelled).
func (r *runner) start(ctx context.Context, sel []Pair, jobs int) <-chan *results.Record {
	work := make(chan Pair)
	out := make(chan *results.Record, jobs)
	var wg sync.WaitGroup
	for range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for p := range work {
				if rec := r.pair(ctx, p); rec != nil {
					select {
					case out <- rec:
					case <-ctx.Done(): // abandoned with the run
					}
				}
			}
		}()
	}
	go func() {
		defer close(work)
		for _, p := range interleave(sel) {
			select {
			case work <- p:
			case <-ctx.Done():
				return
			}
		}
	}()
	go func() { wg.Wait(); close(out) }()
	return out
}

// write appends each record of out to f as one whole line, counts it in
// stats and the progress, fsyncs f and updates run.json (ri, sess) every
// SyncEvery, until out is closed — or, once ctx is cancelled, until the
// pairs in flight have had cancelGrace to finish. The error is the first
// write that failed (the rest are then drained, not written).
func (r *runner) write(ctx context.Context, f *os.File, out <-chan *results.Record, stats *RunStats, ri *results.RunInfo, sess *results.Session) error {
	syncEvery := r.opts.SyncEvery
	if syncEvery <= 0 {
		syncEvery = 2 * time.Second
	}
	tick := time.NewTicker(syncEvery)
	defer tick.Stop()
	var werr error
	dirty := false
	// After cancellation the pairs in flight get cancelGrace to notice and
	// clean up; one stuck in a system call (a hung network file system) is
	// abandoned rather than holding the run open.
	var grace <-chan time.Time
	ctxDone := ctx.Done()
	for out != nil {
		select {
		case <-ctxDone:
			ctxDone = nil
			grace = time.After(cancelGrace)
		case <-grace:
			out = nil
		case rec, ok := <-out:
			if !ok {
				out = nil
				break
			}
			if werr != nil {
				continue // drain; the run has already failed
			}
			line, err := rec.MarshalLine()
			if err != nil {
				rec = failedRecord(rec, fmt.Errorf("encoding the result: %w", err))
				line, _ = rec.MarshalLine()
			}
			if _, err := f.Write(line); err != nil {
				werr = fmt.Errorf("corpus: writing %s: %w", results.ResultsFile, err)
				continue
			}
			dirty = true
			r.progress.add(rec)
			if rec.Failed() {
				stats.Failed++
			} else {
				stats.Audited++
			}
		case <-tick.C:
			if dirty {
				_ = f.Sync()
				dirty = false
			}
			sess.Audited, sess.Failed, sess.Skipped, sess.Updated = stats.Audited, stats.Failed, int(r.skipped()), time.Now()
			_ = writeRunInfo(r.opts.Out, ri)
		}
	}
	return werr
}

// runner is the state the workers of one RunPairs share.
type runner struct {
	opts        RunOptions
	done        map[string]results.Key // read-only after start
	keptBlocked map[string]bool        // id → blocked, of the done pairs; read-only
	toolchain   string
	engine      string
	progress    *Progress
	maxFile     int64 // inputs larger than this are not read (formats.Limits.MaxFileSize)
	stop        context.CancelCauseFunc

	mu      sync.Mutex
	hashes  map[string]string // path → sha256 (originals are shared)
	locks   keyLocks
	skipMu  sync.Mutex
	skipCnt int64
}

func (r *runner) skipped() int64 {
	r.skipMu.Lock()
	defer r.skipMu.Unlock()
	return r.skipCnt
}

// pair audits one pair; nil when it was skipped (already done) or
// abandoned (ctx cancelled while in flight).
func (r *runner) pair(ctx context.Context, p Pair) (rec *results.Record) {
	if ctx.Err() != nil {
		return nil
	}
	start := time.Now()
	rec = &results.Record{ID: p.ID, Group: p.Group, ToolchainKey: r.toolchain, Render: r.opts.Render, Engine: r.engine, ContentMode: r.opts.contentMode()}
	rec.Schema = audit.Schema
	rec.Original.Path, rec.Edited.Path = formats.EscapeName(p.Original), formats.EscapeName(p.Edited)
	defer func() {
		// A validator bug on one hostile document must not stop the batch.
		if v := recover(); v != nil {
			rec = failedRecord(rec, fmt.Errorf("panic: %v\n%s", v, debug.Stack()))
			rec.Timings.Total = time.Since(start).Milliseconds()
		}
	}()
	shaO, err := r.hash(p.Original, true)
	if err != nil {
		return failedRecord(rec, err)
	}
	rec.Original.SHA256 = shaO
	shaE, err := r.hash(p.Edited, false)
	if err != nil && !editNotThere(err) {
		return failedRecord(rec, err)
	}
	rec.Edited.SHA256 = shaE
	if k, ok := r.done[p.ID]; ok && k == rec.Key() {
		r.skipMu.Lock()
		r.skipCnt++
		r.skipMu.Unlock()
		r.progress.skip(r.keptBlocked[p.ID])
		return nil
	}
	dir := PairDir(p.ID)
	outDir := filepath.Join(r.opts.Out, filepath.FromSlash(dir))
	if err := os.RemoveAll(outDir); err != nil { // a stale result's images
		return failedRecord(rec, err)
	}
	if err := os.MkdirAll(outDir, 0o755); err != nil {
		return failedRecord(rec, err)
	}

	if r.opts.Renderer != nil && shaE != shaO {
		// The edited file's PDF is asked for now, beside the original's
		// (audit.Files takes it when it gets there; an identical edit is
		// not rendered).
		defer r.opts.Renderer.Prefetch(ctx, p.Edited)()
	}
	// The original's snapshot, made once: pairs sharing an original wait
	// for the first to store it and then load it (the store alone would
	// let concurrent pairs all miss and all render it).
	t0 := time.Now()
	hit := false
	if shaO != "" { // an original over the size limit is never stored
		unlock := r.locks.lock(shaO)
		var snap *baseline.Snapshot
		snap, hit, err = r.opts.Store.Snapshot(ctx, p.Original, shaO, baseline.Options{Renderer: r.opts.Renderer, Limits: r.opts.Limits})
		unlock()
		if err != nil {
			if ctx.Err() != nil {
				os.RemoveAll(outDir)
				return nil
			}
			return failedRecord(rec, fmt.Errorf("the original's baseline: %w", err))
		}
		_ = snap.Close()
	}
	t1 := time.Now()
	res, err := audit.Files(ctx, p.Original, p.Edited, audit.Options{
		Render: r.opts.Render, Renderer: r.opts.Renderer, Store: r.opts.Store,
		Show: r.opts.Show, OutDir: outDir, Limits: r.opts.Limits, Content: r.opts.contentMode(),
	})
	t2 := time.Now()
	if err != nil {
		if ctx.Err() != nil {
			os.RemoveAll(outDir)
			return nil
		}
		if r.opts.Render == audit.RenderOn && errors.Is(err, render.ErrRendererBroken) {
			// Every pair would fail the same way: the run stops (the pair
			// is not written, and is audited on resume).
			os.RemoveAll(outDir)
			r.stop(fmt.Errorf("corpus: the renderer cannot render anything, and --render on requires pages; the run stopped (resume it once the renderer works): %w", err))
			return nil
		}
		return failedRecord(rec, err)
	}
	if err := writePairReport(res, outDir, dir); err != nil {
		return failedRecord(rec, fmt.Errorf("writing the report: %w", err))
	}
	rec.Result = *res
	rec.Report = dir + "/report.html"
	rec.Timings = results.Timings{Baseline: t1.Sub(t0).Milliseconds(), Audit: t2.Sub(t1).Milliseconds(), Total: time.Since(start).Milliseconds(), BaselineHit: hit}
	return rec
}

// writePairReport writes the pair's own HTML report into outDir (linking
// the composites the audit wrote to outDir/pages/, so each image is stored
// once), then makes res's image and rejected-copy paths relative to the
// run folder (dir is outDir relative to it) and drops the image bytes.
func writePairReport(res *audit.Result, outDir, dir string) error {
	rep := filepath.Join(outDir, "report.html")
	if err := fsutil.ReplaceAtomic(rep, 0o644, func(w io.Writer) error {
		return reports.WriteHTML(w, res, reports.HTMLOptions{LinkImages: true})
	}); err != nil {
		return err
	}
	for i := range res.Pages.Shown {
		s := &res.Pages.Shown[i]
		s.JPEG = nil
		if s.Image != "" {
			s.Image = dir + "/" + s.Image
		}
	}
	if res.RejectedCopy != "" {
		res.RejectedCopy = dir + "/" + filepath.ToSlash(res.RejectedCopy)
	}
	return nil
}

// interleave orders pairs round-robin over their originals (first pair
// of each original, then the second of each, …), keeping the manifest
// order within an original. The first pairs in flight then need distinct
// originals, whose baselines are made side by side (and rendered in one
// LibreOffice batch) instead of one after the other while every job waits
// for the same original.
func interleave(pairs []Pair) []Pair {
	var order []string
	by := map[string][]Pair{}
	for _, p := range pairs {
		if _, ok := by[p.Original]; !ok {
			order = append(order, p.Original)
		}
		by[p.Original] = append(by[p.Original], p)
	}
	out := make([]Pair, 0, len(pairs))
	for round := 0; len(out) < len(pairs); round++ {
		for _, o := range order {
			if ps := by[o]; round < len(ps) {
				out = append(out, ps[round])
			}
		}
	}
	return out
}

// failedRecord marks rec as not audited, keeping what it knows.
func failedRecord(rec *results.Record, err error) *results.Record {
	id, group, o, e := rec.ID, rec.Group, rec.Original, rec.Edited
	tk, rm, eng, cm, tm := rec.ToolchainKey, rec.Render, rec.Engine, rec.ContentMode, rec.Timings
	*rec = results.Record{ID: id, Group: group, ToolchainKey: tk, Render: rm, Engine: eng, ContentMode: cm, Timings: tm}
	rec.Schema = audit.Schema
	rec.Original, rec.Edited = o, e
	rec.Error = err.Error()
	return rec
}

// hash returns the sha256 of a file; originals' hashes are remembered
// (they are shared by many pairs).
func (r *runner) hash(path string, remember bool) (string, error) {
	if remember {
		r.mu.Lock()
		h, ok := r.hashes[path]
		r.mu.Unlock()
		if ok {
			return h, nil
		}
	}
	// Refused from its stat when not a regular file (a FIFO would block
	// the open); a file over the size limit is not read: its audit reports
	// the limit, and its hash stays "".
	sum, _, err := fsutil.HashRegular(path, r.maxFile)
	if errors.Is(err, fsutil.ErrTooLarge) {
		sum, err = "", nil
	}
	if err != nil {
		return "", err
	}
	if remember {
		r.mu.Lock()
		r.hashes[path] = sum
		r.mu.Unlock()
	}
	return sum, nil
}

// editNotThere reports whether err says the edited path names no
// document (missing, unreadable, a FIFO, device or folder): its audit is
// the finding file.missing, as in the audit command, not a failed pair.
func editNotThere(err error) bool {
	return errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrPermission) || errors.Is(err, fsutil.ErrNotRegular)
}

// limitsOr is l, or the default limits when l is zero.
func limitsOr(l formats.Limits) formats.Limits {
	if l.MaxEntries == 0 {
		return formats.DefaultLimits()
	}
	return l
}

// keyLocks is a per-key mutex: lock(k) blocks while another holder of k
// runs. Entries are removed when their last holder unlocks.
type keyLocks struct {
	mu sync.Mutex
	m  map[string]*keyLock
}

type keyLock struct {
	mu   sync.Mutex
	refs int
}

func (l *keyLocks) lock(key string) (unlock func()) {
	l.mu.Lock()
	if l.m == nil {
		l.m = map[string]*keyLock{}
	}
	k := l.m[key]
	if k == nil {
		k = &keyLock{}
		l.m[key] = k
	}
	k.refs++
	l.mu.Unlock()
	k.mu.Lock()
	return func() {
		k.mu.Unlock()
		l.mu.Lock()
		k.refs--
		if k.refs == 0 {
			delete(l.m, key)
		}
		l.mu.Unlock()
	}
}
