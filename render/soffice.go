package render

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/editaudit/editaudit/internal/fsutil"
)

// Defaults of PoolOptions.
const (
	DefaultDeadline     = 60 * time.Second
	DefaultRestartAfter = 200
	DefaultBatchWindow  = 25 * time.Millisecond
	DefaultMaxBatch     = 16
	DefaultMaxBytes     = 256 << 20
	DefaultIdleTimeout  = 5 * time.Minute
	DefaultMaxRSS       = 2 << 30
	DefaultPython       = "/usr/bin/python3"
)

// installHint is what a user without LibreOffice is told.
const installHint = "install LibreOffice (Debian/Ubuntu: apt-get install libreoffice-writer-nogui " +
	"libreoffice-calc-nogui libreoffice-impress-nogui poppler-utils), or run with --render off"

// PoolOptions configures a Pool. Zero values mean the defaults.
type PoolOptions struct {
	// Workers is the number of LibreOffice processes converting at once
	// (default min(NumCPU, 4)). Each has its own profile directory.
	Workers int
	// SofficePath is the program to run. Default: "soffice", then
	// "libreoffice", looked up in PATH; when that is LibreOffice's launcher
	// script and soffice.bin sits next to it, soffice.bin is run directly.
	// An explicit path is run as given (a wrapper script, in tests).
	SofficePath string
	// Deadline is the time one document may take (load and export) without
	// progress before LibreOffice is considered hung and its process group
	// is killed (default 60s). In a batch the clock restarts at each
	// finished document. While LibreOffice keeps 5% of a core busy the
	// clock is extended, up to Deadline of CPU time or 3×Deadline of
	// wall time (a real 1024-sheet workbook needs 22s of CPU, 78s of wall
	// time on a loaded 2-core machine); an idle, blocked LibreOffice is
	// killed at Deadline.
	Deadline time.Duration
	// RestartAfter is the number of conversions after which a worker's
	// profile is thrown away and copied fresh from the template (default 200).
	// Every batch runs in a fresh LibreOffice process.
	RestartAfter int
	// BatchWindow is how long a worker waits for more requests before it
	// starts a LibreOffice run: until no request arrived for BatchWindow,
	// at most 10×BatchWindow after the first (default 25ms).
	BatchWindow time.Duration
	// MaxBatch caps the documents converted by one LibreOffice run (default 16).
	MaxBatch int
	// MaxBytes refuses larger inputs with ReasonTooLarge (default 256 MiB).
	MaxBytes int64
	// TempDir is where the pool's working folder is created (default
	// os.TempDir()). Everything the pool creates lives under one folder
	// there and is removed by Close; folders left by pools whose process
	// was killed outright are removed by the next pool started there.
	TempDir string
	// CacheDir keeps the initialised LibreOffice profile and the probed
	// versions, keyed by LibreOffice's binaries, across pools and
	// processes (default: the user's cache folder, editaudit/render).
	// NoCache makes them afresh in the working folder every time.
	CacheDir string
	NoCache  bool

	// The warm pool's options (NewWarmPool); the batch Pool ignores them.

	// Python is the interpreter that runs the bridge to LibreOffice's UNO
	// listener: the one LibreOffice's Python UNO bridge is installed for
	// (default /usr/bin/python3; Debian package python3-uno).
	Python string
	// IdleTimeout stops a warm LibreOffice that has converted nothing for
	// this long (default 5 minutes); the next request starts it again.
	IdleTimeout time.Duration
	// MaxRSS caps the resident memory of a warm LibreOffice and its bridge
	// (their process group), default 2 GiB: a document that takes it
	// above the cap while converting is killed and fails (too-large); a
	// process left above half the cap after a conversion is replaced
	// before the next one (LibreOffice keeps memory it no longer uses).
	MaxRSS int64

	// bridgeOverride (tests) runs this script instead of the embedded
	// bridge, which it finds in EDITAUDIT_REAL_BRIDGE.
	bridgeOverride string
}

