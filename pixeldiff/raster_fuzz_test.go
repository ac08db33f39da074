package pixeldiff

import (
	"bufio"
	"bytes"
	"errors"
	"testing"
)

// refPNM is an independent reading of the PNM header grammar ReadPNM
// accepts (netpbm's P5/P6 with maxval 255): whitespace is space, tab, CR,
// LF; a '#' at a token's start runs to the end of the line; a token is at
// most 16 bytes; exactly one whitespace byte follows the last header token.
// It returns the image's pixels as RGB and the bytes consumed, or ok false.
func refPNM(b []byte) (w, h int, rgb []byte, used int, ok bool) {
	i := 0
	token := func() (string, bool) {
		var tok []byte
		for {
			if i >= len(b) {
				return string(tok), len(tok) > 0
			}
			c := b[i]
			i++
			switch {
			case c == '#' && len(tok) == 0:
				j := bytes.IndexByte(b[i:], '\n')
				if j < 0 {
					return "", false
				}
				i += j + 1
			case c == ' ' || c == '\t' || c == '\n' || c == '\r':
				if len(tok) > 0 {
					return string(tok), true
				}
			default:
				if len(tok) >= 16 {
					return "", false
				}
				tok = append(tok, c)
			}
		}
	}
	magic, ok := token()
	if !ok || (magic != "P5" && magic != "P6") {
		return 0, 0, nil, 0, false
	}
	var v [3]int
	for k := range v {
		t, ok := token()
		if !ok {
			return 0, 0, nil, 0, false
		}
		for _, c := range []byte(t) {
			if c < '0' || c > '9' {
				return 0, 0, nil, 0, false
			}
			v[k] = v[k]*10 + int(c-'0')
			if v[k] > 1<<40 {
				return 0, 0, nil, 0, false
			}
		}
	}
	w, h = v[0], v[1]
	if w <= 0 || h <= 0 || w > MaxRasterSide || h > MaxRasterSide || w*h > MaxRasterPixels || v[2] != 255 {
		return 0, 0, nil, 0, false
	}
	n := w * h
	if magic == "P6" {
		n *= 3
	}
	if len(b)-i < n {
		return w, h, nil, 0, false
	}
	data := b[i : i+n]
	if magic == "P6" {
		return w, h, bytes.Clone(data), i + n, true
	}
	rgb = make([]byte, 0, 3*n)
	for _, g := range data {
		rgb = append(rgb, g, g, g)
	}
	return w, h, rgb, i + n, true
}

// FuzzReadPNMStream: a stream of PPM/PGM images (pdftoppm writes one per
// page) is read image after image from one bufio.Reader; each read agrees
// with the independent reference on acceptance, size and pixels (grey
// expanded to RGB), and leaves the reader exactly at the next image.
func FuzzReadPNMStream(f *testing.F) {
	for _, s := range []string{
		"P6\n2 1\n255\n\x01\x02\x03\x04\x05\x06P5\n1 2\n255\n\x80\x81",
		"P5 #c\n3 1 255\n\x00\x7f\xffP6\t1\r1\n255 \x00\x00\x00",
		"P6\n1 1\n255\n\x00\x00", "P5\n1 1\n256\n\x00", "P7\n1 1\n255\n\x00",
		"P6\n20001 1\n255\n", "P6\n00000000000000001 1\n255\n\x00\x00\x00", "#x\nP5 1 1 255\n\x00",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		br := bufio.NewReaderSize(bytes.NewReader(data), 16)
		rest := data
		for img := 0; img < 8; img++ {
			w, h, want, used, ok := refPNM(rest)
			if w*h > 1<<20 && !ok {
				// ReadPNM allocates the declared size before reading the
				// pixels (up to MaxRasterPixels); do not spend the
				// fuzzer's memory on truncated giants.
				return
			}
			r, err := ReadPNM(br)
			if err != nil {
				if !errors.Is(err, ErrBadPNM) {
					t.Fatalf("image %d: error %v is not ErrBadPNM", img, err)
				}
				if ok {
					t.Fatalf("image %d: ReadPNM refused a valid %dx%d image: %v", img, w, h, err)
				}
				return
			}
			if !ok {
				t.Fatalf("image %d: ReadPNM accepted %dx%d that the reference refuses", img, r.W, r.H)
			}
			if r.W != w || r.H != h || !bytes.Equal(r.Pix, want) {
				t.Fatalf("image %d: got %dx%d, want %dx%d (pixels equal: %v)", img, r.W, r.H, w, h, bytes.Equal(r.Pix, want))
			}
			rest = rest[used:]
		}
	})
}
