package audit

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/editaudit/editaudit/formats"
	"github.com/editaudit/editaudit/internal/plural"
)

// Every sentence a model reads is built in this package: the audit's
// feedback (this file), the check's (feedback_check.go) and the captions
// of the page images (captions.go). The audit stores its feedback in
// Result.Feedback, the JSON "feedback" field that corpus records and the
// service return; reports imports audit, so the text cannot live there
// without a cycle. reports lays these texts out and builds none of its own.

// Defaults of FeedbackOptions (DESIGN.md "Model feedback": short, bounded,
// every cap stated when it cuts something).
const (
	// DefaultMaxFindings is how many new findings are listed one by one.
	DefaultMaxFindings = 20
	// DefaultMaxChars bounds the whole feedback text, in characters.
	DefaultMaxChars = 6000
)

// Per-field caps: one long message, fix, locator or "where" cannot eat the
// whole budget. A cut field ends in "…".
const (
	fbMaxMessage   = 300
	fbMaxFix       = 240
	fbMaxLocator   = 140
	fbMaxWhere     = 220
	fbMaxPageItems = 12
	// fbMinChars is the smallest MaxChars honoured: below it not even the
	// verdict fits.
	fbMinChars = 200
)

// FeedbackOptions bounds Feedback. The zero value means the defaults.
type FeedbackOptions struct {
	// MaxFindings is the number of new findings listed one by one, fatal
	// first; the rest are counted in one line that states the cap. 0 means
	// DefaultMaxFindings.
	MaxFindings int
	// MaxContentChanges is the number of content changes listed one by
	// one; the rest are counted. 0 means DefaultMaxContentChanges.
	MaxContentChanges int
	// MaxChars bounds the text, in characters (runes). Findings and
	// content changes are dropped from their lists before anything else
	// is cut, and the cut is stated. 0 means DefaultMaxChars; values below
	// 200 are raised to 200.
	MaxChars int
}

func (o FeedbackOptions) withDefaults() FeedbackOptions {
	if o.MaxFindings <= 0 {
		o.MaxFindings = DefaultMaxFindings
	}
	if o.MaxContentChanges <= 0 {
		o.MaxContentChanges = DefaultMaxContentChanges
	}
	if o.MaxChars <= 0 {
		o.MaxChars = DefaultMaxChars
	}
	if o.MaxChars < fbMinChars {
		o.MaxChars = fbMinChars
	}
	return o
}

// Feedback is the model-facing text of r (DESIGN.md "Model feedback"), in a
// fixed order: (1) the verdict, and whether the original was restored;
// (2) each new finding with grade, code, part, line:column, locator, what is
// wrong and how to fix it, fatal first, at most opts.MaxFindings; (3) one
// line for the original's own problems and one for the problems the edit
// fixed; (4) every structure metric that shrank, before → after, and where;
// (5) the content the edit changed: counts, then each change with its
// location (text in redline notation, formatting lost or changed, cells,
// paragraphs inserted, deleted or moved), at most opts.MaxContentChanges;
// (6) the pages: changed, inserted, deleted, reflowed, margins-only, which
// are shown as images and which are only listed, or why pages were not
// compared. The text is deterministic for the same r and never longer than
// opts.MaxChars characters; every cap that cuts something is stated. The
// findings and the content changes share what the fixed lines leave: each
// list gets at least half of it, and whatever the other does not need. It
// has no trailing newline.
func Feedback(r *Result, opts FeedbackOptions) string {
	opts = opts.withDefaults()

	head := fbVerdictLine(r)
	var before, after []string // the fixed lines around the content section
	if l := fbPreexistingLine(r.Preexisting); l != "" {
		before = append(before, l)
	}
	if l := fbResolvedLine(r.Resolved); l != "" {
		before = append(before, l)
	}
	content := r.Content
	if editMissing(r) {
		before = append(before, "Structure, content and pages: not compared; there is no edited file to read.")
		content = nil
	} else {
		before = append(before, fbStructureLines(r)...)
		after = fbPagesLines(&r.Pages)
		// No page changed but the content did (a word in a small title,
		// speaker notes): say so, lest "none changed" read as "nothing".
		if c := content; c != nil && len(c.Changes)+c.Truncated > 0 && len(after) == 1 && strings.HasSuffix(after[0], "; none changed.") {
			after[0] = strings.TrimSuffix(after[0], ".") + " on the rendered pages, although the content did (above)."
		}
	}

	fs := append([]formats.Finding(nil), r.NewFindings...)
	formats.Sort(fs)

	// What the two lists share: the budget minus the fixed lines, the
	// findings' header and cap line, and the content's counts and cap line
	// (fbContentLines with no room for a change).
	format := r.Original.Format
	if format == "" || format == formats.Unknown {
		format = r.Edited.Format
	}
	shared := opts.MaxChars - fbLinesRunes(append(append([]string{head}, before...), after...)) -
		fbLinesRunes(fbContentLines(content, format, opts.MaxContentChanges, 0)) - 2*120
	findingsNeed := 0
	for i := 0; i < len(fs) && i < opts.MaxFindings; i++ {
		findingsNeed += fbRunes(fbFindingBlock(i+1, fs[i])) + 1
	}
	contentBudget := max(shared-findingsNeed, shared/2, 0)
	contentLines := fbContentLines(content, format, opts.MaxContentChanges, contentBudget)

	tail := append(append(append([]string(nil), before...), contentLines...), after...)
	lines := []string{head}
	if len(fs) == 0 {
		lines = append(lines, "No new findings.")
	} else {
		t := formats.TallyOf(fs)
		header := fmt.Sprintf("New findings: %d (%s):", t.Total, TallyWords(t))
		lines = append(lines, fbFindingLines(fs, header, "new ", head, tail, opts)...)
	}
	lines = append(lines, tail...)
	return fbBound(strings.Join(lines, "\n"), opts.MaxChars)
}

