package content

import "sort"

// maxLCSCells bounds the table of the exact LCS run on a stretch without
// unique anchors (one byte a cell): 2 MiB. Larger stretches without an
// anchor are left unmatched (the caller pairs their units by similarity
// or reports them inserted and deleted).
const maxLCSCells = 1 << 21

// pair is one match: a[i] == b[j].
type pair struct{ i, j int }

// commonSubsequence returns matches between a and b, increasing in both:
// the common prefix and suffix, then an exact longest common subsequence
// when the rest is small (at most maxLCSCells pairs), else a patience
// split (elements unique in both stretches as anchors, their longest
// increasing subsequence, recursively inside the gaps). Time is O(n+m) for
// a typical edit of a large document; memory is O(n+m) plus at most
// maxLCSCells bytes.
func commonSubsequence(a, b []uint64) []pair {
	d := &seqDiffer{a: a, b: b}
	d.run(0, len(a), 0, len(b))
	return d.out
}

type seqDiffer struct {
	a, b []uint64
	out  []pair
}

func (d *seqDiffer) run(alo, ahi, blo, bhi int) {
	a, b := d.a, d.b
	for alo < ahi && blo < bhi && a[alo] == b[blo] {
		d.out = append(d.out, pair{alo, blo})
		alo++
		blo++
	}
	suffix := 0
	for alo < ahi-suffix && blo < bhi-suffix && a[ahi-1-suffix] == b[bhi-1-suffix] {
		suffix++
	}
	ahi -= suffix
	bhi -= suffix
	if alo < ahi && blo < bhi {
		d.middle(alo, ahi, blo, bhi)
	}
	for k := 0; k < suffix; k++ {
		d.out = append(d.out, pair{ahi + k, bhi + k})
	}
}

// middle matches a stretch that starts and ends with a difference: an
// exact LCS when the stretch is small enough, else the patience split.
func (d *seqDiffer) middle(alo, ahi, blo, bhi int) {
	if (ahi-alo)*(bhi-blo) <= maxLCSCells {
		d.lcs(alo, ahi, blo, bhi)
		return
	}
	anchors := d.uniqueAnchors(alo, ahi, blo, bhi)
	if len(anchors) > 0 {
		pa, pb := alo, blo
		for _, p := range anchors {
			d.run(pa, p.i, pb, p.j)
			d.out = append(d.out, p)
			pa, pb = p.i+1, p.j+1
		}
		d.run(pa, ahi, pb, bhi)
	}
	// No unique anchor in a large stretch: left unmatched.
}

// uniqueAnchors returns the longest increasing run of elements occurring
// exactly once in a[alo:ahi] and once in b[blo:bhi].
func (d *seqDiffer) uniqueAnchors(alo, ahi, blo, bhi int) []pair {
	type occ struct {
		na, nb int
		i, j   int
	}
	counts := make(map[uint64]*occ, ahi-alo)
	for i := alo; i < ahi; i++ {
		o := counts[d.a[i]]
		if o == nil {
			o = &occ{}
			counts[d.a[i]] = o
		}
		o.na++
		o.i = i
	}
	for j := blo; j < bhi; j++ {
		if o := counts[d.b[j]]; o != nil {
			o.nb++
			o.j = j
		}
	}
	var cand []pair
	for i := alo; i < ahi; i++ {
		if o := counts[d.a[i]]; o.na == 1 && o.nb == 1 {
			cand = append(cand, pair{o.i, o.j})
		}
	}
	if len(cand) == 0 {
		return nil
	}
	// cand is sorted by i; the longest subsequence increasing in j
	// (patience sorting, O(k log k)).
	tails := []int{} // index in cand of the smallest tail of each length
	prev := make([]int, len(cand))
	for k, c := range cand {
		pos := sort.Search(len(tails), func(x int) bool { return cand[tails[x]].j >= c.j })
		if pos > 0 {
			prev[k] = tails[pos-1]
		} else {
			prev[k] = -1
		}
		if pos == len(tails) {
			tails = append(tails, k)
		} else {
			tails[pos] = k
		}
	}
	out := make([]pair, len(tails))
	for k, x := len(tails)-1, tails[len(tails)-1]; k >= 0; k, x = k-1, prev[x] {
		out[k] = cand[x]
	}
	return out
}

// lcs appends an exact longest common subsequence of a small stretch
// (classic dynamic programming with a direction table).
func (d *seqDiffer) lcs(alo, ahi, blo, bhi int) {
	n, m := ahi-alo, bhi-blo
	dir := make([]byte, n*m) // 1 diagonal, 2 up (skip a), 3 left (skip b)
	prevRow := make([]int32, m+1)
	row := make([]int32, m+1)
	for i := 1; i <= n; i++ {
		row[0] = 0
		ai := d.a[alo+i-1]
		for j := 1; j <= m; j++ {
			switch {
			case ai == d.b[blo+j-1]:
				row[j] = prevRow[j-1] + 1
				dir[(i-1)*m+j-1] = 1
			case prevRow[j] >= row[j-1]:
				row[j] = prevRow[j]
				dir[(i-1)*m+j-1] = 2
			default:
				row[j] = row[j-1]
				dir[(i-1)*m+j-1] = 3
			}
		}
		prevRow, row = row, prevRow
	}
	var rev []pair
	for i, j := n, m; i > 0 && j > 0; {
		switch dir[(i-1)*m+j-1] {
		case 1:
			rev = append(rev, pair{alo + i - 1, blo + j - 1})
			i--
			j--
		case 2:
			i--
		default:
			j--
		}
	}
	for k := len(rev) - 1; k >= 0; k-- {
		d.out = append(d.out, rev[k])
	}
}
