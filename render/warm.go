package render

import (
	"bufio"
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// The warm pool (issue #16): each worker keeps one LibreOffice running
// between documents, listening on a UNO pipe
// (soffice --accept=pipe,name=…;urp;), and converts through a small bridge
// in LibreOffice's own Python (unobridge.py, embedded below) that loads
// each document hidden and stores it as PDF with the arguments
// `soffice --convert-to pdf` uses. A conversion then costs LibreOffice's
// per-document work only, not its start (about a second of CPU): what an
// agent's edit loop, one file per round, needs. The front of the pool —
// staging, de-duplication, quarantine, Close — is the batch Pool's; only
// the workers differ (workWarm instead of batches).
//
// Supervision, per worker: a document that makes no progress within the
// Deadline (extended while LibreOffice is busy, as for batches) has its
// LibreOffice and bridge killed (one process group) and fails with
// ReasonTimeout, quarantined — it was converted alone, so it is the cause;
// one whose LibreOffice dies under it is tried once more on a fresh process
// and then quarantined (ReasonCrash); a process group above MaxRSS is
// killed and its document fails (ReasonTooLarge). A killed process is
// replaced at once; a process is also replaced after RestartAfter
// conversions and when half the memory cap stays in use, and stopped after
// IdleTimeout without work. Each process gets a fresh copy of the
// initialised profile.

// warmRetry is how long a warm worker whose LibreOffice could not be
// started converts with batch runs before it tries a warm start again.
const warmRetry = time.Minute

//go:embed unobridge.py
var bridgeScript []byte

// ErrNoBridge means the warm pool cannot run here: LibreOffice's Python
// UNO bridge is not installed or cannot reach LibreOffice. Such errors also
// match ErrNoRenderer; New falls back to the batch Pool on them when the
// engine is chosen automatically.
var ErrNoBridge = errors.New("render: LibreOffice's Python UNO bridge is not available")

const bridgeHint = "install LibreOffice's Python UNO bridge (Debian/Ubuntu: apt-get install python3-uno) " +
	"to keep LibreOffice warm; the batch converter works without it"

// warmSetup is what the warm workers run besides LibreOffice.
type warmSetup struct {
	python string // interpreter with LibreOffice's uno module
	script string // the bridge, written into the pool's folder
	// replaceBridge, when set (tests), is run instead of the embedded
	// bridge, with the embedded one's path in EDITAUDIT_REAL_BRIDGE.
	replaceBridge string
}

// findBridge checks that python can import LibreOffice's uno module (a
// probe of ~0.1 s, remembered in cacheDir per interpreter binary).
func findBridge(ctx context.Context, python, cacheDir string) (*warmSetup, error) {
	path, err := exec.LookPath(python)
	if err != nil {
		return nil, fmt.Errorf("%w: %w: %s not found; %s", ErrNoRenderer, ErrNoBridge, python, bridgeHint)
	}
	var probeErr error
	ok := toolVersion(cacheDir, path, func() string {
		out, err := runOutput(ctx, 30*time.Second, path, "-c", "import uno; print('uno ok')")
		if err != nil || !strings.Contains(string(out), "uno ok") {
			probeErr = fmt.Errorf("%v: %s", err, firstLine(out))
			return ""
		}
		return "uno ok"
	})
	if ok == "" {
		return nil, fmt.Errorf("%w: %w: %s cannot import uno (%v); %s", ErrNoRenderer, ErrNoBridge, path, probeErr, bridgeHint)
	}
	return &warmSetup{python: path}, nil
}

// writeScript writes the bridge into the pool's folder.
func (ws *warmSetup) writeScript(root string) error {
	ws.script = filepath.Join(root, "unobridge.py")
	if err := os.WriteFile(ws.script, bridgeScript, 0o600); err != nil {
		return fmt.Errorf("render: writing the UNO bridge: %w", err)
	}
	return nil
}

// NewWarmPool starts a pool whose workers keep LibreOffice running behind
// a UNO listener, converting one document after another without a new
// start, through a bridge run by opts.Python. The first worker's
// LibreOffice is started before NewWarmPool returns (the others start in
// the background), so a bridge that cannot work is known here: ErrNoBridge
// (which also matches ErrNoRenderer) with how to install it. A missing
// LibreOffice is ErrNoRenderer. It is a Converter like NewPool's, with the
// same front: concurrent requests for one document are converted once, a
// document that failed for good is quarantined, Close kills everything and
// removes the working folder.
func NewWarmPool(ctx context.Context, opts PoolOptions) (*Pool, error) {
	return newPool(ctx, opts, true)
}

// warmProc is one warm LibreOffice and its bridge, one process group led
// by soffice.bin.
type warmProc struct {
	office, bridge *exec.Cmd
	in             io.WriteCloser
	replies        chan bridgeReply // closed when the bridge's output ends
	officeDone     chan struct{}    // closed once soffice.bin is waited for
	bridgeDone     chan struct{}
	officeErr      error // soffice.bin's exit, after officeDone
	stderr         *syncTail
	sockets        []string // UNO and single-instance pipes it bound
	uses           int      // documents converted
	lastUsed       time.Time
}

// bridgeRequest is one document for the bridge (unobridge.py's protocol):
// convert In to Out, a PDF when Ext is "pdf" (the export filter of the
// document's module, as --convert-to pdf picks it), else with Filter (or
// the filter LibreOffice's --convert-to uses for Ext); Recalc first
// recalculates every formula (XCalculatable.calculateAll), as a load with
// recalcSettings does in a batch run.
type bridgeRequest struct {
	In     string `json:"in"`
	Out    string `json:"out"`
	Ext    string `json:"ext"`
	Filter string `json:"filter,omitempty"`
	Recalc bool   `json:"recalc,omitempty"`
}

// bridgeReply is one line from the bridge (unobridge.py's protocol).
type bridgeReply struct {
	Ready bool   `json:"ready"`
	Fatal string `json:"fatal"`
	OK    bool   `json:"ok"`
	Stage string `json:"stage"` // "load", "export" or "gone"
	Error string `json:"error"`
}

// syncTail is a tailBuffer shared by two processes' output.
type syncTail struct {
	mu sync.Mutex
	t  tailBuffer
}

func (s *syncTail) Write(b []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.t.Write(b)
}

func (s *syncTail) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return cleanStderr(s.t.String())
}