// fbLinesRunes is the length of lines joined by newlines, plus one.
func fbLinesRunes(lines []string) int {
	n := 0
	for _, l := range lines {
		n += fbRunes(l) + 1
	}
	return n
}

// fbFindingLines is header and the findings fs (sorted) one block each,
// while they fit under opts.MaxFindings and under opts.MaxChars beside the
// fixed head and tail lines, then one line counting the rest and naming
// the cap that cut them ("… and 3 more new findings not listed (cap 20).").
func fbFindingLines(fs []formats.Finding, header, adjective, head string, tail []string, opts FeedbackOptions) []string {
	fixed := fbRunes(head) + 1
	for _, l := range tail {
		fixed += fbRunes(l) + 1
	}
	// Reserve room for the header and for the cap line.
	budget := opts.MaxChars - fixed - fbRunes(header) - 1 - 100
	lines := []string{header}
	n, used := 0, 0
	for n < len(fs) && n < opts.MaxFindings {
		b := fbFindingBlock(n+1, fs[n])
		if used+fbRunes(b)+1 > budget {
			break
		}
		used += fbRunes(b) + 1
		lines = append(lines, b)
		n++
	}
	if rest := len(fs) - n; rest > 0 {
		cause := fmt.Sprintf("cap %d", opts.MaxFindings)
		if n < opts.MaxFindings {
			cause = fmt.Sprintf("cap: %d characters of feedback", opts.MaxChars)
		}
		lines = append(lines, fmt.Sprintf("… and %d more %s%s not listed (%s).", rest, adjective, plural.Word(rest, "finding", "findings"), cause))
	}
	return lines
}

// fbBound cuts s to at most max characters, at a line end when it can, and
// says so. Only pathological inputs get here: findings are dropped first.
func fbBound(s string, max int) string {
	if fbRunes(s) <= max {
		return s
	}
	note := fmt.Sprintf("\n[feedback cut at %d characters]", max)
	keep := max - fbRunes(note)
	cut := s
	// Cut at a rune boundary after keep runes.
	i, n := 0, 0
	for i < len(cut) && n < keep {
		_, size := utf8.DecodeRuneInString(cut[i:])
		i += size
		n++
	}
	cut = cut[:i]
	if j := strings.LastIndexByte(cut, '\n'); j > len(cut)/2 {
		cut = cut[:j]
	}
	return cut + note
}

