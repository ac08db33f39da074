package pixeldiff

import (
	"testing"
)

func pixelAt(r *Raster, x, y int) [3]byte {
	i := 3 * (y*r.W + x)
	return [3]byte{r.Pix[i], r.Pix[i+1], r.Pix[i+2]}
}

func TestComposite(t *testing.T) {
	a := synthPage(a4W, a4H, 1, 2)
	b := clone(a)
	box := [4]int{300, 600, 360, 640}
	fillRect(b, box[0], box[1], box[2], box[3], 0xff)

	c := Composite(a, b, [][4]int{box}, [][4]int{box}, CompositeOptions{LabelBefore: "before p. 1", LabelAfter: "after p. 1"})
	if c.W > DefaultMaxSide || c.H > DefaultMaxSide {
		t.Fatalf("composite %dx%d exceeds %d", c.W, c.H, DefaultMaxSide)
	}
	if c.W != DefaultMaxSide {
		t.Errorf("two A4 pages side by side: width %d, want the full %d", c.W, DefaultMaxSide)
	}
	// Scale and placement of the right half.
	half := (c.W - compositeGutter) / 2
	s := float64(half) / a4W
	right := half + compositeGutter
	// The outline sits just outside the box, on both halves.
	for _, x0 := range []int{0, right} {
		ox := x0 + int(float64(box[0])*s) - compositePad - 1
		oy := compositeLabel + int(float64(box[1])*s) + 5
		if got := pixelAt(c, ox, oy); got != compositeOutlineRGB {
			t.Errorf("no outline at (%d,%d): %v", ox, oy, got)
		}
	}
	// Inside the box on the right (erased, white) stays white.
	in := pixelAt(c, right+int(float64(box[0]+30)*s), compositeLabel+int(float64(box[1]+20)*s))
	if in != [3]byte{255, 255, 255} {
		t.Errorf("inside the box: %v, want white", in)
	}
	// The label strip holds dark text pixels.
	dark := 0
	for y := 0; y < compositeLabel; y++ {
		for x := 0; x < 120; x++ {
			if pixelAt(c, x, y)[0] < 0x80 {
				dark++
			}
		}
	}
	if dark < 20 {
		t.Errorf("label strip has %d dark pixels", dark)
	}

	// An inserted page: placeholder on the left, the page on the right.
	ins := Composite(nil, b, nil, nil, CompositeOptions{})
	if got := pixelAt(ins, 50, ins.H/3); got != placeholderFill {
		t.Errorf("placeholder pixel %v", got)
	}
	if ins.H > DefaultMaxSide || ins.W > DefaultMaxSide {
		t.Errorf("inserted composite %dx%d", ins.W, ins.H)
	}
	if Composite(nil, nil, nil, nil, CompositeOptions{}) != nil {
		t.Error("two missing pages gave a composite")
	}
	// Small pages are not upscaled.
	small := Composite(NewRaster(100, 50), NewRaster(100, 50), nil, nil, CompositeOptions{})
	if small.W != 100+compositeGutter+100 || small.H != 50 {
		t.Errorf("small composite %dx%d", small.W, small.H)
	}
}

func TestScaleArea(t *testing.T) {
	// A one-pixel checkerboard halved is uniform mid grey.
	r := NewRaster(64, 64)
	for y := 0; y < 64; y++ {
		for x := (y & 1); x < 64; x += 2 {
			setPix(r, x, y, [3]byte{0, 0, 0})
		}
	}
	h := scaleArea(r, 32, 32)
	for i, v := range h.Pix {
		if v < 127 || v > 128 {
			t.Fatalf("pixel %d = %d, want 127 or 128", i/3, v)
		}
	}
	// A thin black line survives a strong downscale as grey.
	l := NewRaster(300, 300)
	fillRect(l, 0, 150, 300, 151, 0)
	d := scaleArea(l, 100, 100)
	if v := pixelAt(d, 50, 50)[0]; v > 200 || v < 150 {
		t.Errorf("thin line downscaled to %d, want ≈170", v)
	}
	// Non-integer factors keep uniform areas exact.
	u := NewRaster(827, 1169)
	fillRect(u, 0, 0, 827, 1169, 0x5a)
	for _, v := range scaleArea(u, 776, 1097).Pix {
		if v != 0x5a {
			t.Fatalf("uniform page scaled to %d", v)
		}
	}
}

func BenchmarkComposite(b *testing.B) {
	a := synthPage(a4W, a4H, 1, 2)
	c := clone(a)
	fillRect(c, 300, 600, 360, 640, 0xff)
	boxes := [][4]int{{300, 600, 360, 640}}
	b.SetBytes(int64(2 * len(a.Pix)))
	loopCPU(b, func() {
		Composite(a, c, boxes, boxes, CompositeOptions{LabelBefore: "before p. 1", LabelAfter: "after p. 1"})
	})
}
