package render

import (
	"context"
	"errors"
	"fmt"
	"os"
	"runtime"
	"slices"
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

// knownSizeDrawer is a Rasterizer that can draw a range of pages whose
// sizes the caller knows, skipping its program for page sizes (pdfinfo,
// mutool pages): one process per range instead of two.
type knownSizeDrawer interface {
	drawKnown(ctx context.Context, pdfPath string, dpi, first int, sizes []pageSize, each func(int, *pixeldiff.Raster, float64, float64) error) error
}

// RasterizeKnownPages is RasterizePages for a PDF whose page sizes are
// known (sizes[i] is page i+1's, in points, as signed by Sign): the
// rasterizer is not asked for them again.
func RasterizeKnownPages(ctx context.Context, rz Rasterizer, pdfPath string, dpi int, pages []int, sizes [][2]float64, each func(page int, r *pixeldiff.Raster, widthPt, heightPt float64) error) error {
	kd, ok := rz.(knownSizeDrawer)
	if !ok {
		return RasterizePages(ctx, rz, pdfPath, dpi, pages, each)
	}
	ps := append([]int(nil), pages...)
	sort.Ints(ps)
	ps = slices.Compact(ps)
	if len(ps) == 0 {
		return nil
	}
	if ps[0] < 1 || ps[len(ps)-1] > len(sizes) {
		return fmt.Errorf("render: pages %d..%d asked of a PDF of %d pages", ps[0], ps[len(ps)-1], len(sizes))
	}
	for i := 0; i < len(ps); {
		j := i
		for j+1 < len(ps) && ps[j+1] == ps[j]+1 {
			j++
		}
		sz := make([]pageSize, 0, ps[j]-ps[i]+1)
		for _, s := range sizes[ps[i]-1 : ps[j]] {
			sz = append(sz, pageSize{s[0], s[1]})
		}
		if err := kd.drawKnown(ctx, pdfPath, dpi, ps[i], sz, each); err != nil {
			return err
		}
		i = j + 1
	}
	return nil
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
	// Kept are the rasters SignOptions.Keep chose, by page number: drawn
	// once for the signature, reused to compare and show the page.
	Kept map[int]*pixeldiff.Raster
	// Notice says the layout is an approximation (HWPXNotice for a Hangul
	// document, "" otherwise); Notes list what its conversion left out.
	Notice string
	Notes  []string
}

// SignOptions say how Sign signs a document's pages.
type SignOptions struct {
	// Bands nil detects the document's own running bands in the same pass
	// (an original); otherwise they are kept (an edited file is compared
	// with its original's bands).
	Bands *pixeldiff.Bands
	// Keep, when set, is asked for every page once signed: true keeps its
	// raster in PDFPages.Kept, up to MaxKept pages (the first ones asked).
	Keep    func(page int, sig pixeldiff.PageSig) bool
	MaxKept int
	// Cache puts every page signed into the Renderer's page cache (an
	// original, whose pages its edits' audits draw again).
	Cache bool
}

// RenderSigs converts docPath to PDF through the converter (or takes its
// Prefetch), rasterizes its pages once to sign them, and keeps the PDF (the
// caller removes it). With bands nil the document's own running bands are
// detected in the same pass (an original); otherwise the given bands are
// kept (an edited file is compared with its original's bands). Errors are
// those of Renderer.Render.
func (r *Renderer) RenderSigs(ctx context.Context, docPath string, bands *pixeldiff.Bands) (*PDFPages, error) {
	return r.Sign(ctx, docPath, SignOptions{Bands: bands})
}

// Sign is RenderSigs with options: it can also keep the rasters of chosen
// pages, so that they are drawn once for signing, comparing and showing.
func (r *Renderer) Sign(ctx context.Context, docPath string, o SignOptions) (*PDFPages, error) {
	if err := r.ready(); err != nil {
		return nil, err
	}
	r.signing.Add(1)
	defer r.signing.Add(-1)
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
	if o.Bands == nil {
		d = pixeldiff.NewBandDetector()
	} else {
		out.Bands = *o.Bands
	}
	// The text layer is read beside the rasterizing (both only read the
	// PDF; on two cores the wall time of the slower, not of both).
	type textLayer struct {
		texts []*pixeldiff.PageText
		err   error
	}
	tctx, tcancel := context.WithCancel(ctx)
	defer tcancel()
	textDone := make(chan textLayer, 1)
	go func() {
		texts, err := TextLayer(tctx, pdf, r.dpi())
		textDone <- textLayer{texts, err}
	}()
	// Pages are signed in order by one goroutine while the rasterizer
	// draws the next ones (it would otherwise wait on its full pipe); at
	// most two drawn pages wait to be signed.
	type drawn struct {
		page int
		ra   *pixeldiff.Raster
		w, h float64
	}
	toSign := make(chan drawn, 2)
	signed := make(chan struct{})
	go func() {
		defer close(signed)
		for p := range toSign {
			if d != nil {
				d.Add(p.ra)
			}
			sig := pixeldiff.Signature(p.ra)
			if o.Cache {
				r.Pages.Put(sig.Full, p.ra)
			}
			out.Sigs = append(out.Sigs, sig)
			out.Sizes = append(out.Sizes, [2]float64{p.w, p.h})
			if o.Keep != nil && len(out.Kept) < o.MaxKept && o.Keep(p.page, sig) {
				if out.Kept == nil {
					out.Kept = map[int]*pixeldiff.Raster{}
				}
				out.Kept[p.page] = p.ra
			}
		}
	}()
	hand := func(page int, ra *pixeldiff.Raster, w, h float64) error {
		if err := tooMany(page); err != nil {
			return err
		}
		select {
		case toSign <- drawn{page, ra, w, h}:
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	// Alone (no other document being converted or drawn for its
	// signatures: an agent's audit of one edit, not a batch, whose other
	// documents keep the cores busy), on more than one core, the pages
	// are drawn in two halves at once.
	alone := r.signing.Load() == 1 && runtime.NumCPU() > 1
	if sr, ok := r.Raster.(SplitRasterizer); ok && alone {
		err = sr.RasterizeSplit(ctx, pdf, r.dpi(), hand)
	} else {
		err = r.Raster.Rasterize(ctx, pdf, r.dpi(), hand)
	}
	close(toSign)
	<-signed
	if err == nil && len(out.Sigs) == 0 {
		err = &RenderError{Doc: docPath, Reason: ReasonZeroPages, Detail: "LibreOffice's PDF has no pages"}
	}
	if err != nil {
		tcancel()
	}
	tl := <-textDone // always waited for: no pdftotext outlives Sign
	if err == nil {
		// The text layer anchors the alignment of pages by content. When
		// it cannot be read (pdftotext missing or failing on this PDF),
		// the signatures go without it and pages align by their pixels.
		switch {
		case ctx.Err() != nil:
			err = ctx.Err()
		case tl.err == nil && len(tl.texts) == len(out.Sigs):
			for i := range out.Sigs {
				out.Sigs[i].Text = tl.texts[i]
			}
		}
	}
	if d != nil {
		// A band must repeat its text, not only its place (a slide title
		// is no running header).
		out.Bands = pixeldiff.ConfirmBands(d.Bands(), out.Sigs)
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
