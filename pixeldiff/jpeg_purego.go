//go:build !cgo || purego

package pixeldiff

import (
	"fmt"
	"image"
	stdjpeg "image/jpeg"
	"io"
)

// JPEGEncoder names the JPEG encoder this build uses: "libjpeg" (cgo,
// github.com/pixiv/go-libjpeg over libjpeg-turbo) or "image/jpeg" (the
// pure-Go fallback, built with CGO_ENABLED=0 or the purego tag).
const JPEGEncoder = "image/jpeg"

// EncodeJPEG writes img as a baseline JPEG of the given quality (1..100; 0
// means DefaultJPEGQuality). This build encodes with the standard library's
// image/jpeg (no cgo); a *Raster is converted to *image.RGBA first, the
// encoder's fast path.
func EncodeJPEG(w io.Writer, img image.Image, quality int) error {
	if img.Bounds().Empty() {
		return fmt.Errorf("%w: empty image", ErrJPEG)
	}
	var src image.Image = img
	switch img.(type) {
	case *image.RGBA, *image.YCbCr, *image.Gray:
	default:
		src = toRGBA(img)
	}
	if err := stdjpeg.Encode(w, src, &stdjpeg.Options{Quality: jpegQuality(quality)}); err != nil {
		return fmt.Errorf("%w: %v", ErrJPEG, err)
	}
	return nil
}
