package results

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/editaudit/editaudit/audit"
	"github.com/editaudit/editaudit/formats"
)

// rec builds a result line for metric tests.
type recOpt func(*Record)

func mkRec(id, group string, opts ...recOpt) *Record {
	r := &Record{ID: id, Group: group, Render: "on", ToolchainKey: "k", Engine: "e"}
	r.Original.SHA256, r.Edited.SHA256 = "o-"+id, "e-"+id
	r.Pages.Status = audit.PagesOK
	for _, o := range opts {
		o(r)
	}
	return r
}

func finding(code string, g formats.Grade) recOpt {
	return func(r *Record) {
		r.NewFindings = append(r.NewFindings, formats.Finding{Code: code, Grade: g})
		if g == formats.Fatal {
			r.Blocked = true
		}
	}
}

func shrink(metric string, before, after int) recOpt {
	return func(r *Record) {
		r.Structure.Shrunk = append(r.Structure.Shrunk, audit.Shrink{Metric: metric, Before: before, After: after})
	}
}

func pages(changed, inserted, deleted int) recOpt {
	return func(r *Record) {
		for i := range changed {
			r.Pages.Changed = append(r.Pages.Changed, audit.ChangedPage{Before: i + 1, After: i + 1})
		}
		for i := range inserted {
			r.Pages.Inserted = append(r.Pages.Inserted, i+1)
		}
		for i := range deleted {
			r.Pages.Deleted = append(r.Pages.Deleted, i+1)
		}
	}
}

func status(s string) recOpt { return func(r *Record) { r.Pages.Status = s } }
func failed(msg string) recOpt {
	return func(r *Record) { r.Error = msg }
}
func took(ms int64) recOpt { return func(r *Record) { r.Timings.Total = ms } }

