package render

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/editaudit/editaudit/pixeldiff"
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
	ErrNoRenderer = errors.New("render: renderer not available")
	// ErrRenderFailed: this document could not be rendered (timeout, crash,
	// no PDF produced, 0 pages...); other documents are unaffected. The
	// reason is in the *RenderError.
	ErrRenderFailed = errors.New("render: document could not be rendered")
	// ErrUnsupported: no renderer reads this format (HWPX, unknown content).
	ErrUnsupported = errors.New("render: format not supported by the renderer")
	// ErrClosed: the Pool was closed while the document waited or rendered.
	ErrClosed = errors.New("render: renderer pool closed")
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
	// Transient: the failure says nothing about the document — LibreOffice
	// ran out of time on a loaded machine, or was killed from outside (the
	// OOM killer, an operator). It must not be remembered as the
	// document's: the next attempt may well succeed.
	Transient bool
}

func (e *RenderError) Error() string {
	s := fmt.Sprintf("render: render failed (%s)", e.Reason)
	if e.Doc != "" {
		s = fmt.Sprintf("render: %s: render failed (%s)", filepath.Base(e.Doc), e.Reason)
	}
	if e.Detail != "" {
		s += ": " + e.Detail
	}
	return s
}

// Is makes errors.Is(err, ErrRenderFailed) true.
func (e *RenderError) Is(target error) bool { return target == ErrRenderFailed }

// Converter turns a document into a PDF. Pool, the batch LibreOffice
// pool, is the implementation in this package; another one (a warm
// LibreOffice behind a UNO listener, issue #16) plugs into a Renderer
// through this interface without touching its callers.
// Implementations are safe for concurrent use.
type Converter interface {
	// ConvertPDF converts the document at docPath (only read) to PDF and
	// returns the PDF's path; the caller owns that file and removes it.
	// Errors: *RenderError (ErrRenderFailed) for a document that cannot
	// be converted, ErrUnsupported, ErrNoRenderer, ErrClosed, ctx.Err().
	ConvertPDF(ctx context.Context, docPath string) (string, error)
	// Version identifies the converting program for the Toolchain
	// ("LibreOffice 7.4.7.2 40(Build:2)"; "" when it cannot tell).
	Version(ctx context.Context) string
	// ProgramDir is LibreOffice's program folder, whose bundled fonts go
	// into the Toolchain ("" when unknown).
	ProgramDir() string
	// Close stops the converter's processes and removes what it created,
	// PDFs not yet removed by their callers included.
	Close() error
}

// Renderer turns a document into page Rasters: Converter converts it to
// PDF, Raster rasterizes the PDF at DPI (DefaultDPI when 0). MaxPages caps
// the page count (DefaultMaxPages when 0). At most Parallel rasterizations
// run at once (default runtime.NumCPU()); conversions are bounded by the
// Converter. New builds one; Close releases its Converter. It is safe for
// concurrent use; do not copy it after first use.
type Renderer struct {
	Converter Converter
	Raster    Rasterizer
	DPI       int
	MaxPages  int
	Parallel  int
	// Pages keeps the page rasters of originals drawn by this Renderer
	// (PageCache); nil keeps none.
	Pages *PageCache

	tcMu     sync.Mutex
	tc       Toolchain
	semOnce  sync.Once
	sem      chan struct{}
	cacheDir string       // where probed versions are remembered ("" none)
	signing  atomic.Int32 // Sign calls in flight (converting or drawing)
	pre      prefetches
	health   health
}

// Engines: which Converter New starts (Config.Engine).
const (
	// EngineAuto ("") is the warm pool when LibreOffice's Python UNO
	// bridge works here, else the batch pool.
	EngineAuto = ""
	// EngineWarm keeps LibreOffice running behind a UNO listener
	// (NewWarmPool): a conversion costs LibreOffice's work on the
	// document, not its start.
	EngineWarm = "warm"
	// EngineBatch starts LibreOffice once per batch of documents
	// (NewPool): no dependency beyond LibreOffice itself.
	EngineBatch = "batch"
)

// Config says how New builds a Renderer. The zero value is the automatic
// engine with the default pool options, the default rasterizer and
// DefaultDPI.
type Config struct {
	// Converter, when set, is used instead of starting a pool; the
	// Renderer owns it from then on (Close closes it).
	Converter Converter
	// Engine chooses the pool started when Converter is nil: EngineAuto,
	// EngineWarm or EngineBatch.
	Engine string
	// Pool configures the pool started when Converter is nil (either
	// engine; the warm-only options are ignored by the batch pool).
	Pool PoolOptions
	// Rasterizer draws the PDF's pages; nil means DefaultRasterizer().
	Rasterizer Rasterizer
	// DPI, MaxPages and Parallel are the Renderer's fields of that name.
	DPI, MaxPages, Parallel int
	// PageCacheBytes bounds the Renderer's page cache of originals' page
	// rasters: 0 is DefaultPageCacheBytes, negative keeps none.
	PageCacheBytes int
}

