package results

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/editaudit/editaudit/audit"
	"github.com/editaudit/editaudit/formats"
)

// SummarySchema names summary.json.
const SummarySchema = "editaudit.corpus-summary/v1"

// TopCodes is how many finding codes a summary lists.
const TopCodes = 10

// Summary is summary.json: what an evaluation harness reports about edit
// damage over a run, overall and per group. Rates are fractions of the
// audited pairs (failed pairs have no verdict), rounded to 4 decimals.
type Summary struct {
	Schema string `json:"schema"`
	Source string `json:"source,omitempty"`
	// Shards lists the shards the run folder holds (empty: all pairs).
	Shards []string `json:"shards,omitempty"`
	// Selected is the number of pairs the run covers; Pending those with
	// no line in results.jsonl yet (an interrupted run).
	Selected int       `json:"selected"`
	Pending  int       `json:"pending"`
	Unpaired *Unpaired `json:"unpaired,omitempty"`
	Overall  Metrics   `json:"overall"`
	// Groups are the metrics per group, by name; absent when no pair has
	// a group.
	Groups     []Metrics  `json:"groups,omitempty"`
	Throughput Throughput `json:"throughput"`
}

// Metrics are the damage metrics of a set of pairs.
type Metrics struct {
	Group string `json:"group,omitempty"`
	// Pairs with a line in results.jsonl: Audited plus Failed (the tool
	// could not audit them; see each line's error).
	Pairs   int `json:"pairs"`
	Audited int `json:"audited"`
	Failed  int `json:"failed"`
	// Blocked pairs have a new fatal finding.
	Blocked     int     `json:"blocked"`
	BlockedRate float64 `json:"blocked_rate"`
	// NewFindings counts the new findings by grade (findings, not pairs).
	NewFindings formats.Tally `json:"new_findings"`
	// NewErrorPairs and NewWarningPairs have at least one new finding of
	// that grade; the rates are their share of audited pairs.
	NewErrorPairs   int     `json:"new_error_pairs"`
	NewErrorRate    float64 `json:"new_error_rate"`
	NewWarningPairs int     `json:"new_warning_pairs"`
	NewWarningRate  float64 `json:"new_warning_rate"`
	// TopCodes are the most frequent new finding codes, by pairs.
	TopCodes      []CodeCount   `json:"top_codes"`
	StructureLoss StructureLoss `json:"structure_loss"`
	// Content is what the content diff found: collateral change.
	Content ContentMetrics `json:"content"`
	Pages   PageMetrics    `json:"pages"`
	// Timing is the wall-clock milliseconds per audited pair.
	Timing Dist `json:"timing_ms"`
}

// CodeCount is one new finding code: in how many pairs, how many times.
type CodeCount struct {
	Code     string        `json:"code"`
	Grade    formats.Grade `json:"grade"`
	Pairs    int           `json:"pairs"`
	Findings int           `json:"findings"`
}

// StructureLoss says how often edits shrank structure. Pairs whose
// structure was not fully counted (a part of either file did not parse:
// audit.Structure.Incomplete) are kept out of it: their counts are partial,
// so they neither lose structure nor count in the rates' denominator.
type StructureLoss struct {
	// Pairs with at least one shrunk metric, and their rate among the
	// audited pairs counted completely.
	Pairs int     `json:"pairs"`
	Rate  float64 `json:"rate"`
	// NotCounted is the number of audited pairs left out because a part
	// of either file did not parse.
	NotCounted int `json:"not_counted"`
	// Metrics, by pairs that lost it (most first).
	Metrics []MetricLoss `json:"metrics"`
}

// MetricLoss is one structure metric's losses.
type MetricLoss struct {
	Metric string `json:"metric"`
	// Pairs that lost some of it and their share of audited pairs.
	Pairs int     `json:"pairs"`
	Rate  float64 `json:"rate"`
	// Lost is the total units lost; MeanLost per losing pair;
	// MeanLossRatio the mean of (before−after)/before over losing pairs.
	Lost          int     `json:"lost"`
	MeanLost      float64 `json:"mean_lost"`
	MeanLossRatio float64 `json:"mean_loss_ratio"`
}

// PageMetrics are the rendered-page outcomes.
type PageMetrics struct {
	// Pairs by pages.status: rendered (ok), render failures (failed),
	// unsupported (no renderer reads the format), not rendered (off).
	Rendered     int `json:"rendered"`
	RenderFailed int `json:"render_failed"`
	Unsupported  int `json:"unsupported"`
	NotRendered  int `json:"not_rendered"`
	// Identical pairs (byte-identical files) count as rendered: their
	// pages are known to be the same without rendering.
	Identical     int `json:"identical"`
	ChangedPairs  int `json:"changed_pairs"`
	InsertedPairs int `json:"inserted_pairs"`
	DeletedPairs  int `json:"deleted_pairs"`
	ReflowedPairs int `json:"reflowed_pairs"`
	// Changed is the distribution of changed pages per rendered pair.
	Changed Dist `json:"changed"`
	// Inserted, Deleted and Reflowed are page totals over rendered pairs.
	Inserted int `json:"inserted"`
	Deleted  int `json:"deleted"`
	Reflowed int `json:"reflowed"`
}

