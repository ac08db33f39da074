package formats

import (
	"reflect"
	"sort"
	"testing"
)

// TestNaturalLess: numbers in names sort by value, and the order is total
// (leading zeros break the tie), so a sort is the same on every run.
func TestNaturalLess(t *testing.T) {
	in := []string{"10", "9", "a10", "a2", "a02", "b", "1", "a", "01", "slide10.xml", "slide2.xml"}
	want := []string{"1", "01", "9", "10", "a", "a2", "a02", "a10", "b", "slide2.xml", "slide10.xml"}
	got := append([]string(nil), in...)
	sort.Slice(got, func(i, j int) bool { return NaturalLess(got[i], got[j]) })
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	for _, a := range in {
		for _, b := range in {
			if a != b && NaturalLess(a, b) == NaturalLess(b, a) {
				t.Errorf("%q and %q are not ordered", a, b)
			}
		}
	}
}
