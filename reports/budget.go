package reports

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	"image/jpeg"
	"math"
	"sort"

	"image/draw"

	"github.com/editaudit/editaudit/audit"
	"github.com/editaudit/editaudit/formats"
	"github.com/editaudit/editaudit/pixeldiff"
)

type formatsReport = formats.Report

// DefaultModelBytes is the default byte budget of a model message
// (`--format model` of audit and check, and check's HTML): 4 MiB of
// output, text and base64 images together. The binding public limits:
// the Anthropic Messages API refuses requests over 32 MB and a base64
// image over 5 MB; Amazon Bedrock's Converse takes at most 20 images of
// 3.75 MB each per message. An agent sends this message back with the
// whole conversation, round after round, so one audit's output must be a
// small share of one request: at 4 MiB, seven repair rounds with their
// images still fit into 32 MB. Images are at most 1568 px on the long side
// already (pixeldiff.DefaultMaxSide: vision models downscale anything
// larger), so the budget only matters for many pages.
const DefaultModelBytes = 4 << 20

// MinModelBytes is the smallest budget accepted: below it not even one
// readable page image fits beside the text.
const MinModelBytes = 64 << 10

// DefaultCheckPages is how many pages of a new file `check --format
// model|html` attaches at most: Bedrock's 20 images per message.
const DefaultCheckPages = 20

// minImageSide is the smallest long side an image is downscaled to: below
// it a page's text is no longer legible (a before|after composite holds
// two pages side by side), so the image is dropped instead.
const minImageSide = 1000

// ModelOptions bounds a model message.
type ModelOptions struct {
	// MaxBytes is the budget of the whole output in bytes
	// (DefaultModelBytes when 0). Images that do not fit are downscaled,
	// then dropped from the last one; the text says so. The text itself
	// is never cut here (the feedback is bounded on its own).
	MaxBytes int
}

func (o ModelOptions) maxBytes() int {
	if o.MaxBytes <= 0 {
		return DefaultModelBytes
	}
	return o.MaxBytes
}

// budgetImage is one image to attach with the caption before it.
type budgetImage struct {
	name    string // for the note: "page 7"
	caption string
	jpeg    []byte

	// ladder holds the image downscaled step by step (ladder[0] is jpeg),
	// made on first need and kept, so that trying several shares encodes
	// each size once.
	ladder [][]byte
	src    *pixeldiff.Raster
	done   bool
}

// version returns the i-th size of the image (0: as given), or nil when
// that size would be below minImageSide or the image cannot be decoded.
func (im *budgetImage) version(i int) []byte {
	if i == 0 {
		return im.jpeg
	}
	for len(im.ladder) <= i && !im.done {
		if im.ladder == nil {
			im.ladder = [][]byte{im.jpeg}
			src, err := jpeg.Decode(bytes.NewReader(im.jpeg))
			if err != nil {
				im.done = true
				break
			}
			im.src = rasterOf(src)
		}
		b, ok := scaleJPEG(im.src, math.Pow(ladderStep, float64(len(im.ladder))))
		if !ok {
			im.done, im.src = true, nil
			break
		}
		im.ladder = append(im.ladder, b)
	}
	if i < len(im.ladder) {
		return im.ladder[i]
	}
	return nil
}

// ladderStep is the scale between two sizes of an image: each step has
// about 72% of the pixels of the one before.
const ladderStep = 0.85

// scaleJPEG draws src at scale (area filter, pixeldiff.Fit) and encodes
// it at quality 80; false when the long side would be below minImageSide.
func scaleJPEG(src *pixeldiff.Raster, scale float64) ([]byte, bool) {
	side := int(float64(max(src.W, src.H)) * scale)
	if side < minImageSide {
		return nil, false
	}
	var buf bytes.Buffer
	if err := pixeldiff.EncodeJPEG(&buf, pixeldiff.Fit(src, side), 80); err != nil {
		return nil, false
	}
	return buf.Bytes(), true
}

// rasterOf converts a decoded JPEG to a raster (RGB, 8 bits).
func rasterOf(img image.Image) *pixeldiff.Raster {
	b := img.Bounds()
	rgba := image.NewRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
	draw.Draw(rgba, rgba.Bounds(), img, b.Min, draw.Src)
	r := &pixeldiff.Raster{W: b.Dx(), H: b.Dy(), Pix: make([]byte, 3*b.Dx()*b.Dy())}
	for i, j := 0, 0; i < len(rgba.Pix); i, j = i+4, j+3 {
		r.Pix[j], r.Pix[j+1], r.Pix[j+2] = rgba.Pix[i], rgba.Pix[i+1], rgba.Pix[i+2]
	}
	return r
}

// blockBytes is the size of a block in the output: its JSON and a comma.
func blockBytes(b contentBlock) int {
	j, err := json.Marshal(b)
	if err != nil {
		return 0
	}
	return len(j) + 1
}