// bridgeEnv is LibreOffice's environment (sofficeEnv) for the bridge,
// without another Python's settings: it runs the system interpreter the
// uno module belongs to.
func bridgeEnv(tmp string) []string {
	var out []string
	for _, e := range sofficeEnv(tmp) {
		k, _, _ := strings.Cut(e, "=")
		if k == "PYTHONHOME" || k == "PYTHONPATH" || k == "PYTHONSTARTUP" {
			continue
		}
		out = append(out, e)
	}
	return append(out, "PYTHONDONTWRITEBYTECODE=1", "PYTHONNOUSERSITE=1")
}

// startWarm starts w's LibreOffice on a fresh copy of the profile, then
// the bridge, and waits until the bridge is connected. On failure nothing
// of it is left running.
func (p *Pool) startWarm(ctx context.Context, w *worker) error {
	var err error
	for attempt := 0; attempt < 2; attempt++ {
		var exit81 bool
		if exit81, err = p.startWarmOnce(ctx, w); err == nil || !exit81 {
			break
		}
	}
	return err
}

// startWarmOnce is one attempt of startWarm; exit81 reports LibreOffice
// asking to be restarted (exit status 81) before it listened.
func (p *Pool) startWarmOnce(ctx context.Context, w *worker) (exit81 bool, err error) {
	w.profile = ""
	if err := p.prepareProfile(w, false); err != nil {
		return false, err
	}
	w.gen++
	pipe := fmt.Sprintf("editaudit-%d-%s-w%d-%d", os.Getpid(), strings.TrimPrefix(filepath.Base(p.root), "editaudit-render-"), w.id, w.gen)
	args := append(sofficeArgs(w.profile), "--accept=pipe,name="+pipe+";urp;StarOffice.ComponentContext")
	office := exec.Command(p.exe, args...)
	office.Env = sofficeEnv(p.tmpDir)
	office.Dir = w.dir
	setProcessGroup(office)
	proc := &warmProc{office: office, replies: make(chan bridgeReply, 1), officeDone: make(chan struct{}),
		bridgeDone: make(chan struct{}), stderr: &syncTail{}}
	office.Stdout, office.Stderr = proc.stderr, proc.stderr
	office.WaitDelay = 5 * time.Second
	if err := office.Start(); err != nil {
		return false, fmt.Errorf("%w: starting LibreOffice (%s): %v", ErrNoRenderer, p.exe, err)
	}
	p.stats.runs.Add(1)
	go func() {
		proc.officeErr = office.Wait()
		close(proc.officeDone)
	}()
	script, env := p.warm.script, bridgeEnv(p.tmpDir)
	if p.warm.replaceBridge != "" {
		script, env = p.warm.replaceBridge, append(env, "EDITAUDIT_REAL_BRIDGE="+p.warm.script)
	}
	// A start is not a document: it gets at least a minute whatever the
	// per-document Deadline (10 s and more on a loaded machine).
	startLimit := max(p.opts.Deadline, time.Minute)
	connect := strconv.Itoa(int(startLimit.Seconds()))
	bridge := exec.Command(p.warm.python, script, pipe, connect)
	proc.bridge = bridge
	joinProcessGroup(bridge, office.Process.Pid)
	bridge.Env = env
	bridge.Dir = w.dir
	bridge.Stderr = proc.stderr
	bridge.WaitDelay = 5 * time.Second
	in, err1 := bridge.StdinPipe()
	out, err2 := bridge.StdoutPipe()
	if err := errors.Join(err1, err2); err != nil {
		p.killWarm(proc)
		return false, fmt.Errorf("render: bridge pipes: %w", err)
	}
	proc.in = in
	if err := bridge.Start(); err != nil {
		proc.bridge = nil
		p.killWarm(proc)
		return false, fmt.Errorf("%w: %w: starting %s: %v; %s", ErrNoRenderer, ErrNoBridge, p.warm.python, err, bridgeHint)
	}
	go func() {
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 0, 4096), 1<<20)
		for sc.Scan() {
			var r bridgeReply
			if json.Unmarshal(sc.Bytes(), &r) == nil {
				proc.replies <- r
			}
		}
		close(proc.replies)
		_ = bridge.Wait() // after every read, as os/exec requires
		close(proc.bridgeDone)
	}()

	timer := time.NewTimer(startLimit + 5*time.Second)
	defer timer.Stop()
	fail := func(format string, a ...any) (bool, error) {
		p.killWarm(proc)
		if s := proc.stderr.String(); s != "" {
			format += "; it said: " + s
		}
		return false, fmt.Errorf("%w: %w: "+format, append([]any{ErrNoRenderer, ErrNoBridge}, a...)...)
	}
	select {
	case r, ok := <-proc.replies:
		switch {
		case ok && r.Ready:
		case ok && r.Fatal != "":
			return fail("the bridge could not reach LibreOffice: %s", r.Fatal)
		default:
			<-proc.bridgeDone
			return fail("the bridge (%s) stopped before reaching LibreOffice: %v", p.warm.python, bridge.ProcessState)
		}
	case <-proc.officeDone:
		var ee *exec.ExitError
		if errors.As(proc.officeErr, &ee) && ee.ExitCode() == 81 {
			p.killWarm(proc)
			return true, fmt.Errorf("%w: LibreOffice (%s) is installed but asked to be restarted twice at start", ErrRendererBroken, p.exe)
		}
		p.killWarm(proc)
		// Installed, started, and died before it listened (no fonts, a
		// full disk for its profile): the machine's failure, never "not
		// installed".
		return false, fmt.Errorf("%w: LibreOffice (%s) is installed but stopped before listening: %v; %s", ErrRendererBroken, p.exe, proc.officeErr, proc.stderr.String())
	case <-timer.C:
		return fail("LibreOffice did not answer on its UNO pipe within %s", startLimit+5*time.Second)
	case <-ctx.Done():
		p.killWarm(proc)
		return false, ctx.Err()
	case <-p.ctx.Done():
		p.killWarm(proc)
		return false, ErrClosed
	}
	proc.lastUsed = time.Now() // idle from now, not from the start
	proc.sockets = boundSockets(office.Process.Pid)
	_ = os.WriteFile(filepath.Join(w.dir, socketsFile), []byte(strings.Join(proc.sockets, "\n")), 0o600)
	w.proc = proc
	return false, nil
}

