package reports

import (
	"encoding/base64"
	"fmt"
	"html/template"
	"io"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/editaudit/editaudit/audit"
	"github.com/editaudit/editaudit/formats"
	"github.com/editaudit/editaudit/internal/plural"
)

// DefaultHTMLMaxFindings is the number of findings the HTML report lists
// when HTMLOptions.MaxFindings is 0; the rest are counted, and the cap is
// stated.
const DefaultHTMLMaxFindings = 500

// HTMLOptions tunes WriteHTML and WriteCheckHTML. The zero value is fine.
type HTMLOptions struct {
	// Version is the editaudit version named in the footer ("" leaves it
	// out, which keeps the file byte-stable across builds).
	Version string
	// MaxFindings caps the findings table (0: DefaultHTMLMaxFindings).
	MaxFindings int
	// LinkImages links a shown page whose composite was also written
	// beside the report (its Image, relative to the report's folder)
	// instead of embedding a base64 copy: each image is then stored once,
	// and the report needs its pages/ folder. Pages without an Image are
	// embedded either way.
	LinkImages bool
	// MaxContentChanges caps the content redline (0:
	// DefaultHTMLMaxContentChanges).
	MaxContentChanges int
}

// WriteHTML writes r as one self-contained HTML file (`--format html`): no
// external resource, no script; the page images are embedded as data: URIs
// (a shown page without JPEG bytes, or any page with an Image under
// LinkImages, is a link to its Image, relative to the output folder). It holds the verdict banner, the new
// findings with grade, part, line:column, locator, message and fix, the
// original's problems in one line, the structure table with shrunk metrics
// highlighted, the content changes as a redline per location (deletions
// struck, insertions underlined; at most MaxContentChanges), the pages summary with the before/after composites, the
// model feedback and the toolchain. Byte-stable for the same inputs.
func WriteHTML(w io.Writer, r *audit.Result, opts HTMLOptions) error {
	return htmlTemplate.Execute(w, auditView(r, opts))
}

// WriteCheckHTML writes the check of a new file as one self-contained HTML
// file: verdict, findings, structure counts and the first rendered pages.
func WriteCheckHTML(w io.Writer, rep *formats.Report, pages []CheckPage) error {
	return htmlTemplate.Execute(w, checkView(rep, pages, HTMLOptions{}))
}

// WriteCheckHTMLWith is WriteCheckHTML with the pages fitted into the page
// cap and byte budget the model output has (FitCheckPages): the pages
// that fit are drawn and a notice under them says what was cut.
func WriteCheckHTMLWith(w io.Writer, rep *formats.Report, pages []CheckPage, pageCap int, opts ModelOptions) error {
	kept, note, err := FitCheckPages(rep, pages, pageCap, opts)
	if err != nil {
		return err
	}
	v := checkView(rep, kept, HTMLOptions{})
	if total := pagesTotal(pages); total > 0 && len(kept) < total {
		v.Feedback = checkFeedbackOf(rep, kept, total)
		if len(kept) == 0 {
			v.Pages = pagesView{Status: "ok"}
		}
		v.Pages.Notice = fmt.Sprintf("%d of %d pages shown.", len(kept), total)
	}
	if note != "" {
		v.Pages.Notice = strings.TrimSpace(v.Pages.Notice + " " + note)
	}
	return htmlTemplate.Execute(w, v)
}

// view is what the template draws; audit and check reports share it.
type view struct {
	Title    string
	Kicker   string
	Heading  string
	Verdict  verdictView
	Files    []fileView
	Tiles    []tileView
	Findings findingsView
	// Notes are one-line paragraphs under the findings (pre-existing,
	// resolved).
	Notes     []string
	Structure structureView
	Content   contentView
	Pages     pagesView
	Feedback  string
	// FeedbackNote names the output formats that carry Feedback.
	FeedbackNote string
	Footer       []string
}

type verdictView struct {
	Class, Label, Headline string
	Details                []string
}

type fileView struct {
	Role, Path, Format, SHA, Pages string
}

type tileView struct {
	Class, Label, Value, Note string
}

type findingsView struct {
	Title string
	Empty string
	Rows  []findingRow
	Cut   string
}

type findingRow struct {
	Grade, Code, Part, LineCol, Locator, Message, Fix string
}

type structureView struct {
	Show    bool
	Title   string
	Columns bool // before/after/change columns (audit) or a single count (check)
	Rows    []metricRow
	Note    string
}

type metricRow struct {
	Class, Metric, Before, After, Delta, DeltaClass, Where string
}

