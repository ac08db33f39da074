package render

import (
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"
)

// worker is one LibreOffice slot: its own profile (copied from the pool's
// template), its own process group per run.
type worker struct {
	id      int
	dir     string
	profile string // "" until copied
	recalc  bool   // the profile is a copy of the recalculating template
	uses    int    // conversions since the profile was copied
	runs    int

	// A warm worker's LibreOffice (nil when stopped), how many it started
	// (pipe names), and whether a replacement is due.
	proc    *warmProc
	gen     int
	replace bool
	// Until then the worker converts with batch runs: its last warm start
	// failed (warmRetry).
	batchUntil time.Time
	// started is closed once the LibreOffice newPool started for this
	// worker beside the first one is up (or failed to start); nil when
	// none was.
	started chan struct{}
}

// work is a worker's loop: wait for requests, gather a batch, convert it
// (a warm pool's workers run workWarm instead).
func (p *Pool) work(w *worker) {
	if p.warm != nil {
		p.workWarm(w)
		return
	}
	defer p.wg.Done()
	for {
		var batch []*job
		ok := p.whileIdle(func() (ok bool) { batch, ok = p.nextBatch(w); return ok })
		if !ok {
			return
		}
		if len(batch) > 0 {
			p.convertBatch(w, batch)
		}
	}
}

// whileIdle runs wait (a worker waiting for work) counted as an idle
// worker, which take uses to share the queue out.
func (p *Pool) whileIdle(wait func() bool) bool {
	p.mu.Lock()
	p.idle++
	p.mu.Unlock()
	defer func() {
		p.mu.Lock()
		p.idle--
		p.mu.Unlock()
	}()
	return wait()
}

// nextBatch waits until requests are queued, lets the batch window pass
// (BatchWindow after the newest request, so a burst of requests is
// gathered whole, but at most 10×BatchWindow after the oldest), and takes
// this worker's share. ok is false when the pool is closing.
func (p *Pool) nextBatch(w *worker) (batch []*job, ok bool) {
	for {
		p.mu.Lock()
		var oldest, newest time.Time
		if n := len(p.queue); n > 0 {
			oldest, newest = p.queue[0].queued, p.queue[n-1].queued
		}
		p.mu.Unlock()
		if oldest.IsZero() {
			select {
			case <-p.wake:
				continue
			case <-p.ctx.Done():
				return nil, false
			}
		}
		until := newest.Add(p.opts.BatchWindow)
		if limit := oldest.Add(10 * p.opts.BatchWindow); until.After(limit) {
			until = limit
		}
		if d := time.Until(until); d > 0 {
			t := time.NewTimer(min(d, p.opts.BatchWindow))
			select {
			case <-t.C:
				continue // look again: more may have arrived
			case <-p.ctx.Done():
				t.Stop()
				return nil, false
			}
		}
		max := min(p.opts.MaxBatch, max1(p.opts.RestartAfter-w.uses))
		if b := p.take(max); len(b) > 0 {
			return b, true
		}
	}
}

// convertBatch converts a batch in one LibreOffice run; documents left
// unfinished by a hang or crash are retried one by one, and a document that
// fails alone after failing in the batch is quarantined.
func (p *Pool) convertBatch(w *worker, batch []*job) {
	res := p.runJobs(w, batch)
	var retry []*job
	for i, j := range batch {
		switch o := res[i]; {
		case o.handed:
		case o.pdf != "":
			p.succeed(j, o.pdf)
		case o.err != nil:
			p.fail(j, o.err)
		default:
			retry = append(retry, j)
		}
	}
	for _, j := range retry {
		if p.ctx.Err() != nil {
			p.fail(j, ErrClosed)
			continue
		}
		if !p.wanted(j) {
			p.fail(j, context.Canceled)
			continue
		}
		p.stats.retried.Add(1)
		o := p.runJobs(w, []*job{j})[0]
		switch {
		case o.pdf != "":
			p.succeed(j, o.pdf)
		case o.err != nil:
			p.fail(j, o.err)
		default: // failed again: this is the bad document
			e := o.failure
			if e == nil {
				e = &RenderError{Reason: ReasonCrash, Detail: "LibreOffice stopped without converting it"}
			}
			e.Quarantined = true
			e.Detail += " (failed twice: in a batch and alone; quarantined)"
			p.fail(j, e)
		}
	}
}