func (o *PoolOptions) fill() {
	if o.Workers <= 0 {
		o.Workers = min(runtime.NumCPU(), 4)
	}
	if o.Deadline <= 0 {
		o.Deadline = DefaultDeadline
	}
	if o.RestartAfter <= 0 {
		o.RestartAfter = DefaultRestartAfter
	}
	if o.BatchWindow <= 0 {
		o.BatchWindow = DefaultBatchWindow
	}
	if o.MaxBatch <= 0 {
		o.MaxBatch = DefaultMaxBatch
	}
	if o.MaxBytes <= 0 {
		o.MaxBytes = DefaultMaxBytes
	}
	if o.CacheDir == "" && !o.NoCache {
		o.CacheDir = defaultCacheDir()
	}
	if o.NoCache {
		o.CacheDir = ""
	}
	if o.Python == "" {
		o.Python = DefaultPython
	}
	if o.IdleTimeout <= 0 {
		o.IdleTimeout = DefaultIdleTimeout
	}
	if o.MaxRSS <= 0 {
		o.MaxRSS = DefaultMaxRSS
	}
}

// PoolStats counts what a Pool did (for tests, benchmarks and logs).
type PoolStats struct {
	Runs         int64 // LibreOffice processes started for conversions
	Converted    int64 // documents converted
	Failed       int64 // documents reported failed
	Killed       int64 // runs killed (deadline, cancellation)
	Retried      int64 // documents retried alone after a failed batch
	Deduplicated int64 // requests served by an identical in-flight document
	// CPU is the user+system time of the LibreOffice runs (with their
	// children), from the kernel's accounting at exit.
	CPU time.Duration
	// BatchFallbacks counts the documents a warm worker converted with a
	// batch run because it could not start its LibreOffice warm.
	BatchFallbacks int64
}

// Pool supervises LibreOffice processes that convert documents to PDF.
// Concurrent ConvertPDF calls are gathered into batches: one LibreOffice run
// converts many staged files. A document that hangs or crashes LibreOffice
// is isolated by retrying the batch's unfinished documents one by one; a
// document that fails twice is quarantined (failed without a new attempt)
// for the Pool's lifetime. A Pool is safe for concurrent use; Close it.
type Pool struct {
	opts     PoolOptions
	exe      string // what is run
	progDir  string // LibreOffice's program folder, when known
	root     string // the pool's working folder
	stageDir string
	pdfDir   string
	tmpDir   string     // LibreOffice's TMPDIR
	template string     // initialised profile copied for each worker
	warm     *warmSetup // the warm pool's bridge; nil for the batch pool
	unlock   func()     // releases the working folder's lock

	recalcOnce sync.Once
	recalcTpl  string // template with recalcSettings, made on first use
	recalcErr  error

	ctx     context.Context // ended by Close
	cancel  context.CancelFunc
	wg      sync.WaitGroup // workers
	staging sync.WaitGroup // ConvertPDF calls copying their input in
	wake    chan struct{}

	mu         sync.Mutex
	queue      []*job
	idle       int
	inflight   map[string]*job
	quarantine map[string]*RenderError
	closed     bool

	seq   atomic.Int64
	stats struct {
		runs, converted, failed, killed, retried, dedup, cpu, batched atomic.Int64
	}

	version  string // LibreOffice's version line, probed once
	fallback string // why New chose this batch pool over the warm one
}

// job is one distinct document (by content) waiting for or in conversion.
type job struct {
	sha     string
	ext     string
	target  Target // what it is converted to (PDF: the zero Target)
	doc     string // first caller's path, for messages
	staged  string // input copy under stageDir, named by content hash
	size    int64  // bytes, to order a batch small first
	queued  time.Time
	waiters []*waiter
	handed  bool // its PDF was delivered before its run ended
}

type waiter struct {
	doc       string
	ch        chan result
	abandoned bool
}

