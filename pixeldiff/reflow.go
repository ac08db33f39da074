package pixeldiff

// Reflow detection.
//
// When content is inserted or removed, everything after it moves: every
// later page differs from its counterpart although none of its content
// changed. Reporting those pages one by one drowns the one real change.
// DetectReflow finds such runs and names the page that caused them.
//
// How the moved content is recognised was chosen by measurement (see
// BENCHMARKS.md, "Page comparison"). Two sources were tried on documents
// rendered by LibreOffice and poppler at 100 dpi:
//
//   - the PDF text layer (pdftotext -layout, one text line per line), and
//   - the pages' own blocks of content: runs of non-blank pixel rows, each
//     hashed exactly (PageSig.Lines; the row profile of a page cut at its
//     blank rows).
//
// Both found the reflow after an inserted paragraph. The pixel lines were
// kept: poppler draws a moved text line pixel-identically (every moved line
// of the test documents was found again), so they need no PDF, no extra
// process and no text extraction (the signatures the baseline already
// stores are enough); and they see what the text layer cannot — an
// inserted rule, picture or table border is a line of pixels but no text,
// so the text layer reports a reflow without its cause, or misses a
// changed image inside a "reflowed" run. The cost of the choice: a line
// that the renderer draws differently after moving (a different
// sub-pixel phase) is not recognised and its page is reported changed
// rather than reflowed — a louder report, never a hidden change.

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
// the alignment used. A run starts at a page that holds changed content
// and continues over the following pages that are not the same as their
// counterpart but hold only content of the original, in order; a run of
// one page is no reflow and is not reported.
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
	// just before its next surviving line.
	cause := make([]bool, nAfter)
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
	var out []Reflow
	for j := 0; j < nAfter; j++ {
		if !cause[j] || !moved[j] {
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
