package reports

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/editaudit/editaudit/audit"
	"github.com/editaudit/editaudit/formats"
)

// CheckFeedback is the model-facing text of the check of a new file (no
// original to compare with), with the same caps as audit.Feedback: the
// verdict; each finding with grade, code, part, line:column, locator,
// message and fix, fatal first, at most audit.DefaultMaxFindings; the
// structure counts; which rendered pages follow. At most
// audit.DefaultMaxChars characters; every cap that cuts is stated.
func CheckFeedback(rep *formats.Report, pages []CheckPage) string {
	const maxChars = audit.DefaultMaxChars
	fs := append([]formats.Finding(nil), rep.Findings...)
	formats.Sort(fs)
	t := formats.TallyOf(fs)

	name := rep.Path
	if name == "" {
		name = "the file"
	}
	var head string
	if t.Fatal > 0 {
		head = fmt.Sprintf("FATAL: %s has %d fatal %s; the application will refuse or repair this file.", name, t.Fatal, plural(t.Fatal, "defect", "defects"))
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
	tail = append(tail, checkPagesLine(pages))

	lines := []string{head}
	if len(fs) == 0 {
		lines = append(lines, "No findings.")
	} else {
		header := fmt.Sprintf("Findings: %d (%s):", t.Total, tallyWords(t))
		budget := maxChars - runeLen(head) - runeLen(header) - 2 - 100
		for _, l := range tail {
			budget -= runeLen(l) + 1
		}
		lines = append(lines, header)
		n, used := 0, 0
		for n < len(fs) && n < audit.DefaultMaxFindings {
			b := findingText(n+1, fs[n])
			if used+runeLen(b)+1 > budget {
				break
			}
			used += runeLen(b) + 1
			lines = append(lines, b)
			n++
		}
		if rest := len(fs) - n; rest > 0 {
			cause := fmt.Sprintf("cap %d", audit.DefaultMaxFindings)
			if n < audit.DefaultMaxFindings {
				cause = fmt.Sprintf("cap: %d characters of feedback", maxChars)
			}
			lines = append(lines, fmt.Sprintf("… and %d more %s not listed (%s).", rest, plural(rest, "finding", "findings"), cause))
		}
	}
	lines = append(lines, tail...)
	s := strings.Join(lines, "\n")
	if runeLen(s) > maxChars {
		// Only pathological counts or paths get here; findings went first.
		note := fmt.Sprintf("\n[feedback cut at %d characters]", maxChars)
		s = clipRunes(s, maxChars-runeLen(note)) + note
	}
	return s
}

// checkPagesLine says which rendered pages follow the text.
func checkPagesLine(pages []CheckPage) string {
	if len(pages) == 0 {
		return "Pages: none attached (not rendered)."
	}
	nums := make([]int, len(pages))
	for i, p := range pages {
		nums[i] = p.Page
	}
	total := pages[0].Total
	list := pageSpan(nums)
	switch {
	case total > 0 && len(pages) >= total:
		return fmt.Sprintf("Pages: all %d attached below as rendered images.", total)
	case total > 0:
		return fmt.Sprintf("Pages: %s of %d attached below as rendered images (cap: %d %s; the rest are not shown).", list, total, len(pages), plural(len(pages), "page", "pages"))
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

// findingText is one finding in the check feedback, in the layout of the
// audit feedback.
func findingText(i int, f formats.Finding) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d. %s %s at %s", i, f.Grade, f.Code, audit.Location(f))
	if f.Locator != "" {
		fmt.Fprintf(&b, " (%s)", clipRunes(f.Locator, 140))
	}
	if m := strings.Join(strings.Fields(f.Message), " "); m != "" {
		b.WriteString("\n   " + clipRunes(m, 300))
	}
	if fx := strings.Join(strings.Fields(f.Fix), " "); fx != "" {
		b.WriteString("\n   Fix: " + clipRunes(fx, 240))
	}
	return b.String()
}

// tallyWords lists the non-zero grades: "5 fatal, 10 error".
func tallyWords(t formats.Tally) string {
	var parts []string
	for _, g := range []struct {
		n    int
		name string
	}{{t.Fatal, "fatal"}, {t.Error, "error"}, {t.Warning, "warning"}, {t.Info, "info"}} {
		if g.n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", g.n, g.name))
		}
	}
	return strings.Join(parts, ", ")
}

func runeLen(s string) int { return utf8.RuneCountInString(s) }

// clipRunes cuts s to at most n characters, ending in "…" when cut.
func clipRunes(s string, n int) string {
	if runeLen(s) <= n {
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

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
