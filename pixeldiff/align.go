package pixeldiff

import "slices"

// Page labels used in Pair.Label.
const (
	LabelSame     = "same"     // the page is pixel-identical
	LabelChanged  = "changed"  // the page is there in both files and differs
	LabelInserted = "inserted" // the page exists only in the edited file
	LabelDeleted  = "deleted"  // the page exists only in the original
)

// DefaultMaxPHashDistance is the largest perceptual-hash distance (bits out
// of 64) at which two pages with few lines (pictures, slides) inside an
// unmatched gap are still paired as one changed page rather than a
// deletion and an insertion.
const DefaultMaxPHashDistance = 12

// DefaultMinShared is the share of lines (in percent) two pages of text
// inside an unmatched gap must have in common to be paired as one changed
// page: a page that lost a paragraph, or whose content moved by a few
// lines, keeps most of its lines.
const DefaultMinShared = 50

// minLinesForText is the number of lines from which a page is compared by
// its lines rather than by its perceptual hash.
const minLinesForText = 3

// Pair is one line of a page alignment: a page of the original (Before),
// of the edited file (After), or of both.
type Pair struct {
	// Before and After are 1-based page numbers; 0 when the page is absent
	// on that side (inserted: Before == 0; deleted: After == 0).
	Before int `json:"before"`
	After  int `json:"after"`
	// Label is LabelSame, LabelChanged, LabelInserted, LabelDeleted or
	// (text alignment only) LabelReflowed.
	Label string `json:"label"`
	// MarginsOnly marks a changed pair whose pages are identical outside
	// the header/footer bands (their masked hashes are equal): a page
	// number or running header that changed, not content.
	MarginsOnly bool `json:"margins_only,omitempty"`
	// Moved marks a changed pair whose pages are identical outside the
	// bands but out of order with their neighbours: the page moved (two
	// pages swapped, a page moved elsewhere). Such a pair is "changed"
	// because the document order changed, although the pixels did not.
	Moved bool `json:"moved,omitempty"`
}

// AlignOptions tunes AlignWith.
type AlignOptions struct {
	// Bands are the running header and footer bands of the original (see
	// BandDetector), used on both sides. Zero: pages are matched on their
	// full content, and a page number that changed breaks the match.
	Bands Bands
	// MaxPHashDistance is the pairing threshold inside gaps for pages with
	// few lines; 0 means DefaultMaxPHashDistance.
	MaxPHashDistance int
	// MinShared is the pairing threshold inside gaps for pages of text:
	// the percentage of lines they share; 0 means DefaultMinShared.
	MinShared int
}

// Align aligns the pages of an original (before) with those of an edited
// file (after), with the original's running header and footer bands; see
// AlignWith.
func Align(before, after []PageSig, bands Bands) []Pair {
	return AlignWith(before, after, AlignOptions{Bands: bands})
}

// AlignWith aligns two page sequences the way a text diff aligns lines, so
// that an inserted or deleted page does not make every later page
// "changed" (which is what position-by-position pairing in diff-pdf,
// pdf-visual-diff or reg-cli reports):
//
//  1. a longest common subsequence (Myers' O(ND) algorithm with the
//     linear-space middle-snake refinement) over the masked hashes, so
//     pages whose only difference is a running header or footer still
//     anchor the alignment;
//  2. inside each gap between anchors, pages are paired in order by
//     similarity — the share of lines (PageSig.Lines) they have in common
//     for pages of text, the perceptual-hash distance for pictures — then
//     what is left of a gap pairs up position by position when both sides
//     have as many pages;
//  3. leftover deleted and inserted pages with equal masked hashes are
//     paired as moved.
//
// When both sides have a text layer (PageSig.Text), step 2 aligns each gap
// by the sequence of its text lines instead (align_text.go): a page is
// inserted only if none of its lines are original, deleted only if none
// of its lines survive, and a page whose content moved without a partner
// is LabelReflowed; a deleted and an inserted page sharing most of their
// lines are paired as moved.
//
// Every page of both sides appears in exactly one Pair; pairs are in the
// order of the edited file, deleted pages where they used to be.
func AlignWith(before, after []PageSig, o AlignOptions) []Pair {
	if o.MaxPHashDistance <= 0 {
		o.MaxPHashDistance = DefaultMaxPHashDistance
	}
	if o.MinShared <= 0 {
		o.MinShared = DefaultMinShared
	}
	// Map masked hashes to small integers: the diff compares ints.
	ids := make(map[Hash]int32, len(before)+len(after))
	key := func(s []PageSig) []int32 {
		out := make([]int32, len(s))
		for i, p := range s {
			h := p.Masked(o.Bands)
			id, ok := ids[h]
			if !ok {
				id = int32(len(ids))
				ids[h] = id
			}
			out[i] = id
		}
		return out
	}
	m := myers{a: key(before), b: key(after)}
	m.lcs(0, len(before), 0, len(after))

	g := newGapScorer(before, after, o)
	var tg *textGaps
	if hasText(before) && hasText(after) {
		tg = newTextGaps(before, after, o, g)
	}
	// Walk anchors and the gaps between them, in order.
	var seq []Pair
	pb, pa := 0, 0
	flush := func(b1, a1 int) {
		if tg != nil {
			seq = append(seq, tg.align(pb, b1, pa, a1)...)
			return
		}
		seq = append(seq, g.align(pb, b1, pa, a1)...)
	}
	for _, mt := range m.out {
		flush(mt[0], mt[1])
		p := Pair{Before: mt[0] + 1, After: mt[1] + 1, Label: LabelSame}
		if before[mt[0]].Full != after[mt[1]].Full {
			p.Label, p.MarginsOnly = LabelChanged, true
		}
		seq = append(seq, p)
		pb, pa = mt[0]+1, mt[1]+1
	}
	flush(len(before), len(after))
	seq = pairMoved(before, after, m.a, m.b, seq)
	if tg != nil {
		seq = tg.pairMovedText(seq)
	}
	return markSwaps(before, after, seq)
}

