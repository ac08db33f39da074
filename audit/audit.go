package audit

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/editaudit/editaudit/baseline"
	"github.com/editaudit/editaudit/content"
	"github.com/editaudit/editaudit/formats"
	"github.com/editaudit/editaudit/formats/inspect"
	"github.com/editaudit/editaudit/internal/fsutil"
	"github.com/editaudit/editaudit/pixeldiff"
	"github.com/editaudit/editaudit/render"
)

// Render modes (DESIGN.md --render).
const (
	// RenderAuto renders when LibreOffice is installed and otherwise says
	// so in pages.status/pages.message.
	RenderAuto = "auto"
	// RenderOn makes a missing renderer an error (render.ErrNoRenderer).
	RenderOn = "on"
	// RenderOff never renders.
	RenderOff = "off"
)

// Content modes (DESIGN.md --content).
const (
	// ContentOn compares the text, cells and formatting of the two files
	// (Result.Content).
	ContentOn = "on"
	// ContentOff leaves them out (Result.Content says "off").
	ContentOff = "off"
)

// DefaultShow is how many changed pages are shown as before/after images.
const DefaultShow = 3

// Options tune an audit. The zero value audits without rendering, without
// a store, writing nothing, and compares content.
type Options struct {
	// Render is RenderAuto, RenderOn or RenderOff ("" = off for the
	// library; the CLI defaults to auto).
	Render string
	// Renderer renders pages. When nil and rendering is asked for, the
	// audit starts one (StartRenderer, one LibreOffice process) for this
	// call and closes it after. Share one Renderer across many audits to
	// keep LibreOffice warm.
	Renderer *render.Renderer
	// Store caches snapshots of originals; nil makes them per call.
	Store *baseline.Store
	// Show is the number of changed pages given as before/after images
	// (DefaultShow when 0; negative: none).
	Show int
	// OutDir, when set, receives the page composites (pages/*.jpg) and,
	// with Restore, the rejected file.
	OutDir string
	// Restore puts the original back at the edited path when blocked.
	Restore bool
	// Limits bound the inspection; zero means defaults.
	Limits formats.Limits
	// Compare tunes the page comparison.
	Compare pixeldiff.CompareOptions
	// Content is ContentOn or ContentOff. "" is on, for the library as for
	// the CLI (unlike Render): the content diff needs no renderer and
	// costs milliseconds for a typical file.
	Content string
	// ContentMaxChanges caps Result.Content.Changes
	// (content.DefaultMaxChanges when 0); the rest are counted.
	ContentMaxChanges int
}

// ErrContentMode is returned for an Options.Content other than "", on or
// off.
var ErrContentMode = errors.New("audit: Content must be on or off")

func (o Options) contentOn() (bool, error) {
	switch o.Content {
	case "", ContentOn:
		return true, nil
	case ContentOff:
		return false, nil
	}
	return false, fmt.Errorf("%w, not %q", ErrContentMode, o.Content)
}

func (o Options) show() int {
	switch {
	case o.Show == 0:
		return DefaultShow
	case o.Show < 0:
		return 0
	}
	return o.Show
}

// ErrNoRenderer is returned with RenderOn when LibreOffice is missing.
var ErrNoRenderer = render.ErrNoRenderer

// ErrNotInStore is returned by Reader for an original given by its sha256
// alone when Options.Store does not hold that document.
var ErrNotInStore = errors.New("audit: the original is not in the store")

// ErrRestoreNeedsFile is returned by Reader when opts.Restore is set: there
// is no file to put the original back into.
var ErrRestoreNeedsFile = errors.New("audit: Restore needs the edited file's path (use Files)")

// Source is one document of an audit given by its contents — an upload, a
// blob from a database — for Reader. Name is what the result and its
// messages call the document (a file name or a path; only its base name
// and extension are ever used to name a file).
//
// An original may also be given by its sha256 alone (SHA256 set, R nil):
// Reader then reads it from Options.Store, which keeps every original it
// made a snapshot of (editaudit baseline, the service's /v1/baseline)
// beside the snapshot, and returns ErrNotInStore when the store has none.
// The snapshot itself is the stored one when the store has it for this
// renderer's toolchain, else it is made again from the stored document.
type Source struct {
	Name string
	R    io.ReaderAt
	Size int64
	// SHA256 (lowercase hex) names an original already in the store; only
	// read when R is nil.
	SHA256 string
}

