package synth

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"math"
	"sort"
	"strings"
)

// picture is a resolved image: its bytes, pixel size and file extension
// ("png" or "jpeg").
type picture struct {
	data []byte
	w, h int
	ext  string
}

// contentType is the MIME type of the picture's part.
func (p picture) contentType() string {
	if p.ext == "jpeg" {
		return ctJPEG
	}
	return ctPNG
}

// size returns the displayed size in EMU (914400 per inch, 12700 per
// point): the spec's points, or the pixel size at 96 dpi, keeping the aspect
// ratio when only one side is given.
func (p picture) size(im *Image) (cx, cy int64) {
	w, h := im.Width, im.Height
	switch {
	case w == 0 && h == 0:
		w, h = float64(p.w)*0.75, float64(p.h)*0.75
	case h == 0:
		h = w * float64(p.h) / float64(p.w)
	case w == 0:
		w = h * float64(p.w) / float64(p.h)
	}
	return int64(math.Round(w * 12700)), int64(math.Round(h * 12700))
}

// builtinPainters are the images the project ships, drawn in code so that
// specs never name a path or URL. Each is deterministic: the same bytes on
// every run (image/png's encoder is deterministic for a given Go release).
func builtinPainters() map[string]func() image.Image {
	return map[string]func() image.Image{
		"logo":      paintLogo,
		"stamp":     paintStamp,
		"photo":     paintPhoto,
		"signature": paintSignature,
		"chart":     paintChart,
	}
}

// BuiltinImages lists the names usable as "src":"builtin:NAME".
func BuiltinImages() []string {
	var names []string
	for n := range builtinPainters() {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// imageCache resolves the images of one synthesis: builtin images are
// painted once, artifact handles read through Artifacts (which keeps them).
type imageCache struct {
	painted map[string]picture
	art     *Artifacts
}

func newImageCache(art *Artifacts) imageCache {
	return imageCache{painted: map[string]picture{}, art: art}
}

// load resolves an Image (validated before: its form is allowed).
func (c imageCache) load(im *Image) (picture, error) {
	switch {
	case im.Data != "":
		return loadData(im.Data)
	case strings.HasPrefix(im.Src, "artifact:"):
		if c.art == nil {
			return picture{}, fmt.Errorf("%s: no artifacts folder", im.Src)
		}
		return c.art.load(strings.TrimPrefix(im.Src, "artifact:"))
	}
	if p, ok := c.painted[im.Src]; ok {
		return p, nil
	}
	p, err := paintBuiltin(im.Src)
	if err == nil {
		c.painted[im.Src] = p
	}
	return p, err
}

// checkBuiltin reports an error for a src that names no builtin image.
func checkBuiltin(src string) error {
	name, ok := strings.CutPrefix(src, "builtin:")
	if !ok || builtinPainters()[name] == nil {
		return fmt.Errorf("src %q names no builtin image (%s)", src, "builtin:"+strings.Join(BuiltinImages(), ", builtin:"))
	}
	return nil
}

// paintBuiltin paints a builtin image as PNG.
func paintBuiltin(src string) (picture, error) {
	if err := checkBuiltin(src); err != nil {
		return picture{}, err
	}
	name := strings.TrimPrefix(src, "builtin:")
	var b bytes.Buffer
	if err := png.Encode(&b, builtinPainters()[name]()); err != nil {
		return picture{}, fmt.Errorf("builtin image %s: %w", name, err)
	}
	return checkPicture(b.Bytes())
}

// loadData decodes inline base64 image data.
func loadData(s string) (picture, error) {
	if len(s) > base64.StdEncoding.EncodedLen(MaxImageBytes) {
		return picture{}, fmt.Errorf("image data exceeds the cap of %d bytes", MaxImageBytes)
	}
	data, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		return picture{}, fmt.Errorf("image data is not base64: %v", err)
	}
	return checkPicture(data)
}

// checkPicture checks image bytes: PNG or JPEG (by their signatures, not a
// name), readable, within the size caps.
func checkPicture(data []byte) (picture, error) {
	if len(data) > MaxImageBytes {
		return picture{}, fmt.Errorf("an image of %d bytes exceeds the cap of %d", len(data), MaxImageBytes)
	}
	var cfg image.Config
	var err error
	ext := ""
	switch {
	case bytes.HasPrefix(data, []byte("\x89PNG\r\n\x1a\n")):
		ext = "png"
		cfg, err = png.DecodeConfig(bytes.NewReader(data))
	case bytes.HasPrefix(data, []byte{0xFF, 0xD8, 0xFF}):
		ext = "jpeg"
		cfg, err = jpeg.DecodeConfig(bytes.NewReader(data))
	default:
		return picture{}, fmt.Errorf("the image is neither a PNG nor a JPEG")
	}
	if err != nil {
		return picture{}, fmt.Errorf("the image is not a readable %s: %v", strings.ToUpper(ext), err)
	}
	if cfg.Width < 1 || cfg.Height < 1 || cfg.Width > MaxImagePixels || cfg.Height > MaxImagePixels {
		return picture{}, fmt.Errorf("an image of %d×%d pixels is outside 1–%d per side", cfg.Width, cfg.Height, MaxImagePixels)
	}
	return picture{data: data, w: cfg.Width, h: cfg.Height, ext: ext}, nil
}

func fill(img *image.NRGBA, c color.NRGBA) {
	for i := 0; i < len(img.Pix); i += 4 {
		img.Pix[i], img.Pix[i+1], img.Pix[i+2], img.Pix[i+3] = c.R, c.G, c.B, c.A
	}
}

// paintLogo: a navy plate with three rising bars and an orange dot.
func paintLogo() image.Image {
	img := image.NewNRGBA(image.Rect(0, 0, 240, 72))
	fill(img, color.NRGBA{0x1F, 0x3A, 0x5F, 0xFF})
	for i, h := range []int{20, 34, 48} {
		x0 := 16 + i*18
		for y := 60 - h; y < 60; y++ {
			for x := x0; x < x0+12; x++ {
				img.SetNRGBA(x, y, color.NRGBA{0xFF, 0xFF, 0xFF, 0xFF})
			}
		}
	}
	for y := 0; y < 72; y++ {
		for x := 0; x < 240; x++ {
			dx, dy := float64(x-200), float64(y-36)
			if dx*dx+dy*dy <= 20*20 {
				img.SetNRGBA(x, y, color.NRGBA{0xF2, 0x8C, 0x28, 0xFF})
			}
		}
	}
	// A wordmark stand-in: horizontal strokes of varying length.
	for i, w := range []int{96, 70, 84} {
		y0 := 18 + i*14
		for y := y0; y < y0+6; y++ {
			for x := 82; x < 82+w; x++ {
				img.SetNRGBA(x, y, color.NRGBA{0xD6, 0xE4, 0xF0, 0xFF})
			}
		}
	}
	return img
}

// paintStamp: a red seal ring with a cross, on transparency.
func paintStamp() image.Image {
	img := image.NewNRGBA(image.Rect(0, 0, 120, 120))
	red := color.NRGBA{0xC0, 0x1C, 0x28, 0xFF}
	for y := 0; y < 120; y++ {
		for x := 0; x < 120; x++ {
			dx, dy := float64(x)-59.5, float64(y)-59.5
			d := math.Sqrt(dx*dx + dy*dy)
			if (d > 50 && d < 57) || (d < 40 && (math.Abs(dx) < 4 || math.Abs(dy) < 4)) {
				img.SetNRGBA(x, y, red)
			}
		}
	}
	return img
}

// paintPhoto: a landscape — sky gradient, sun, two hill ranges.
func paintPhoto() image.Image {
	const w, h = 320, 200
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			t := float64(y) / h
			c := color.NRGBA{uint8(90 + 100*t), uint8(150 + 70*t), 235, 0xFF}
			dx, dy := float64(x-250), float64(y-50)
			if dx*dx+dy*dy < 22*22 {
				c = color.NRGBA{0xFF, 0xD8, 0x4A, 0xFF}
			}
			if float64(y) > 120+18*math.Sin(float64(x)/40) {
				c = color.NRGBA{0x4E, 0x8F, 0x3A, 0xFF}
			}
			if float64(y) > 150+12*math.Sin(float64(x)/25+1) {
				c = color.NRGBA{0x2F, 0x6B, 0x2A, 0xFF}
			}
			img.SetNRGBA(x, y, c)
		}
	}
	return img
}

