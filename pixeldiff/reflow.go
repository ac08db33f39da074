package pixeldiff

import "slices"

// Reflow detection.
//
// When content is inserted or removed, everything after it moves: every
// later page differs from its counterpart although none of its content
// changed. Reporting those pages one by one drowns the one real change.
// DetectReflow finds such runs and names the page that caused them.
//
// How the moved content is recognised was chosen by measurement (the
// "reflow" subtest of TestEndToEnd logs both; docs/benchmarks.md, "Page
// comparison"). Two sources were tried on documents rendered by LibreOffice
// and poppler at 100 dpi:
//
//   - the PDF text layer (pdftotext -layout, one text line per line, with
//     lines that repeat on most pages, digits aside, dropped as running
//     headers), and
//   - the pages' own blocks of content: runs of non-blank pixel rows, each
//     hashed exactly (PageSig.Lines: the row profile of a page, cut at its
//     blank rows).
//
// Results, same run logic on both:
//
//   - a paragraph inserted on page 2 of a 6-page report, the same with a
//     paragraph of another size and spacing (content moves by a fraction
//     of a pixel), and an inserted rule (a bordered empty paragraph, no
//     text): both find "pages 2–6 reflowed after a change on page 2".
//     Every moved text line was found again pixel-identical: poppler
//     snaps glyphs to whole pixels.
//   - a paragraph inserted on page 2 and a rule on page 4: pixel lines
//     report 2–3 and 4–6 (the rule is a change of its own); the text
//     layer reports 2–6 and hides the rule inside the reflow.
//   - a real form with a page border and tables (corpus
//     oxsdk_consumer-confidence-report.docx, page break at the top):
//     neither recognises the reflow — tables split across pages at other
//     rows, ruled borders land on other sub-pixel positions — and both
//     leave three pages reported as changed.
//   - cost: about 0.1 ms from the signatures the baseline already stores,
//     against two pdftotext processes (tens of milliseconds each) and the
//     PDFs kept at hand.
//
// Pixel lines were kept: they never fold a change into a reflow (a hidden
// change is worse than a louder report), need no text extraction, and see
// pictures, rules and borders. What they miss — a line the renderer draws
// differently after it moved (vector rules at a new sub-pixel phase, a
// table cut elsewhere) — is reported as a changed page, never hidden.
//
// They need a rasterizer that snaps glyphs to whole pixels, as poppler
// does. MuPDF's mutool draws glyphs at quarter-pixel phases; TestEndToEnd
// and TestCorpusPageBreakAtTop run with both, and on the real form above
// mutool keeps too few moved lines identical to pair the moved first page
// (it reports it deleted and a new page inserted).

// Reflow is a run of pages of the edited file whose content is that of the
// original, moved by a change before or on the first of them.
type Reflow struct {
	// From and To are the first and last page of the run (1-based, edited
	// file), inclusive.
	From int `json:"from"`
	To   int `json:"to"`
	// Cause is the page of the edited file holding the change that pushed
	// the content (inserted or removed lines). It is From (which may be an
	// inserted page: the run then holds it and what it pushed).
	Cause int `json:"cause"`
	// BeforeFrom and BeforeTo are the original's pages whose content the
	// run holds, from the alignment's pairs and the original pages it left
	// LabelReflowed next to them (0 when the run has no paired page).
	BeforeFrom int `json:"before_from,omitempty"`
	BeforeTo   int `json:"before_to,omitempty"`
}

// DetectReflow finds runs of reflowed pages. before and after are the two
// documents' signatures, pairs their alignment (Align) and bands the bands
// the alignment used. A run starts at a page whose content differs from
// its counterpart and continues over the following pages that differ too
// but hold only lines of the original, in order; a run of one page is no
// reflow and is not reported.
//
// With a text layer on both sides (PageSig.Text) the lines are the pages'
// text lines — which stay the same when a table splits at another row or a
// ruled border lands on another sub-pixel phase, where pixel lines do not
// — and, for pages without text, their pixel lines. An edited page the
// alignment left without a partner although its content is original
// (LabelReflowed) is always in a run, alone if need be.
//
// With the text layer, a picture added inside a run (no text line of its
// own) is folded into the reflow. Telling it apart was tried — a block
// without text whose pixel hash, or whose height, no original page has —
// and dropped: pictures that only moved are resampled at another sub-pixel
// phase, and blocks of pictures merge with the rules beside them, so on
// real edits it reported changes that were not there (corpus
// poi_drawing.docx with a page break before page 2: "changed: 3" for a
// moved logo; docx4j_sample-docx.docx with an image removed: the run
// broken at page 3).
func DetectReflow(before, after []PageSig, pairs []Pair, bands Bands) []Reflow {
	ids := map[lineKey]int32{}
	text := hasText(before) && hasText(after)
	b := newLineDoc(before, bands, ids, text)
	a := newLineDoc(after, bands, ids, text)
	runs := reflowRuns(b, a, len(after), pairs)
	covered := map[int]bool{}
	for _, r := range runs {
		for p := r.From; p <= r.To; p++ {
			covered[p] = true
		}
	}
	for _, p := range pairs {
		if p.Label == LabelReflowed && p.After > 0 && !covered[p.After] {
			runs = append(runs, Reflow{From: p.After, To: p.After, Cause: p.After})
		}
	}
	slices.SortFunc(runs, func(x, y Reflow) int { return x.From - y.From })
	orphan := map[int]bool{} // original pages whose content went elsewhere
	for _, p := range pairs {
		if p.Label == LabelReflowed && p.After == 0 {
			orphan[p.Before] = true
		}
	}
	for k, r := range runs {
		lo, hi := 0, 0
		for _, p := range pairs {
			if p.Before > 0 && p.After >= r.From && p.After <= r.To {
				if lo == 0 || p.Before < lo {
					lo = p.Before
				}
				hi = max(hi, p.Before)
			}
		}
		if lo == 0 {
			continue
		}
		for orphan[lo-1] {
			lo--
		}
		for orphan[hi+1] {
			hi++
		}
		runs[k].BeforeFrom, runs[k].BeforeTo = lo, hi
	}
	return runs
}

