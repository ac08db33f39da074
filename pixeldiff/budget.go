package pixeldiff

import "sort"

// DefaultShow is the number of changed pages shown as before/after images
// (the --show flag's default, DESIGN.md).
const DefaultShow = 3

// Selection is the outcome of the page budget: which pages are shown as
// images and which are only named.
type Selection struct {
	// Shown are the pairs to draw as before/after composites (an inserted
	// or deleted page with a placeholder on the missing side), in page
	// order.
	Shown []Pair
	// Listed are the other pairs that are not the same, named by number
	// only, in page order.
	Listed []Pair
	// Cut reports that the budget left changed pages out of Shown; the
	// caller must say so in its output.
	Cut bool
}

// Budget chooses which pages of an edit to show: at most n pairs (the
// --show value; n ≤ 0 shows none) out of those that are not the same.
// Content comes first: changed pages, inserted and deleted pages, and the
// page that caused a reflow; then pages that only reflowed; then moved
// pages; pages whose only change is a running header or footer come last.
// Within a rank, earlier pages first. Everything not shown is Listed.
func Budget(pairs []Pair, reflows []Reflow, n int) Selection {
	inRun := map[int]bool{} // after pages that only reflowed
	for _, r := range reflows {
		for p := r.From; p <= r.To; p++ {
			if p != r.Cause {
				inRun[p] = true
			}
		}
	}
	rank := func(p Pair) int {
		switch {
		case p.MarginsOnly:
			return 3
		case p.Moved:
			return 2
		case p.After > 0 && inRun[p.After]:
			return 1
		}
		return 0
	}
	var cand []int // indices into pairs, in page order
	for i, p := range pairs {
		// An original page whose content moved to other pages
		// (LabelReflowed, no edited page) has nothing to show: its
		// content is on the pages of its run.
		if p.Label != LabelSame && !(p.Label == LabelReflowed && p.After == 0) {
			cand = append(cand, i)
		}
	}
	order := append([]int(nil), cand...)
	sort.SliceStable(order, func(x, y int) bool { return rank(pairs[order[x]]) < rank(pairs[order[y]]) })
	show := map[int]bool{}
	for _, i := range order[:min(max(n, 0), len(order))] {
		show[i] = true
	}
	var s Selection
	for _, i := range cand {
		if show[i] {
			s.Shown = append(s.Shown, pairs[i])
		} else {
			s.Listed = append(s.Listed, pairs[i])
		}
	}
	s.Cut = len(s.Listed) > 0
	return s
}

// FirstPages is the budget of a file without a baseline: its first n pages
// (1-based numbers) out of pages, and whether pages were left out.
func FirstPages(pages, n int) (shown []int, cut bool) {
	for p := 1; p <= min(pages, max(n, 0)); p++ {
		shown = append(shown, p)
	}
	return shown, pages > len(shown)
}
