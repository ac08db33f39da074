package pixeldiff

// Matching two sequences of lines: a longest common subsequence, then the
// lines it leaves over that were only regrouped or nudged.
//
// pdftotext's lines are not quite stable when content moves: two table
// cells side by side come out as one line "collecte detected" on one page
// and as two lines when the table lands a point lower (corpus
// oxsdk_consumer-confidence-report.docx after a cover page), and a list
// label set apart by a tab ("BA.   Within Existing Space…") is read before
// or after its neighbours depending on where the page breaks
// (poi_stress023.docx after a page break). Either makes a line look new on
// a page whose content only moved, which would end a reflow there. So the
// lines the LCS leaves unmatched are looked at in windows — unmatched runs
// (hunks) separated by at most reorderWindow matched lines — and a window
// whose removed and added lines hold exactly the same words (as a
// multiset) is a regrouping: its lines are matched to each other. Any
// change of words (one added, removed or replaced) leaves the whole window
// unmatched, so an edit is never forgiven; only a pure reordering of words
// within a few lines would be (noted in docs/rendering.md).

// reorderWindow is how many matched lines may separate two hunks that are
// looked at together.
const reorderWindow = 8

// lineSeq is a document (or a gap of one) as a sequence of lines.
type lineSeq struct {
	ids   []int32    // line identities
	words [][]uint32 // each line's word hashes (nil: no regrouping check)
	page  []int      // the page of each line
}

func (s *lineSeq) add(id int32, words []uint32, page int) {
	s.ids = append(s.ids, id)
	s.words = append(s.words, words)
	s.page = append(s.page, page)
}

// lineMatch is the outcome of matchLines: each line's partner on the other
// side (-1: none), and the LCS part of it (ascending index pairs).
type lineMatch struct {
	pb, pa []int
	lcs    [][2]int
}

// matchLines matches the lines of b and a: a longest common subsequence
// (Myers) of the lines both sides hold — lines that occur on one side only
// cannot match and are left out of the diff first, as GNU diff does, which
// keeps it fast when little is shared — then the regroupings described
// above.
func matchLines(b, a lineSeq) lineMatch {
	m := lineMatch{pb: make([]int, len(b.ids)), pa: make([]int, len(a.ids))}
	for i := range m.pb {
		m.pb[i] = -1
	}
	for j := range m.pa {
		m.pa[j] = -1
	}
	// Ids are small and dense (numbered from 0 by their callers).
	var n int32
	for _, id := range b.ids {
		n = max(n, id+1)
	}
	for _, id := range a.ids {
		n = max(n, id+1)
	}
	inB, inA := make([]bool, n), make([]bool, n)
	for _, id := range b.ids {
		inB[id] = true
	}
	for _, id := range a.ids {
		inA[id] = true
	}
	var fb, fa []int32 // filtered ids
	var xb, xa []int   // their original indices
	for i, id := range b.ids {
		if inA[id] {
			fb, xb = append(fb, id), append(xb, i)
		}
	}
	for j, id := range a.ids {
		if inB[id] {
			fa, xa = append(fa, id), append(xa, j)
		}
	}
	my := myers{a: fb, b: fa}
	my.lcs(0, len(fb), 0, len(fa))
	for _, mt := range my.out {
		i, j := xb[mt[0]], xa[mt[1]]
		m.pb[i], m.pa[j] = j, i
		m.lcs = append(m.lcs, [2]int{i, j})
	}
	if b.words != nil && a.words != nil {
		m.regroup(b, a)
	}
	return m
}

// regroup matches the lines of windows of hunks that hold the same words.
func (m *lineMatch) regroup(b, a lineSeq) {
	type hunk struct {
		k      int   // index of the LCS match that ends it (len(lcs) for the tail)
		bs, as []int // unmatched lines
	}
	var hunks []hunk
	pi, pj := -1, -1
	for k := 0; k <= len(m.lcs); k++ {
		ei, ej := len(b.ids), len(a.ids)
		if k < len(m.lcs) {
			ei, ej = m.lcs[k][0], m.lcs[k][1]
		}
		h := hunk{k: k}
		for i := pi + 1; i < ei; i++ {
			h.bs = append(h.bs, i)
		}
		for j := pj + 1; j < ej; j++ {
			h.as = append(h.as, j)
		}
		if len(h.bs)+len(h.as) > 0 {
			hunks = append(hunks, h)
		}
		pi, pj = ei, ej
	}
	settle := func(bs, as []int) {
		if len(bs) == 0 || len(as) == 0 {
			return
		}
		count := map[uint32]int{}
		for _, i := range bs {
			for _, w := range b.words[i] {
				count[w]++
			}
		}
		for _, j := range as {
			for _, w := range a.words[j] {
				count[w]--
			}
		}
		for _, n := range count {
			if n != 0 {
				return
			}
		}
		// The same words, grouped into other lines: pair them in order.
		for k, i := range bs {
			m.pb[i] = as[min(k, len(as)-1)]
		}
		for k, j := range as {
			m.pa[j] = bs[min(k, len(bs)-1)]
		}
	}
	var wb, wa []int
	last := -1
	for _, h := range hunks {
		if last >= 0 && h.k-last > reorderWindow {
			settle(wb, wa)
			wb, wa = nil, nil
		}
		wb, wa = append(wb, h.bs...), append(wa, h.as...)
		last = h.k
	}
	settle(wb, wa)
}
