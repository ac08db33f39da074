package render

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/editaudit/editaudit/formats/hwpx/convert"
)

// HWPXNotice is said once with the pages of a Hangul document: LibreOffice
// has no HWPX import filter, so its pages are laid out from editaudit's
// own conversion (formats/hwpx/convert), an approximation of Hancom
// Office's layout (docs/rendering.md, "Hangul (.hwpx) pages").
const HWPXNotice = convert.Notice

// ReasonConvert: editaudit's HWPX converter could not read the document.
const ReasonConvert Reason = "hwpx-convert"

// converted is a document turned into a PDF by the Renderer's Converter,
// with what a conversion before it could not draw.
type converted struct {
	pdf string
	// notice and notes are set for a document converted first (HWPX):
	// the notice that the layout is editaudit's, and what it left out.
	notice string
	notes  []string
}

// convertDoc converts docPath to PDF through r.Converter. A Hangul (.hwpx)
// document, which LibreOffice cannot read, is first converted to an
// OpenDocument Text file in a private folder (editaudit-render-hwpx-*,
// removed on return); the Converter renders that file like any other, so
// batching, deadlines, quarantine and the toolchain rules apply to it too.
func (r *Renderer) convertDoc(ctx context.Context, docPath string) (converted, error) {
	if ext, err := DetectFormat(docPath); err != nil || ext != hwpxExt {
		pdf, err := r.Converter.ConvertPDF(ctx, docPath)
		return converted{pdf: pdf}, err
	}
	dir, err := os.MkdirTemp("", "editaudit-render-hwpx-*")
	if err != nil {
		return converted{}, fmt.Errorf("render: %w", err)
	}
	defer os.RemoveAll(dir)
	odt := filepath.Join(dir, "document"+convert.Ext)
	res, err := convert.ConvertFile(ctx, docPath, odt, convert.Options{})
	if err != nil {
		if ctx.Err() != nil {
			return converted{}, ctx.Err()
		}
		return converted{}, &RenderError{Doc: docPath, Reason: ReasonConvert, Detail: err.Error()}
	}
	pdf, err := r.Converter.ConvertPDF(ctx, odt)
	var re *RenderError
	if errors.As(err, &re) {
		re.Doc = docPath // the caller's name, not the converted file's
	}
	return converted{pdf: pdf, notice: HWPXNotice, notes: res.Notes}, err
}

// ConvertPDF converts docPath to PDF as Render does — a Hangul document
// through editaudit's converter first (HWPXNotice applies to its pages) —
// without rasterizing it, and returns the PDF's path; the caller removes
// it. Errors are those of Render's conversion.
func (r *Renderer) ConvertPDF(ctx context.Context, docPath string) (string, error) {
	if err := r.ready(); err != nil {
		return "", err
	}
	cv, err := r.convertPDF(ctx, docPath)
	return cv.pdf, err
}