func (p *Pool) succeed(j *job, pdf string) {
	p.stats.converted.Add(1)
	p.mu.Lock()
	p.finishLocked(j, pdf, nil)
	p.mu.Unlock()
}

func (p *Pool) fail(j *job, err error) {
	p.mu.Lock()
	var re *RenderError
	if errors.As(err, &re) {
		p.stats.failed.Add(1)
		re.Doc = j.doc
		if re.Quarantined {
			p.quarantine[j.sha] = re
		}
	}
	p.finishLocked(j, "", err)
	p.mu.Unlock()
}

// outcome is one document's fate in one LibreOffice run: a PDF, a final
// error, or neither (unfinished: retry it; failure says what happened).
type outcome struct {
	pdf     string
	err     error
	failure *RenderError
	handed  bool // delivered while the run went on (handBack)
}

// runJobs runs LibreOffice once over jobs and classifies each document.
// A run that exits normally is final for every document: no PDF means
// LibreOffice could not load or export it. After a run that was killed or
// crashed, the PDFs of documents LibreOffice had moved past are final;
// every other document is unfinished.
func (p *Pool) runJobs(w *worker, jobs []*job) []outcome {
	out := make([]outcome, len(jobs))
	if !p.anyWanted(jobs) { // given up while the batch was gathered
		for i := range out {
			out[i].err = context.Canceled
		}
		return out
	}
	if err := p.prepareProfile(w, jobs[0].target.Recalc); err != nil {
		for i := range out {
			out[i].err = err
		}
		return out
	}
	outdir, err := os.MkdirTemp(w.dir, "out-")
	if err != nil {
		for i := range out {
			out[i].err = fmt.Errorf("render: %w", err)
		}
		return out
	}
	defer os.RemoveAll(outdir)

	var r runResult
	for attempt := 0; ; attempt++ {
		r = p.runSoffice(w, jobs, outdir)
		// Exit code 81 is LibreOffice asking to be restarted (after it set
		// up a profile); it converted nothing, so it costs no attempt.
		if r.exitCode == 81 && r.reached < 0 && attempt < 2 {
			continue
		}
		break
	}
	if r.startErr != nil {
		// Not the documents' fault: the renderer itself is gone.
		for i := range out {
			out[i].err = fmt.Errorf("%w: starting LibreOffice (%s): %v", ErrNoRenderer, p.exe, r.startErr)
		}
		return out
	}
	w.uses += len(jobs)
	if r.killed || r.crashed {
		w.profile = "" // a killed LibreOffice may leave its profile half-written
	}

	for i, j := range jobs {
		pdf := outPDF(outdir, j)
		exists := isNonEmptyFile(pdf)
		switch {
		case j.handed:
			out[i].handed = true
		case r.cancelled:
			out[i].err = ErrClosed
			if p.ctx.Err() == nil {
				out[i].err = context.Canceled
			}
		case !r.killed && !r.crashed:
			if exists {
				out[i].pdf, out[i].err = p.keepPDF(pdf, j.target)
			} else if r.seen[i] {
				out[i].err = &RenderError{Reason: ReasonNoPDF, Quarantined: true,
					Detail: "LibreOffice loaded the document but wrote no PDF" + r.stderrNote()}
			} else {
				out[i].err = &RenderError{Reason: ReasonNoPDF, Quarantined: true,
					Detail: "LibreOffice could not load the document (no PDF produced)" + r.stderrNote()}
			}
		case i < r.reached && exists:
			// LibreOffice went on to a later document: this one is done.
			out[i].pdf, out[i].err = p.keepPDF(pdf, j.target)
		default:
			// The document it was on, those after it, and (to be safe)
			// earlier ones without a PDF: retried alone.
			out[i].failure = r.failure()
		}
	}
	return out
}

// outPDF is where LibreOffice writes j's PDF (or other Target) in outdir.
func outPDF(outdir string, j *job) string {
	return filepath.Join(outdir, strings.TrimSuffix(filepath.Base(j.staged), j.ext)+"."+j.target.ext())
}

// handBack delivers j's PDF while its LibreOffice run goes on with later
// documents (which means j's export is finished). A missing PDF is left
// for the run's end to classify.
func (p *Pool) handBack(j *job, outdir string) {
	pdf := outPDF(outdir, j)
	if !isNonEmptyFile(pdf) {
		return
	}
	kept, err := p.keepPDF(pdf, j.target)
	if err != nil {
		return
	}
	j.handed = true
	p.succeed(j, kept)
}

