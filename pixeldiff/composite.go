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
	// The two halves are side by side (disjoint columns): drawn at once.
	done := make(chan struct{})
	go func() {
		defer close(done)
		place(before, boxesBefore, 0, sbw, sbh)
	}()
	place(after, boxesAfter, sbw+compositeGutter, saw, sah)
	<-done
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
	xs := flatWeights(areaWeights(src.W, w))
	ys := areaWeights(src.H, h)
	stride := src.Stride()
	// Rows of one colour (the margins and the space between text lines,
	// most of a page) scale to that colour exactly, since each output
	// pixel's weights sum to 1: an output row all of whose source rows
	// are of the same colour is that colour, without the two passes.
	uniform := make([]bool, src.H)
	for y := range uniform {
		row := src.Pix[y*stride : (y+1)*stride]
		uniform[y] = oneColour(row)
	}
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
	scaled := func(y int) []uint16 {
		k := y % ring
		out := rows[k]
		if rowOf[k] == y {
			return out
		}
		rowOf[k] = y
		row := src.Pix[y*stride : (y+1)*stride]
		if xs.three != nil { // at most three source pixels per output pixel
			taps := xs.three
			for x0 := 0; x0 < len(taps); x0 += 16 {
				x1 := min(len(taps), x0+16)
				// A run of 16 output pixels over source pixels of one
				// colour (the white between words and around a table's
				// rules) is that colour, at memory speed.
				if span := row[3*taps[x0].i : 3*taps[x1-1].k+3]; oneColour(span) {
					c0, c1, c2 := uint16(span[0])<<8, uint16(span[1])<<8, uint16(span[2])<<8
					o := out[3*x0 : 3*x1]
					for k := 0; k < len(o); k += 3 {
						o[k], o[k+1], o[k+2] = c0, c1, c2
					}
					continue
				}
				for x := x0; x < x1; x++ {
					t := &taps[x]
					p, q, u := row[3*t.i:3*t.i+3:3*t.i+3], row[3*t.j:3*t.j+3:3*t.j+3], row[3*t.k:3*t.k+3:3*t.k+3]
					o := out[3*x : 3*x+3 : 3*x+3]
					o[0] = uint16((t.a*uint32(p[0]) + t.b*uint32(q[0]) + t.c*uint32(u[0])) >> 8)
					o[1] = uint16((t.a*uint32(p[1]) + t.b*uint32(q[1]) + t.c*uint32(u[1])) >> 8)
					o[2] = uint16((t.a*uint32(p[2]) + t.b*uint32(q[2]) + t.c*uint32(u[2])) >> 8)
				}
			}
			return out
		}
		for x := 0; x < w; x++ {
			// Sums of at most 65536 × 255: a uint32.
			var r, g, b uint32
			for j := xs.off[x]; j < xs.off[x+1]; j++ {
				i, c := 3*int(xs.idx[j]), xs.w[j]
				p := row[i : i+3 : i+3]
				r += c * uint32(p[0])
				g += c * uint32(p[1])
				b += c * uint32(p[2])
			}
			o := out[3*x : 3*x+3 : 3*x+3]
			o[0], o[1], o[2] = uint16(r>>8), uint16(g>>8), uint16(b>>8)
		}
		return out
	}
	// Vertical pass.
	dst := &Raster{W: w, H: h, Pix: make([]byte, 3*w*h)}
	acc := make([]uint32, 3*w)
	for y, ws := range ys {
		out := dst.Pix[3*w*y : 3*w*(y+1)]
		if c, ok := sameColour(src, uniform, ws); ok {
			for k := 0; k < len(out); k += 3 {
				out[k], out[k+1], out[k+2] = c[0], c[1], c[2]
			}
			continue
		}
		// Sums of at most 65536 × (255<<8) < 2³²: a uint32. 16 bits of
		// weight in each pass, 8 kept after the first.
		if len(ws) == 2 || len(ws) == 3 { // every row of a downscale by less than 2
			a, b, c := scaled(ws[0].i), scaled(ws[1].i), []uint16(nil)
			wa, wb, wc := ws[0].w, ws[1].w, uint32(0)
			if len(ws) == 3 {
				c, wc = scaled(ws[2].i), ws[2].w
			} else {
				c = a // weight 0
			}
			a, b, c = a[:len(out)], b[:len(out)], c[:len(out)]
			for k := range out {
				out[k] = byte(min(255, (uint64(wa*uint32(a[k])+wb*uint32(b[k])+wc*uint32(c[k]))+(1<<23))>>24))
			}
			continue
		}
		clear(acc)
		for _, c := range ws {
			for k, v := range scaled(c.i) {
				acc[k] += c.w * uint32(v)
			}
		}
		for k, v := range acc {
			out[k] = byte(min(255, (uint64(v)+(1<<23))>>24))
		}
	}
	return dst
}

// sameColour reports whether the source rows of ws are all of one colour
// and the same one, and which.
func sameColour(src *Raster, uniform []bool, ws []areaWeight) ([3]byte, bool) {
	var c [3]byte
	if src.W == 0 {
		return c, false
	}
	stride := src.Stride()
	for k, a := range ws {
		if !uniform[a.i] {
			return c, false
		}
		p := src.Pix[a.i*stride : a.i*stride+3]
		if k == 0 {
			c = [3]byte{p[0], p[1], p[2]}
		} else if p[0] != c[0] || p[1] != c[1] || p[2] != c[2] {
			return c, false
		}
	}
	return c, len(ws) > 0
}

// flatAreaWeights is areaWeights in three flat arrays: output pixel o takes
// the source pixels idx[off[o]:off[o+1]] with weights w[off[o]:off[o+1]].
// When no output pixel takes more than three source pixels (a downscale by
// less than 2, the composite's usual case), three holds them as triples too.
type flatAreaWeights struct {
	off   []int
	idx   []int32
	w     []uint32
	three []threeTaps
}

// threeTaps is an output pixel of source pixels i, j, k with weights a, b,
// c (fewer source pixels: the last repeated with weight 0).
type threeTaps struct {
	i, j, k int
	a, b, c uint32
}

func flatWeights(ws [][]areaWeight) flatAreaWeights {
	f := flatAreaWeights{off: make([]int, 1, len(ws)+1), three: make([]threeTaps, 0, len(ws))}
	for _, o := range ws {
		for _, a := range o {
			f.idx = append(f.idx, int32(a.i))
			f.w = append(f.w, a.w)
		}
		f.off = append(f.off, len(f.idx))
		if f.three == nil {
			continue
		}
		switch len(o) {
		case 1:
			f.three = append(f.three, threeTaps{o[0].i, o[0].i, o[0].i, o[0].w, 0, 0})
		case 2:
			f.three = append(f.three, threeTaps{o[0].i, o[1].i, o[1].i, o[0].w, o[1].w, 0})
		case 3:
			f.three = append(f.three, threeTaps{o[0].i, o[1].i, o[2].i, o[0].w, o[1].w, o[2].w})
		default:
			f.three = nil
		}
	}
	return f
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
