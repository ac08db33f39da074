package reports

import (
	"bytes"
	"strings"
	"testing"

	"github.com/editaudit/editaudit/corpus/results"
	"github.com/editaudit/editaudit/formats"
)

// corpusSummary is a summary as results.Summarize makes it (the numbers
// of its metrics test: six pairs, one failed, one blocked, two groups).
func corpusSummary() *results.Summary {
	overall := results.Metrics{
		Pairs: 6, Audited: 5, Failed: 1, Blocked: 1, BlockedRate: 0.2,
		NewFindings:   formats.Tally{Total: 4, Fatal: 2, Error: 1, Warning: 1},
		NewErrorPairs: 1, NewErrorRate: 0.2, NewWarningPairs: 1, NewWarningRate: 0.2,
		TopCodes: []results.CodeCount{{Code: "xml.illegal-char", Grade: formats.Fatal, Pairs: 1, Findings: 2}, {Code: "pkg.orphan", Grade: formats.Warning, Pairs: 1, Findings: 1}},
		StructureLoss: results.StructureLoss{Pairs: 2, Rate: 0.4, Metrics: []results.MetricLoss{
			{Metric: "tables", Pairs: 2, Rate: 0.4, Lost: 4, MeanLost: 2, MeanLossRatio: 0.625},
			{Metric: "rows", Pairs: 1, Rate: 0.2, Lost: 5, MeanLost: 5, MeanLossRatio: 0.5},
		}},
		Pages: results.PageMetrics{Rendered: 4, RenderFailed: 1, ChangedPairs: 3, InsertedPairs: 1, DeletedPairs: 1, ReflowedPairs: 1,
			Changed: results.Dist{N: 4, Mean: 3.25, P50: 1, P95: 10, Max: 10}, Inserted: 1, Deleted: 2, Reflowed: 4},
		Content: results.ContentMetrics{Compared: 4, Partial: 1, NotCompared: 1, ChangedPairs: 3, ChangedRate: 0.75,
			UnitsBefore: 180, Changed: 16, Text: 12, Format: 4, FormattingLost: 4, FormattingLostPairs: 2, FormattingLostRate: 0.5,
			ChangedShare: results.Dist{N: 4, Mean: 0.1775, P50: 0.01, P95: 0.5, Max: 0.5}},
		Timing: results.Dist{N: 5, Mean: 300, P50: 300, P95: 500, Max: 500},
	}
	b := results.Metrics{Group: "b", Pairs: 3, Audited: 2, Failed: 1, TopCodes: []results.CodeCount{},
		StructureLoss: results.StructureLoss{Pairs: 1, Rate: 0.5, Metrics: []results.MetricLoss{{Metric: "tables", Pairs: 1, Rate: 0.5, Lost: 1, MeanLost: 1, MeanLossRatio: 0.5}}},
		Pages:         results.PageMetrics{Rendered: 1, RenderFailed: 1, Changed: results.Dist{N: 1}}}
	return &results.Summary{Schema: results.SummarySchema, Source: "pairs.csv", Selected: 7, Pending: 1,
		Unpaired: &results.Unpaired{OriginalsOnly: []string{"lonely.docx"}}, Overall: overall, Groups: []results.Metrics{b},
		Throughput: results.Throughput{Pairs: 6, Seconds: 90, PairsPerMin: 4}}
}

func TestWriteCorpusSummary(t *testing.T) {
	s := corpusSummary()
	var text, js, html bytes.Buffer
	if err := WriteSummaryText(&text, s); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"corpus run of pairs.csv: 7 pairs, 1 not done yet; 4.0 pairs/min (6 pairs in 1.5min)", "unpaired files: 1 only in the originals",
		"pairs 6: 5 audited, 1 failed", "blocked                1   20.0%", "xml.illegal-char", "tables                 2 pairs   40.0%  mean −2 ( 62.5% of it)",
		"changed per pair   mean 3.25  p50 1  p95 10", "group b",
		"content: 4 pairs compared (1 only in part), 1 not compared", "  changed              3   75.0% of compared pairs",
		"  share touched    mean 17.8%  p50 1.0%  p95 50.0%  max 50.0%  (16 of 180 units)", "  formatting lost      2   50.0% of compared pairs (4 units)",
		"  content: not compared\n", "time per pair      mean 300ms  p50 300ms  p95 500ms"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, text.String())
		}
	}
	golden(t, "corpus-summary.txt", text.Bytes())
	if err := WriteSummaryJSON(&js, s); err != nil {
		t.Fatal(err)
	}
	golden(t, "corpus-summary.json", js.Bytes())
	if err := WriteSummaryHTML(&html, s); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(html.String(), "<td>(all pairs)</td>") || strings.Contains(html.String(), "<script") || strings.Contains(html.String(), `id="pairs"`) {
		t.Errorf("summary HTML: the metrics without the pairs table and without script:\n%s", html.String())
	}
	golden(t, "corpus-summary.html", html.Bytes())
}

func TestWriteCorpusCompare(t *testing.T) {
	c := &results.Comparison{Schema: results.CompareSchema, A: "monday", B: "tuesday", Matched: 6, OnlyA: 1, OnlyB: 1, FailedA: 1, OtherOriginal: 1,
		Better: 2, Worse: 1, Mixed: 1, Unchanged: 1,
		Pairs: []results.PairChange{
			{ID: "2", Group: "m", Verdict: results.Worse, Changes: []string{"passed → blocked", "new findings 0 → 1 (+rels.target-missing)"}},
			{ID: "3", Group: "m", Verdict: results.Mixed, Changes: []string{"new findings 0 → 1 (+xlsx.formula)", "structure lost 4 → 1 (tables 5→4)"}},
			{ID: "1", Group: "m", Verdict: results.Better, Changes: []string{"blocked → passed"}},
			{ID: "7", Group: "m", Verdict: results.Better, Changes: []string{"new findings 1 → 0 (−docx.tc-no-p)"}},
		},
		Rates: []results.RateChange{{Metric: "pairs", A: 7, B: 7}, {Metric: "blocked_rate", A: 0.1667, B: 0.1429, Delta: -0.0238}, {Metric: "loss_rate.rows", A: 0.1667, Delta: -0.1667}, {Metric: "pages_changed_mean", A: 1.5, B: 2, Delta: 0.5},
			{Metric: "content.changed_share.mean", A: 0.012, B: 0.0345, Delta: 0.0225}, {Metric: "content.formatting_lost_rate", A: 0, B: 0.25, Delta: 0.25}},
		Groups: []results.GroupChange{{Group: "m", Rates: []results.RateChange{{Metric: "blocked_rate", A: 0.1667, B: 0.1429, Delta: -0.0238}}}},
	}
	var text, js bytes.Buffer
	if err := WriteCompareText(&text, c, 1); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"pairs: 6 in both, 1 only in monday, 1 only in tuesday; not compared: 1 failed in A, 0 failed in B",
		"note: 1 matched pair has a different original", "worse 1 · better 2 · mixed 1 · unchanged 1", "2 [m]: passed → blocked",
		"… and 1 more", "blocked_rate                      16.7%      14.3%     -2.4 pt", "group m",
		"content.changed_share.mean         1.2%       3.5%     +2.2 pt", "content.formatting_lost_rate       0.0%      25.0%    +25.0 pt"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, text.String())
		}
	}
	golden(t, "corpus-compare.txt", text.Bytes())
	if err := WriteCompareJSON(&js, c); err != nil {
		t.Fatal(err)
	}
	golden(t, "corpus-compare.json", js.Bytes())
}
