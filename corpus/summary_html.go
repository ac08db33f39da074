package corpus

import (
	"fmt"
	"html/template"
	"io"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"github.com/editaudit/editaudit/audit"
	"github.com/editaudit/editaudit/formats"
)

// IndexRow is one pair in index.html.
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
	// Pages: status and changed/inserted/deleted counts.
	PagesStatus                string
	Changed, Inserted, Deleted int
	TotalMS                    int64
	Report                     string
}

func indexRow(r *Record) IndexRow {
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
	if r.Pages.Status == audit.PagesOK {
		row.Changed, row.Inserted, row.Deleted = len(r.Pages.Changed), len(r.Pages.Inserted), len(r.Pages.Deleted)
	}
	return row
}

// sortRows orders rows by id, numbers inside ids compared as numbers
// ("2" before "10").
func sortRows(rows []IndexRow) {
	sort.SliceStable(rows, func(i, j int) bool { return naturalLess(rows[i].ID, rows[j].ID) })
}

// naturalLess compares strings with runs of digits compared by value.
func naturalLess(a, b string) bool {
	for a != "" && b != "" {
		da, db := digitsPrefix(a), digitsPrefix(b)
		if da != "" && db != "" {
			na, nb := strings.TrimLeft(da, "0"), strings.TrimLeft(db, "0")
			if len(na) != len(nb) {
				return len(na) < len(nb)
			}
			if na != nb {
				return na < nb
			}
			if len(da) != len(db) {
				return len(da) < len(db)
			}
			a, b = a[len(da):], b[len(db):]
			continue
		}
		if a[0] != b[0] {
			return a[0] < b[0]
		}
		a, b = a[1:], b[1:]
	}
	return len(a) < len(b)
}

func digitsPrefix(s string) string {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return s[:i]
}

// htmlView is what the summary/index template draws.
type htmlView struct {
	Title   string
	S       *Summary
	Rows    []IndexRow
	Index   bool
	Metrics []Metrics // overall then groups
}

// WriteSummaryHTML writes the summary as one self-contained HTML page
// (no script, no external resource).
func WriteSummaryHTML(w io.Writer, s *Summary) error {
	return summaryTemplate.Execute(w, newView(s, nil, false))
}

// WriteIndexHTML writes index.html: the summary and a table of every pair
// linking to its report, sortable by clicking a column header (a few
// lines of inline script; without script the table stays sorted by id).
func WriteIndexHTML(w io.Writer, s *Summary, rows []IndexRow) error {
	return summaryTemplate.Execute(w, newView(s, rows, true))
}

func newView(s *Summary, rows []IndexRow, index bool) htmlView {
	v := htmlView{Title: "editaudit corpus run", S: s, Rows: rows, Index: index}
	if s.Source != "" {
		v.Title += " — " + s.Source
	}
	o := s.Overall
	o.Group = "(all pairs)"
	v.Metrics = append([]Metrics{o}, s.Groups...)
	return v
}

func writeIndexHTML(path string, s *Summary, rows []IndexRow) error {
	return replaceFile(path, false, func(w io.Writer) error { return WriteIndexHTML(w, s, rows) })
}

var summaryTemplate = template.Must(template.New("summary").Funcs(template.FuncMap{
	"pct": func(f float64) string { return strconv.FormatFloat(f*100, 'f', 1, 64) + "%" },
	"num": func(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) },
	"ms":  fmtMillis,
	"sec": fmtSeconds,
	"losses": func(ls []MetricLoss) string {
		var s []string
		for _, l := range ls {
			s = append(s, fmt.Sprintf("%s %s (−%.3g, %.0f%%)", l.Metric, strconv.FormatFloat(l.Rate*100, 'f', 1, 64)+"%", l.MeanLost, l.MeanLossRatio*100))
		}
		return strings.Join(s, " · ")
	},
	"codes": func(cs []CodeCount) string {
		var s []string
		for i, c := range cs {
			if i == 5 {
				break
			}
			s = append(s, fmt.Sprintf("%s ×%d", c.Code, c.Pairs))
		}
		return strings.Join(s, " · ")
	},
	"sortkey": func(s string) string {
		// A key that sorts like naturalLess for ids of up to 12-digit
		// numbers: digits runs zero-padded.
		var b strings.Builder
		run := ""
		flush := func() {
			if run != "" {
				b.WriteString(strings.Repeat("0", max(0, 12-len(run))) + run)
				run = ""
			}
		}
		for _, c := range s {
			if unicode.IsDigit(c) && c < 128 {
				run += string(c)
				continue
			}
			flush()
			b.WriteRune(c)
		}
		flush()
		return b.String()
	},
}).Parse(summaryHTML))

