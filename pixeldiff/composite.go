package pixeldiff

import (
	"image"
	"image/color"

	"golang.org/x/image/font"
	"golang.org/x/image/font/basicfont"
	"golang.org/x/image/math/fixed"
)

// DefaultMaxSide is the longest side of a composite: 1568 px is the size
// above which vision models downscale an image anyway.
const DefaultMaxSide = 1568

// CompositeOptions tunes Composite. The zero value means defaults.
type CompositeOptions struct {
	// MaxSide bounds the composite's longer side; 0 means DefaultMaxSide.
	// Pages are downscaled to fit, never upscaled.
	MaxSide int
	// LabelBefore and LabelAfter, when not empty, are written above each
	// half ("before p. 3", "after p. 4").
	LabelBefore, LabelAfter string
}

// Composite layout, in output pixels.
const (
	compositeGutter  = 16 // between the halves
	compositeLabel   = 20 // label strip height, when there are labels
	compositeOutline = 3  // box outline width
	compositePad     = 2  // space between a changed region and its outline
)

var (
	compositeBackground = [3]byte{0xd8, 0xd8, 0xd8} // gutter and label strip
	compositeOutlineRGB = [3]byte{0xe0, 0x10, 0x10}
	placeholderFill     = [3]byte{0xf2, 0xf2, 0xf2}
	placeholderLine     = [3]byte{0xb0, 0xb0, 0xb0}
)

// Composite draws two versions of a page side by side — before on the
// left, after on the right — with the changed regions outlined in red
// (boxes in each page's own pixel coordinates, as Diff.Boxes), downscaled
// with an area filter so that the longer side is at most MaxSide. For an
// inserted or deleted page pass nil for the missing side: it is drawn as a
// blank placeholder of the other page's size. Both nil gives nil.
func Composite(before, after *Raster, boxesBefore, boxesAfter [][4]int, o CompositeOptions) *Raster {
	if before == nil && after == nil {
		return nil
	}
	maxSide := o.MaxSide
	if maxSide <= 0 {
		maxSide = DefaultMaxSide
	}
	ref := before
	if ref == nil {
		ref = after
	}
	bw, bh, aw, ah := ref.W, ref.H, ref.W, ref.H
	if before != nil {
		bw, bh = before.W, before.H
	}
	if after != nil {
		aw, ah = after.W, after.H
	}
	label := 0
	if o.LabelBefore != "" || o.LabelAfter != "" {
		label = compositeLabel
	}
	// One scale for both pages, so that equal sizes stay equal.
	s := 1.0
	if fw := float64(maxSide-compositeGutter) / float64(bw+aw); fw < s {
		s = fw
	}
	if fh := float64(maxSide-label) / float64(max(bh, ah)); fh < s {
		s = fh
	}
	sbw, sbh := max(1, int(float64(bw)*s)), max(1, int(float64(bh)*s))
	saw, sah := max(1, int(float64(aw)*s)), max(1, int(float64(ah)*s))
	out := &Raster{W: sbw + compositeGutter + saw, H: label + max(sbh, sah)}
	out.Pix = make([]byte, 3*out.W*out.H)
	for i := 0; i < len(out.Pix); i += 3 {
		out.Pix[i], out.Pix[i+1], out.Pix[i+2] = compositeBackground[0], compositeBackground[1], compositeBackground[2]
	}
	place := func(src *Raster, boxes [][4]int, x0, w, h int) {
		if src == nil {
			placeholder(out, x0, label, w, h)
			return
		}
		blit(out, scaleArea(src, w, h), x0, label)
		sx, sy := float64(w)/float64(src.W), float64(h)/float64(src.H)
		for _, b := range boxes {
			outlineBox(out, x0, label, w, h,
				int(float64(b[0])*sx), int(float64(b[1])*sy),
				int(float64(b[2])*sx+0.999), int(float64(b[3])*sy+0.999))
		}
	}
	place(before, boxesBefore, 0, sbw, sbh)
	place(after, boxesAfter, sbw+compositeGutter, saw, sah)
	if label > 0 {
		drawLabel(out, 4, o.LabelBefore)
		drawLabel(out, sbw+compositeGutter+4, o.LabelAfter)
	}
	return out
}