type pagesView struct {
	Status  string // "ok", or a notice class
	Notice  string
	Summary [][2]string
	Figures []figureView
}

type figureView struct {
	Title, Badge, BadgeClass, Caption string
	Src                               template.URL
	Missing                           string
}

func auditView(r *audit.Result, opts HTMLOptions) view {
	if opts.MaxFindings <= 0 {
		opts.MaxFindings = DefaultHTMLMaxFindings
	}
	fs := append([]formats.Finding(nil), r.NewFindings...)
	formats.Sort(fs)
	t := formats.TallyOf(fs)

	v := view{Kicker: "editaudit · audit report"}
	v.Heading = baseName(r.Edited.Path, "edited file")
	v.Title = "editaudit: " + v.Heading

	if r.Blocked {
		v.Verdict = verdictView{Class: "blocked", Label: "Blocked",
			Headline: fmt.Sprintf("The edit introduced %d fatal %s.", t.Fatal, plural.Word(t.Fatal, "defect", "defects")),
			Details:  []string{"The application will refuse this file or repair it by removing content."}}
		if t.Fatal == 0 {
			v.Verdict.Headline = "The edit introduced a fatal defect."
		}
		if formats.FileMissing(fs) {
			v.Verdict.Headline = "The edited file is not there."
			v.Verdict.Details = []string{"There is no document to open, so nothing was compared (file.missing)."}
		}
	} else {
		v.Verdict = verdictView{Class: "passed", Label: "Passed", Headline: "Nothing new at fatal.",
			Details: []string{"The application will open the edited file as it opened the original."}}
	}
	if r.Restored {
		d := "The original was restored at the edited path."
		if r.RejectedCopy != "" {
			d += " The rejected edit is kept as " + r.RejectedCopy + "."
		}
		if r.RestoreNote != "" {
			d += " Note: " + r.RestoreNote + "."
		}
		v.Verdict.Details = append(v.Verdict.Details, d)
	}

	v.Files = []fileView{fileOf("Original", r.Original), fileOf("Edited", r.Edited)}

	// Tiles: the four numbers a reader looks for first.
	nf := tileView{Label: "New findings", Value: strconv.Itoa(t.Total), Note: "none", Class: "good"}
	if t.Total > 0 {
		nf.Note = tallyDots(t)
		nf.Class = "warn"
		if t.Fatal > 0 {
			nf.Class = "bad"
		}
	}
	pre := tileView{Label: "Already in the original", Value: strconv.Itoa(r.Preexisting.Total), Note: "none", Class: "neutral"}
	if r.Preexisting.Total > 0 {
		pre.Note = fmt.Sprintf("%d fatal · not the edit's", r.Preexisting.Fatal)
	}
	st := tileView{Label: "Structure shrunk", Value: strconv.Itoa(len(r.Structure.Shrunk)), Note: "nothing lost", Class: "good"}
	if len(r.Structure.Shrunk) > 0 {
		var ms []string
		for _, s := range r.Structure.Shrunk {
			ms = append(ms, s.Metric)
		}
		st.Note = strings.Join(ms, ", ")
		st.Class = "warn"
	}
	pt := pagesTile(&r.Pages)
	missing := formats.FileMissing(fs)
	if missing {
		st = tileView{Label: "Structure shrunk", Value: "–", Note: "not compared", Class: "neutral"}
		pt.Note = "no edited file"
	}
	v.Tiles = []tileView{nf, pre, st}
	if ct, ok := contentTile(r); ok {
		v.Tiles = append(v.Tiles, ct)
	}
	v.Tiles = append(v.Tiles, pt)

	v.Findings = findingsOf(fs, opts.MaxFindings, "New findings", "The edit introduced no findings.")
	if n := r.Preexisting.Total; n > 0 {
		they := "they are not the edit's and are not listed"
		if n == 1 {
			they = "it is not the edit's and is not listed"
		}
		v.Notes = append(v.Notes, fmt.Sprintf("The original already had %d %s (%s); %s.",
			n, plural.Word(n, "problem", "problems"), audit.TallyWords(r.Preexisting), they))
	}
	if n := len(r.Resolved); n > 0 {
		v.Notes = append(v.Notes, fmt.Sprintf("The edit fixed %d %s the original had.", n, plural.Word(n, "problem", "problems")))
	}

	v.Structure = structureOf(&r.Structure)
	if opts.MaxContentChanges <= 0 {
		opts.MaxContentChanges = DefaultHTMLMaxContentChanges
	}
	v.Content = contentOf(r, opts.MaxContentChanges)
	v.Pages = pagesOf(r, opts)
	if missing {
		v.Structure = countsView("Structure of the original", r.Structure.Before)
		v.Structure.Note = "Not compared: there is no edited file to read."
		v.Pages = pagesView{Status: "off", Notice: "Pages were not compared: there is no edited file to render."}
	}
	v.Feedback = feedbackOf(r)
	v.FeedbackNote = "--format text and model"

	v.Footer = footer(opts.Version, audit.Schema, r.Pages.Toolchain)
	return v
}

