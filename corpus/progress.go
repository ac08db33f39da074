package corpus

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/editaudit/editaudit/corpus/results"
)

// Progress counts a run's pairs as they finish. It is safe for concurrent
// use; a reporter (StartProgress) reads it.
type Progress struct {
	total                    atomic.Int64
	audited, failed, skipped atomic.Int64
	blocked                  atomic.Int64
	started                  time.Time

	mu sync.Mutex
	// ends are the times the last etaWindow pairs audited by this session
	// finished (a ring; next is the slot to write).
	ends []time.Time
	next int
}

// etaWindow is how many recent completions the rate and the ETA are
// measured over, and etaMin how many there must be first (see Snapshot).
const (
	etaWindow = 24
	etaMin    = 6
)

// NewProgress starts counting a run of total pairs now.
func NewProgress(total int) *Progress {
	p := &Progress{started: time.Now()}
	p.total.Store(int64(total))
	return p
}

// ProgressEvent is a snapshot of a run's progress: the JSON line written
// to stderr when it is not a terminal.
type ProgressEvent struct {
	Type    string `json:"type"` // "progress", or "done" for the last line
	Total   int64  `json:"total"`
	Done    int64  `json:"done"` // audited + failed + skipped
	Audited int64  `json:"audited"`
	Failed  int64  `json:"failed"`
	// Skipped counts the pairs kept from an earlier run; Blocked counts
	// them too when their kept result blocked, so it is the run's count.
	Skipped int64 `json:"skipped"`
	Blocked int64 `json:"blocked"`
	// ElapsedS is seconds since the run started; RatePerMin counts pairs
	// audited or failed by this session per minute, over the last
	// completions (see Snapshot); ETAS is the estimated seconds left (-1
	// while unknown).
	ElapsedS   float64 `json:"elapsed_s"`
	RatePerMin float64 `json:"rate_per_min"`
	ETAS       float64 `json:"eta_s"`
}

// Snapshot returns the current counts and the ETA.
//
// The rate is measured over the last etaWindow completions, not over the
// whole run since its start: the start holds the time before anything
// can finish (every job's first conversion at once) and the first pairs
// each baseline a new original (pairs are interleaved so that every
// original is started early), so the whole-run average overestimated the
// time left: 1.3–2.4× at the median on two real runs, far more at the
// start; the window is 1.2–1.3× (docs/benchmarks.md "Progress ETA"). The window ends at its last completion,
// or later once the wait since then exceeds the window's mean gap, so a
// stall lowers the rate instead of leaving it stale. Until etaMin pairs
// are done there is no rate and no ETA: the first ones tend to finish
// together (every job started at once), which made the ETA 4-6× too short.
func (p *Progress) Snapshot() ProgressEvent { return p.snapshotAt(time.Now()) }

func (p *Progress) snapshotAt(now time.Time) ProgressEvent {
	e := ProgressEvent{Type: "progress", Total: p.total.Load(), Audited: p.audited.Load(), Failed: p.failed.Load(), Skipped: p.skipped.Load(), Blocked: p.blocked.Load()}
	e.Done = e.Audited + e.Failed + e.Skipped
	e.ElapsedS = results.RoundRate(now.Sub(p.started).Seconds())
	e.ETAS = -1
	if n, oldest, newest := p.window(); n >= etaMin && newest.After(oldest) {
		gap := newest.Sub(oldest) / time.Duration(n-1)
		end := newest
		if now.Sub(newest) > gap {
			end = now.Add(-gap)
		}
		e.RatePerMin = results.RoundRate(float64(n-1) / end.Sub(oldest).Minutes())
	}
	if e.RatePerMin > 0 {
		left := max(e.Total-e.Done, 0)
		e.ETAS = results.RoundRate(float64(left) / (e.RatePerMin / 60))
	}
	return e
}

// window is the number of recent completions kept and the oldest and
// newest of their times.
func (p *Progress) window() (n int, oldest, newest time.Time) {
	p.mu.Lock()
	defer p.mu.Unlock()
	n = len(p.ends)
	if n == 0 {
		return 0, time.Time{}, time.Time{}
	}
	o := 0
	if n == etaWindow {
		o = p.next
	}
	return n, p.ends[o], p.ends[(o+n-1)%n]
}

func (p *Progress) add(r *results.Record) { p.addAt(r, time.Now()) }

// addAt counts r, done at t.
func (p *Progress) addAt(r *results.Record, t time.Time) {
	switch {
	case r.Failed():
		p.failed.Add(1)
	default:
		p.audited.Add(1)
		if r.Blocked {
			p.blocked.Add(1)
		}
	}
	p.mu.Lock()
	if len(p.ends) < etaWindow {
		p.ends = append(p.ends, t)
	} else {
		p.ends[p.next] = t
		p.next = (p.next + 1) % etaWindow
	}
	p.mu.Unlock()
}

// skip counts a pair kept from an earlier run, and its verdict.
func (p *Progress) skip(blocked bool) {
	p.skipped.Add(1)
	if blocked {
		p.blocked.Add(1)
	}
}

// ProgressStyle chooses how progress is shown.
type ProgressStyle int

