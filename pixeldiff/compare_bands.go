package pixeldiff

import "bytes"

// Running header and footer bands.
//
// A fixed band ("the top 8% of the page") does not work. Measured on
// LibreOffice renderings of real .docx files at 100 dpi (A4/Letter, 1100–
// 1170 rows): poi_stress023 has a two-line header at rows 54–84 and body
// text from row 100; docx4j_toc has no header and body text from row 82;
// docx4j_sample-docx has its header at 52–67 and body from 87;
// oxsdk_consumer-confidence-report has its header at 31–44, body from 56,
// and a footer one blank row below a table. A band that covers the first
// header covers the second document's first lines of text. A gap rule
// alone mistakes a heading followed by space for a header. What tells a
// running header apart is that it repeats: the same rows hold (nearly) the
// same ink on page after page, or, for a lone page number, a narrow block
// at the same place. BandDetector finds such blocks across the pages of a
// document (on those files: 92/112, 0/79, 76/0 and 49/47 rows for
// top/bottom); the bands are then a property of the document, applied to
// every page whose layout has them.

// Bands are the running header and footer bands of a document, in pixel
// rows of its pages: rows [0, Top) and [H-Bottom, H). Zero means no band.
// They are measured on one document (normally the original) and used for
// both sides of a comparison, so that masked hashes stay comparable.
type Bands struct {
	Top    int `json:"top"`    // rows of the running header band, from the top edge
	Bottom int `json:"bottom"` // rows of the running footer band, from the bottom edge
}

// On returns the bands that apply to page r: a band applies when it lies
// within the page's edge zone and its boundary row is blank on r (see
// blankRows), so that no content straddles it. A title page whose layout
// differs keeps its top rows unmasked.
func (b Bands) On(r *Raster) (top, bottom int) {
	if (b.Top <= 0 && b.Bottom <= 0) || r.H == 0 {
		return 0, 0
	}
	z := zoneRows(r.H)
	var blank []bool // computed only when a boundary row is not one colour
	isBlank := func(y int) bool {
		if oneColour(r.Pix[y*r.Stride() : (y+1)*r.Stride()]) {
			return true // blank under any choice of rule columns
		}
		if blank == nil {
			blank = blankRows(r)
		}
		return blank[y]
	}
	if b.Top > 0 && b.Top < z && isBlank(b.Top) {
		top = b.Top
	}
	if b.Bottom > 0 && b.Bottom < z && isBlank(r.H-b.Bottom-1) {
		bottom = b.Bottom
	}
	return top, bottom
}

// ruleShare is the share of a page's rows a column must be inked in to
// count as a rule column in blankRows.
const ruleShare = 0.75

// blankRows marks the rows of r that hold no content: one colour across the
// page, apart from rule columns — columns that differ from the page's
// background (its top-left pixel) in at least three quarters of the rows:
// a page border or a full-height vertical rule, which would otherwise join
// every row of the page into one block. When more than a tenth of the
// columns qualify, the page is a picture rather than a ruled page and no
// column is set aside (measured on a corpus form with a
// page border, oxsdk_consumer-confidence-report.docx: one block per page
// without this rule, one per text line with it).
func blankRows(r *Raster) []bool {
	w, h, stride := r.W, r.H, r.Stride()
	blank := make([]bool, h)
	if w == 0 || h == 0 {
		return blank
	}
	p := r.Pix
	b0, b1, b2 := p[0], p[1], p[2]
	bgRow := make([]byte, stride)
	for i := 0; i < stride; i += 3 {
		bgRow[i], bgRow[i+1], bgRow[i+2] = b0, b1, b2
	}
	count := make([]int32, w)
	for y := 0; y < h; y++ {
		row := p[y*stride : (y+1)*stride]
		if bytes.Equal(row, bgRow) { // most rows of a page: at memory speed
			blank[y] = true
			continue
		}
		// Text rows are mostly background too: 16-pixel chunks of it are
		// skipped at memory speed.
		for x0 := 0; x0 < w; x0 += 16 {
			x1 := min(w, x0+16)
			if bytes.Equal(row[3*x0:3*x1], bgRow[3*x0:3*x1]) {
				continue
			}
			for x := x0; x < x1; x++ {
				if row[3*x] != b0 || row[3*x+1] != b1 || row[3*x+2] != b2 {
					count[x]++
				}
			}
		}
	}
	var keep []int // the columns that are not rules
	limit := int32(ruleShare * float64(h))
	for x, c := range count {
		if c < limit {
			keep = append(keep, x)
		}
	}
	// No rules, or so many inked columns that this is a picture, not a
	// border (a full-page image would otherwise blank every row): whole
	// rows compare.
	if len(keep) == len(count) || len(keep) < w*9/10 {
		for y := 0; y < h; y++ {
			if !blank[y] {
				blank[y] = oneColour(p[y*stride : (y+1)*stride])
			}
		}
		return blank
	}
	for y := 0; y < h; y++ {
		if blank[y] {
			continue
		}
		row := p[y*stride : (y+1)*stride]
		blank[y] = true
		if len(keep) == 0 {
			continue
		}
		i0 := 3 * keep[0]
		for _, x := range keep[1:] {
			i := 3 * x
			if row[i] != row[i0] || row[i+1] != row[i0+1] || row[i+2] != row[i0+2] {
				blank[y] = false
				break
			}
		}
	}
	return blank
}