// killWarm kills a warm LibreOffice and its bridge (their process group),
// waits for both, counts their CPU time and removes the sockets they bound.
func (p *Pool) killWarm(proc *warmProc) {
	killGroup(proc.office)
	if proc.in != nil {
		proc.in.Close()
	}
	<-proc.officeDone
	if proc.bridge != nil {
		<-proc.bridgeDone
	}
	killGroup(proc.office) // stragglers: the group id stays reserved while any member lives
	for _, c := range []*exec.Cmd{proc.office, proc.bridge} {
		if c != nil && c.ProcessState != nil {
			p.stats.cpu.Add(int64(c.ProcessState.UserTime() + c.ProcessState.SystemTime()))
		}
	}
	removeSockets(proc.sockets)
}

// stopWarm ends w's LibreOffice, if any.
func (p *Pool) stopWarm(w *worker) {
	if w.proc == nil {
		return
	}
	p.killWarm(w.proc)
	w.proc = nil
	_ = os.Remove(filepath.Join(w.dir, socketsFile))
}

// workWarm is a warm worker's loop: keep a LibreOffice ready, convert one
// document at a time.
func (p *Pool) workWarm(w *worker) {
	defer p.wg.Done()
	defer p.stopWarm(w)
	if w.started != nil {
		<-w.started // started by newPool beside the first worker
	}
	w.replace = w.proc == nil // newPool's start failed (or none was made): start one now
	for {
		var j *job
		if !p.whileIdle(func() (ok bool) { j, ok = p.nextWarm(w); return ok }) {
			return
		}
		p.convertWarm(w, j)
	}
}

