package pixeldiff

import (
	"fmt"
	"testing"
)

func TestBudget(t *testing.T) {
	same := func(b, a int) Pair { return Pair{Before: b, After: a, Label: LabelSame} }
	chg := func(b, a int) Pair { return Pair{Before: b, After: a, Label: LabelChanged} }
	margins := func(b, a int) Pair { return Pair{Before: b, After: a, Label: LabelChanged, MarginsOnly: true} }
	ins := func(a int) Pair { return Pair{After: a, Label: LabelInserted} }
	del := func(b int) Pair { return Pair{Before: b, Label: LabelDeleted} }
	moved := func(b, a int) Pair { return Pair{Before: b, After: a, Label: LabelChanged, Moved: true} }
	pages := func(ps []Pair) string {
		var s []string
		for _, p := range ps {
			s = append(s, fmt.Sprintf("%d-%d", p.Before, p.After))
		}
		return fmt.Sprint(s)
	}
	tests := []struct {
		name          string
		pairs         []Pair
		reflows       []Reflow
		n             int
		shown, listed string
		cut           bool
	}{
		{"nothing changed", []Pair{same(1, 1), same(2, 2)}, nil, 3, "[]", "[]", false},
		{"fewer changes than the budget", []Pair{same(1, 1), chg(2, 2), same(3, 3)}, nil, 3, "[2-2]", "[]", false},
		{
			"content before page numbers",
			[]Pair{ins(1), margins(1, 2), margins(2, 3), chg(3, 4), margins(4, 5), del(5)},
			nil, 3, "[0-1 3-4 5-0]", "[1-2 2-3 4-5]", true,
		},
		{
			"reflow: the cause, then other content, then reflowed pages",
			[]Pair{same(1, 1), chg(2, 2), chg(3, 3), chg(4, 4), chg(5, 5), chg(6, 6), chg(7, 7)},
			[]Reflow{{From: 2, To: 6, Cause: 2}}, 3, "[2-2 3-3 7-7]", "[4-4 5-5 6-6]", true,
		},
		{"moved after content", []Pair{same(1, 1), moved(3, 2), same(2, 3), chg(4, 4)}, nil, 1, "[4-4]", "[3-2]", true},
		{"budget of zero", []Pair{chg(1, 1)}, nil, 0, "[]", "[1-1]", true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := Budget(tc.pairs, tc.reflows, tc.n)
			if got := pages(s.Shown); got != tc.shown {
				t.Errorf("shown %s, want %s", got, tc.shown)
			}
			if got := pages(s.Listed); got != tc.listed {
				t.Errorf("listed %s, want %s", got, tc.listed)
			}
			if s.Cut != tc.cut {
				t.Errorf("cut %v, want %v", s.Cut, tc.cut)
			}
		})
	}
}

func TestFirstPages(t *testing.T) {
	for _, tc := range []struct {
		pages, n int
		want     string
		cut      bool
	}{
		{5, 3, "[1 2 3]", true},
		{2, 3, "[1 2]", false},
		{3, 3, "[1 2 3]", false},
		{4, 0, "[]", true},
		{0, 3, "[]", false},
	} {
		shown, cut := FirstPages(tc.pages, tc.n)
		if fmt.Sprint(shown) != tc.want || cut != tc.cut {
			t.Errorf("FirstPages(%d, %d) = %v, %v; want %s, %v", tc.pages, tc.n, shown, cut, tc.want, tc.cut)
		}
	}
}