// SourceBytes is a Source over data held in memory.
func SourceBytes(name string, data []byte) Source {
	return Source{Name: name, R: bytes.NewReader(data), Size: int64(len(data))}
}

// read returns the source's bytes.
func (s Source) read() ([]byte, error) {
	if s.R == nil || s.Size < 0 {
		return nil, fmt.Errorf("audit: %s: no contents", s.Name)
	}
	b, err := io.ReadAll(io.NewSectionReader(s.R, 0, s.Size))
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", s.Name, err)
	}
	return b, nil
}

// Files audits the edit that turned the document at originalPath into the
// one at editedPath: the path convenience over Reader, and the only form
// that can Restore. The error is for the tool failing (I/O, a missing
// renderer with RenderOn, cancellation, an unreadable original); a broken
// document is findings, and so is an edited path that names no document
// (missing, a folder, a FIFO: the fatal finding file.missing, blocked).
// Nothing is written to either input unless opts.Restore is set and the
// edit is blocked.
func Files(ctx context.Context, originalPath, editedPath string, opts Options) (*Result, error) {
	lim := opts.limits()
	orig, err := readDoc(originalPath, lim.MaxFileSize)
	if err != nil {
		return nil, err
	}
	// An edited path that names no document (missing, a folder, a FIFO,
	// unreadable) is the finding file.missing; it is stated before any
	// open, so a FIFO never blocks.
	if why := inspect.Present(editedPath); why != nil {
		return missingEdit(ctx, orig, editedPath, why, opts)
	}
	edited, err := readDoc(editedPath, lim.MaxFileSize)
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrPermission) || errors.Is(err, inspect.ErrNotRegular) {
		return missingEdit(ctx, orig, editedPath, err, opts) // changed between the stat and the open
	}
	if err != nil {
		return nil, err
	}
	return run(ctx, orig, edited, opts)
}

// readDoc reads one input of Files: refused from its stat when it is not a
// regular file (a FIFO would block the open), held in memory up to max
// bytes; a larger file is not read at all (its inspection reports the
// limit from the file's size), so no input can exhaust memory.
func readDoc(path string, max int64) (doc, error) {
	st, err := fsutil.StatRegular(path)
	if err != nil {
		return doc{}, err
	}
	d := doc{name: path, path: path, info: st}
	if st.Size() > max {
		return d, nil
	}
	d.data, err = fsutil.ReadRegular(path, max)
	if errors.Is(err, fsutil.ErrTooLarge) { // it grew past the limit meanwhile
		d.info, _ = os.Stat(path)
		return d, nil
	}
	if err != nil {
		return doc{}, err
	}
	d.sha = sha256Hex(d.data)
	return d, nil
}

func (o Options) limits() formats.Limits {
	if o.Limits.MaxEntries == 0 {
		return formats.DefaultLimits()
	}
	return o.Limits
}

// Reader audits the edit that turned original into edited, both given by
// their contents (pdfcpu style: what an HTTP service holds after an
// upload). It is Files without paths: the result names the documents by
// their Source names, and opts.Restore is refused (ErrRestoreNeedsFile).
// When pages are rendered, each document is written to a private temporary
// folder for LibreOffice and removed before Reader returns.
func Reader(ctx context.Context, original, edited Source, opts Options) (*Result, error) {
	if opts.Restore {
		return nil, ErrRestoreNeedsFile
	}
	var orig doc
	if original.R != nil || original.SHA256 == "" {
		b, err := original.read()
		if err != nil {
			return nil, err
		}
		orig = doc{name: original.Name, data: b}
	} else {
		b, err := storedOriginal(opts.Store, original.SHA256)
		if err != nil {
			return nil, err
		}
		orig = doc{name: original.Name, data: b}
	}
	editedBytes, err := edited.read()
	if err != nil {
		return nil, err
	}
	orig.sha = sha256Hex(orig.data)
	return run(ctx, orig, doc{name: edited.Name, data: editedBytes, sha: sha256Hex(editedBytes)}, opts)
}