// keepPDF moves a finished PDF (or other Target) out of the run's output
// folder (removed when the run ends) into the pool's PDF folder.
func (p *Pool) keepPDF(pdf string, t Target) (string, error) {
	dst := filepath.Join(p.pdfDir, fmt.Sprintf("run-%06d.%s", p.seq.Add(1), t.ext()))
	if err := os.Rename(pdf, dst); err != nil {
		return "", fmt.Errorf("render: keeping PDF: %w", err)
	}
	return dst, nil
}

func isNonEmptyFile(p string) bool {
	info, err := os.Stat(p)
	return err == nil && info.Mode().IsRegular() && info.Size() > 0
}

// prepareProfile gives the worker a fresh copy of the template profile when
// it has none, has used it RestartAfter times, or has the other kind
// (recalculating or not) than the batch needs.
func (p *Pool) prepareProfile(w *worker, recalc bool) error {
	if w.profile != "" && w.uses < p.opts.RestartAfter && w.recalc == recalc {
		return nil
	}
	tpl := p.template
	if recalc {
		p.recalcOnce.Do(func() {
			// In the pool's own folder: the template may be the shared
			// cache's, which no pool writes into.
			p.recalcTpl = filepath.Join(p.root, "profile-recalc")
			if p.recalcErr = copyDir(p.template, p.recalcTpl); p.recalcErr == nil {
				p.recalcErr = addSettings(filepath.Join(p.recalcTpl, "user", "registrymodifications.xcu"), recalcSettings)
			}
		})
		if p.recalcErr != nil {
			return fmt.Errorf("render: recalculating profile: %w", p.recalcErr)
		}
		tpl = p.recalcTpl
	}
	dst := filepath.Join(w.dir, "profile")
	if err := os.RemoveAll(dst); err != nil {
		return fmt.Errorf("render: resetting profile: %w", err)
	}
	if err := copyDir(tpl, dst); err != nil {
		return fmt.Errorf("render: copying profile: %w", err)
	}
	w.profile, w.uses, w.recalc = dst, 0, recalc
	return nil
}

// runResult is what one LibreOffice run did.
type runResult struct {
	startErr error  // LibreOffice could not be started at all
	seen     []bool // a "convert" line was printed for the document
	reached  int    // index of the last document LibreOffice started on, -1 for none
	exitCode int    // -1 when killed by a signal
	signal   string
	// externalSignal: killed by a signal that comes from outside
	// (SIGKILL, SIGTERM, SIGINT, SIGHUP), not one LibreOffice raised.
	externalSignal bool
	killed         bool // by the deadline
	cancelled      bool // by Close or because nobody waits any more
	crashed        bool // died by a signal or exited non-zero
	stderr         string
	elapsed        time.Duration
	timeout        *RenderError // the clock's account of a kill by the deadline
}

// stderrNote quotes LibreOffice's stderr for a run of one document (in a
// batch, its messages cannot be told apart).
func (r *runResult) stderrNote() string {
	if r.stderr == "" || len(r.seen) != 1 {
		return ""
	}
	return "; LibreOffice said: " + r.stderr
}

// failure describes why the run left its current document unfinished.
func (r *runResult) failure() *RenderError {
	switch {
	case r.killed:
		e := *r.timeout
		return &e
	case r.signal != "":
		// SIGKILL, SIGTERM, SIGINT, SIGHUP come from outside (the pool's
		// own kills are r.killed and r.cancelled): the OOM killer, an
		// operator. SIGSEGV, SIGABRT come from LibreOffice itself.
		return &RenderError{Reason: ReasonCrash, Transient: r.externalSignal, Detail: "LibreOffice died: " + r.signal + r.stderrNote()}
	default:
		return &RenderError{Reason: ReasonCrash, Detail: fmt.Sprintf("LibreOffice exited with status %d", r.exitCode) + r.stderrNote()}
	}
}

// progressWriter receives LibreOffice's stdout. LibreOffice prints
// "convert IN -> OUT using filter : F" after loading IN and before
// exporting it (desktop/source/app/dispatchwatcher.cxx), so each line marks
// the previous document finished and restarts the per-document clock.
type progressWriter struct {
	mu     sync.Mutex
	buf    []byte
	index  map[string]int
	seen   []bool
	last   int
	notify chan struct{}
}

