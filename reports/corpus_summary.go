package reports

import (
	"fmt"
	"io"
	"strings"

	"github.com/editaudit/editaudit/corpus/results"
	"github.com/editaudit/editaudit/internal/plural"
)

// WriteSummaryJSON writes s as indented JSON: the summary.json bytes
// (schema editaudit.corpus-summary/v1).
func WriteSummaryJSON(w io.Writer, s *results.Summary) error {
	return writeIndentedJSON(w, s)
}

// WriteSummaryHTML writes the summary as one self-contained HTML page
// (no script, no external resource).
func WriteSummaryHTML(w io.Writer, s *results.Summary) error {
	return corpusTemplate.Execute(w, newCorpusView(s, nil, false))
}

// WriteSummaryText writes s for people: the overall metrics, then one
// block per group.
func WriteSummaryText(w io.Writer, s *results.Summary) error {
	var b strings.Builder
	fmt.Fprintf(&b, "corpus run")
	if s.Source != "" {
		fmt.Fprintf(&b, " of %s", s.Source)
	}
	if len(s.Shards) > 0 {
		fmt.Fprintf(&b, " (shards %s)", strings.Join(s.Shards, ", "))
	}
	fmt.Fprintf(&b, ": %s", plural.Of(s.Selected, "pair", "pairs"))
	if s.Pending > 0 {
		fmt.Fprintf(&b, ", %d not done yet", s.Pending)
	}
	if s.Throughput.PairsPerMin > 0 {
		fmt.Fprintf(&b, "; %.1f pairs/min (%s in %s)", s.Throughput.PairsPerMin, plural.Of(s.Throughput.Pairs, "pair", "pairs"), fmtSeconds(s.Throughput.Seconds))
	}
	b.WriteString("\n")
	if s.Unpaired != nil && len(s.Unpaired.OriginalsOnly)+len(s.Unpaired.EditedOnly) > 0 {
		fmt.Fprintf(&b, "unpaired files: %d only in the originals, %d only in the edited folder (see run.json)\n", len(s.Unpaired.OriginalsOnly), len(s.Unpaired.EditedOnly))
	}
	b.WriteString("\n")
	writeMetricsText(&b, s.Overall, "")
	for _, g := range s.Groups {
		fmt.Fprintf(&b, "\ngroup %s\n", g.Group)
		writeMetricsText(&b, g, "  ")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func writeMetricsText(b *strings.Builder, m results.Metrics, in string) {
	fmt.Fprintf(b, "%spairs %d: %d audited, %d failed (the tool could not audit them)\n", in, m.Pairs, m.Audited, m.Failed)
	fmt.Fprintf(b, "%sblocked            %5d  %s\n", in, m.Blocked, fmtPct(m.BlockedRate))
	fmt.Fprintf(b, "%snew errors         %5d  %s of pairs\n", in, m.NewErrorPairs, fmtPct(m.NewErrorRate))
	fmt.Fprintf(b, "%snew warnings       %5d  %s of pairs\n", in, m.NewWarningPairs, fmtPct(m.NewWarningRate))
	t := m.NewFindings
	fmt.Fprintf(b, "%snew findings       %5d  (%d fatal, %d error, %d warning, %d info)\n", in, t.Total, t.Fatal, t.Error, t.Warning, t.Info)
	if len(m.TopCodes) > 0 {
		fmt.Fprintf(b, "%stop new findings:\n", in)
		for _, c := range m.TopCodes {
			fmt.Fprintf(b, "%s  %-32s %-7s %5d %-5s  %5d %s\n", in, c.Code, c.Grade, c.Pairs, plural.Word(c.Pairs, "pair", "pairs"), c.Findings, plural.Word(c.Findings, "finding", "findings"))
		}
	}
	fmt.Fprintf(b, "%sstructure lost     %5d  %s of pairs\n", in, m.StructureLoss.Pairs, fmtPct(m.StructureLoss.Rate))
	for _, l := range m.StructureLoss.Metrics {
		fmt.Fprintf(b, "%s  %-18s %5d %-5s  %s  mean −%.4g (%s of it)\n", in, l.Metric, l.Pairs, plural.Word(l.Pairs, "pair", "pairs"), fmtPct(l.Rate), l.MeanLost, fmtPct(l.MeanLossRatio))
	}
	writeContentText(b, m.Content, in)
	p := m.Pages
	fmt.Fprintf(b, "%spages: %d rendered, %s, %d unsupported, %d not rendered\n", in, p.Rendered, plural.Of(p.RenderFailed, "render failure", "render failures"), p.Unsupported, p.NotRendered)
	if p.Rendered > 0 {
		fmt.Fprintf(b, "%s  changed per pair   mean %.4g  p50 %.4g  p95 %.4g  max %.4g  (%s with any page change)\n", in, p.Changed.Mean, p.Changed.P50, p.Changed.P95, p.Changed.Max, plural.Of(p.ChangedPairs, "pair", "pairs"))
		fmt.Fprintf(b, "%s  inserted %s in %s, deleted %d in %d, reflowed %d in %d\n", in, plural.Of(p.Inserted, "page", "pages"), plural.Of(p.InsertedPairs, "pair", "pairs"), p.Deleted, p.DeletedPairs, p.Reflowed, p.ReflowedPairs)
	}
	if m.Timing.N > 0 {
		fmt.Fprintf(b, "%stime per pair      mean %s  p50 %s  p95 %s\n", in, fmtMillis(m.Timing.Mean), fmtMillis(m.Timing.P50), fmtMillis(m.Timing.P95))
	}
}

func fmtPct(f float64) string {
	return fmt.Sprintf("%5.1f%%", f*100)
}

func fmtMillis(ms float64) string {
	if ms >= 1000 {
		return fmt.Sprintf("%.1fs", ms/1000)
	}
	return fmt.Sprintf("%.0fms", ms)
}

func fmtSeconds(s float64) string {
	switch {
	case s >= 3600:
		return fmt.Sprintf("%.1fh", s/3600)
	case s >= 60:
		return fmt.Sprintf("%.1fmin", s/60)
	}
	return fmt.Sprintf("%.1fs", s)
}

// writeContentText writes the collateral-change metrics of the content
// diff.
func writeContentText(b *strings.Builder, c results.ContentMetrics, in string) {
	if c.Compared == 0 {
		fmt.Fprintf(b, "%scontent: not compared\n", in)
		return
	}
	fmt.Fprintf(b, "%scontent: %s compared", in, plural.Of(c.Compared, "pair", "pairs"))
	if c.Partial > 0 {
		fmt.Fprintf(b, " (%d only in part)", c.Partial)
	}
	if c.NotCompared > 0 {
		fmt.Fprintf(b, ", %d not compared", c.NotCompared)
	}
	b.WriteString("\n")
	fmt.Fprintf(b, "%s  changed          %5d  %s of compared pairs\n", in, c.ChangedPairs, fmtPct(c.ChangedRate))
	d := c.ChangedShare
	fmt.Fprintf(b, "%s  share touched    mean %s  p50 %s  p95 %s  max %s  (%d of %s)\n", in,
		strings.TrimSpace(fmtPct(d.Mean)), strings.TrimSpace(fmtPct(d.P50)), strings.TrimSpace(fmtPct(d.P95)), strings.TrimSpace(fmtPct(d.Max)), c.Changed, plural.Of(c.UnitsBefore, "unit", "units"))
	fmt.Fprintf(b, "%s  formatting lost  %5d  %s of compared pairs (%s)\n", in, c.FormattingLostPairs, fmtPct(c.FormattingLostRate), plural.Of(c.FormattingLost, "unit", "units"))
	fmt.Fprintf(b, "%s  text %d, formatting %d, cells %d, inserted %d, deleted %d, moved %d\n", in, c.Text, c.Format, c.Cells, c.Inserted, c.Deleted, c.Moved)
}
