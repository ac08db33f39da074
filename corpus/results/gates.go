package results

import (
	"errors"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
)

// ErrGate marks a --fail-on expression that does not parse or names no
// known metric (a usage error).
var ErrGate = errors.New("results: bad gate")

// GateKind says what a gate's threshold measures.
type GateKind string

// Gate kinds. A signed threshold is a change from run A to run B; an
// unsigned one is run B's value.
const (
	// GateLevel: B's value ("blocked_rate>5%", "pages_changed_mean>2").
	GateLevel GateKind = "level"
	// GateChange: B−A in the metric's unit ("pages_changed_mean>+0.5").
	GateChange GateKind = "change"
	// GatePoints: B−A of a rate, in percentage points ("blocked_rate>+0.5pp").
	GatePoints GateKind = "points"
	// GateRelative: (B−A)/A in percent ("time_p95_ms>+20%"); from A = 0
	// any rise is an infinite rise.
	GateRelative GateKind = "relative"
)

// Gate is one condition of `corpus compare --fail-on`: it trips when the
// metric (overall, in one group, or in every group) crosses the threshold.
type Gate struct {
	// Expr is the gate as written.
	Expr string `json:"expr"`
	// Metric is the metric's public name (MetricDef.Name).
	Metric string `json:"metric"`
	// Group is "" for the whole run, a group's name, or "*" for every
	// group present in both runs.
	Group string   `json:"group,omitempty"`
	Op    string   `json:"op"`
	Kind  GateKind `json:"kind"`
	// Threshold is in the metric's unit; rates as fractions (0.005 for
	// +0.5pp or 0.5%), relative changes as fractions (0.2 for +20%).
	Threshold float64 `json:"threshold"`

	def MetricDef
}

// GateResult is one gate evaluated over one scope (the run or a group).
type GateResult struct {
	Gate  string `json:"gate"`
	Group string `json:"group,omitempty"`
	// A and B are the metric's values; Delta is B−A.
	A       float64 `json:"a"`
	B       float64 `json:"b"`
	Delta   float64 `json:"delta"`
	Tripped bool    `json:"tripped"`
	// Message says what was compared and how it came out, in words:
	// "blocked_rate 2.0% → 3.1% (+1.1 pp) > +0.5 pp".
	Message string `json:"message"`
}

var gateRE = regexp.MustCompile(`^([a-z0-9_.]+)(?:\[([^\]]*)\])?\s*(>=|<=|>|<)\s*([+-]?)([0-9]+(?:\.[0-9]+)?|\.[0-9]+)\s*(pp|%)?$`)

// ParseGates parses a --fail-on list: gates separated by commas, each
// METRIC[GROUP] OP THRESHOLD, e.g.
//
//	blocked_rate>+0.5pp        the blocked rate rose by more than 0.5 points
//	structure_loss>+1pp        "_rate" may be left out
//	new_error_rate[model-a]>=+2pp  in group model-a only ([*]: every group)
//	time_p95_ms>+20%           rose by more than 20 % of A's value
//	blocked_rate>5%            B's blocked rate is above 5 %
//	pages_changed_mean>+0.5    rose by more than 0.5 pages
//
// OP is >, >=, < or <=. A threshold with a sign is a change from A to B:
// pp (percentage points, rates only), % (relative to A) or the metric's
// own unit; without a sign it is B's value (% only for rates). An empty
// list is no gate. The error wraps ErrGate.
func ParseGates(list string) ([]Gate, error) {
	var gates []Gate
	for _, expr := range splitGates(list) {
		g, err := parseGate(expr)
		if err != nil {
			return nil, err
		}
		gates = append(gates, g)
	}
	return gates, nil
}

// splitGates splits at the commas outside brackets.
func splitGates(list string) []string {
	var out []string
	depth, start := 0, 0
	flush := func(end int) {
		if s := strings.TrimSpace(list[start:end]); s != "" {
			out = append(out, s)
		}
	}
	for i, c := range list {
		switch c {
		case '[':
			depth++
		case ']':
			depth--
		case ',':
			if depth <= 0 {
				flush(i)
				start = i + 1
			}
		}
	}
	flush(len(list))
	return out
}

func parseGate(expr string) (Gate, error) {
	m := gateRE.FindStringSubmatch(expr)
	if m == nil {
		return Gate{}, fmt.Errorf("%w %q: write METRIC[GROUP] OP THRESHOLD, e.g. blocked_rate>+0.5pp", ErrGate, expr)
	}
	name, group, op, sign, num, unit := m[1], m[2], m[3], m[4], m[5], m[6]
	def, ok := LookupMetric(name)
	if !ok {
		return Gate{}, fmt.Errorf("%w %q: no metric %q (known: %s)", ErrGate, expr, name, strings.Join(MetricNames(), ", "))
	}
	v, err := strconv.ParseFloat(num, 64)
	if err != nil {
		return Gate{}, fmt.Errorf("%w %q: %v", ErrGate, expr, err)
	}
	if sign == "-" {
		v = -v
	}
	if strings.Contains(expr, "[") && group == "" {
		return Gate{}, fmt.Errorf("%w %q: empty group (use [*] for every group)", ErrGate, expr)
	}
	g := Gate{Expr: expr, Metric: def.Name, Group: group, Op: op, def: def}
	switch {
	case sign != "" && unit == "pp":
		if !def.Rate {
			return Gate{}, fmt.Errorf("%w %q: pp (percentage points) is for rates; %s is not a rate", ErrGate, expr, def.Name)
		}
		g.Kind, g.Threshold = GatePoints, v/100
	case sign != "" && unit == "%":
		g.Kind, g.Threshold = GateRelative, v/100
	case sign != "":
		g.Kind, g.Threshold = GateChange, v
	case unit == "pp":
		return Gate{}, fmt.Errorf("%w %q: pp is a change, write it with a sign (+%spp)", ErrGate, expr, num)
	case unit == "%":
		if !def.Rate {
			return Gate{}, fmt.Errorf("%w %q: an unsigned %% is a rate's level; %s is not a rate (for a relative change write +%s%%)", ErrGate, expr, def.Name, num)
		}
		g.Kind, g.Threshold = GateLevel, v/100
	default:
		g.Kind, g.Threshold = GateLevel, v
	}
	return g, nil
}