func fbVerdictLine(r *Result) string {
	var b strings.Builder
	if r.Blocked && editMissing(r) {
		b.WriteString("BLOCKED: the edited file is not there to open (file.missing).")
	} else if r.Blocked {
		n := 0
		for _, f := range r.NewFindings {
			if f.Grade == formats.Fatal {
				n++
			}
		}
		if n == 0 {
			b.WriteString("BLOCKED: the edit introduced a fatal defect; the application will refuse or repair this file.")
		} else {
			fmt.Fprintf(&b, "BLOCKED: the edit introduced %d fatal %s; the application will refuse or repair this file.", n, plural.Word(n, "defect", "defects"))
		}
	} else {
		b.WriteString("PASSED: nothing new at fatal.")
	}
	if r.Restored {
		b.WriteString(" The original was restored.")
		if r.RejectedCopy != "" {
			fmt.Fprintf(&b, " The rejected edit is kept as %s.", r.RejectedCopy)
		}
		if r.RestoreNote != "" {
			fmt.Fprintf(&b, " Note: %s.", r.RestoreNote)
		}
	}
	return b.String()
}

// TallyWords lists the non-zero grades of t in words: "5 fatal, 10 error"
// (and "2 ungraded" for findings without one of the four grades).
func TallyWords(t formats.Tally) string {
	var parts []string
	for _, g := range []struct {
		n    int
		name string
	}{{t.Fatal, "fatal"}, {t.Error, "error"}, {t.Warning, "warning"}, {t.Info, "info"}} {
		if g.n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", g.n, g.name))
		}
	}
	if other := t.Total - t.Fatal - t.Error - t.Warning - t.Info; other > 0 {
		parts = append(parts, fmt.Sprintf("%d ungraded", other))
	}
	return strings.Join(parts, ", ")
}

// fbFindingBlock is one new finding:
//
//  1. fatal xml.illegal-char at word/document.xml:2:19965 (/w:document/…/w:t)
//     Control character U+0001 in a text node.
//     Fix: remove it.
func fbFindingBlock(i int, f formats.Finding) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d. %s %s at %s", i, f.Grade, f.Code, Location(f))
	if f.Locator != "" {
		fmt.Fprintf(&b, " (%s)", fbClip(f.Locator, fbMaxLocator))
	}
	if m := fbOneLine(f.Message); m != "" {
		b.WriteString("\n   ")
		b.WriteString(fbClip(m, fbMaxMessage))
	}
	if fx := fbOneLine(f.Fix); fx != "" {
		b.WriteString("\n   Fix: ")
		b.WriteString(fbClip(fx, fbMaxFix))
	}
	return b.String()
}

// Location is where a finding is, compiler style: "word/document.xml:2:19965",
// "word/document.xml:2", "word/document.xml", or "the package" when the
// finding is about the whole file ("the file" when there is none:
// file.missing).
func Location(f formats.Finding) string {
	switch {
	case f.Code == formats.CodeFileMissing:
		return "the file"
	case f.Part == "":
		return "the package"
	}
	switch {
	case f.Line > 0 && f.Column > 0:
		return f.Part + ":" + strconv.Itoa(f.Line) + ":" + strconv.Itoa(f.Column)
	case f.Line > 0:
		return f.Part + ":" + strconv.Itoa(f.Line)
	}
	return f.Part
}

func fbPreexistingLine(t formats.Tally) string {
	if t.Total == 0 {
		return ""
	}
	if t.Total == 1 {
		grade := "not fatal"
		if t.Fatal > 0 {
			grade = "fatal"
		}
		return fmt.Sprintf("The original already had 1 problem (%s); it is not yours.", grade)
	}
	fatal := "none fatal"
	if t.Fatal > 0 {
		fatal = fmt.Sprintf("%d fatal", t.Fatal)
	}
	return fmt.Sprintf("The original already had %d problems, %s; they are not yours.", t.Total, fatal)
}

func fbResolvedLine(fs []formats.Finding) string {
	if len(fs) == 0 {
		return ""
	}
	n := len(fs)
	s := fmt.Sprintf("The edit fixed %d %s the original had", n, plural.Word(n, "problem", "problems"))
	if t := formats.TallyOf(fs); t.Fatal > 0 {
		s += fmt.Sprintf(" (%d fatal)", t.Fatal)
	}
	return s + "."
}

