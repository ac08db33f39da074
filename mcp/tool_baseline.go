package mcp

import (
	"context"
	"fmt"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/editaudit/editaudit/audit"
	"github.com/editaudit/editaudit/formats"
	"github.com/editaudit/editaudit/internal/fsutil"
	"github.com/editaudit/editaudit/render"
)

type baselineArgs struct {
	Path string `json:"path"`
}

// baselineTool stores the snapshot of an original (findings, structure,
// rendered pages) so that a later audit compares against it, named by
// the sha256 it returns, even after the file itself was overwritten.
func (s *Server) baselineTool(ctx context.Context, c *call) (*sdk.CallToolResult, error) {
	var a baselineArgs
	if err := c.decode(&a, "path"); err != nil {
		return nil, err
	}
	path, err := s.roots.file("path", a.Path)
	if err != nil {
		return nil, err
	}
	data, err := fsutil.ReadRegular(path, formats.DefaultLimits().MaxFileSize)
	if err != nil {
		return nil, err
	}
	var r *render.Renderer
	if s.cfg.RenderMode != audit.RenderOff {
		s.waitStep(c)
		if r, err = s.rendererFor(ctx); err != nil && s.cfg.RenderMode == audit.RenderOn {
			return nil, err
		}
	}
	c.step("storing the snapshot of %s", a.Path)
	rec, err := s.store.Keep(ctx, path, formats.EscapeName(a.Path), sha256Of(data), data, r)
	if err != nil {
		return nil, err
	}
	text := fmt.Sprintf("%s: %s as sha256 %s (%s, %d findings, pages %s %d). Audit an edit of it with audit {\"original_sha256\": %q, \"edited\": …}, or keep giving original by its path.",
		a.Path, rec.Stored, rec.SHA256, rec.Format, rec.Findings, rec.Pages.Status, rec.Pages.Count, rec.SHA256)
	if rec.Pages.Message != "" {
		text += " Pages: " + rec.Pages.Message
	}
	return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: text}}, StructuredContent: rec}, nil
}
