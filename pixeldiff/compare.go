package pixeldiff

import (
	"bytes"
	"sort"
)

// Defaults of CompareOptions. A zero field in CompareOptions takes these.
const (
	// DefaultThreshold is the largest perceived colour difference (YIQ
	// distance, 0..1) that still counts as equal; pixelmatch's default.
	DefaultThreshold = 0.1
	// DefaultWindow is the side, in pixels, of the square window in which
	// the density of changed pixels is measured.
	DefaultWindow = 16
	// DefaultMinChanged is the number of changed pixels that must fall into
	// one DefaultWindow×DefaultWindow window for the page to count as
	// changed. Four pixels is about a full stop at 100 dpi: scattered
	// single-pixel noise never reaches it, the smallest glyph change does.
	DefaultMinChanged = 4
)

// CompareOptions tunes Compare. The zero value means "all defaults".
type CompareOptions struct {
	// Threshold is the largest YIQ colour distance (0..1, relative to the
	// distance between black and white) at which two pixels still count
	// as equal. 0 means DefaultThreshold.
	Threshold float64
	// IncludeAA counts pixels that look like anti-aliasing as changes too.
	// By default they are ignored (pixelmatch's includeAA=false).
	IncludeAA bool
	// Window is the side in pixels of the density window. 0 means
	// DefaultWindow.
	Window int
	// MinChanged is the number of changed pixels that must fall inside one
	// Window×Window square for the page to be reported changed. 0 means
	// DefaultMinChanged.
	MinChanged int
	// Bands are the document's running header and footer bands (see
	// DetectBands). Changes confined to bands that apply to both pages set
	// Diff.MarginsOnly. The zero value means no bands.
	Bands Bands
	// MergeGap is the distance, in windows, over which changed areas are
	// merged into one box. 0 means 1 (areas at most one window apart
	// share a box); a negative value merges only touching areas.
	MergeGap int
}

func (o CompareOptions) withDefaults() CompareOptions {
	if o.Threshold <= 0 {
		o.Threshold = DefaultThreshold
	}
	if o.Window <= 0 {
		o.Window = DefaultWindow
	}
	if o.MinChanged <= 0 {
		o.MinChanged = DefaultMinChanged
	}
	if o.MergeGap == 0 {
		o.MergeGap = 1
	} else if o.MergeGap < 0 {
		o.MergeGap = 0
	}
	return o
}

// Diff is the result of comparing two pages.
type Diff struct {
	// Same reports that the pages are identical, or differ only by
	// anti-aliasing and by changes too sparse to reach MinChanged in any
	// window.
	Same bool `json:"-"`
	// Ratio is the share of pixels that differ beyond the threshold and are
	// not anti-aliasing (changed pixels / all pixels). It can be above zero
	// on a page that is Same.
	Ratio float64 `json:"ratio"`
	// Changed is the number of changed pixels behind Ratio.
	Changed int `json:"-"`
	// Peak is the largest number of changed pixels found in one
	// Window×Window square: the figure compared with MinChanged.
	Peak int `json:"-"`
	// Boxes are the changed regions, as half-open pixel rectangles
	// [x0, y0, x1, y1) in the coordinates of both pages (they have the same
	// size; for pages of different sizes one box covers the larger page).
	// Empty when Same.
	Boxes [][4]int `json:"boxes"`
	// MarginsOnly reports that every changed region lies inside the top or
	// bottom band (running header or footer): typically page numbers that
	// moved after an insertion, not a content change.
	MarginsOnly bool `json:"margins_only"`
}

// Compare compares two pages. Identical pixel buffers are detected first at
// memory speed (bytes.Equal). Otherwise each pixel pair is measured with the
// YIQ perceived colour distance (Kotsarenko & Ramos, "Measuring perceived
// color difference using YIQ NTSC transmission color space in mobile
// applications", 2010, as used by pixelmatch and odiff); pixels beyond the
// threshold that look like anti-aliasing in either page (Vysniauskas,
// "Anti-aliased pixel and intensity slope detector", 2009, as adapted by
// pixelmatch) are ignored. The page counts as changed when some
// Window×Window square holds at least MinChanged changed pixels — a density
// rule, so that a dense one-word change is found on a page where a global
// pixel budget would absorb it, and scattered rendering noise is not.
// Pages of different sizes are always changed, with one full-page box.
func Compare(a, b *Raster, opts CompareOptions) Diff {
	o := opts.withDefaults()
	if a.W != b.W || a.H != b.H {
		w, h := max(a.W, b.W), max(a.H, b.H)
		return Diff{Ratio: 1, Changed: w * h, Peak: o.Window * o.Window, Boxes: [][4]int{{0, 0, w, h}}}
	}
	if bytes.Equal(a.Pix, b.Pix) {
		return Diff{Same: true}
	}
	c := newComparison(a, b, o)
	c.scan()
	return c.result()
}

