package pixeldiff

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"sort"
	"strconv"
	"time"
)

// RangeRasterizer is a Rasterizer that can draw a range of pages without
// drawing the others: the audit re-draws only the pages it compares.
type RangeRasterizer interface {
	Rasterizer
	// RasterizeRange calls each for pages first..last (1-based, inclusive).
	RasterizeRange(ctx context.Context, pdfPath string, dpi, first, last int, each func(page int, r *Raster, widthPt, heightPt float64) error) error
}

// RasterizeRange implements RangeRasterizer.
func (p *Pdftoppm) RasterizeRange(ctx context.Context, pdfPath string, dpi, first, last int, each func(page int, r *Raster, widthPt, heightPt float64) error) error {
	if first < 1 || last < first {
		return fmt.Errorf("pixeldiff: bad page range %d-%d", first, last)
	}
	// pdfinfo lists sizes from page 1; parsePdfinfo wants them all.
	out, err := runOutput(ctx, time.Minute, p.info(), "-f", "1", "-l", "1000000000", pdfPath)
	if err != nil {
		if ctx.Err() != nil || errors.Is(err, ErrNoRenderer) {
			return errors.Join(ctx.Err(), err)
		}
		return &RenderError{Reason: ReasonRasterize, Detail: fmt.Sprintf("pdfinfo: %v: %s", err, firstLine(out))}
	}
	sizes, err := parsePdfinfoRange(out, first, last)
	if err != nil {
		return &RenderError{Reason: ReasonRasterize, Detail: err.Error()}
	}
	if err := checkPageLimits(sizes, dpi); err != nil {
		return err
	}
	cmd := exec.Command(p.bin(), "-r", strconv.Itoa(dpi), "-f", strconv.Itoa(first), "-l", strconv.Itoa(last), pdfPath)
	return streamPNM(ctx, "pdftoppm", cmd, sizes, func(i int, r *Raster, w, h float64) error {
		return each(first+i-1, r, w, h)
	})
}

// parsePdfinfoRange keeps the sizes of pages first..last from the output
// of pdfinfo over every page.
func parsePdfinfoRange(out []byte, first, last int) ([]pageSize, error) {
	all, err := parsePdfinfo(out)
	if err != nil {
		return nil, err
	}
	if last > len(all) {
		return nil, fmt.Errorf("pdfinfo: page %d asked, the PDF has %d", last, len(all))
	}
	return all[first-1 : last], nil
}

// RasterizePages draws only the listed pages (1-based, any order; each is
// called in ascending page order), using page ranges when rz supports them
// and one full pass otherwise.
func RasterizePages(ctx context.Context, rz Rasterizer, pdfPath string, dpi int, pages []int, each func(page int, r *Raster, widthPt, heightPt float64) error) error {
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
			if err := rr.RasterizeRange(ctx, pdfPath, dpi, ps[i], ps[j], func(page int, r *Raster, w, h float64) error {
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
	err := rz.Rasterize(ctx, pdfPath, dpi, func(page int, r *Raster, w, h float64) error {
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
	Sigs []PageSig
	// Sizes are the pages' sizes in points (width, height).
	Sizes [][2]float64
	// Bands are the running header/footer bands the signatures masked.
	Bands Bands
}

// RenderSigs converts docPath to PDF through the pool, rasterizes its
// pages once to sign them, and keeps the PDF (the caller removes it). With
// bands nil the document's own running bands are detected in the same pass
// (an original); otherwise the given bands are kept (an edited file is
// compared with its original's bands). Errors are those of Renderer.Render.
func (r *Renderer) RenderSigs(ctx context.Context, docPath string, bands *Bands) (*PDFPages, error) {
	if r.Pool == nil || r.Raster == nil {
		return nil, fmt.Errorf("%w: Renderer needs a Pool and a Rasterizer", ErrNoRenderer)
	}
	pdf, err := r.Pool.ConvertPDF(ctx, docPath)
	if err != nil {
		return nil, err
	}
	out := &PDFPages{PDF: pdf}
	maxPages := r.MaxPages
	if maxPages <= 0 {
		maxPages = DefaultMaxPages
	}
	tooMany := func(page int) error {
		if page > maxPages {
			return &RenderError{Doc: docPath, Reason: ReasonTooManyPage, Detail: fmt.Sprintf("more than %d pages", maxPages)}
		}
		return nil
	}
	var d *BandDetector
	if bands == nil {
		d = NewBandDetector()
	} else {
		out.Bands = *bands
	}
	err = r.Raster.Rasterize(ctx, pdf, r.dpi(), func(page int, ra *Raster, w, h float64) error {
		if err := tooMany(page); err != nil {
			return err
		}
		if d != nil {
			d.Add(ra)
		}
		out.Sigs = append(out.Sigs, Signature(ra))
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
		return nil, err
	}
	return out, nil
}

// DPIValue is the resolution the renderer rasterizes at.
func (r *Renderer) DPIValue() int { return r.dpi() }

// Fit returns r downscaled (area filter) so that its longer side is at
// most maxSide (DefaultMaxSide when 0); r itself when it already fits.
func Fit(r *Raster, maxSide int) *Raster {
	if maxSide <= 0 {
		maxSide = DefaultMaxSide
	}
	if r.W <= maxSide && r.H <= maxSide {
		return r
	}
	w, h := r.W, r.H
	if w >= h {
		h, w = max(1, h*maxSide/w), maxSide
	} else {
		w, h = max(1, w*maxSide/h), maxSide
	}
	return scaleArea(r, w, h)
}