// Evaluate evaluates every gate over the two runs, sets c.Gates and
// returns the results that tripped. There is one result per gate and
// scope, in the gates' order (a [*] gate gives one per group present in
// both runs). A gate on a group that is not in both runs trips: a gate
// that cannot be checked must not pass silently.
func (c *Comparison) Evaluate(gates []Gate) (tripped []GateResult) {
	sa, sb := c.sa, c.sb
	if sa == nil || sb == nil {
		sa, sb = &Summary{}, &Summary{}
	}
	var out []GateResult
	for _, g := range gates {
		switch g.Group {
		case "":
			out = append(out, g.eval("", sa.Overall, sb.Overall))
		case "*":
			for _, gc := range c.Groups {
				ma, _ := groupOf(sa, gc.Group)
				mb, _ := groupOf(sb, gc.Group)
				out = append(out, g.eval(gc.Group, ma, mb))
			}
		default:
			ma, okA := groupOf(sa, g.Group)
			mb, okB := groupOf(sb, g.Group)
			if !okA || !okB {
				out = append(out, GateResult{Gate: g.Expr, Group: g.Group, Tripped: true,
					Message: fmt.Sprintf("group %q is not in both runs (in A: %v, in B: %v), so the gate cannot be checked", g.Group, okA, okB)})
				continue
			}
			out = append(out, g.eval(g.Group, ma, mb))
		}
	}
	c.Gates = out
	for _, r := range out {
		if r.Tripped {
			tripped = append(tripped, r)
		}
	}
	return tripped
}

func groupOf(s *Summary, name string) (Metrics, bool) {
	for _, m := range s.Groups {
		if m.Group == name {
			return m, true
		}
	}
	return Metrics{}, false
}

// eval compares one scope's values with the threshold.
func (g Gate) eval(group string, ma, mb Metrics) GateResult {
	a, b := g.def.Value(ma), g.def.Value(mb)
	r := GateResult{Gate: g.Expr, Group: group, A: a, B: b, Delta: RoundRate(b - a)}
	var x float64
	switch g.Kind {
	case GateLevel:
		x = b
	case GateChange, GatePoints:
		x = b - a
	case GateRelative:
		switch {
		case a != 0:
			x = (b - a) / math.Abs(a)
		case b > 0:
			x = math.Inf(1)
		case b < 0:
			x = math.Inf(-1)
		}
	}
	const eps = 1e-9 // rates are rounded to 4 decimals: 0.005 is 0.005
	switch g.Op {
	case ">":
		r.Tripped = x > g.Threshold+eps
	case ">=":
		r.Tripped = x >= g.Threshold-eps
	case "<":
		r.Tripped = x < g.Threshold-eps
	case "<=":
		r.Tripped = x <= g.Threshold+eps
	}
	r.Message = g.describe(group, a, b, x)
	return r
}

// describe: "group m: blocked_rate 2.0% → 3.1% (+1.1 pp) > +0.5 pp".
func (g Gate) describe(group string, a, b, x float64) string {
	val := func(v float64) string {
		if g.def.Rate {
			return strconv.FormatFloat(v*100, 'f', 1, 64) + "%"
		}
		return strconv.FormatFloat(v, 'g', 6, 64)
	}
	var change, limit string
	switch g.Kind {
	case GateLevel:
		limit = val(g.Threshold)
	case GatePoints:
		change = signed((b-a)*100, 2) + " pp"
		limit = signed(g.Threshold*100, 2) + " pp"
	case GateChange:
		change = signed(b-a, 6)
		limit = signed(g.Threshold, 6)
	case GateRelative:
		if math.IsInf(x, 0) {
			change = "from 0"
		} else {
			change = signed(x*100, 3) + "%"
		}
		limit = signed(g.Threshold*100, 3) + "%"
	}
	s := fmt.Sprintf("%s %s → %s", g.Metric, val(a), val(b))
	if change != "" {
		s += " (" + change + ")"
	}
	if group != "" {
		s = "group " + group + ": " + s
	}
	return s + ", limit " + g.Op + " " + limit
}

// signed formats v with an explicit sign and at most prec significant
// decimals: "+1.1", "-0.25".
func signed(v float64, prec int) string {
	s := strconv.FormatFloat(v, 'f', -1, 64)
	if r := strconv.FormatFloat(v, 'f', prec, 64); len(r) < len(s) {
		s = strings.TrimRight(strings.TrimRight(r, "0"), ".")
	}
	if v >= 0 {
		s = "+" + s
	}
	return s
}
