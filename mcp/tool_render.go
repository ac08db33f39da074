package mcp

import (
	"bytes"
	"context"
	"errors"
	"fmt"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/editaudit/editaudit/internal/plural"
	"github.com/editaudit/editaudit/pixeldiff"
	"github.com/editaudit/editaudit/render"
	"github.com/editaudit/editaudit/reports"
)

type renderArgs struct {
	Path       string `json:"path"`
	Show       *int   `json:"show"`
	ModelBytes int    `json:"model_bytes"`
}

// renderOut is the render tool's structured content: pages.json
// (editaudit.pages/v1; no image files, so Image is empty) and the pages
// attached as images.
type renderOut struct {
	*render.PagesFile
	Attached []int `json:"attached"`
}

func (s *Server) renderTool(ctx context.Context, c *call) (*sdk.CallToolResult, error) {
	var a renderArgs
	if err := c.decode(&a, "path", "show", "model_bytes"); err != nil {
		return nil, err
	}
	show, err := pageCount("show", a.Show, reports.DefaultCheckPages, maxPagesShown)
	if err != nil {
		return nil, err
	}
	mopts, err := modelOptions(a.ModelBytes)
	if err != nil {
		return nil, err
	}
	path, err := s.roots.file("path", a.Path)
	if err != nil {
		return nil, err
	}
	r, err := s.rendererFor(ctx)
	if err != nil {
		return nil, err
	}
	if r == nil {
		return nil, argError("%v", s.errNoRenderer())
	}
	c.step("rendering %s with LibreOffice", a.Path)
	var pages []reports.CheckPage
	doc, rerr := r.Describe(ctx, path, func(p *render.PageImage, ra *pixeldiff.Raster) error {
		c.step("page %d drawn", p.Page)
		if p.Page > show {
			return nil
		}
		var buf bytes.Buffer
		if err := pixeldiff.EncodeJPEG(&buf, pixeldiff.Fit(ra, 0), 85); err != nil {
			return err
		}
		pages = append(pages, reports.CheckPage{Page: p.Page, JPEG: buf.Bytes()})
		return nil
	})
	if doc == nil {
		return nil, rerr
	}
	doc.Path = a.Path
	for i := range pages {
		pages[i].Total = doc.Count
	}
	text := fmt.Sprintf("%s: %s at %d dpi (toolchain %s).", a.Path, plural.Of(doc.Count, "page", "pages"), r.DPIValue(), doc.ToolchainKey)
	if rerr != nil {
		what := "could not be drawn"
		if errors.Is(rerr, render.ErrUnsupported) {
			what = "is not a kind of document LibreOffice draws"
		}
		text = fmt.Sprintf("%s %s: %v", a.Path, what, rerr)
		if doc.Count > 0 {
			text += fmt.Sprintf(" (the first %s were drawn)", plural.Of(doc.Count, "page", "pages"))
		}
	}
	blocks, err := reports.PageBlocks(text, pages, show, mopts)
	if err != nil {
		return nil, err
	}
	out := renderOut{PagesFile: doc, Attached: attached(blocks, pages)}
	return &sdk.CallToolResult{Content: content(blocks), StructuredContent: out}, nil
}