// nextWarm waits for a queued document. Meanwhile it starts a replacement
// LibreOffice when one is due, stops one idle for IdleTimeout, and cleans
// up after one that died while idle. ok is false when the pool closes.
func (p *Pool) nextWarm(w *worker) (*job, bool) {
	for {
		if p.ctx.Err() != nil {
			return nil, false
		}
		if b := p.take(1); len(b) > 0 {
			return b[0], true
		}
		if w.proc == nil && w.replace && time.Now().After(w.batchUntil) {
			w.replace = false
			if err := p.startWarm(p.ctx, w); err != nil && p.ctx.Err() == nil {
				w.batchUntil = time.Now().Add(warmRetry) // the next documents go through batch runs
			}
			continue
		}
		var idle <-chan time.Time
		var died <-chan struct{}
		var t *time.Timer
		if w.proc != nil {
			t = time.NewTimer(time.Until(w.proc.lastUsed.Add(p.opts.IdleTimeout)))
			idle, died = t.C, w.proc.officeDone
		}
		select {
		case <-p.wake:
		case <-idle:
			p.stopWarm(w)
		case <-died:
			p.stopWarm(w)
			w.replace = true
		case <-p.ctx.Done():
		}
		if t != nil {
			t.Stop()
		}
	}
}

// convertWarm converts one document on w's LibreOffice. A document under
// which LibreOffice died is tried once more on a fresh one; failing again,
// it is quarantined.
func (p *Pool) convertWarm(w *worker, j *job) {
	for attempt := 1; ; attempt++ {
		o := p.runWarm(w, j)
		switch {
		case o.handed: // delivered by a batch run (never for one document alone)
			return
		case o.pdf != "":
			p.succeed(j, o.pdf)
			return
		case o.err != nil:
			p.fail(j, o.err)
			return
		case p.ctx.Err() != nil:
			p.fail(j, ErrClosed)
			return
		case !p.wanted(j):
			p.fail(j, context.Canceled)
			return
		case attempt == 2:
			e := o.failure
			e.Quarantined = true
			e.Detail += " (twice, on two fresh LibreOffice processes; quarantined)"
			p.fail(j, e)
			return
		}
		p.stats.retried.Add(1)
	}
}