// doc is one side of an audit: the name the result uses, its bytes and
// their sha256, and a file holding those bytes for the renderer and
// Restore ("" when the caller gave none: one is written when rendering
// needs it). A file over the size limit is not read: data is nil, sha ""
// and info its stat.
type doc struct {
	name, path string
	data       []byte
	sha        string
	info       os.FileInfo
}

// read reports whether the document's bytes are held (false for a file
// over the size limit, which is inspected from its size alone).
func (d doc) read() bool { return d.data != nil || d.path == "" }

// inspect inspects the document: its bytes, or its file when too large to
// be read (the limit finding without a read).
func (d doc) inspect(ctx context.Context, lim formats.Limits) (*formats.Report, error) {
	if !d.read() {
		rep, err := inspect.File(ctx, d.path, inspect.Options{Limits: lim})
		if rep != nil {
			rep.Path = d.name
		}
		return rep, err
	}
	return inspect.Bytes(ctx, d.data, d.name, inspect.Options{Limits: lim})
}

// file is the path the renderer reads, or the name when nothing is
// rendered from it.
func (d doc) file() string {
	if d.path != "" {
		return d.path
	}
	return d.name
}

// run is the audit behind Files and Reader.
func run(ctx context.Context, orig, edited doc, opts Options) (*Result, error) {
	contentOn, err := opts.contentOn()
	if err != nil {
		return nil, err
	}
	// The content diff reads the same bytes, shares nothing with the rest
	// and runs beside it (rendering waits on LibreOffice).
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	contentDone := make(chan *content.Result, 1)
	if contentOn {
		go func() { contentDone <- diffContent(ctx, orig.data, edited.data, opts) }()
	} else {
		contentDone <- content.Off()
	}
	// A byte-identical edit is neither rendered nor compared: its pages
	// are the original's. No renderer is started for it (a shared one is
	// used only to look the original's pages up in the store).
	// With rendering off the pages stay "off". (Files over the size limit
	// are not read, have no sha256, and are never identical.)
	identical := orig.sha != "" && orig.sha == edited.sha && opts.Render != "" && opts.Render != RenderOff
	renderer, closeR := opts.Renderer, func() {}
	var startErr error // with RenderAuto: LibreOffice is installed but cannot start
	if !identical || opts.Render == RenderOn {
		if renderer, closeR, err = opts.renderer(ctx); err != nil {
			if opts.Render != RenderAuto || !errors.Is(err, render.ErrRendererBroken) {
				return nil, err
			}
			startErr, closeR = err, func() {}
		}
	}
	defer closeR()
	if renderer != nil && !identical && (orig.path == "" || edited.path == "") {
		fsutil.SweepStale("", "editaudit-audit-") // those of killed processes
		dir, release, err := fsutil.MkdirTempOwned("", "editaudit-audit-")
		if err != nil {
			return nil, err
		}
		defer release()
		defer os.RemoveAll(dir)
		for i, d := range []*doc{&orig, &edited} {
			if d.path == "" && d.data != nil {
				if d.path, err = writeTemp(filepath.Join(dir, strconv.Itoa(i)), d.name, d.data); err != nil {
					return nil, err
				}
			}
		}
	}
	if renderer != nil && !identical && edited.read() {
		// The edited file's PDF is asked for now, while the original's
		// snapshot is made or loaded: the converter works on both at once.
		defer renderer.Prefetch(ctx, edited.path)()
	}
	// The original's snapshot: from the store when it has it (a file too
	// large to be read is inspected from its size, never stored).
	snapOpts := baseline.Options{Renderer: renderer, Limits: opts.Limits, Data: orig.data}
	var snap *baseline.Snapshot
	switch {
	case identical:
		snap, err = identicalSnapshot(ctx, orig, renderer, opts)
	case opts.Store != nil && orig.read():
		snap, _, err = opts.Store.Snapshot(ctx, orig.file(), orig.sha, snapOpts)
	default:
		snap, err = baseline.Make(ctx, orig.file(), snapOpts)
	}
	if err != nil {
		return nil, wrapRenderErr(err)
	}
	defer snap.Close()
	if err := renderOnFailed(opts.Render, orig.name, snap.Pages); err != nil {
		return nil, err
	}
	edRep, err := edited.inspect(ctx, opts.Limits)
	if err != nil {
		return nil, err
	}
	res := compareReports(snap.Report, edRep)
	res.Original.Path, res.Edited.Path = formats.EscapeName(orig.name), formats.EscapeName(edited.name)

	// Pages.
	switch {
	case startErr != nil:
		res.Pages = Pages{Status: PagesFailed, Message: strings.TrimPrefix(startErr.Error(), "render: ") + " — not the documents' fault"}
	case identical:
		res.Pages = identicalPages(snap)
	case renderer == nil && opts.Render == RenderAuto:
		res.Pages = Pages{Status: PagesFailed, Message: renderOffMessage(opts.Render)}
	case renderer == nil:
		res.Pages = Pages{Status: PagesOff, Message: renderOffMessage(opts.Render)}
	default:
		so := render.SignOptions{MaxKept: keptPages}
		if snap.Pages.Status == baseline.PagesOK {
			so.Bands = &snap.Pages.Bands
			so.Keep = notInOriginal(snap.Pages.Sigs)
		}
		ep, err := baseline.RenderPagesWith(ctx, renderer, edited.path, edRep.Format, so)
		if err != nil {
			return nil, wrapRenderErr(err)
		}
		if p := ep.PDFPath(); p != "" {
			defer os.Remove(p)
		}
		if err := renderOnFailed(opts.Render, edited.name, ep); err != nil {
			return nil, err
		}
		res.Pages = comparePages(ctx, renderer, snap, ep, opts)
	}
	res.Original.Pages, res.Edited.Pages = res.Pages.Before, res.Pages.After
	res.Content = <-contentDone
	if err := ctx.Err(); err != nil {
		return nil, err
	}

	// Gate: blocked if and only if the edit introduced a fatal finding.
	res.Blocked = formats.HasFatal(res.NewFindings)
	if res.Blocked && opts.Restore {
		rej := rejectedPath(edited.path, edRep.Format, opts.OutDir)
		done, err := restore(edited.path, orig, edited, rej)
		if err != nil {
			return nil, err
		}
		res.Restored = true
		res.RejectedCopy = done.rejected
		res.RestoreNote = strings.Join(done.notes, "; ")
		if opts.OutDir != "" {
			if rel, err := filepath.Rel(opts.OutDir, done.rejected); err == nil && !strings.HasPrefix(rel, "..") {
				res.RejectedCopy = rel
			}
		}
	}
	res.Feedback = Feedback(res, FeedbackOptions{})
	return res, nil
}

