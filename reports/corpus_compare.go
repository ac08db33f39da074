package reports

import (
	"fmt"
	"io"
	"strings"

	"github.com/editaudit/editaudit/corpus/results"
	"github.com/editaudit/editaudit/internal/plural"
)

// WriteCompareJSON writes c as indented JSON (schema
// editaudit.corpus-compare/v1).
func WriteCompareJSON(w io.Writer, c *results.Comparison) error {
	return writeIndentedJSON(w, c)
}

// WriteCompareText writes c for people: the counts, the rates that moved,
// then the pairs that got worse, mixed and better (at most max of each
// verdict; 0 lists all).
func WriteCompareText(w io.Writer, c *results.Comparison, max int) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%s → %s\n", c.A, c.B)
	fmt.Fprintf(&b, "pairs: %d in both, %d only in %s, %d only in %s", c.Matched, c.OnlyA, c.A, c.OnlyB, c.B)
	if c.FailedA+c.FailedB > 0 {
		fmt.Fprintf(&b, "; not compared: %d failed in A, %d failed in B", c.FailedA, c.FailedB)
	}
	b.WriteString("\n")
	if c.OtherOriginal > 0 {
		fmt.Fprintf(&b, "note: %s a different original in the two runs\n", plural.Of(c.OtherOriginal, "matched pair has", "matched pairs have"))
	}
	fmt.Fprintf(&b, "worse %d · better %d · mixed %d · unchanged %d\n\n", c.Worse, c.Better, c.Mixed, c.Unchanged)
	writeRates(&b, c.Rates, "")
	for _, g := range c.Groups {
		fmt.Fprintf(&b, "\ngroup %s\n", g.Group)
		writeRates(&b, g.Rates, "  ")
	}
	if len(c.Gates) > 0 {
		b.WriteString("\ngates:\n")
		for _, g := range c.Gates {
			state := "ok     "
			if g.Tripped {
				state = "TRIPPED"
			}
			fmt.Fprintf(&b, "  %s %s: %s\n", state, g.Gate, g.Message)
		}
	}
	for _, v := range []string{results.Worse, results.Mixed, results.Better} {
		var list []results.PairChange
		for _, p := range c.Pairs {
			if p.Verdict == v {
				list = append(list, p)
			}
		}
		if len(list) == 0 {
			continue
		}
		fmt.Fprintf(&b, "\n%s (%d):\n", v, len(list))
		for i, p := range list {
			if max > 0 && i == max {
				fmt.Fprintf(&b, "  … and %d more (--format json lists all)\n", len(list)-max)
				break
			}
			g := ""
			if p.Group != "" {
				g = " [" + p.Group + "]"
			}
			fmt.Fprintf(&b, "  %s%s: %s\n", p.ID, g, strings.Join(p.Changes, "; "))
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func writeRates(b *strings.Builder, rs []results.RateChange, in string) {
	fmt.Fprintf(b, "%s%-28s %10s %10s %10s\n", in, "metric", "A", "B", "change")
	for _, r := range rs {
		if isShare(r.Metric) {
			fmt.Fprintf(b, "%s%-28s %9.1f%% %9.1f%% %+8.1f pt\n", in, r.Metric, r.A*100, r.B*100, r.Delta*100)
			continue
		}
		fmt.Fprintf(b, "%s%-28s %10.4g %10.4g %+10.4g\n", in, r.Metric, r.A, r.B, r.Delta)
	}
}

// isShare reports whether a compared metric is a fraction (its MetricDef
// is a Rate), written as a percentage.
func isShare(metric string) bool {
	d, ok := results.LookupMetric(metric)
	return ok && d.Rate
}
