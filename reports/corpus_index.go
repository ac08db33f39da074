package reports

import (
	"encoding/json"
	"fmt"
	"html/template"
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
	// Format is the edited file's format (the original's when unknown).
	Format string
	// Pages: status and changed/inserted/deleted counts.
	PagesStatus                string
	Changed, Inserted, Deleted int
	TotalMS                    int64
	Report                     string
}

// IndexRowOf is the index row of one result line.
func IndexRowOf(r *results.Record) IndexRow {
	row := IndexRow{ID: r.ID, Group: r.Group, Report: r.Report, TotalMS: r.Timings.Total, PagesStatus: r.Pages.Status,
		Format: string(r.Edited.Format)}
	if row.Format == "" || row.Format == string(formats.Unknown) {
		if o := string(r.Original.Format); o != "" {
			row.Format = o
		}
	}
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

// IndexPageSize is how many pairs index.html shows per page (the reader
// can choose 50, 100, 250 or 1000).
const IndexPageSize = 100

// WriteIndexHTML writes index.html: the summary and the pairs, sorted by
// id (numbers in ids compared as numbers, formats.NaturalLess). The pairs
// are data in the page (one JSON array) drawn a page at a time by a small
// inline script: filters by verdict, format and group, a text search over
// id, group, codes, what shrank and the error, sorting by any column,
// paging. Without script the first IndexPageSize pairs are in the HTML and
// a line says the rest are in results.jsonl. rows is not changed.
func WriteIndexHTML(w io.Writer, s *results.Summary, rows []IndexRow) error {
	sorted := append([]IndexRow(nil), rows...)
	sort.SliceStable(sorted, func(i, j int) bool { return formats.NaturalLess(sorted[i].ID, sorted[j].ID) })
	v := newCorpusView(s, sorted, true)
	data := make([][]any, len(sorted))
	fmts, groups := map[string]bool{}, map[string]bool{}
	for i, r := range sorted {
		touched := -1
		if r.ContentCompared {
			touched = r.ContentChanged
		}
		data[i] = []any{r.ID, r.Group, r.Verdict, r.Format, r.Error, r.NewFindings.Total, r.NewFindings.Fatal, r.Codes,
			r.Lost, r.Shrunk, r.PagesStatus, r.Changed, r.Inserted, r.Deleted, r.TotalMS, r.Report, touched, r.FormattingLost}
		if r.Format != "" {
			fmts[r.Format] = true
		}
		if r.Group != "" {
			groups[r.Group] = true
		}
	}
	// json.Marshal escapes <, > and &: the data cannot end the script.
	j, err := json.Marshal(data)
	if err != nil {
		return err
	}
	v.RowsJSON = template.JS(j)
	v.Formats, v.Groups = keysOf(fmts), keysOf(groups)
	v.PageSize = IndexPageSize
	if len(v.Rows) > IndexPageSize {
		v.Rows = v.Rows[:IndexPageSize]
	}
	v.Total = len(sorted)
	return corpusTemplate.Execute(w, v)
}

func keysOf(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Slice(out, func(i, j int) bool { return formats.NaturalLess(out[i], out[j]) })
	return out
}