// Dist is a distribution: count, mean, median, 95th percentile, maximum
// (nearest rank).
type Dist struct {
	N    int     `json:"n"`
	Mean float64 `json:"mean"`
	P50  float64 `json:"p50"`
	P95  float64 `json:"p95"`
	Max  float64 `json:"max"`
}

// acc accumulates one Metrics.
type acc struct {
	m        Metrics
	codes    map[string]*CodeCount
	loss     map[string]*lossAcc
	changed  []int64
	timingMS []int64
	content  contentAcc
}

type lossAcc struct {
	pairs, lost int
	ratioSum    float64
}

func newAcc(group string) *acc {
	return &acc{m: Metrics{Group: group}, codes: map[string]*CodeCount{}, loss: map[string]*lossAcc{}}
}

// add counts one record.
func (a *acc) add(r *Record) {
	a.m.Pairs++
	if r.Failed() {
		a.m.Failed++
		return
	}
	a.m.Audited++
	if r.Blocked {
		a.m.Blocked++
	}
	a.addFindings(r)
	a.addStructure(r)
	a.content.add(r)
	a.addPages(r)
	a.timingMS = append(a.timingMS, r.Timings.Total)
}

// addFindings counts the new findings by grade and by code.
func (a *acc) addFindings(r *Record) {
	seen := map[string]bool{}
	hasErr, hasWarn := false, false
	for _, f := range r.NewFindings {
		a.m.NewFindings.Total++
		switch f.Grade {
		case formats.Fatal:
			a.m.NewFindings.Fatal++
		case formats.Error:
			a.m.NewFindings.Error++
			hasErr = true
		case formats.Warning:
			a.m.NewFindings.Warning++
			hasWarn = true
		case formats.Info:
			a.m.NewFindings.Info++
		}
		k := f.Code + "\x00" + string(f.Grade)
		c := a.codes[k]
		if c == nil {
			c = &CodeCount{Code: f.Code, Grade: f.Grade}
			a.codes[k] = c
		}
		c.Findings++
		if !seen[k] {
			seen[k] = true
			c.Pairs++
		}
	}
	if hasErr {
		a.m.NewErrorPairs++
	}
	if hasWarn {
		a.m.NewWarningPairs++
	}
}

// addStructure counts the structure metrics that shrank.
func (a *acc) addStructure(r *Record) {
	if r.Structure.Incomplete {
		a.m.StructureLoss.NotCounted++
		return
	}
	if len(r.Structure.Shrunk) > 0 {
		a.m.StructureLoss.Pairs++
	}
	for _, s := range r.Structure.Shrunk {
		l := a.loss[s.Metric]
		if l == nil {
			l = &lossAcc{}
			a.loss[s.Metric] = l
		}
		l.pairs++
		l.lost += s.Before - s.After
		if s.Before > 0 {
			l.ratioSum += float64(s.Before-s.After) / float64(s.Before)
		}
	}
}

// addPages counts the rendered-page outcome.
func (a *acc) addPages(r *Record) {
	p := &a.m.Pages
	switch r.Pages.Status {
	case audit.PagesOK:
		p.Rendered++
		if r.Pages.Identical {
			p.Identical++
		}
		a.changed = append(a.changed, int64(len(r.Pages.Changed)))
		reflowed := 0
		for _, rf := range r.Pages.Reflowed {
			reflowed += rf.To - rf.From + 1
		}
		if len(r.Pages.Changed)+len(r.Pages.Inserted)+len(r.Pages.Deleted)+reflowed > 0 {
			p.ChangedPairs++
		}
		if len(r.Pages.Inserted) > 0 {
			p.InsertedPairs++
		}
		if len(r.Pages.Deleted) > 0 {
			p.DeletedPairs++
		}
		if reflowed > 0 {
			p.ReflowedPairs++
		}
		p.Inserted += len(r.Pages.Inserted)
		p.Deleted += len(r.Pages.Deleted)
		p.Reflowed += reflowed
	case audit.PagesFailed:
		p.RenderFailed++
	case audit.PagesUnsupported:
		p.Unsupported++
	default:
		p.NotRendered++
	}
}