func checkView(rep *formats.Report, pages []CheckPage, opts HTMLOptions) view {
	if opts.MaxFindings <= 0 {
		opts.MaxFindings = DefaultHTMLMaxFindings
	}
	fs := append([]formats.Finding(nil), rep.Findings...)
	formats.Sort(fs)
	t := formats.TallyOf(fs)

	v := view{Kicker: "editaudit · check report"}
	v.Heading = baseName(rep.Path, "new file")
	v.Title = "editaudit: " + v.Heading
	if t.Fatal > 0 {
		v.Verdict = verdictView{Class: "blocked", Label: "Fatal",
			Headline: fmt.Sprintf("The file has %d fatal %s.", t.Fatal, plural.Word(t.Fatal, "defect", "defects")),
			Details:  []string{"The application will refuse this file or repair it by removing content."}}
		if formats.FileMissing(fs) {
			v.Verdict.Headline = "The file is not there."
			v.Verdict.Details = []string{"There is no document to open (file.missing)."}
		}
	} else {
		v.Verdict = verdictView{Class: "passed", Label: "OK", Headline: "Nothing at fatal.",
			Details: []string{"The application should open this file without a repair dialog."}}
	}
	format := string(rep.Format)
	if rep.Flavor != "" {
		format = rep.Flavor
	}
	fv := fileView{Role: "File", Path: rep.Path, Format: format, SHA: shortSHA(rep.SHA256)}
	if len(pages) > 0 && pages[0].Total > 0 {
		fv.Pages = strconv.Itoa(pages[0].Total)
	}
	v.Files = []fileView{fv}

	ft := tileView{Label: "Findings", Value: strconv.Itoa(t.Total), Note: "none", Class: "good"}
	if t.Total > 0 {
		ft.Note = tallyDots(t)
		ft.Class = "warn"
		if t.Fatal > 0 {
			ft.Class = "bad"
		}
	}
	pt := tileView{Label: "Pages shown", Value: strconv.Itoa(len(pages)), Note: "not rendered", Class: "neutral"}
	if len(pages) > 0 {
		pt.Note = "as rendered"
		if pages[0].Total > 0 {
			pt.Note = fmt.Sprintf("of %d", pages[0].Total)
		}
	}
	v.Tiles = []tileView{ft, pt}
	v.Findings = findingsOf(fs, opts.MaxFindings, "Findings", "No findings.")

	if len(rep.Counts) > 0 {
		v.Structure = countsView("Structure", rep.Counts)
	}
	v.Pages = pagesView{Status: "ok"}
	if len(pages) == 0 {
		v.Pages = pagesView{Status: "off", Notice: "No pages attached: the file was not rendered."}
	}
	for _, p := range pages {
		f := figureView{Title: fmt.Sprintf("Page %d", p.Page), Caption: "as rendered"}
		if p.Total > 0 {
			f.Title += fmt.Sprintf(" of %d", p.Total)
		}
		if len(p.JPEG) > 0 {
			f.Src = dataURI(p.JPEG)
		} else {
			f.Missing = "image not available"
		}
		v.Pages.Figures = append(v.Pages.Figures, f)
	}
	v.Feedback = checkFeedback(rep, pages)
	v.FeedbackNote = "--format model"
	v.Footer = footer(opts.Version, CheckSchema, "")
	return v
}

func footer(version, schema, toolchain string) []string {
	tool := "editaudit"
	if version != "" {
		tool += " " + version
	}
	out := []string{tool, "schema " + schema}
	if toolchain != "" {
		out = append(out, "renderer: "+toolchain)
	}
	return out
}

func fileOf(role string, f audit.FileInfo) fileView {
	fv := fileView{Role: role, Path: f.Path, Format: string(f.Format), SHA: shortSHA(f.SHA256)}
	if f.Pages > 0 {
		fv.Pages = strconv.Itoa(f.Pages)
	}
	return fv
}