type result struct {
	pdf string
	err error
}

// NewPool finds LibreOffice, creates the working folder, takes an
// initialised profile from the cache folder or makes one (so LibreOffice's
// first-start restart, exit code 81, never costs a conversion) and starts
// the workers, each converting batches of documents in one LibreOffice run
// per batch. A missing LibreOffice is ErrNoRenderer with an installation
// hint. NewWarmPool keeps LibreOffice running between documents instead.
func NewPool(ctx context.Context, opts PoolOptions) (*Pool, error) {
	return newPool(ctx, opts, false)
}

// newPool is NewPool (warm false) and NewWarmPool (warm true).
func newPool(ctx context.Context, opts PoolOptions, warm bool) (*Pool, error) {
	opts.fill()
	exe, progDir, err := findSoffice(opts.SofficePath)
	if err != nil {
		return nil, err
	}
	var ws *warmSetup
	if warm {
		if ws, err = findBridge(ctx, opts.Python, opts.CacheDir); err != nil {
			return nil, err
		}
		ws.replaceBridge = opts.bridgeOverride
	}
	sweepStale(opts.TempDir)
	root, err := os.MkdirTemp(opts.TempDir, rootPattern)
	if err != nil {
		return nil, fmt.Errorf("render: working folder: %w", err)
	}
	unlock, _, err := lockFolder(root)
	if err != nil {
		os.RemoveAll(root)
		return nil, fmt.Errorf("render: working folder: %w", err)
	}
	p := &Pool{
		opts: opts, exe: exe, progDir: progDir, root: root, warm: ws, unlock: unlock,
		stageDir:   filepath.Join(root, "stage"),
		pdfDir:     filepath.Join(root, "pdf"),
		tmpDir:     filepath.Join(root, "tmp"),
		wake:       make(chan struct{}, 1),
		inflight:   map[string]*job{},
		quarantine: map[string]*RenderError{},
	}
	fail := func(err error) (*Pool, error) {
		os.RemoveAll(root)
		unlock()
		return nil, err
	}
	for _, d := range []string{p.stageDir, p.pdfDir, p.tmpDir} {
		if err := os.Mkdir(d, 0o700); err != nil {
			return fail(fmt.Errorf("render: working folder: %w", err))
		}
	}
	if err := writeFontsConf(p.tmpDir); err != nil {
		return fail(fmt.Errorf("render: working folder: %w", err))
	}
	inst, err := prepareInstallation(ctx, exe, progDir, opts.CacheDir, filepath.Join(root, "install"), p.tmpDir, opts.Deadline)
	if err != nil {
		return fail(err)
	}
	p.template, p.version = inst.template, inst.version
	if ws != nil {
		if err := ws.writeScript(root); err != nil {
			return fail(err)
		}
	}
	p.ctx, p.cancel = context.WithCancel(context.Background())
	workers := make([]*worker, opts.Workers)
	for i := range workers {
		w := &worker{id: i + 1, dir: filepath.Join(root, fmt.Sprintf("w%d", i+1))}
		if err := os.Mkdir(w.dir, 0o700); err != nil {
			p.cancel()
			return fail(fmt.Errorf("render: working folder: %w", err))
		}
		workers[i] = w
	}
	if ws != nil {
		// Every worker's LibreOffice starts now, all at once (on two
		// cores two start-ups take about the wall time of one; started one
		// after the other, a batch's first documents had one worker). New
		// waits for the first: a bridge that cannot reach it is known
		// before any document waits on it (and New then falls back to the
		// batch pool). A worker whose start fails starts again when it is
		// given a document.
		for _, w := range workers[1:] {
			w.started = make(chan struct{})
			go func() {
				defer close(w.started)
				_ = p.startWarm(p.ctx, w)
			}()
		}
		if err := p.startWarm(ctx, workers[0]); err != nil {
			p.cancel()
			for _, w := range workers[1:] {
				<-w.started
				p.stopWarm(w)
			}
			return fail(err)
		}
	}
	for _, w := range workers {
		p.wg.Add(1)
		go p.work(w)
	}
	return p, nil
}