func (a *acc) finish() Metrics {
	m := a.m
	rate := func(n int) float64 {
		if m.Audited == 0 {
			return 0
		}
		return RoundRate(float64(n) / float64(m.Audited))
	}
	m.BlockedRate = rate(m.Blocked)
	m.NewErrorRate = rate(m.NewErrorPairs)
	m.NewWarningRate = rate(m.NewWarningPairs)
	counted := m.Audited - m.StructureLoss.NotCounted
	srate := func(n int) float64 {
		if counted <= 0 {
			return 0
		}
		return RoundRate(float64(n) / float64(counted))
	}
	m.StructureLoss.Rate = srate(m.StructureLoss.Pairs)
	m.TopCodes = []CodeCount{}
	for _, c := range a.codes {
		m.TopCodes = append(m.TopCodes, *c)
	}
	sort.Slice(m.TopCodes, func(i, j int) bool {
		x, y := m.TopCodes[i], m.TopCodes[j]
		if x.Pairs != y.Pairs {
			return x.Pairs > y.Pairs
		}
		if x.Findings != y.Findings {
			return x.Findings > y.Findings
		}
		if x.Code != y.Code {
			return x.Code < y.Code
		}
		return x.Grade < y.Grade
	})
	if len(m.TopCodes) > TopCodes {
		m.TopCodes = m.TopCodes[:TopCodes]
	}
	m.StructureLoss.Metrics = []MetricLoss{}
	for name, l := range a.loss {
		m.StructureLoss.Metrics = append(m.StructureLoss.Metrics, MetricLoss{
			Metric: name, Pairs: l.pairs, Rate: srate(l.pairs), Lost: l.lost,
			MeanLost:      RoundRate(float64(l.lost) / float64(l.pairs)),
			MeanLossRatio: RoundRate(l.ratioSum / float64(l.pairs)),
		})
	}
	sort.Slice(m.StructureLoss.Metrics, func(i, j int) bool {
		x, y := m.StructureLoss.Metrics[i], m.StructureLoss.Metrics[j]
		if x.Pairs != y.Pairs {
			return x.Pairs > y.Pairs
		}
		return x.Metric < y.Metric
	})
	m.Content = a.content.finish()
	m.Pages.Changed = distOf(a.changed)
	m.Timing = distOf(a.timingMS)
	return m
}

func distOf[T int64 | float64](v []T) Dist {
	if len(v) == 0 {
		return Dist{}
	}
	s := append([]T(nil), v...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	var sum T
	for _, x := range s {
		sum += x
	}
	rank := func(p float64) float64 {
		// Nearest rank: the smallest value with at least p of the data at
		// or below it.
		i := int(p*float64(len(s))+0.999999) - 1
		i = max(0, min(i, len(s)-1))
		return RoundRate(float64(s[i]))
	}
	return Dist{N: len(s), Mean: RoundRate(float64(sum) / float64(len(s))), P50: rank(0.5), P95: rank(0.95), Max: RoundRate(float64(s[len(s)-1]))}
}

// Summarize computes the summary of a run folder from results.jsonl and
// run.json. Calls fn (when not nil) with every record, in file order, so
// that a caller can build its own view in the same pass.
func Summarize(runDir string, fn func(*Record)) (*Summary, error) {
	overall := newAcc("")
	groups := map[string]*acc{}
	err := ReadResults(runDir, func(r *Record) error {
		overall.add(r)
		if r.Group != "" {
			g := groups[r.Group]
			if g == nil {
				g = newAcc(r.Group)
				groups[r.Group] = g
			}
			g.add(r)
		}
		if fn != nil {
			fn(r)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	s := &Summary{Schema: SummarySchema, Overall: overall.finish()}
	names := make([]string, 0, len(groups))
	for n := range groups {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		s.Groups = append(s.Groups, groups[n].finish())
	}
	ri, err := ReadRunInfo(runDir)
	if err != nil {
		return nil, fmt.Errorf("results: %s: %w", filepath.Join(runDir, RunFile), err)
	}
	if ri != nil {
		s.Source, s.Shards, s.Selected, s.Unpaired = ri.Source, ri.Shards, ri.Selected, ri.Unpaired
		s.Throughput = ThroughputOf(ri.Sessions)
	}
	if s.Selected < s.Overall.Pairs {
		s.Selected = s.Overall.Pairs
	}
	s.Pending = s.Selected - s.Overall.Pairs
	return s, nil
}

// ReadSummary reads summary.json of a run folder.
func ReadSummary(runDir string) (*Summary, error) {
	var s Summary
	if err := readJSONFile(filepath.Join(runDir, SummaryFile), &s); err != nil {
		return nil, err
	}
	return &s, nil
}

// readJSONFile decodes the JSON file at path into v.
func readJSONFile(path string, v any) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("results: %s: %w", path, err)
	}
	return nil
}