func pagesTile(p *audit.Pages) tileView {
	switch p.Status {
	case audit.PagesOK:
	case audit.PagesFailed:
		return tileView{Label: "Pages changed", Value: "–", Note: "rendering failed", Class: "warn"}
	case audit.PagesUnsupported:
		return tileView{Label: "Pages changed", Value: "–", Note: "no renderer", Class: "neutral"}
	default:
		return tileView{Label: "Pages changed", Value: "–", Note: "not rendered", Class: "neutral"}
	}
	if p.Identical {
		return tileView{Label: "Pages changed", Value: "0", Note: "identical file", Class: "good"}
	}
	n := len(p.Changed) + len(p.Inserted) + len(p.Deleted)
	t := tileView{Label: "Pages changed", Value: strconv.Itoa(n), Class: "neutral",
		Note: fmt.Sprintf("%d → %d pages", p.Before, p.After)}
	if len(p.Shown) > 0 {
		t.Note += fmt.Sprintf(" · %d shown", len(p.Shown))
	}
	return t
}

func findingsOf(fs []formats.Finding, max int, title, empty string) findingsView {
	v := findingsView{Title: title, Empty: empty}
	for i, f := range fs {
		if i == max {
			v.Cut = fmt.Sprintf("… and %d more not listed (cap %d).", len(fs)-max, max)
			break
		}
		row := findingRow{Grade: string(f.Grade), Code: f.Code, Part: f.Part, Locator: f.Locator,
			Message: f.Message, Fix: f.Fix}
		switch {
		case f.Code == formats.CodeFileMissing:
			row.Part = "(file)"
		case f.Part == "":
			row.Part = "(package)"
		}
		if f.Line > 0 {
			row.LineCol = strconv.Itoa(f.Line)
			if f.Column > 0 {
				row.LineCol += ":" + strconv.Itoa(f.Column)
			}
		}
		v.Rows = append(v.Rows, row)
	}
	return v
}

// countsView is a table of one document's counts (no before/after).
func countsView(title string, c formats.Counts) structureView {
	v := structureView{Show: true, Title: title}
	for _, k := range c.Keys() {
		v.Rows = append(v.Rows, metricRow{Metric: k, Before: strconv.Itoa(c[k])})
	}
	return v
}

func structureOf(s *audit.Structure) structureView {
	v := structureView{Show: true, Title: "Structure", Columns: true}
	shrunk := map[string]audit.Shrink{}
	for _, sh := range s.Shrunk {
		shrunk[sh.Metric] = sh
	}
	keys := map[string]bool{}
	for k := range s.Before {
		keys[k] = true
	}
	for k := range s.After {
		keys[k] = true
	}
	for _, sh := range s.Shrunk {
		keys[sh.Metric] = true
	}
	var names []string
	for k := range keys {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		b, a := s.Before[k], s.After[k]
		row := metricRow{Metric: k, Before: strconv.Itoa(b), After: strconv.Itoa(a)}
		if sh, ok := shrunk[k]; ok {
			b, a = sh.Before, sh.After
			row.Before, row.After = strconv.Itoa(b), strconv.Itoa(a)
			row.Class = "shrunk"
			row.Where = sh.Where
		}
		switch d := a - b; {
		case slices.Contains(s.Unknown, k):
			// A part that did not parse contributes to it: its count is
			// partial on that side, so no difference is stated.
			row.Delta, row.DeltaClass = "unknown", "same"
			row.Where = "not compared: " + strings.Join(s.NotCounted, ", ") + " did not parse"
		case d < 0:
			row.Delta, row.DeltaClass = "−"+strconv.Itoa(-d), "down"
		case d > 0:
			row.Delta, row.DeltaClass = "+"+strconv.Itoa(d), "up"
		default:
			row.Delta, row.DeltaClass = "0", "same"
		}
		v.Rows = append(v.Rows, row)
	}
	switch {
	case s.Incomplete:
		v.Note = "Not counted: " + strings.Join(s.NotCounted, ", ") + " did not parse; the metrics marked unknown are partial counts and are not compared."
	case len(s.Shrunk) == 0:
		v.Note = "Nothing was lost: no metric shrank."
	default:
		v.Note = "Shrinking never blocks (deleting a table can be the instruction), but check that each loss was asked for."
	}
	return v
}

