package pixeldiff

import (
	"errors"
	"image"
)

// DefaultJPEGQuality is the JPEG quality for page images: high enough that
// 9-point text stays readable after the downscale to 1568 px.
const DefaultJPEGQuality = 85

// ErrJPEG wraps failures of the JPEG encoder.
var ErrJPEG = errors.New("pixeldiff: JPEG encoding failed")

// jpegQuality clamps a quality to 1..100, 0 meaning DefaultJPEGQuality.
func jpegQuality(q int) int {
	switch {
	case q <= 0:
		return DefaultJPEGQuality
	case q > 100:
		return 100
	}
	return q
}

// toRGBA returns img as an *image.RGBA, converting when needed (a Raster
// converts with a straight copy).
func toRGBA(img image.Image) *image.RGBA {
	switch m := img.(type) {
	case *image.RGBA:
		return m
	case *Raster:
		return m.RGBA()
	}
	b := img.Bounds()
	out := image.NewRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			out.Set(x-b.Min.X, y-b.Min.Y, img.At(x, y))
		}
	}
	return out
}