// markSwaps marks the other half of a swap as moved too. Of two pages that
// traded places the alignment keeps one in order and calls the other
// moved; but neither is more moved than the other. A moved pair that
// crosses exactly one pair in order, which crosses no other moved pair,
// is a swap: both are moved. (A page moved over several others crosses
// them all; they kept their order and are not marked.)
func markSwaps(before, after []PageSig, seq []Pair) []Pair {
	crosses := func(x, y Pair) bool {
		return (x.Before < y.Before && x.After > y.After) || (x.Before > y.Before && x.After < y.After)
	}
	var moved []int
	for k, p := range seq {
		if p.Moved {
			moved = append(moved, k)
		}
	}
	for _, mk := range moved {
		other := -1
		n := 0
		for k, p := range seq {
			if p.Moved || p.Before == 0 || p.After == 0 || !crosses(p, seq[mk]) {
				continue
			}
			n++
			other = k
		}
		if n != 1 {
			continue
		}
		c := 0
		for _, k := range moved {
			if crosses(seq[k], seq[other]) {
				c++
			}
		}
		if c != 1 {
			continue
		}
		p := seq[other]
		if p.Label == LabelSame || p.MarginsOnly {
			seq[other] = Pair{Before: p.Before, After: p.After, Label: LabelChanged, Moved: true,
				MarginsOnly: before[p.Before-1].Full != after[p.After-1].Full}
		} else {
			seq[other].Moved = true
		}
	}
	return seq
}

// gapScorer measures how alike two pages of a gap are.
type gapScorer struct {
	before, after []PageSig
	o             AlignOptions
	lb, la        [][]uint64 // sorted lines outside the bands, per page
}

func newGapScorer(before, after []PageSig, o AlignOptions) *gapScorer {
	g := &gapScorer{before: before, after: after, o: o}
	g.lb = make([][]uint64, len(before))
	for i, s := range before {
		g.lb[i] = sortedCopy(s.bandLines(o.Bands))
	}
	g.la = make([][]uint64, len(after))
	for i, s := range after {
		g.la[i] = sortedCopy(s.bandLines(o.Bands))
	}
	return g
}

// maxGapDist is the distance up to which gapScorer.dist pairs pages.
const maxGapDist = 50

// dist is the distance (0..100; pairable up to maxGapDist) between before
// page i and after page j: 100 minus the percentage of lines they share
// for pages of text, the perceptual-hash distance scaled so that
// MaxPHashDistance maps to maxGapDist otherwise.
func (g *gapScorer) dist(i, j int) int {
	lb, la := g.lb[i], g.la[j]
	if len(lb) >= minLinesForText && len(la) >= minLinesForText {
		shared := 100 * commonSorted(lb, la) / max(len(lb), len(la))
		return min(100, maxGapDist+g.o.MinShared-shared)
	}
	d := g.before[i].PHashDistance(g.after[j])
	return min(100, d*maxGapDist/g.o.MaxPHashDistance)
}

