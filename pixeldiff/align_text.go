package pixeldiff

// Content-anchored alignment of the pages inside a gap.
//
// Between the pages that match exactly (equal masked hashes, AlignWith's
// anchors) the pages of both sides are aligned by the document-wide
// sequence of their text lines (PageSig.Text): a longest common
// subsequence of the gap's lines tells, for every line of the original,
// whether it survives and on which edited page, and for every line of the
// edited file whether it is original. From that:
//
//   - an edited page is inserted only if it has text and none of its lines
//     are original; an original page is deleted only if it has text and
//     none of its lines survive;
//   - pages that share lines are paired in order, the pairs holding the most
//     shared lines (a maximum-weight monotone matching): a page that keeps
//     its content is the same page, however far that content moved;
//   - a page that shares lines but finds no partner — the overflow of a
//     reflow, two pages merged into one, one split in two — is neither
//     inserted nor deleted: it is LabelReflowed, its content moved;
//   - pages without text (pictures, blank pages) are paired by their pixels:
//     the share of pixel lines, or the perceptual hash for pictures, never
//     for a page that is blank outside its bands;
//   - what is left with no shared content (a page whose every line was
//     rewritten) pairs up by position when both sides have as many such
//     pages between two matches: a page replaced in place is changed.
//
// Finally a deleted and an inserted page whose text lines are mostly the
// same are one moved page (swapped slides whose slide numbers differ).

// LabelReflowed marks a page that is neither inserted nor deleted although
// it has no partner: its content survives on other pages (an edited page
// holding only moved original lines — the overflow at the end of a
// reflow —, or an original page whose lines went to other edited pages).
// DetectReflow puts every such edited page into a run.
const LabelReflowed = "reflowed"

// hasText reports whether every page has a text layer.
func hasText(sigs []PageSig) bool {
	for _, s := range sigs {
		if s.Text == nil {
			return false
		}
	}
	return len(sigs) > 0
}

// textGaps aligns gaps by text lines.
type textGaps struct {
	before, after []PageSig
	o             AlignOptions
	px            *gapScorer
	lb, la        []pageLines // text lines outside the bands, per page
	ids           map[uint64]int32
}

// pageLines are a page's text lines outside its bands: identities and words.
type pageLines struct {
	ids   []int32
	words [][]uint32
}

func newTextGaps(before, after []PageSig, o AlignOptions, px *gapScorer) *textGaps {
	g := &textGaps{before: before, after: after, o: o, px: px, ids: map[uint64]int32{}}
	g.lb = textPages(before, o.Bands, g.ids)
	g.la = textPages(after, o.Bands, g.ids)
	return g
}

// textPages numbers the text lines of sigs outside the bands (ids shared
// through ids).
func textPages(sigs []PageSig, b Bands, ids map[uint64]int32) []pageLines {
	out := make([]pageLines, len(sigs))
	for i, s := range sigs {
		for _, k := range s.textIdx(b) {
			l := s.Text.Lines[k]
			id, ok := ids[l]
			if !ok {
				id = int32(len(ids))
				ids[l] = id
			}
			out[i].ids = append(out[i].ids, id)
			out[i].words = append(out[i].words, s.Text.words(k))
		}
	}
	return out
}

// blank reports whether a page shows nothing outside its bands: no text
// line and no block of pixels.
func (g *textGaps) blankB(i int) bool { return len(g.lb[i].ids) == 0 && len(g.px.lb[i]) == 0 }
func (g *textGaps) blankA(j int) bool { return len(g.la[j].ids) == 0 && len(g.px.la[j]) == 0 }

// lineMatches matches the text lines of before pages [b0, b1) with those
// of after pages [a0, a1) by their longest common subsequence: the matched
// lines as (before page, after page) pairs relative to the gap, and each
// page's count of matched lines. Regrouped lines (matchLines) are not
// matched here: a regrouping window can span two swapped slides, and a
// page's partner is what this decides; reflow detection forgives them.
func (g *textGaps) lineMatches(b0, b1, a0, a1 int) (pairs [][2]int, sb, oa []int) {
	sb, oa = make([]int, b1-b0), make([]int, a1-a0)
	var sB, sA lineSeq
	for i := b0; i < b1; i++ {
		for _, id := range g.lb[i].ids {
			sB.add(id, nil, i-b0)
		}
	}
	for j := a0; j < a1; j++ {
		for _, id := range g.la[j].ids {
			sA.add(id, nil, j-a0)
		}
	}
	sB.words, sA.words = nil, nil
	m := matchLines(sB, sA)
	for i, j := range m.pb {
		if j >= 0 {
			pairs = append(pairs, [2]int{sB.page[i], sA.page[j]})
			sb[sB.page[i]]++
		}
	}
	for j, i := range m.pa {
		if i >= 0 {
			oa[sA.page[j]]++
		}
	}
	return pairs, sb, oa
}

