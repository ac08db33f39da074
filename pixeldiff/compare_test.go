package pixeldiff

import (
	"math"
	"testing"
)

// coverageRect paints a dark rectangle with fractional edges, grading the
// edge pixels by their covered area — how a rasterizer anti-aliases.
func coverageRect(r *Raster, x0, y0, x1, y1 float64) {
	const ink = 0x20
	for y := int(math.Floor(y0)); y < int(math.Ceil(y1)); y++ {
		cy := math.Min(float64(y+1), y1) - math.Max(float64(y), y0)
		for x := int(math.Floor(x0)); x < int(math.Ceil(x1)); x++ {
			cx := math.Min(float64(x+1), x1) - math.Max(float64(x), x0)
			v := byte(math.Round(255 - cx*cy*(255-ink)))
			setPix(r, x, y, [3]byte{v, v, v})
		}
	}
}

// synthBands are the bands of synthPage documents at A4 size: the header
// sits at rows 35–43, the footer at 1123–1131, the body at 140–1019: each
// band ends halfway between the running block and the body.
var synthBands = Bands{Top: 91, Bottom: 101}

func TestCompare(t *testing.T) {
	base := synthPage(a4W, a4H, 1, 3)
	tests := []struct {
		name        string
		edit        func() (*Raster, *Raster)
		opts        CompareOptions
		same        bool
		marginsOnly bool
		boxes       [][4]int // each wanted box must contain this rectangle
		nBoxes      int      // -1: don't check
	}{
		{
			name: "identical",
			edit: func() (*Raster, *Raster) { return base, clone(base) },
			same: true,
		},
		{
			name: "one changed word",
			edit: func() (*Raster, *Raster) {
				b := clone(base)
				fillRect(b, 300, 600, 360, 640, 0xff) // erase
				drawWord(b, 310, 610, 30)             // and write another
				return base, b
			},
			boxes:  [][4]int{{309, 609, 341, 620}},
			nBoxes: 1,
		},
		{
			name: "two distant changes give two boxes",
			edit: func() (*Raster, *Raster) {
				b := clone(base)
				fillRect(b, 100, 200, 140, 212, 0xff)
				fillRect(b, 600, 900, 640, 912, 0x00)
				return base, b
			},
			nBoxes: 2,
		},
		{
			name: "anti-aliased edge shift only",
			edit: func() (*Raster, *Raster) {
				a, b := NewRaster(400, 500), NewRaster(400, 500)
				// The same shapes rendered half a pixel apart: only the
				// grey edge pixels differ.
				coverageRect(a, 99.6, 199.6, 300.3, 400.2)
				coverageRect(b, 100.1, 200.1, 300.8, 400.7)
				coverageRect(a, 40.3, 40.3, 43.7, 120.6) // a thin stem
				coverageRect(b, 40.8, 40.8, 44.2, 121.1)
				return a, b
			},
			same: true,
		},
		{
			name: "anti-aliased edge shift counted when IncludeAA",
			edit: func() (*Raster, *Raster) {
				a, b := NewRaster(400, 500), NewRaster(400, 500)
				coverageRect(a, 99.6, 199.6, 300.3, 400.2)
				coverageRect(b, 100.1, 200.1, 300.8, 400.7)
				return a, b
			},
			opts:   CompareOptions{IncludeAA: true},
			nBoxes: -1,
		},
		{
			name: "faint colour change under the threshold",
			edit: func() (*Raster, *Raster) {
				a, b := NewRaster(200, 200), NewRaster(200, 200)
				fillRect(a, 50, 50, 150, 150, 0xe0)
				fillRect(b, 50, 50, 150, 150, 0xe6)
				return a, b
			},
			same: true,
		},
		{
			name: "sparse isolated pixels stay under the density rule",
			edit: func() (*Raster, *Raster) {
				b := clone(base)
				setPix(b, 20, 400, [3]byte{0, 0, 0})
				setPix(b, 800, 420, [3]byte{0, 0, 0})
				setPix(b, 700, 1000, [3]byte{0, 0, 0})
				return base, b
			},
			same: true,
		},
		{
			name: "page number only",
			edit: func() (*Raster, *Raster) {
				return synthPage(a4W, a4H, 1, 3), synthPage(a4W, a4H, 1, 4)
			},
			opts:        CompareOptions{Bands: synthBands},
			marginsOnly: true,
			nBoxes:      -1,
		},
		{
			name: "page number only, bands unknown",
			edit: func() (*Raster, *Raster) {
				return synthPage(a4W, a4H, 1, 3), synthPage(a4W, a4H, 1, 4)
			},
			nBoxes: -1,
		},
		{
			name: "change in the body and in the header",
			edit: func() (*Raster, *Raster) {
				b := synthPage(a4W, a4H, 1, 4)
				fillRect(b, 300, 600, 360, 640, 0xff)
				return base, b
			},
			opts:   CompareOptions{Bands: synthBands},
			nBoxes: -1,
		},
		{
			name: "different page sizes",
			edit: func() (*Raster, *Raster) {
				return NewRaster(100, 140), NewRaster(140, 100)
			},
			boxes:  [][4]int{{0, 0, 140, 140}},
			nBoxes: 1,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a, b := tc.edit()
			d := Compare(a, b, tc.opts)
			t.Logf("same=%v ratio=%.6f changed=%d peak=%d boxes=%v margins=%v", d.Same, d.Ratio, d.Changed, d.Peak, d.Boxes, d.MarginsOnly)
			if d.Same != tc.same {
				t.Fatalf("Same = %v, want %v (ratio %.5f, peak %d, boxes %v)", d.Same, tc.same, d.Ratio, d.Peak, d.Boxes)
			}
			if d.MarginsOnly != tc.marginsOnly {
				t.Errorf("MarginsOnly = %v, want %v (boxes %v)", d.MarginsOnly, tc.marginsOnly, d.Boxes)
			}
			if tc.same && len(d.Boxes) != 0 {
				t.Errorf("same page has boxes %v", d.Boxes)
			}
			if !tc.same && len(d.Boxes) == 0 {
				t.Errorf("changed page without boxes")
			}
			if tc.nBoxes > 0 && len(d.Boxes) != tc.nBoxes {
				t.Errorf("got %d boxes %v, want %d", len(d.Boxes), d.Boxes, tc.nBoxes)
			}
			for _, want := range tc.boxes {
				found := false
				for _, bx := range d.Boxes {
					if bx[0] <= want[0] && bx[1] <= want[1] && bx[2] >= want[2] && bx[3] >= want[3] &&
						// and not much larger than the change
						bx[2]-bx[0] <= want[2]-want[0]+2*DefaultWindow && bx[3]-bx[1] <= want[3]-want[1]+2*DefaultWindow {
						found = true
					}
				}
				if !found {
					t.Errorf("no box tightly around %v in %v", want, d.Boxes)
				}
			}
		})
	}
}