// paintSignature: a blue pen stroke on transparency.
func paintSignature() image.Image {
	img := image.NewNRGBA(image.Rect(0, 0, 240, 60))
	ink := color.NRGBA{0x1A, 0x2B, 0x80, 0xFF}
	for i := 0; i < 2000; i++ {
		t := float64(i) / 2000
		x := 10 + 220*t
		y := 30 + 16*math.Sin(t*18)*math.Cos(t*5)
		for d := -1; d <= 1; d++ {
			img.SetNRGBA(int(x), int(y)+d, ink)
		}
	}
	return img
}

// paintChart: a small bar chart picture (grid, axes, four bars).
func paintChart() image.Image {
	const w, h = 300, 180
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	fill(img, color.NRGBA{0xFF, 0xFF, 0xFF, 0xFF})
	grey := color.NRGBA{0xD0, 0xD0, 0xD0, 0xFF}
	for y := 20; y < 160; y += 28 {
		for x := 30; x < 290; x++ {
			img.SetNRGBA(x, y, grey)
		}
	}
	for y := 10; y <= 160; y++ {
		img.SetNRGBA(30, y, color.NRGBA{0x40, 0x40, 0x40, 0xFF})
	}
	colors := []color.NRGBA{{0x44, 0x72, 0xC4, 0xFF}, {0xED, 0x7D, 0x31, 0xFF}, {0xA5, 0xA5, 0xA5, 0xFF}, {0x70, 0xAD, 0x47, 0xFF}}
	for i, v := range []int{60, 110, 85, 130} {
		x0 := 50 + i*60
		for y := 160 - v; y < 160; y++ {
			for x := x0; x < x0+36; x++ {
				img.SetNRGBA(x, y, colors[i])
			}
		}
	}
	return img
}
