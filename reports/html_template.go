package reports

// htmlSource is the one template of the audit and check HTML reports. It is
// self-contained: inline CSS, the system font stack, no script, no external
// resource. Colours follow a restrained palette: red only for what blocks,
// amber for what shrank or needs a look, green for a pass.
const htmlSource = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="editaudit">
<title>{{.Title}}</title>
<style>
:root {
  --fg: #1f2328; --muted: #59636e; --faint: #818b98; --line: #d1d9e0; --soft: #eef1f4;
  --bg: #f6f8fa; --card: #ffffff;
  --red: #cf222e; --red-ink: #a40e26; --red-bg: #ffebe9; --red-line: #ffcecb;
  --green: #1a7f37; --green-ink: #116329; --green-bg: #dafbe1; --green-line: #aceebb;
  --amber: #9a6700; --amber-ink: #7d4e00; --amber-bg: #fff8c5; --amber-line: #eed888;
  --blue-ink: #0550ae; --blue-bg: #ddf4ff; --blue-line: #b6e3ff;
  --mono: ui-monospace, SFMono-Regular, "SF Mono", Menlo, Consolas, "Liberation Mono", "DejaVu Sans Mono", monospace;
}
* { box-sizing: border-box; }
html { background: var(--bg); }
body { margin: 0; color: var(--fg);
  font: 14px/1.5 -apple-system, BlinkMacSystemFont, "Segoe UI", "Noto Sans", Helvetica, Arial, "Liberation Sans", sans-serif;
  -webkit-font-smoothing: antialiased; }
main { max-width: 1120px; margin: 0 auto; padding: 28px 32px 40px; }
header.top { margin-bottom: 18px; }
.kicker { font-size: 12px; font-weight: 600; letter-spacing: .06em; text-transform: uppercase; color: var(--muted); }
h1 { font-size: 24px; line-height: 1.25; margin: 4px 0 12px; font-weight: 600; word-break: break-all; }
h2 { font-size: 16px; margin: 0 0 12px; font-weight: 600; display: flex; align-items: baseline; gap: 8px; }
h2 .count { font-size: 12px; font-weight: 500; color: var(--muted); background: var(--soft); border-radius: 10px; padding: 1px 8px; }
.files { display: grid; grid-template-columns: auto 1fr; gap: 2px 14px; font-size: 13px; color: var(--muted); }
.files .role { font-weight: 600; color: var(--fg); }
.files code { font-family: var(--mono); font-size: 12px; color: var(--fg); word-break: break-all; }
.files .meta { color: var(--faint); }
.verdict { display: flex; gap: 16px; align-items: flex-start; border: 1px solid; border-left-width: 6px;
  border-radius: 8px; padding: 16px 20px; margin: 0 0 18px; }
