package pixeldiff

import (
	"context"
	"regexp"
	"strings"
	"testing"
	"time"
)

// The text-layer alternative for reflow detection, kept in the tests as
// the measurement that decided for pixel lines (see reflow.go and
// docs/benchmarks.md): the same run logic over the lines of `pdftotext -layout`.

// pdfTextPages returns the non-empty text lines of every page of a PDF.
func pdfTextPages(t *testing.T, pdf string) [][]string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	out, err := runGroup(ctx, "pdftotext", "-layout", "-enc", "UTF-8", pdf, "-")
	if err != nil {
		t.Fatalf("pdftotext %s: %v", pdf, err)
	}
	pages := strings.Split(string(out), "\f")
	if len(pages) > 0 && strings.TrimSpace(pages[len(pages)-1]) == "" {
		pages = pages[:len(pages)-1]
	}
	var res [][]string
	for _, p := range pages {
		var lines []string
		for _, l := range strings.Split(p, "\n") {
			if l = strings.TrimSpace(l); l != "" {
				lines = append(lines, l)
			}
		}
		res = append(res, lines)
	}
	return res
}

var digits = regexp.MustCompile(`[0-9]+`)

// textReflow runs the reflow logic over text lines. Running headers and
// footers are left out the way the text layer allows: a line that, digits
// aside, appears on at least half of the pages of the original.
func textReflow(before, after [][]string, pairs []Pair) []Reflow {
	count := map[string]int{}
	for _, p := range before {
		seen := map[string]bool{}
		for _, l := range p {
			k := digits.ReplaceAllString(l, "#")
			if !seen[k] {
				seen[k] = true
				count[k]++
			}
		}
	}
	running := func(l string) bool {
		return len(before) > 1 && 2*count[digits.ReplaceAllString(l, "#")] >= len(before)
	}
	ids := map[string]int32{}
	doc := func(pages [][]string) lineSeq {
		var d lineSeq
		for p, ls := range pages {
			for _, l := range ls {
				if running(l) {
					continue
				}
				id, ok := ids[l]
				if !ok {
					id = int32(len(ids))
					ids[l] = id
				}
				d.ids = append(d.ids, id)
				d.page = append(d.page, p)
			}
		}
		return d
	}
	return reflowRuns(doc(before), doc(after), len(after), pairs)
}
