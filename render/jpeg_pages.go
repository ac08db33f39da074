package render

import (
	"bytes"
	"context"

	"github.com/editaudit/editaudit/pixeldiff"
)

// PageJPEG is one rendered page as a JPEG image.
type PageJPEG struct {
	// Page is the 1-based page number.
	Page int
	JPEG []byte
}

// FirstPagesJPEG renders the document at docPath and returns its first n
// pages as JPEGs (at the pixeldiff.Fit default size, quality 85) and the
// document's page count: the pages `editaudit check --format model|html`
// attaches to the check of a new file, from the command or the service.
// Errors are Render's; the pages drawn before an error are returned with it.
func (r *Renderer) FirstPagesJPEG(ctx context.Context, docPath string, n int) ([]PageJPEG, int, error) {
	var pages []PageJPEG
	total, err := r.Render(ctx, docPath, func(page int, ra *pixeldiff.Raster, _, _ float64) error {
		if page > n {
			return nil
		}
		var buf bytes.Buffer
		if err := pixeldiff.EncodeJPEG(&buf, pixeldiff.Fit(ra, 0), 85); err != nil {
			return err
		}
		pages = append(pages, PageJPEG{Page: page, JPEG: buf.Bytes()})
		return nil
	})
	return pages, total, err
}
