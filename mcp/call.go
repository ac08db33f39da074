package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/editaudit/editaudit/reports"
)

// toolError is a refusal the caller can act on (a path outside the roots,
// a missing file, a bad argument, an invalid spec): sent as a tool result
// with isError, its text the message and, when set, structured content.
type toolError struct {
	msg        string
	structured any
}

func (e *toolError) Error() string { return e.msg }

// argError is a refusal of the arguments.
func argError(format string, a ...any) error {
	return &toolError{msg: fmt.Sprintf(format, a...)}
}

// handler is one tool's work: it returns the result, or an error (a
// *toolError or *pathError is the caller's to fix; any other error means
// the tool could not do its job, and is said as such).
type handler func(ctx context.Context, c *call) (*sdk.CallToolResult, error)

// call is one tool call: its arguments and its progress.
type call struct {
	req  *sdk.CallToolRequest
	args json.RawMessage
	*progress
}

// decode reads the arguments into v strictly: an unknown argument or a
// wrong type is an error naming it (the SDK validates nothing: the tools
// are added with Server.AddTool, so that every message is editaudit's).
func (c *call) decode(v any, known ...string) error {
	args := c.args
	if len(bytes.TrimSpace(args)) == 0 || bytes.Equal(bytes.TrimSpace(args), []byte("null")) {
		args = []byte("{}")
	}
	dec := json.NewDecoder(bytes.NewReader(args))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		var te *json.UnmarshalTypeError
		switch {
		case errors.As(err, &te):
			return argError("argument %s: a %s, not a JSON %s", te.Field, jsonType(te.Type.Kind().String()), te.Value)
		case strings.HasPrefix(err.Error(), "json: unknown field "):
			sort.Strings(known)
			return argError("unknown argument %s (this tool takes %s)", strings.TrimPrefix(err.Error(), "json: unknown field "), strings.Join(known, ", "))
		}
		return argError("the arguments are not a JSON object: %v", err)
	}
	return nil
}

// jsonType names a Go kind as JSON does.
func jsonType(kind string) string {
	switch kind {
	case "string":
		return "string"
	case "bool":
		return "boolean"
	case "int", "int64", "float64":
		return "number"
	}
	return kind
}

// addTool registers a tool: its description, schemas and handler, behind
// the wrapper that logs the call, reports its progress and turns errors
// into tool errors.
func (s *Server) addTool(t *sdk.Tool, h handler) {
	s.srv.AddTool(t, func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		start := time.Now()
		c := &call{req: req, args: req.Params.Arguments, progress: startProgress(ctx, req)}
		res, err := h(ctx, c)
		c.progress.stop()
		outcome := "ok"
		var te *toolError
		var pe *pathError
		switch {
		case ctx.Err() != nil:
			outcome, err, res = "cancelled", ctx.Err(), nil
		case errors.As(err, &te):
			outcome, res, err = "refused", errorResult(te.msg, te.structured), nil
		case errors.As(err, &pe):
			outcome, res, err = "refused", errorResult(pe.Error(), nil), nil
		case err != nil:
			outcome = "failed"
			s.log.Error("tool failed", "tool", t.Name, "err", err.Error())
			res, err = errorResult(fmt.Sprintf("editaudit could not do its job (not a problem of the document or the arguments): %v", err), nil), nil
		case res.IsError:
			outcome = "refused"
		}
		s.log.Info("tool call", "tool", t.Name, "outcome", outcome, "seconds", time.Since(start).Seconds())
		if s.onDone != nil {
			s.onDone(t.Name, err)
		}
		return res, err
	})
}

// errorResult is a tool error: the text, and the structured content when
// there is some.
func errorResult(msg string, structured any) *sdk.CallToolResult {
	return &sdk.CallToolResult{IsError: true, Content: []sdk.Content{&sdk.TextContent{Text: msg}}, StructuredContent: structured}
}

// content turns model blocks (reports) into MCP content: text, and JPEG
// images.
func content(blocks []reports.Block) []sdk.Content {
	out := make([]sdk.Content, len(blocks))
	for i, b := range blocks {
		if b.JPEG != nil {
			out[i] = &sdk.ImageContent{Data: b.JPEG, MIMEType: "image/jpeg"}
		} else {
			out[i] = &sdk.TextContent{Text: b.Text}
		}
	}
	return out
}

// images counts the image blocks.
func images(blocks []reports.Block) int {
	n := 0
	for _, b := range blocks {
		if b.JPEG != nil {
			n++
		}
	}
	return n
}

// modelOptions reads the byte budget argument (0: the default).
func modelOptions(n int) (reports.ModelOptions, error) {
	if n == 0 {
		return reports.ModelOptions{MaxBytes: reports.DefaultModelBytes}, nil
	}
	if n < reports.MinModelBytes {
		return reports.ModelOptions{}, argError("model_bytes %d: at least %d (64 KiB)", n, reports.MinModelBytes)
	}
	return reports.ModelOptions{MaxBytes: n}, nil
}

// pageCount reads a number of pages to attach: def when absent (nil),
// none for 0, at most max.
func pageCount(arg string, v *int, def, max int) (int, error) {
	if v == nil {
		return def, nil
	}
	if *v < 0 || *v > max {
		return 0, argError("%s %d: a number of pages from 0 (none) to %d", arg, *v, max)
	}
	return *v, nil
}
