package pixeldiff

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
)

// DefaultDPI is the resolution pages are rasterized at when none is given:
// an A4 page is 827×1170 pixels, enough to see a moved line or an
// overflowing title, small enough to compare in a few milliseconds.
const DefaultDPI = 100

// DefaultMaxPages caps the pages one document may render to (a spreadsheet
// without print ranges can print as thousands of pages).
const DefaultMaxPages = 1000

// Sentinel errors of the renderer. A *RenderError matches ErrRenderFailed
// with errors.Is.
var (
	// ErrNoRenderer: LibreOffice (or the rasterizer) is not installed. The
	// wrapped message says how to install it.
	ErrNoRenderer = errors.New("pixeldiff: renderer not available")
	// ErrRenderFailed: this document could not be rendered (timeout, crash,
	// no PDF produced, 0 pages...); other documents are unaffected. The
	// reason is in the *RenderError.
	ErrRenderFailed = errors.New("pixeldiff: document could not be rendered")
	// ErrUnsupported: no renderer reads this format (HWPX, unknown content).
	ErrUnsupported = errors.New("pixeldiff: format not supported by the renderer")
	// ErrClosed: the Pool was closed while the document waited or rendered.
	ErrClosed = errors.New("pixeldiff: renderer pool closed")
)

// Reason classifies why a document failed to render.
type Reason string

// Reasons a document fails to render.
const (
	ReasonTimeout     Reason = "timeout"    // no progress within the per-document deadline
	ReasonCrash       Reason = "crash"      // LibreOffice died (signal or abnormal exit)
	ReasonNoPDF       Reason = "no-pdf"     // LibreOffice ran but produced no PDF (it could not load the file)
	ReasonZeroPages   Reason = "zero-pages" // the PDF has no pages
	ReasonTooManyPage Reason = "too-many-pages"
	ReasonTooLarge    Reason = "too-large" // input or page beyond a stated limit
	ReasonRasterize   Reason = "rasterize" // the rasterizer failed on LibreOffice's PDF
)

// RenderError is a document-specific rendering failure. errors.Is(err,
// ErrRenderFailed) holds for it.
type RenderError struct {
	Doc         string // the caller's path
	Reason      Reason
	Detail      string // human-readable cause: exit status, stderr tail, limit
	Quarantined bool   // failed twice (or deterministically); not retried again by this Pool
}

func (e *RenderError) Error() string {
	s := fmt.Sprintf("pixeldiff: render failed (%s)", e.Reason)
	if e.Doc != "" {
		s = fmt.Sprintf("pixeldiff: %s: render failed (%s)", filepath.Base(e.Doc), e.Reason)
	}
	if e.Detail != "" {
		s += ": " + e.Detail
	}
	return s
}

// Is makes errors.Is(err, ErrRenderFailed) true.
func (e *RenderError) Is(target error) bool { return target == ErrRenderFailed }

// Renderer turns a document into page Rasters: Pool converts it to PDF,
// Raster rasterizes the PDF at DPI (DefaultDPI when 0). MaxPages caps the
// page count (DefaultMaxPages when 0). At most Parallel rasterizations run
// at once (default runtime.NumCPU()); conversions are bounded by the Pool.
// It is safe for concurrent use; do not copy it after first use.
type Renderer struct {
	Pool     *Pool
	Raster   Rasterizer
	DPI      int
	MaxPages int
	Parallel int

	tcMu    sync.Mutex
	tc      Toolchain
	semOnce sync.Once
	sem     chan struct{}
}

func (r *Renderer) dpi() int {
	if r.DPI > 0 {
		return r.DPI
	}
	return DefaultDPI
}

// Toolchain returns the fingerprint of this renderer. It is computed on
// first use (it runs soffice --version and the rasterizer's version, and
// lists the font folders) and remembered once complete.
func (r *Renderer) Toolchain(ctx context.Context) Toolchain {
	r.tcMu.Lock()
	defer r.tcMu.Unlock()
	if r.tc.LibreOffice != "" && r.tc.Fonts != "" && r.tc.DPI == r.dpi() {
		return r.tc
	}
	tc := Toolchain{DPI: r.dpi()}
	var progDir string
	if r.Pool != nil {
		tc.LibreOffice = r.Pool.Version(ctx)
		progDir = r.Pool.ProgramDir()
	}
	if r.Raster != nil {
		tc.Rasterizer = strings.TrimSpace(r.Raster.Name() + " " + r.Raster.Version(ctx))
	}
	if h, _, err := FontsHash(ctx, FontDirs(progDir)); err == nil {
		tc.Fonts = h
	}
	r.tc = tc
	return tc
}

// Render converts docPath and calls each for every page in order, one page
// at a time: page is 1-based, the Raster belongs to the callee (it is not
// reused), widthPt/heightPt are the page size in points as displayed. It returns the number of pages. A document that LibreOffice
// cannot render, or whose PDF has 0 pages, gives a *RenderError
// (ErrRenderFailed); HWPX and unknown content give ErrUnsupported; a missing
// LibreOffice or rasterizer gives ErrNoRenderer. An error returned by each
// stops the rendering and is returned as is.
func (r *Renderer) Render(ctx context.Context, docPath string, each func(page int, r *Raster, widthPt, heightPt float64) error) (int, error) {
	if r.Pool == nil || r.Raster == nil {
		return 0, fmt.Errorf("%w: Renderer needs a Pool and a Rasterizer", ErrNoRenderer)
	}
	pdf, err := r.Pool.ConvertPDF(ctx, docPath)
	if err != nil {
		return 0, err
	}
	defer os.Remove(pdf)
	r.semOnce.Do(func() {
		n := r.Parallel
		if n <= 0 {
			n = runtime.NumCPU()
		}
		r.sem = make(chan struct{}, n)
	})
	select {
	case r.sem <- struct{}{}:
		defer func() { <-r.sem }()
	case <-ctx.Done():
		return 0, ctx.Err()
	}
	maxPages := r.MaxPages
	if maxPages <= 0 {
		maxPages = DefaultMaxPages
	}
	pages := 0
	var cbErr error
	err = r.Raster.Rasterize(ctx, pdf, r.dpi(), func(page int, ra *Raster, w, h float64) error {
		if page > maxPages {
			return &RenderError{Doc: docPath, Reason: ReasonTooManyPage, Detail: fmt.Sprintf("more than %d pages", maxPages)}
		}
		pages = page
		if err := each(page, ra, w, h); err != nil {
			cbErr = err
			return err
		}
		return nil
	})
	if cbErr != nil {
		return pages, cbErr
	}
	var re *RenderError
	if errors.As(err, &re) && re.Doc == "" {
		re.Doc = docPath
	}
	if err != nil {
		return pages, err
	}
	if pages == 0 {
		return 0, &RenderError{Doc: docPath, Reason: ReasonZeroPages, Detail: "LibreOffice's PDF has no pages"}
	}
	return pages, nil
}
