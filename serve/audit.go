package serve

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/editaudit/editaudit/audit"
	"github.com/editaudit/editaudit/render"
	"github.com/editaudit/editaudit/reports"
)

// The form of POST /v1/audit.
var auditForm = form{
	files:  []string{"original", "edited"},
	fields: []string{"format", "render", "show", "model_bytes", "content", "original_sha256", "original_name", "edited_name"},
}

// contentTypes are the media types of the report formats.
var contentTypes = map[string]string{
	"text":  "text/plain; charset=utf-8",
	"json":  "application/json",
	"model": "application/json",
	"html":  "text/html; charset=utf-8",
	"sarif": "application/sarif+json",
}

// audit answers POST /v1/audit: the audit of edited against original (or
// the stored snapshot named by original_sha256), written as `editaudit
// audit --format F` prints it.
func (s *Server) audit(ctx context.Context, req *request) (*answer, error) {
	format, err := choice(req, "format", reports.FormatText, reports.AuditFormats)
	if err != nil {
		return nil, err
	}
	opts, err := s.renderOptions(req)
	if err != nil {
		return nil, err
	}
	show, err := showField(req, audit.DefaultShow)
	if err != nil {
		return nil, err
	}
	opts.Show, opts.Store = show, s.store
	if show == 0 {
		opts.Show = -1
	}
	mopts, err := modelBytesField(req)
	if err != nil {
		return nil, err
	}
	var note string
	if _, err := choice(req, "content", "on", []string{"on", "off"}); err != nil {
		return nil, err
	} else if _, given := req.fields["content"]; given {
		note = "the content field is accepted but this build has no content diff yet; it was ignored"
	}
	edited := req.files["edited"]
	if edited == nil {
		return nil, missing("edited", "the edited document (multipart file field \"edited\")")
	}
	orig, err := s.originalSource(req)
	if err != nil {
		return nil, err
	}
	defer closeSource(orig)
	ed, err := openSource(edited, name(req, "edited_name", edited, "edited"))
	if err != nil {
		return nil, err
	}
	defer closeSource(ed)
	res, err := audit.Reader(ctx, orig, ed, opts)
	if err != nil {
		return nil, s.auditErr(err)
	}
	var b bytes.Buffer
	if err := reports.WriteAudit(&b, res, format, reports.AuditOptions{Model: mopts}); err != nil {
		return nil, err
	}
	blocked := res.Blocked
	return &answer{contentType: contentTypes[format], body: b.Bytes(), blocked: &blocked, note: note}, nil
}

// originalSource is the original upload, or the stored snapshot named by
// original_sha256.
func (s *Server) originalSource(req *request) (audit.Source, error) {
	up := req.files["original"]
	sha, bySHA := req.fields["original_sha256"]
	switch {
	case up != nil && bySHA:
		return audit.Source{}, badField("original_sha256", "give either the file field \"original\" or the field \"original_sha256\", not both")
	case up != nil:
		return openSource(up, name(req, "original_name", up, "original"))
	case bySHA:
		sha = strings.ToLower(sha)
		if !audit.IsSHA256(sha) {
			return audit.Source{}, badField("original_sha256", "original_sha256 must be 64 hex digits (the sha256 of the original's bytes)")
		}
		n := req.fields["original_name"]
		if n == "" {
			n = "sha256:" + sha
		}
		return audit.Source{Name: n, SHA256: sha}, nil
	}
	return audit.Source{}, missing("original", "the original document (multipart file field \"original\", or \"original_sha256\" of one stored with POST /v1/baseline)")
}

// renderOptions reads the render field into audit options using the
// server's renderer.
func (s *Server) renderOptions(req *request) (audit.Options, error) {
	mode, err := choice(req, "render", audit.RenderAuto, []string{audit.RenderAuto, audit.RenderOn, audit.RenderOff})
	if err != nil {
		return audit.Options{}, err
	}
	if mode == audit.RenderOn && s.renderer == nil {
		return audit.Options{}, s.noRenderer()
	}
	if mode == audit.RenderOff || s.cfg.RenderMode == audit.RenderOff {
		// Never a renderer started for one request.
		return audit.Options{Render: audit.RenderOff}, nil
	}
	return audit.Options{Render: mode, Renderer: s.renderer}, nil
}

