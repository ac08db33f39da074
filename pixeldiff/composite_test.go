package pixeldiff

import (
	"bytes"
	"math/rand"
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

// scaleAreaRef is the plain two-pass area filter (64-bit sums, every row
// scaled) that scaleArea must equal byte for byte.
func scaleAreaRef(src *Raster, w, h int) *Raster {
	xs, ys := areaWeights(src.W, w), areaWeights(src.H, h)
	stride := src.Stride()
	tmp := make([]uint64, 3*w*src.H)
	for y := 0; y < src.H; y++ {
		for x, ws := range xs {
			for _, c := range ws {
				for k := 0; k < 3; k++ {
					tmp[3*(y*w+x)+k] += uint64(c.w) * uint64(src.Pix[y*stride+3*c.i+k])
				}
			}
		}
	}
	dst := NewRaster(w, h)
	for y, ws := range ys {
		for k := 0; k < 3*w; k++ {
			var v uint64
			for _, c := range ws {
				v += uint64(c.w) * (tmp[3*w*c.i+k] >> 8)
			}
			dst.Pix[3*w*y+k] = byte(min(255, (v+(1<<23))>>24))
		}
	}
	return dst
}

// TestScaleAreaExact: the fast paths of scaleArea (rows of one colour,
// 32-bit sums) give exactly the plain filter's bytes, on a text page, on
// noise, on coloured uniform bands, for down- and upscaling.
func TestScaleAreaExact(t *testing.T) {
	text := synthPage(827, 1169, 7, 2)
	noise := NewRaster(211, 157)
	rng := rand.New(rand.NewSource(3))
	rng.Read(noise.Pix)
	bands := NewRaster(300, 200)
	fillRect(bands, 0, 0, 300, 200, 0xff)
	fillRect(bands, 0, 40, 300, 90, 0x33)
	fillRect(bands, 0, 91, 300, 120, 0x00)
	for i := 3 * 300 * 130; i < 3*300*160; i += 3 {
		bands.Pix[i], bands.Pix[i+1], bands.Pix[i+2] = 0x10, 0x80, 0xf0
	}
	for _, tc := range []struct {
		name string
		r    *Raster
		w, h int
	}{
		{"text-composite", text, 784, 1108},
		{"text-third", text, 275, 389},
		{"noise-down", noise, 100, 77},
		{"noise-up", noise, 500, 400},
		{"bands", bands, 97, 61},
		{"bands-up", bands, 640, 437},
	} {
		got, want := scaleArea(tc.r, tc.w, tc.h), scaleAreaRef(tc.r, tc.w, tc.h)
		if !bytes.Equal(got.Pix, want.Pix) {
			for i := range got.Pix {
				if got.Pix[i] != want.Pix[i] {
					t.Errorf("%s: byte %d (pixel %d,%d) = %d, want %d", tc.name, i, i/3%tc.w, i/3/tc.w, got.Pix[i], want.Pix[i])
					break
				}
			}
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
