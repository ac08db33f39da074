package pixeldiff

import (
	"fmt"
	"math/rand"
	"reflect"
	"strings"
	"testing"
)

// pages for the alignment tests are smaller than A4 to keep hashing cheap.
const alW, alH = 300, 420

// doc builds pages from page specs: "c<seed>" is a content page,
// "c<seed>h" the same page with a running header numbered by its position,
// "c<seed>x" content page <seed> with one word changed.
func doc(t testing.TB, specs ...string) []*Raster {
	t.Helper()
	var pages []*Raster
	for i, s := range specs {
		var seed int64
		var suffix string
		if _, err := fmt.Sscanf(s, "c%d%s", &seed, &suffix); err != nil && !strings.Contains(err.Error(), "EOF") {
			t.Fatalf("bad spec %q: %v", s, err)
		}
		header := -1
		if strings.Contains(suffix, "h") {
			header = i + 1
		}
		r := synthPage(alW, alH, seed, header)
		if strings.Contains(suffix, "x") {
			fillRect(r, 100, 200, 160, 215, 0xff)
			drawWord(r, 104, 203, 40)
		}
		pages = append(pages, r)
	}
	return pages
}

// sign signs pages.
func sign(pages []*Raster) []PageSig {
	out := make([]PageSig, len(pages))
	for i, p := range pages {
		out[i] = Signature(p)
	}
	return out
}

// fmtPairs renders pairs compactly: "1-1 = 2-3 ~ 0-2 + 3-0 -" (same =,
// changed ~, margins-only ~m, moved ~v, inserted +, deleted -).
func fmtPairs(ps []Pair) string {
	var b strings.Builder
	for i, p := range ps {
		if i > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "%d-%d ", p.Before, p.After)
		switch p.Label {
		case LabelSame:
			b.WriteString("=")
		case LabelChanged:
			b.WriteString("~")
			if p.MarginsOnly {
				b.WriteString("m")
			}
			if p.Moved {
				b.WriteString("v")
			}
		case LabelInserted:
			b.WriteString("+")
		case LabelDeleted:
			b.WriteString("-")
		}
	}
	return b.String()
}