// lineKey is a line's identity: a text line's hash, or a pixel line's
// (px), kept apart so that neither can match the other.
type lineKey struct {
	h  uint64
	px bool
}

// newLineDoc is a document as one sequence of lines: with text, each
// page's text lines outside the bands (with their words, for matchLines'
// regrouping), or its pixel lines when it has no text; without text, every
// page's pixel lines.
func newLineDoc(sigs []PageSig, bands Bands, ids map[lineKey]int32, text bool) lineSeq {
	var d lineSeq
	id := func(k lineKey) int32 {
		v, ok := ids[k]
		if !ok {
			v = int32(len(ids))
			ids[k] = v
		}
		return v
	}
	if text {
		d.words = [][]uint32{}
	}
	for p, s := range sigs {
		n := 0
		if text {
			for _, k := range s.textIdx(bands) {
				d.add(id(lineKey{h: s.Text.Lines[k]}), s.Text.words(k), p)
				n++
			}
		}
		if n > 0 {
			continue
		}
		for _, l := range s.bandLines(bands) {
			// A pixel line's words: itself, so that only the same pixel
			// line can stand in for it in a regrouping.
			d.add(id(lineKey{h: l, px: true}), []uint32{uint32(l), uint32(l >> 32)}, p)
		}
	}
	if !text {
		d.words = nil
	}
	return d
}

// reflowRuns is the detection on two line sequences; nAfter is the number
// of pages of the edited file.
func reflowRuns(b, a lineSeq, nAfter int, pairs []Pair) []Reflow {
	m := matchLines(b, a)
	// cause[j]: after page j holds inserted lines, or lines were removed
	// just before its next surviving line, or it is an inserted blank page
	// or follows a deleted blank page: a page break added or removed
	// pushes the content without any line changing (and so can a first
	// page whose header differs from the others', corpus
	// oxsdk_consumer-confidence-report.docx). An inserted page with lines
	// is judged by its lines: the overflow at the end of a reflow holds
	// only moved lines and is part of the run.
	cause := make([]bool, nAfter)
	linesA := make([]int, nAfter)
	for _, p := range a.page {
		linesA[p]++
	}
	linesB := map[int]int{}
	for _, p := range b.page {
		linesB[p]++
	}
	for _, p := range pairs {
		switch {
		case p.Label == LabelInserted && p.After <= nAfter && linesA[p.After-1] == 0:
			cause[p.After-1] = true
		case p.Label == LabelDeleted && linesB[p.Before-1] == 0:
			// The deleted page's successor in the edited file.
			next := 0
			for _, q := range pairs {
				if q.Before > p.Before && q.After > 0 && (next == 0 || q.After < next) {
					next = q.After
				}
			}
			if next > 0 {
				cause[next-1] = true
			}
		}
	}
	for j, i := range m.pa {
		if i < 0 {
			cause[a.page[j]] = true
		}
	}
	// A removed line: the change is where the next surviving line is.
	next := -1
	for i := len(m.pb) - 1; i >= 0; i-- {
		if m.pb[i] >= 0 {
			next = m.pb[i]
			continue
		}
		switch {
		case next >= 0:
			cause[a.page[next]] = true
		case nAfter > 0:
			cause[nAfter-1] = true
		}
	}
	// moved[j]: the page differs from its counterpart in content (not the
	// same, not only its running header or footer), or holds moved
	// content without a counterpart (LabelReflowed). A page moved out of
	// order (Pair.Moved) tells its own story.
	moved := make([]bool, nAfter)
	for _, p := range pairs {
		if p.After > 0 && p.After <= nAfter && p.Label != LabelSame && !p.MarginsOnly && !p.Moved {
			moved[p.After-1] = true
		}
	}
	// A run starts at a page that differs in content and continues over
	// the following pages that differ too but hold no change of their own.
	// Its first page is the cause: it holds the change, or — when all its
	// lines are the original's — the change is invisible as lines (a page
	// break, spacing, a header that now takes room).
	var out []Reflow
	for j := 0; j < nAfter; j++ {
		if !moved[j] {
			continue
		}
		e := j + 1
		for e < nAfter && moved[e] && !cause[e] {
			e++
		}
		if e-1 > j {
			out = append(out, Reflow{From: j + 1, To: e, Cause: j + 1})
		}
		j = e - 1
	}
	return out
}
