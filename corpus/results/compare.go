package results

import (
	"fmt"
	"sort"
	"strings"

	"github.com/editaudit/editaudit/content"
	"github.com/editaudit/editaudit/formats"
)

// CompareSchema names the JSON of Compare.
const CompareSchema = "editaudit.corpus-compare/v1"

// Pair verdicts of a comparison.
const (
	Better    = "better"
	Worse     = "worse"
	Mixed     = "mixed" // better on one dimension, worse on another
	Unchanged = "unchanged"
)

// Comparison says how two runs over the same pairs (two nights, two
// models) differ: pair by pair (matched by id) and rate by rate.
type Comparison struct {
	Schema string `json:"schema"`
	A      string `json:"a"`
	B      string `json:"b"`
	// Matched pairs have a line in both runs; OnlyA/OnlyB count the rest.
	Matched int `json:"matched"`
	OnlyA   int `json:"only_a"`
	OnlyB   int `json:"only_b"`
	// FailedA/FailedB: matched pairs the tool could not audit in that run
	// (not compared). OtherOriginal: matched pairs whose originals differ
	// (the runs may not be over the same manifest).
	FailedA       int `json:"failed_a"`
	FailedB       int `json:"failed_b"`
	OtherOriginal int `json:"other_original"`
	// Counts of compared pairs by verdict.
	Better    int `json:"better"`
	Worse     int `json:"worse"`
	Mixed     int `json:"mixed"`
	Unchanged int `json:"unchanged"`
	// Pairs lists every pair that got better, worse or mixed: worse
	// first, then mixed, then better, by id.
	Pairs []PairChange `json:"pairs"`
	// Rates are the overall metrics in A and B; Groups the same per group
	// present in both.
	Rates  []RateChange  `json:"rates"`
	Groups []GroupChange `json:"groups,omitempty"`
	// Gates are the --fail-on gates evaluated (Evaluate), in order.
	Gates []GateResult `json:"gates,omitempty"`

	// sa and sb are the two runs' summaries, for the gates.
	sa, sb *Summary
}

// PairChange is how one pair moved from run A to run B.
type PairChange struct {
	ID      string    `json:"id"`
	Group   string    `json:"group,omitempty"`
	Verdict string    `json:"verdict"`
	A       PairState `json:"a"`
	B       PairState `json:"b"`
	// Changes say what moved, in words: "passed → blocked",
	// "new findings 0 → 2 (+xml.illegal-char)", "structure lost 0 → 3 (rows 4→1)".
	Changes []string `json:"changes"`
}

// PairState is what a comparison looks at in one pair's result.
type PairState struct {
	Blocked bool `json:"blocked"`
	// NewFindings counts new fatal, error and warning findings (info does
	// not count).
	NewFindings int `json:"new_findings"`
	// Lost is the structure units lost over all metrics.
	Lost int `json:"lost"`
	// FormattingLost counts the units whose formatting the edit lost
	// (content.summary.formatting_lost; 0 when content was not compared).
	FormattingLost int `json:"formatting_lost"`

	contentOn bool
	codes     []string
	shrunk    string
	orig      string
	failed    bool
	group     string
}

func stateOf(r *Record) PairState {
	s := PairState{Blocked: r.Blocked, failed: r.Failed(), orig: r.Original.SHA256, group: r.Group}
	seen := map[string]bool{}
	for _, f := range r.NewFindings {
		if f.Grade == formats.Info {
			continue
		}
		s.NewFindings++
		if !seen[f.Code] {
			seen[f.Code] = true
			s.codes = append(s.codes, f.Code)
		}
	}
	var shr []string
	for _, sh := range r.Structure.Shrunk {
		s.Lost += sh.Before - sh.After
		shr = append(shr, fmt.Sprintf("%s %d→%d", sh.Metric, sh.Before, sh.After))
	}
	s.shrunk = strings.Join(shr, ", ")
	if c := r.Content; c != nil && (c.Status == content.StatusOK || c.Status == content.StatusPartial) {
		s.contentOn = true
		s.FormattingLost = c.Summary.FormattingLost
	}
	return s
}

// RateChange is one metric in both runs.
type RateChange struct {
	Metric string  `json:"metric"`
	A      float64 `json:"a"`
	B      float64 `json:"b"`
	Delta  float64 `json:"delta"`
}

// GroupChange is the rates of one group in both runs.
type GroupChange struct {
	Group string       `json:"group"`
	Rates []RateChange `json:"rates"`
}

