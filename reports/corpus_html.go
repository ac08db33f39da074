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
	// The index's pairs as data (see WriteIndexHTML), the formats and
	// groups to filter by, the page size, and how many pairs there are
	// (Rows holds the first page only).
	RowsJSON template.JS
	Formats  []string
	Groups   []string
	PageSize int
	Total    int
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
th[data-c] { cursor:pointer; user-select:none; }
th[data-c]:hover { color:var(--fg); }
.controls { display:flex; flex-wrap:wrap; gap:8px 14px; align-items:center; margin:0 0 10px; font-size:13px; color:var(--muted); }
.controls input, .controls select, .controls button { font:inherit; color:var(--fg); padding:3px 6px; border:1px solid var(--line); border-radius:6px; background:var(--card); }
.controls button:disabled { color:var(--line); }
.pager { margin-left:auto; white-space:nowrap; }
#pairs td:nth-child(2), #pairs td.mono { white-space:nowrap; }
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
<form class="controls" id="controls" onsubmit="return false">
<input type="search" id="q" placeholder="Search id, group, code, what shrank, error…" aria-label="search" size="36">
<label>verdict <select id="f-verdict"><option value="">all</option><option>blocked</option><option>passed</option><option>failed</option></select></label>
<label>format <select id="f-format"><option value="">all</option>{{range .Formats}}<option>{{.}}</option>{{end}}</select></label>
{{if .Groups}}<label>group <select id="f-group"><option value="">all</option>{{range .Groups}}<option>{{.}}</option>{{end}}</select></label>{{end}}
<label>per page <select id="f-size"><option>50</option><option selected>100</option><option>250</option><option>1000</option></select></label>
<span class="pager"><button type="button" id="prev">‹ prev</button> <span id="count">{{len .Rows}} of {{.Total}} pairs</span> <button type="button" id="next">next ›</button></span>
</form>
<noscript><p class="sub">Showing the first {{len .Rows}} of {{.Total}} pairs, by id; filtering, search and paging need JavaScript. Every pair is in results.jsonl.</p></noscript>
<table id="pairs">
<thead><tr><th data-c="0" data-k="n">id</th><th data-c="1">group</th><th data-c="2">verdict</th><th data-c="3">format</th><th class="num" data-c="5" data-k="n">new findings</th><th data-c="7">codes</th><th class="num" data-c="8" data-k="n">structure lost</th><th data-c="9">shrunk</th><th class="num" data-c="16" data-k="n">content touched</th><th data-c="10">pages</th><th class="num" data-c="11" data-k="n">changed</th><th class="num" data-c="12" data-k="n">inserted</th><th class="num" data-c="13" data-k="n">deleted</th><th class="num" data-c="14" data-k="n">ms</th><th>report</th></tr></thead>
<tbody>
{{range .Rows}}<tr><td class="mono">{{.ID}}</td><td>{{.Group}}</td><td><span class="v v-{{.Verdict}}">{{.Verdict}}</span>{{if .Error}}<div class="err">{{.Error}}</div>{{end}}</td><td>{{.Format}}</td>
<td class="num">{{if .NewFindings.Total}}{{.NewFindings.Total}}{{if .NewFindings.Fatal}} <span class="bad">({{.NewFindings.Fatal}} fatal)</span>{{end}}{{end}}</td>
<td class="mono">{{.Codes}}</td><td class="num">{{if .Lost}}{{.Lost}}{{end}}</td><td>{{.Shrunk}}</td><td class="num">{{if .ContentCompared}}{{.ContentChanged}}{{if .FormattingLost}} <span class="warn">({{.FormattingLost}} lost formatting)</span>{{end}}{{else}}—{{end}}</td><td>{{.PagesStatus}}</td>
<td class="num">{{if .Changed}}{{.Changed}}{{end}}</td><td class="num">{{if .Inserted}}{{.Inserted}}{{end}}</td><td class="num">{{if .Deleted}}{{.Deleted}}{{end}}</td>
<td class="num">{{.TotalMS}}</td><td>{{if .Report}}<a href="{{.Report}}">report</a>{{end}}</td></tr>
{{end}}</tbody>
</table>
</section>
<script type="application/json" id="rows">{{.RowsJSON}}</script>
<script>
(function () {
  // Each row: [id, group, verdict, format, error, findings, fatal, codes,
  // lost, shrunk, pages, changed, inserted, deleted, ms, report, content
  // touched (-1: not compared), formatting lost], in id order (the rank is
  // the id's natural order).
  var rows = JSON.parse(document.getElementById("rows").textContent);
  rows.forEach(function (r, i) { r.rank = i; r.hay = [r[0], r[1], r[2], r[3], r[4], r[7], r[9]].join(" ").toLowerCase(); });
  var $ = function (id) { return document.getElementById(id); };
  var body = $("pairs").tBodies[0], hs = $("pairs").tHead.rows[0].cells;
  var st = { q: "", verdict: "", format: "", group: "", size: 100, page: 0, col: -1, desc: false };
  var view = rows;
  function esc(s) {
    return String(s).replace(/[&<>"']/g, function (c) { return "&#" + c.charCodeAt(0) + ";"; });
  }
  function opt(n) { return n ? String(n) : ""; }
  function content(r) {
    if (r[16] < 0) return "—";
    return r[16] + (r[17] ? " <span class=\"warn\">(" + r[17] + " lost formatting)</span>" : "");
  }
  function rowHTML(r) {
    return "<tr><td class=\"mono\">" + esc(r[0]) + "</td><td>" + esc(r[1]) + "</td><td><span class=\"v v-" + esc(r[2]) + "\">" + esc(r[2]) + "</span>" +
      (r[4] ? "<div class=\"err\">" + esc(r[4]) + "</div>" : "") + "</td><td>" + esc(r[3]) + "</td><td class=\"num\">" +
      (r[5] ? r[5] + (r[6] ? " <span class=\"bad\">(" + r[6] + " fatal)</span>" : "") : "") + "</td><td class=\"mono\">" + esc(r[7]) +
      "</td><td class=\"num\">" + opt(r[8]) + "</td><td>" + esc(r[9]) + "</td><td class=\"num\">" + content(r) + "</td><td>" + esc(r[10]) + "</td><td class=\"num\">" + opt(r[11]) +
      "</td><td class=\"num\">" + opt(r[12]) + "</td><td class=\"num\">" + opt(r[13]) + "</td><td class=\"num\">" + r[14] + "</td><td>" +
      (r[15] ? "<a href=\"" + esc(r[15]) + "\">report</a>" : "") + "</td></tr>";
  }
  function refilter() {
    var q = st.q.toLowerCase().split(/\s+/).filter(Boolean);
    view = rows.filter(function (r) {
      if (st.verdict && r[2] !== st.verdict) return false;
      if (st.format && r[3] !== st.format) return false;
      if (st.group && r[1] !== st.group) return false;
      for (var i = 0; i < q.length; i++) if (r.hay.indexOf(q[i]) < 0) return false;
      return true;
    });
    if (st.col >= 0) {
      var c = st.col, num = hs[colIndex(c)].getAttribute("data-k") === "n", d = st.desc ? -1 : 1;
      view = view.slice().sort(function (a, b) {
        var x = c === 0 ? a.rank : a[c], y = c === 0 ? b.rank : b[c];
        if (!num) { x = String(x).toLowerCase(); y = String(y).toLowerCase(); }
        return (x < y ? -1 : x > y ? 1 : a.rank - b.rank) * d;
      });
    }
    draw();
  }
  function colIndex(c) {
    for (var i = 0; i < hs.length; i++) if (hs[i].getAttribute("data-c") === String(c)) return i;
    return 0;
  }
  function draw() {
    var pages = Math.max(1, Math.ceil(view.length / st.size));
    st.page = Math.min(st.page, pages - 1);
    var from = st.page * st.size, part = view.slice(from, from + st.size);
    body.innerHTML = part.map(rowHTML).join("");
    $("count").textContent = view.length ? (from + 1) + "–" + (from + part.length) + " of " + view.length +
      (view.length < rows.length ? " matching (" + rows.length + " pairs)" : " pairs") + " · page " + (st.page + 1) + " of " + pages
      : "no pair matches (" + rows.length + " pairs)";
    $("prev").disabled = st.page === 0;
    $("next").disabled = st.page >= pages - 1;
    document.body.setAttribute("data-shown", part.length);
    document.body.setAttribute("data-matching", view.length);
  }
  function bind(id, key, num) {
    var el = $(id);
    if (!el) return;
    el.addEventListener("input", function () { st[key] = num ? parseInt(el.value, 10) : el.value; st.page = 0; refilter(); });
  }
  bind("q", "q"); bind("f-verdict", "verdict"); bind("f-format", "format"); bind("f-group", "group"); bind("f-size", "size", true);
  $("prev").addEventListener("click", function () { st.page--; draw(); });
  $("next").addEventListener("click", function () { st.page++; draw(); });
  Array.prototype.forEach.call(hs, function (h) {
    var c = h.getAttribute("data-c");
    if (c === null) return;
    h.addEventListener("click", function () {
      var col = parseInt(c, 10);
      st.desc = st.col === col ? !st.desc : false;
      st.col = col;
      Array.prototype.forEach.call(hs, function (o) { o.classList.remove("asc", "desc"); });
      h.classList.add(st.desc ? "desc" : "asc");
      refilter();
    });
  });
  refilter();
})();
</script>
{{end}}<footer>{{.S.Schema}} · results in results.jsonl, metrics in summary.json</footer>
</main>
</body>
</html>
`