// fitImages chooses and shrinks imgs so that, with the text blocks fixed
// (their JSON size), the output stays within maxBytes; noteReserve is
// kept free for the note that says what was cut. It returns the images to
// attach, in order, and the account of what it did (Offered, Attached,
// Downscaled, Dropped, MaxBytes).
func fitImages(fixed, maxBytes int, given []budgetImage) ([]budgetImage, audit.ImageBudget) {
	imgs := make([]*budgetImage, len(given))
	for i := range given {
		im := given[i]
		imgs[i] = &im
	}
	const noteReserve = 600
	acct := audit.ImageBudget{MaxBytes: maxBytes, Offered: len(imgs)}
	// Try to attach the first k images, from all of them down to none.
	for k := len(imgs); k >= 0; k-- {
		avail := maxBytes - fixed - noteReserve
		overhead := make([]int, k)
		for i := range k {
			overhead[i] = blockBytes(textBlock(imgs[i].caption)) + blockBytes(jpegBlock(nil))
			avail -= overhead[i]
		}
		if avail < 0 {
			continue
		}
		out, down, ok := shareOut(imgs[:k], avail)
		if !ok {
			continue
		}
		acct.Attached, acct.Downscaled = k, down
		for _, im := range imgs[k:] {
			acct.Dropped = append(acct.Dropped, im.name)
		}
		return out, acct
	}
	return nil, acct
}

// shareOut fits imgs into avail bytes of base64: the images smaller than
// an equal share keep their bytes, the others share the rest equally and
// each takes its largest size that fits. false when one cannot be made to
// fit.
func shareOut(imgs []*budgetImage, avail int) ([]budgetImage, int, bool) {
	out := make([]budgetImage, len(imgs))
	idx := make([]int, len(imgs))
	for i, im := range imgs {
		idx[i] = i
		out[i] = budgetImage{name: im.name, caption: im.caption, jpeg: im.jpeg}
	}
	sort.SliceStable(idx, func(a, b int) bool { return len(imgs[idx[a]].jpeg) < len(imgs[idx[b]].jpeg) })
	remaining := avail
	var big []int
	for n, i := range idx {
		share := remaining / (len(idx) - n)
		if b64Len(len(imgs[i].jpeg)) <= share && len(big) == 0 {
			remaining -= b64Len(len(imgs[i].jpeg))
			continue
		}
		big = append(big, i)
	}
	down := 0
	for _, i := range big {
		share := remaining / len(big)
		var fit []byte
		for v := 1; ; v++ {
			b := imgs[i].version(v)
			if b == nil {
				return nil, 0, false
			}
			if b64Len(len(b)) <= share {
				fit = b
				break
			}
		}
		out[i].jpeg = fit
		down++
	}
	return out, down, true
}

// b64Len is the base64 length of n bytes.
func b64Len(n int) int { return (n + 2) / 3 * 4 }

// envelopeBytes is the JSON around the blocks: {"content":[…]} and the
// newline.
const envelopeBytes = len(`{"content":[]}`) + 1

// fitShown fits the shown pages of an audit into the budget: the images
// to attach (JPEG possibly downscaled) and the note on what was cut ("" when
// nothing was).
func fitShown(r *audit.Result, text []contentBlock, opts ModelOptions) ([]audit.ShownPage, []string, string, error) {
	fixed := envelopeBytes
	for _, b := range text {
		fixed += blockBytes(b)
	}
	imgs := make([]budgetImage, len(r.Pages.Shown))
	for i, s := range r.Pages.Shown {
		if len(s.JPEG) == 0 {
			return nil, nil, "", fmt.Errorf("reports: shown page %s has no JPEG bytes (image %q not loaded; see LoadImages)", shownName(s), s.Image)
		}
		name := "page " + shownName(s)
		imgs[i] = budgetImage{name: name, caption: audit.ShownCaption(r, s), jpeg: s.JPEG}
	}
	kept, acct := fitImages(fixed, opts.maxBytes(), imgs)
	out := make([]audit.ShownPage, len(kept))
	captions := make([]string, len(kept))
	for i, im := range kept {
		out[i] = r.Pages.Shown[i]
		out[i].JPEG = im.jpeg
		captions[i] = im.caption
	}
	return out, captions, audit.ImageBudgetNote(acct), nil
}

// FitCheckPages fits the pages of a check into the budget of opts, as
// `check --format model|html` attach them: the pages to attach (JPEG
// possibly downscaled, the last ones dropped first) and the note saying
// what the page cap (pageCap, 0: none) and the byte budget cut, "" when
// nothing was. pages is not changed.
func FitCheckPages(rep *formatsReport, pages []CheckPage, pageCap int, opts ModelOptions) ([]CheckPage, string, error) {
	return fitPages(blockBytes(textBlock(checkFeedback(rep, pages))), pages, pageCap, opts)
}

// fitPages is FitCheckPages after a text block of textBytes.
func fitPages(textBytes int, pages []CheckPage, pageCap int, opts ModelOptions) ([]CheckPage, string, error) {
	imgs := make([]budgetImage, len(pages))
	for i, p := range pages {
		if len(p.JPEG) == 0 {
			return nil, "", fmt.Errorf("reports: page %d has no JPEG bytes", p.Page)
		}
		imgs[i] = budgetImage{name: fmt.Sprintf("page %d", p.Page), caption: audit.CheckPageCaption(p.Page, p.Total), jpeg: p.JPEG}
	}
	kept, acct := fitImages(envelopeBytes+textBytes, opts.maxBytes(), imgs)
	acct.PageCap = pageCap
	if len(pages) > 0 && pageCap > 0 && len(pages) >= pageCap && pages[0].Total > len(pages) {
		acct.Uncapped = pages[0].Total - len(pages)
	}
	out := make([]CheckPage, len(kept))
	for i, im := range kept {
		out[i] = pages[i]
		out[i].JPEG = im.jpeg
	}
	return out, audit.ImageBudgetNote(acct), nil
}