func fbStructureLines(r *Result) []string {
	sh := r.Structure.Shrunk
	var lines []string
	if nc := fbNotCountedLine(r); nc != "" {
		lines = append(lines, nc)
		if len(sh) == 0 {
			if len(r.Structure.Unknown) > 0 && len(r.Structure.Unknown) == len(r.Structure.Before.Keys()) {
				return lines
			}
			return append(lines, "Structure: nothing else lost.")
		}
	} else if len(sh) == 0 {
		return []string{"Structure: nothing lost."}
	}
	lines = append(lines, "Structure that shrank (never blocks; make sure the instruction asked for it):")
	for _, s := range sh {
		l := fmt.Sprintf("- %s %d → %d", s.Metric, s.Before, s.After)
		if w := fbOneLine(s.Where); w != "" {
			l += " (" + fbClip(w, fbMaxWhere) + ")"
		}
		lines = append(lines, l)
	}
	return lines
}

// fbNotCountedLine says which parts were not counted because they did not
// parse, on which side, and which metrics that leaves unknown: "Structure:
// not counted: word/document.xml did not parse (edited file), so tables,
// rows, cells, paragraphs, nested_tables are unknown, not compared." ""
// when every count is complete.
func fbNotCountedLine(r *Result) string {
	if len(r.Structure.NotCounted) == 0 {
		return ""
	}
	var parts []string
	for _, p := range r.Structure.NotCounted {
		inB, inA := slices.Contains(r.Original.NotCounted, p), slices.Contains(r.Edited.NotCounted, p)
		side := ""
		switch {
		case inB && inA:
			side = "both files"
		case inB:
			side = "original"
		case inA:
			side = "edited file"
		}
		if p == formats.NotCountedPackage {
			switch side {
			case "both files":
				parts = append(parts, "neither file is a readable zip package")
			case "":
				parts = append(parts, "a file is not a readable zip package")
			default:
				parts = append(parts, "the "+side+" is not a readable zip package")
			}
			continue
		}
		s := p + " did not parse"
		if side != "" {
			s += " (" + side + ")"
		}
		parts = append(parts, s)
	}
	l := "Structure: not counted: " + fbCapList(parts)
	if u := r.Structure.Unknown; len(u) > 0 {
		l += ", so " + fbCapList(u) + " are unknown and not compared"
	}
	return l + "."
}

func fbPagesLines(p *Pages) []string {
	msg := strings.TrimRight(fbOneLine(p.Message), ".")
	switch p.Status {
	case PagesOK:
	case PagesFailed:
		if msg == "" {
			msg = "no reason given"
		}
		return []string{"Pages: not compared; rendering failed: " + fbClip(msg, fbMaxWhere) + "."}
	case PagesUnsupported:
		s := "Pages: not compared; no renderer for this format"
		if msg != "" {
			s += ": " + fbClip(msg, fbMaxWhere)
		}
		return []string{s + "."}
	default: // PagesOff, or not set
		s := "Pages: not compared (rendering off)"
		if msg != "" {
			s += ": " + fbClip(msg, fbMaxWhere)
		}
		return []string{s + "."}
	}

	if p.Identical {
		return []string{"Pages: identical to the original (the edited file is byte-identical): nothing was rendered or compared, no page changed."}
	}
	refs := func(cs []ChangedPage) []string {
		var out []string
		for _, c := range cs {
			out = append(out, fbPageRef(c.Before, c.After))
		}
		return out
	}
	contentP, marginsP, movedP := p.ChangeKinds()
	content, margins, moved := refs(contentP), refs(marginsP), refs(movedP)
	var items []string
	add := func(label string, list []string) {
		if len(list) > 0 {
			items = append(items, "- "+label+": "+fbCapList(list)+".")
		}
	}
	add("changed", content)
	add("only the header/footer bands changed (e.g. page numbers)", margins)
	add("moved, unchanged", moved)
	add("inserted", fbInts(p.Inserted))
	add("deleted (original numbering)", fbInts(p.Deleted))
	for _, rf := range p.Reflowed {
		items = append(items, "- reflowed: "+ReflowText(rf, p.Inserted)+".")
	}

	head := fmt.Sprintf("Pages: %d before, %d after", p.Before, p.After)
	if p.Notice != "" {
		head += " (" + p.Notice + ")"
	}
	if len(items) == 0 {
		return []string{head + "; none changed."}
	}
	var shown []string
	for _, s := range p.Shown {
		shown = append(shown, fbShownRef(s, p))
	}
	add("shown as before | after images", shown)
	if len(p.NotShown) > 0 {
		// Named above as changed, moved, inserted, deleted or header-only;
		// here only that they have no image.
		items = append(items, fmt.Sprintf("- not shown as images (--show %d): %s.", len(p.Shown), fbCapList(fbInts(p.NotShown))))
	}
	return append([]string{head + ":"}, items...)
}