// align aligns before[b0:b1] with after[a0:a1], none of which matched by
// masked hash.
func (g *gapScorer) align(b0, b1, a0, a1 int) []Pair {
	p, q := b1-b0, a1-a0
	if p == 0 && q == 0 {
		return nil
	}
	matches := gapMatches(p, q, func(i, j int) int { return g.dist(b0+i, a0+j) })
	var out []Pair
	i, j := 0, 0
	emitUntil := func(ie, je int) {
		// Between two matches (or gap ends): equal counts pair up by
		// position — a page replaced in place is a changed page.
		if ie-i == je-j {
			for ; i < ie; i, j = i+1, j+1 {
				out = append(out, Pair{Before: b0 + i + 1, After: a0 + j + 1, Label: LabelChanged})
			}
			return
		}
		for ; i < ie; i++ {
			out = append(out, Pair{Before: b0 + i + 1, Label: LabelDeleted})
		}
		for ; j < je; j++ {
			out = append(out, Pair{After: a0 + j + 1, Label: LabelInserted})
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

// gapMatchCells bounds the dynamic programme of gapMatches (cells of 8
// bytes); larger gaps are paired greedily.
const gapMatchCells = 1 << 22

// gapBand is how far (in pages) from the gap's diagonal, beyond the
// difference of its sides, gapMatches looks for a partner: a page of a
// long gap is compared with the pages around its position, not with all
// of them (a 290-page reflow costs 290·(2·24+1) comparisons, not 290²).
const gapBand = 24

// gapMatches pairs p before pages with q after pages in order: the most
// pairs at a distance ≤ maxGapDist, and among those the smallest total
// distance. Returns index pairs, ascending.
func gapMatches(p, q int, dist func(i, j int) int) [][2]int {
	if p == 0 || q == 0 {
		return nil
	}
	if p*q > gapMatchCells {
		// Greedy, in order: each before page takes the first close-enough
		// after page not yet used, looking a bounded way ahead.
		var out [][2]int
		j := 0
		for i := 0; i < p && j < q; i++ {
			for k := j; k < q && k < j+64; k++ {
				if dist(i, k) <= maxGapDist {
					out = append(out, [2]int{i, k})
					j = k + 1
					break
				}
			}
		}
		return out
	}
	// score = pairs·weight − total distance; weight exceeds any total.
	weight := int64(101*min(p, q) + 1)
	band := gapBand + abs(p-q)
	w := q + 1
	s := make([]int64, (p+1)*w)
	for i := 1; i <= p; i++ {
		diag := (i - 1) * q / p
		for j := 1; j <= q; j++ {
			best := max(s[(i-1)*w+j], s[i*w+j-1])
			if abs(j-1-diag) > band {
				s[i*w+j] = best
				continue
			}
			if d := dist(i-1, j-1); d <= maxGapDist {
				best = max(best, s[(i-1)*w+j-1]+weight-int64(d))
			}
			s[i*w+j] = best
		}
	}
	return matchedPairs(s, p, q)
}

// matchedPairs walks back the table s ((p+1)×(q+1), row-major) of a
// maximum-weight monotone matching and returns the matched (i, j) in order.
func matchedPairs(s []int64, p, q int) [][2]int {
	w := q + 1
	var rev [][2]int
	for i, j := p, q; i > 0 && j > 0; {
		switch v := s[i*w+j]; {
		case v == s[(i-1)*w+j]:
			i--
		case v == s[i*w+j-1]:
			j--
		default:
			rev = append(rev, [2]int{i - 1, j - 1})
			i, j = i-1, j-1
		}
	}
	slices.Reverse(rev)
	return rev
}

// pairMoved joins a deleted and an inserted page with equal masked hashes
// into one moved pair, placed where the page is now.
// (keyB and keyA are the pages' masked-hash ids).
func pairMoved(before, after []PageSig, keyB, keyA []int32, seq []Pair) []Pair {
	deleted := map[int32][]int{} // masked-hash id → indices into seq
	for k, p := range seq {
		if p.Label == LabelDeleted {
			h := keyB[p.Before-1]
			deleted[h] = append(deleted[h], k)
		}
	}
	if len(deleted) == 0 {
		return seq
	}
	drop := map[int]bool{}
	for k, p := range seq {
		if p.Label != LabelInserted {
			continue
		}
		h := keyA[p.After-1]
		ks := deleted[h]
		if len(ks) == 0 {
			continue
		}
		d := seq[ks[0]]
		deleted[h] = ks[1:]
		drop[ks[0]] = true
		seq[k] = Pair{Before: d.Before, After: p.After, Label: LabelChanged, Moved: true,
			MarginsOnly: before[d.Before-1].Full != after[p.After-1].Full}
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

// myers computes a longest common subsequence of a and b with Myers'
// O((N+M)D) difference algorithm ("An O(ND) Difference Algorithm and Its
// Variations", 1986), using the linear-space middle-snake bisection.
type myers struct {
	a, b []int32
	out  [][2]int // matched index pairs, ascending
}

func (m *myers) lcs(a0, a1, b0, b1 int) {
	for a0 < a1 && b0 < b1 && m.a[a0] == m.b[b0] {
		m.out = append(m.out, [2]int{a0, b0})
		a0, b0 = a0+1, b0+1
	}
	suffix := 0
	for a1 > a0 && b1 > b0 && m.a[a1-1] == m.b[b1-1] {
		a1, b1 = a1-1, b1-1
		suffix++
	}
	if a0 < a1 && b0 < b1 {
		x, y, ok := m.split(a0, a1, b0, b1)
		// A split at a corner would recurse forever; it cannot happen
		// once the common prefix and suffix are stripped, but a wrong
		// split only loses matches, never loops.
		if ok && !(x == a0 && y == b0) && !(x == a1 && y == b1) {
			m.lcs(a0, x, b0, y)
			m.lcs(x, a1, y, b1)
		}
	}
	for k := 0; k < suffix; k++ {
		m.out = append(m.out, [2]int{a1 + k, b1 + k})
	}
}

// split finds the middle snake of a[a0:a1] against b[b0:b1] by running the
// forward and the reverse greedy searches towards each other, and returns
// the point where the forward path meets the reverse one: a point on an
// optimal edit path.
func (m *myers) split(a0, a1, b0, b1 int) (x, y int, ok bool) {
	n, mm := a1-a0, b1-b0
	maxD := (n + mm + 1) / 2
	off := maxD
	vlen := 2*maxD + 2
	v1 := make([]int, vlen)
	v2 := make([]int, vlen)
	for i := range v1 {
		v1[i], v2[i] = -1, -1
	}
	v1[off+1], v2[off+1] = 0, 0
	delta := n - mm
	front := delta%2 != 0 // paths meet while extending the forward one
	var k1start, k1end, k2start, k2end int
	for d := 0; d < maxD; d++ {
		for k1 := -d + k1start; k1 <= d-k1end; k1 += 2 {
			k1off := off + k1
			var x1 int
			if k1 == -d || (k1 != d && v1[k1off-1] < v1[k1off+1]) {
				x1 = v1[k1off+1]
			} else {
				x1 = v1[k1off-1] + 1
			}
			y1 := x1 - k1
			for x1 < n && y1 < mm && m.a[a0+x1] == m.b[b0+y1] {
				x1, y1 = x1+1, y1+1
			}
			v1[k1off] = x1
			switch {
			case x1 > n:
				k1end += 2 // ran off the right edge
			case y1 > mm:
				k1start += 2 // ran off the bottom
			case front:
				if k2off := off + delta - k1; k2off >= 0 && k2off < vlen && v2[k2off] != -1 {
					if x1 >= n-v2[k2off] {
						return a0 + x1, b0 + y1, true
					}
				}
			}
		}
		for k2 := -d + k2start; k2 <= d-k2end; k2 += 2 {
			k2off := off + k2
			var x2 int
			if k2 == -d || (k2 != d && v2[k2off-1] < v2[k2off+1]) {
				x2 = v2[k2off+1]
			} else {
				x2 = v2[k2off-1] + 1
			}
			y2 := x2 - k2
			for x2 < n && y2 < mm && m.a[a1-x2-1] == m.b[b1-y2-1] {
				x2, y2 = x2+1, y2+1
			}
			v2[k2off] = x2
			switch {
			case x2 > n:
				k2end += 2
			case y2 > mm:
				k2start += 2
			case !front:
				if k1off := off + delta - k2; k1off >= 0 && k1off < vlen && v1[k1off] != -1 {
					x1 := v1[k1off]
					y1 := off + x1 - k1off
					if x1 >= n-x2 {
						return a0 + x1, b0 + y1, true
					}
				}
			}
		}
	}
	return 0, 0, false
}