// comparison holds the working state of one tolerant Compare.
type comparison struct {
	a, b     *Raster
	o        CompareOptions
	maxDelta float64

	win, tw, th int
	mask        []uint8 // 1 for a changed pixel; allocated on the first one
	counts      []int32 // changed pixels per tile (tile = win×win)
	tbox        [][4]int32
	changed     int
	y0, y1      int // rows holding changed pixels: [y0, y1)
}

func newComparison(a, b *Raster, o CompareOptions) *comparison {
	win := o.Window
	c := &comparison{
		a: a, b: b, o: o,
		// 35215 is the largest possible YIQ distance (between two
		// saturated colours; black against white is 32857).
		maxDelta: 35215 * o.Threshold * o.Threshold,
		win:      win,
		tw:       (a.W + win - 1) / win,
		th:       (a.H + win - 1) / win,
		y0:       a.H,
	}
	return c
}

// scan classifies every pixel, skipping equal rows at memory speed.
func (c *comparison) scan() {
	w, h := c.a.W, c.a.H
	stride := 3 * w
	ap, bp := c.a.Pix, c.b.Pix
	for y := 0; y < h; y++ {
		ra, rb := ap[y*stride:(y+1)*stride], bp[y*stride:(y+1)*stride]
		if bytes.Equal(ra, rb) {
			continue
		}
		for x := 0; x < w; x++ {
			i := 3 * x
			if ra[i] == rb[i] && ra[i+1] == rb[i+1] && ra[i+2] == rb[i+2] {
				continue
			}
			if yiqDelta(ra[i], ra[i+1], ra[i+2], rb[i], rb[i+1], rb[i+2]) <= c.maxDelta {
				continue
			}
			if !c.o.IncludeAA && (antialiased(c.a, c.b, x, y) || antialiased(c.b, c.a, x, y)) {
				continue
			}
			c.mark(x, y)
		}
	}
}

func (c *comparison) mark(x, y int) {
	if c.mask == nil {
		c.mask = make([]uint8, c.a.W*c.a.H)
		c.counts = make([]int32, c.tw*c.th)
		c.tbox = make([][4]int32, c.tw*c.th)
	}
	c.mask[y*c.a.W+x] = 1
	c.changed++
	if y < c.y0 {
		c.y0 = y
	}
	if y+1 > c.y1 {
		c.y1 = y + 1
	}
	t := (y/c.win)*c.tw + x/c.win
	bx := &c.tbox[t]
	if c.counts[t] == 0 {
		*bx = [4]int32{int32(x), int32(y), int32(x + 1), int32(y + 1)}
	} else {
		bx[0] = min(bx[0], int32(x))
		bx[1] = min(bx[1], int32(y))
		bx[2] = max(bx[2], int32(x+1))
		bx[3] = max(bx[3], int32(y+1))
	}
	c.counts[t]++
}

// result applies the density rule and builds the boxes.
func (c *comparison) result() Diff {
	w, h := c.a.W, c.a.H
	d := Diff{Ratio: float64(c.changed) / float64(w*h), Changed: c.changed}
	if c.changed == 0 {
		d.Same = true
		return d
	}
	hot, peak := c.hotTiles()
	d.Peak = peak
	if peak < c.o.MinChanged {
		d.Same = true
		return d
	}
	d.Boxes = c.boxes(hot)
	ta, ba := c.o.Bands.On(c.a)
	tb, bb := c.o.Bands.On(c.b)
	top, bot := min(ta, tb), min(ba, bb)
	if top > 0 || bot > 0 {
		d.MarginsOnly = true
		for _, bx := range d.Boxes {
			if bx[3] > top && bx[1] < h-bot {
				d.MarginsOnly = false
				break
			}
		}
	}
	return d
}

