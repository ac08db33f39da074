package render

import (
	"context"

	"github.com/editaudit/editaudit/pixeldiff"
)

// SplitRasterizer is a Rasterizer that can draw a PDF in two processes at
// once, the first half of the pages and the second, and still hand the
// pages to each in order: for a lone audit on an otherwise idle machine
// (an agent's edit loop), whose wall time the rasterizer is a fifth of.
type SplitRasterizer interface {
	RasterizeSplit(ctx context.Context, pdfPath string, dpi int, each func(page int, r *pixeldiff.Raster, widthPt, heightPt float64) error) error
}

// maxSplitPages bounds the documents drawn in two halves: the second
// half's pages wait in memory until the first half's are handed out
// (8 A4 pages at 100 dpi: 23 MB).
const maxSplitPages = 16

// RasterizeSplit implements SplitRasterizer: pdfinfo's sizes once, then
// the two halves of the pages by two pdftoppm runs at once (a range draws
// the same pixels as a whole pass: TestRasterizeRange). Documents of one
// page or more than maxSplitPages are drawn in one run.
func (p *Pdftoppm) RasterizeSplit(ctx context.Context, pdfPath string, dpi int, each func(page int, r *pixeldiff.Raster, widthPt, heightPt float64) error) error {
	sizes, done, err := p.sizes(ctx, pdfPath, 0)
	if done || err != nil {
		return err
	}
	n := len(sizes)
	if n < 2 || n > maxSplitPages {
		return p.drawKnown(ctx, pdfPath, dpi, 0, sizes, each)
	}
	if err := checkPageLimits(sizes, dpi, 1); err != nil {
		return err
	}
	half := (n + 1) / 2
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	type page struct {
		n    int
		r    *pixeldiff.Raster
		w, h float64
	}
	var second []page
	secondDone := make(chan error, 1)
	go func() {
		secondDone <- p.drawKnown(ctx, pdfPath, dpi, half+1, sizes[half:], func(n int, r *pixeldiff.Raster, w, h float64) error {
			second = append(second, page{n, r, w, h})
			return nil
		})
	}()
	err = p.drawKnown(ctx, pdfPath, dpi, 1, sizes[:half], each)
	if err != nil {
		cancel()
	}
	err2 := <-secondDone
	if err != nil {
		return err
	}
	if err2 != nil {
		return err2
	}
	for _, pg := range second {
		if err := each(pg.n, pg.r, pg.w, pg.h); err != nil {
			return err
		}
	}
	return nil
}
