package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/editaudit/editaudit/audit"
	"github.com/editaudit/editaudit/baseline"
	"github.com/editaudit/editaudit/formats"
	"github.com/editaudit/editaudit/reports"
)

type auditArgs struct {
	Original       string `json:"original"`
	OriginalSHA256 string `json:"original_sha256"`
	Edited         string `json:"edited"`
	Restore        bool   `json:"restore"`
	Show           *int   `json:"show"`
	ModelBytes     int    `json:"model_bytes"`
}

// auditCounts is the audit at a glance, in the structured content beside
// editaudit.audit/v1.
type auditCounts struct {
	NewFindings    formats.Tally `json:"new_findings"`
	Preexisting    formats.Tally `json:"preexisting"`
	Resolved       int           `json:"resolved"`
	Shrunk         int           `json:"shrunk"`
	ContentChanges int           `json:"content_changes"`
	PagesChanged   int           `json:"pages_changed"`
	PagesInserted  int           `json:"pages_inserted"`
	PagesDeleted   int           `json:"pages_deleted"`
	// Images is the number of page images in the content.
	Images int `json:"images"`
}

func countsOf(r *audit.Result, imgs int) auditCounts {
	c := auditCounts{NewFindings: formats.TallyOf(r.NewFindings), Preexisting: r.Preexisting, Resolved: len(r.Resolved),
		Shrunk: len(r.Structure.Shrunk), PagesChanged: len(r.Pages.Changed), PagesInserted: len(r.Pages.Inserted),
		PagesDeleted: len(r.Pages.Deleted), Images: imgs}
	if r.Content != nil {
		c.ContentChanges = len(r.Content.Changes) + r.Content.Truncated
	}
	return c
}

func (s *Server) auditTool(ctx context.Context, c *call) (*sdk.CallToolResult, error) {
	var a auditArgs
	if err := c.decode(&a, "original", "original_sha256", "edited", "restore", "show", "model_bytes"); err != nil {
		return nil, err
	}
	show, err := pageCount("show", a.Show, audit.DefaultShow, maxPagesShown)
	if err != nil {
		return nil, err
	}
	mopts, err := modelOptions(a.ModelBytes)
	if err != nil {
		return nil, err
	}
	if (a.Original == "") == (a.OriginalSHA256 == "") {
		return nil, argError("give the original either as original (its path) or as original_sha256 (the sha256 the baseline tool returned), not both and not neither")
	}
	if a.Edited == "" {
		return nil, argError("edited is missing: the path of the edited document")
	}
	edited, err := s.roots.file("edited", a.Edited)
	if err != nil {
		return nil, err
	}
	origName := a.Original
	var orig string
	if a.Original != "" {
		if orig, err = s.roots.file("original", a.Original); err != nil {
			return nil, err
		}
	} else {
		sha := strings.ToLower(a.OriginalSHA256)
		origName = "sha256:" + sha
		dir, cleanup, err := tempDir()
		if err != nil {
			return nil, err
		}
		defer cleanup()
		if orig, err = s.storedOriginal(sha, dir, filepath.Ext(edited)); err != nil {
			return nil, err
		}
	}
	opts := audit.Options{Store: s.store, Show: show, Restore: a.Restore, Render: audit.RenderAuto}
	if show == 0 {
		opts.Show = -1
	}
	s.waitStep(c)
	r, err := s.rendererFor(ctx)
	switch {
	case s.cfg.RenderMode == audit.RenderOff:
		opts.Render = audit.RenderOff
	case err != nil && s.cfg.RenderMode == audit.RenderOn:
		return nil, err
	case err != nil:
		// Auto with a LibreOffice that could not start: the audit tries
		// again and says in pages.status what failed.
	default:
		opts.Renderer = r
		if r == nil {
			opts.Render = audit.RenderAuto // not installed: pages.message says so
		}
	}
	c.step("auditing %s against %s", a.Edited, origName)
	res, err := audit.Files(ctx, orig, edited, opts)
	if err != nil {
		if errors.Is(err, audit.ErrEditedChanged) {
			return nil, argError("%v", err)
		}
		return nil, err
	}
	res.Original.Path, res.Edited.Path = formats.EscapeName(origName), formats.EscapeName(a.Edited)
	c.step("fitting the page images into %d bytes", mopts.MaxBytes)
	blocks, err := reports.AuditBlocks(res, mopts)
	if err != nil {
		return nil, err
	}
	structured, err := withField(res, "counts", countsOf(res, images(blocks)))
	if err != nil {
		return nil, err
	}
	return &sdk.CallToolResult{Content: content(blocks), StructuredContent: structured}, nil
}

// storedOriginal writes the original the store holds under sha into dir
// (as original+ext, so that the renderer knows its kind) and returns its
// path; one the store does not hold is the caller's to fix.
func (s *Server) storedOriginal(sha, dir, ext string) (string, error) {
	if !audit.IsSHA256(sha) {
		return "", argError("original_sha256 %q: 64 hex digits, the sha256 the baseline tool returned", sha)
	}
	data, err := s.store.Document(sha)
	if errors.Is(err, baseline.ErrNotFound) {
		return "", argError("original_sha256 %s: this server's store does not hold that document; store it first with the baseline tool, or give original (its path)", sha)
	}
	if err != nil {
		return "", err
	}
	p := filepath.Join(dir, "original"+ext)
	return p, os.WriteFile(p, data, 0o600)
}

// withField is v's JSON object (as the CLI's JSON writer makes it) with
// one more field.
func withField(r *audit.Result, key string, val any) (json.RawMessage, error) {
	var b bytes.Buffer
	if err := reports.WriteJSON(&b, r); err != nil {
		return nil, err
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b.Bytes(), &m); err != nil {
		return nil, err
	}
	v, err := json.Marshal(val)
	if err != nil {
		return nil, err
	}
	m[key] = v
	return json.Marshal(m)
}