// findSoffice resolves the program to run and LibreOffice's program folder.
func findSoffice(explicit string) (exe, progDir string, err error) {
	if explicit != "" {
		path, err := exec.LookPath(explicit)
		if err != nil {
			return "", "", fmt.Errorf("%w: LibreOffice not found at %s: %v; %s", ErrNoRenderer, explicit, err, installHint)
		}
		abs, _ := filepath.Abs(path)
		if real, err := filepath.EvalSymlinks(abs); err == nil && filepath.Base(real) == "soffice" {
			progDir = filepath.Dir(real)
		}
		return abs, progDir, nil
	}
	for _, name := range []string{"soffice", "libreoffice"} {
		path, err := exec.LookPath(name)
		if err != nil {
			continue
		}
		real, err := filepath.EvalSymlinks(path)
		if err != nil {
			real = path
		}
		real, _ = filepath.Abs(real)
		dir := filepath.Dir(real)
		// The launcher script (soffice) execs oosplash, which forks
		// soffice.bin; running soffice.bin directly makes LibreOffice our
		// direct child, so the parent-death signal reaches it.
		if bin := filepath.Join(dir, "soffice.bin"); isExecutable(bin) {
			return bin, dir, nil
		}
		return real, dir, nil
	}
	return "", "", fmt.Errorf("%w: LibreOffice (soffice) is not installed or not in PATH; %s", ErrNoRenderer, installHint)
}

func isExecutable(p string) bool {
	info, err := os.Stat(p)
	return err == nil && info.Mode().IsRegular() && info.Mode()&0o111 != 0
}

// ProgramDir is LibreOffice's program folder ("" when run through a wrapper
// that hides it).
func (p *Pool) ProgramDir() string { return p.progDir }

// Executable is the program the pool runs.
func (p *Pool) Executable() string { return p.exe }

// Version returns LibreOffice's version line, e.g. "LibreOffice 7.4.7.2
// 40(Build:2)" ("" if it could not be run), probed when the pool's
// profile was made and kept with it in the cache folder.
func (p *Pool) Version(context.Context) string { return p.version }

// Engine says which converter this is: EngineWarm (LibreOffice kept
// running behind a UNO listener, NewWarmPool) or EngineBatch (one
// LibreOffice run per batch, NewPool).
func (p *Pool) Engine() string {
	if p.warm != nil {
		return EngineWarm
	}
	return EngineBatch
}

// Fallback is why New, choosing the engine automatically, started this
// batch pool instead of the warm one ("" when it did not fall back).
func (p *Pool) Fallback() string { return p.fallback }

// Stats returns counters of the pool's work so far.
func (p *Pool) Stats() PoolStats {
	return PoolStats{
		Runs: p.stats.runs.Load(), Converted: p.stats.converted.Load(), Failed: p.stats.failed.Load(),
		Killed: p.stats.killed.Load(), Retried: p.stats.retried.Load(), Deduplicated: p.stats.dedup.Load(),
		CPU: time.Duration(p.stats.cpu.Load()), BatchFallbacks: p.stats.batched.Load(),
	}
}

// ConvertPDF converts docPath to PDF and returns the PDF's path, inside the
// pool's working folder. The caller owns that file and removes it
// (os.Remove) when done; Close removes any left. docPath itself is only
// read (a copy is converted). Concurrent calls are batched into shared
// LibreOffice runs. Errors: *RenderError (ErrRenderFailed) for a document
// that cannot be converted, ErrUnsupported, ErrClosed, ctx.Err().
func (p *Pool) ConvertPDF(ctx context.Context, docPath string) (string, error) {
	return p.convert(ctx, docPath, pdfTarget)
}