// TestCompareDensity checks that the decision follows the densest window,
// not the global count: a change of MinChanged pixels packed together is
// found on a large page, the same number spread out is not.
func TestCompareDensity(t *testing.T) {
	a := NewRaster(2000, 2000)
	packed, spread := clone(a), clone(a)
	for i := 0; i < DefaultMinChanged; i++ {
		setPix(packed, 1000+i, 1000, [3]byte{0, 0, 0})
		setPix(spread, 100+i*400, 1000, [3]byte{0, 0, 0})
	}
	if d := Compare(a, packed, CompareOptions{}); d.Same || d.Peak != DefaultMinChanged {
		t.Errorf("packed: Same=%v Peak=%d, want changed with peak %d", d.Same, d.Peak, DefaultMinChanged)
	}
	if d := Compare(a, spread, CompareOptions{}); !d.Same || d.Peak != 1 || d.Changed != DefaultMinChanged {
		t.Errorf("spread: Same=%v Peak=%d Changed=%d, want same with peak 1", d.Same, d.Peak, d.Changed)
	}
}

// TestCompareWindowAcrossTiles puts a change across the corner of four
// tiles: no tile alone reaches MinChanged but the sliding window does.
func TestCompareWindowAcrossTiles(t *testing.T) {
	a := NewRaster(64, 64)
	b := clone(a)
	for _, p := range [][2]int{{15, 15}, {16, 15}, {15, 16}, {16, 16}} {
		setPix(b, p[0], p[1], [3]byte{0, 0, 0})
	}
	d := Compare(a, b, CompareOptions{})
	if d.Same || len(d.Boxes) != 1 || d.Boxes[0] != [4]int{15, 15, 17, 17} {
		t.Fatalf("got Same=%v boxes=%v, want one box [15 15 17 17]", d.Same, d.Boxes)
	}
}

func TestYIQDelta(t *testing.T) {
	if d := yiqDelta(0, 0, 0, 255, 255, 255); math.Abs(d-32857) > 1 {
		t.Errorf("black/white delta %f, want ≈32857", d)
	}
	// 35215 is the maximum over all colour pairs (reached between corners
	// of the RGB cube).
	var hi float64
	for c1 := 0; c1 < 8; c1++ {
		for c2 := 0; c2 < 8; c2++ {
			ch := func(c, bit int) byte { return byte(255 * (c >> bit & 1)) }
			hi = math.Max(hi, yiqDelta(ch(c1, 0), ch(c1, 1), ch(c1, 2), ch(c2, 0), ch(c2, 1), ch(c2, 2)))
		}
	}
	if math.Abs(hi-35215) > 1 {
		t.Errorf("largest delta %f, want ≈35215", hi)
	}
	if d := yiqDelta(10, 20, 30, 10, 20, 30); d != 0 {
		t.Errorf("equal colours delta %f", d)
	}
	// Pure hue changes of equal brightness are still far apart.
	if d := yiqDelta(255, 0, 0, 0, 0, 255); d < 35215*0.01 {
		t.Errorf("red/blue delta %f under the default threshold", d)
	}
}