// hotTiles finds, with a summed-area table over the rows that hold changes,
// every Window×Window position whose changed-pixel count reaches
// MinChanged, and marks the non-empty tiles such a window overlaps. Only
// windows that overlap a non-empty tile are evaluated, so the cost follows
// the changed area, not the page.
func (c *comparison) hotTiles() (hot []bool, peak int) {
	w, h, win := c.a.W, c.a.H, c.win
	ww, wh := min(win, w), min(win, h) // the window, clipped to small pages
	// Rows [r0, r1) of the table cover every window that can touch a change.
	r0 := max(0, c.y0-wh+1)
	r1 := min(h, c.y1+wh-1)
	sw := w + 1
	sat := make([]int32, sw*(r1-r0+1))
	for y := r0; y < r1; y++ {
		row := c.mask[y*w : (y+1)*w]
		prev := sat[(y-r0)*sw : (y-r0+1)*sw]
		cur := sat[(y-r0+1)*sw : (y-r0+2)*sw]
		var run int32
		for x, m := range row {
			run += int32(m)
			cur[x+1] = prev[x+1] + run
		}
	}
	count := func(x, y int) int { // window with top-left (x, y)
		t, b := (y-r0)*sw, (y+wh-r0)*sw
		return int(sat[b+x+ww] - sat[b+x] - sat[t+x+ww] + sat[t+x])
	}
	hot = make([]bool, c.tw*c.th)
	minc := c.o.MinChanged
	for ty := 0; ty < c.th; ty++ {
		for tx := 0; tx < c.tw; tx++ {
			// Windows whose top-left lies in tile (tx, ty) overlap tiles
			// tx..tx+1 × ty..ty+1 only.
			if c.blockDone(hot, tx, ty, peak) {
				continue
			}
			xs, ys := tx*win, ty*win
			xe, ye := min(xs+win, w-ww+1), min(ys+win, h-wh+1)
			ys, ye = max(ys, r0), min(ye, r1-wh+1)
			for y := ys; y < ye; y++ {
				for x := xs; x < xe; x++ {
					n := count(x, y)
					if n > peak {
						peak = n
					}
					if n >= minc {
						c.markOverlapped(hot, x, y, ww, wh)
					}
				}
			}
		}
	}
	return hot, peak
}

// blockDone reports that no window with its top-left in tile (tx, ty) can
// change the outcome: the 2×2 tiles those windows overlap hold no more
// changed pixels than the peak found so far (no window there can raise it),
// and either fewer than MinChanged or all of them are already hot (no
// window there can mark a new tile).
func (c *comparison) blockDone(hot []bool, tx, ty, peak int) bool {
	sum, allHot := 0, true
	for dy := 0; dy < 2 && ty+dy < c.th; dy++ {
		for dx := 0; dx < 2 && tx+dx < c.tw; dx++ {
			t := (ty+dy)*c.tw + tx + dx
			sum += int(c.counts[t])
			allHot = allHot && (c.counts[t] == 0 || hot[t])
		}
	}
	return sum <= peak && (sum < c.o.MinChanged || allHot)
}

func (c *comparison) markOverlapped(hot []bool, x, y, ww, wh int) {
	for ty := y / c.win; ty <= (y+wh-1)/c.win; ty++ {
		for tx := x / c.win; tx <= (x+ww-1)/c.win; tx++ {
			if t := ty*c.tw + tx; c.counts[t] > 0 {
				hot[t] = true
			}
		}
	}
}

// boxes groups hot tiles that lie within MergeGap tiles of each other and
// returns the tight bounding box of the changed pixels of each group,
// merging boxes that still overlap, sorted top to bottom, left to right.
func (c *comparison) boxes(hot []bool) [][4]int {
	parent := make([]int32, len(hot))
	for i := range parent {
		parent[i] = int32(i)
	}
	find := func(i int32) int32 {
		for parent[i] != i {
			parent[i] = parent[parent[i]]
			i = parent[i]
		}
		return i
	}
	g := c.o.MergeGap + 1
	for t, ok := range hot {
		if !ok {
			continue
		}
		tx, ty := t%c.tw, t/c.tw
		// Look back only (earlier rows, or earlier in this row) so each
		// pair is joined once.
		for ny := max(0, ty-g); ny <= ty; ny++ {
			for nx := max(0, tx-g); nx <= min(c.tw-1, tx+g); nx++ {
				n := ny*c.tw + nx
				if n >= t || !hot[n] {
					continue
				}
				if a, b := find(int32(t)), find(int32(n)); a != b {
					parent[a] = b
				}
			}
		}
	}
	groups := map[int32]int{}
	var out [][4]int
	for t, ok := range hot {
		if !ok {
			continue
		}
		r := find(int32(t))
		tb := c.tbox[t]
		b := [4]int{int(tb[0]), int(tb[1]), int(tb[2]), int(tb[3])}
		if k, seen := groups[r]; seen {
			out[k] = unionBox(out[k], b)
		} else {
			groups[r] = len(out)
			out = append(out, b)
		}
	}
	out = mergeOverlapping(out)
	sort.Slice(out, func(i, j int) bool {
		if out[i][1] != out[j][1] {
			return out[i][1] < out[j][1]
		}
		return out[i][0] < out[j][0]
	})
	return out
}

