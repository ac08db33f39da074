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
}

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
	Skipped int64  `json:"skipped"`
	Blocked int64  `json:"blocked"`
	// ElapsedS is seconds since the run started; RatePerMin counts pairs
	// audited or failed by this session per minute; ETAS is the estimated
	// seconds left (-1 while unknown).
	ElapsedS   float64 `json:"elapsed_s"`
	RatePerMin float64 `json:"rate_per_min"`
	ETAS       float64 `json:"eta_s"`
}

// Snapshot returns the current counts.
func (p *Progress) Snapshot() ProgressEvent {
	e := ProgressEvent{Type: "progress", Total: p.total.Load(), Audited: p.audited.Load(), Failed: p.failed.Load(), Skipped: p.skipped.Load(), Blocked: p.blocked.Load()}
	e.Done = e.Audited + e.Failed + e.Skipped
	el := time.Since(p.started)
	e.ElapsedS = results.RoundRate(el.Seconds())
	e.ETAS = -1
	worked := e.Audited + e.Failed
	if worked > 0 && el > 0 {
		e.RatePerMin = results.RoundRate(float64(worked) / el.Minutes())
		left := e.Total - e.Done
		if left < 0 {
			left = 0
		}
		e.ETAS = results.RoundRate(float64(left) / (e.RatePerMin / 60))
	}
	return e
}

func (p *Progress) add(r *results.Record) {
	switch {
	case r.Failed():
		p.failed.Add(1)
	default:
		p.audited.Add(1)
		if r.Blocked {
			p.blocked.Add(1)
		}
	}
}

func (p *Progress) skip() { p.skipped.Add(1) }

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

// StartProgress reports p on w in style every interval until the returned
// stop func is called; stop writes the final state and waits.
func StartProgress(p *Progress, w io.Writer, style ProgressStyle, interval time.Duration) (stop func()) {
	if style == ProgressNone || w == nil {
		return func() {}
	}
	if interval <= 0 {
		interval = time.Second
	}
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(interval)
		defer t.Stop()
		for {
			select {
			case <-done:
				e := p.Snapshot()
				e.Type = "done"
				writeProgress(w, style, e, true)
				return
			case <-t.C:
				writeProgress(w, style, p.Snapshot(), false)
			}
		}
	}()
	var once sync.Once
	return func() {
		once.Do(func() { close(done); wg.Wait() })
	}
}

func writeProgress(w io.Writer, style ProgressStyle, e ProgressEvent, last bool) {
	switch style {
	case ProgressJSON:
		b, _ := json.Marshal(e)
		b = append(b, '\n')
		_, _ = w.Write(b)
	case ProgressBar:
		s := "\r" + BarLine(e, 30) + "\x1b[K"
		if last {
			s += "\n"
		}
		_, _ = io.WriteString(w, s)
	}
}

// BarLine draws a progress line of width cells:
// "[#######.......]  120/400  30%  52.0 pairs/min  ETA 5m23s  3 failed  12 blocked".
func BarLine(e ProgressEvent, width int) string {
	frac := 0.0
	if e.Total > 0 {
		frac = float64(e.Done) / float64(e.Total)
	}
	if frac > 1 {
		frac = 1
	}
	n := int(frac*float64(width) + 0.5)
	var b strings.Builder
	b.WriteByte('[')
	b.WriteString(strings.Repeat("#", n))
	b.WriteString(strings.Repeat(".", width-n))
	b.WriteByte(']')
	fmt.Fprintf(&b, " %d/%d %3.0f%%", e.Done, e.Total, frac*100)
	if e.RatePerMin > 0 {
		fmt.Fprintf(&b, "  %.1f pairs/min", e.RatePerMin)
	}
	switch {
	case e.Type == "done":
		fmt.Fprintf(&b, "  in %s", (time.Duration(e.ElapsedS * float64(time.Second))).Round(time.Second))
	case e.ETAS >= 0:
		fmt.Fprintf(&b, "  ETA %s", (time.Duration(e.ETAS * float64(time.Second))).Round(time.Second))
	}
	if e.Skipped > 0 {
		fmt.Fprintf(&b, "  %d kept", e.Skipped)
	}
	fmt.Fprintf(&b, "  %d failed  %d blocked", e.Failed, e.Blocked)
	return b.String()
}
