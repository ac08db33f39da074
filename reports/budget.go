package reports

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	"image/jpeg"
	"math"
	"sort"

	"golang.org/x/image/draw"

	"github.com/editaudit/editaudit/audit"
	"github.com/editaudit/editaudit/formats"
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
// it a page's text is no longer legible, so the image is dropped instead.
const minImageSide = 640

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
func fitImages(fixed, maxBytes int, imgs []budgetImage) ([]budgetImage, audit.ImageBudget) {
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
// are downscaled into it. false when one cannot be made to fit.
func shareOut(imgs []budgetImage, avail int) ([]budgetImage, int, bool) {
	out := append([]budgetImage(nil), imgs...)
	idx := make([]int, len(imgs))
	for i := range idx {
		idx[i] = i
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
		b, ok := shrinkJPEG(imgs[i].jpeg, share)
		if !ok {
			return nil, 0, false
		}
		out[i].jpeg = b
		down++
	}
	return out, down, true
}

// b64Len is the base64 length of n bytes.
func b64Len(n int) int { return (n + 2) / 3 * 4 }

// shrinkJPEG downscales a JPEG until its base64 fits in limit bytes, down
// to a long side of minImageSide; false when it cannot.
func shrinkJPEG(b []byte, limit int) ([]byte, bool) {
	if b64Len(len(b)) <= limit {
		return b, true
	}
	src, err := jpeg.Decode(bytes.NewReader(b))
	if err != nil {
		return nil, false
	}
	w, h := src.Bounds().Dx(), src.Bounds().Dy()
	// JPEG size grows about with the pixel count: start at the scale that
	// should fit, then step down.
	scale := math.Sqrt(float64(limit)/float64(b64Len(len(b)))) * 0.95
	for range 6 {
		nw, nh := int(float64(w)*scale), int(float64(h)*scale)
		if max(nw, nh) < minImageSide {
			return nil, false
		}
		dst := image.NewRGBA(image.Rect(0, 0, nw, nh))
		draw.CatmullRom.Scale(dst, dst.Bounds(), src, src.Bounds(), draw.Src, nil)
		var buf bytes.Buffer
		if err := jpeg.Encode(&buf, dst, &jpeg.Options{Quality: 80}); err != nil {
			return nil, false
		}
		if b64Len(buf.Len()) <= limit {
			return buf.Bytes(), true
		}
		scale *= 0.85
	}
	return nil, false
}

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
	imgs := make([]budgetImage, len(pages))
	for i, p := range pages {
		if len(p.JPEG) == 0 {
			return nil, "", fmt.Errorf("reports: page %d has no JPEG bytes", p.Page)
		}
		imgs[i] = budgetImage{name: fmt.Sprintf("page %d", p.Page), caption: audit.CheckPageCaption(p.Page, p.Total), jpeg: p.JPEG}
	}
	fixed := envelopeBytes + blockBytes(textBlock(checkFeedback(rep, pages)))
	kept, acct := fitImages(fixed, opts.maxBytes(), imgs)
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
