package pixeldiff

import (
	"crypto/sha256"
	"fmt"
	"strings"
	"testing"
)

// textPage is a page signature whose pixels are a function of its lines
// (so equal lines give equal hashes) with a text layer: line i on rows
// [100+20i, 116+20i). A line "|top:…" or "|bottom:…" is put in the top or
// bottom 60 rows instead (a running header or footer); "@img…" is a pixel
// block without text.
func textPage(lines ...string) PageSig {
	const w, h = 400, 1000
	s := PageSig{W: w, H: h, Cuts: []int{0, 60, h - 60, h}}
	var top, body, bottom []string
	var tl []TextLine
	var px LineHashes
	for i, l := range lines {
		switch {
		case strings.HasPrefix(l, "|top:"):
			top = append(top, l[5:])
			tl = append(tl, TextLine{Text: l[5:], Y0: 20, Y1: 36})
			s.Blocks = append(s.Blocks, [2]int{20, 36})
		case strings.HasPrefix(l, "|bottom:"):
			bottom = append(bottom, l[8:])
			tl = append(tl, TextLine{Text: l[8:], Y0: h - 40, Y1: h - 24})
			s.Blocks = append(s.Blocks, [2]int{h - 40, h - 24})
		case strings.HasPrefix(l, "@"):
			body = append(body, l)
		default:
			body = append(body, l)
			tl = append(tl, TextLine{Text: l, Y0: 100 + 20*i, Y1: 116 + 20*i})
		}
	}
	for _, l := range body {
		px = append(px, hash64("px:"+l))
	}
	seg := func(ls []string) SegHash {
		var out SegHash
		d := sha256.Sum256([]byte(strings.Join(ls, "\n")))
		copy(out[:], d[:])
		return out
	}
	s.Segs = []SegHash{seg(top), seg(body), seg(bottom)}
	full := sha256.Sum256([]byte(strings.Join(lines, "\n")))
	s.Full = full
	s.Lines = px
	s.PHash = hash64(strings.Join(body, "\n"))
	s.Text = NewPageText(tl)
	return s
}

// textDoc makes pages from "|"-free specs: each page a list of lines
// separated by ";".
func textDoc(pages ...string) []PageSig {
	var out []PageSig
	for _, p := range pages {
		var ls []string
		if p != "" {
			ls = strings.Split(p, ";")
		}
		out = append(out, textPage(ls...))
	}
	return out
}

// numbered is lines prefix1..prefixN.
func numbered(prefix string, from, to int) string {
	var ls []string
	for i := from; i <= to; i++ {
		ls = append(ls, fmt.Sprintf("%s %d", prefix, i))
	}
	return strings.Join(ls, ";")
}

func fmtPairsReflow(ps []Pair) string {
	s := fmtPairs(ps)
	for _, p := range ps {
		if p.Label == LabelReflowed {
			s = strings.Replace(s, fmt.Sprintf("%d-%d ", p.Before, p.After), fmt.Sprintf("%d-%d r", p.Before, p.After), 1)
		}
	}
	return s
}

func TestAlignText(t *testing.T) {
	l := func(a, b int) string { return numbered("line", a, b) }
	for _, tc := range []struct {
		name          string
		before, after []string
		want          string
		reflow        string
		bands         Bands
	}{
		{"cover page inserted, the rest pushed down",
			[]string{l(1, 10), l(11, 20), l(21, 30)},
			[]string{"Cover title;Prepared for the customers", l(1, 8), l(9, 18), l(19, 28), l(29, 30)},
			"0-1 + 1-2 ~ 2-3 ~ 3-4 ~ 0-5 r", "[{1 5 1 1 3}]", Bands{}},
		{"page break before page 2: page 1 split, nothing inserted",
			[]string{l(1, 10), l(11, 20), l(21, 30)},
			[]string{l(1, 7), l(8, 17), l(18, 27), l(28, 30)},
			"1-1 ~ 2-2 ~ 3-3 ~ 0-4 r", "[{1 4 1 1 3}]", Bands{}},
		{"a paragraph deleted: the last page merges, nothing deleted",
			[]string{l(1, 10), l(11, 20), l(21, 25)},
			[]string{l(1, 3) + ";" + l(9, 15), l(16, 25)},
			"1-1 ~ 2-2 ~ 3-0 r", "[{1 2 1 1 3}]", Bands{}},
		{"a page of text deleted",
			[]string{l(1, 10), "gone 1;gone 2;gone 3", l(11, 20)},
			[]string{l(1, 10), l(11, 20)},
			"1-1 = 2-0 - 3-2 =", "[]", Bands{}},
		{"a page rewritten in place is changed",
			[]string{l(1, 10), "old title", l(11, 20)},
			[]string{l(1, 10), "new title", l(11, 20)},
			"1-1 = 2-2 ~ 3-3 =", "[]", Bands{}},
		{"blank pages are never paired by their look",
			[]string{l(1, 10), "", l(11, 20)},
			[]string{l(1, 10), "@rule", l(11, 20)},
			"1-1 = 2-0 - 0-2 + 3-3 =", "[]", Bands{}},
		{"swapped slides whose numbers differ",
			[]string{"Intro;welcome;|bottom:1", "Plan;step one;step two;|bottom:2", "Costs;a lot;|bottom:3", "End;thanks;|bottom:4"},
			[]string{"Intro;welcome;|bottom:1", "Costs;a lot;|bottom:2", "Plan;step one;step two;|bottom:3", "End;thanks;|bottom:4"},
			"1-1 = 3-2 ~mv 2-3 ~mv 4-4 =", "[]", Bands{Bottom: 60}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, a := textDoc(tc.before...), textDoc(tc.after...)
			pairs := AlignWith(b, a, AlignOptions{Bands: tc.bands})
			if got := fmtPairsReflow(pairs); got != tc.want {
				t.Errorf("pairs %s, want %s", got, tc.want)
			}
			rf := DetectReflow(b, a, pairs, tc.bands)
			if got := fmt.Sprint(rf); got != tc.reflow {
				t.Errorf("reflow %s, want %s", got, tc.reflow)
			}
		})
	}
}

