package pixeldiff

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"
)

// flowDoc lays out a stream of text lines (each drawn from its seed) onto
// pages of perPage lines, with a running header and footer carrying the
// page number. A seed of -1 draws a thin horizontal rule instead of text;
// -2 is a page break.
func flowDoc(seeds []int64, perPage int) []*Raster {
	pageLines := [][]int64{nil}
	for _, s := range seeds {
		last := len(pageLines) - 1
		switch {
		case s == -2:
			pageLines = append(pageLines, nil)
		case len(pageLines[last]) == perPage:
			pageLines = append(pageLines, []int64{s})
		default:
			pageLines[last] = append(pageLines[last], s)
		}
	}
	var pages []*Raster
	for p, lines := range pageLines {
		r := NewRaster(alW, alH)
		drawNumber(r, alW/2, 12, p+1)
		drawNumber(r, alW-70, alH-20, p+1)
		for k, s := range lines {
			y := 60 + 12*k
			if s == -1 {
				fillRect(r, 40, y+4, alW-40, y+5, 0x40)
				continue
			}
			rng := rand.New(rand.NewSource(s))
			for x := 30 + rng.Intn(10); x < alW-60; {
				wl := 8 + rng.Intn(30)
				drawWordSeed(r, x, y, wl, s*1000+int64(x))
				x += wl + 5
			}
		}
		pages = append(pages, r)
	}
	return pages
}

// seq returns the seeds lo..hi-1.
func seq(lo, hi int64) []int64 {
	var s []int64
	for i := lo; i < hi; i++ {
		s = append(s, i)
	}
	return s
}

func cat(parts ...[]int64) []int64 {
	var out []int64
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

func TestDetectReflow(t *testing.T) {
	const per = 25
	orig := seq(1, 126) // five full pages
	tests := []struct {
		name   string
		edited []int64
		want   string
	}{
		{"identical", orig, "[]"},
		{"lines inserted on page 2", cat(seq(1, 31), seq(1000, 1004), seq(31, 126)), "[{2 6 2}]"},
		{"lines deleted on page 2", cat(seq(1, 31), seq(36, 126)), "[{2 5 2}]"},
		{"a rule inserted on page 3", cat(seq(1, 61), []int64{-1}, seq(61, 126)), "[{3 6 3}]"},
		{"one line changed, nothing moves", cat(seq(1, 40), []int64{2000}, seq(41, 126)), "[]"},
		{"insertion made up for on the next page", cat(seq(1, 31), seq(1000, 1003), seq(31, 51), seq(54, 126)), "[]"},
		{"two insertions", cat(seq(1, 31), seq(1000, 1003), seq(31, 81), seq(3000, 3003), seq(81, 126)), "[{2 3 2} {4 6 4}]"},
		{"lines inserted on the last page", cat(seq(1, 110), seq(1000, 1003), seq(110, 126)), "[{5 6 5}]"},
		// No line changes: the page break is the cause.
		{"page break inserted on page 2", cat(seq(1, 31), []int64{-2}, seq(31, 126)), "[{2 6 2}]"},
		{"blank page inserted at the start", cat([]int64{-2}, orig), "[]"},
		{"blank page inserted on page 3", cat(seq(1, 51), []int64{-2, -2}, seq(51, 126)), "[]"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			bp, ap := flowDoc(orig, per), flowDoc(tc.edited, per)
			bands := DetectBands(bp)
			if bands.Top == 0 || bands.Bottom == 0 {
				t.Fatalf("no bands found: %+v", bands)
			}
			bs, as := sign(bp), sign(ap)
			pairs := Align(bs, as, bands)
			got := fmtRuns(DetectReflow(bs, as, pairs, bands))
			if got != tc.want {
				t.Errorf("reflow %s, want %s (pairs %s)", got, tc.want, fmtPairs(pairs))
			}
		})
	}
}

// TestAlignReflowedPages checks that pages whose content moved by a few
// lines are paired (changed) rather than reported deleted and inserted.
func TestAlignReflowedPages(t *testing.T) {
	orig := seq(1, 101)
	edited := cat(seq(1, 31), seq(1000, 1004), seq(31, 101))
	bp, ap := flowDoc(orig, 25), flowDoc(edited, 25)
	bands := DetectBands(bp)
	got := fmtPairs(Align(sign(bp), sign(ap), bands))
	want := "1-1 = 2-2 ~ 3-3 ~ 4-4 ~ 0-5 +"
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

// fmtRuns prints runs as "[{from to cause} …]" (the original's page range,
// BeforeFrom/BeforeTo, is checked by TestAlignText).
func fmtRuns(rf []Reflow) string {
	var parts []string
	for _, r := range rf {
		parts = append(parts, fmt.Sprintf("{%d %d %d}", r.From, r.To, r.Cause))
	}
	return "[" + strings.Join(parts, " ") + "]"
}
