package baseline

import (
	"context"
	"errors"
	"fmt"
	"os"
	"runtime/debug"
	"strings"

	"github.com/editaudit/editaudit/formats"
	"github.com/editaudit/editaudit/formats/inspect"
	"github.com/editaudit/editaudit/pixeldiff"
	"github.com/editaudit/editaudit/render"
)

// Schema names the snapshot format on disk.
const Schema = "editaudit.baseline/v1"

// Page statuses of a snapshot. They are the words of the audit's
// pages.status (DESIGN.md): render's statuses plus "off"; audit re-exports
// these constants rather than defining its own.
const (
	PagesOK          = render.StatusOK
	PagesOff         = "off"
	PagesUnsupported = render.StatusUnsupported
	PagesFailed      = render.StatusFailed
)

// Pages is the rendered side of a snapshot: signatures, never rasters; the
// PDF is kept beside the snapshot so pages can be re-drawn when compared.
type Pages struct {
	Status  string              `json:"status"`
	Message string              `json:"message,omitempty"`
	Sigs    []pixeldiff.PageSig `json:"sigs,omitempty"`
	Sizes   [][2]float64        `json:"sizes,omitempty"`
	// Bands are the running header/footer bands detected on this document
	// (an original); its edits are signed with the same bands.
	Bands pixeldiff.Bands `json:"bands"`
	// PDFSHA256 is the hash of the stored PDF, checked on every load.
	PDFSHA256 string `json:"pdf_sha256,omitempty"`
	// Toolchain is the renderer fingerprint (render.Toolchain.String).
	Toolchain string `json:"toolchain,omitempty"`
	// Notice says the pages are an approximation (render.HWPXNotice for a
	// Hangul document); Notes list what its conversion left out.
	Notice string   `json:"notice,omitempty"`
	Notes  []string `json:"notes,omitempty"`
	// Transient: the pages failed for a reason that is not the document's
	// (render.DocumentsOwn false: a timeout under load, an external kill, a
	// full disk, a renderer that cannot render anything). A snapshot with
	// transient pages is never stored: the next audit renders again.
	Transient bool `json:"transient,omitempty"`

	pdfPath string                    // the rendered PDF until it is stored or removed
	cause   error                     // why the pages failed (fresh from RenderPages only)
	kept    map[int]*pixeldiff.Raster // rasters kept while signing (RenderPagesWith)
}

// Err is why the pages failed, for a Pages fresh from RenderPages (nil
// otherwise): errors.Is tells render.ErrRendererBroken from a timeout.
func (p Pages) Err() error { return p.cause }

// PDFPath is the rendered PDF of a Pages fresh from RenderPages ("" once
// stored, or when not rendered). The caller owns the file.
func (p Pages) PDFPath() string { return p.pdfPath }

// Kept are the page rasters a Pages fresh from RenderPagesWith kept, by
// page number (nil when none): drawn once for signing, reused to compare
// and show those pages.
func (p Pages) Kept() map[int]*pixeldiff.Raster { return p.kept }

// Snapshot is everything an audit needs of an original: its inspection
// report (findings, counts, sites) and its pages.
type Snapshot struct {
	Schema string `json:"schema"`
	// Engine identifies the editaudit build whose validators made Report:
	// a new build re-inspects instead of trusting old findings.
	Engine string          `json:"engine"`
	Report *formats.Report `json:"report"`
	Pages  Pages           `json:"pages"`
	// Key is the store key: sha256 of the original plus the toolchain key.
	Key string `json:"key"`

	pdf string // path of the PDF (in the store, or a temp file)
	tmp bool   // pdf is a temp file owned by the snapshot
}

// PDF returns the path of the original's rendered PDF ("" when not rendered).
func (s *Snapshot) PDF() string { return s.pdf }

// Close removes a temporary PDF (one not held by a store).
func (s *Snapshot) Close() error {
	if s.tmp && s.pdf != "" {
		err := os.Remove(s.pdf)
		s.pdf = ""
		return err
	}
	return nil
}

// EngineVersion identifies this build of the validators: the module's VCS
// revision when built from a checkout, else the module version.
func EngineVersion() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown"
	}
	rev, modified := "", ""
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				modified = "+dirty"
			}
		}
	}
	if rev != "" {
		return rev + modified
	}
	return bi.Main.Version
}

// Options say how to make a snapshot.
type Options struct {
	// Renderer renders pages; nil means do not render (Pages.Status off).
	Renderer *render.Renderer
	// Limits for inspection; zero means defaults.
	Limits formats.Limits
	// Data, when not nil, is the document's content the caller already
	// holds (a file it hashed, an upload written out for the renderer): it
	// is inspected instead of reading path again, so the snapshot is of
	// exactly those bytes.
	Data []byte
}

