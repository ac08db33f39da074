package audit

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/editaudit/editaudit/baseline"
	"github.com/editaudit/editaudit/formats"
	"github.com/editaudit/editaudit/formats/inspect"
	"github.com/editaudit/editaudit/pixeldiff"
)

// Render modes (DESIGN.md --render).
const (
	// RenderAuto renders when LibreOffice is installed and otherwise says
	// so in pages.status/pages.message.
	RenderAuto = "auto"
	// RenderOn makes a missing renderer an error (pixeldiff.ErrNoRenderer).
	RenderOn = "on"
	// RenderOff never renders.
	RenderOff = "off"
)

// DefaultShow is how many changed pages are shown as before/after images.
const DefaultShow = 3

// Options tune an audit. The zero value audits without rendering, without
// a store, writing nothing.
type Options struct {
	// Render is RenderAuto, RenderOn or RenderOff ("" = off for the
	// library; the CLI defaults to auto).
	Render string
	// Renderer renders pages. When nil and rendering is asked for, Files
	// starts one (a LibreOffice pool) for this call and closes it after.
	// Share one Renderer across many audits to keep LibreOffice warm.
	Renderer *pixeldiff.Renderer
	// Store caches snapshots of originals; nil makes them per call.
	Store *baseline.Store
	// Show is the number of changed pages given as before/after images
	// (DefaultShow when 0; negative: none).
	Show int
	// OutDir, when set, receives the page composites (pages/*.jpg) and,
	// with Restore, the rejected file.
	OutDir string
	// Restore puts the original back at the edited path when blocked.
	Restore bool
	// Limits bound the inspection; zero means defaults.
	Limits formats.Limits
	// Compare tunes the page comparison.
	Compare pixeldiff.CompareOptions
}

func (o Options) show() int {
	switch {
	case o.Show == 0:
		return DefaultShow
	case o.Show < 0:
		return 0
	}
	return o.Show
}

// ErrNoRenderer is returned with RenderOn when LibreOffice is missing.
var ErrNoRenderer = pixeldiff.ErrNoRenderer

// Files audits the edit that turned the document at originalPath into the
// one at editedPath. The error is for the tool failing (I/O, a missing
// renderer with RenderOn, cancellation); a broken document is findings.
// Nothing is written to either input unless opts.Restore is set and the
// edit is blocked.
func Files(ctx context.Context, originalPath, editedPath string, opts Options) (*Result, error) {
	renderer, closeR, err := opts.renderer(ctx)
	if err != nil {
		return nil, err
	}
	defer closeR()
	origBytes, err := os.ReadFile(originalPath)
	if err != nil {
		return nil, err
	}
	editedBytes, err := os.ReadFile(editedPath)
	if err != nil {
		return nil, err
	}
	// The original's snapshot: from the store when it has it.
	snapOpts := baseline.Options{Renderer: renderer, Limits: opts.Limits}
	var snap *baseline.Snapshot
	if opts.Store != nil {
		snap, _, err = opts.Store.Snapshot(ctx, originalPath, sha256Hex(origBytes), snapOpts)
	} else {
		snap, err = baseline.Make(ctx, originalPath, snapOpts)
	}
	if err != nil {
		return nil, wrapRenderErr(err)
	}
	defer snap.Close()
	edited, err := inspect.Bytes(ctx, editedBytes, editedPath, inspect.Options{Limits: opts.Limits})
	if err != nil {
		return nil, err
	}
	res := compareReports(snap.Report, edited)
	res.Original.Path, res.Edited.Path = originalPath, editedPath

	// Pages.
	switch {
	case renderer == nil && opts.Render == RenderAuto:
		res.Pages = Pages{Status: PagesFailed, Message: renderOffMessage(opts.Render)}
	case renderer == nil:
		res.Pages = Pages{Status: PagesOff, Message: renderOffMessage(opts.Render)}
	default:
		var bands *pixeldiff.Bands
		if snap.Pages.Status == baseline.PagesOK {
			bands = &snap.Pages.Bands
		}
		ep, err := baseline.RenderPages(ctx, renderer, editedPath, edited.Format, bands)
		if err != nil {
			return nil, wrapRenderErr(err)
		}
		if p := ep.PDFPath(); p != "" {
			defer os.Remove(p)
		}
		res.Pages = comparePages(ctx, renderer, snap, ep, opts)
	}
	res.Original.Pages, res.Edited.Pages = res.Pages.Before, res.Pages.After

	// Gate: blocked if and only if the edit introduced a fatal finding.
	res.Blocked = formats.HasFatal(res.NewFindings)
	if res.Blocked && opts.Restore {
		rej := rejectedPath(editedPath, edited.Format, opts.OutDir)
		if err := restore(editedPath, origBytes, editedBytes, rej); err != nil {
			return nil, err
		}
		res.Restored = true
		res.RejectedCopy = rej
		if opts.OutDir != "" {
			if rel, err := filepath.Rel(opts.OutDir, rej); err == nil {
				res.RejectedCopy = rel
			}
		}
	}
	res.Feedback = Feedback(res, FeedbackOptions{})
	return res, nil
}

