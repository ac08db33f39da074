//go:build cgo && !purego

package pixeldiff

import (
	"fmt"
	"image"
	"io"

	"github.com/pixiv/go-libjpeg/jpeg"
	"github.com/pixiv/go-libjpeg/rgb"
)

// JPEGEncoder names the JPEG encoder this build uses: "libjpeg" (cgo,
// github.com/pixiv/go-libjpeg over libjpeg-turbo) or "image/jpeg" (the
// pure-Go fallback, built with CGO_ENABLED=0 or the purego tag).
const JPEGEncoder = "libjpeg"

// EncodeJPEG writes img as a baseline JPEG of the given quality (1..100; 0
// means DefaultJPEGQuality). This build encodes with libjpeg-turbo through
// go-libjpeg, with optimized Huffman tables; a *Raster is handed to the
// encoder without copying (its layout is go-libjpeg's rgb.Image).
func EncodeJPEG(w io.Writer, img image.Image, quality int) error {
	opt := &jpeg.EncoderOptions{Quality: jpegQuality(quality), OptimizeCoding: true, DCTMethod: jpeg.DCTISlow}
	var src image.Image
	switch m := img.(type) {
	case *Raster:
		if m.W == 0 || m.H == 0 {
			return fmt.Errorf("%w: empty image", ErrJPEG)
		}
		src = &rgb.Image{Pix: m.Pix, Stride: m.Stride(), Rect: image.Rect(0, 0, m.W, m.H)}
	case *image.Gray, *image.YCbCr:
		src = m
	default:
		src = toRGBA(img)
	}
	if b := src.Bounds(); b.Empty() {
		return fmt.Errorf("%w: empty image", ErrJPEG)
	}
	if err := jpeg.Encode(w, src, opt); err != nil {
		return fmt.Errorf("%w: %v", ErrJPEG, err)
	}
	return nil
}