func (pw *progressWriter) Write(b []byte) (int, error) {
	pw.mu.Lock()
	defer pw.mu.Unlock()
	pw.buf = append(pw.buf, b...)
	for {
		i := strings.IndexByte(string(pw.buf), '\n')
		if i < 0 {
			if len(pw.buf) > 1<<16 {
				pw.buf = pw.buf[:0] // a runaway line: drop it
			}
			break
		}
		line := string(pw.buf[:i])
		pw.buf = pw.buf[i+1:]
		if !strings.HasPrefix(line, "convert ") {
			continue
		}
		in, _, ok := strings.Cut(strings.TrimPrefix(line, "convert "), " -> ")
		if !ok {
			continue
		}
		if k, ok := pw.index[in]; ok {
			pw.seen[k] = true
			if k > pw.last {
				pw.last = k
			}
			select {
			case pw.notify <- struct{}{}:
			default:
			}
		}
	}
	return len(b), nil
}

// sofficeArgs are the options of every conversion run: no UI, no splash, no
// default document, no crash recovery, no lock check, a private profile.
func sofficeArgs(profile string) []string {
	return []string{
		"--headless", "--invisible", "--nologo", "--nodefault", "--norestore", "--nolockcheck",
		"-env:UserInstallation=" + fileURL(profile),
	}
}

// runSoffice runs one LibreOffice process converting jobs into outdir. The
// process leads its own process group; when a document makes no progress
// within the deadline, or the pool closes, or nobody waits for any of the
// documents, the whole group is killed. Wait is always called.
func (p *Pool) runSoffice(w *worker, jobs []*job, outdir string) runResult {
	r := runResult{reached: -1, seen: make([]bool, len(jobs))}
	pw := &progressWriter{index: map[string]int{}, seen: r.seen, last: -1, notify: make(chan struct{}, 1)}
	args := append(sofficeArgs(w.profile), "--convert-to", jobs[0].target.arg(), "--outdir", outdir)
	for i, j := range jobs {
		pw.index[j.staged] = i
		args = append(args, j.staged)
	}
	cmd := exec.Command(p.exe, args...)
	cmd.Env = sofficeEnv(p.tmpDir)
	cmd.Dir = w.dir
	setProcessGroup(cmd)
	var stderr tailBuffer
	cmd.Stdout = pw
	cmd.Stderr = &stderr
	cmd.WaitDelay = 10 * time.Second // a straggler holding the pipes cannot block Wait for long
	start := time.Now()
	p.stats.runs.Add(1)
	w.runs++
	if err := cmd.Start(); err != nil {
		r.startErr = err
		return r
	}
	waitc := make(chan error, 1)
	go func() { waitc <- cmd.Wait() }()

	clock := newProgressClock(p.runCPU(cmd.Process.Pid), p.opts.Deadline)
	defer clock.stop()
	tick := time.NewTicker(250 * time.Millisecond)
	defer tick.Stop()
	handed := 0 // documents handed back before the run ended
	var werr error
loop:
	for {
		select {
		case werr = <-waitc:
			break loop
		case <-pw.notify:
			clock.progress()
			// LibreOffice moved on: the documents before the one it is on
			// are written; their callers need not wait for the run's end.
			pw.mu.Lock()
			last := pw.last
			pw.mu.Unlock()
			for ; handed < last; handed++ {
				p.handBack(jobs[handed], outdir)
			}
		case <-clock.C():
			if !clock.expired() {
				continue
			}
			r.killed = true
			r.timeout = clock.timeoutError()
			killGroup(cmd)
			werr = <-waitc
			break loop
		case <-tick.C:
			if !p.anyWanted(jobs) {
				r.cancelled = true
				killGroup(cmd)
				werr = <-waitc
				break loop
			}
		case <-p.ctx.Done():
			r.cancelled = true
			killGroup(cmd)
			werr = <-waitc
			break loop
		}
	}
	// Stragglers (a child that outlived the leader) go with the group. The
	// group id stays reserved while any member lives, so this cannot hit an
	// unrelated process group.
	killGroup(cmd)
	r.elapsed = time.Since(start)
	if ps := cmd.ProcessState; ps != nil {
		p.stats.cpu.Add(int64(ps.UserTime() + ps.SystemTime()))
	}
	if r.killed || r.cancelled {
		p.stats.killed.Add(1)
	}
	pw.mu.Lock()
	r.reached = pw.last
	pw.mu.Unlock()
	r.stderr = cleanStderr(stderr.String())
	var ee *exec.ExitError
	switch {
	case werr == nil:
		r.exitCode = 0
	case errors.As(werr, &ee):
		r.exitCode = ee.ExitCode()
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			r.signal = "signal " + signalName(ws.Signal())
			r.externalSignal = externalSignal(ws.Signal())
		}
		if !r.killed && !r.cancelled && r.exitCode != 81 {
			r.crashed = true
		}
	case errors.Is(werr, exec.ErrWaitDelay):
		r.exitCode = 0
	default:
		r.exitCode = -1
		if !r.killed && !r.cancelled {
			r.crashed = true
			r.stderr = werr.Error()
		}
	}
	if r.exitCode == 81 && r.reached >= 0 {
		r.crashed = true // a restart request in the middle of converting
	}
	return r
}