// Progress styles.
const (
	// ProgressNone shows nothing.
	ProgressNone ProgressStyle = iota
	// ProgressBar redraws one line (for a terminal).
	ProgressBar
	// ProgressJSON writes one JSON line per interval and a last "done"
	// line (for logs and programs).
	ProgressJSON
)

// ProgressOptions say how StartProgress reports.
type ProgressOptions struct {
	Style ProgressStyle
	// Interval between reports (default one second).
	Interval time.Duration
	// Columns is the terminal's width, asked at every redraw of the bar so
	// that a resized terminal is followed; nil or a result ≤ 0 means 80.
	// The bar line is always shorter than Columns: a wrapped line cannot
	// be redrawn in place and would flood the terminal.
	Columns func() int
}

// StartProgress reports p on w every interval until the returned stop
// func is called; stop writes the final state and waits.
func StartProgress(p *Progress, w io.Writer, opts ProgressOptions) (stop func()) {
	if opts.Style == ProgressNone || w == nil {
		return func() {}
	}
	if opts.Interval <= 0 {
		opts.Interval = time.Second
	}
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(opts.Interval)
		defer t.Stop()
		for {
			select {
			case <-done:
				e := p.Snapshot()
				e.Type = "done"
				writeProgress(w, opts, e, true)
				return
			case <-t.C:
				writeProgress(w, opts, p.Snapshot(), false)
			}
		}
	}()
	var once sync.Once
	return func() {
		once.Do(func() { close(done); wg.Wait() })
	}
}

func writeProgress(w io.Writer, opts ProgressOptions, e ProgressEvent, last bool) {
	switch opts.Style {
	case ProgressJSON:
		b, _ := json.Marshal(e)
		b = append(b, '\n')
		_, _ = w.Write(b)
	case ProgressBar:
		cols := 0
		if opts.Columns != nil {
			cols = opts.Columns()
		}
		if cols <= 0 {
			cols = 80
		}
		s := "\r" + BarLine(e, cols-1) + "\x1b[K"
		if last {
			s += "\n"
		}
		_, _ = io.WriteString(w, s)
	}
}

// Bar widths: the bar is drawn between these sizes when the line has room.
const (
	minBar = 6
	maxBar = 30
)

// BarLine draws a progress line of at most width characters:
// "[#######.......] 120/400  30%  ETA 5m23s  52.0 pairs/min  12 blocked  3 failed".
// What does not fit is left out, least useful first: the rate, the pairs
// kept from an earlier run, the failed count, the bar, the blocked count,
// the ETA; the count and the percentage stay (cut to width as a last
// resort).
func BarLine(e ProgressEvent, width int) string {
	frac := 0.0
	if e.Total > 0 {
		frac = float64(e.Done) / float64(e.Total)
	}
	if frac > 1 {
		frac = 1
	}
	type part struct {
		text string
		drop int // the order in which parts are left out (1 first); 0 never
	}
	parts := []part{{fmt.Sprintf("%d/%d %3.0f%%", e.Done, e.Total, frac*100), 0}}
	switch {
	case e.Type == "done":
		parts = append(parts, part{"in " + shortDuration(e.ElapsedS), 5})
	case e.ETAS >= 0:
		parts = append(parts, part{"ETA " + shortDuration(e.ETAS), 5})
	}
	if e.RatePerMin > 0 {
		parts = append(parts, part{fmt.Sprintf("%.1f pairs/min", e.RatePerMin), 1})
	}
	parts = append(parts, part{fmt.Sprintf("%d blocked", e.Blocked), 4})
	if e.Failed > 0 {
		parts = append(parts, part{fmt.Sprintf("%d failed", e.Failed), 3})
	}
	if e.Skipped > 0 {
		parts = append(parts, part{fmt.Sprintf("%d kept", e.Skipped), 2})
	}
	join := func() string {
		ts := make([]string, len(parts))
		for i, p := range parts {
			ts[i] = p.text
		}
		return strings.Join(ts, "  ")
	}
	dropParts := func(order int) {
		kept := parts[:0]
		for _, p := range parts {
			if p.drop != order {
				kept = append(kept, p)
			}
		}
		parts = kept
	}
	// "[" + bar + "] " + text fits in width, with a bar of minBar at least.
	for order := 1; order <= 3 && len(join())+3+minBar > width; order++ {
		dropParts(order)
	}
	text := join()
	if bar := min(maxBar, width-len(text)-3); bar >= minBar {
		n := int(frac*float64(bar) + 0.5)
		return "[" + strings.Repeat("#", n) + strings.Repeat(".", bar-n) + "] " + text
	}
	// No room for a bar: the text alone, the ETA last to go.
	for order := 4; order <= 5 && len(text) > width; order++ {
		dropParts(order)
		text = join()
	}
	if width < 0 {
		width = 0
	}
	if len(text) > width {
		text = text[:width]
	}
	return text
}

// shortDuration is seconds as "5m23s", "1h2m", "40s".
func shortDuration(s float64) string {
	d := time.Duration(s * float64(time.Second)).Round(time.Second)
	if d >= time.Hour {
		d = d.Round(time.Minute)
		return strings.TrimSuffix(d.String(), "0s")
	}
	return d.String()
}
