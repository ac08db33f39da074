package serve

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/editaudit/editaudit/audit"
	"github.com/editaudit/editaudit/baseline"
	"github.com/editaudit/editaudit/pixeldiff"
	"github.com/editaudit/editaudit/synth"
)

// warmSpecs are the documents rendered once at start-up, one per
// LibreOffice application (Writer, Impress, Calc), so that the first
// request does not pay for loading them, and a LibreOffice that cannot
// render at all is seen before /healthz says ready. %d is the attempt:
// each attempt renders other bytes, since the pool quarantines a document
// that failed twice (a warm-up killed by a deadline on a loaded machine
// must be able to succeed later).
var warmSpecs = []struct{ ext, spec string }{
	{".docx", `{"format":"docx","docx":{"body":[{"heading":{"level":1,"text":"editaudit warm-up"}},{"paragraph":{"text":"A page rendered when the service starts (attempt %d)."}}]}}`},
	{".pptx", `{"format":"pptx","pptx":{"slides":[{"title":"editaudit warm-up","body":[{"text":"A slide rendered when the service starts (attempt %d)."}]}]}}`},
	{".xlsx", `{"format":"xlsx","xlsx":{"sheets":[{"name":"Warm-up","rows":[["editaudit warm-up (attempt %d)",1],["sum","=B1+1"]]}]}}`},
}

// warmRetry is the pause between two warm-up attempts.
const warmRetry = 15 * time.Second

// warm renders the warm-up documents and computes the toolchain
// fingerprint (the store key of every snapshot), then marks the server
// ready. Without LibreOffice (render auto) there is nothing to warm: the
// server is ready and audits say in pages.status that pages were not
// rendered, as the CLI does. A failed warm-up is logged, shown by /healthz
// (503 with the reason) and tried again until it succeeds or the server
// closes.
func (s *Server) warm() {
	defer close(s.warmDone)
	if s.renderer == nil {
		if s.cfg.RenderMode != audit.RenderOff {
			s.log.Warn("LibreOffice is not installed: audits report pages.status failed (render auto) or 503 (render on)")
		}
		s.ready.Store(true)
		return
	}
	for attempt := 1; ; attempt++ {
		start := time.Now()
		err := s.warmOnce(attempt)
		if err == nil {
			s.warmErr.Store(nil)
			s.ready.Store(true)
			s.log.Info("renderer warm", "seconds", time.Since(start).Seconds(), "toolchain", baseline.ToolchainKey(s.base, s.renderer))
			return
		}
		msg := err.Error()
		s.warmErr.Store(&msg)
		if s.base.Err() != nil {
			return
		}
		s.log.Error("renderer warm-up failed; trying again", "err", msg, "in", warmRetry.String())
		select {
		case <-s.base.Done():
			return
		case <-time.After(warmRetry):
		}
	}
}

// warmOnce renders one document of each kind.
func (s *Server) warmOnce(attempt int) error {
	ctx, cancel := context.WithTimeout(s.base, 5*time.Minute)
	defer cancel()
	dir, err := os.MkdirTemp(s.tmp, "warm-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	for _, w := range warmSpecs {
		spec, err := synth.ParseSpec(strings.NewReader(fmt.Sprintf(w.spec, attempt)))
		if err != nil {
			return fmt.Errorf("warm-up spec %s: %w", w.ext, err)
		}
		doc, err := synth.Synthesize(spec)
		if err != nil {
			return fmt.Errorf("warm-up document %s: %w", w.ext, err)
		}
		p := filepath.Join(dir, "warm-up"+w.ext)
		if err := os.WriteFile(p, doc, 0o600); err != nil {
			return err
		}
		if _, err := s.renderer.Render(ctx, p, func(int, *pixeldiff.Raster, float64, float64) error { return nil }); err != nil {
			return fmt.Errorf("warm-up render of a %s document: %w", w.ext, err)
		}
	}
	return nil
}