.verdict.blocked { background: var(--red-bg); border-color: var(--red-line); border-left-color: var(--red); }
.verdict.passed { background: var(--green-bg); border-color: var(--green-line); border-left-color: var(--green); }
.verdict .label { flex: none; font-weight: 700; font-size: 13px; letter-spacing: .05em; text-transform: uppercase;
  color: #fff; border-radius: 6px; padding: 4px 10px; margin-top: 2px; }
.verdict.blocked .label { background: var(--red); }
.verdict.passed .label { background: var(--green); }
.verdict .headline { font-size: 18px; font-weight: 600; }
.verdict.blocked .headline { color: var(--red-ink); }
.verdict.passed .headline { color: var(--green-ink); }
.verdict p { margin: 2px 0 0; color: var(--fg); }
.tiles { display: grid; grid-template-columns: repeat(auto-fit, minmax(200px, 1fr)); gap: 12px; margin: 0 0 18px; }
.tile { background: var(--card); border: 1px solid var(--line); border-radius: 8px; padding: 12px 16px; border-top: 3px solid var(--line); }
.tile.bad { border-top-color: var(--red); }
.tile.warn { border-top-color: #d4a72c; }
.tile.good { border-top-color: var(--green); }
.tile .t-label { font-size: 12px; color: var(--muted); font-weight: 500; }
.tile .t-value { font-size: 26px; font-weight: 600; line-height: 1.2; font-variant-numeric: tabular-nums; }
.tile.bad .t-value { color: var(--red-ink); }
.tile .t-note { font-size: 12px; color: var(--muted); white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
section.card { background: var(--card); border: 1px solid var(--line); border-radius: 8px; padding: 18px 20px; margin: 0 0 18px; }
table { width: 100%; border-collapse: collapse; font-size: 13px; }
th { text-align: left; font-weight: 600; color: var(--muted); font-size: 12px; padding: 6px 10px; border-bottom: 1px solid var(--line); background: var(--bg); }
td { padding: 8px 10px; border-bottom: 1px solid var(--soft); vertical-align: top; }
tr:last-child td { border-bottom: none; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
.mono { font-family: var(--mono); font-size: 12px; }
.loc { word-break: break-all; }
.loc .part { color: var(--fg); }
.loc .lc { color: var(--blue-ink); }
.loc .xpath { display: block; color: var(--faint); margin-top: 2px; }
.fix { margin-top: 4px; color: var(--muted); }
.fix b { color: var(--green-ink); font-weight: 600; }
.badge { display: inline-block; font-size: 11px; font-weight: 600; line-height: 18px; padding: 0 8px; border-radius: 10px;
  border: 1px solid; text-transform: uppercase; letter-spacing: .03em; white-space: nowrap; }
.g-fatal { background: var(--red); border-color: var(--red); color: #fff; }
.g-error { background: var(--red-bg); border-color: var(--red-line); color: var(--red-ink); }
.g-warning { background: var(--amber-bg); border-color: var(--amber-line); color: var(--amber-ink); }
.g-info { background: var(--blue-bg); border-color: var(--blue-line); color: var(--blue-ink); }
.b-chg { background: var(--amber-bg); border-color: var(--amber-line); color: var(--amber-ink); }
.b-ins { background: var(--green-bg); border-color: var(--green-line); color: var(--green-ink); }
.b-del { background: var(--red-bg); border-color: var(--red-line); color: var(--red-ink); }
.empty { color: var(--muted); margin: 0; }
.note { color: var(--muted); margin: 10px 0 0; font-size: 13px; }
.cut { color: var(--amber-ink); margin: 10px 0 0; font-size: 13px; }
tr.shrunk td { background: #fffbe6; }
tr.shrunk td:first-child { box-shadow: inset 3px 0 0 #d4a72c; font-weight: 600; }
.down { color: var(--red-ink); font-weight: 600; }
.up { color: var(--green-ink); }
.same { color: var(--faint); }
.where { color: var(--fg); }
.notice { border-radius: 6px; padding: 10px 14px; margin: 0; border: 1px solid; }
.notice.failed { background: var(--amber-bg); border-color: var(--amber-line); color: var(--amber-ink); }
.notice.off { background: var(--bg); border-color: var(--line); color: var(--muted); }
dl.summary { display: grid; grid-template-columns: max-content 1fr; gap: 4px 18px; margin: 0 0 16px; font-size: 13px; }
dl.summary dt { color: var(--muted); font-weight: 500; }
dl.summary dd { margin: 0; font-variant-numeric: tabular-nums; }
figure { margin: 0 0 16px; border: 1px solid var(--line); border-radius: 8px; overflow: hidden; background: var(--card); }
figure:last-child { margin-bottom: 0; }
figure .f-head { display: flex; align-items: center; gap: 10px; padding: 8px 14px; border-bottom: 1px solid var(--line); background: var(--bg); }
figure .f-title { font-weight: 600; }
figure .f-cap { color: var(--muted); font-size: 12px; }
figure .f-body { background: #e9edf1; padding: 12px; text-align: center; }
figure img { display: block; max-width: 100%; height: auto; margin: 0 auto; box-shadow: 0 1px 3px rgba(31,35,40,.18); background: #fff; }
figure .missing { color: var(--muted); padding: 24px; }
.legend { font-size: 12px; color: var(--muted); margin: 0 0 12px; }
details > summary { cursor: pointer; font-weight: 600; font-size: 16px; }
pre.feedback { font-family: var(--mono); font-size: 12px; line-height: 1.55; white-space: pre-wrap; word-break: break-word;
  background: var(--bg); border: 1px solid var(--line); border-radius: 6px; padding: 12px 14px; margin: 12px 0 0; }
.rl { white-space: pre-wrap; word-break: break-word; }
.rl del { background: var(--red-bg); color: var(--red-ink); text-decoration: line-through; text-decoration-thickness: 1px; border-radius: 2px; padding: 0 1px; }
.rl ins { background: var(--green-bg); color: var(--green-ink); text-decoration: underline; text-underline-offset: 2px; border-radius: 2px; padding: 0 1px; }
.rl .arrow { color: var(--faint); margin: 0 6px; }
.rl .quote { color: var(--muted); display: block; margin-top: 2px; }
.detail { color: var(--muted); font-size: 12px; margin-top: 2px; }
.k-text, .k-cell { background: var(--blue-bg); border-color: var(--blue-line); color: var(--blue-ink); }
.k-format { background: var(--soft); border-color: var(--line); color: var(--muted); }
.k-inserted { background: var(--green-bg); border-color: var(--green-line); color: var(--green-ink); }
.k-deleted { background: var(--red-bg); border-color: var(--red-line); color: var(--red-ink); }
.k-moved { background: var(--soft); border-color: var(--line); color: var(--fg); }
tr.lost td { background: #fffbe6; }
tr.lost td:first-child { box-shadow: inset 3px 0 0 #d4a72c; }
tr.lost .k-format { background: var(--amber-bg); border-color: var(--amber-line); color: var(--amber-ink); }
.loc .from { display: block; color: var(--muted); font-size: 12px; }
footer { color: var(--faint); font-size: 12px; text-align: center; margin-top: 8px; }
footer span + span::before { content: "·"; margin: 0 8px; }
@media print { html { background: #fff; } section.card, .tile, figure { break-inside: avoid; } }
</style>
</head>
<body>
<main>
<header class="top">
  <div class="kicker">{{.Kicker}}</div>
  <h1>{{.Heading}}</h1>
  <div class="files">
  {{- range .Files}}
    <span class="role">{{.Role}}</span>
    <span><code>{{.Path}}</code>{{if .Format}} <span class="meta">· {{.Format}}</span>{{end}}{{if .Pages}} <span class="meta">· {{.Pages}} pages</span>{{end}}{{if .SHA}} <span class="meta">· sha256 {{.SHA}}…</span>{{end}}</span>
  {{- end}}
  </div>
</header>

<div class="verdict {{.Verdict.Class}}" role="status">
  <span class="label">{{.Verdict.Label}}</span>
  <div>
    <div class="headline">{{.Verdict.Headline}}</div>
    {{- range .Verdict.Details}}
    <p>{{.}}</p>
    {{- end}}
  </div>
</div>

<div class="tiles">
{{- range .Tiles}}
  <div class="tile {{.Class}}"><div class="t-label">{{.Label}}</div><div class="t-value">{{.Value}}</div><div class="t-note">{{.Note}}</div></div>
{{- end}}
</div>

<section class="card" id="findings">
  <h2>{{.Findings.Title}} <span class="count">{{len .Findings.Rows}}</span></h2>
  {{- if .Findings.Rows}}
  <table>
    <thead><tr><th style="width:90px">Grade</th><th style="width:170px">Code</th><th style="width:300px">Location</th><th>What is wrong · how to fix it</th></tr></thead>
    <tbody>
    {{- range .Findings.Rows}}
      <tr>
        <td><span class="badge g-{{.Grade}}">{{.Grade}}</span></td>
        <td class="mono">{{.Code}}</td>
        <td class="mono loc"><span class="part">{{.Part}}</span>{{if .LineCol}}<span class="lc">:{{.LineCol}}</span>{{end}}{{if .Locator}}<span class="xpath">{{.Locator}}</span>{{end}}</td>
        <td>{{.Message}}{{if .Fix}}<div class="fix"><b>Fix</b> {{.Fix}}</div>{{end}}</td>
      </tr>
    {{- end}}
    </tbody>
  </table>
  {{- else}}
  <p class="empty">{{.Findings.Empty}}</p>
  {{- end}}
  {{- if .Findings.Cut}}
  <p class="cut">{{.Findings.Cut}}</p>
  {{- end}}
  {{- range .Notes}}
  <p class="note">{{.}}</p>
  {{- end}}
</section>

{{- if .Structure.Show}}
<section class="card" id="structure">
  <h2>{{.Structure.Title}}</h2>
  <table>
    {{- if .Structure.Columns}}
    <thead><tr><th style="width:180px">Metric</th><th class="num" style="width:90px">Before</th><th class="num" style="width:90px">After</th><th class="num" style="width:90px">Change</th><th>Where</th></tr></thead>
    <tbody>
    {{- range .Structure.Rows}}
      <tr class="{{.Class}}"><td>{{.Metric}}</td><td class="num">{{.Before}}</td><td class="num">{{.After}}</td><td class="num {{.DeltaClass}}">{{.Delta}}</td><td class="where">{{.Where}}</td></tr>
    {{- end}}
    </tbody>
    {{- else}}
    <thead><tr><th style="width:180px">Metric</th><th class="num" style="width:90px">Count</th><th></th></tr></thead>
    <tbody>
    {{- range .Structure.Rows}}
      <tr><td>{{.Metric}}</td><td class="num">{{.Before}}</td><td></td></tr>
    {{- end}}
    </tbody>
    {{- end}}
  </table>
  {{- if .Structure.Note}}
  <p class="note">{{.Structure.Note}}</p>
  {{- end}}
</section>
{{- end}}

{{- if .Content.Show}}
<section class="card" id="content">
  <h2>Content{{if .Content.Rows}} <span class="count">{{len .Content.Rows}} shown</span>{{end}}</h2>
  {{- if .Content.Notice}}
  <p class="notice {{.Content.NoticeClass}}">{{.Content.Notice}}</p>
  {{- end}}
  {{- if .Content.Summary}}
  <dl class="summary">
  {{- range .Content.Summary}}
    <dt>{{index . 0}}</dt><dd>{{index . 1}}</dd>
  {{- end}}
  </dl>
  {{- end}}
  {{- if .Content.Rows}}
  <p class="legend">Redline: <span class="rl"><del>deleted</del> <ins>inserted</ins></span>; numbers count the edited file's paragraphs (the original's for a deletion).</p>
  <table>
    <thead><tr><th style="width:130px">Change</th><th style="width:300px">Where</th><th>What changed</th></tr></thead>
    <tbody>
    {{- range .Content.Rows}}
      <tr{{if .Lost}} class="lost"{{end}}>
        <td><span class="badge k-{{.KindClass}}">{{.Kind}}</span></td>
        <td class="loc"><span class="where">{{.Where}}</span>{{if .From}}<span class="from">from {{.From}}</span>{{end}}<span class="xpath mono">{{.Part}}</span></td>
        <td><div class="rl">
          {{- if .Pieces}}{{range .Pieces}}{{if eq .Op "-"}}<del>{{.Text}}</del>{{else if eq .Op "+"}}<ins>{{.Text}}</ins>{{else}}{{.Text}}{{end}}{{end}}
          {{- else if .Arrow}}<del>{{.Before}}</del><span class="arrow">→</span><ins>{{.After}}</ins>
          {{- else if .After}}<ins>{{.After}}</ins>
          {{- else if .Before}}<del>{{.Before}}</del>
          {{- end}}
          {{- if .Text}}<span class="quote">“{{.Text}}”</span>{{end}}</div>
          {{- if .Detail}}<div class="detail">{{.Detail}}</div>{{end}}</td>
      </tr>
    {{- end}}
    </tbody>
  </table>
  {{- else if .Content.Empty}}
  <p class="empty">{{.Content.Empty}}</p>
  {{- end}}
  {{- if .Content.Cut}}
  <p class="cut">{{.Content.Cut}}</p>
  {{- end}}
</section>
{{- end}}

<section class="card" id="pages">
  <h2>Pages{{if .Pages.Figures}} <span class="count">{{len .Pages.Figures}} shown</span>{{end}}</h2>
  {{- if .Pages.Notice}}
  <p class="notice {{.Pages.Status}}">{{.Pages.Notice}}</p>
  {{- end}}
  {{- if .Pages.Summary}}
  <dl class="summary">
  {{- range .Pages.Summary}}
    <dt>{{index . 0}}</dt><dd>{{index . 1}}</dd>
  {{- end}}
  </dl>
  {{- end}}
  {{- if .Pages.Figures}}
  {{- range .Pages.Figures}}
  <figure>
    <div class="f-head"><span class="f-title">{{.Title}}</span>{{if .Badge}}<span class="badge b-{{.BadgeClass}}">{{.Badge}}</span>{{end}}<span class="f-cap">{{.Caption}}</span></div>
    <div class="f-body">{{if .Src}}<img src="{{.Src}}" alt="{{.Caption}}">{{else}}<div class="missing">{{.Missing}}</div>{{end}}</div>
  </figure>
  {{- end}}
  {{- end}}
</section>

<section class="card" id="feedback">
  <details open>
    <summary>Model feedback</summary>
    <p class="note">The text an editing model receives (<code>{{.FeedbackNote}}</code>); the same caps apply.</p>
    <pre class="feedback">{{.Feedback}}</pre>
  </details>
</section>

<footer>{{range .Footer}}<span>{{.}}</span>{{end}}</footer>
</main>
</body>
</html>
`
