package audit

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/editaudit/editaudit/formats"
	"github.com/editaudit/editaudit/internal/plural"
	"github.com/editaudit/editaudit/render"
)

// CheckFeedback is the model-facing text of the check of a new file (no
// original to compare with), under the same caps as Feedback: the verdict;
// each finding with grade, code, part, line:column, locator, message and
// fix, fatal first, at most opts.MaxFindings; the structure counts; which
// rendered pages follow the text. attached lists those pages (1-based,
// ascending) and total is the document's page count (0 when unknown). At
// most opts.MaxChars characters; every cap that cuts is stated.
func CheckFeedback(rep *formats.Report, attached []int, total int, opts FeedbackOptions) string {
	opts = opts.withDefaults()
	fs := append([]formats.Finding(nil), rep.Findings...)
	formats.Sort(fs)
	t := formats.TallyOf(fs)

	name := rep.Path
	if name == "" {
		name = "the file"
	}
	var head string
	if formats.FileMissing(fs) {
		head = fmt.Sprintf("FATAL: %s is not there to open (file.missing).", name)
	} else if t.Fatal > 0 {
		head = fmt.Sprintf("FATAL: %s has %d fatal %s; the application will refuse or repair this file.", name, t.Fatal, plural.Word(t.Fatal, "defect", "defects"))
	} else {
		head = fmt.Sprintf("OK: nothing at fatal in %s.", name)
	}

	var tail []string
	if len(rep.Counts) > 0 {
		var kv []string
		for _, k := range rep.Counts.Keys() {
			kv = append(kv, k+" "+strconv.Itoa(rep.Counts[k]))
		}
		tail = append(tail, "Structure: "+strings.Join(kv, ", ")+".")
	}
	if len(rep.NotCounted) > 0 {
		tail = append(tail, "Not counted: "+fbCapList(rep.NotCounted)+" did not parse, so the counts above are partial.")
	}
	pl := checkPagesLine(attached, total)
	if rep.Format == formats.HWPX && len(attached) > 0 {
		// Hangul pages are always laid out by editaudit's converter.
		pl = strings.TrimSuffix(pl, ".") + " (" + render.HWPXNotice + ")."
	}
	tail = append(tail, pl)

	lines := []string{head}
	if len(fs) == 0 {
		lines = append(lines, "No findings.")
	} else {
		header := fmt.Sprintf("Findings: %d (%s):", t.Total, TallyWords(t))
		lines = append(lines, fbFindingLines(fs, header, "", head, tail, opts)...)
	}
	lines = append(lines, tail...)
	return fbBound(strings.Join(lines, "\n"), opts.MaxChars)
}

// checkPagesLine says which rendered pages follow the text.
func checkPagesLine(attached []int, total int) string {
	if len(attached) == 0 {
		if total > 0 {
			return fmt.Sprintf("Pages: none of %d attached.", total)
		}
		return "Pages: none attached (not rendered)."
	}
	list := pageSpan(attached)
	switch {
	case total > 0 && len(attached) >= total:
		return fmt.Sprintf("Pages: all %d attached below as rendered images.", total)
	case total > 0:
		return fmt.Sprintf("Pages: %s of %d attached below as rendered images; the other %d %s not shown.", list, total, total-len(attached), plural.Word(total-len(attached), "is", "are"))
	}
	return fmt.Sprintf("Pages: %s attached below as rendered images.", list)
}

// pageSpan writes consecutive page numbers as a range: "1–3", "1, 4".
func pageSpan(ns []int) string {
	if len(ns) == 0 {
		return ""
	}
	var parts []string
	start, prev := ns[0], ns[0]
	flush := func() {
		if start == prev {
			parts = append(parts, strconv.Itoa(start))
		} else {
			parts = append(parts, strconv.Itoa(start)+"–"+strconv.Itoa(prev))
		}
	}
	for _, n := range ns[1:] {
		if n == prev+1 {
			prev = n
			continue
		}
		flush()
		start, prev = n, n
	}
	flush()
	return strings.Join(parts, ", ")
}