// notInOriginal chooses the edited pages whose rasters are kept while
// they are signed: those not identical to any page of the original, the
// only ones that can be compared and shown.
func notInOriginal(orig []pixeldiff.PageSig) func(int, pixeldiff.PageSig) bool {
	seen := make(map[pixeldiff.Hash]bool, len(orig))
	for _, s := range orig {
		seen[s.Full] = true
	}
	return func(_ int, s pixeldiff.PageSig) bool { return !seen[s.Full] }
}

// identicalSnapshot is the original's snapshot for an edit that changed no
// byte: the stored one when the store has it rendered (its page count is
// then known), otherwise an inspection alone — nothing is rendered.
func identicalSnapshot(ctx context.Context, orig doc, renderer *render.Renderer, opts Options) (*baseline.Snapshot, error) {
	o := baseline.Options{Renderer: renderer, Limits: opts.Limits, Data: orig.data}
	if opts.Store != nil && renderer != nil {
		if snap, err := opts.Store.Cached(ctx, orig.file(), sha256Hex(orig.data), o); err == nil {
			return snap, nil
		}
	}
	o.Renderer = nil
	return baseline.Make(ctx, orig.file(), o)
}

// IdenticalMessage is pages.message of an edit that changed no byte.
const IdenticalMessage = "the edited file is byte-identical to the original: nothing was rendered or compared"

