package content

import (
	"slices"
	"unicode"
	"unicode/utf8"
)

// Pairing of the units left over between two matched units.
const (
	// pairDPCells bounds the similarity table of one gap (deleted ×
	// inserted units); larger gaps are paired by position.
	pairDPCells = 4096
	// minSimilarity is the share of words two units must have in common
	// to be reported as one unit changed (instead of one deleted and one
	// inserted), unless they sit at the same place of a gap of equal
	// sides or both are short.
	minSimilarity = 0.3
	// shortWords: units of at most this many words pair whatever their
	// similarity ("line" → "blue" is a changed title).
	shortWords = 3
)

// collector gathers the changes in document order, listing the first max
// and counting the rest.
type collector struct {
	max       int
	changes   []Change
	truncated int
	sum       Summary
	// noFormats: formatting cannot be resolved on one side; it is not
	// compared.
	noFormats bool
}

func (c *collector) room() bool { return len(c.changes) < c.max }

func (c *collector) add(ch Change) {
	if c.room() {
		c.changes = append(c.changes, ch)
		return
	}
	c.truncated++
}

// aligner aligns the units of two stories.
type aligner struct {
	c      *collector
	fa, fb *formatTable
	a, b   []*unit
	words  map[*unit][]uint64 // sorted word hashes, computed when needed
}

// alignStories reports the differences between the units a (original) and
// b (edited) of one story.
func (c *collector) alignStories(a, b []*unit, fa, fb *formatTable) {
	c.sum.UnitsBefore += len(a)
	c.sum.UnitsAfter += len(b)
	al := &aligner{c: c, fa: fa, fb: fb, a: a, b: b, words: map[*unit][]uint64{}}
	ha := make([]uint64, len(a))
	for i, u := range a {
		ha[i] = u.hash
	}
	hb := make([]uint64, len(b))
	for j, u := range b {
		hb[j] = u.hash
	}
	matches := commonSubsequence(ha, hb)
	matchedA := make([]bool, len(a))
	matchedB := make([]bool, len(b))
	for _, m := range matches {
		matchedA[m.i], matchedB[m.j] = true, true
	}
	// Moved: an unmatched unit of the edited file whose text equals an
	// unmatched unit of the original elsewhere (empty units never move).
	pool := map[uint64][]int{}
	for i, u := range a {
		if !matchedA[i] && hasInk(u.text) {
			pool[u.hash] = append(pool[u.hash], i)
		}
	}
	movedFrom := map[int]int{} // j → i
	movedA := map[int]bool{}
	if len(pool) > 0 {
		for j, u := range b {
			if matchedB[j] || !hasInk(u.text) {
				continue
			}
			if is := pool[u.hash]; len(is) > 0 {
				movedFrom[j] = is[0]
				movedA[is[0]] = true
				pool[u.hash] = is[1:]
			}
		}
	}
	pa, pb := 0, 0
	for _, m := range append(matches, pair{len(a), len(b)}) {
		al.gap(pa, m.i, pb, m.j, movedFrom, movedA)
		if m.i < len(a) {
			al.same(a[m.i], b[m.j])
		}
		pa, pb = m.i+1, m.j+1
	}
}

// gap reports the units between two matches: pairs of changed units,
// deleted, inserted and moved ones, in the edited file's order (deleted
// units where they were).
func (al *aligner) gap(alo, ahi, blo, bhi int, movedFrom map[int]int, movedA map[int]bool) {
	var as, bs []int
	for i := alo; i < ahi; i++ {
		if !movedA[i] {
			as = append(as, i)
		}
	}
	for j := blo; j < bhi; j++ {
		if _, mv := movedFrom[j]; !mv {
			bs = append(bs, j)
		}
	}
	pairs := al.pairUp(as, bs)
	ia, jb := alo, blo
	flush := func(iEnd, jEnd int) {
		for ; ia < iEnd; ia++ {
			if !movedA[ia] && !inPairsA(pairs, ia) {
				al.deleted(al.a[ia])
			}
		}
		for ; jb < jEnd; jb++ {
			if i, mv := movedFrom[jb]; mv {
				al.moved(al.a[i], al.b[jb])
				continue
			}
			if !inPairsB(pairs, jb) {
				al.inserted(al.b[jb])
			}
		}
	}
	for _, p := range pairs {
		flush(p.i, p.j)
		al.changed(al.a[p.i], al.b[p.j])
		ia, jb = p.i+1, p.j+1
	}
	flush(ahi, bhi)
}

func inPairsA(ps []pair, i int) bool {
	_, ok := slices.BinarySearchFunc(ps, i, func(p pair, i int) int { return p.i - i })
	return ok
}

func inPairsB(ps []pair, j int) bool {
	_, ok := slices.BinarySearchFunc(ps, j, func(p pair, j int) int { return p.j - j })
	return ok
}

