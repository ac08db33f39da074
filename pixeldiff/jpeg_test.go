package pixeldiff

import (
	"bytes"
	"image"
	stdjpeg "image/jpeg"
	"math"
	"testing"
)

func TestEncodeJPEG(t *testing.T) {
	page := synthPage(a4W, a4H, 1, 2)
	rgba := page.RGBA()
	gray := image.NewGray(image.Rect(0, 0, 64, 48))
	for i := range gray.Pix {
		gray.Pix[i] = byte(i)
	}
	for _, tc := range []struct {
		name string
		img  image.Image
	}{
		{"raster", page},
		{"rgba", rgba},
		{"gray", gray},
		{"sub-image", rgba.SubImage(image.Rect(100, 100, 300, 250))},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := EncodeJPEG(&buf, tc.img, 0); err != nil {
				t.Fatal(err)
			}
			dec, err := stdjpeg.Decode(&buf)
			if err != nil {
				t.Fatalf("%s output does not decode: %v", JPEGEncoder, err)
			}
			if dec.Bounds().Dx() != tc.img.Bounds().Dx() || dec.Bounds().Dy() != tc.img.Bounds().Dy() {
				t.Fatalf("size %v, want %v", dec.Bounds(), tc.img.Bounds())
			}
			// The decoded picture is close to the source (mean absolute
			// error on grey levels).
			b := tc.img.Bounds()
			var sum float64
			for y := 0; y < b.Dy(); y++ {
				for x := 0; x < b.Dx(); x++ {
					r1, g1, b1, _ := tc.img.At(b.Min.X+x, b.Min.Y+y).RGBA()
					r2, g2, b2, _ := dec.At(x, y).RGBA()
					sum += math.Abs(float64(r1+g1+b1)-float64(r2+g2+b2)) / 3 / 257
				}
			}
			if mae := sum / float64(b.Dx()*b.Dy()); mae > 6 {
				t.Errorf("%s: mean error %.2f grey levels", JPEGEncoder, mae)
			}
		})
	}
	if err := EncodeJPEG(&bytes.Buffer{}, &Raster{}, 80); err == nil {
		t.Error("empty raster encoded")
	}
}

func TestJPEGQuality(t *testing.T) {
	for in, want := range map[int]int{0: DefaultJPEGQuality, -3: DefaultJPEGQuality, 50: 50, 100: 100, 150: 100} {
		if got := jpegQuality(in); got != want {
			t.Errorf("jpegQuality(%d) = %d, want %d", in, got, want)
		}
	}
}

// BenchmarkEncodeJPEG encodes a composite-sized page image (1568 px long
// side) with this build's encoder (JPEGEncoder) and, for comparison, with
// the standard library's image/jpeg.
func BenchmarkEncodeJPEG(b *testing.B) {
	a := synthPage(a4W, a4H, 1, 2)
	c := clone(a)
	fillRect(c, 300, 600, 360, 640, 0xff)
	img := Composite(a, c, nil, [][4]int{{300, 600, 360, 640}}, CompositeOptions{})
	b.Run("encoder="+JPEGEncoder, func(b *testing.B) {
		b.SetBytes(int64(len(img.Pix)))
		var buf bytes.Buffer
		loopCPU(b, func() {
			buf.Reset()
			if err := EncodeJPEG(&buf, img, DefaultJPEGQuality); err != nil {
				b.Fatal(err)
			}
		})
		b.ReportMetric(float64(buf.Len()), "bytes/image")
	})
	b.Run("encoder=image/jpeg-direct", func(b *testing.B) {
		b.SetBytes(int64(len(img.Pix)))
		var buf bytes.Buffer
		loopCPU(b, func() {
			buf.Reset()
			// The conversion to RGBA is part of the cost for a Raster.
			if err := stdjpeg.Encode(&buf, img.RGBA(), &stdjpeg.Options{Quality: DefaultJPEGQuality}); err != nil {
				b.Fatal(err)
			}
		})
		b.ReportMetric(float64(buf.Len()), "bytes/image")
	})
}
