package render

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"image/jpeg"
	"image/png"
	"io"
	"os"
	"path/filepath"

	"github.com/editaudit/editaudit/internal/fsutil"
	"github.com/editaudit/editaudit/pixeldiff"
)

// PagesSchema names the pages.json that WriteFolder writes (`editaudit
// render`).
const PagesSchema = "editaudit.pages/v1"

// Statuses of a rendering: pages.json's status, and the words baseline and
// audit use for pages.status (DESIGN.md), which add "off".
const (
	StatusOK          = "ok"
	StatusFailed      = "failed"
	StatusUnsupported = "unsupported"
)

// PagesFile is pages.json, the public schema editaudit.pages/v1: the page
// count, each page's size and pixel hash, and the toolchain that drew them.
type PagesFile struct {
	Schema       string      `json:"schema"`
	Path         string      `json:"path"`
	SHA256       string      `json:"sha256"`
	Status       string      `json:"status"` // StatusOK, StatusFailed, StatusUnsupported
	Message      string      `json:"message,omitempty"`
	Count        int         `json:"count"`
	Pages        []PageImage `json:"pages"`
	Toolchain    Toolchain   `json:"toolchain"`
	ToolchainKey string      `json:"toolchain_key"`
}

// PageImage is one page of a PagesFile.
type PageImage struct {
	Page     int     `json:"page"`
	WidthPt  float64 `json:"width_pt"`
	HeightPt float64 `json:"height_pt"`
	WidthPx  int     `json:"width_px"`
	HeightPx int     `json:"height_px"`
	SHA256   string  `json:"sha256"` // of the raw RGB pixels (Raster.Pix)
	Image    string  `json:"image"`
}

// Image formats of WriteFolder.
const (
	ImagePNG  = "png"
	ImageJPEG = "jpeg"
)

// FolderOptions say how WriteFolder renders. Config builds the Renderer
// (New); Image is ImagePNG (the default) or ImageJPEG.
type FolderOptions struct {
	Config Config
	Image  string
}

// WriteFolder renders the document at docPath into dir: page-001.png (or
// .jpg) per page and pages.json, each written atomically. A document
// LibreOffice cannot draw (ErrUnsupported, said before LibreOffice is
// started when the content tells; ErrRenderFailed) still gets a pages.json
// saying why, and the error is returned with it. A missing renderer
// (ErrNoRenderer), I/O errors and cancellation leave no pages.json.
func WriteFolder(ctx context.Context, docPath, dir string, opts FolderOptions) (*PagesFile, error) {
	ext := ".png"
	switch opts.Image {
	case "", ImagePNG:
	case ImageJPEG:
		ext = ".jpg"
	default:
		return nil, fmt.Errorf("render: image format %q: use %s or %s", opts.Image, ImagePNG, ImageJPEG)
	}
	sum, err := fsutil.SHA256File(docPath)
	if err != nil {
		return nil, err
	}
	doc := &PagesFile{Schema: PagesSchema, Path: docPath, SHA256: sum, Status: StatusOK, Pages: []PageImage{}}
	dpi := opts.Config.DPI
	if dpi <= 0 {
		dpi = DefaultDPI
	}
	if _, err := DetectFormat(docPath); errors.Is(err, ErrUnsupported) {
		rz := opts.Config.Rasterizer
		if rz == nil {
			rz = DefaultRasterizer()
		}
		doc.Toolchain = ToolchainOf(ctx, nil, rz, dpi)
		doc.ToolchainKey = doc.Toolchain.Key()
		doc.Status, doc.Message = StatusUnsupported, err.Error()
		if werr := writePagesJSON(dir, doc); werr != nil {
			return nil, werr
		}
		return doc, err
	}
	r, err := New(ctx, opts.Config)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	doc, rerr := r.Describe(ctx, docPath, func(p *PageImage, ra *pixeldiff.Raster) error {
		name := fmt.Sprintf("page-%03d%s", p.Page, ext)
		if err := fsutil.WriteAtomic(filepath.Join(dir, name), 0o644, func(wr io.Writer) error {
			return encodeImage(wr, ra, ext)
		}); err != nil {
			return fmt.Errorf("writing %s: %w", name, err)
		}
		p.Image = name
		return nil
	})
	if doc == nil {
		return nil, rerr
	}
	if err := writePagesJSON(dir, doc); err != nil {
		return nil, err
	}
	return doc, rerr
}

// Describe renders the document at docPath with r and describes its pages
// as pages.json does (PagesFile: sizes, pixel hashes, the toolchain),
// calling each with every page in order (it may set the page's Image, and
// must not keep the raster). A document LibreOffice cannot draw
// (ErrUnsupported, ErrRenderFailed) is described with the status and the
// message, and the error is returned with the description; the pages
// drawn before a failure are kept in it. A missing renderer, an error of
// each, I/O errors and cancellation return no description. It is what
// WriteFolder writes, with the caller's Renderer (a warm one shared by
// many calls, as editaudit mcp's render tool has).
func (r *Renderer) Describe(ctx context.Context, docPath string, each func(*PageImage, *pixeldiff.Raster) error) (*PagesFile, error) {
	sum, err := fsutil.SHA256File(docPath)
	if err != nil {
		return nil, err
	}
	doc := &PagesFile{Schema: PagesSchema, Path: docPath, SHA256: sum, Status: StatusOK, Pages: []PageImage{}}
	doc.Toolchain = r.Toolchain(ctx)
	doc.ToolchainKey = doc.Toolchain.Key()
	var eachErr error
	_, rerr := r.Render(ctx, docPath, func(page int, ra *pixeldiff.Raster, w, h float64) error {
		h256 := sha256.Sum256(ra.Pix)
		p := PageImage{Page: page, WidthPt: w, HeightPt: h, WidthPx: ra.W, HeightPx: ra.H, SHA256: hex.EncodeToString(h256[:])}
		if err := each(&p, ra); err != nil {
			eachErr = err
			return err
		}
		doc.Pages = append(doc.Pages, p)
		return nil
	})
	doc.Count = len(doc.Pages)
	if rerr != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		switch {
		case eachErr != nil:
			return nil, eachErr
		case errors.Is(rerr, ErrUnsupported):
			doc.Status, doc.Message = StatusUnsupported, rerr.Error()
		case errors.Is(rerr, ErrRenderFailed):
			doc.Status, doc.Message = StatusFailed, rerr.Error()
		default: // no renderer, I/O: nothing to describe in pages.json
			return nil, rerr
		}
	}
	return doc, rerr
}

// encodeImage writes ra as PNG (fast compression) or JPEG (quality 85).
func encodeImage(w io.Writer, ra *pixeldiff.Raster, ext string) error {
	bw := bufio.NewWriter(w)
	var err error
	if ext == ".png" {
		err = (&png.Encoder{CompressionLevel: png.BestSpeed}).Encode(bw, ra.RGBA())
	} else {
		err = jpeg.Encode(bw, ra.RGBA(), &jpeg.Options{Quality: 85})
	}
	if err != nil {
		return err
	}
	return bw.Flush()
}

// writePagesJSON writes dir/pages.json (creating dir).
func writePagesJSON(dir string, doc *PagesFile) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	return fsutil.WriteAtomic(filepath.Join(dir, "pages.json"), 0o644, func(wr io.Writer) error {
		enc := json.NewEncoder(wr)
		enc.SetIndent("", "  ")
		return enc.Encode(doc)
	})
}