// pairUp pairs deleted units as with inserted units bs that are the same
// unit changed: a monotone matching maximising word similarity among
// units of the same scope (dynamic programming on small gaps, by position
// on large ones).
func (al *aligner) pairUp(as, bs []int) []pair {
	k, l := len(as), len(bs)
	if k == 0 || l == 0 {
		return nil
	}
	if k*l > pairDPCells {
		var out []pair
		for x := 0; x < min(k, l); x++ {
			ua, ub := al.a[as[x]], al.b[bs[x]]
			if ua.scope == ub.scope && (k == l || al.similarity(ua, ub) >= minSimilarity) {
				out = append(out, pair{as[x], bs[x]})
			}
		}
		return out
	}
	score := func(x, y int) float64 {
		ua, ub := al.a[as[x]], al.b[bs[y]]
		if ua.scope != ub.scope {
			return -1
		}
		s := al.similarity(ua, ub)
		if s >= minSimilarity || (k == l && x == y) || (len(al.wordsOf(ua)) <= shortWords && len(al.wordsOf(ub)) <= shortWords) {
			return s + 0.01
		}
		return -1
	}
	// dp[x][y]: best total over as[:x], bs[:y].
	dp := make([]float64, (k+1)*(l+1))
	at := func(x, y int) *float64 { return &dp[x*(l+1)+y] }
	for x := 1; x <= k; x++ {
		for y := 1; y <= l; y++ {
			best := max(*at(x-1, y), *at(x, y-1))
			if s := score(x-1, y-1); s > 0 {
				best = max(best, *at(x-1, y-1)+s)
			}
			*at(x, y) = best
		}
	}
	var rev []pair
	for x, y := k, l; x > 0 && y > 0; {
		switch {
		case *at(x, y) == *at(x-1, y):
			x--
		case *at(x, y) == *at(x, y-1):
			y--
		default:
			rev = append(rev, pair{as[x-1], bs[y-1]})
			x--
			y--
		}
	}
	slices.Reverse(rev)
	return rev
}

// wordsOf returns the sorted hashes of the words of u (no whitespace).
func (al *aligner) wordsOf(u *unit) []uint64 {
	if w, ok := al.words[u]; ok {
		return w
	}
	var w []uint64
	for _, t := range tokenize(u.text) {
		r, _ := utf8.DecodeRuneInString(u.text[t.start:])
		if unicode.IsSpace(r) {
			continue
		}
		w = append(w, tokenHash(u.text, t))
	}
	slices.Sort(w)
	al.words[u] = w
	return w
}

// similarity is the Dice coefficient of the two units' word multisets.
func (al *aligner) similarity(ua, ub *unit) float64 {
	wa, wb := al.wordsOf(ua), al.wordsOf(ub)
	if len(wa)+len(wb) == 0 {
		return 1
	}
	common := 0
	for i, j := 0, 0; i < len(wa) && j < len(wb); {
		switch {
		case wa[i] == wb[j]:
			common++
			i++
			j++
		case wa[i] < wb[j]:
			i++
		default:
			j++
		}
	}
	return 2 * float64(common) / float64(len(wa)+len(wb))
}

// same handles two units of equal text at matching places: only their
// formatting can differ.
func (al *aligner) same(ua, ub *unit) {
	if al.formatChange(ua, ub, nil) {
		al.c.sum.Changed++
		return
	}
	al.c.sum.Unchanged++
}

// formatChange compares the formatting of two units over their shared
// text, records a format change if there is one, and reports whether
// there was.
func (al *aligner) formatChange(ua, ub *unit, shared []segment) bool {
	if al.c.noFormats {
		return false
	}
	if shared == nil {
		if ua.style == ub.style && sameRuns(ua, ub, al.fa, al.fb) {
			return false
		}
		if ua.text != ub.text {
			// Equal once normalised (spacing differs): compare over the
			// words they share.
			shared = diffWords(ua.text, ub.text).shared
			if shared == nil {
				shared = []segment{}
			}
		}
	}
	d := compareFormats(ua, ub, al.fa, al.fb, shared)
	if !d.any {
		return false
	}
	c := al.c
	c.sum.Format++
	lost := d.lost()
	if lost {
		c.sum.FormattingLost++
	}
	if !c.room() {
		c.truncated++
		return true
	}
	before, after, detail := d.describe("run", "runs")
	c.add(Change{Kind: KindFormat, Part: ub.part, Where: ub.where, Before: before, After: after,
		Detail: detail, Text: clip(oneLine(ub.text), 120), Lost: lost})
	return true
}

// sameRuns reports whether two units of equal text have the same runs.
func sameRuns(ua, ub *unit, fa, fb *formatTable) bool {
	if len(ua.runs) != len(ub.runs) || ua.text != ub.text {
		return false
	}
	for i := range ua.runs {
		if ua.runs[i].n != ub.runs[i].n || fa.list[ua.runs[i].f] != fb.list[ub.runs[i].f] {
			return false
		}
	}
	return true
}

func (al *aligner) changed(ua, ub *unit) {
	c := al.c
	c.sum.Changed++
	c.sum.Text++
	wd := diffWords(ua.text, ub.text)
	if c.room() {
		c.add(Change{Kind: KindText, Part: ub.part, Where: ub.where,
			Before: sideText(wd.ops, "-"), After: sideText(wd.ops, "+"),
			Detail: describeOps(wd.ops), Diff: clipOps(wd.ops)})
	} else {
		c.truncated++
	}
	if wd.shared == nil {
		wd.shared = []segment{}
	}
	al.formatChange(ua, ub, wd.shared)
}

func (al *aligner) deleted(ua *unit) {
	c := al.c
	c.sum.Changed++
	c.sum.Deleted++
	c.add(Change{Kind: KindDeleted, Part: ua.part, Where: ua.where, Before: clipMiddle(ua.text, textRunes)})
}

func (al *aligner) inserted(ub *unit) {
	c := al.c
	c.sum.Inserted++
	c.add(Change{Kind: KindInserted, Part: ub.part, Where: ub.where, After: clipMiddle(ub.text, textRunes)})
}

func (al *aligner) moved(ua, ub *unit) {
	c := al.c
	c.sum.Changed++
	c.sum.Moved++
	t := clipMiddle(ub.text, textRunes)
	c.add(Change{Kind: KindMoved, Part: ub.part, Where: ub.where, From: ua.where, Before: t, After: t,
		Detail: "moved from " + ua.where})
	al.formatChange(ua, ub, nil)
}
