package pixeldiff

import (
	"fmt"
	"strings"
	"syscall"
	"testing"
)

// cpuNS returns the CPU time (user + system) the process has used, in
// nanoseconds. The benchmarks report it per operation as "cpu-ns/op" next
// to ns/op: on a shared machine wall time stretches with the load, CPU
// time much less.
func cpuNS() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}

// loopCPU runs f in a b.Loop and reports its CPU time per operation.
func loopCPU(b *testing.B, f func()) {
	b.Helper()
	n := 0
	start := cpuNS()
	for b.Loop() {
		f()
		n++
	}
	if n > 0 {
		b.ReportMetric(float64(cpuNS()-start)/float64(n), "cpu-ns/op")
	}
}

// Benchmarks of the page comparison, quoted in docs/benchmarks.md ("Page
// comparison"). Pages are A4 at 100 dpi (827×1169, 2.9 MB of RGB).

// BenchmarkCompare compares two pages. SetBytes counts both pages' pixels,
// since both are read: MB/s is the memory throughput.
func BenchmarkCompare(b *testing.B) {
	base := synthPage(a4W, a4H, 1, 3)
	word := clone(base)
	fillRect(word, 300, 600, 360, 640, 0xff)
	drawWord(word, 310, 610, 30)
	// The reference for "memory speed": copying one page reads and
	// writes as many bytes as the identical case reads.
	b.Run("memcpy-reference", func(b *testing.B) {
		dst := make([]byte, len(base.Pix))
		b.SetBytes(int64(2 * len(base.Pix)))
		loopCPU(b, func() { copy(dst, base.Pix) })
	})
	for _, tc := range []struct {
		name  string
		other *Raster
		same  bool
	}{
		{"identical", clone(base), true},
		{"one-word", word, false},
		{"page-number", synthPage(a4W, a4H, 1, 4), false},
		{"all-lines-differ", synthPage(a4W, a4H, 2, 3), false},
	} {
		b.Run(tc.name, func(b *testing.B) {
			b.SetBytes(int64(len(base.Pix) + len(tc.other.Pix)))
			loopCPU(b, func() {
				if d := Compare(base, tc.other, CompareOptions{Bands: synthBands}); d.Same != tc.same {
					b.Fatalf("Same = %v", d.Same)
				}
			})
		})
	}
}

// BenchmarkSignature signs one A4 page.
func BenchmarkSignature(b *testing.B) {
	p := synthPage(a4W, a4H, 1, 3)
	b.SetBytes(int64(len(p.Pix)))
	loopCPU(b, func() { Signature(p) })
}

// BenchmarkDetectBands feeds ten A4 pages to a BandDetector.
func BenchmarkDetectBands(b *testing.B) {
	var ps []*Raster
	for i := 1; i <= 10; i++ {
		ps = append(ps, synthPage(a4W, a4H, int64(i), i))
	}
	loopCPU(b, func() { DetectBands(ps) })
}

// alignDocs builds two 300-page documents of flowing text (28 lines a page,
// running header and footer with the page number) for the alignment
// benchmark: the original, and an edit of the given kind.
func alignDocs(b *testing.B, kind string, text bool) (before, after []PageSig, bands Bands) {
	const pages, per = 300, 28
	orig := seq(1, pages*per+1)
	var edited []int64
	switch kind {
	case "page-inserted":
		// A page of new text at page 10, renumbering every later page,
		// and one line changed on (old) page 150.
		edited = cat(seq(1, 9*per+1), seq(100000, 100000+per), seq(9*per+1, 149*per+5), []int64{200000}, seq(149*per+6, pages*per+1))
	case "reflow":
		// Four lines inserted on page 10: every later page reflows.
		edited = cat(seq(1, 9*per+10), seq(100000, 100004), seq(9*per+10, pages*per+1))
	default:
		b.Fatalf("unknown kind %q", kind)
	}
	bp, ap := flowDoc(orig, per), flowDoc(edited, per)
	bands = DetectBands(bp)
	before, after = sign(bp), sign(ap)
	if text {
		// The text layer as pdftotext gives it: a running header and
		// footer with the page number, and one line of ten words per
		// line of pixels, on the same rows.
		for k, t := range flowText(orig, per) {
			before[k].Text = t
		}
		for k, t := range flowText(edited, per) {
			after[k].Text = t
		}
		bands = ConfirmBands(bands, before)
	}
	return before, after, bands
}

// flowText is the text layer of flowDoc(seeds, perPage).
func flowText(seeds []int64, perPage int) []*PageText {
	var pages [][]TextLine
	n := 0
	for _, s := range seeds {
		if len(pages) == 0 || n == perPage || s == -2 {
			pages = append(pages, nil)
			n = 0
			p := len(pages)
			pages[p-1] = append(pages[p-1], TextLine{Text: fmt.Sprintf("Annual report, page %d", p), Y0: 10, Y1: 24})
			if s == -2 {
				continue
			}
		}
		y := 60 + 12*n
		n++
		if s == -1 {
			continue
		}
		pages[len(pages)-1] = append(pages[len(pages)-1], TextLine{Text: fmt.Sprintf("clause %d of the agreement between the parties shall apply in full", s), Y0: y, Y1: y + 10})
	}
	out := make([]*PageText, len(pages))
	for i, ls := range pages {
		ls = append(ls, TextLine{Text: fmt.Sprintf("%d", i+1), Y0: alH - 22, Y1: alH - 8})
		out[i] = NewPageText(ls)
	}
	return out
}

// BenchmarkAlign300 aligns two 300-page documents from their signatures,
// by pixels alone and with the text layer ("text/…").
func BenchmarkAlign300(b *testing.B) {
	for _, kind := range []string{"page-inserted", "reflow", "text/page-inserted", "text/reflow"} {
		before, after, bands := alignDocs(b, strings.TrimPrefix(kind, "text/"), strings.HasPrefix(kind, "text/"))
		b.Run(kind, func(b *testing.B) {
			var pairs []Pair
			loopCPU(b, func() { pairs = Align(before, after, bands) })
			changed := 0
			for _, p := range pairs {
				if p.Label != LabelSame {
					changed++
				}
			}
			b.ReportMetric(float64(changed), "non-same-pairs")
		})
		b.Run(kind+"/reflow-detection", func(b *testing.B) {
			pairs := Align(before, after, bands)
			var r []Reflow
			loopCPU(b, func() { r = DetectReflow(before, after, pairs, bands) })
			b.Logf("%s: %v", kind, fmt.Sprint(r))
		})
	}
}
