package results

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/editaudit/editaudit/formats"
)

func TestParseGates(t *testing.T) {
	gs, err := ParseGates("blocked_rate>+0.5pp, structure_loss>+1pp,new_error_rate[model, a]>=+2pp,time_p95_ms>+20%,blocked_rate>5%,pages_changed_mean>+0.5,loss_rate.tables[*]>0.1,pairs<-10%")
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		metric, group, op string
		kind              GateKind
		th                float64
	}{
		{"blocked_rate", "", ">", GatePoints, 0.005},
		{"structure_loss_rate", "", ">", GatePoints, 0.01},
		{"new_error_rate", "model, a", ">=", GatePoints, 0.02},
		{"time_p95_ms", "", ">", GateRelative, 0.2},
		{"blocked_rate", "", ">", GateLevel, 0.05},
		{"pages_changed_mean", "", ">", GateChange, 0.5},
		{"loss_rate.tables", "*", ">", GateLevel, 0.1},
		{"pairs", "", "<", GateRelative, -0.1},
	}
	if len(gs) != len(want) {
		t.Fatalf("%d gates: %+v", len(gs), gs)
	}
	for i, w := range want {
		g := gs[i]
		if g.Metric != w.metric || g.Group != w.group || g.Op != w.op || g.Kind != w.kind || g.Threshold != w.th {
			t.Errorf("gate %d %q: %+v, want %+v", i, g.Expr, g, w)
		}
	}
	for _, bad := range []string{"blocked", "nope>+1pp", "blocked_rate>1pp", "pages_changed_mean>+1pp", "pages_changed_mean>5%", "blocked_rate[]>+1pp", "blocked_rate=>1"} {
		if _, err := ParseGates(bad); !errors.Is(err, ErrGate) {
			t.Errorf("%q: %v, want ErrGate", bad, err)
		}
	}
	if gs, err := ParseGates(" , "); err != nil || len(gs) != 0 {
		t.Errorf("empty list: %v %v", gs, err)
	}
}

func TestEvaluateGates(t *testing.T) {
	a, b := filepath.Join(t.TempDir(), "a"), filepath.Join(t.TempDir(), "b")
	// A: 10 audited pairs, 1 blocked (10%), none lost structure.
	// B: 10 audited pairs, 2 blocked (20%), 1 lost tables; group m only in both.
	var ra, rb []*Record
	for i := range 10 {
		id := string(rune('a' + i))
		ra = append(ra, mkRec(id, "m", took(100)))
		rb = append(rb, mkRec(id, "m", took(130)))
	}
	ra[0] = mkRec("a", "m", finding("xml.illegal-char", formats.Fatal), took(100))
	rb[0] = mkRec("a", "m", finding("xml.illegal-char", formats.Fatal), took(130))
	rb[1] = mkRec("b", "m", finding("rels.target-missing", formats.Fatal), shrink("tables", 3, 2), took(130))
	writeRun(t, a, ra...)
	writeRun(t, b, rb...)
	c, err := Compare(a, b)
	if err != nil {
		t.Fatal(err)
	}
	gs, err := ParseGates("blocked_rate>+0.5pp,blocked_rate>+10pp,structure_loss>+1pp,blocked_rate>25%,time_p95_ms>+20%,time_p95_ms>+50%,loss_rate.tables[*]>=+10pp,blocked_rate[other]>+1pp")
	if err != nil {
		t.Fatal(err)
	}
	tripped := c.Evaluate(gs)
	got := map[string]bool{}
	for _, r := range c.Gates {
		got[r.Gate+"|"+r.Group] = r.Tripped
	}
	want := map[string]bool{
		"blocked_rate>+0.5pp|":           true,  // 10% → 20%
		"blocked_rate>+10pp|":            false, // +10 pp is not more than 10
		"structure_loss>+1pp|":           true,  // 0 → 10%
		"blocked_rate>25%|":              false, // 20% is below 25%
		"time_p95_ms>+20%|":              true,  // 100 → 130 ms: +30%
		"time_p95_ms>+50%|":              false,
		"loss_rate.tables[*]>=+10pp|m":   true,
		"blocked_rate[other]>+1pp|other": true, // not in both runs: trips
	}
	if len(got) != len(want) {
		t.Errorf("results %v", got)
	}
	for k, v := range want {
		if tr, ok := got[k]; !ok || tr != v {
			t.Errorf("%s: tripped %v (present %v), want %v", k, tr, ok, v)
		}
	}
	if len(tripped) != 5 {
		t.Errorf("%d tripped, want 5", len(tripped))
	}
	if m := c.Gates[0].Message; m != "blocked_rate 10.0% → 20.0% (+10 pp), limit > +0.5 pp" {
		t.Errorf("message %q", m)
	}
	if m := c.Gates[len(c.Gates)-1].Message; !strings.Contains(m, `group "other" is not in both runs`) {
		t.Errorf("message %q", m)
	}
}