func unionBox(a, b [4]int) [4]int {
	return [4]int{min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3])}
}

// mergeOverlapping merges boxes that intersect until none do.
func mergeOverlapping(bs [][4]int) [][4]int {
	for merged := true; merged; {
		merged = false
		for i := 0; i < len(bs); i++ {
			for j := i + 1; j < len(bs); j++ {
				a, b := bs[i], bs[j]
				if a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3] {
					bs[i] = unionBox(a, b)
					bs = append(bs[:j], bs[j+1:]...)
					merged = true
					j--
				}
			}
		}
	}
	return bs
}

// yiqDelta is the squared YIQ distance between two colours, weighted as in
// Kotsarenko & Ramos (2010); at most 35215, 32857 for black against white.
func yiqDelta(r1, g1, b1, r2, g2, b2 byte) float64 {
	dr, dg, db := float64(r1)-float64(r2), float64(g1)-float64(g2), float64(b1)-float64(b2)
	y := dr*0.29889531 + dg*0.58662247 + db*0.11448223
	i := dr*0.59597799 - dg*0.27417610 - db*0.32180189
	q := dr*0.21147017 - dg*0.52261711 + db*0.31114694
	return 0.5053*y*y + 0.299*i*i + 0.1957*q*q
}

// brightness is the Y (luma) component of YIQ.
func brightness(p []byte, i int) float64 {
	return float64(p[i])*0.29889531 + float64(p[i+1])*0.58662247 + float64(p[i+2])*0.11448223
}

// antialiased reports whether pixel (x, y) of img looks like an
// anti-aliasing pixel (Vysniauskas 2009, in pixelmatch's adaptation): it
// has at most two neighbours of exactly its brightness, it lies between a
// darker and a brighter neighbour (an intensity slope), and the darkest or
// the brightest neighbour sits inside a flat area (three or more identical
// neighbours) in both images — the edge of a solid shape whose rendering
// differs only in how the edge was smoothed.
func antialiased(img, other *Raster, x, y int) bool {
	w, h := img.W, img.H
	x0, y0, x2, y2 := max(x-1, 0), max(y-1, 0), min(x+1, w-1), min(y+1, h-1)
	zeroes := 0
	if x == x0 || x == x2 || y == y0 || y == y2 {
		zeroes = 1 // a pixel on the page edge has one neighbour fewer to spare
	}
	p := img.Pix
	c := brightness(p, 3*(y*w+x))
	var lo, hi float64 // most negative / most positive brightness step
	var lx, ly, hx, hy int
	for ny := y0; ny <= y2; ny++ {
		for nx := x0; nx <= x2; nx++ {
			if nx == x && ny == y {
				continue
			}
			d := c - brightness(p, 3*(ny*w+nx))
			switch {
			case d == 0:
				zeroes++
				if zeroes > 2 {
					return false
				}
			case d < lo:
				lo, lx, ly = d, nx, ny
			case d > hi:
				hi, hx, hy = d, nx, ny
			}
		}
	}
	if lo == 0 || hi == 0 {
		return false
	}
	return (manySiblings(img, lx, ly) && manySiblings(other, lx, ly)) ||
		(manySiblings(img, hx, hy) && manySiblings(other, hx, hy))
}

// manySiblings reports whether pixel (x, y) has three or more neighbours of
// exactly its colour (counting the page edge as one).
func manySiblings(img *Raster, x, y int) bool {
	w, h := img.W, img.H
	x0, y0, x2, y2 := max(x-1, 0), max(y-1, 0), min(x+1, w-1), min(y+1, h-1)
	n := 0
	if x == x0 || x == x2 || y == y0 || y == y2 {
		n = 1
	}
	p := img.Pix
	i := 3 * (y*w + x)
	for ny := y0; ny <= y2; ny++ {
		for nx := x0; nx <= x2; nx++ {
			if nx == x && ny == y {
				continue
			}
			j := 3 * (ny*w + nx)
			if p[i] == p[j] && p[i+1] == p[j+1] && p[i+2] == p[j+2] {
				n++
				if n > 2 {
					return true
				}
			}
		}
	}
	return false
}
