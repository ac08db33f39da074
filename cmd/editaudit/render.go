package main

import (
	"bufio"
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
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/editaudit/editaudit/pixeldiff"
	"github.com/editaudit/editaudit/pixeldiff/render"
)

// pagesJSON is the pages.json that `editaudit render` writes next to the
// page images.
type pagesJSON struct {
	Schema       string           `json:"schema"`
	Path         string           `json:"path"`
	SHA256       string           `json:"sha256"`
	Status       string           `json:"status"` // ok, failed, unsupported
	Message      string           `json:"message,omitempty"`
	Count        int              `json:"count"`
	Pages        []pageJSON       `json:"pages"`
	Toolchain    render.Toolchain `json:"toolchain"`
	ToolchainKey string           `json:"toolchain_key"`
}

type pageJSON struct {
	Page     int     `json:"page"`
	WidthPt  float64 `json:"width_pt"`
	HeightPt float64 `json:"height_pt"`
	WidthPx  int     `json:"width_px"`
	HeightPx int     `json:"height_px"`
	SHA256   string  `json:"sha256"` // of the raw RGB pixels (Raster.Pix)
	Image    string  `json:"image"`
}

func renderCommand() *cli.Command {
	return &cli.Command{
		Name:      "render",
		Usage:     "render a document's pages as images (inspection aid)",
		ArgsUsage: "FILE",
		Description: `render converts FILE to PDF with LibreOffice (headless) and draws every page
at --dpi, writing page-001.png (or .jpg) and pages.json to --out: the page
count, each page's size in points and pixels, the sha256 of its raw pixels
(equal hashes mean identical pages), and the toolchain fingerprint
(LibreOffice, rasterizer, dpi, installed fonts) that produced them.

Exit code 3 when LibreOffice is missing or the document cannot be rendered
(pages.json then says why).

Examples:
   editaudit render contract.docx
   editaudit render --out /tmp/deck --dpi 150 --format jpeg deck.pptx`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "out", Aliases: []string{"o"}, Usage: "output folder (default: FILE's name + \"-pages\", in the current folder)"},
			&cli.IntFlag{Name: "dpi", Value: render.DefaultDPI, Usage: "resolution, 10 to 600"},
			&cli.StringFlag{Name: "format", Aliases: []string{"f"}, Value: "png", Usage: "image format: png or jpeg"},
			&cli.StringFlag{Name: "rasterizer", Value: "auto", Usage: "PDF rasterizer: auto (pdftoppm if installed, else mutool), mutool or pdftoppm"},
		},
		Action: runRender,
	}
}

func runRender(c *cli.Context) error {
	if c.NArg() != 1 {
		return usageErr("render needs exactly one FILE (see editaudit render --help)")
	}
	path := c.Args().First()
	dpi := c.Int("dpi")
	if dpi < 10 || dpi > 600 {
		return usageErr("--dpi %d: use 10 to 600", dpi)
	}
	format := c.String("format")
	ext := map[string]string{"png": ".png", "jpeg": ".jpg", "jpg": ".jpg"}[format]
	if ext == "" {
		return usageErr("--format %q: use png or jpeg", format)
	}
	var rz render.Rasterizer
	switch c.String("rasterizer") {
	case "auto":
		rz = render.DefaultRasterizer()
	case "pdftoppm":
		rz = render.NewPdftoppm()
	case "mutool":
		rz = render.NewMutool()
	default:
		return usageErr("--rasterizer %q: use auto, pdftoppm or mutool", c.String("rasterizer"))
	}
	if _, err := os.Stat(path); err != nil {
		return usageErr("%v", err)
	}
	out := c.String("out")
	if out == "" {
		base := filepath.Base(path)
		out = strings.TrimSuffix(base, filepath.Ext(base)) + "-pages"
	}
	sum, err := fileSHA(path)
	if err != nil {
		return toolErr(err)
	}

	ctx := c.Context
	if _, err := render.DetectFormat(path); errors.Is(err, render.ErrUnsupported) {
		// Said without starting LibreOffice.
		tc := render.ToolchainOf(ctx, nil, rz, dpi)
		doc := pagesJSON{Schema: "editaudit.pages/v1", Path: path, SHA256: sum, Status: "unsupported", Message: err.Error(),
			Pages: []pageJSON{}, Toolchain: tc, ToolchainKey: tc.Key()}
		if werr := writePagesJSON(out, doc); werr != nil {
			return toolErr(werr)
		}
		return toolErr(err)
	}
	r, err := render.New(ctx, render.Config{Pool: render.PoolOptions{Workers: 1}, Rasterizer: rz, DPI: dpi})
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return toolErr(err)
	}
	defer r.Close()
	if err := os.MkdirAll(out, 0o755); err != nil {
		return toolErr(err)
	}
	tc := r.Toolchain(ctx)
	doc := pagesJSON{Schema: "editaudit.pages/v1", Path: path, SHA256: sum, Status: "ok",
		Pages: []pageJSON{}, Toolchain: tc, ToolchainKey: tc.Key()}
	_, rerr := r.Render(ctx, path, func(page int, ra *pixeldiff.Raster, w, h float64) error {
		name := fmt.Sprintf("page-%03d%s", page, ext)
		err := writeFileAtomic(filepath.Join(out, name), func(wr io.Writer) error {
			bw := bufio.NewWriter(wr)
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
		})
		if err != nil {
			return fmt.Errorf("writing %s: %w", name, err)
		}
		h256 := sha256.Sum256(ra.Pix)
		doc.Pages = append(doc.Pages, pageJSON{Page: page, WidthPt: w, HeightPt: h, WidthPx: ra.W, HeightPx: ra.H,
			SHA256: hex.EncodeToString(h256[:]), Image: name})
		return nil
	})
	doc.Count = len(doc.Pages)
	if rerr != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		switch {
		case errors.Is(rerr, render.ErrUnsupported):
			doc.Status, doc.Message = "unsupported", rerr.Error()
		case errors.Is(rerr, render.ErrRenderFailed):
			doc.Status, doc.Message = "failed", rerr.Error()
		default: // no renderer, I/O: nothing to describe in pages.json
			return toolErr(rerr)
		}
	}
	if err := writePagesJSON(out, doc); err != nil {
		return toolErr(err)
	}
	if rerr != nil {
		return toolErr(rerr)
	}
	fmt.Fprintf(c.App.Writer, "%s: %d pages at %d dpi → %s (pages.json; toolchain %s)\n", path, doc.Count, dpi, out, doc.ToolchainKey)
	return nil
}

// writePagesJSON writes dir/pages.json (creating dir).
func writePagesJSON(dir string, doc pagesJSON) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	return writeFileAtomic(filepath.Join(dir, "pages.json"), func(wr io.Writer) error {
		enc := json.NewEncoder(wr)
		enc.SetIndent("", "  ")
		return enc.Encode(doc)
	})
}
