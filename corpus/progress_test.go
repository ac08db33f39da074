package corpus

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/editaudit/editaudit/audit"
	"github.com/editaudit/editaudit/corpus/results"
)

func TestProgress(t *testing.T) {
	p := NewProgress(10)
	p.add(&results.Record{ID: "1", Result: audit.Result{Blocked: true}})
	p.add(&results.Record{ID: "2", Error: "no"})
	for range etaMin - 2 {
		p.add(&results.Record{ID: "ok"})
	}
	p.skip(false)
	p.skip(true) // kept from an earlier run, blocked there: still counted
	time.Sleep(5 * time.Millisecond)
	e := p.Snapshot()
	if e.Done != etaMin+2 || e.Audited != etaMin-1 || e.Failed != 1 || e.Skipped != 2 || e.Blocked != 2 || e.Total != 10 || e.RatePerMin <= 0 || e.ETAS < 0 {
		t.Errorf("%+v", e)
	}
	var buf bytes.Buffer
	stop := StartProgress(p, &buf, ProgressOptions{Style: ProgressJSON, Interval: time.Hour})
	stop()
	stop()
	if !strings.HasPrefix(buf.String(), `{"type":"done","total":10,"done":8,`) || strings.Count(buf.String(), "\n") != 1 {
		t.Errorf("json progress %q", buf.String())
	}
	buf.Reset()
	stop = StartProgress(p, &buf, ProgressOptions{Style: ProgressBar, Interval: time.Millisecond, Columns: func() int { return 40 }})
	time.Sleep(20 * time.Millisecond)
	stop()
	if !strings.HasPrefix(buf.String(), "\r[") || !strings.HasSuffix(buf.String(), "\x1b[K\n") || !strings.Contains(buf.String(), " in ") {
		t.Errorf("bar progress %q", buf.String())
	}
	for _, l := range strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\r")[1:] {
		if l = strings.TrimSuffix(l, "\x1b[K"); len(l) > 39 {
			t.Errorf("a bar line of %d characters on a 40-column terminal: %q", len(l), l)
		}
	}
}

// TestBarLine: the line never exceeds its width; what does not fit goes,
// least useful first, and the count stays.
func TestBarLine(t *testing.T) {
	e := ProgressEvent{Type: "progress", Total: 400, Done: 120, Failed: 3, Skipped: 5, Blocked: 12, RatePerMin: 52, ETAS: 323}
	for _, tc := range []struct {
		width int
		want  string
	}{
		{120, "[#########.....................] 120/400  30%  ETA 5m23s  52.0 pairs/min  12 blocked  3 failed  5 kept"},
		{79, "[##.....] 120/400  30%  ETA 5m23s  52.0 pairs/min  12 blocked  3 failed  5 kept"},
		{70, "[####..........] 120/400  30%  ETA 5m23s  12 blocked  3 failed  5 kept"},
		{39, "120/400  30%  ETA 5m23s  12 blocked"},
		{44, "[##....] 120/400  30%  ETA 5m23s  12 blocked"},
		{30, "120/400  30%  ETA 5m23s"},
		{15, "120/400  30%"},
		{5, "120/4"},
		{0, ""},
	} {
		got := BarLine(e, tc.width)
		if len(got) > tc.width {
			t.Errorf("width %d: %d characters: %q", tc.width, len(got), got)
		}
		if got != tc.want {
			t.Errorf("width %d:\n got %q\nwant %q", tc.width, got, tc.want)
		}
	}
	done := BarLine(ProgressEvent{Type: "done", Total: 3, Done: 3, ElapsedS: 3725}, 80)
	if !strings.Contains(done, "100%  in 1h2m") {
		t.Errorf("done line %q", done)
	}
}

// TestProgressRate: the rate is the recent one, not the whole run's: a
// slow start (the first pairs baseline their originals) does not stretch
// the ETA of the fast rest.
func TestProgressRate(t *testing.T) {
	start := time.Now()
	p := NewProgress(100)
	p.started = start
	// A slow start: 4 pairs in the first 10 minutes (each baselines its
	// original); then one pair a second.
	at := start
	for i := range 4 {
		at = start.Add(time.Duration(i+1) * 150 * time.Second)
		p.addAt(&results.Record{ID: "slow"}, at)
	}
	for range 40 {
		at = at.Add(time.Second)
		p.addAt(&results.Record{ID: "fast"}, at)
	}
	e := p.snapshotAt(at)
	if e.RatePerMin < 59 || e.RatePerMin > 61 || e.ETAS < 55 || e.ETAS > 57 {
		t.Errorf("rate %.1f/min, ETA %.0fs; want 60/min and 56s (one pair a second lately, 56 left)", e.RatePerMin, e.ETAS)
	}
	// Nothing finishes for a while: the rate falls instead of staying.
	if e2 := p.snapshotAt(at.Add(time.Minute)); e2.RatePerMin >= e.RatePerMin/2 {
		t.Errorf("a minute without a pair: rate %.1f/min", e2.RatePerMin)
	}
	// The first few pairs tend to finish together: no ETA from them.
	few := NewProgress(100)
	for i := range etaMin - 1 {
		few.addAt(&results.Record{ID: "first"}, start.Add(time.Duration(i)*time.Millisecond))
	}
	if e := few.snapshotAt(start.Add(time.Second)); e.ETAS != -1 || e.RatePerMin != 0 {
		t.Errorf("%d pairs done: %+v", etaMin-1, e)
	}
}

func TestInterleave(t *testing.T) {
	in := []Pair{{ID: "a1", Original: "a"}, {ID: "a2", Original: "a"}, {ID: "a3", Original: "a"}, {ID: "b1", Original: "b"}, {ID: "c1", Original: "c"}, {ID: "b2", Original: "b"}}
	var got []string
	for _, p := range interleave(in) {
		got = append(got, p.ID)
	}
	if want := []string{"a1", "b1", "c1", "a2", "b2", "a3"}; !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}