// blit copies src into dst at (x0, y0).
func blit(dst, src *Raster, x0, y0 int) {
	for y := 0; y < src.H; y++ {
		copy(dst.Pix[3*((y0+y)*dst.W+x0):], src.Pix[y*src.Stride():(y+1)*src.Stride()])
	}
}

// placeholder fills a w×h area with a light grey page, a border and a
// diagonal cross: "no page here".
func placeholder(dst *Raster, x0, y0, w, h int) {
	fill(dst, x0, y0, x0+w, y0+h, placeholderFill)
	fill(dst, x0, y0, x0+w, y0+2, placeholderLine)
	fill(dst, x0, y0+h-2, x0+w, y0+h, placeholderLine)
	fill(dst, x0, y0, x0+2, y0+h, placeholderLine)
	fill(dst, x0+w-2, y0, x0+w, y0+h, placeholderLine)
	for t := 0; t < h; t++ {
		x := t * w / h
		fill(dst, x0+x, y0+t, x0+x+2, y0+t+1, placeholderLine)
		fill(dst, x0+w-x-2, y0+t, x0+w-x, y0+t+1, placeholderLine)
	}
}

// outlineBox draws a red rectangle around the box [x0,x1)×[y0,y1) of the
// page placed at (px, py) with size pw×ph, outside the box by
// compositePad pixels and clipped to the page.
func outlineBox(dst *Raster, px, py, pw, ph, x0, y0, x1, y1 int) {
	const t, p = compositeOutline, compositePad
	l, r := max(0, x0-p-t), min(pw, x1+p+t)
	u, d := max(0, y0-p-t), min(ph, y1+p+t)
	if l >= r || u >= d {
		return
	}
	c := compositeOutlineRGB
	fill(dst, px+l, py+u, px+r, py+min(d, u+t), c) // top
	fill(dst, px+l, py+max(u, d-t), px+r, py+d, c) // bottom
	fill(dst, px+l, py+u, px+min(r, l+t), py+d, c) // left
	fill(dst, px+max(l, r-t), py+u, px+r, py+d, c) // right
}

// fill paints [x0,x1)×[y0,y1) of dst (clipped) with colour c.
func fill(dst *Raster, x0, y0, x1, y1 int, c [3]byte) {
	x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, dst.W), min(y1, dst.H)
	for y := y0; y < y1; y++ {
		row := dst.Pix[3*(y*dst.W+x0) : 3*(y*dst.W+x1)]
		for i := 0; i < len(row); i += 3 {
			row[i], row[i+1], row[i+2] = c[0], c[1], c[2]
		}
	}
}

// drawLabel writes s in the label strip at x.
func drawLabel(dst *Raster, x int, s string) {
	if s == "" {
		return
	}
	d := font.Drawer{
		Dst:  rasterCanvas{dst},
		Src:  image.NewUniform(color.RGBA{0x20, 0x20, 0x20, 0xff}),
		Face: basicfont.Face7x13,
		Dot:  fixed.P(x, compositeLabel-6),
	}
	d.DrawString(s)
}

// rasterCanvas makes a Raster writable through draw.Image (for text).
type rasterCanvas struct{ *Raster }

// Set implements draw.Image.
func (c rasterCanvas) Set(x, y int, col color.Color) {
	if x < 0 || y < 0 || x >= c.W || y >= c.H {
		return
	}
	r, g, b, _ := col.RGBA()
	i := 3 * (y*c.W + x)
	c.Pix[i], c.Pix[i+1], c.Pix[i+2] = byte(r>>8), byte(g>>8), byte(b>>8)
}