func writeRun(t *testing.T, dir string, recs ...*Record) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	for _, r := range recs {
		line, err := r.MarshalLine()
		if err != nil {
			t.Fatal(err)
		}
		buf.Write(line)
	}
	if err := os.WriteFile(filepath.Join(dir, ResultsFile), buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestSummarizeMetrics(t *testing.T) {
	dir := t.TempDir()
	writeRun(t, dir,
		mkRec("1", "a", finding("xml.illegal-char", formats.Fatal), finding("xml.illegal-char", formats.Fatal), pages(1, 0, 0), took(100)),
		mkRec("2", "a", finding("xlsx.formula", formats.Error), finding("pkg.orphan", formats.Warning), shrink("tables", 4, 1), shrink("rows", 10, 5), pages(2, 1, 0), took(200)),
		mkRec("3", "b", shrink("tables", 2, 1), pages(0, 0, 0), took(300)),
		mkRec("4", "b", status(audit.PagesFailed), took(400)),
		mkRec("5", "b", failed("open x: no such file")),
		mkRec("6", "", pages(10, 0, 2), func(r *Record) {
			r.Pages.Reflowed = []audit.Reflow{{From: 3, To: 6, Cause: 3}}
		}, took(500)),
	)
	s, err := Summarize(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	o := s.Overall
	if o.Pairs != 6 || o.Audited != 5 || o.Failed != 1 || o.Blocked != 1 || o.BlockedRate != 0.2 {
		t.Errorf("counts %+v", o)
	}
	if o.NewFindings != (formats.Tally{Total: 4, Fatal: 2, Error: 1, Warning: 1}) || o.NewErrorPairs != 1 || o.NewErrorRate != 0.2 || o.NewWarningRate != 0.2 {
		t.Errorf("findings %+v %d %v", o.NewFindings, o.NewErrorPairs, o.NewErrorRate)
	}
	wantCodes := []CodeCount{{"xml.illegal-char", formats.Fatal, 1, 2}, {"pkg.orphan", formats.Warning, 1, 1}, {"xlsx.formula", formats.Error, 1, 1}}
	if !reflect.DeepEqual(o.TopCodes, wantCodes) {
		t.Errorf("top codes %+v", o.TopCodes)
	}
	wantLoss := StructureLoss{Pairs: 2, Rate: 0.4, Metrics: []MetricLoss{
		{Metric: "tables", Pairs: 2, Rate: 0.4, Lost: 4, MeanLost: 2, MeanLossRatio: 0.625}, // (3/4 + 1/2) / 2
		{Metric: "rows", Pairs: 1, Rate: 0.2, Lost: 5, MeanLost: 5, MeanLossRatio: 0.5},
	}}
	if !reflect.DeepEqual(o.StructureLoss, wantLoss) {
		t.Errorf("loss %+v", o.StructureLoss)
	}
	// Rendered pairs 1, 2, 3, 6 changed 1, 2, 0, 10 pages.
	wantPages := PageMetrics{Rendered: 4, RenderFailed: 1, ChangedPairs: 3, InsertedPairs: 1, DeletedPairs: 1, ReflowedPairs: 1,
		Changed: Dist{N: 4, Mean: 3.25, P50: 1, P95: 10, Max: 10}, Inserted: 1, Deleted: 2, Reflowed: 4}
	if o.Pages != wantPages {
		t.Errorf("pages %+v\nwant  %+v", o.Pages, wantPages)
	}
	if o.Timing != (Dist{N: 5, Mean: 300, P50: 300, P95: 500, Max: 500}) {
		t.Errorf("timing %+v", o.Timing)
	}
	if len(s.Groups) != 2 || s.Groups[0].Group != "a" || s.Groups[0].Pairs != 2 || s.Groups[1].Group != "b" || s.Groups[1].Failed != 1 || s.Groups[1].StructureLoss.Rate != 0.5 {
		t.Errorf("groups %+v", s.Groups)
	}
	if s.Selected != 6 || s.Pending != 0 {
		t.Errorf("selected %d pending %d", s.Selected, s.Pending)
	}
}

func TestThroughputOf(t *testing.T) {
	t0 := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	at := func(s int) time.Time { return t0.Add(time.Duration(s) * time.Second) }
	got := ThroughputOf([]Session{
		{Started: at(0), Updated: at(60), Audited: 50, Failed: 10, Skipped: 99},
		{Started: at(30), Updated: at(90), Audited: 60},     // overlaps the first: 0–90
		{Started: at(200), Updated: at(230), Audited: 30},   // 30 s more
		{Started: at(300), Updated: at(300), Audited: 1000}, // no time: pairs count, no span
	})
	if got.Pairs != 1150 || got.Seconds != 120 || got.PairsPerMin != 575 {
		t.Errorf("%+v", got)
	}
}

func TestCompare(t *testing.T) {
	a, b := filepath.Join(t.TempDir(), "a"), filepath.Join(t.TempDir(), "b")
	writeRun(t, a,
		mkRec("1", "m", finding("xml.illegal-char", formats.Fatal)), // blocked → passed: better
		mkRec("2", "m"),                                                  // passed → blocked: worse
		mkRec("3", "m", shrink("tables", 5, 1)),                          // less loss but a new error: mixed
		mkRec("4", "m", finding("pkg.orphan", formats.Info)),             // info only: unchanged
		mkRec("5", "m", failed("boom")),                                  // failed in A: not compared
		mkRec("6", "m", shrink("rows", 3, 2)),                            // only in A
		mkRec("7", "m", finding("docx.tc-no-p", formats.Error), took(5)), // fewer findings: better
	)
	writeRun(t, b,
		mkRec("1", "m"),
		mkRec("2", "m", finding("rels.target-missing", formats.Fatal)),
		mkRec("3", "m", finding("xlsx.formula", formats.Error), shrink("tables", 5, 4)),
		mkRec("4", "m"),
		mkRec("5", "m"),
		mkRec("7", "m"),
		mkRec("8", "m"), // only in B
	)
	c, err := Compare(a, b)
	if err != nil {
		t.Fatal(err)
	}
	if c.Matched != 6 || c.OnlyA != 1 || c.OnlyB != 1 || c.FailedA != 1 || c.FailedB != 0 {
		t.Errorf("counts %+v", c)
	}
	if c.Better != 2 || c.Worse != 1 || c.Mixed != 1 || c.Unchanged != 1 {
		t.Errorf("verdicts better %d worse %d mixed %d unchanged %d", c.Better, c.Worse, c.Mixed, c.Unchanged)
	}
	var order []string
	for _, p := range c.Pairs {
		order = append(order, p.ID+":"+p.Verdict)
	}
	if want := []string{"2:worse", "3:mixed", "1:better", "7:better"}; !reflect.DeepEqual(order, want) {
		t.Errorf("pairs %v, want %v", order, want)
	}
	if got := strings.Join(c.Pairs[0].Changes, "; "); got != "passed → blocked; new findings 0 → 1 (+rels.target-missing)" {
		t.Errorf("changes of 2: %s", got)
	}
	if got := strings.Join(c.Pairs[1].Changes, "; "); got != "new findings 0 → 1 (+xlsx.formula); structure lost 4 → 1 (tables 5→4)" {
		t.Errorf("changes of 3: %s", got)
	}
	rates := map[string]RateChange{}
	for _, r := range c.Rates {
		rates[r.Metric] = r
	}
	// A: 6 audited of 7, 1 blocked; B: 7 audited, 1 blocked.
	if r := rates["blocked_rate"]; r.A != RoundRate(1.0/6) || r.B != RoundRate(1.0/7) || r.Delta != RoundRate(1.0/7-1.0/6) {
		t.Errorf("blocked rate %+v", r)
	}
	if r := rates["loss_rate.rows"]; r.A != RoundRate(1.0/6) || r.B != 0 {
		t.Errorf("rows loss rate %+v", r)
	}
}

// TestScanCurrentLines: a superseded line, a line that is not a record,
// a blank line and a torn last line are not current; a failed line is.
func TestScanCurrentLines(t *testing.T) {
	dir := t.TempDir()
	writeRun(t, dir, mkRec("1", ""), mkRec("2", "", failed("boom")), mkRec("1", "", took(7)))
	f, err := os.OpenFile(filepath.Join(dir, ResultsFile), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString("not json\n\n{\"id\":\"3\",\"sch"); err != nil {
		t.Fatal(err)
	}
	f.Close()
	var got []string
	n, err := Scan(filepath.Join(dir, ResultsFile), func(l Line) error {
		got = append(got, fmt.Sprintf("%s:%d:%v", l.ID, l.N, l.Failed))
		return nil
	})
	if err != nil || n != 4 || !reflect.DeepEqual(got, []string{"2:2:true", "1:3:false"}) {
		t.Errorf("Scan: %d lines, current %v, %v", n, got, err)
	}
	var recs []*Record
	if err := ReadResults(dir, func(r *Record) error { recs = append(recs, r); return nil }); err != nil {
		t.Fatal(err)
	}
	if len(recs) != 2 || recs[1].ID != "1" || recs[1].Timings.Total != 7 || recs[1].NewFindings == nil || recs[1].Key() != mkRec("1", "").Key() {
		t.Errorf("ReadResults: %+v", recs)
	}
	// The line is written in the stable shape whatever the Record holds.
	line, err := (&Record{ID: "x"}).MarshalLine()
	if err != nil || !strings.Contains(string(line), `"new_findings":[]`) || !strings.Contains(string(line), `"status":"off"`) || !strings.HasSuffix(string(line), "}\n") {
		t.Errorf("MarshalLine: %s %v", line, err)
	}
}
