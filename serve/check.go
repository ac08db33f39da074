package serve

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"os"
	"strconv"

	"github.com/editaudit/editaudit/audit"
	"github.com/editaudit/editaudit/formats"
	"github.com/editaudit/editaudit/formats/inspect"
	"github.com/editaudit/editaudit/render"
	"github.com/editaudit/editaudit/reports"
)

// The form of POST /v1/check.
var checkForm = form{files: []string{"file"}, fields: []string{"format", "render", "show", "model_bytes", "parts", "name"}}

// check answers POST /v1/check: the check of a new file, written as
// `editaudit check --format F FILE` prints it; X-Editaudit-Blocked is true
// when it has a fatal finding (the command's exit 1).
func (s *Server) check(ctx context.Context, req *request) (*answer, error) {
	format, err := choice(req, "format", reports.FormatText, reports.CheckFormats)
	if err != nil {
		return nil, err
	}
	mode, err := choice(req, "render", audit.RenderAuto, []string{audit.RenderAuto, audit.RenderOn, audit.RenderOff})
	if err != nil {
		return nil, err
	}
	show, err := showField(req, reports.DefaultCheckPages)
	if err != nil {
		return nil, err
	}
	mopts, err := modelBytesField(req)
	if err != nil {
		return nil, err
	}
	parts, err := boolField(req, "parts")
	if err != nil {
		return nil, err
	}
	up := req.files["file"]
	if up == nil {
		return nil, missing("file", "the document to check (multipart file field \"file\")")
	}
	data, err := os.ReadFile(up.Path)
	if err != nil {
		return nil, err
	}
	rep, err := inspect.Bytes(ctx, data, name(req, "name", up, "file"), inspect.Options{})
	if err != nil {
		return nil, err
	}
	opts := reports.CheckOptions{Parts: parts, PageCap: show, Model: mopts}
	var note string
	if format == reports.FormatModel || format == reports.FormatHTML {
		opts.Pages, note, err = s.checkPages(ctx, mode, rep, up.Path, show)
		if err != nil {
			return nil, err
		}
	}
	var b bytes.Buffer
	if err := reports.WriteCheck(&b, []*formats.Report{rep}, format, opts); err != nil {
		return nil, err
	}
	fatal := rep.Fatal()
	return &answer{contentType: contentTypes[format], body: b.Bytes(), blocked: &fatal, note: note}, nil
}

// checkPages renders the first pages of a new file as the command does for
// --format model and html: not for render=off or unknown content;
// with render=auto a page that cannot be drawn is said in the note and the
// report goes without it; with render=on it is an error.
func (s *Server) checkPages(ctx context.Context, mode string, rep *formats.Report, path string, n int) ([]reports.CheckPage, string, error) {
	if mode == audit.RenderOff || rep.Format == formats.Unknown {
		return nil, "", nil
	}
	if s.renderer == nil {
		if mode == audit.RenderOn {
			return nil, "", s.noRenderer()
		}
		return nil, "", nil
	}
	jpegs, total, err := s.renderer.FirstPagesJPEG(ctx, path, n)
	if err != nil {
		if ctx.Err() != nil {
			return nil, "", ctx.Err()
		}
		if mode == audit.RenderOn {
			if errors.Is(err, render.ErrRenderFailed) || errors.Is(err, render.ErrUnsupported) {
				return nil, "", &Error{Status: http.StatusUnprocessableEntity, Code: "render_failed", Field: "file", Message: "render=on: " + err.Error()}
			}
			return nil, "", err
		}
		return nil, "pages not attached: " + err.Error(), nil
	}
	var pages []reports.CheckPage
	for _, p := range jpegs {
		pages = append(pages, reports.CheckPage{Page: p.Page, Total: total, JPEG: p.JPEG})
	}
	return pages, "", nil
}

// modelBytesField reads model_bytes, the byte budget of the model format
// (`--model-bytes`; check: html too).
func modelBytesField(req *request) (reports.ModelOptions, error) {
	v, ok := req.fields["model_bytes"]
	if !ok || v == "" {
		return reports.ModelOptions{MaxBytes: reports.DefaultModelBytes}, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < reports.MinModelBytes {
		return reports.ModelOptions{}, badField("model_bytes", "model_bytes %q: a number of bytes, at least %d (64 KiB)", v, reports.MinModelBytes)
	}
	return reports.ModelOptions{MaxBytes: n}, nil
}

// boolField reads a true/false field (absent: false).
func boolField(req *request, field string) (bool, error) {
	v, ok := req.fields[field]
	if !ok || v == "" {
		return false, nil
	}
	b, err := strconv.ParseBool(v)
	if err != nil {
		return false, badField(field, "%s %q: use true or false", field, v)
	}
	return b, nil
}

// writeJSON writes v as the CLI's JSON writers do: indented by two spaces,
// HTML characters unescaped, newline-terminated.
func writeJSON(b *bytes.Buffer, v any) error {
	enc := json.NewEncoder(b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