// align aligns before[b0:b1] with after[a0:a1], none of which matched by
// masked hash.
func (g *textGaps) align(b0, b1, a0, a1 int) []Pair {
	p, q := b1-b0, a1-a0
	if p == 0 && q == 0 {
		return nil
	}
	linePairs, sb, oa := g.lineMatches(b0, b1, a0, a1)
	// Lines shared by before page i and after page j: dense when the gap
	// is small enough, else a map.
	var sharedAt func(i, j int) int
	if p*q <= gapMatchCells {
		shared := make([]int32, p*q)
		for _, lp := range linePairs {
			shared[lp[0]*q+lp[1]]++
		}
		sharedAt = func(i, j int) int { return int(shared[i*q+j]) }
	} else {
		shared := map[[2]int]int{}
		for _, lp := range linePairs {
			shared[lp]++
		}
		sharedAt = func(i, j int) int { return shared[[2]int{i, j}] }
	}
	tb := func(i int) int { return len(g.lb[b0+i].ids) }
	ta := func(j int) int { return len(g.la[a0+j].ids) }
	score := func(i, j int) int {
		switch {
		case tb(i) > 0 && ta(j) > 0:
			return 1000 * sharedAt(i, j)
		case tb(i) > 0 || ta(j) > 0:
			return 0 // a page of text and one without: not the same page
		case g.blankB(b0+i) || g.blankA(a0+j):
			return 0 // never paired by a perceptual hash alone
		}
		if d := g.px.dist(b0+i, a0+j); d <= maxGapDist {
			return 1 + maxGapDist - d
		}
		return 0
	}
	matches := monotoneMatch(p, q, score)
	// gone: the before page has no content left in the edited gap; fresh:
	// the after page has none from the original.
	gone := func(i int) bool { return tb(i) == 0 || sb[i] == 0 }
	fresh := func(j int) bool { return ta(j) == 0 || oa[j] == 0 }
	var out []Pair
	i, j := 0, 0
	emitUntil := func(ie, je int) {
		// Pages with no shared content between two matches, as many on
		// both sides and of the same kind (text or not, never blank): a
		// page replaced in place.
		var rb, ra []int
		for k := i; k < ie; k++ {
			if gone(k) && !g.blankB(b0+k) {
				rb = append(rb, k)
			}
		}
		for k := j; k < je; k++ {
			if fresh(k) && !g.blankA(a0+k) {
				ra = append(ra, k)
			}
		}
		pairAt := map[int]int{} // before index → after index
		if len(rb) == len(ra) {
			ok := true
			for k := range rb {
				if (tb(rb[k]) > 0) != (ta(ra[k]) > 0) {
					ok = false
				}
			}
			if ok {
				for k := range rb {
					pairAt[rb[k]] = ra[k]
				}
			}
		}
		// The before pages first (where they were), then the after pages,
		// a replaced pair where its after page is.
		for ; i < ie; i++ {
			if _, ok := pairAt[i]; ok {
				continue
			}
			l := LabelDeleted
			if !gone(i) {
				l = LabelReflowed
			}
			out = append(out, Pair{Before: b0 + i + 1, Label: l})
		}
		byAfter := map[int]int{}
		for b, a := range pairAt {
			byAfter[a] = b
		}
		for ; j < je; j++ {
			if b, ok := byAfter[j]; ok {
				out = append(out, Pair{Before: b0 + b + 1, After: a0 + j + 1, Label: LabelChanged})
				continue
			}
			l := LabelInserted
			if !fresh(j) {
				l = LabelReflowed
			}
			out = append(out, Pair{After: a0 + j + 1, Label: l})
		}
	}
	for _, mt := range matches {
		emitUntil(mt[0], mt[1])
		out = append(out, Pair{Before: b0 + mt[0] + 1, After: a0 + mt[1] + 1, Label: LabelChanged})
		i, j = mt[0]+1, mt[1]+1
	}
	emitUntil(p, q)
	return out
}