// identicalPages is the page comparison of a byte-identical edit: status
// ok, no page changed, nothing rendered. The page counts are the stored
// snapshot's when it has them, else 0 (not rendered).
func identicalPages(snap *baseline.Snapshot) Pages {
	p := Pages{Status: PagesOK, Identical: true, Message: IdenticalMessage,
		Changed: []ChangedPage{}, Inserted: []int{}, Deleted: []int{}, Shown: []ShownPage{}}
	if snap.Pages.Status == baseline.PagesOK {
		p.Before, p.After = len(snap.Pages.Sigs), len(snap.Pages.Sigs)
		p.Toolchain = snap.Pages.Toolchain
		p.Notice, p.Notes = snap.Pages.Notice, snap.Pages.Notes
	}
	return p
}

// diffContent is the content diff of the audit. It never fails the audit
// (the content diff never blocks): a diff that could not be made is a
// "partial" result saying why, with no change inferred. A panic is caught
// here because the diff runs on its own goroutine, where no caller's
// recover (corpus keeps a batch going past one hostile document) reaches.
func diffContent(ctx context.Context, orig, edited []byte, opts Options) (r *content.Result) {
	defer func() {
		if v := recover(); v != nil {
			r = contentFailed(fmt.Sprintf("the content diff failed on this input (internal error: %v); no content was compared", v))
		}
	}()
	r, err := content.Bytes(ctx, orig, edited, content.Options{Limits: opts.Limits, MaxChanges: opts.ContentMaxChanges})
	if err != nil {
		return contentFailed("the content diff failed: " + err.Error() + "; no content was compared")
	}
	return r
}

func contentFailed(msg string) *content.Result {
	return &content.Result{Status: content.StatusPartial, Message: msg, Changes: []content.Change{}}
}

// storedOriginal is the document whose sha256 is sha, from the store
// (kept there beside its snapshots when it was made), or ErrNotInStore.
func storedOriginal(st *baseline.Store, sha string) ([]byte, error) {
	if !IsSHA256(sha) {
		return nil, fmt.Errorf("audit: %q is not a sha256 (64 lowercase hex digits)", sha)
	}
	if st == nil {
		return nil, fmt.Errorf("%w: no store given", ErrNotInStore)
	}
	b, err := st.Document(sha)
	if errors.Is(err, baseline.ErrNotFound) {
		return nil, fmt.Errorf("%w: %s", ErrNotInStore, sha)
	}
	return b, err
}

