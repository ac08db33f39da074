package pixeldiff

import (
	"math/rand"
)

// Synthetic pages for the unit tests and benchmarks: text-like lines of
// dark "words" on white, with an optional running header and footer.

const (
	a4W = 827 // A4 at 100 dpi
	a4H = 1169
)

// fillRect paints [x0,x1)×[y0,y1) with grey level v (clipped).
func fillRect(r *Raster, x0, y0, x1, y1 int, v byte) {
	x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, r.W), min(y1, r.H)
	for y := y0; y < y1; y++ {
		row := r.Pix[y*r.Stride() : (y+1)*r.Stride()]
		for x := x0; x < x1; x++ {
			row[3*x], row[3*x+1], row[3*x+2] = v, v, v
		}
	}
}

// setPix sets one pixel to an RGB colour.
func setPix(r *Raster, x, y int, c [3]byte) {
	i := 3 * (y*r.W + x)
	r.Pix[i], r.Pix[i+1], r.Pix[i+2] = c[0], c[1], c[2]
}

// synthPage draws a page of text-like lines seeded by seed. The body spans
// the page between 12% and 88% of its height, so it stays clear of the
// default header/footer bands. header ≥ 0 draws a running header and footer
// whose pattern encodes the number header (a page number).
func synthPage(w, h int, seed int64, header int) *Raster {
	r := NewRaster(w, h)
	rng := rand.New(rand.NewSource(seed))
	drawLines(r, rng, h*12/100, h*88/100)
	if header >= 0 {
		drawNumber(r, w/2, h*3/100, header)
		drawNumber(r, w-80, h-h*4/100, header)
	}
	return r
}

// drawLines fills rows [y0, y1) with lines of words 9 px high, 16 px apart,
// each word a dark block with anti-aliased grey edges.
func drawLines(r *Raster, rng *rand.Rand, y0, y1 int) {
	margin := r.W / 10
	for y := y0; y+9 <= y1; y += 16 {
		x := margin + rng.Intn(20)
		for x < r.W-margin {
			wl := 10 + rng.Intn(50)
			if x+wl > r.W-margin {
				break
			}
			drawWord(r, x, y, wl)
			x += wl + 6
		}
	}
}

// drawWord draws a word wl pixels wide and up to 9 high: glyph-like strokes
// (a stem and a bar per 6-pixel cell, varying with the position) with grey
// anti-aliased rims. Like real text, it inks a small share of its box, so
// two different lines overlap little.
func drawWord(r *Raster, x, y, wl int) {
	drawWordSeed(r, x, y, wl, int64(x)*7919+int64(y)*104729+int64(wl))
}

// drawWordSeed is drawWord with the glyphs chosen by seed alone, so that
// the same word drawn elsewhere has the same pixels.
func drawWordSeed(r *Raster, x, y, wl int, seed int64) {
	rng := rand.New(rand.NewSource(seed))
	for gx := x; gx+4 <= x+wl; gx += 6 {
		top := y + 2*rng.Intn(2) // ascender or x-height
		sx := gx + rng.Intn(4)
		fillRect(r, sx-1, top, sx, y+9, 0xc0) // AA rim
		fillRect(r, sx+1, top, sx+2, y+9, 0xc0)
		fillRect(r, sx, top, sx+1, y+9, 0x20) // stem
		by := y + 2 + rng.Intn(6)
		fillRect(r, gx, by, gx+4, by+1, 0x30) // bar
	}
}

// drawNumber draws the number n as a row of 5×8 blocks, one per binary
// digit (filled for 1, outlined for 0), starting at (x, y).
func drawNumber(r *Raster, x, y, n int) {
	for bit := 7; bit >= 0; bit-- {
		fillRect(r, x, y, x+5, y+8, 0x30)
		if n>>bit&1 == 0 {
			fillRect(r, x+1, y+1, x+4, y+7, 0xff)
		}
		x += 7
	}
}

// clone copies a raster.
func clone(r *Raster) *Raster {
	return &Raster{W: r.W, H: r.H, Pix: append([]byte(nil), r.Pix...)}
}