// compareReports fills the finding and structure parts of a Result.
func compareReports(orig, edited *formats.Report) *Result {
	added, resolved := diffFindings(orig.Findings, edited.Findings)
	res := &Result{
		Schema:      Schema,
		Original:    FileInfo{Path: orig.Path, SHA256: orig.SHA256, Format: orig.Format},
		Edited:      FileInfo{Path: edited.Path, SHA256: edited.SHA256, Format: edited.Format},
		NewFindings: nonNil(added),
		Resolved:    nonNil(resolved),
		Preexisting: formats.TallyOf(orig.Findings),
		Structure:   diffStructure(orig, edited),
	}
	return res
}

func sha256Hex(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// rejectedPath is where a blocked edit's bytes are kept: OutDir/rejected.ext,
// or beside the edited file as NAME.rejected.ext without an OutDir.
func rejectedPath(editedPath string, f formats.Format, outDir string) string {
	ext := strings.ToLower(filepath.Ext(editedPath))
	if ext == "" {
		ext = f.Ext()
	}
	if outDir != "" {
		return filepath.Join(outDir, "rejected"+ext)
	}
	base := strings.TrimSuffix(editedPath, filepath.Ext(editedPath))
	return base + ".rejected" + ext
}

// renderer returns the renderer to use (nil: do not render) and a func to
// release one started for this call.
func (o Options) renderer(ctx context.Context) (*pixeldiff.Renderer, func(), error) {
	mode := o.Render
	if mode == "" || mode == RenderOff {
		return nil, func() {}, nil
	}
	if o.Renderer != nil {
		return o.Renderer, func() {}, nil
	}
	pool, err := pixeldiff.NewPool(ctx, pixeldiff.PoolOptions{Workers: 1})
	if err != nil {
		if errors.Is(err, pixeldiff.ErrNoRenderer) && mode == RenderAuto {
			return nil, func() {}, nil
		}
		return nil, nil, wrapRenderErr(err)
	}
	r := &pixeldiff.Renderer{Pool: pool, Raster: pixeldiff.NewPdftoppm()}
	return r, func() { pool.Close() }, nil
}

func renderOffMessage(mode string) string {
	if mode == RenderAuto {
		return "LibreOffice is not installed, so pages were not rendered or compared (install libreoffice-writer-nogui, -calc-nogui, -impress-nogui and poppler-utils, or pass --render off to silence this)"
	}
	return "rendering was not asked for (--render off)"
}

func wrapRenderErr(err error) error {
	if errors.Is(err, pixeldiff.ErrNoRenderer) {
		return fmt.Errorf("%w (install LibreOffice and poppler-utils: apt-get install libreoffice-writer-nogui libreoffice-calc-nogui libreoffice-impress-nogui poppler-utils; or use --render off)", err)
	}
	return err
}

// StartRenderer returns the renderer opts ask for (nil for off, or auto
// without LibreOffice) and a func that releases it.
func StartRenderer(ctx context.Context, opts Options) (*pixeldiff.Renderer, func(), error) {
	return opts.renderer(ctx)
}