// progressClock is the per-document deadline of a LibreOffice process
// group: Deadline of wall time without progress. When it runs out while
// LibreOffice is visibly working (it used at least 5% of a core over the
// last window: a big document on a loaded machine, where it may get a
// sixth of a core), it is extended window by window, up to Deadline of CPU
// time or 3×Deadline of wall time since the last progress. A blocked
// LibreOffice (waiting on the network, a dialog, a lock) uses no CPU and is
// killed when the Deadline runs out.
type progressClock struct {
	deadline                  time.Duration
	cpu                       func() (time.Duration, bool) // LibreOffice's CPU time so far
	timer                     *time.Timer
	lastProgress, checkAt     time.Time
	cpuAtProgress, cpuAtCheck time.Duration
	// When expired says kill: wall and CPU time since the last progress,
	// and whether the deadline was extended because LibreOffice was busy.
	noProgress, cpuNoProgress time.Duration
	extended                  bool
}

func newProgressClock(cpu func() (time.Duration, bool), deadline time.Duration) *progressClock {
	c := &progressClock{deadline: deadline, cpu: cpu, timer: time.NewTimer(deadline)}
	c.mark()
	return c
}

func (c *progressClock) mark() {
	c.lastProgress = time.Now()
	c.cpuAtProgress, _ = c.cpu()
	c.cpuAtCheck, c.checkAt = c.cpuAtProgress, c.lastProgress
	c.extended = false
}

// C fires when the deadline runs out; then call expired.
func (c *progressClock) C() <-chan time.Time { return c.timer.C }

// progress restarts the clock: a document was finished (or begun).
func (c *progressClock) progress() {
	if !c.timer.Stop() {
		select {
		case <-c.timer.C:
		default:
		}
	}
	c.timer.Reset(c.deadline)
	c.mark()
}

// expired is called when C fired: it extends the deadline (false) while
// LibreOffice keeps working within the limits, else says kill (true).
func (c *progressClock) expired() bool {
	now := time.Now()
	cpu, ok := c.cpu()
	window, used := now.Sub(c.checkAt), cpu-c.cpuAtCheck
	c.noProgress, c.cpuNoProgress = now.Sub(c.lastProgress), cpu-c.cpuAtProgress
	if ok && used*20 >= window && c.cpuNoProgress < c.deadline && c.noProgress < 3*c.deadline {
		c.extended = true
		c.cpuAtCheck, c.checkAt = cpu, now
		c.timer.Reset(min(5*time.Second, c.deadline))
		return false
	}
	return true
}

func (c *progressClock) stop() { c.timer.Stop() }

// timeoutError describes a kill by the clock.
func (c *progressClock) timeoutError() *RenderError {
	how := "it was idle: blocked"
	if c.extended {
		how = "it was busy: extended up to the CPU or 3× wall limit"
	}
	// A timeout may be the machine's load as much as the document.
	return &RenderError{Reason: ReasonTimeout, Transient: true, Detail: fmt.Sprintf(
		"no progress for %s (per-document deadline %s; LibreOffice used %s of CPU meanwhile, %s); killed",
		c.noProgress.Round(100*time.Millisecond), c.deadline, c.cpuNoProgress.Round(10*time.Millisecond), how)}
}

// runCPU returns how to read the CPU time of a LibreOffice run led by pid:
// that process's own (with its reaped children) when it is soffice.bin
// itself, else (a launcher script, a wrapper) its whole process group,
// which costs a scan of every process.
func (p *Pool) runCPU(pid int) func() (time.Duration, bool) {
	if filepath.Base(p.exe) == "soffice.bin" {
		return func() (time.Duration, bool) {
			cpu, _, ok := procsUsage(pid)
			return cpu, ok
		}
	}
	return func() (time.Duration, bool) { return groupCPU(pid) }
}

