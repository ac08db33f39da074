package reports

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/editaudit/editaudit/audit"
	"github.com/editaudit/editaudit/content"
	"github.com/editaudit/editaudit/corpus/results"
	"github.com/editaudit/editaudit/formats"
)

// IndexRow is one pair in a run folder's index.html.
type IndexRow struct {
	ID, Group string
	// Verdict is "blocked", "passed" or "failed".
	Verdict string
	Error   string
	// NewFindings counts by grade; Codes names the first few codes.
	NewFindings formats.Tally
	Codes       string
	// Lost is the structure units lost over all metrics; Shrunk names the
	// metrics.
	Lost   int
	Shrunk string
	// Content: whether it was compared, the original's units the edit
	// touched, and those that lost formatting.
	ContentCompared bool
	ContentChanged  int
	FormattingLost  int
	// Pages: status and changed/inserted/deleted counts.
	PagesStatus                string
	Changed, Inserted, Deleted int
	TotalMS                    int64
	Report                     string
}

// IndexRowOf is the index row of one result line.
func IndexRowOf(r *results.Record) IndexRow {
	row := IndexRow{ID: r.ID, Group: r.Group, Report: r.Report, TotalMS: r.Timings.Total, PagesStatus: r.Pages.Status}
	switch {
	case r.Failed():
		row.Verdict, row.Error = "failed", r.Error
		row.PagesStatus = ""
		if i := strings.IndexByte(row.Error, '\n'); i >= 0 {
			row.Error = row.Error[:i]
		}
		return row
	case r.Blocked:
		row.Verdict = "blocked"
	default:
		row.Verdict = "passed"
	}
	row.NewFindings = formats.TallyOf(r.NewFindings)
	var codes []string
	seen := map[string]bool{}
	for _, f := range r.NewFindings {
		if !seen[f.Code] {
			seen[f.Code] = true
			codes = append(codes, f.Code)
		}
	}
	if len(codes) > 3 {
		codes = append(codes[:3], fmt.Sprintf("+%d", len(codes)-3))
	}
	row.Codes = strings.Join(codes, " ")
	var shr []string
	for _, s := range r.Structure.Shrunk {
		row.Lost += s.Before - s.After
		shr = append(shr, fmt.Sprintf("%s %d→%d", s.Metric, s.Before, s.After))
	}
	row.Shrunk = strings.Join(shr, ", ")
	if c := r.Content; c != nil && (c.Status == content.StatusOK || c.Status == content.StatusPartial) {
		row.ContentCompared, row.ContentChanged, row.FormattingLost = true, c.Summary.Changed, c.Summary.FormattingLost
	}
	if r.Pages.Status == audit.PagesOK {
		row.Changed, row.Inserted, row.Deleted = len(r.Pages.Changed), len(r.Pages.Inserted), len(r.Pages.Deleted)
	}
	return row
}

// WriteIndexHTML writes index.html: the summary and a table of every pair
// linking to its report, sorted by id (numbers in ids compared as numbers,
// formats.NaturalLess) and sortable by clicking a column header (a few
// lines of inline script; without script the table stays sorted by id).
// rows is not changed.
func WriteIndexHTML(w io.Writer, s *results.Summary, rows []IndexRow) error {
	sorted := append([]IndexRow(nil), rows...)
	sort.SliceStable(sorted, func(i, j int) bool { return formats.NaturalLess(sorted[i].ID, sorted[j].ID) })
	return corpusTemplate.Execute(w, newCorpusView(s, sorted, true))
}
