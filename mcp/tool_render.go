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

// renderOut is the render tool's structured content: pages.json
// (editaudit.pages/v1; no image files, so Image is empty) and the pages
// attached as images.
type renderOut struct {
	*render.PagesFile
	Attached []int `json:"attached"`
}

func (s *Server) renderTool(ctx context.Context, c *call) (*sdk.CallToolResult, error) {
	d, err := s.docArgs(c)
	if err != nil {
		return nil, err
	}
	s.waitStep(c)
	r, err := s.rendererFor(ctx)
	if err != nil {
		return nil, err
	}
	if r == nil {
		return nil, argError("%v", s.errNoRenderer())
	}
	c.step("rendering %s with LibreOffice", d.name)
	var pages []reports.CheckPage
	doc, rerr := r.Describe(ctx, d.path, func(p *render.PageImage, ra *pixeldiff.Raster) error {
		c.step("page %d drawn", p.Page)
		if p.Page > d.show {
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
	doc.Path = d.name
	for i := range pages {
		pages[i].Total = doc.Count
	}
	text := fmt.Sprintf("%s: %s at %d dpi (toolchain %s).", d.name, plural.Of(doc.Count, "page", "pages"), r.DPIValue(), doc.ToolchainKey)
	if rerr != nil {
		what := "could not be drawn"
		if errors.Is(rerr, render.ErrUnsupported) {
			what = "is not a kind of document LibreOffice draws"
		}
		text = fmt.Sprintf("%s %s: %v", d.name, what, rerr)
		if doc.Count > 0 {
			text += fmt.Sprintf(" (the first %s were drawn)", plural.Of(doc.Count, "page", "pages"))
		}
	}
	blocks, err := reports.PageBlocks(text, pages, d.show, d.mopts)
	if err != nil {
		return nil, err
	}
	out := renderOut{PagesFile: doc, Attached: attached(blocks, pages)}
	return &sdk.CallToolResult{Content: content(blocks), StructuredContent: out}, nil
}