func TestAlign(t *testing.T) {
	tests := []struct {
		name          string
		before, after []string
		want          string
	}{
		{"identical", []string{"c1", "c2", "c3"}, []string{"c1", "c2", "c3"}, "1-1 = 2-2 = 3-3 ="},
		{"inserted at start", []string{"c1", "c2", "c3"}, []string{"c9", "c1", "c2", "c3"}, "0-1 + 1-2 = 2-3 = 3-4 ="},
		{"inserted in the middle", []string{"c1", "c2", "c3"}, []string{"c1", "c2", "c9", "c3"}, "1-1 = 2-2 = 0-3 + 3-4 ="},
		{"inserted at end", []string{"c1", "c2", "c3"}, []string{"c1", "c2", "c3", "c9"}, "1-1 = 2-2 = 3-3 = 0-4 +"},
		{"two inserted", []string{"c1", "c2"}, []string{"c8", "c1", "c9", "c2"}, "0-1 + 1-2 = 0-3 + 2-4 ="},
		{"deleted at start", []string{"c1", "c2", "c3"}, []string{"c2", "c3"}, "1-0 - 2-1 = 3-2 ="},
		{"deleted in the middle", []string{"c1", "c2", "c3"}, []string{"c1", "c3"}, "1-1 = 2-0 - 3-2 ="},
		{"deleted at end", []string{"c1", "c2", "c3"}, []string{"c1", "c2"}, "1-1 = 2-2 = 3-0 -"},
		{"one page changed", []string{"c1", "c2", "c3"}, []string{"c1", "c2x", "c3"}, "1-1 = 2-2 ~ 3-3 ="},
		{"changed page next to an insertion", []string{"c1", "c2", "c3"}, []string{"c1", "c9", "c2x", "c3"}, "1-1 = 0-2 + 2-3 ~ 3-4 ="},
		// Both pages of a swap moved.
		{"two pages swapped", []string{"c1", "c2", "c3", "c4"}, []string{"c1", "c3", "c2", "c4"}, "1-1 = 3-2 ~v 2-3 ~v 4-4 ="},
		// A page moved over two others: only it moved.
		{"page moved over two", []string{"c1", "c2", "c3", "c4"}, []string{"c2", "c3", "c1", "c4"}, "2-1 = 3-2 = 1-3 ~v 4-4 = | 1-1 ~v 2-2 = 3-3 = 4-4 ="},
		{"page replaced in place", []string{"c1", "c2", "c3"}, []string{"c1", "c7", "c3"}, "1-1 = 2-2 ~ 3-3 ="},
		{"page numbers only", []string{"c1h", "c2h", "c3h"}, []string{"c1h", "c2h", "c3h"}, "1-1 = 2-2 = 3-3 ="},
		{
			"inserted page renumbers the rest",
			[]string{"c1h", "c2h", "c3h"}, []string{"c9h", "c1h", "c2h", "c3h"},
			"0-1 + 1-2 ~m 2-3 ~m 3-4 ~m",
		},
		{
			"deleted page renumbers the rest",
			[]string{"c1h", "c2h", "c3h", "c4h"}, []string{"c1h", "c3h", "c4h"},
			"1-1 = 2-0 - 3-2 ~m 4-3 ~m",
		},
		{"empty before", nil, []string{"c1", "c2"}, "0-1 + 0-2 +"},
		{"empty after", []string{"c1", "c2"}, nil, "1-0 - 2-0 -"},
		{"repeated pages", []string{"c1", "c1", "c2"}, []string{"c1", "c2", "c1", "c2"}, "1-1 = 0-2 + 2-3 = 3-4 ="},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			bp, ap := doc(t, tc.before...), doc(t, tc.after...)
			bands := DetectBands(bp) // the original's bands, for both sides
			got := fmtPairs(Align(sign(bp), sign(ap), bands))
			ok := false
			for _, w := range strings.Split(tc.want, " | ") {
				ok = ok || got == w
			}
			if !ok {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
}

// TestAlignMarginsOnlyAgreesWithCompare checks the page-number-only case end
// to end on synthetic pages: the aligner pairs the renumbered pages by their
// masked hash, and Compare reports the pair as changed in the margins only.
func TestAlignMarginsOnlyAgreesWithCompare(t *testing.T) {
	bp := doc(t, "c1h", "c2h", "c3h")
	ap := doc(t, "c9h", "c1h", "c2h", "c3h")
	bands := DetectBands(bp)
	if bands.Top == 0 || bands.Bottom == 0 {
		t.Fatalf("bands %+v not found", bands)
	}
	for _, p := range Align(sign(bp), sign(ap), bands) {
		if p.Label != LabelChanged {
			continue
		}
		d := Compare(bp[p.Before-1], ap[p.After-1], CompareOptions{Bands: bands})
		if d.Same || !d.MarginsOnly || d.MarginsOnly != p.MarginsOnly {
			t.Errorf("pair %d-%d: align margins-only %v, compare %+v", p.Before, p.After, p.MarginsOnly, d)
		}
	}
}

// TestAlignCoversEveryPage checks the invariant on random edits: every page
// of both sides appears exactly once, after pages in order.
func TestAlignCoversEveryPage(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	pool := make([]PageSig, 12)
	for i := range pool {
		pool[i] = Signature(synthPage(120, 160, int64(i), -1))
	}
	for iter := 0; iter < 300; iter++ {
		pick := func() []PageSig {
			s := make([]PageSig, rng.Intn(10))
			for i := range s {
				s[i] = pool[rng.Intn(len(pool))]
			}
			return s
		}
		b, a := pick(), pick()
		ps := Align(b, a, Bands{})
		seenB, seenA := map[int]int{}, map[int]int{}
		last := 0
		for _, p := range ps {
			if p.Before > 0 {
				seenB[p.Before]++
			}
			if p.After > 0 {
				seenA[p.After]++
				if p.After <= last {
					t.Fatalf("after pages out of order: %s", fmtPairs(ps))
				}
				last = p.After
			}
			if (p.Before == 0) != (p.Label == LabelInserted) || (p.After == 0) != (p.Label == LabelDeleted) {
				t.Fatalf("label %q for %d-%d", p.Label, p.Before, p.After)
			}
		}
		if len(seenB) != len(b) || len(seenA) != len(a) {
			t.Fatalf("pages missing: %s (before %d, after %d)", fmtPairs(ps), len(b), len(a))
		}
		for k, n := range seenB {
			if n != 1 {
				t.Fatalf("before page %d appears %d times", k, n)
			}
		}
		for k, n := range seenA {
			if n != 1 {
				t.Fatalf("after page %d appears %d times", k, n)
			}
		}
	}
}

// TestMyersOptimal compares the length of Myers' common subsequence with a
// quadratic dynamic programme on random sequences, and checks that the
// matches are a valid common subsequence.
func TestMyersOptimal(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for iter := 0; iter < 3000; iter++ {
		n, m := rng.Intn(40), rng.Intn(40)
		alpha := 1 + rng.Intn(6)
		a, b := make([]int32, n), make([]int32, m)
		for i := range a {
			a[i] = int32(rng.Intn(alpha))
		}
		for i := range b {
			b[i] = int32(rng.Intn(alpha))
		}
		my := myers{a: a, b: b}
		my.lcs(0, n, 0, m)
		pi, pj := -1, -1
		for _, mt := range my.out {
			if mt[0] <= pi || mt[1] <= pj || a[mt[0]] != b[mt[1]] {
				t.Fatalf("invalid match %v in %v for a=%v b=%v", mt, my.out, a, b)
			}
			pi, pj = mt[0], mt[1]
		}
		if want := lcsLen(a, b); len(my.out) != want {
			t.Fatalf("a=%v b=%v: myers found %d, LCS is %d", a, b, len(my.out), want)
		}
	}
}

func lcsLen(a, b []int32) int {
	w := len(b) + 1
	s := make([]int, (len(a)+1)*w)
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			if a[i-1] == b[j-1] {
				s[i*w+j] = s[(i-1)*w+j-1] + 1
			} else {
				s[i*w+j] = max(s[(i-1)*w+j], s[i*w+j-1])
			}
		}
	}
	return s[len(s)-1]
}

func TestPageSigJSON(t *testing.T) {
	s := Signature(synthPage(200, 280, 3, 1))
	b, err := jsonRoundTrip(s)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(b, s) {
		t.Fatalf("round trip changed the signature:\n%+v\n%+v", s, b)
	}
}
