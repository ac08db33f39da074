package pixeldiff

import (
	"bufio"
	"errors"
	"fmt"
	"image"
	"image/color"
	"io"
)

// Raster is one rendered page: 8-bit RGB pixels, row-major, 3 bytes per
// pixel, no padding (stride 3*W). It is the unit every comparison works on;
// it is never PNG-encoded to be compared.
type Raster struct {
	W, H int
	Pix  []byte
}

// NewRaster returns a white raster of w×h pixels.
func NewRaster(w, h int) *Raster {
	r := &Raster{W: w, H: h, Pix: make([]byte, 3*w*h)}
	for i := range r.Pix {
		r.Pix[i] = 0xff
	}
	return r
}

// Stride is the number of bytes per row.
func (r *Raster) Stride() int { return 3 * r.W }

// ColorModel implements image.Image.
func (r *Raster) ColorModel() color.Model { return color.RGBAModel }

// Bounds implements image.Image.
func (r *Raster) Bounds() image.Rectangle { return image.Rect(0, 0, r.W, r.H) }

// At implements image.Image (slow path; comparisons use Pix directly).
func (r *Raster) At(x, y int) color.Color {
	if x < 0 || y < 0 || x >= r.W || y >= r.H {
		return color.RGBA{}
	}
	i := 3 * (y*r.W + x)
	return color.RGBA{r.Pix[i], r.Pix[i+1], r.Pix[i+2], 0xff}
}

// RGBA converts the raster to an *image.RGBA (for encoders).
func (r *Raster) RGBA() *image.RGBA {
	out := image.NewRGBA(image.Rect(0, 0, r.W, r.H))
	for i, j := 0, 0; i < len(r.Pix); i, j = i+3, j+4 {
		out.Pix[j], out.Pix[j+1], out.Pix[j+2], out.Pix[j+3] = r.Pix[i], r.Pix[i+1], r.Pix[i+2], 0xff
	}
	return out
}

// Limits on rasters read from files or from a rasterizer: a page larger than
// this is refused rather than allocated.
const (
	MaxRasterSide   = 20000
	MaxRasterPixels = 60_000_000
)

// ErrBadPNM is returned for a malformed PPM/PGM stream.
var ErrBadPNM = errors.New("pixeldiff: malformed PPM/PGM")

// ReadPNM reads one binary PPM (P6) or PGM (P5) image with maxval 255; a
// grey image is expanded to RGB. Sizes beyond MaxRasterSide/MaxRasterPixels
// are refused before allocation.
func ReadPNM(rd io.Reader) (*Raster, error) {
	br, ok := rd.(*bufio.Reader)
	if !ok {
		br = bufio.NewReader(rd)
	}
	magic, err := pnmToken(br)
	if err != nil {
		return nil, err
	}
	if magic != "P6" && magic != "P5" {
		return nil, fmt.Errorf("%w: magic %q", ErrBadPNM, magic)
	}
	var v [3]int
	for i := range v {
		t, err := pnmToken(br)
		if err != nil {
			return nil, err
		}
		n := 0
		for _, c := range t {
			if c < '0' || c > '9' || n > 1e8 {
				return nil, fmt.Errorf("%w: bad number %q", ErrBadPNM, t)
			}
			n = n*10 + int(c-'0')
		}
		v[i] = n
	}
	w, h, maxv := v[0], v[1], v[2]
	if w <= 0 || h <= 0 || w > MaxRasterSide || h > MaxRasterSide || w*h > MaxRasterPixels {
		return nil, fmt.Errorf("%w: size %dx%d out of limits", ErrBadPNM, w, h)
	}
	if maxv != 255 {
		return nil, fmt.Errorf("%w: maxval %d (only 255 is supported)", ErrBadPNM, maxv)
	}
	r := &Raster{W: w, H: h, Pix: make([]byte, 3*w*h)}
	if magic == "P6" {
		if _, err := io.ReadFull(br, r.Pix); err != nil {
			return nil, fmt.Errorf("%w: short pixel data: %v", ErrBadPNM, err)
		}
		return r, nil
	}
	grey := r.Pix[2*w*h:] // read grey into the tail, expand forwards in place
	if _, err := io.ReadFull(br, grey); err != nil {
		return nil, fmt.Errorf("%w: short pixel data: %v", ErrBadPNM, err)
	}
	for i := 0; i < w*h; i++ {
		g := grey[i]
		r.Pix[3*i], r.Pix[3*i+1], r.Pix[3*i+2] = g, g, g
	}
	return r, nil
}

// pnmToken reads one whitespace-delimited header token, skipping comments,
// and consumes exactly one whitespace byte after it.
func pnmToken(br *bufio.Reader) (string, error) {
	var tok []byte
	for {
		c, err := br.ReadByte()
		if err != nil {
			if len(tok) > 0 && err == io.EOF {
				return string(tok), nil
			}
			return "", fmt.Errorf("%w: header: %v", ErrBadPNM, err)
		}
		switch {
		case c == '#' && len(tok) == 0:
			if _, err := br.ReadString('\n'); err != nil {
				return "", fmt.Errorf("%w: header comment: %v", ErrBadPNM, err)
			}
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			if len(tok) > 0 {
				return string(tok), nil
			}
		default:
			if len(tok) >= 16 {
				return "", fmt.Errorf("%w: header token too long", ErrBadPNM)
			}
			tok = append(tok, c)
		}
	}
}

// WritePPM writes r as a binary PPM (P6).
func WritePPM(w io.Writer, r *Raster) error {
	if _, err := fmt.Fprintf(w, "P6\n%d %d\n255\n", r.W, r.H); err != nil {
		return err
	}
	_, err := w.Write(r.Pix)
	return err
}