// Lines pdftotext groups differently once the content moved (two cells
// read as one line, a label read before its neighbour) are the same
// content; a word changed is not.
func TestMatchLinesRegroup(t *testing.T) {
	seq := func(lines ...string) lineSeq {
		var s lineSeq
		s.words = [][]uint32{}
		for i, l := range lines {
			pt := NewPageText([]TextLine{{Text: l}})
			s.add(int32(pt.Lines[0]%1000003), pt.words(0), i)
		}
		return s
	}
	unmatched := func(m lineMatch) (b, a int) {
		for _, p := range m.pb {
			if p < 0 {
				b++
			}
		}
		for _, p := range m.pa {
			if p < 0 {
				a++
			}
		}
		return b, a
	}
	for _, tc := range []struct {
		name          string
		before, after []string
		ub, ua        int
	}{
		{"two cells joined", []string{"a b", "collecte detected", "c d"}, []string{"a b", "collecte", "detected", "c d"}, 0, 0},
		{"a label read later", []string{"x1", "BA.", "x2", "x3", "x4"}, []string{"x1", "x2", "x3", "BA.", "x4"}, 0, 0},
		{"a word changed", []string{"a b", "the quick brown fox", "c d"}, []string{"a b", "the quick red fox", "c d"}, 1, 1},
		{"a word dropped in a regrouping", []string{"a b", "collecte detected", "c d"}, []string{"a b", "collecte", "c d"}, 1, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ub, ua := unmatched(matchLines(seq(tc.before...), seq(tc.after...)))
			if ub != tc.ub || ua != tc.ua {
				t.Errorf("unmatched %d before, %d after; want %d, %d", ub, ua, tc.ub, tc.ua)
			}
		})
	}
}

func TestConfirmBands(t *testing.T) {
	b := Bands{Top: 60, Bottom: 60}
	for _, tc := range []struct {
		name  string
		pages []string
		want  Bands
	}{
		{"running header and numbered footer",
			[]string{"|top:Annual report;a;|bottom:Page 1", "|top:Annual report;b;|bottom:Page 2", "|top:Annual report;c;|bottom:Page 3"}, b},
		{"slide titles are no header",
			[]string{"|top:Welcome;a;|bottom:1", "|top:Our plan;b;|bottom:2", "|top:Costs;c;|bottom:3"}, Bands{Bottom: 60}},
		{"mirrored headers of left and right pages",
			[]string{"|top:Book;a", "|top:Chapter one;b", "|top:Book;c", "|top:Chapter one;d", "|top:Book;e"}, Bands{Top: 60, Bottom: 60}},
		{"a band without text stands",
			[]string{"a", "b", "c"}, b},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := ConfirmBands(b, textDoc(tc.pages...)); got != tc.want {
				t.Errorf("bands %+v, want %+v", got, tc.want)
			}
		})
	}
}

func TestParseTSV(t *testing.T) {
	tsv := "level\tpage_num\tpar_num\tblock_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext\n" +
		"1\t1\t0\t0\t0\t0\t0\t0\t612\t792\t-1\t###PAGE###\n" +
		"3\t1\t0\t0\t0\t0\t72\t72\t100\t14\t-1\t###FLOW###\n" +
		"4\t1\t0\t0\t0\t0\t72\t72\t100\t14.4\t-1\t###LINE###\n" +
		"5\t1\t0\t0\t0\t0\t72\t72\t40\t14.4\t100\tHello\n" +
		"5\t1\t0\t0\t0\t1\t115\t72\t40\t14.4\t100\tworld 2\n" +
		"1\t2\t0\t0\t0\t0\t0\t0\t612\t792\t-1\t###PAGE###\n"
	pages, err := ParseTSV(strings.NewReader(tsv), 100)
	if err != nil {
		t.Fatal(err)
	}
	if len(pages) != 2 || pages[0].Len() != 1 || pages[1].Len() != 0 {
		t.Fatalf("pages %+v", pages)
	}
	if y0, y1 := pages[0].row(0); y0 != 100 || y1 != 120 {
		t.Errorf("rows %d-%d, want 100-120", y0, y1)
	}
	if pages[0].Lines[0] != hash64("Hello world 2") || pages[0].Shapes[0] != hash64("Hello world #") || len(pages[0].words(0)) != 3 {
		t.Errorf("line hashes %+v", pages[0])
	}
}
