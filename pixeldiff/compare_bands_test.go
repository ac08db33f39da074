package pixeldiff

import (
	"fmt"
	"math/rand"
	"testing"
)

func TestDetectBands(t *testing.T) {
	const w, h = 400, 560
	page := func(seed int64, top func(r *Raster, n int), n int) *Raster {
		r := NewRaster(w, h)
		drawLines(r, rand.New(rand.NewSource(seed)), h*12/100, h*88/100)
		if top != nil {
			top(r, n)
		}
		return r
	}
	header := func(r *Raster, n int) { // a text-like header with a number
		drawWord(r, 40, 20, 120)
		drawNumber(r, 170, 20, n)
	}
	loneNumber := func(r *Raster, n int) { // a centred page number in the footer
		x := w/2 - 6
		switch n % 3 { // digits of one height that barely overlap
		case 0: // a "0": an outline
			fillRect(r, x, h-34, x+12, h-22, 0x20)
			fillRect(r, x+2, h-32, x+10, h-24, 0xff)
		case 1: // a "1": a stem
			fillRect(r, x+5, h-34, x+7, h-22, 0x20)
		case 2: // a "7": a bar and a slanted stem
			fillRect(r, x, h-34, x+12, h-32, 0x20)
			fillRect(r, x+8, h-32, x+10, h-28, 0x20)
			fillRect(r, x+6, h-28, x+8, h-22, 0x20)
		}
	}
	heading := func(r *Raster, n int) { // a different heading atop every page
		rng := rand.New(rand.NewSource(int64(n) * 77))
		fillRect(r, 0, 30, w, 50, 0xff)
		drawWord(r, 40, 30, 40+rng.Intn(150))
		drawWord(r, 250, 30, 20+rng.Intn(60))
	}
	doc := func(top func(*Raster, int), n int) []*Raster {
		var ps []*Raster
		for i := 1; i <= n; i++ {
			ps = append(ps, page(int64(i), top, i))
		}
		return ps
	}
	tests := []struct {
		name          string
		pages         []*Raster
		top, bottom   bool
		topMin, topMx int
	}{
		{"no header", doc(nil, 4), false, false, 0, 0},
		{"running header", doc(header, 4), true, false, 31, 67},
		{"lone page number", doc(loneNumber, 4), false, true, 0, 0},
		{"different heading on every page", doc(heading, 4), false, false, 0, 0},
		{"one page only", doc(header, 1), false, false, 0, 0},
		{"title page without header", append(doc(nil, 1), doc(header, 4)[1:]...), true, false, 31, 67},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := DetectBands(tc.pages)
			t.Logf("bands %+v", b)
			if (b.Top > 0) != tc.top || (b.Bottom > 0) != tc.bottom {
				t.Fatalf("bands %+v, want top %v bottom %v", b, tc.top, tc.bottom)
			}
			if tc.top && (b.Top < tc.topMin || b.Top > tc.topMx) {
				t.Errorf("top band %d outside [%d, %d]", b.Top, tc.topMin, tc.topMx)
			}
			// The band never reaches into the body (starts at 12%).
			if b.Top > h*12/100 || b.Bottom > h*12/100 {
				t.Errorf("band %+v reaches the body", b)
			}
		})
	}
}

// TestDetectBandsSynthA4 pins synthBands, which the other tests use.
func TestDetectBandsSynthA4(t *testing.T) {
	var ps []*Raster
	for i := 1; i <= 3; i++ {
		ps = append(ps, synthPage(a4W, a4H, int64(i), i))
	}
	if b := DetectBands(ps); b != synthBands {
		t.Fatalf("DetectBands = %+v, want %+v", b, synthBands)
	}
}

func TestBandsOn(t *testing.T) {
	r := synthPage(a4W, a4H, 1, 3)
	if top, bot := synthBands.On(r); top != synthBands.Top || bot != synthBands.Bottom {
		t.Errorf("On = %d, %d", top, bot)
	}
	// A page with content across the boundary keeps its rows.
	fillRect(r, 100, 80, 200, 100, 0)
	if top, _ := synthBands.On(r); top != 0 {
		t.Errorf("band applied through content: %d", top)
	}
	if top, bot := (Bands{Top: 400, Bottom: 700}).On(r); top != 0 || bot != 0 {
		t.Errorf("oversized bands applied: %d, %d", top, bot)
	}
}

// TestBlankRowsRuleColumns checks that a page border does not join a page
// into one block, while a shorter vertical rule (a table's) still joins the
// rows it crosses.
func TestBlankRowsRuleColumns(t *testing.T) {
	const w, h = 300, 400
	r := NewRaster(w, h)
	// A page border: two full-height verticals and two horizontals.
	fillRect(r, 10, 10, 12, h-10, 0x00)
	fillRect(r, w-12, 10, w-10, h-10, 0x00)
	fillRect(r, 10, 10, w-10, 12, 0x00)
	fillRect(r, 10, h-12, w-10, h-10, 0x00)
	// Three text lines.
	for _, y := range []int{50, 70, 90} {
		drawWordSeed(r, 40, y, 100, int64(y))
	}
	// A table: a vertical rule over rows 200–300 and two text lines.
	fillRect(r, 150, 200, 151, 300, 0x00)
	drawWordSeed(r, 40, 220, 60, 1)
	drawWordSeed(r, 40, 260, 60, 2)
	got := blocksOf(blankRows(r))
	want := [][2]int{{10, 12}, {50, 59}, {70, 79}, {90, 99}, {200, 300}, {h - 12, h - 10}}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("blocks %v\nwant   %v", got, want)
	}
	// A full-page picture is not a ruled page: its rows are not blank.
	pic := NewRaster(w, h)
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			setPix(pic, x, y, [3]byte{byte(x), byte(y), 0x80})
		}
	}
	setPix(pic, 0, 0, [3]byte{0xff, 0xff, 0xff})
	if got := blocksOf(blankRows(pic)); fmt.Sprint(got) != fmt.Sprint([][2]int{{0, h}}) {
		t.Errorf("picture blocks %v, want one block", got)
	}
	// Bands.On and PageSig.BandsOn agree on a bordered page.
	s := Signature(r)
	for _, b := range []Bands{{Top: 30, Bottom: 30}, {Top: 11}, {Top: 60}, {Bottom: 5}} {
		t1, b1 := b.On(r)
		t2, b2 := s.BandsOn(b)
		if t1 != t2 || b1 != b2 {
			t.Errorf("bands %+v: On %d/%d, BandsOn %d/%d", b, t1, b1, t2, b2)
		}
	}
}