func pagesOf(r *audit.Result, opts HTMLOptions) pagesView {
	p := &r.Pages
	switch p.Status {
	case audit.PagesOK:
	case audit.PagesFailed:
		msg := p.Message
		if strings.TrimSpace(msg) == "" {
			msg = "no reason given"
		}
		return pagesView{Status: "failed", Notice: "Pages were not compared: rendering failed" + because(msg)}
	case audit.PagesUnsupported:
		return pagesView{Status: "off", Notice: "Pages were not compared: there is no renderer for this format" + because(p.Message)}
	default:
		return pagesView{Status: "off", Notice: "Pages were not compared (rendering off)" + because(p.Message)}
	}
	v := pagesView{Status: "ok"}
	if p.Identical {
		v.Summary = [][2]string{{"Pages", "identical to the original (byte for byte): nothing rendered or compared, none changed"}}
		return v
	}
	refs := func(cs []audit.ChangedPage) []string {
		var out []string
		for _, c := range cs {
			out = append(out, pageRefHTML(c.Before, c.After))
		}
		return out
	}
	contentP, marginsP, movedP := p.ChangeKinds()
	content, margins, moved := refs(contentP), refs(marginsP), refs(movedP)
	add := func(k string, items []string) {
		if len(items) > 0 {
			v.Summary = append(v.Summary, [2]string{k, strings.Join(items, ", ")})
		}
	}
	v.Summary = append(v.Summary, [2]string{"Pages", fmt.Sprintf("%d before, %d after", p.Before, p.After)})
	add("Changed", content)
	add("Header/footer only", margins)
	add("Moved, unchanged", moved)
	add("Inserted", ints(p.Inserted))
	add("Deleted", ints(p.Deleted))
	for _, rf := range p.Reflowed {
		v.Summary = append(v.Summary, [2]string{"Reflowed", audit.ReflowText(rf, p.Inserted)})
	}
	if len(p.NotShown) > 0 {
		add(fmt.Sprintf("Not shown (--show %d)", len(p.Shown)), ints(p.NotShown))
	}
	if len(v.Summary) == 1 {
		v.Summary[0][1] += "; none changed"
	}
	for _, s := range p.Shown {
		f := figureView{Caption: audit.ShownCaption(r, s)}
		switch {
		case s.Before == 0:
			f.Title, f.Badge, f.BadgeClass = fmt.Sprintf("Page %d", s.After), "inserted", "ins"
		case s.After == 0:
			f.Title, f.Badge, f.BadgeClass = fmt.Sprintf("Original page %d", s.Before), "deleted", "del"
		default:
			f.Title, f.Badge, f.BadgeClass = fmt.Sprintf("Page %d", s.After), "changed", "chg"
			if s.Before != s.After {
				f.Title += fmt.Sprintf(" (was %d)", s.Before)
			}
			if c, ok := r.Pages.ChangedOf(s); ok && c.MarginsOnly {
				f.Badge = "header/footer"
			}
		}
		local := s.Image != "" && filepath.IsLocal(filepath.FromSlash(s.Image))
		switch {
		case len(s.JPEG) > 0 && !(opts.LinkImages && local):
			f.Src = dataURI(s.JPEG)
		case local:
			f.Src = template.URL(s.Image) // relative to the output folder
		default:
			f.Missing = "image not available"
		}
		v.Figures = append(v.Figures, f)
	}
	return v
}

func pageRefHTML(before, after int) string {
	if before == after || before == 0 {
		return strconv.Itoa(after)
	}
	return fmt.Sprintf("%d (was %d)", after, before)
}

func ints(ns []int) []string {
	out := make([]string, len(ns))
	for i, n := range ns {
		out[i] = strconv.Itoa(n)
	}
	return out
}

func dataURI(b []byte) template.URL {
	// The bytes are ours (a JPEG we encoded or read), and base64 cannot
	// break out of the attribute.
	return template.URL("data:image/jpeg;base64," + base64.StdEncoding.EncodeToString(b))
}

func baseName(p, fallback string) string {
	if p == "" {
		return fallback
	}
	return filepath.Base(filepath.FromSlash(p))
}

func shortSHA(s string) string {
	if len(s) > 12 {
		return s[:12]
	}
	return s
}

// tallyDots: "1 fatal · 2 error".
func tallyDots(t formats.Tally) string { return strings.ReplaceAll(audit.TallyWords(t), ", ", " · ") }

// because ends a notice with its reason: ": reason." or ".".
func because(s string) string {
	s = strings.TrimRight(strings.TrimSpace(s), ".")
	if s == "" {
		return "."
	}
	return ": " + s + "."
}

var htmlTemplate = template.Must(template.New("report").Parse(htmlSource))