// New is the one constructor of a Renderer used by the library, the
// command and the service: it starts the pool Config.Engine asks for
// (unless c.Converter is given) and picks the default rasterizer
// (DefaultRasterizer: pdftoppm, or mutool without poppler). With
// EngineAuto it starts the warm pool and, when that cannot run here
// (ErrNoBridge: python3-uno missing, or the bridge cannot reach
// LibreOffice), the batch pool; the Toolchain's Engine says which, and
// why. A missing LibreOffice is ErrNoRenderer with an installation hint.
// Close the Renderer when done.
func New(ctx context.Context, c Config) (*Renderer, error) {
	conv := c.Converter
	if conv == nil {
		var pool *Pool
		var err error
		switch c.Engine {
		case EngineWarm:
			pool, err = NewWarmPool(ctx, c.Pool)
		case EngineBatch:
			pool, err = NewPool(ctx, c.Pool)
		case EngineAuto:
			pool, err = NewWarmPool(ctx, c.Pool)
			if errors.Is(err, ErrNoBridge) {
				why := err
				if pool, err = NewPool(ctx, c.Pool); pool != nil {
					pool.fallback = why.Error()
				}
			}
		default:
			return nil, fmt.Errorf("render: unknown engine %q (want %q, %q or %q)", c.Engine, EngineAuto, EngineWarm, EngineBatch)
		}
		if err != nil {
			return nil, err
		}
		conv = pool
	}
	rz := c.Rasterizer
	if rz == nil {
		rz = DefaultRasterizer()
	}
	cache := c.PageCacheBytes
	if cache == 0 {
		cache = DefaultPageCacheBytes
	}
	r := &Renderer{Converter: conv, Raster: rz, DPI: c.DPI, MaxPages: c.MaxPages, Parallel: c.Parallel, Pages: NewPageCache(cache)}
	if pool, ok := conv.(*Pool); ok {
		r.cacheDir = pool.opts.CacheDir
	}
	return r, nil
}

// Close closes the Renderer's Converter. A nil Renderer closes as a no-op,
// so `defer r.Close()` is right whether or not one was started.
func (r *Renderer) Close() error {
	if r == nil || r.Converter == nil {
		return nil
	}
	return r.Converter.Close()
}

func (r *Renderer) dpi() int {
	if r.DPI > 0 {
		return r.DPI
	}
	return DefaultDPI
}

// DPIValue is the resolution the renderer rasterizes at.
func (r *Renderer) DPIValue() int { return r.dpi() }

func (r *Renderer) maxPages() int {
	if r.MaxPages > 0 {
		return r.MaxPages
	}
	return DefaultMaxPages
}

// ready says what a Renderer lacks before it can render.
func (r *Renderer) ready() error {
	if r.Converter == nil || r.Raster == nil {
		return fmt.Errorf("%w: Renderer needs a Converter and a Rasterizer (use New)", ErrNoRenderer)
	}
	return nil
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
	r.tc = toolchainOf(ctx, r.Converter, r.Raster, r.dpi(), r.cacheDir)
	return r.tc
}

// Render converts docPath and calls each for every page in order, one page
// at a time: page is 1-based, the Raster belongs to the callee (it is not
// reused), widthPt/heightPt are the page size in points as displayed. It returns the number of pages. A document that LibreOffice
// cannot render, or whose PDF has 0 pages, gives a *RenderError
// (ErrRenderFailed); a Hangul document is converted first (hwpx.go); unknown content gives ErrUnsupported; a missing
// LibreOffice or rasterizer gives ErrNoRenderer. An error returned by each
// stops the rendering and is returned as is.
func (r *Renderer) Render(ctx context.Context, docPath string, each func(page int, r *pixeldiff.Raster, widthPt, heightPt float64) error) (int, error) {
	if err := r.ready(); err != nil {
		return 0, err
	}
	cv, err := r.convertPDF(ctx, docPath)
	if err != nil {
		return 0, r.vet(ctx, docPath, err)
	}
	pdf := cv.pdf
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
	maxPages := r.maxPages()
	pages := 0
	var cbErr error
	err = r.Raster.Rasterize(ctx, pdf, r.dpi(), func(page int, ra *pixeldiff.Raster, w, h float64) error {
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
		return pages, r.vet(ctx, docPath, err)
	}
	if pages == 0 {
		return 0, r.vet(ctx, docPath, &RenderError{Doc: docPath, Reason: ReasonZeroPages, Detail: "LibreOffice's PDF has no pages"})
	}
	return pages, nil
}