// anyWanted reports whether any caller still waits for one of jobs (those
// handed back already are done).
func (p *Pool) anyWanted(jobs []*job) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, j := range jobs {
		if !j.handed && p.wantedLocked(j) {
			return true
		}
	}
	return false
}

// sofficeEnv is the environment of LibreOffice: ours, with file locking on
// (what the launcher script sets), the locale pinned to C.UTF-8, so that
// locale-dependent layout (number formats, default page setup) is the same
// on every machine — a render depends on the document and the Toolchain
// only — and, when tmp is not empty, TMPDIR set to tmp: LibreOffice makes a
// lu*.tmp folder there per process and leaves it behind when killed (and
// sometimes when not), so the pool points it into its own working folder,
// which Close removes. When tmp holds the pool's fonts.conf (fontsConf),
// FONTCONFIG_FILE points at it.
func sofficeEnv(tmp string) []string {
	conf := ""
	if tmp != "" {
		if st, err := os.Stat(filepath.Join(tmp, fontsConfName)); err == nil && st.Mode().IsRegular() {
			conf = filepath.Join(tmp, fontsConfName)
		}
	}
	var out []string
	for _, e := range os.Environ() {
		k, _, _ := strings.Cut(e, "=")
		switch {
		case k == "SAL_ENABLE_FILE_LOCKING", k == "LANG", k == "LANGUAGE", strings.HasPrefix(k, "LC_"):
			continue
		case tmp != "" && k == "TMPDIR":
			continue
		case conf != "" && k == "FONTCONFIG_FILE":
			continue
		}
		out = append(out, e)
	}
	out = append(out, "SAL_ENABLE_FILE_LOCKING=1", "LC_ALL=C.UTF-8", "LANG=C.UTF-8")
	if tmp != "" {
		out = append(out, "TMPDIR="+tmp)
	}
	if conf != "" {
		out = append(out, "FONTCONFIG_FILE="+conf)
	}
	return out
}

// fontsConfName is the fontconfig file the pool writes into its TMPDIR.
const fontsConfName = "fonts.conf"

// writeFontsConf writes the fontconfig file of LibreOffice's processes
// into dir: the system's configuration (or the one FONTCONFIG_FILE names),
// with colour fonts rejected. LibreOffice 7.4 draws a colour bitmap glyph
// (Noto Color Emoji, CBDT) on screen but leaves it out of an exported PDF,
// so an emoji came out blank (seen on this project's own renders); without
// colour fonts it falls back to an outline emoji font (Symbola, installed
// by scripts/setup.sh) and the emoji is drawn, in black and white.
// LibreOffice 7.5 exports colour fonts (its release notes); the rule then
// only costs the colour.
func writeFontsConf(dir string) error {
	base := os.Getenv("FONTCONFIG_FILE")
	if base == "" {
		base = "/etc/fonts/fonts.conf"
	}
	var b strings.Builder
	b.WriteString(`<?xml version="1.0"?>` + "\n" + `<!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">` + "\n<fontconfig>\n  <include ignore_missing=\"yes\">")
	_ = xml.EscapeText(&b, []byte(base)) // a strings.Builder does not fail
	b.WriteString("</include>\n  <selectfont><rejectfont><pattern><patelt name=\"color\"><bool>true</bool></patelt></pattern></rejectfont></selectfont>\n</fontconfig>\n")
	return os.WriteFile(filepath.Join(dir, fontsConfName), []byte(b.String()), 0o600)
}

// cleanStderr drops LibreOffice's known harmless noise and keeps the rest
// on one line.
func cleanStderr(s string) string {
	var keep []string
	for _, l := range strings.Split(s, "\n") {
		l = strings.TrimSpace(l)
		if l == "" || strings.Contains(l, "failed to launch javaldx") {
			continue
		}
		keep = append(keep, l)
	}
	out := strings.Join(keep, " | ")
	if len(out) > 600 {
		out = out[:600] + "…"
	}
	return out
}

// externalSignal reports whether a LibreOffice killed by sig was killed
// from outside (the OOM killer, an operator: SIGKILL, SIGTERM, SIGINT,
// SIGHUP) rather than by its own fault (SIGSEGV, SIGABRT): a failure that
// says nothing about the document (RenderError.Transient).
func externalSignal(sig syscall.Signal) bool {
	switch sig {
	case syscall.SIGKILL, syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP:
		return true
	}
	return false
}