// scaleArea resizes src to w×h with an area (box) filter: each output
// pixel is the coverage-weighted mean of the source pixels under it — the
// right filter for downscaling text, which keeps thin strokes as grey
// rather than dropping them. Sizes equal to the source's return a copy.
func scaleArea(src *Raster, w, h int) *Raster {
	if w == src.W && h == src.H {
		return &Raster{W: w, H: h, Pix: append([]byte(nil), src.Pix...)}
	}
	xs := areaWeights(src.W, w)
	ys := areaWeights(src.H, h)
	// Horizontal pass, one source row at a time, as the vertical pass
	// asks for it (8 fractional bits: at most 255<<8, a uint16). Output
	// rows use source rows in increasing order and only a few each, so a
	// small ring of scaled rows replaces a scaled copy of the whole page
	// (11 MB for an A4 page at 100 dpi).
	ring := 1
	for _, ws := range ys {
		ring = max(ring, len(ws)+1)
	}
	rows := make([][]uint16, ring)
	rowOf := make([]int, ring)
	for k := range rows {
		rows[k], rowOf[k] = make([]uint16, 3*w), -1
	}
	stride := src.Stride()
	scaled := func(y int) []uint16 {
		k := y % ring
		out := rows[k]
		if rowOf[k] == y {
			return out
		}
		rowOf[k] = y
		row := src.Pix[y*stride : (y+1)*stride]
		for x, ws := range xs {
			var r, g, b uint64
			for _, c := range ws {
				i := 3 * c.i
				r += uint64(c.w) * uint64(row[i])
				g += uint64(c.w) * uint64(row[i+1])
				b += uint64(c.w) * uint64(row[i+2])
			}
			out[3*x], out[3*x+1], out[3*x+2] = uint16(r>>8), uint16(g>>8), uint16(b>>8)
		}
		return out
	}
	// Vertical pass.
	dst := &Raster{W: w, H: h, Pix: make([]byte, 3*w*h)}
	acc := make([]uint64, 3*w)
	for y, ws := range ys {
		clear(acc)
		for _, c := range ws {
			for k, v := range scaled(c.i) {
				acc[k] += uint64(c.w) * uint64(v)
			}
		}
		out := dst.Pix[3*w*y : 3*w*(y+1)]
		for k, v := range acc {
			// 16 bits of weight in each pass, 8 kept after the first.
			out[k] = byte(min(255, (v+(1<<23))>>24))
		}
	}
	return dst
}

// areaWeight is one source pixel's share of an output pixel, in 1/65536.
type areaWeight struct {
	i int
	w uint32
}

// areaWeights returns, for each of n output pixels along an axis of m
// source pixels, the source pixels it covers and their weights (summing to
// 65536).
func areaWeights(m, n int) [][]areaWeight {
	out := make([][]areaWeight, n)
	scale := float64(m) / float64(n)
	for o := range out {
		lo, hi := float64(o)*scale, float64(o+1)*scale
		var ws []areaWeight
		total := uint32(0)
		for i := int(lo); float64(i) < hi && i < m; i++ {
			cover := min(hi, float64(i+1)) - max(lo, float64(i))
			if cover <= 0 {
				continue
			}
			wt := uint32(cover / scale * 65536)
			ws = append(ws, areaWeight{i, wt})
			total += wt
		}
		if len(ws) == 0 { // upscaling by more than 2: nearest pixel
			ws = []areaWeight{{min(m-1, int(lo)), 0}}
		}
		ws[0].w += 65536 - total // rounding goes to the first pixel
		out[o] = ws
	}
	return out
}

// Fit returns r downscaled (area filter) so that its longer side is at
// most maxSide (DefaultMaxSide when 0); r itself when it already fits.
func Fit(r *Raster, maxSide int) *Raster {
	if maxSide <= 0 {
		maxSide = DefaultMaxSide
	}
	if r.W <= maxSide && r.H <= maxSide {
		return r
	}
	w, h := r.W, r.H
	if w >= h {
		h, w = max(1, h*maxSide/w), maxSide
	} else {
		w, h = max(1, w*maxSide/h), maxSide
	}
	return scaleArea(r, w, h)
}