// Compare compares run folder a (before) with run folder b (after).
func Compare(a, b string) (*Comparison, error) {
	states := map[string]PairState{}
	sa, err := Summarize(a, func(r *Record) { states[r.ID] = stateOf(r) })
	if err != nil {
		return nil, err
	}
	c := &Comparison{Schema: CompareSchema, A: a, B: b, Pairs: []PairChange{}}
	matched := map[string]bool{}
	sb, err := Summarize(b, func(r *Record) {
		sa, ok := states[r.ID]
		if !ok {
			c.OnlyB++
			return
		}
		matched[r.ID] = true
		c.Matched++
		sb := stateOf(r)
		if sa.orig != "" && sb.orig != "" && sa.orig != sb.orig {
			c.OtherOriginal++
		}
		if sa.failed {
			c.FailedA++
		}
		if sb.failed {
			c.FailedB++
		}
		if sa.failed || sb.failed {
			return
		}
		pc := comparePair(r.ID, r.Group, sa, sb)
		switch pc.Verdict {
		case Better:
			c.Better++
		case Worse:
			c.Worse++
		case Mixed:
			c.Mixed++
		default:
			c.Unchanged++
			return
		}
		c.Pairs = append(c.Pairs, pc)
	})
	if err != nil {
		return nil, err
	}
	c.OnlyA = len(states) - len(matched)
	rank := map[string]int{Worse: 0, Mixed: 1, Better: 2}
	sort.SliceStable(c.Pairs, func(i, j int) bool {
		x, y := c.Pairs[i], c.Pairs[j]
		if rank[x.Verdict] != rank[y.Verdict] {
			return rank[x.Verdict] < rank[y.Verdict]
		}
		return formats.NaturalLess(x.ID, y.ID)
	})
	c.sa, c.sb = sa, sb
	c.Rates = rateChanges(sa.Overall, sb.Overall)
	gb := map[string]Metrics{}
	for _, g := range sb.Groups {
		gb[g.Group] = g
	}
	for _, g := range sa.Groups {
		if m, ok := gb[g.Group]; ok {
			c.Groups = append(c.Groups, GroupChange{Group: g.Group, Rates: rateChanges(g, m)})
		}
	}
	return c, nil
}

// comparePair judges one pair on four dimensions: the gate (blocked or
// passed), the new findings (fatal, error, warning), the structure lost,
// and the formatting lost (when content was compared in both runs).
func comparePair(id, group string, a, b PairState) PairChange {
	pc := PairChange{ID: id, Group: group, A: a, B: b, Changes: []string{}}
	better, worse := 0, 0
	switch {
	case a.Blocked && !b.Blocked:
		better++
		pc.Changes = append(pc.Changes, "blocked → passed")
	case !a.Blocked && b.Blocked:
		worse++
		pc.Changes = append(pc.Changes, "passed → blocked")
	}
	if a.NewFindings != b.NewFindings {
		if b.NewFindings > a.NewFindings {
			worse++
		} else {
			better++
		}
		s := fmt.Sprintf("new findings %d → %d", a.NewFindings, b.NewFindings)
		if d := codeDiff(a.codes, b.codes); d != "" {
			s += " (" + d + ")"
		}
		pc.Changes = append(pc.Changes, s)
	}
	if a.Lost != b.Lost {
		if b.Lost > a.Lost {
			worse++
		} else {
			better++
		}
		s := fmt.Sprintf("structure lost %d → %d", a.Lost, b.Lost)
		if b.shrunk != "" {
			s += " (" + b.shrunk + ")"
		}
		pc.Changes = append(pc.Changes, s)
	}
	if a.contentOn && b.contentOn && a.FormattingLost != b.FormattingLost {
		if b.FormattingLost > a.FormattingLost {
			worse++
		} else {
			better++
		}
		pc.Changes = append(pc.Changes, fmt.Sprintf("formatting lost %d → %d", a.FormattingLost, b.FormattingLost))
	}
	switch {
	case better > 0 && worse > 0:
		pc.Verdict = Mixed
	case worse > 0:
		pc.Verdict = Worse
	case better > 0:
		pc.Verdict = Better
	default:
		pc.Verdict = Unchanged
	}
	return pc
}

// codeDiff names the codes that appeared (+) and disappeared (−).
func codeDiff(a, b []string) string {
	in := func(ss []string, s string) bool {
		for _, x := range ss {
			if x == s {
				return true
			}
		}
		return false
	}
	var out []string
	for _, c := range b {
		if !in(a, c) {
			out = append(out, "+"+c)
		}
	}
	for _, c := range a {
		if !in(b, c) {
			out = append(out, "−"+c)
		}
	}
	return strings.Join(out, " ")
}

func rateChanges(a, b Metrics) []RateChange {
	var out []RateChange
	for _, d := range MetricsOf(a, b) {
		x, y := d.Value(a), d.Value(b)
		out = append(out, RateChange{Metric: d.Name, A: x, B: y, Delta: RoundRate(y - x)})
	}
	return out
}