// ConvertTo converts docPath to target (Exporter): the same batching,
// deadlines and quarantine as ConvertPDF; one LibreOffice run converts
// documents of one Target.
func (p *Pool) ConvertTo(ctx context.Context, docPath string, target Target) (string, error) {
	return p.convert(ctx, docPath, target)
}

func (p *Pool) convert(ctx context.Context, docPath string, target Target) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", err
	}
	// Close waits for stagings in progress before it removes the folder.
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return "", ErrClosed
	}
	p.staging.Add(1)
	p.mu.Unlock()
	staged := false
	defer func() {
		if !staged {
			p.staging.Done()
		}
	}()
	ext, err := DetectFormat(docPath)
	if err != nil {
		return "", err
	}
	if ext == hwpxExt {
		return "", fmt.Errorf("%w: %s: HWPX (LibreOffice has no HWPX import filter; the Renderer converts it first)", ErrUnsupported, filepath.Base(docPath))
	}
	tmp, sum, size, err := stageCopy(docPath, p.stageDir, p.opts.MaxBytes)
	// A rendering shows the values the file holds (stage_fields.go); an
	// export to another format is a document, whose formulas and fields
	// must stay as they are.
	if err == nil && target.ext() == "pdf" {
		if err = prepareStaged(tmp, ext); err != nil {
			os.Remove(tmp)
		}
	}
	if err != nil {
		var re *RenderError
		if errors.As(err, &re) || errors.Is(err, os.ErrNotExist) {
			return "", err
		}
		if p.isClosed() {
			return "", ErrClosed
		}
		return "", fmt.Errorf("render: staging %s: %w", docPath, err)
	}
	w := &waiter{doc: docPath, ch: make(chan result, 1)}
	key := sum + ext
	if target != pdfTarget {
		key += "|" + target.key()
	}

	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		os.Remove(tmp)
		return "", ErrClosed
	}
	if q := p.quarantine[key]; q != nil {
		p.mu.Unlock()
		os.Remove(tmp)
		e := *q
		e.Doc = docPath
		return "", &e
	}
	if j := p.inflight[key]; j != nil {
		j.waiters = append(j.waiters, w)
		p.mu.Unlock()
		p.stats.dedup.Add(1)
		os.Remove(tmp)
	} else {
		// The staged name is derived from the content so that a document
		// renders the same every time (a FILENAME field shows this name).
		staged := filepath.Join(p.stageDir, sum[:20]+ext)
		if err := os.Rename(tmp, staged); err != nil {
			p.mu.Unlock()
			os.Remove(tmp)
			return "", fmt.Errorf("render: staging %s: %w", docPath, err)
		}
		j := &job{sha: key, ext: ext, target: target, doc: docPath, staged: staged, size: size, queued: time.Now(), waiters: []*waiter{w}}
		p.inflight[key] = j
		p.queue = append(p.queue, j)
		p.mu.Unlock()
		p.signal()
	}
	staged = true
	p.staging.Done()

	select {
	case r := <-w.ch:
		return r.pdf, r.err
	case <-ctx.Done():
		p.mu.Lock()
		w.abandoned = true
		p.mu.Unlock()
		select {
		case r := <-w.ch: // delivered just before we gave up
			if r.pdf != "" {
				os.Remove(r.pdf)
			}
		default:
		}
		return "", ctx.Err()
	}
}

func (p *Pool) isClosed() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.closed
}

func (p *Pool) signal() {
	select {
	case p.wake <- struct{}{}:
	default:
	}
}

// Close kills every LibreOffice process, fails waiting requests with
// ErrClosed, waits for the workers and removes the working folder (profiles,
// staged copies and PDFs not yet removed by callers).
func (p *Pool) Close() error {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return nil
	}
	p.closed = true
	p.mu.Unlock()
	p.cancel()
	p.staging.Wait()
	p.wg.Wait()
	p.mu.Lock()
	for _, j := range p.queue {
		p.finishLocked(j, "", ErrClosed)
	}
	p.queue = nil
	p.mu.Unlock()
	err := os.RemoveAll(p.root)
	p.unlock()
	return err
}

