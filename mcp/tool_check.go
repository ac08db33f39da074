package mcp

import (
	"context"
	"errors"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/editaudit/editaudit/formats"
	"github.com/editaudit/editaudit/formats/inspect"
	"github.com/editaudit/editaudit/render"
	"github.com/editaudit/editaudit/reports"
)

// docArgs are the arguments of check and render: a document, and how
// many of its first pages to attach as images within which budget.
type docArgs struct {
	Path       string `json:"path"`
	Show       *int   `json:"show"`
	ModelBytes int    `json:"model_bytes"`
}

// doc is docArgs checked: the resolved path and the page cap and budget.
type doc struct {
	name, path string
	show       int
	mopts      reports.ModelOptions
}

// docArgs reads and checks the arguments of check and render.
func (s *Server) docArgs(c *call) (doc, error) {
	var a docArgs
	if err := c.decode(&a, "path", "show", "model_bytes"); err != nil {
		return doc{}, err
	}
	show, err := pageCount("show", a.Show, reports.DefaultCheckPages, maxPagesShown)
	if err != nil {
		return doc{}, err
	}
	mopts, err := modelOptions(a.ModelBytes)
	if err != nil {
		return doc{}, err
	}
	path, err := s.roots.file("path", a.Path)
	if err != nil {
		return doc{}, err
	}
	return doc{name: a.Path, path: path, show: show, mopts: mopts}, nil
}

// checkOut is the check tool's structured content: editaudit.check/v1
// and what became of the pages.
type checkOut struct {
	reports.CheckJSON
	Pages pagesOut `json:"pages"`
}

// pagesOut says which pages of a document are attached as images.
type pagesOut struct {
	// Status is "ok", "off" (not asked for, or not rendered here),
	// "unsupported" or "failed" (Message says why).
	Status   string `json:"status"`
	Message  string `json:"message,omitempty"`
	Count    int    `json:"count"`
	Attached []int  `json:"attached"`
}

func (s *Server) check(ctx context.Context, c *call) (*sdk.CallToolResult, error) {
	d, err := s.docArgs(c)
	if err != nil {
		return nil, err
	}
	c.step("validating %s", d.name)
	rep, err := inspect.File(ctx, d.path, inspect.Options{})
	if err != nil {
		return nil, err
	}
	rep.Path = formats.EscapeName(d.name)
	pages, po, err := s.firstPages(ctx, c, rep.Format, d.path, d.show)
	if err != nil {
		return nil, err
	}
	blocks, err := reports.CheckBlocks(rep, pages, d.show, d.mopts)
	if err != nil {
		return nil, err
	}
	po.Attached = attached(blocks, pages)
	if po.Message != "" && po.Status != "ok" && d.show > 0 {
		blocks = append(blocks, reports.Block{Text: "Pages not attached: " + po.Message})
	}
	return &sdk.CallToolResult{Content: content(blocks), StructuredContent: checkOut{CheckJSON: reports.CheckJSONOf(rep, false), Pages: po}}, nil
}

// maxPagesShown bounds show: the renderer's own page cap.
const maxPagesShown = render.DefaultMaxPages

// firstPages renders the first n pages of a document for a check: none
// when n is 0, for content that is no document, or without a renderer
// (said in the pagesOut); a page that cannot be drawn is said there too,
// never an error of the call.
func (s *Server) firstPages(ctx context.Context, c *call, f formats.Format, path string, n int) ([]reports.CheckPage, pagesOut, error) {
	po := pagesOut{Status: "off", Attached: []int{}}
	if n == 0 {
		po.Message = "no pages asked for (show 0)"
		return nil, po, nil
	}
	if f == formats.Unknown {
		po.Status, po.Message = "unsupported", "not a document editaudit renders"
		return nil, po, nil
	}
	s.waitStep(c)
	r, err := s.rendererFor(ctx)
	if err != nil {
		po.Status, po.Message = "failed", err.Error()
		return nil, po, ctx.Err()
	}
	if r == nil {
		po.Message = s.errNoRenderer().Error()
		return nil, po, nil
	}
	c.step("rendering the pages with LibreOffice")
	jpegs, total, err := r.FirstPagesJPEG(ctx, path, n)
	if err != nil {
		if ctx.Err() != nil {
			return nil, po, ctx.Err()
		}
		po.Status, po.Message = "failed", err.Error()
		if errors.Is(err, render.ErrUnsupported) {
			po.Status = "unsupported"
		}
		return nil, po, nil
	}
	po.Status, po.Count = "ok", total
	pages := make([]reports.CheckPage, len(jpegs))
	for i, p := range jpegs {
		pages[i] = reports.CheckPage{Page: p.Page, Total: total, JPEG: p.JPEG}
	}
	return pages, po, nil
}

// attached lists the page numbers whose images are in blocks (the budget
// may have left the last ones out).
func attached(blocks []reports.Block, pages []reports.CheckPage) []int {
	out := []int{}
	for i := range min(images(blocks), len(pages)) {
		out = append(out, pages[i].Page)
	}
	return out
}