// monotoneMatch pairs p before pages with q after pages in order (no two
// pairs cross), maximising the total score; pairs score > 0 only. Returns
// index pairs, ascending. Gaps too large for the dynamic programme are
// paired greedily, each before page with its best-scoring after page not
// yet passed.
func monotoneMatch(p, q int, score func(i, j int) int) [][2]int {
	if p == 0 || q == 0 {
		return nil
	}
	if p*q > gapMatchCells {
		var out [][2]int
		j := 0
		for i := 0; i < p && j < q; i++ {
			best, bj := 0, -1
			for k := j; k < q && k < j+64; k++ {
				if s := score(i, k); s > best {
					best, bj = s, k
				}
			}
			if bj >= 0 {
				out = append(out, [2]int{i, bj})
				j = bj + 1
			}
		}
		return out
	}
	w := q + 1
	s := make([]int64, (p+1)*w)
	for i := 1; i <= p; i++ {
		for j := 1; j <= q; j++ {
			best := max(s[(i-1)*w+j], s[i*w+j-1])
			if sc := score(i-1, j-1); sc > 0 {
				best = max(best, s[(i-1)*w+j-1]+int64(sc))
			}
			s[i*w+j] = best
		}
	}
	return matchedPairs(s, p, q)
}

// pairMovedText joins a deleted and an inserted page of text whose lines
// are mostly the same (at least MinShared percent of the larger page's
// lines) into one moved pair, placed where the page is now: its content
// moved, whatever else about it changed (a slide number outside any band,
// a swapped pair of slides of which the alignment anchored the other).
// The edited page may also be one the alignment called reflowed: when two
// adjacent slides swap and their numbers share a text line with their
// content, the longest common subsequence keeps the longer slide in order
// and sees the shorter one's lines neither surviving nor new (corpus
// poi_stress021.pptx, slides 3 and 4 swapped: "deleted 3").
//
// Then two changed pairs in place that traded their content (slides
// swapped across anchored slides: each gap holds one page on each side,
// paired by position) become two moved pairs.
func (g *textGaps) pairMovedText(seq []Pair) []Pair {
	seq = g.swapInPlace(seq)
	var del []int
	for k, p := range seq {
		if p.Label == LabelDeleted && len(g.lb[p.Before-1].ids) > 0 {
			del = append(del, k)
		}
	}
	if len(del) == 0 {
		return seq
	}
	drop := map[int]bool{}
	for k, p := range seq {
		lone := p.Label == LabelInserted || (p.Label == LabelReflowed && p.Before == 0)
		if !lone || p.After == 0 || len(g.la[p.After-1].ids) == 0 {
			continue
		}
		la := sortedCopy(g.la[p.After-1].ids)
		best, bk := 0, -1
		for _, dk := range del {
			if drop[dk] {
				continue
			}
			lb := sortedCopy(g.lb[seq[dk].Before-1].ids)
			n := commonSorted(lb, la)
			if 100*n >= g.o.MinShared*max(len(lb), len(la)) && n > best {
				best, bk = n, dk
			}
		}
		if bk < 0 {
			continue
		}
		drop[bk] = true
		seq[k] = g.movedPair(seq[bk].Before, p.After)
	}
	if len(drop) == 0 {
		return seq
	}
	out := seq[:0:0]
	for k, p := range seq {
		if !drop[k] {
			out = append(out, p)
		}
	}
	return out
}

// similar reports whether original page b and edited page a (1-based)
// share at least MinShared percent of the larger one's text lines.
func (g *textGaps) similar(b, a int) bool {
	lb, la := sortedCopy(g.lb[b-1].ids), sortedCopy(g.la[a-1].ids)
	if len(lb) == 0 || len(la) == 0 {
		return false
	}
	return 100*commonSorted(lb, la) >= g.o.MinShared*max(len(lb), len(la))
}

// swapInPlace turns two changed pairs in place whose pages traded content
// — neither like its partner, each like the other's — into two moved
// pairs.
func (g *textGaps) swapInPlace(seq []Pair) []Pair {
	var cand []int
	for k, p := range seq {
		if p.Label == LabelChanged && !p.Moved && p.Before > 0 && p.After > 0 && !g.similar(p.Before, p.After) {
			cand = append(cand, k)
		}
	}
	done := map[int]bool{}
	for x, k1 := range cand {
		for _, k2 := range cand[x+1:] {
			if done[k1] || done[k2] {
				continue
			}
			p1, p2 := seq[k1], seq[k2]
			if !g.similar(p1.Before, p2.After) || !g.similar(p2.Before, p1.After) {
				continue
			}
			seq[k1] = g.movedPair(p2.Before, p1.After)
			seq[k2] = g.movedPair(p1.Before, p2.After)
			done[k1], done[k2] = true, true
		}
	}
	return seq
}

// movedPair is original page b shown at edited page a, moved.
func (g *textGaps) movedPair(b, a int) Pair {
	return Pair{Before: b, After: a, Label: LabelChanged, Moved: true,
		MarginsOnly: g.before[b-1].Masked(g.o.Bands) == g.after[a-1].Masked(g.o.Bands) && g.before[b-1].Full != g.after[a-1].Full}
}