// ReflowText describes a reflow run for people and models: "4–9 (pushed
// by the change on page 4)", "2–4 (original pages 1–3; pushed by the page
// inserted at 1)" when the run starts with an inserted page (the inserted
// page is named once, as inserted), "2–3 (original pages 2–4; …)" when the
// run holds the content of more or other original pages than its numbers
// say.
func ReflowText(rf Reflow, inserted []int) string {
	from, cause := rf.From, fmt.Sprintf("pushed by the change on page %d", rf.Cause)
	if slices.Contains(inserted, rf.From) && rf.To > rf.From {
		from++
		cause = fmt.Sprintf("pushed by the page inserted at %d", rf.From)
	}
	span := strconv.Itoa(from)
	if rf.To > from {
		span += "–" + strconv.Itoa(rf.To)
	}
	var notes []string
	if rf.BeforeFrom > 0 && (rf.BeforeFrom != from || rf.BeforeTo != rf.To) {
		was := strconv.Itoa(rf.BeforeFrom)
		if rf.BeforeTo > rf.BeforeFrom {
			was = "original pages " + was + "–" + strconv.Itoa(rf.BeforeTo)
		} else {
			was = "original page " + was
		}
		notes = append(notes, was)
	}
	if rf.Cause > 0 {
		notes = append(notes, cause)
	}
	if len(notes) == 0 {
		return span
	}
	return span + " (" + strings.Join(notes, "; ") + ")"
}

// fbPageRef names a page present in both files by its edited number, with its
// original number when it differs: "6 (was 5)".
func fbPageRef(before, after int) string {
	if before == after || before == 0 {
		return strconv.Itoa(after)
	}
	return fmt.Sprintf("%d (was %d)", after, before)
}

// fbShownRef names a shown page: "6 (was 5)", "3 (inserted)", "original 4
// (deleted)", and "3 (reflowed)" for a page without a partner whose content
// is the original's (the overflow of a reflow: neither inserted nor
// deleted).
func fbShownRef(s ShownPage, p *Pages) string {
	switch {
	case s.After == 0 && slices.Contains(p.Deleted, s.Before):
		return fmt.Sprintf("original %d (deleted)", s.Before)
	case s.After == 0:
		return fmt.Sprintf("original %d (reflowed)", s.Before)
	case s.Before == 0 && slices.Contains(p.Inserted, s.After):
		return fmt.Sprintf("%d (inserted)", s.After)
	case s.Before == 0:
		return fmt.Sprintf("%d (reflowed)", s.After)
	}
	return fbPageRef(s.Before, s.After)
}

func fbInts(ns []int) []string {
	out := make([]string, len(ns))
	for i, n := range ns {
		out[i] = strconv.Itoa(n)
	}
	return out
}

// fbCapList joins at most fbMaxPageItems items and states the rest.
func fbCapList(items []string) string {
	if len(items) <= fbMaxPageItems {
		return strings.Join(items, ", ")
	}
	return strings.Join(items[:fbMaxPageItems], ", ") + fmt.Sprintf(" … and %d more (cap %d listed)", len(items)-fbMaxPageItems, fbMaxPageItems)
}

// fbOneLine folds whitespace runs (newlines included) into single spaces so a
// message cannot break the fixed line structure.
func fbOneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// fbClip cuts s to at most n characters, ending in "…" when cut.
func fbClip(s string, n int) string {
	if fbRunes(s) <= n {
		return s
	}
	i, k := 0, 0
	for i < len(s) && k < n-1 {
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
		k++
	}
	return s[:i] + "…"
}

func fbRunes(s string) int { return utf8.RuneCountInString(s) }