const summaryHTML = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="editaudit">
<title>{{.Title}}</title>
<style>
:root { --fg:#1f2328; --muted:#59636e; --line:#d1d9e0; --soft:#eef1f4; --bg:#f6f8fa; --card:#fff;
  --red:#cf222e; --red-bg:#ffebe9; --green:#1a7f37; --green-bg:#dafbe1; --amber:#9a6700; --amber-bg:#fff8c5;
  --mono: ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace; }
* { box-sizing: border-box; }
body { margin:0; background:var(--bg); color:var(--fg);
  font:14px/1.5 -apple-system, BlinkMacSystemFont, "Segoe UI", "Noto Sans", Helvetica, Arial, sans-serif; }
main { max-width:1280px; margin:0 auto; padding:28px 32px 40px; }
h1 { font-size:22px; margin:0 0 6px; font-weight:600; word-break:break-all; }
h2 { font-size:16px; margin:0 0 10px; font-weight:600; }
.sub { color:var(--muted); margin:0 0 18px; }
section { background:var(--card); border:1px solid var(--line); border-radius:8px; padding:16px 18px; margin:0 0 18px; overflow-x:auto; }
table { width:100%; border-collapse:collapse; font-size:13px; }
th { text-align:left; font-weight:600; color:var(--muted); font-size:12px; padding:6px 8px; border-bottom:1px solid var(--line); background:var(--bg); white-space:nowrap; }
th[data-k] { cursor:pointer; user-select:none; }
th[data-k]:hover { color:var(--fg); }
th.asc::after { content:" ▲"; } th.desc::after { content:" ▼"; }
td { padding:6px 8px; border-bottom:1px solid var(--soft); vertical-align:top; }
td.num, th.num { text-align:right; font-variant-numeric:tabular-nums; white-space:nowrap; }
.mono { font-family:var(--mono); font-size:12px; }
.v { display:inline-block; font-size:11px; font-weight:600; padding:0 8px; border-radius:10px; text-transform:uppercase; }
.v-blocked { background:var(--red); color:#fff; } .v-passed { background:var(--green-bg); color:var(--green); }
.v-failed { background:var(--amber-bg); color:var(--amber); }
.bad { color:var(--red); font-weight:600; } .warn { color:var(--amber); }
.err { color:var(--amber); font-size:12px; }
footer { color:var(--muted); font-size:12px; }
</style>
</head>
<body>
<main>
<h1>{{.Title}}</h1>
<p class="sub">{{.S.Selected}} pairs{{if .S.Shards}} (shards {{range $i, $s := .S.Shards}}{{if $i}}, {{end}}{{$s}}{{end}}){{end}}{{if .S.Pending}}, <span class="warn">{{.S.Pending}} not done yet</span>{{end}}{{if .S.Throughput.PairsPerMin}} · {{printf "%.1f" .S.Throughput.PairsPerMin}} pairs/min ({{.S.Throughput.Pairs}} pairs in {{sec .S.Throughput.Seconds}}){{end}}{{with .S.Unpaired}} · unpaired files: {{len .OriginalsOnly}} only in the originals, {{len .EditedOnly}} only in the edited folder{{end}}</p>
<section>
<h2>Edit damage</h2>
<table>
<thead><tr><th>group</th><th class="num">pairs</th><th class="num">audited</th><th class="num">failed</th><th class="num">blocked</th><th class="num">new errors</th><th class="num">new warnings</th><th class="num">structure lost</th><th class="num">pages changed (mean / p50 / p95)</th><th class="num">inserted / deleted / reflowed</th><th class="num">render failures</th><th class="num">time per pair (p50)</th></tr></thead>
<tbody>
{{range .Metrics}}<tr><td>{{.Group}}</td><td class="num">{{.Pairs}}</td><td class="num">{{.Audited}}</td><td class="num">{{.Failed}}</td>
<td class="num{{if .Blocked}} bad{{end}}">{{pct .BlockedRate}} ({{.Blocked}})</td>
<td class="num">{{pct .NewErrorRate}} ({{.NewErrorPairs}})</td>
<td class="num">{{pct .NewWarningRate}} ({{.NewWarningPairs}})</td>
<td class="num{{if .StructureLoss.Pairs}} warn{{end}}">{{pct .StructureLoss.Rate}} ({{.StructureLoss.Pairs}})</td>
<td class="num">{{if .Pages.Rendered}}{{num .Pages.Changed.Mean}} / {{num .Pages.Changed.P50}} / {{num .Pages.Changed.P95}}{{else}}—{{end}}</td>
<td class="num">{{if .Pages.Rendered}}{{.Pages.Inserted}} / {{.Pages.Deleted}} / {{.Pages.Reflowed}}{{else}}—{{end}}</td>
<td class="num">{{.Pages.RenderFailed}}</td>
<td class="num">{{if .Timing.N}}{{ms .Timing.P50}}{{end}}</td></tr>
{{end}}</tbody>
</table>
</section>
<section>
<h2>What was lost and what was found</h2>
<table>
<thead><tr><th>group</th><th>structure loss per metric (rate, mean lost, mean share lost)</th><th>top new finding codes (pairs)</th></tr></thead>
<tbody>
{{range .Metrics}}<tr><td>{{.Group}}</td><td>{{losses .StructureLoss.Metrics}}</td><td class="mono">{{codes .TopCodes}}</td></tr>
{{end}}</tbody>
</table>
</section>
{{if .Index}}<section>
<h2>Pairs</h2>
<table id="pairs">
<thead><tr><th data-k="s">id</th><th data-k="s">group</th><th data-k="s">verdict</th><th class="num" data-k="n">new findings</th><th data-k="s">codes</th><th class="num" data-k="n">structure lost</th><th data-k="s">shrunk</th><th data-k="s">pages</th><th class="num" data-k="n">changed</th><th class="num" data-k="n">inserted</th><th class="num" data-k="n">deleted</th><th class="num" data-k="n">ms</th><th>report</th></tr></thead>
<tbody>
{{range .Rows}}<tr><td class="mono" data-v="{{sortkey .ID}}">{{.ID}}</td><td>{{.Group}}</td><td data-v="{{.Verdict}}"><span class="v v-{{.Verdict}}">{{.Verdict}}</span>{{if .Error}}<div class="err">{{.Error}}</div>{{end}}</td>
<td class="num" data-v="{{.NewFindings.Total}}">{{if .NewFindings.Total}}{{.NewFindings.Total}}{{if .NewFindings.Fatal}} <span class="bad">({{.NewFindings.Fatal}} fatal)</span>{{end}}{{end}}</td>
<td class="mono">{{.Codes}}</td><td class="num" data-v="{{.Lost}}">{{if .Lost}}{{.Lost}}{{end}}</td><td>{{.Shrunk}}</td><td>{{.PagesStatus}}</td>
<td class="num" data-v="{{.Changed}}">{{if .Changed}}{{.Changed}}{{end}}</td><td class="num" data-v="{{.Inserted}}">{{if .Inserted}}{{.Inserted}}{{end}}</td><td class="num" data-v="{{.Deleted}}">{{if .Deleted}}{{.Deleted}}{{end}}</td>
<td class="num" data-v="{{.TotalMS}}">{{.TotalMS}}</td><td>{{if .Report}}<a href="{{.Report}}">report</a>{{end}}</td></tr>
{{end}}</tbody>
</table>
</section>
<script>
(function () {
  var t = document.getElementById("pairs"), hs = t.tHead.rows[0].cells, body = t.tBodies[0];
  function val(tr, i, num) {
    var c = tr.cells[i], v = c.getAttribute("data-v");
    if (v === null) v = c.textContent;
    return num ? (parseFloat(v) || 0) : v.toLowerCase();
  }
  Array.prototype.forEach.call(hs, function (h, i) {
    var k = h.getAttribute("data-k");
    if (!k) return;
    h.addEventListener("click", function () {
      var asc = !h.classList.contains("asc"), num = k === "n";
      Array.prototype.forEach.call(hs, function (o) { o.classList.remove("asc", "desc"); });
      h.classList.add(asc ? "asc" : "desc");
      var rows = Array.prototype.slice.call(body.rows);
      rows.sort(function (a, b) {
        var x = val(a, i, num), y = val(b, i, num);
        return (x < y ? -1 : x > y ? 1 : 0) * (asc ? 1 : -1);
      });
      rows.forEach(function (r) { body.appendChild(r); });
    });
  });
})();
</script>
{{end}}<footer>{{.S.Schema}} · results in results.jsonl, metrics in summary.json</footer>
</main>
</body>
</html>
`
