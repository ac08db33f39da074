package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/editaudit/editaudit/audit"
	"github.com/editaudit/editaudit/formats"
	"github.com/editaudit/editaudit/formats/inspect"
	"github.com/editaudit/editaudit/internal/fsutil"
	"github.com/editaudit/editaudit/internal/plural"
	"github.com/editaudit/editaudit/render"
	"github.com/editaudit/editaudit/reports"
	"github.com/editaudit/editaudit/synth"
)

// synthSchema is the synth tool's input schema: the spec's JSON Schema
// (synth.SchemaFor, what `editaudit synth --schema` prints) with one more
// top-level property, out, required beside format.
func synthSchema() (json.RawMessage, error) {
	var m map[string]any
	if err := json.Unmarshal(synth.SchemaFor(synth.Options{}), &m); err != nil {
		return nil, err
	}
	props, ok := m["properties"].(map[string]any)
	if !ok {
		return nil, errors.New("mcp: the spec schema has no properties")
	}
	if _, taken := props["out"]; taken {
		return nil, errors.New("mcp: the spec has a property out of its own")
	}
	props["out"] = map[string]any{"type": "string", "minLength": 1,
		"description": "Path of the document to write (replaced atomically when it exists), under the server's allowed folders. Ending in .pdf writes the rendered pages as a PDF instead."}
	req, _ := m["required"].([]any)
	m["required"] = append(req, "out")
	m["description"] = fmt.Sprint(m["description"]) + " Plus out: where to write it."
	return json.Marshal(m)
}

func (s *Server) synthTool(ctx context.Context, c *call) (*sdk.CallToolResult, error) {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(c.args, &raw); err != nil || raw == nil {
		return nil, refused(&synth.SpecErrors{Errors: []*synth.SpecError{{Path: "$", Msg: "the arguments must be a JSON object: the spec's properties and out"}}})
	}
	// out is the tool's; the rest is the spec, checked by synth (every
	// error at once, with its path), never by the SDK.
	var outErr *synth.SpecError
	var out, target string
	if o, ok := raw["out"]; !ok {
		outErr = &synth.SpecError{Path: "$.out", Msg: "missing: the path of the document to write, under " + s.roots.String()}
	} else if err := json.Unmarshal(o, &out); err != nil {
		outErr = &synth.SpecError{Path: "$.out", Msg: "must be a string (a path)"}
	} else if t, err := s.roots.target("out", out); err != nil {
		outErr = &synth.SpecError{Path: "$.out", Msg: err.Error()}
	} else {
		target = t
	}
	delete(raw, "out")
	specJSON, err := json.Marshal(raw)
	if err != nil {
		return nil, err
	}
	opts := synth.BuildOptions{Options: synth.Options{Artifacts: s.cfg.Artifacts}}
	spec, err := synth.Parse(bytes.NewReader(specJSON), opts.Options)
	var se *synth.SpecErrors
	if err != nil && !errors.As(err, &se) {
		return nil, err
	}
	if outErr != nil {
		if se == nil {
			se = &synth.SpecErrors{}
		}
		se.Errors = append([]*synth.SpecError{outErr}, se.Errors...)
	}
	if se != nil {
		return nil, refused(se)
	}
	if strings.EqualFold(filepath.Ext(out), ".pdf") {
		opts.To = "pdf"
	}
	s.waitStep(c)
	r, err := s.rendererFor(ctx)
	switch {
	case err != nil && (s.cfg.RenderMode == audit.RenderOn || opts.To == "pdf"):
		return nil, err
	case r != nil:
		opts.Converter = r
		opts.Exporter, _ = r.Converter.(render.Exporter)
	case opts.To == "pdf":
		return nil, argError("out %q: a PDF is drawn by LibreOffice, and %v", out, s.errNoRenderer())
	}
	c.step("writing the %s document", spec.Format)
	res, err := synth.Build(ctx, spec, opts)
	if errors.As(err, &se) {
		return nil, refused(se)
	}
	if err != nil {
		return nil, err
	}
	if err := fsutil.WriteFileAtomic(target, res.Data, 0o644); err != nil {
		return nil, err
	}
	w := res.WrittenAs(out)
	pages := "pages not counted (not rendered)"
	if w.Pages != nil {
		pages = plural.Of(*w.Pages, "page", "pages")
	}
	text := fmt.Sprintf("Wrote %s: %s, %s, sha256 %s.", out, res.Format, pages, w.SHA256)
	for _, n := range res.Notes {
		text += "\nNote: " + n
	}
	blocks := []reports.Block{{Text: text}}
	if res.Format != "pdf" {
		// What was written is checked as the check tool would, so that
		// the model sees the document it made.
		budget := reports.ModelOptions{MaxBytes: reports.DefaultModelBytes - len(text) - 64}
		more, err := s.checkWritten(ctx, c, target, out, budget)
		if err != nil {
			return nil, err
		}
		blocks = append(blocks, more...)
	}
	return &sdk.CallToolResult{Content: content(blocks), StructuredContent: w}, nil
}

// checkWritten is the check of a file synth wrote: its findings (none at
// fatal or error: Build refuses those) and its first pages, within budget.
func (s *Server) checkWritten(ctx context.Context, c *call, path, name string, budget reports.ModelOptions) ([]reports.Block, error) {
	rep, err := inspect.File(ctx, path, inspect.Options{})
	if err != nil {
		return nil, err
	}
	rep.Path = formats.EscapeName(name)
	pages, po, err := s.firstPages(ctx, c, rep.Format, path, reports.DefaultCheckPages)
	if err != nil {
		return nil, err
	}
	blocks, err := reports.CheckBlocks(rep, pages, reports.DefaultCheckPages, budget)
	if err != nil {
		return nil, err
	}
	if po.Status != "ok" && po.Message != "" {
		blocks = append(blocks, reports.Block{Text: "Pages not attached: " + po.Message})
	}
	return blocks, nil
}

// refused is a spec that synth refused, as a tool error: the command's
// text (every error with its path and cap) and editaudit.synth/v1.
func refused(se *synth.SpecErrors) error {
	return &toolError{msg: se.Text("synth"), structured: se.Refused()}
}
