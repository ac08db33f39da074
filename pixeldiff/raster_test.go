package pixeldiff

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"
)

func TestReadPNM(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		w, h    int
		pix     []byte
		wantErr bool
	}{
		{"P6", "P6\n2 1\n255\n\x01\x02\x03\x04\x05\x06", 2, 1, []byte{1, 2, 3, 4, 5, 6}, false},
		{"P6 with comments", "P6 # made by a test\n# another\n1 1 255\n\x07\x08\x09", 1, 1, []byte{7, 8, 9}, false},
		{"P5 expands to RGB", "P5\n3 1\n255\n\x00\x80\xff", 3, 1, []byte{0, 0, 0, 0x80, 0x80, 0x80, 0xff, 0xff, 0xff}, false},
		{"bad magic", "P3\n1 1\n255\n1 2 3", 0, 0, nil, true},
		{"maxval 65535", "P6\n1 1\n65535\n\x00\x00\x00\x00\x00\x00", 0, 0, nil, true},
		{"zero width", "P6\n0 1\n255\n", 0, 0, nil, true},
		{"oversized side", fmt.Sprintf("P6\n%d 1\n255\n", MaxRasterSide+1), 0, 0, nil, true},
		{"oversized area", "P6\n20000 20000\n255\n", 0, 0, nil, true},
		{"huge number", "P6\n99999999999999 1\n255\n", 0, 0, nil, true},
		{"non-digit size", "P6\n1x 1\n255\n", 0, 0, nil, true},
		{"truncated pixels", "P6\n2 2\n255\n\x00\x00\x00", 0, 0, nil, true},
		{"truncated header", "P6\n2", 0, 0, nil, true},
		{"empty", "", 0, 0, nil, true},
		{"long token", "P6\n11111111111111111111 1\n255\n", 0, 0, nil, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r, err := ReadPNM(strings.NewReader(tc.in))
			if tc.wantErr {
				if !errors.Is(err, ErrBadPNM) {
					t.Fatalf("err = %v, want ErrBadPNM", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if r.W != tc.w || r.H != tc.h || !bytes.Equal(r.Pix, tc.pix) {
				t.Errorf("got %dx%d %v, want %dx%d %v", r.W, r.H, r.Pix, tc.w, tc.h, tc.pix)
			}
		})
	}
}

// TestPNMStream: concatenated images (what pdftoppm writes for a
// multi-page PDF) read one after the other from one reader.
func TestPNMStream(t *testing.T) {
	a, b := NewRaster(3, 2), NewRaster(1, 4)
	a.Pix[0], b.Pix[len(b.Pix)-1] = 7, 9
	var buf bytes.Buffer
	for _, r := range []*Raster{a, b} {
		if err := WritePPM(&buf, r); err != nil {
			t.Fatal(err)
		}
	}
	br := bufio.NewReader(&buf)
	for i, want := range []*Raster{a, b} {
		got, err := ReadPNM(br)
		if err != nil || got.W != want.W || got.H != want.H || !bytes.Equal(got.Pix, want.Pix) {
			t.Fatalf("image %d: %v", i, err)
		}
	}
	if _, err := ReadPNM(br); !errors.Is(err, ErrBadPNM) {
		t.Errorf("read past the end: %v", err)
	}
}

// FuzzReadPNM: any input either fails with ErrBadPNM or gives a raster
// whose pixel buffer matches its size and survives a write/read round trip.
func FuzzReadPNM(f *testing.F) {
	for _, s := range []string{"P6\n2 1\n255\n\x01\x02\x03\x04\x05\x06", "P5\n1 1\n255\n\x80", "P6 #c\n1 1 255\n\x00\x00\x00", "P6\n0 0\n255\n", "P5\n9 9\n255\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		r, err := ReadPNM(bytes.NewReader(in))
		if err != nil {
			if !errors.Is(err, ErrBadPNM) {
				t.Fatalf("error not ErrBadPNM: %v", err)
			}
			return
		}
		if r.W <= 0 || r.H <= 0 || len(r.Pix) != 3*r.W*r.H {
			t.Fatalf("inconsistent raster %dx%d with %d bytes", r.W, r.H, len(r.Pix))
		}
		var buf bytes.Buffer
		if err := WritePPM(&buf, r); err != nil {
			t.Fatal(err)
		}
		r2, err := ReadPNM(&buf)
		if err != nil || r2.W != r.W || r2.H != r.H || !bytes.Equal(r2.Pix, r.Pix) {
			t.Fatalf("round trip: %v", err)
		}
	})
}
