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
	p.skip()
	e := p.Snapshot()
	if e.Done != 3 || e.Audited != 1 || e.Failed != 1 || e.Skipped != 1 || e.Blocked != 1 || e.Total != 10 || e.RatePerMin <= 0 || e.ETAS < 0 {
		t.Errorf("%+v", e)
	}
	line := BarLine(ProgressEvent{Type: "progress", Total: 400, Done: 120, Failed: 3, Blocked: 12, RatePerMin: 52, ETAS: 323}, 10)
	if line != "[###.......] 120/400  30%  52.0 pairs/min  ETA 5m23s  3 failed  12 blocked" {
		t.Errorf("bar %q", line)
	}
	var buf bytes.Buffer
	stop := StartProgress(p, &buf, ProgressJSON, time.Hour)
	stop()
	stop()
	if !strings.HasPrefix(buf.String(), `{"type":"done","total":10,"done":3,`) || strings.Count(buf.String(), "\n") != 1 {
		t.Errorf("json progress %q", buf.String())
	}
	buf.Reset()
	stop = StartProgress(p, &buf, ProgressBar, time.Millisecond)
	time.Sleep(20 * time.Millisecond)
	stop()
	if !strings.HasPrefix(buf.String(), "\r[") || !strings.HasSuffix(buf.String(), "\x1b[K\n") || !strings.Contains(buf.String(), " in ") {
		t.Errorf("bar progress %q", buf.String())
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
