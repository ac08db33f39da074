package results

import (
	"github.com/editaudit/editaudit/content"
)

// ContentMetrics are the collateral-change metrics of a set of pairs: what
// the content diff (each record's content.summary) found. Compared pairs
// are those whose content status is ok or partial; the rates are shares
// of them, rounded to 4 decimals. Every number is a gate target of
// `corpus compare --fail-on` under the name "content.<json name>"
// (content.changed_share.mean, content.formatting_lost_rate…).
type ContentMetrics struct {
	// Compared pairs (content status ok or partial), of which Partial
	// were compared only in part (a part did not parse); NotCompared had
	// the diff off (--content off, or a record without content).
	Compared    int `json:"compared"`
	Partial     int `json:"partial"`
	NotCompared int `json:"not_compared"`
	// ChangedPairs have at least one content change; ChangedRate is their
	// share.
	ChangedPairs int     `json:"changed_pairs"`
	ChangedRate  float64 `json:"changed_rate"`
	// UnitsBefore sums the original's units (paragraphs, or cells of a
	// workbook) and Changed those the edits touched; Text, Format, Cells,
	// Inserted, Deleted and Moved sum the summaries' counts.
	UnitsBefore int `json:"units_before"`
	Changed     int `json:"changed"`
	Text        int `json:"text"`
	Format      int `json:"format"`
	Cells       int `json:"cells"`
	Inserted    int `json:"inserted"`
	Deleted     int `json:"deleted"`
	Moved       int `json:"moved"`
	// FormattingLost sums the units that lost bold, italic, underline,
	// strikethrough, highlight or colour; FormattingLostPairs have at
	// least one, FormattingLostRate is their share.
	FormattingLost      int     `json:"formatting_lost"`
	FormattingLostPairs int     `json:"formatting_lost_pairs"`
	FormattingLostRate  float64 `json:"formatting_lost_rate"`
	// ChangedShare is the distribution, over compared pairs, of the share
	// of the original's units each edit touched (content.summary
	// changed_share): the collateral damage of one edit.
	ChangedShare Dist `json:"changed_share"`
}

// contentAcc accumulates one ContentMetrics.
type contentAcc struct {
	m      ContentMetrics
	shares []float64
}

// add counts one audited record's content diff.
func (a *contentAcc) add(r *Record) {
	c := r.Content
	if c == nil || (c.Status != content.StatusOK && c.Status != content.StatusPartial) {
		a.m.NotCompared++
		return
	}
	m := &a.m
	m.Compared++
	if c.Status == content.StatusPartial {
		m.Partial++
	}
	s := c.Summary
	if len(c.Changes)+c.Truncated > 0 {
		m.ChangedPairs++
	}
	m.UnitsBefore += s.UnitsBefore
	m.Changed += s.Changed
	m.Text += s.Text
	m.Format += s.Format
	m.Cells += s.Cells
	m.Inserted += s.Inserted
	m.Deleted += s.Deleted
	m.Moved += s.Moved
	m.FormattingLost += s.FormattingLost
	if s.FormattingLost > 0 {
		m.FormattingLostPairs++
	}
	a.shares = append(a.shares, s.ChangedShare)
}

func (a *contentAcc) finish() ContentMetrics {
	m := a.m
	if m.Compared > 0 {
		m.ChangedRate = RoundRate(float64(m.ChangedPairs) / float64(m.Compared))
		m.FormattingLostRate = RoundRate(float64(m.FormattingLostPairs) / float64(m.Compared))
	}
	m.ChangedShare = distOf(a.shares)
	return m
}

// contentMetricDefs are the content metrics a comparison lists and a gate
// can name: shares of the compared pairs (changed, lost formatting) and
// the distribution of the share of units touched.
func contentMetricDefs() []MetricDef {
	return []MetricDef{
		{Name: "content.changed_rate", Rate: true, Value: func(m Metrics) float64 { return m.Content.ChangedRate }},
		{Name: "content.changed_share.mean", Rate: true, Value: func(m Metrics) float64 { return m.Content.ChangedShare.Mean }},
		{Name: "content.changed_share.p95", Rate: true, Value: func(m Metrics) float64 { return m.Content.ChangedShare.P95 }},
		{Name: "content.formatting_lost_rate", Rate: true, Value: func(m Metrics) float64 { return m.Content.FormattingLostRate }},
	}
}