// oneColour reports whether every pixel of a row has the colour of its
// first pixel.
func oneColour(row []byte) bool {
	// Every pixel equals the one before it: the row against itself
	// shifted by a pixel, at memory speed.
	return len(row) < 3 || bytes.Equal(row[3:], row[:len(row)-3])
}

// blocksOf returns the runs of non-blank rows of blank, as [y0, y1).
func blocksOf(blank []bool) [][2]int {
	var out [][2]int
	in := false
	for y, b := range blank {
		switch {
		case !b && !in:
			out = append(out, [2]int{y, y + 1})
			in = true
		case !b:
			out[len(out)-1][1] = y + 1
		default:
			in = false
		}
	}
	return out
}

// bandZone is the share of the page height searched for running blocks at
// the top and at the bottom.
const bandZone = 0.15

// zoneRows is the height of the top and of the bottom zone of a page h
// rows high, where running headers and footers are looked for.
func zoneRows(h int) int { return int(float64(h) * bandZone) }

// inkDelta is the luma difference from the row background above which a
// pixel counts as ink for band detection.
const inkDelta = 40

// BandDetector finds the running header and footer bands of a document
// from its pages, fed one at a time (the renderer streams pages; only the
// edge zones of the previous page are kept).
type BandDetector struct {
	w, h   int
	pages  int
	pairs  int
	prev   [2][]byte   // top and bottom zone pixels of the previous page
	prevB  [2][][2]int // the previous page's blocks
	prevOK bool        // prev holds a page of size w×h
	votes  [2][]int    // per zone row: pairs in which the row is in a running block
	blocks [2][][2]int // every page's blocks per zone, zone-relative rows, flattened
	starts [2][]int    // per page: index into blocks where the page's blocks begin
}

// NewBandDetector returns an empty detector.
func NewBandDetector() *BandDetector { return &BandDetector{} }

// zoneRows is the height of one search zone.
func (d *BandDetector) zoneRows() int { return zoneRows(d.h) }

// Add feeds the next page. Pages of another size than the first are
// ignored.
func (d *BandDetector) Add(r *Raster) {
	if d.pages == 0 {
		d.w, d.h = r.W, r.H
		z := d.zoneRows()
		d.votes = [2][]int{make([]int, z), make([]int, z)}
	}
	if r.W != d.w || r.H != d.h {
		d.prevOK = false
		return
	}
	d.pages++
	z := d.zoneRows()
	stride := r.Stride()
	// Zone 0 is the top rows; zone 1 the bottom rows, stored upside down
	// (row 0 = the page's last row), so both count from the page edge.
	cur := [2][]byte{make([]byte, z*stride), make([]byte, z*stride)}
	copy(cur[0], r.Pix[:z*stride])
	for i := 0; i < z; i++ {
		copy(cur[1][i*stride:(i+1)*stride], r.Pix[(r.H-1-i)*stride:(r.H-i)*stride])
	}
	blank := blankRows(r)
	flipped := make([]bool, z)
	for i := range flipped {
		flipped[i] = blank[r.H-1-i]
	}
	curBlocks := [2][][2]int{blocksOf(blank[:z]), blocksOf(flipped)}
	for zi := 0; zi < 2; zi++ {
		d.starts[zi] = append(d.starts[zi], len(d.blocks[zi]))
		d.blocks[zi] = append(d.blocks[zi], curBlocks[zi]...)
	}
	if d.prevOK {
		d.pairs++
		for zi := 0; zi < 2; zi++ {
			for _, pb := range d.prevB[zi] {
				for _, cb := range curBlocks[zi] {
					// A block that reaches the inner edge of the zone
					// continues into the body: not a header.
					if pb[1] >= z || cb[1] >= z || abs(pb[0]-cb[0]) > 1 || abs(pb[1]-cb[1]) > 1 {
						continue
					}
					y0, y1 := min(pb[0], cb[0]), max(pb[1], cb[1])
					if runningBlock(d.prev[zi], cur[zi], d.w, y0, y1) {
						for y := y0; y < y1; y++ {
							d.votes[zi][y]++
						}
					}
				}
			}
		}
	}
	d.prev, d.prevB, d.prevOK = cur, curBlocks, true
}