// ToolchainKey is the part of a store key that depends on rendering.
func ToolchainKey(ctx context.Context, r *render.Renderer) string {
	if r == nil {
		return "norender"
	}
	return r.Toolchain(ctx).Key()
}

// Make inspects the document at path (opts.Data when given) and, with a
// renderer, renders the file at path. A
// document LibreOffice cannot render gives Pages.Status failed or
// unsupported, not an error; errors are I/O, a missing renderer
// (render.ErrNoRenderer) and cancellation.
func Make(ctx context.Context, path string, opts Options) (*Snapshot, error) {
	rep, err := inspectDoc(ctx, path, opts)
	if err != nil {
		return nil, err
	}
	s := &Snapshot{Schema: Schema, Engine: EngineVersion(), Report: rep, Pages: Pages{Status: PagesOff}}
	s.Key = rep.SHA256 + "-" + ToolchainKey(ctx, opts.Renderer)
	if opts.Renderer == nil {
		return s, nil
	}
	pages, err := RenderPages(ctx, opts.Renderer, path, rep.Format, nil)
	if err != nil {
		return nil, err
	}
	s.Pages = pages
	if pages.Status == PagesOK {
		s.pdf, s.tmp = pages.pdfPath, true
	}
	return s, nil
}

// inspectDoc inspects opts.Data, or the file at path, under the name path.
func inspectDoc(ctx context.Context, path string, opts Options) (*formats.Report, error) {
	if opts.Data != nil {
		return inspect.Bytes(ctx, opts.Data, path, inspect.Options{Limits: opts.Limits})
	}
	return inspect.File(ctx, path, inspect.Options{Limits: opts.Limits})
}

// RenderPages renders a document and returns its page signatures, with the
// PDF path kept (unexported) for the caller to store or remove. A document
// that cannot be rendered is a Pages status, not an error; the error is for
// a missing renderer (render.ErrNoRenderer) and cancellation.
//
// bands nil detects the document's own bands (an original); an edited file
// passes its original's bands.
func RenderPages(ctx context.Context, r *render.Renderer, path string, f formats.Format, bands *pixeldiff.Bands) (Pages, error) {
	// An original's pages go into the renderer's page cache: its edits'
	// audits compare their changed pages with them.
	return RenderPagesWith(ctx, r, path, f, render.SignOptions{Bands: bands, Cache: bands == nil})
}

// RenderPagesWith is RenderPages with the signing options: the bands, and
// which page rasters to keep (Pages.Kept).
func RenderPagesWith(ctx context.Context, r *render.Renderer, path string, f formats.Format, so render.SignOptions) (Pages, error) {
	tc := r.Toolchain(ctx)
	if f == formats.Unknown {
		return Pages{Status: PagesUnsupported, Message: "the file is not a document LibreOffice can render", Toolchain: tc.String()}, nil
	}
	pp, err := r.Sign(ctx, path, so)
	if err != nil {
		if errors.Is(err, render.ErrNoRenderer) || ctx.Err() != nil {
			return Pages{}, errors.Join(ctx.Err(), err)
		}
		st := PagesFailed
		if errors.Is(err, render.ErrUnsupported) {
			st = PagesUnsupported
		}
		msg := err.Error()
		var re *render.RenderError
		if errors.Is(err, render.ErrRendererBroken) {
			msg = strings.TrimPrefix(msg, "render: ")
		} else if errors.As(err, &re) && re.Detail != "" {
			msg = fmt.Sprintf("%s (%s)", re.Detail, re.Reason)
		}
		transient := st == PagesFailed && !render.DocumentsOwn(err)
		if transient {
			msg += " — not the document's fault: not remembered, the next audit renders it again"
		}
		return Pages{Status: st, Message: msg, Toolchain: tc.String(), Transient: transient, cause: err}, nil
	}
	sum, err := fileSHA256(pp.PDF)
	if err != nil {
		_ = os.Remove(pp.PDF)
		return Pages{Status: PagesFailed, Message: fmt.Sprintf("reading the rendered PDF: %v", err), Toolchain: tc.String(), Transient: true}, nil
	}
	return Pages{Status: PagesOK, Sigs: pp.Sigs, Sizes: pp.Sizes, Bands: pp.Bands, PDFSHA256: sum, Toolchain: tc.String(),
		Notice: pp.Notice, Notes: pp.Notes, pdfPath: pp.PDF, kept: pp.Kept}, nil
}
