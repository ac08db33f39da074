package pixeldiff

// Packed is a Raster with its rows of one colour (margins, the space
// between text lines: most of a document page) kept as that colour: an A4
// text page at 100 dpi (2.9 MB) packs to its inked rows, typically a third
// to a half of it. Unpack gives back the same bytes.
type Packed struct {
	W, H int
	// colour[y] is row y's colour when it is of one colour; ink holds the
	// other rows, in order.
	colour  [][3]byte
	uniform []bool
	ink     []byte
}

// Pack packs r.
func Pack(r *Raster) *Packed {
	p := &Packed{W: r.W, H: r.H, colour: make([][3]byte, r.H), uniform: make([]bool, r.H)}
	stride := r.Stride()
	if stride == 0 {
		return p
	}
	var ink int
	for y := 0; y < r.H; y++ {
		row := r.Pix[y*stride : (y+1)*stride]
		if oneColour(row) {
			p.uniform[y], p.colour[y] = true, [3]byte{row[0], row[1], row[2]}
		} else {
			ink++
		}
	}
	p.ink = make([]byte, 0, ink*stride)
	for y := 0; y < r.H; y++ {
		if !p.uniform[y] {
			p.ink = append(p.ink, r.Pix[y*stride:(y+1)*stride]...)
		}
	}
	return p
}

// Size is the memory the packed raster holds, in bytes (roughly).
func (p *Packed) Size() int { return len(p.ink) + 4*p.H + 64 }

// Unpack returns a new Raster with the packed pixels.
func (p *Packed) Unpack() *Raster {
	r := &Raster{W: p.W, H: p.H, Pix: make([]byte, 3*p.W*p.H)} // every row is written
	stride := r.Stride()
	if stride == 0 {
		return r
	}
	var last [3]byte
	var lastRow []byte // a row of colour last, once drawn
	ink := p.ink
	for y := 0; y < p.H; y++ {
		row := r.Pix[y*stride : (y+1)*stride]
		if !p.uniform[y] {
			copy(row, ink[:stride])
			ink = ink[stride:]
			continue
		}
		c := p.colour[y]
		if lastRow != nil && c == last {
			copy(row, lastRow)
			continue
		}
		for i := 0; i < len(row); i += 3 {
			row[i], row[i+1], row[i+2] = c[0], c[1], c[2]
		}
		last, lastRow = c, row
	}
	return r
}