// take removes up to a fair share of the queue for one worker: the queue
// split between the idle workers, at most max. The share is every idle-th
// job rather than a prefix, so that a burst ordered by size (a sorted
// folder) is not split into one batch of small and one of large files.
// Jobs nobody waits for any more are dropped.
func (p *Pool) take(max int) []*job {
	p.mu.Lock()
	defer p.mu.Unlock()
	live := p.queue[:0]
	for _, j := range p.queue {
		if p.wantedLocked(j) {
			live = append(live, j)
		} else {
			p.finishLocked(j, "", context.Canceled)
		}
	}
	p.queue = live
	idle := max1(p.idle)
	n := min(max1((len(p.queue)+idle-1)/idle), max, len(p.queue))
	picked := make([]bool, len(p.queue))
	batch := make([]*job, 0, n)
	// One LibreOffice run converts to one Target: that of the oldest job.
	var target Target
	if len(p.queue) > 0 {
		target = p.queue[0].target
	}
	for i := 0; i < len(p.queue) && len(batch) < n; i += idle {
		if p.queue[i].target == target {
			picked[i] = true
			batch = append(batch, p.queue[i])
		}
	}
	for i := 0; i < len(p.queue) && len(batch) < n; i++ {
		if !picked[i] && p.queue[i].target == target {
			picked[i] = true
			batch = append(batch, p.queue[i])
		}
	}
	rest := p.queue[:0]
	for i, j := range p.queue {
		if !picked[i] {
			rest = append(rest, j)
		}
	}
	p.queue = rest
	if len(p.queue) > 0 {
		p.signal()
	}
	// Small documents first: LibreOffice converts a batch in order and
	// each PDF is handed back as soon as the next document is begun, so a
	// big deck at the end holds no small file back.
	sort.SliceStable(batch, func(a, b int) bool { return batch[a].size < batch[b].size })
	return batch
}

func max1(n int) int {
	if n < 1 {
		return 1
	}
	return n
}

// wantedLocked reports whether any caller still waits for j.
func (p *Pool) wantedLocked(j *job) bool {
	for _, w := range j.waiters {
		if !w.abandoned {
			return true
		}
	}
	return false
}

// wanted is wantedLocked for callers without the lock.
func (p *Pool) wanted(j *job) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.wantedLocked(j)
}

// finishLocked delivers j's outcome to its waiters and forgets the job. The
// first waiter gets pdf itself, the others a hard link (or copy) of it;
// abandoned waiters get nothing. pdf is removed when nobody takes it.
func (p *Pool) finishLocked(j *job, pdf string, err error) {
	delete(p.inflight, j.sha)
	os.Remove(j.staged)
	given := false
	for _, w := range j.waiters {
		if w.abandoned {
			continue
		}
		if err != nil {
			var re *RenderError
			if errors.As(err, &re) {
				e := *re
				e.Doc = w.doc
				w.ch <- result{err: &e}
			} else {
				w.ch <- result{err: err}
			}
			continue
		}
		dst := filepath.Join(p.pdfDir, fmt.Sprintf("%06d.%s", p.seq.Add(1), j.target.ext()))
		var lerr error
		if !given {
			lerr = os.Rename(pdf, dst)
		} else if lerr = os.Link(pdf, dst); lerr != nil {
			lerr = copyFile(pdf, dst)
		}
		if lerr != nil {
			w.ch <- result{err: fmt.Errorf("render: moving PDF: %w", lerr)}
			continue
		}
		if !given {
			pdf, given = dst, true
		}
		w.ch <- result{pdf: dst}
	}
	if pdf != "" && !given {
		os.Remove(pdf)
	}
}

// copyFile copies src to a new private file dst (the pool's working files
// can be made again: no fsync).
func copyFile(src, dst string) error { return fsutil.CopyFile(src, dst, 0o600, false) }