// IsSHA256 reports whether s is a sha256 as Source.SHA256 takes it: 64
// lowercase hex digits.
func IsSHA256(s string) bool {
	if len(s) != 64 {
		return false
	}
	for _, c := range s {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

// writeTemp writes data into a new folder dir as the base name of name, so
// that the renderer sees the document's extension; a name without a usable
// base name becomes "document".
func writeTemp(dir, name string, data []byte) (string, error) {
	if err := os.Mkdir(dir, 0o700); err != nil {
		return "", err
	}
	base := filepath.Base(filepath.Clean("/" + filepath.ToSlash(name)))
	if base == "/" || base == "." {
		base = "document"
	}
	p := filepath.Join(dir, base)
	return p, os.WriteFile(p, data, 0o600)
}

// compareReports fills the finding and structure parts of a Result.
func compareReports(orig, edited *formats.Report) *Result {
	added, resolved := diffFindings(orig.Findings, edited.Findings)
	res := &Result{
		Schema:      Schema,
		Original:    FileInfo{Path: orig.Path, SHA256: orig.SHA256, Format: orig.Format, NotCounted: orig.NotCounted},
		Edited:      FileInfo{Path: edited.Path, SHA256: edited.SHA256, Format: edited.Format, NotCounted: edited.NotCounted},
		NewFindings: nonNil(added),
		Resolved:    nonNil(resolved),
		Preexisting: formats.TallyOf(orig.Findings),
		Structure:   diffStructure(orig, edited),
	}
	return res
}

func sha256Hex(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// rejectedPath is where a blocked edit's bytes are kept: OutDir/rejected.ext,
// or beside the edited file as NAME.rejected.ext without an OutDir.
func rejectedPath(editedPath string, f formats.Format, outDir string) string {
	ext := strings.ToLower(filepath.Ext(editedPath))
	if ext == "" {
		ext = f.Ext()
	}
	if outDir != "" {
		return filepath.Join(outDir, "rejected"+ext)
	}
	base := strings.TrimSuffix(editedPath, filepath.Ext(editedPath))
	return base + ".rejected" + ext
}

// renderer returns the renderer to use (nil: do not render) and a func to
// release one started for this call (one LibreOffice process).
func (o Options) renderer(ctx context.Context) (*render.Renderer, func(), error) {
	if o.Render == "" || o.Render == RenderOff {
		return nil, func() {}, nil
	}
	if o.Renderer != nil {
		return o.Renderer, func() {}, nil
	}
	r, err := StartRenderer(ctx, o.Render, render.Config{Pool: render.PoolOptions{Workers: 1}})
	if err != nil {
		return nil, nil, err
	}
	return r, func() { r.Close() }, nil
}

// ErrPagesNotRendered is returned with RenderOn when a document's pages
// failed for a reason that is not the document's own (a timeout under
// load, an external kill, a full disk, a renderer that cannot render even
// a test document): rendering was required and could not be done.
var ErrPagesNotRendered = errors.New("audit: pages could not be rendered, for a reason that is not the document's (--render on)")

// renderOnFailed is ErrPagesNotRendered for a transient page failure under
// RenderOn; a document's own failure stays pages.status failed.
func renderOnFailed(mode, name string, p baseline.Pages) error {
	if mode != RenderOn || !p.Transient {
		return nil
	}
	if cause := p.Err(); cause != nil {
		return fmt.Errorf("%w: %s: %w", ErrPagesNotRendered, formats.EscapeName(name), cause)
	}
	return fmt.Errorf("%w: %s: %s", ErrPagesNotRendered, formats.EscapeName(name), p.Message)
}

func renderOffMessage(mode string) string {
	if mode == RenderAuto {
		return "LibreOffice is not installed, so pages were not rendered or compared (install libreoffice-writer-nogui, -calc-nogui, -impress-nogui and poppler-utils, or pass --render off to silence this)"
	}
	return "rendering was not asked for (--render off)"
}

func wrapRenderErr(err error) error {
	if errors.Is(err, render.ErrNoRenderer) {
		return fmt.Errorf("%w (install LibreOffice and poppler-utils: apt-get install libreoffice-writer-nogui libreoffice-calc-nogui libreoffice-impress-nogui poppler-utils; or use --render off)", err)
	}
	return err
}

// StartRenderer starts, with render.New(cfg), the renderer a --render mode
// asks for: nil and no error for RenderOff (or ""), and for RenderAuto when
// LibreOffice is missing; for RenderOn a missing LibreOffice is
// ErrNoRenderer with how to install it. A LibreOffice that is installed
// but cannot start is render.ErrRendererBroken in either mode. It is the one place the library
// and the command turn a mode into a Renderer; share the Renderer across
// audits (Options.Renderer) and Close it when done (a nil Renderer closes
// as a no-op).
func StartRenderer(ctx context.Context, mode string, cfg render.Config) (*render.Renderer, error) {
	if mode == "" || mode == RenderOff {
		return nil, nil
	}
	r, err := render.New(ctx, cfg)
	if err != nil {
		if errors.Is(err, render.ErrNoRenderer) && mode == RenderAuto {
			return nil, nil
		}
		return nil, wrapRenderErr(err)
	}
	return r, nil
}
