package render

import (
	"context"
	"fmt"
	"os/exec"
	"time"

	"github.com/editaudit/editaudit/pixeldiff"
)

// TextTimeout bounds one text-layer extraction (pdftotext reads a 180-page
// PDF in about 0.6 s of CPU).
const TextTimeout = 2 * time.Minute

// TextLayer reads the text layer of every page of a PDF, lines top to
// bottom with the pixel rows they span at dpi, with poppler's `pdftotext
// -tsv` (pixeldiff.ParseTSV). Pages are aligned by it (pixeldiff's
// content-anchored alignment); it is stored in the page signatures.
//
// Why pdftotext and not MuPDF's `mutool draw -F stext`: on the real
// corpus's largest Word file (poi_bug65649.docx, 180 pages) pdftotext -tsv
// needs 0.67 s of CPU and writes 3.7 MB; mutool's structured text 0.81 s
// and 41 MB (one element per character), which must then be parsed too.
// Both give the same lines on LibreOffice's PDFs for what alignment needs.
// poppler-utils is already required (pdfinfo, pdftoppm).
func TextLayer(ctx context.Context, pdf string, dpi int) ([]*pixeldiff.PageText, error) {
	ctx, cancel := context.WithTimeout(ctx, TextTimeout)
	defer cancel()
	cmd := exec.Command("pdftotext", "-tsv", "-enc", "UTF-8", pdf, "-")
	setProcessGroup(cmd)
	var stderr tailBuffer
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	cmd.WaitDelay = 10 * time.Second
	if err := cmd.Start(); err != nil {
		if isNotFound(err) {
			return nil, fmt.Errorf("%w: pdftotext not found (install it: apt-get install poppler-utils)", ErrNoRenderer)
		}
		return nil, err
	}
	stop := context.AfterFunc(ctx, func() { killGroup(cmd) })
	pages, perr := pixeldiff.ParseTSV(out, dpi)
	if perr != nil {
		killGroup(cmd)
	}
	werr := cmd.Wait()
	stop()
	killGroup(cmd)
	switch {
	case ctx.Err() != nil:
		return nil, fmt.Errorf("pdftotext: %w", ctx.Err())
	case werr != nil:
		return nil, fmt.Errorf("pdftotext: %w: %s", werr, stderr.String())
	case perr != nil:
		return nil, perr
	}
	return pages, nil
}