// Bands returns the bands found so far: for each edge, the rows down to the
// innermost row that sits in a running block in at least half of the
// consecutive page pairs, plus half the narrowest gap to the content below
// it. With fewer than two pages there is nothing to repeat and no band.
func (d *BandDetector) Bands() Bands {
	var out [2]int
	if d.pairs == 0 {
		return Bands{}
	}
	for zi := 0; zi < 2; zi++ {
		end := 0 // one past the innermost running row
		for y, v := range d.votes[zi] {
			if v > 0 && 2*v >= d.pairs {
				end = y + 1
			}
		}
		if end == 0 {
			continue
		}
		// The band ends halfway into the narrowest gap between the
		// running block and the next block, over the pages that have a
		// gap there (pages with content across the line do not take the
		// band, see Bands.On).
		next := d.zoneRows()
		for p, s := range d.starts[zi] {
			e := len(d.blocks[zi])
			if p+1 < len(d.starts[zi]) {
				e = d.starts[zi][p+1]
			}
			for _, b := range d.blocks[zi][s:e] {
				if b[0] >= end && b[0] < next {
					next = b[0]
				}
			}
		}
		out[zi] = end + max(0, (next-end)/2)
	}
	return Bands{Top: out[0], Bottom: out[1]}
}

// DetectBands runs a BandDetector over pages.
func DetectBands(pages []*Raster) Bands {
	d := NewBandDetector()
	for _, p := range pages {
		d.Add(p)
	}
	return d.Bands()
}

// runningBlock decides whether rows [y0, y1) of two pages' zones hold the
// same running element: their ink overlaps by at least 60% (intersection
// over union: a header whose page number changed), or both are narrow
// (under an eighth of the page width) and aligned on the left, right or
// centre (a lone page number, whose digits do not overlap).
func runningBlock(a, b []byte, w, y0, y1 int) bool {
	stride := 3 * w
	var inter, union int
	ax0, ax1, bx0, bx1 := w, -1, w, -1
	for y := y0; y < y1; y++ {
		ra, rb := a[y*stride:(y+1)*stride], b[y*stride:(y+1)*stride]
		bga, bgb := luma(ra, 0), luma(rb, 0)
		for x := 0; x < w; x++ {
			ia := abs(luma(ra, 3*x)-bga) > inkDelta
			ib := abs(luma(rb, 3*x)-bgb) > inkDelta
			if ia {
				ax0, ax1 = min(ax0, x), max(ax1, x)
			}
			if ib {
				bx0, bx1 = min(bx0, x), max(bx1, x)
			}
			if ia && ib {
				inter++
			}
			if ia || ib {
				union++
			}
		}
	}
	if union == 0 {
		return false
	}
	if inter*10 >= union*6 {
		return true
	}
	if ax1 < 0 || bx1 < 0 {
		return false
	}
	narrow := ax1-ax0 < w/8 && bx1-bx0 < w/8
	tol := max(2, w/100)
	aligned := abs(ax0-bx0) <= tol || abs(ax1-bx1) <= tol || abs((ax0+ax1)-(bx0+bx1)) <= 2*tol
	return narrow && aligned
}

// luma is an integer Rec. 601 luma (0..255) of the pixel at byte offset i.
func luma(p []byte, i int) int {
	return (299*int(p[i]) + 587*int(p[i+1]) + 114*int(p[i+2])) / 1000
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
