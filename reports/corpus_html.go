package reports

import (
	"fmt"
	"html/template"
	"strconv"
	"strings"

	"github.com/editaudit/editaudit/corpus/results"
)

// corpusView is what the summary/index template draws.
type corpusView struct {
	Title   string
	S       *results.Summary
	Rows    []IndexRow
	Index   bool
	Metrics []results.Metrics // overall then groups
}

// newCorpusView draws s, and with index the rows, in their order.
func newCorpusView(s *results.Summary, rows []IndexRow, index bool) corpusView {
	v := corpusView{Title: "editaudit corpus run", S: s, Rows: rows, Index: index}
	if s.Source != "" {
		v.Title += " — " + s.Source
	}
	o := s.Overall
	o.Group = "(all pairs)"
	v.Metrics = append([]results.Metrics{o}, s.Groups...)
	return v
}

// corpusTemplate draws a run summary (summary --format html) and index.html.
var corpusTemplate = template.Must(template.New("corpus").Funcs(template.FuncMap{
	"pct": func(f float64) string { return strconv.FormatFloat(f*100, 'f', 1, 64) + "%" },
	"num": func(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) },
	"ms":  fmtMillis,
	"sec": fmtSeconds,
	"losses": func(ls []results.MetricLoss) string {
		var s []string
		for _, l := range ls {
			s = append(s, fmt.Sprintf("%s %s (−%.3g, %.0f%%)", l.Metric, strconv.FormatFloat(l.Rate*100, 'f', 1, 64)+"%", l.MeanLost, l.MeanLossRatio*100))
		}
		return strings.Join(s, " · ")
	},
	"codes": func(cs []results.CodeCount) string {
		var s []string
		for i, c := range cs {
			if i == 5 {
				break
			}
			s = append(s, fmt.Sprintf("%s ×%d", c.Code, c.Pairs))
		}
		return strings.Join(s, " · ")
	},
}).Parse(corpusHTML))

// corpusHTML is the page of a run: the summary, and with .Index the pairs.
const corpusHTML = `<!DOCTYPE html>
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
<thead><tr><th>group</th><th>structure loss per metric (rate, mean lost, mean share lost)</th><th>content: pairs changed · share of the original touched (mean / p95) · pairs that lost formatting</th><th>top new finding codes (pairs)</th></tr></thead>
<tbody>
{{range .Metrics}}<tr><td>{{.Group}}</td><td>{{losses .StructureLoss.Metrics}}</td><td>{{with .Content}}{{if .Compared}}{{pct .ChangedRate}} ({{.ChangedPairs}}) · {{pct .ChangedShare.Mean}} / {{pct .ChangedShare.P95}} · <span{{if .FormattingLostPairs}} class="warn"{{end}}>{{pct .FormattingLostRate}} ({{.FormattingLostPairs}})</span>{{if .Partial}} · {{.Partial}} compared in part{{end}}{{else}}not compared{{end}}{{end}}</td><td class="mono">{{codes .TopCodes}}</td></tr>
{{end}}</tbody>
</table>
</section>
{{if .Index}}<section>
<h2>Pairs</h2>
<table id="pairs">
<thead><tr><th data-k="n">id</th><th data-k="s">group</th><th data-k="s">verdict</th><th class="num" data-k="n">new findings</th><th data-k="s">codes</th><th class="num" data-k="n">structure lost</th><th data-k="s">shrunk</th><th class="num" data-k="n">content touched</th><th data-k="s">pages</th><th class="num" data-k="n">changed</th><th class="num" data-k="n">inserted</th><th class="num" data-k="n">deleted</th><th class="num" data-k="n">ms</th><th>report</th></tr></thead>
<tbody>
{{range $rank, $_ := .Rows}}<tr><td class="mono" data-v="{{$rank}}">{{.ID}}</td><td>{{.Group}}</td><td data-v="{{.Verdict}}"><span class="v v-{{.Verdict}}">{{.Verdict}}</span>{{if .Error}}<div class="err">{{.Error}}</div>{{end}}</td>
<td class="num" data-v="{{.NewFindings.Total}}">{{if .NewFindings.Total}}{{.NewFindings.Total}}{{if .NewFindings.Fatal}} <span class="bad">({{.NewFindings.Fatal}} fatal)</span>{{end}}{{end}}</td>
<td class="mono">{{.Codes}}</td><td class="num" data-v="{{.Lost}}">{{if .Lost}}{{.Lost}}{{end}}</td><td>{{.Shrunk}}</td><td class="num" data-v="{{.ContentChanged}}">{{if .ContentCompared}}{{.ContentChanged}}{{if .FormattingLost}} <span class="warn">({{.FormattingLost}} lost formatting)</span>{{end}}{{else}}—{{end}}</td><td>{{.PagesStatus}}</td>
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