func (s *Server) noRenderer() *Error {
	why := "LibreOffice is not installed on the server"
	if s.cfg.RenderMode == audit.RenderOff {
		why = "the server runs with --render off"
	}
	return &Error{Status: http.StatusServiceUnavailable, Code: "renderer_unavailable", Field: "render",
		Message: "render=on but " + why + "; send render=auto or render=off"}
}

// auditErr maps the engine's errors to answers.
func (s *Server) auditErr(err error) error {
	switch {
	case errors.Is(err, audit.ErrNotInStore):
		return &Error{Status: http.StatusNotFound, Code: "not_in_store", Field: "original_sha256",
			Message: "the server's store does not hold the document original_sha256 names; store it first with POST /v1/baseline (field file), or send the original itself"}
	case errors.Is(err, render.ErrNoRenderer):
		return s.noRenderer()
	}
	return err
}

// openSource opens an upload for the engine under the given name.
func openSource(up *upload, name string) (audit.Source, error) {
	f, err := os.Open(up.Path)
	if err != nil {
		return audit.Source{}, err
	}
	return audit.Source{Name: name, R: f, Size: up.Size}, nil
}

func closeSource(s audit.Source) {
	if c, ok := s.R.(*os.File); ok {
		_ = c.Close()
	}
}

// name is what the report calls an upload: the field naming it when
// given, else the client's file name, else the field name with the
// upload's extension.
func name(req *request, field string, up *upload, fallback string) string {
	if n := req.fields[field]; n != "" {
		return clientLabel(n)
	}
	if up.Name != "" {
		return up.Name
	}
	return fallback + filepath.Ext(up.Path)
}

// clientLabel is a name the client gave for a report: as given (it may
// hold folders, to print what the CLI prints for a path), without control
// characters.
func clientLabel(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return -1
		}
		return r
	}, s)
}

// choice reads a field that takes one of values (def when absent).
func choice(req *request, field, def string, values []string) (string, error) {
	v, ok := req.fields[field]
	if !ok || v == "" {
		return def, nil
	}
	for _, x := range values {
		if v == x {
			return v, nil
		}
	}
	return "", badField(field, "%s %q: use %s", field, v, strings.Join(values, ", "))
}

// showField reads show: the number of changed pages given as images
// (0: none), as `--show`.
func showField(req *request, def int) (int, error) {
	v, ok := req.fields["show"]
	if !ok || v == "" {
		return def, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 || n > 1000 {
		return 0, badField("show", "show %q: a number of pages from 0 (none) to 1000", v)
	}
	return n, nil
}

func missing(field, what string) *Error {
	return &Error{Status: http.StatusBadRequest, Code: "missing_field", Field: field, Message: fmt.Sprintf("missing field %q: %s", field, what)}
}

// The form of POST /v1/baseline.
var baselineForm = form{files: []string{"file"}, fields: []string{"name"}}

// baseline answers POST /v1/baseline: the snapshot of file stored (for
// the server's renderer, and without rendering, so that audits with any
// render mode find it by original_sha256); the answer names its sha256.
func (s *Server) baseline(ctx context.Context, req *request) (*answer, error) {
	up := req.files["file"]
	if up == nil {
		return nil, missing("file", "the original document (multipart file field \"file\")")
	}
	data, err := os.ReadFile(up.Path)
	if err != nil {
		return nil, err
	}
	out, err := s.store.Keep(ctx, up.Path, name(req, "name", up, "file"), up.SHA256, data, s.renderer)
	if err != nil {
		return nil, s.auditErr(err)
	}
	var b bytes.Buffer
	if err := writeJSON(&b, out); err != nil {
		return nil, err
	}
	return &answer{contentType: "application/json", body: b.Bytes()}, nil
}
