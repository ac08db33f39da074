package results

import (
	"sort"
	"strings"
)

// MetricDef is one named number of a Metrics: a row of `corpus compare`
// and what a `--fail-on` gate can name (docs/operations.md lists them).
type MetricDef struct {
	// Name is the public name ("blocked_rate", "loss_rate.tables").
	Name string
	// Rate: the value is a fraction (0..1) of pairs, or of units for the
	// content's changed_share, written as a percent and compared in
	// percentage points.
	Rate bool
	// Value reads the metric from m.
	Value func(m Metrics) float64
}

// LossRatePrefix starts the name of a structure metric's loss rate:
// "loss_rate.tables" is the share of audited pairs that lost tables.
const LossRatePrefix = "loss_rate."

// fixedMetrics are the metrics every Metrics has, in the order compare
// lists them; the per-structure-metric loss rates go between
// structure_loss_rate and the page metrics; the content diff's
// (contentMetricDefs) come after the pages. A new family of metrics adds
// its own entries here.
func fixedMetrics() (head, tail []MetricDef) {
	head = []MetricDef{
		{Name: "pairs", Value: func(m Metrics) float64 { return float64(m.Pairs) }},
		{Name: "failed_rate", Rate: true, Value: func(m Metrics) float64 { return ratio(m.Failed, m.Pairs) }},
		{Name: "blocked_rate", Rate: true, Value: func(m Metrics) float64 { return m.BlockedRate }},
		{Name: "new_error_rate", Rate: true, Value: func(m Metrics) float64 { return m.NewErrorRate }},
		{Name: "new_warning_rate", Rate: true, Value: func(m Metrics) float64 { return m.NewWarningRate }},
		{Name: "structure_loss_rate", Rate: true, Value: func(m Metrics) float64 { return m.StructureLoss.Rate }},
	}
	tail = []MetricDef{
		// Pages: shares of the rendered pairs, so that a run without
		// rendering does not dilute them.
		{Name: "pages_changed_rate", Rate: true, Value: func(m Metrics) float64 { return ratio(m.Pages.ChangedPairs, m.Pages.Rendered) }},
		{Name: "pages_changed_mean", Value: func(m Metrics) float64 { return m.Pages.Changed.Mean }},
		{Name: "pages_changed_p95", Value: func(m Metrics) float64 { return m.Pages.Changed.P95 }},
		{Name: "render_failure_rate", Rate: true, Value: func(m Metrics) float64 { return ratio(m.Pages.RenderFailed, m.Audited) }},
		{Name: "time_p95_ms", Value: func(m Metrics) float64 { return m.Timing.P95 }},
	}
	return head, append(tail, contentMetricDefs()...)
}

// lossRateMetric is the loss rate of one structure metric.
func lossRateMetric(name string) MetricDef {
	return MetricDef{Name: LossRatePrefix + name, Rate: true, Value: func(m Metrics) float64 {
		for _, l := range m.StructureLoss.Metrics {
			if l.Metric == name {
				return l.Rate
			}
		}
		return 0
	}}
}

// MetricsOf lists the metrics of the given Metrics: the fixed ones and a
// loss rate for every structure metric any of them lost, by name.
func MetricsOf(ms ...Metrics) []MetricDef {
	head, tail := fixedMetrics()
	seen := map[string]bool{}
	var names []string
	for _, m := range ms {
		for _, l := range m.StructureLoss.Metrics {
			if !seen[l.Metric] {
				seen[l.Metric] = true
				names = append(names, l.Metric)
			}
		}
	}
	sort.Strings(names)
	out := head
	for _, n := range names {
		out = append(out, lossRateMetric(n))
	}
	return append(out, tail...)
}

// LookupMetric finds a metric by its public name. The "_rate" suffix may
// be left out ("blocked" is blocked_rate, "structure_loss" is
// structure_loss_rate); any name under loss_rate. is known (a metric no
// pair lost has rate 0).
func LookupMetric(name string) (MetricDef, bool) {
	if rest, ok := strings.CutPrefix(name, LossRatePrefix); ok && rest != "" {
		return lossRateMetric(rest), true
	}
	head, tail := fixedMetrics()
	for _, d := range append(head, tail...) {
		if d.Name == name || (d.Rate && d.Name == name+"_rate") {
			return d, true
		}
	}
	return MetricDef{}, false
}

// MetricNames lists the fixed metric names (for error messages).
func MetricNames() []string {
	head, tail := fixedMetrics()
	var out []string
	for _, d := range append(head, tail...) {
		out = append(out, d.Name)
	}
	return append(out, LossRatePrefix+"<metric>")
}

func ratio(n, of int) float64 {
	if of == 0 {
		return 0
	}
	return RoundRate(float64(n) / float64(of))
}
