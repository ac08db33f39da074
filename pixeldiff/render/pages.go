package render

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sort"

	"github.com/editaudit/editaudit/pixeldiff"
)

// RangeRasterizer is a Rasterizer that can draw a range of pages without
// drawing the others: the audit re-draws only the pages it compares.
type RangeRasterizer interface {
	Rasterizer
	// RasterizeRange calls each for pages first..last (1-based, inclusive).
	RasterizeRange(ctx context.Context, pdfPath string, dpi, first, last int, each func(page int, r *pixeldiff.Raster, widthPt, heightPt float64) error) error
}

// checkRange refuses a page range that is not first..last, 1-based; 0, 0
// (every page) passes.
func checkRange(first, last int) error {
	if (first != 0 || last != 0) && (first < 1 || last < first) {
		return fmt.Errorf("render: bad page range %d-%d", first, last)
	}
	return nil
}

// RasterizePages draws only the listed pages (1-based, any order; each is
// called in ascending page order), using page ranges when rz supports them
// and one full pass otherwise.
func RasterizePages(ctx context.Context, rz Rasterizer, pdfPath string, dpi int, pages []int, each func(page int, r *pixeldiff.Raster, widthPt, heightPt float64) error) error {
	if len(pages) == 0 {
		return nil
	}
	ps := append([]int(nil), pages...)
	sort.Ints(ps)
	want := map[int]bool{}
	for _, p := range ps {
		want[p] = true
	}
	if rr, ok := rz.(RangeRasterizer); ok {
		for i := 0; i < len(ps); {
			j := i
			for j+1 < len(ps) && ps[j+1] <= ps[j]+1 {
				j++
			}
			if err := rr.RasterizeRange(ctx, pdfPath, dpi, ps[i], ps[j], func(page int, r *pixeldiff.Raster, w, h float64) error {
				if !want[page] {
					return nil
				}
				delete(want, page) // duplicates in pages are drawn once
				return each(page, r, w, h)
			}); err != nil {
				return err
			}
			i = j + 1
		}
		return nil
	}
	errDone := errors.New("done")
	err := rz.Rasterize(ctx, pdfPath, dpi, func(page int, r *pixeldiff.Raster, w, h float64) error {
		if !want[page] {
			return nil
		}
		delete(want, page)
		if err := each(page, r, w, h); err != nil {
			return err
		}
		if len(want) == 0 {
			return errDone
		}
		return nil
	})
	if errors.Is(err, errDone) {
		return nil
	}
	return err
}

// PDFPages is a document rendered to PDF, with one signature per page: what
// a baseline keeps instead of rasters (a page is re-drawn from the PDF in a
// few milliseconds when it must be compared or shown).
type PDFPages struct {
	// PDF is the path of the PDF LibreOffice wrote.
	PDF string
	// Sigs has one signature per page, in order.
	Sigs []pixeldiff.PageSig
	// Sizes are the pages' sizes in points (width, height).
	Sizes [][2]float64
	// Bands are the running header/footer bands the signatures masked.
	Bands pixeldiff.Bands
	// Notice says the layout is an approximation (HWPXNotice for a Hangul
	// document, "" otherwise); Notes list what its conversion left out.
	Notice string
	Notes  []string
}

// RenderSigs converts docPath to PDF through the pool, rasterizes its
// pages once to sign them, and keeps the PDF (the caller removes it). With
// bands nil the document's own running bands are detected in the same pass
// (an original); otherwise the given bands are kept (an edited file is
// compared with its original's bands). Errors are those of Renderer.Render.
func (r *Renderer) RenderSigs(ctx context.Context, docPath string, bands *pixeldiff.Bands) (*PDFPages, error) {
	if err := r.ready(); err != nil {
		return nil, err
	}
	cv, err := r.convertPDF(ctx, docPath)
	if err != nil {
		return nil, r.vet(ctx, docPath, err)
	}
	pdf := cv.pdf
	out := &PDFPages{PDF: pdf, Notice: cv.notice, Notes: cv.notes}
	maxPages := r.maxPages()
	tooMany := func(page int) error {
		if page > maxPages {
			return &RenderError{Doc: docPath, Reason: ReasonTooManyPage, Detail: fmt.Sprintf("more than %d pages", maxPages)}
		}
		return nil
	}
	var d *pixeldiff.BandDetector
	if bands == nil {
		d = pixeldiff.NewBandDetector()
	} else {
		out.Bands = *bands
	}
	err = r.Raster.Rasterize(ctx, pdf, r.dpi(), func(page int, ra *pixeldiff.Raster, w, h float64) error {
		if err := tooMany(page); err != nil {
			return err
		}
		if d != nil {
			d.Add(ra)
		}
		out.Sigs = append(out.Sigs, pixeldiff.Signature(ra))
		out.Sizes = append(out.Sizes, [2]float64{w, h})
		return nil
	})
	if d != nil {
		out.Bands = d.Bands()
	}
	if err == nil && len(out.Sigs) == 0 {
		err = &RenderError{Doc: docPath, Reason: ReasonZeroPages, Detail: "LibreOffice's PDF has no pages"}
	}
	if err != nil {
		_ = os.Remove(pdf)
		var re *RenderError
		if errors.As(err, &re) && re.Doc == "" {
			re.Doc = docPath
		}
		return nil, r.vet(ctx, docPath, err)
	}
	return out, nil
}