// runWarm sends one document to w's LibreOffice (started first when it has
// none) and supervises the conversion: a PDF, a final error, or a failure
// (LibreOffice died: retry).
func (p *Pool) runWarm(w *worker, j *job) outcome {
	if w.proc == nil && time.Now().After(w.batchUntil) {
		if err := p.startWarm(p.ctx, w); err != nil {
			if p.ctx.Err() != nil {
				return outcome{err: ErrClosed}
			}
			w.batchUntil = time.Now().Add(warmRetry)
		}
	}
	if w.proc == nil {
		// No warm LibreOffice now (its start failed: a bridge broken by
		// an upgrade, a LibreOffice that did not answer on a loaded
		// machine): the document is converted by a batch run, with the
		// batch pool's supervision; a warm start is tried again after
		// warmRetry.
		p.stats.batched.Add(1)
		return p.runJobs(w, []*job{j})[0]
	}
	proc := w.proc
	outdir := filepath.Join(w.dir, "out")
	if err := os.MkdirAll(outdir, 0o700); err != nil {
		return outcome{err: fmt.Errorf("render: %w", err)}
	}
	pdf := outPDF(outdir, j)
	_ = os.Remove(pdf)
	req, _ := json.Marshal(bridgeRequest{In: j.staged, Out: pdf, Ext: j.target.ext(), Filter: j.target.Filter, Recalc: j.target.Recalc})
	crashed := func(said string) outcome {
		// Give soffice.bin a moment to be reaped, to tell a crash by
		// signal from a broken connection.
		select {
		case <-proc.officeDone:
		case <-time.After(2 * time.Second):
		}
		e := &RenderError{Reason: ReasonCrash, Detail: "LibreOffice's UNO connection broke"}
		var ee *exec.ExitError
		select {
		case <-proc.officeDone:
			if errors.As(proc.officeErr, &ee) {
				if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
					e.Detail = "LibreOffice died: signal " + signalName(ws.Signal())
					e.Transient = externalSignal(ws.Signal())
				} else {
					e.Detail = fmt.Sprintf("LibreOffice exited with status %d", ee.ExitCode())
				}
			} else {
				e.Detail = "LibreOffice exited"
			}
		default:
			if said != "" {
				e.Detail += ": " + said
			}
		}
		if s := proc.stderr.String(); s != "" {
			e.Detail += "; LibreOffice said: " + s
		}
		p.stopWarm(w)
		w.replace = true
		return outcome{failure: e}
	}
	if _, err := proc.in.Write(append(req, '\n')); err != nil {
		return crashed("the bridge was gone before the document was sent")
	}
	// Usage is read from the two processes' own stat files, LibreOffice's
	// and the bridge's, when LibreOffice is soffice.bin itself (a scan of
	// the process group reads every process's, a few ms each time on a
	// busy machine); a wrapper's group is scanned.
	usage := func() (time.Duration, int64, bool) {
		if filepath.Base(p.exe) == "soffice.bin" {
			return procsUsage(proc.office.Process.Pid, proc.bridge.Process.Pid)
		}
		return groupUsage(proc.office.Process.Pid)
	}
	clock := newProgressClock(func() (time.Duration, bool) {
		cpu, _, ok := usage()
		return cpu, ok
	}, p.opts.Deadline)
	defer clock.stop()
	tick := time.NewTicker(250 * time.Millisecond)
	defer tick.Stop()
	killed := func(err error) outcome {
		p.stats.killed.Add(1)
		p.stopWarm(w)
		w.replace = true
		return outcome{err: err}
	}
	for {
		select {
		case r, ok := <-proc.replies:
			if !ok || r.Stage == "gone" {
				return crashed(r.Error)
			}
			proc.uses++
			proc.lastUsed = time.Now()
			// The cap holds however fast the conversion was: a reply from a
			// LibreOffice above it is the same as being caught above it by
			// the ticker (a small document can finish between two ticks).
			_, rss, rssOK := usage()
			if rssOK && rss > p.opts.MaxRSS {
				os.Remove(pdf)
				return killed(overCap(rss, p.opts.MaxRSS))
			}
			if proc.uses >= p.opts.RestartAfter || rssOK && rss > p.opts.MaxRSS/2 {
				p.stopWarm(w)
				w.replace = true
			}
			switch {
			case r.OK && isNonEmptyFile(pdf):
				kept, err := p.keepPDF(pdf, j.target)
				return outcome{pdf: kept, err: err}
			case r.OK:
				return outcome{err: &RenderError{Reason: ReasonNoPDF, Quarantined: true, Detail: "LibreOffice exported the document but wrote no PDF"}}
			case r.Stage == "load":
				return outcome{err: &RenderError{Reason: ReasonNoPDF, Quarantined: true,
					Detail: "LibreOffice could not load the document (no PDF produced): " + r.Error}}
			default:
				return outcome{err: &RenderError{Reason: ReasonNoPDF, Quarantined: true,
					Detail: "LibreOffice loaded the document but could not export it: " + r.Error}}
			}
		case <-proc.officeDone:
			return crashed("")
		case <-clock.C():
			if !clock.expired() {
				continue
			}
			e := clock.timeoutError()
			e.Quarantined = true
			e.Detail += " (converted alone on a warm LibreOffice; quarantined)"
			return killed(e)
		case <-tick.C:
			if !p.wanted(j) {
				return killed(context.Canceled)
			}
			if _, rss, ok := usage(); ok && rss > p.opts.MaxRSS {
				return killed(overCap(rss, p.opts.MaxRSS))
			}
		case <-p.ctx.Done():
			p.stopWarm(w)
			return outcome{err: ErrClosed}
		}
	}
}

// overCap is the failure of a document whose conversion took a warm
// LibreOffice above PoolOptions.MaxRSS.
func overCap(rss, limit int64) *RenderError {
	return &RenderError{Reason: ReasonTooLarge, Quarantined: true, Detail: fmt.Sprintf(
		"LibreOffice used %d MiB converting it, over the %d MiB cap; killed", rss>>20, limit>>20)}
}
