package pixeldiff

// Reflow detection.
//
// When content is inserted or removed, everything after it moves: every
// later page differs from its counterpart although none of its content
// changed. Reporting those pages one by one drowns the one real change.
// DetectReflow finds such runs and names the page that caused them.
//
// How the moved content is recognised was chosen by measurement (the
// "reflow" subtest of TestEndToEnd logs both; BENCHMARKS.md, "Page
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
	// the content (inserted or removed lines). It is From.
	Cause int `json:"cause"`
}

// DetectReflow finds runs of reflowed pages. before and after are the two
// documents' signatures, pairs their alignment (Align) and bands the bands
// the alignment used. A run starts at a page whose content differs from
// its counterpart and continues over the following pages that differ too
// but hold only lines of the original, in order; a run of one page is no
// reflow and is not reported.
func DetectReflow(before, after []PageSig, pairs []Pair, bands Bands) []Reflow {
	ids := map[uint64]int32{}
	b := newLineDoc(before, bands, ids)
	a := newLineDoc(after, bands, ids)
	return reflowRuns(b, a, len(after), pairs)
}

// lineDoc is a document as one sequence of lines.
type lineDoc struct {
	ids  []int32 // line identities, in reading order
	page []int   // 0-based page of each line
}

func newLineDoc(sigs []PageSig, bands Bands, ids map[uint64]int32) lineDoc {
	var d lineDoc
	for p, s := range sigs {
		for _, l := range s.bandLines(bands) {
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

// reflowRuns is the detection on two line sequences; nAfter is the number
// of pages of the edited file.
func reflowRuns(b, a lineDoc, nAfter int, pairs []Pair) []Reflow {
	m := myers{a: b.ids, b: a.ids}
	m.lcs(0, len(b.ids), 0, len(a.ids))
	matchedA := make([]bool, len(a.ids))
	matchedB := make([]bool, len(b.ids))
	for _, mt := range m.out {
		matchedB[mt[0]], matchedA[mt[1]] = true, true
	}
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
	for i, ok := range matchedA {
		if !ok {
			cause[a.page[i]] = true
		}
	}
	k := 0 // index into m.out: the next match at or after before line i
	for i, ok := range matchedB {
		for k < len(m.out) && m.out[k][0] < i {
			k++
		}
		if ok {
			continue
		}
		switch {
		case k < len(m.out):
			cause[a.page[m.out[k][1]]] = true
		case nAfter > 0:
			cause[nAfter-1] = true
		}
	}
	// moved[j]: the page differs from its counterpart in content (not the
	// same, not only its running header or footer).
	moved := make([]bool, nAfter)
	for _, p := range pairs {
		if p.After > 0 && p.After <= nAfter && p.Label != LabelSame && !p.MarginsOnly {
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
