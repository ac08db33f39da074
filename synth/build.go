package synth

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/editaudit/editaudit/formats"
	"github.com/editaudit/editaudit/formats/inspect"
	"github.com/editaudit/editaudit/render"
)

// BuildOptions say what Build may use and what it makes.
type BuildOptions struct {
	Options
	// To is the output: "" (or the spec's format) for the document itself,
	// "pdf" for its pages as LibreOffice renders them (needs Converter).
	To string
	// Recalc has LibreOffice recalculate a workbook's formulas, so that
	// the file carries their values (needs Exporter; xlsx only).
	Recalc bool
	// Converter renders the document to count its pages (Result.Pages,
	// and the MaxPages cap) and makes the PDF for To "pdf"; nil leaves the
	// pages uncounted. A *render.Renderer (Hangul documents through
	// editaudit's converter) or a *render.Pool.
	Converter PDFConverter
	// Exporter recalculates workbooks for Recalc.
	Exporter render.Exporter
	// TempDir holds the files handed to LibreOffice (default os.TempDir()).
	TempDir string
}

// PDFConverter makes a PDF of a document: *render.Renderer, *render.Pool.
// The caller removes the PDF.
type PDFConverter interface {
	ConvertPDF(ctx context.Context, docPath string) (string, error)
}

// Result is what Build made.
type Result struct {
	// Data is the output: the document, or its PDF with To "pdf".
	Data []byte
	// Format is "docx", "pptx", "xlsx", "hwpx" or "pdf".
	Format string
	// Pages is the number of pages the document renders to; 0 when it was
	// not rendered (no Converter, or a format LibreOffice cannot read).
	Pages int
	// Notes are what the caller should know about the output (formula
	// cells LibreOffice could not compute under Recalc; why pages were not
	// counted).
	Notes []string
}

// Sentinel errors of Build that are not the spec's fault.
var (
	// ErrNeedsRenderer: the output asked for needs LibreOffice (To "pdf",
	// Recalc) and none was given.
	ErrNeedsRenderer = errors.New("synth: this output needs LibreOffice")
)

// Build checks spec under o.Options, writes it, recalculates it (Recalc),
// checks the result with the project's own inspector — a fatal or error
// finding becomes a spec error naming the spec path that produced the part
// in question, because synth must never hand out a file editaudit itself
// would block or flag — renders it to count pages against MaxPages, and
// converts it to PDF when asked. A spec problem is a *SpecErrors; any other
// error means the tool could not do its job (LibreOffice failed, I/O).
func Build(ctx context.Context, spec *Spec, o BuildOptions) (*Result, error) {
	if spec == nil {
		return nil, errors.New("synth: nil spec")
	}
	switch o.To {
	case "", spec.Format:
	case "pdf":
		if o.Converter == nil {
			return nil, fmt.Errorf("%w: --to pdf renders through LibreOffice", ErrNeedsRenderer)
		}
	default:
		return nil, fmt.Errorf("synth: a %s spec cannot be written as %s (its own format, or pdf)", spec.Format, o.To)
	}
	if o.Recalc && spec.Format != "xlsx" {
		return nil, fmt.Errorf("synth: recalculation applies to workbooks (xlsx), not %s", spec.Format)
	}
	if o.Recalc && o.Exporter == nil {
		return nil, fmt.Errorf("%w: recalculation runs LibreOffice", ErrNeedsRenderer)
	}
	data, orig, err := write(spec, o.Options)
	if err != nil {
		return nil, err
	}
	res := &Result{Data: data, Format: spec.Format}
	tmp, err := os.MkdirTemp(o.TempDir, "editaudit-synth-")
	if err != nil {
		return nil, fmt.Errorf("synth: %w", err)
	}
	defer os.RemoveAll(tmp)
	doc := filepath.Join(tmp, "synth."+spec.Format)
	if o.Recalc {
		if res.Data, res.Notes, err = recalcWorkbook(ctx, o.Exporter, doc, res.Data); err != nil {
			return nil, err
		}
	}
	if err := selfCheck(ctx, res.Data, spec.Format, orig); err != nil {
		return nil, err
	}
	if o.Converter == nil {
		return res, nil
	}
	if err := os.WriteFile(doc, res.Data, 0o600); err != nil {
		return nil, fmt.Errorf("synth: %w", err)
	}
	pdf, err := o.Converter.ConvertPDF(ctx, doc)
	if errors.Is(err, render.ErrUnsupported) && o.To != "pdf" {
		res.Notes = append(res.Notes, "pages not counted: LibreOffice does not read "+spec.Format)
		return res, nil
	}
	if err != nil {
		return nil, err
	}
	defer os.Remove(pdf)
	if res.Pages, err = render.CountPDFPages(ctx, pdf); err != nil {
		return nil, err
	}
	if spec.Format == "hwpx" {
		res.Notes = append(res.Notes, render.HWPXNotice)
	}
	if res.Pages > MaxPages {
		return nil, &SpecErrors{Errors: []*SpecError{{Path: bodyPath(spec), Cap: MaxPages,
			Msg: fmt.Sprintf("the document renders to %d pages, more than the cap of %d (check and audit show at most %d pages)", res.Pages, MaxPages, MaxPages)}}}
	}
	if o.To == "pdf" {
		if res.Data, err = os.ReadFile(pdf); err != nil {
			return nil, fmt.Errorf("synth: %w", err)
		}
		res.Format = "pdf"
	}
	return res, nil
}

// bodyPath is the spec path of the document's content.
func bodyPath(s *Spec) string {
	switch s.Format {
	case "docx":
		return "$.docx.body"
	case "pptx":
		return "$.pptx.slides"
	case "xlsx":
		return "$.xlsx.sheets"
	case "hwpx":
		return "$.hwpx.sections"
	}
	return "$"
}

// selfCheck inspects the written document: every fatal or error finding is
// a spec error at the spec path that produced the part (origins).
func selfCheck(ctx context.Context, data []byte, format string, orig *origins) error {
	rep, err := inspect.Bytes(ctx, data, "synth."+format, inspect.Options{})
	if err != nil {
		return fmt.Errorf("synth: self-check: %w", err)
	}
	var el errList
	for _, f := range rep.Findings {
		if f.Grade != formats.Fatal && f.Grade != formats.Error {
			continue
		}
		where := f.Part
		if f.Line > 0 {
			where += fmt.Sprintf(":%d:%d", f.Line, f.Column)
		}
		msg := fmt.Sprintf("the written %s fails editaudit check (%s %s at %s): %s", format, f.Grade, f.Code, where, f.Message)
		if f.Fix != "" {
			msg += "; fix: " + f.Fix
		}
		el.add(orig.pathOf(f), findingCap(f), "%s", strings.TrimSpace(msg))
	}
	return mergeErrors(nil, &el)
}

// findingCap is the limit a zip.limit finding reports, when it is one.
func findingCap(f formats.Finding) int {
	if f.Code != formats.CodeZipLimit {
		return 0
	}
	lim := formats.DefaultLimits()
	switch {
	case strings.Contains(f.Message, "ratio"):
		return int(lim.MaxRatio)
	case f.Anchor == "total":
		return int(lim.MaxTotalSize)
	case f.Anchor == "entries":
		return lim.MaxEntries
	case f.Part != "":
		return int(lim.MaxEntrySize)
	}
	return 0
}
