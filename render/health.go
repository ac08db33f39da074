package render

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/editaudit/editaudit/internal/fsutil"
	"github.com/editaudit/editaudit/pixeldiff"
)

// ErrRendererBroken: a document failed, and so did a one-line test
// document of the same kind rendered right after it. The failure is the
// machine's (no fonts: LibreOffice aborts on every document; a full
// TMPDIR; a LibreOffice module not installed), not the document's.
var ErrRendererBroken = errors.New("render: the renderer cannot render even a one-line test document")

// DocumentsOwn reports whether a rendering error is the document's own:
// deterministic, so the same document with the same Toolchain fails the
// same way again, and may be remembered (cached) as the document's
// outcome. It is a *RenderError that is not Transient; everything else
// (a timeout or an external kill, ErrRendererBroken, an I/O error while
// staging, ErrNoRenderer, ErrClosed, cancellation) is not.
func DocumentsOwn(err error) bool {
	if err == nil || errors.Is(err, ErrRendererBroken) {
		return false
	}
	var re *RenderError
	return errors.As(err, &re) && !re.Transient
}

// health remembers the last verdict of the test document per application,
// so that a run of failing documents does not test the renderer after
// each one.
type health struct {
	mu      sync.Mutex // one test at a time
	checked map[string]healthVerdict
}

type healthVerdict struct {
	at  time.Time
	err error
}

// How long a verdict is trusted: a renderer that worked a minute ago
// probably still does; a broken one is tested again sooner.
const (
	healthyFor = 60 * time.Second
	brokenFor  = 10 * time.Second
)

// canaries are one-line documents LibreOffice opens with the application
// that renders each family of formats (Writer, Calc, Impress). A nonce
// makes each test a new document, never one the pool has quarantined.
var canaries = map[string]struct{ ext, body string }{
	"writer":  {".txt", "editaudit renderer check %s\n"},
	"calc":    {".csv", "editaudit,renderer\ncheck,%s\n"},
	"impress": {".fodp", fodpCanary},
}

// fodpCanary is the smallest flat OpenDocument presentation Impress opens
// (ODF 1.2 part 1, §2.2: office:document with a presentation body).
const fodpCanary = `<?xml version="1.0" encoding="UTF-8"?>
<office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0" office:version="1.2" office:mimetype="application/vnd.oasis.opendocument.presentation">
<office:body><office:presentation><draw:page draw:name="p1"><draw:frame svg:x="2cm" svg:y="2cm" svg:width="20cm" svg:height="3cm"><draw:text-box><text:p>editaudit renderer check %s</text:p></draw:text-box></draw:frame></draw:page></office:presentation></office:body>
</office:document>
`

// familyOf names the application LibreOffice renders an extension with.
func familyOf(ext string) string {
	for _, e := range calcExts {
		if e == ext {
			return "calc"
		}
	}
	for _, e := range impressExts {
		if e == ext {
			return "impress"
		}
	}
	return "writer"
}

// vet decides what a failure to render docPath means. A failure that is
// not the document's own (DocumentsOwn false), or a cancellation, is
// returned as is. For the document's own, a test document of the same
// family is rendered: when that fails too, the renderer is broken and the
// error says so (ErrRendererBroken, never the document's own); otherwise
// err is returned unchanged.
func (r *Renderer) vet(ctx context.Context, docPath string, err error) error {
	if !DocumentsOwn(err) || ctx.Err() != nil {
		return err
	}
	ext, derr := DetectFormat(docPath)
	if derr != nil {
		ext = strings.ToLower(filepath.Ext(docPath))
	}
	family := familyOf(ext)
	cerr := r.healthCheck(ctx, family)
	if cerr == nil || ctx.Err() != nil {
		return err
	}
	return &brokenError{family: family, doc: filepath.Base(docPath), canary: cerr, err: err}
}

// brokenError is ErrRendererBroken with the test document's failure and
// the document's own error (errors.As finds its *RenderError).
type brokenError struct {
	family, doc string
	canary, err error
}

func (e *brokenError) Error() string {
	return fmt.Sprintf("%v: a %s test document failed too (%s), so %s failing says nothing about it", ErrRendererBroken, e.family, brief(e.canary), e.doc)
}

func (e *brokenError) Unwrap() []error { return []error{ErrRendererBroken, e.err} }

// brief is an error's first words: a RenderError's reason and the first
// two of LibreOffice's messages (not its stack trace).
func brief(err error) string {
	var re *RenderError
	if !errors.As(err, &re) {
		return err.Error()
	}
	parts := strings.SplitN(re.Detail, " | ", 3)
	d := strings.Join(parts[:min(2, len(parts))], " | ")
	return fmt.Sprintf("%s: %s", re.Reason, d)
}

// healthCheck renders the family's test document (or returns a recent
// verdict).
func (r *Renderer) healthCheck(ctx context.Context, family string) error {
	h := &r.health
	h.mu.Lock()
	defer h.mu.Unlock()
	if v, ok := h.checked[family]; ok {
		trust := healthyFor
		if v.err != nil {
			trust = brokenFor
		}
		if time.Since(v.at) < trust {
			return v.err
		}
	}
	err := r.renderCanary(ctx, family)
	if ctx.Err() != nil {
		return err
	}
	if h.checked == nil {
		h.checked = map[string]healthVerdict{}
	}
	h.checked[family] = healthVerdict{at: time.Now(), err: err}
	return err
}

// renderCanary converts and rasterizes one test document of the family.
func (r *Renderer) renderCanary(ctx context.Context, family string) error {
	c := canaries[family]
	fsutil.SweepStale("", "editaudit-canary-")
	dir, release, err := fsutil.MkdirTempOwned("", "editaudit-canary-")
	if err != nil {
		return fmt.Errorf("writing a test document: %w", err)
	}
	defer release()
	defer os.RemoveAll(dir)
	doc := filepath.Join(dir, "check"+c.ext)
	nonce := fmt.Sprintf("%d", time.Now().UnixNano())
	if err := os.WriteFile(doc, []byte(fmt.Sprintf(c.body, nonce)), 0o600); err != nil {
		return fmt.Errorf("writing a test document: %w", err)
	}
	pdf, err := r.Converter.ConvertPDF(ctx, doc)
	if err != nil {
		return err
	}
	defer os.Remove(pdf)
	pages := 0
	errEnough := errors.New("one page is enough")
	err = r.Raster.Rasterize(ctx, pdf, 20, func(int, *pixeldiff.Raster, float64, float64) error {
		pages++
		return errEnough
	})
	if err != nil && !errors.Is(err, errEnough) {
		return err
	}
	if pages == 0 {
		return errors.New("the test document's PDF has no pages")
	}
	return nil
}
