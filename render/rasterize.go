package render

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/editaudit/editaudit/pixeldiff"
)

// Rasterizer draws the pages of a PDF as Rasters, one page at a time (a
// stream, never a folder of PNGs). Implementations run an external program
// and kill it when ctx ends or each returns an error.
type Rasterizer interface {
	// Name is the rasterizer's short name ("pdftoppm", "mutool").
	Name() string
	// Version is the program's version string ("" when it cannot run).
	Version(ctx context.Context) string
	// Rasterize calls each for pages 1..N in order with the page drawn at
	// dpi and its displayed size in points. A PDF with no pages calls each
	// never and returns nil. An error from each is returned unchanged.
	Rasterize(ctx context.Context, pdfPath string, dpi int, each func(page int, r *pixeldiff.Raster, widthPt, heightPt float64) error) error
}

// pageSize is one page's displayed size in points.
type pageSize struct{ w, h float64 }

// checkPageLimits refuses pages whose raster would exceed
// MaxRasterSide/MaxRasterPixels at dpi, before anything is drawn; sizes[0]
// is page first.
func checkPageLimits(sizes []pageSize, dpi, first int) error {
	for i, s := range sizes {
		w := math.Ceil(s.w * float64(dpi) / 72)
		h := math.Ceil(s.h * float64(dpi) / 72)
		if w > pixeldiff.MaxRasterSide || h > pixeldiff.MaxRasterSide || w*h > pixeldiff.MaxRasterPixels {
			return &RenderError{Reason: ReasonTooLarge, Detail: fmt.Sprintf(
				"page %d is %.0f×%.0f pt, %.0f×%.0f px at %d dpi (limits: %d px a side, %d px)",
				first+i, s.w, s.h, w, h, dpi, pixeldiff.MaxRasterSide, pixeldiff.MaxRasterPixels)}
		}
	}
	return nil
}

// sizesErr is the error of a failed run of the program that lists page
// sizes (pdfinfo, mutool pages): ErrNoRenderer and cancellation as they
// are, anything else a rasterize failure of this document.
func sizesErr(ctx context.Context, prog string, err error, out []byte) error {
	if ctx.Err() != nil || errors.Is(err, ErrNoRenderer) {
		return errors.Join(ctx.Err(), err)
	}
	return &RenderError{Reason: ReasonRasterize, Detail: fmt.Sprintf("%s: %v: %s", prog, err, firstLine(out))}
}

// drawPages refuses pages over the size limits, then runs cmd and streams
// its PPM pages, sizes[0] being page first. No pages draw nothing.
func drawPages(ctx context.Context, name string, cmd *exec.Cmd, sizes []pageSize, dpi, first int, each func(int, *pixeldiff.Raster, float64, float64) error) error {
	if len(sizes) == 0 {
		return nil
	}
	if err := checkPageLimits(sizes, dpi, first); err != nil {
		return err
	}
	return streamPNM(ctx, name, cmd, sizes, first, each)
}

// streamPNM runs cmd, reads len(sizes) concatenated PPM images from its
// stdout and hands each to each, numbered from page first. The process runs
// in its own group, which is killed when ctx ends or each fails; Wait is
// always called.
func streamPNM(ctx context.Context, name string, cmd *exec.Cmd, sizes []pageSize, first int, each func(int, *pixeldiff.Raster, float64, float64) error) error {
	setProcessGroup(cmd)
	var stderr tailBuffer
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		if isNotFound(err) {
			return fmt.Errorf("%w: %s not found (install it: apt-get install %s)", ErrNoRenderer, name, packageOf(name))
		}
		return err
	}
	stop := context.AfterFunc(ctx, func() { killGroup(cmd) })
	defer stop()
	br := bufio.NewReaderSize(out, 1<<16)
	var loopErr error
	for i, s := range sizes {
		r, err := pixeldiff.ReadPNM(br)
		if err != nil {
			loopErr = &RenderError{Reason: ReasonRasterize, Detail: fmt.Sprintf("%s: page %d: %v", name, first+i, err)}
			break
		}
		if err := each(first+i, r, s.w, s.h); err != nil {
			loopErr = err
			break
		}
	}
	if loopErr != nil {
		killGroup(cmd)
	} else {
		io.Copy(io.Discard, br) // let the program finish writing
	}
	werr := cmd.Wait()
	killGroup(cmd) // stragglers, if any
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if loopErr != nil {
		var re *RenderError
		if errors.As(loopErr, &re) && werr != nil {
			re.Detail += fmt.Sprintf(" (%s exited: %v; %s)", name, werr, stderr.String())
		}
		return loopErr
	}
	if werr != nil {
		return &RenderError{Reason: ReasonRasterize, Detail: fmt.Sprintf("%s: %v: %s", name, werr, stderr.String())}
	}
	return nil
}

// isNotFound reports whether starting a program failed because it does not
// exist (not in PATH, or an explicit path that is missing).
func isNotFound(err error) bool {
	return errors.Is(err, exec.ErrNotFound) || errors.Is(err, fs.ErrNotExist)
}

func packageOf(prog string) string {
	switch prog {
	case "pdftoppm", "pdfinfo":
		return "poppler-utils"
	case "mutool":
		return "mupdf-tools"
	}
	return prog
}

// runOutput runs a short helper program (pdfinfo, mutool pages, --version)
// with a bounded time and returns its combined output.
func runOutput(ctx context.Context, timeout time.Duration, prog string, args ...string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, prog, args...)
	setProcessGroup(cmd)
	cmd.Cancel = func() error { killGroup(cmd); return nil }
	// Generous: on a loaded machine the goroutine copying the output may
	// not run for a while after the program exits (seen at 1s).
	cmd.WaitDelay = 10 * time.Second
	var out bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = &out
	err := cmd.Run()
	if isNotFound(err) {
		return nil, fmt.Errorf("%w: %s not found (install it: apt-get install %s)", ErrNoRenderer, prog, packageOf(prog))
	}
	return out.Bytes(), err
}

// Pdftoppm rasterizes with poppler's pdftoppm, reading raw PPM from its
// stdout; page sizes come from poppler's pdfinfo. Empty fields mean the
// programs found in PATH.
type Pdftoppm struct {
	Bin     string // pdftoppm
	InfoBin string // pdfinfo
}

// NewPdftoppm returns a Rasterizer running poppler's pdftoppm to raw PPM
// on stdout (as fast as writing page files to a temp folder, and nothing
// to clean up: docs/benchmarks.md "Rendering").
func NewPdftoppm() Rasterizer { return &Pdftoppm{} }

// DefaultRasterizer returns poppler's pdftoppm when it and pdfinfo are in
// PATH, else MuPDF's mutool when it is, else pdftoppm (which then reports
// ErrNoRenderer with how to install it). Which one it is goes into the
// Toolchain, so rasters of the two are never compared with each other.
//
// pdftoppm comes first although mutool needs about half its CPU per page
// (docs/benchmarks.md "Rendering"): poppler snaps glyphs to whole pixels, so a
// text line LibreOffice moved, or placed a fraction of a point apart in a
// re-laid-out but unchanged page, is drawn pixel-identically — what page
// signatures, alignment and reflow detection rely on (pixeldiff.PageSig
// Lines). MuPDF draws glyphs at quarter-pixel phases: over edits of real
// documents it reported unchanged pages as changed and an original page
// as deleted where pdftoppm found it moved (docs/rendering.md "Which
// rasterizer"), for a saving of a few percent of an audit's CPU.
func DefaultRasterizer() Rasterizer {
	_, errP := exec.LookPath("pdftoppm")
	_, errI := exec.LookPath("pdfinfo")
	if errP != nil || errI != nil {
		if _, err := exec.LookPath("mutool"); err == nil {
			return NewMutool()
		}
	}
	return NewPdftoppm()
}

func (p *Pdftoppm) bin() string  { return orDefault(p.Bin, "pdftoppm") }
func (p *Pdftoppm) info() string { return orDefault(p.InfoBin, "pdfinfo") }

// Name implements Rasterizer.
func (p *Pdftoppm) Name() string { return "pdftoppm" }

// Version implements Rasterizer ("pdftoppm version 22.12.0" → "22.12.0").
func (p *Pdftoppm) Version(ctx context.Context) string {
	out, _ := runOutput(ctx, 10*time.Second, p.bin(), "-v")
	if m := regexp.MustCompile(`version ([0-9][0-9.]*)`).FindSubmatch(out); m != nil {
		return string(m[1])
	}
	return ""
}

// Rasterize implements Rasterizer.
func (p *Pdftoppm) Rasterize(ctx context.Context, pdfPath string, dpi int, each func(page int, r *pixeldiff.Raster, widthPt, heightPt float64) error) error {
	return p.rasterize(ctx, pdfPath, dpi, 0, 0, each)
}

// RasterizeRange implements RangeRasterizer.
func (p *Pdftoppm) RasterizeRange(ctx context.Context, pdfPath string, dpi, first, last int, each func(page int, r *pixeldiff.Raster, widthPt, heightPt float64) error) error {
	return p.rasterize(ctx, pdfPath, dpi, first, last, each)
}

// rasterize draws pages first..last, or every page when both are 0.
func (p *Pdftoppm) rasterize(ctx context.Context, pdfPath string, dpi, first, last int, each func(page int, r *pixeldiff.Raster, widthPt, heightPt float64) error) error {
	if err := checkRange(first, last); err != nil {
		return err
	}
	sizes, done, err := p.sizes(ctx, pdfPath, first)
	if done || err != nil {
		return err
	}
	if first == 0 {
		return p.drawKnown(ctx, pdfPath, dpi, 0, sizes, each)
	}
	if last > len(sizes) {
		return &RenderError{Reason: ReasonRasterize, Detail: fmt.Sprintf("pdfinfo: page %d asked, the PDF has %d", last, len(sizes))}
	}
	return p.drawKnown(ctx, pdfPath, dpi, first, sizes[first-1:last], each)
}

// sizes asks pdfinfo the sizes of every page. done is true, with no
// error, for a 0-page PDF when every page was asked (first 0): nothing to
// draw.
func (p *Pdftoppm) sizes(ctx context.Context, pdfPath string, first int) (sizes []pageSize, done bool, err error) {
	// pdfinfo lists the sizes of the pages asked for; parsePdfinfo wants
	// them all, and the count tells a range beyond the last page.
	out, err := runOutput(ctx, time.Minute, p.info(), "-f", "1", "-l", "1000000000", pdfPath)
	if err != nil && first == 0 && bytes.Contains(out, []byte("can not be after the last page (0)")) {
		return nil, true, nil // poppler refuses any page range of a 0-page PDF
	}
	if err != nil {
		return nil, false, sizesErr(ctx, "pdfinfo", err, out)
	}
	sizes, err = parsePdfinfo(out)
	if err != nil {
		return nil, false, &RenderError{Reason: ReasonRasterize, Detail: err.Error()}
	}
	return sizes, false, nil
}

// drawKnown draws the pages first..first+len(sizes)-1 whose sizes are
// known (every page when first is 0), without asking pdfinfo.
func (p *Pdftoppm) drawKnown(ctx context.Context, pdfPath string, dpi, first int, sizes []pageSize, each func(int, *pixeldiff.Raster, float64, float64) error) error {
	args := []string{"-r", strconv.Itoa(dpi)}
	if first == 0 {
		first = 1
	} else {
		args = append(args, "-f", strconv.Itoa(first), "-l", strconv.Itoa(first+len(sizes)-1))
	}
	return drawPages(ctx, "pdftoppm", exec.Command(p.bin(), append(args, pdfPath)...), sizes, dpi, first, each)
}

var (
	pdfinfoPages = regexp.MustCompile(`(?m)^Pages:\s+(\d+)\s*$`)
	pdfinfoSize  = regexp.MustCompile(`(?m)^Page\s+(\d+)\s+size:\s+([0-9.]+) x ([0-9.]+) pts`)
	pdfinfoRot   = regexp.MustCompile(`(?m)^Page\s+(\d+)\s+rot:\s+(-?\d+)`)
)

// parsePdfinfo reads the page count and the per-page sizes and rotations
// from `pdfinfo -f 1 -l N` output.
func parsePdfinfo(out []byte) ([]pageSize, error) {
	m := pdfinfoPages.FindSubmatch(out)
	if m == nil {
		return nil, fmt.Errorf("pdfinfo: no page count in output: %s", firstLine(out))
	}
	n, err := strconv.Atoi(string(m[1]))
	if err != nil || n < 0 {
		return nil, fmt.Errorf("pdfinfo: bad page count %q", m[1])
	}
	sizes := make([]pageSize, n)
	seen := 0
	for _, sm := range pdfinfoSize.FindAllSubmatch(out, -1) {
		k, _ := strconv.Atoi(string(sm[1]))
		w, _ := strconv.ParseFloat(string(sm[2]), 64)
		h, _ := strconv.ParseFloat(string(sm[3]), 64)
		if k >= 1 && k <= n {
			sizes[k-1] = pageSize{w, h}
			seen++
		}
	}
	if seen != n {
		return nil, fmt.Errorf("pdfinfo: %d pages but %d page sizes", n, seen)
	}
	for _, rm := range pdfinfoRot.FindAllSubmatch(out, -1) {
		k, _ := strconv.Atoi(string(rm[1]))
		rot, _ := strconv.Atoi(string(rm[2]))
		if k >= 1 && k <= n && ((rot%180)+180)%180 == 90 {
			sizes[k-1].w, sizes[k-1].h = sizes[k-1].h, sizes[k-1].w
		}
	}
	return sizes, nil
}

// Mutool rasterizes with MuPDF's `mutool draw` to PNM on stdout; page sizes
// come from `mutool pages`.
type Mutool struct {
	Bin string // mutool
}

// NewMutool returns a Rasterizer running MuPDF's mutool.
func NewMutool() Rasterizer { return &Mutool{} }

func (m *Mutool) bin() string { return orDefault(m.Bin, "mutool") }

// Name implements Rasterizer.
func (m *Mutool) Name() string { return "mutool" }

// Version implements Rasterizer ("mutool version 1.21.1" → "1.21.1").
func (m *Mutool) Version(ctx context.Context) string {
	out, _ := runOutput(ctx, 10*time.Second, m.bin(), "-v")
	if mm := regexp.MustCompile(`version ([0-9][0-9.]*)`).FindSubmatch(out); mm != nil {
		return string(mm[1])
	}
	return ""
}

var (
	mutoolPage   = regexp.MustCompile(`<page pagenum="(\d+)">`)
	mutoolBox    = regexp.MustCompile(`<(MediaBox|CropBox) l="(-?[0-9.]+)" b="(-?[0-9.]+)" r="(-?[0-9.]+)" t="(-?[0-9.]+)"`)
	mutoolRotate = regexp.MustCompile(`<Rotate v="(-?\d+)"`)
)

// parseMutoolPages reads page sizes from `mutool pages` output: the CropBox
// when present (what is drawn), else the MediaBox, turned by /Rotate. The
// pages listed must be first, first+1, … in order (mutool clamps a range
// to the last page instead of refusing it).
func parseMutoolPages(out []byte, first int) ([]pageSize, error) {
	idx := mutoolPage.FindAllSubmatchIndex(out, -1)
	sizes := make([]pageSize, 0, len(idx))
	for i, loc := range idx {
		if n, _ := strconv.Atoi(string(out[loc[2]:loc[3]])); n != first+i {
			return nil, fmt.Errorf("mutool pages: page %d listed where page %d was asked (the PDF has fewer pages?)", n, first+i)
		}
		end := len(out)
		if i+1 < len(idx) {
			end = idx[i+1][0]
		}
		block := out[loc[0]:end]
		var s pageSize
		var have bool
		for _, b := range mutoolBox.FindAllSubmatch(block, -1) {
			var v [4]float64
			for j := range v {
				v[j], _ = strconv.ParseFloat(string(b[2+j]), 64)
			}
			if !have || string(b[1]) == "CropBox" {
				s = pageSize{math.Abs(v[2] - v[0]), math.Abs(v[3] - v[1])}
				have = true
			}
		}
		if !have {
			return nil, fmt.Errorf("mutool pages: page %d has no MediaBox", first+i)
		}
		if r := mutoolRotate.FindSubmatch(block); r != nil {
			rot, _ := strconv.Atoi(string(r[1]))
			if ((rot%180)+180)%180 == 90 {
				s.w, s.h = s.h, s.w
			}
		}
		sizes = append(sizes, s)
	}
	return sizes, nil
}

// Rasterize implements Rasterizer.
func (m *Mutool) Rasterize(ctx context.Context, pdfPath string, dpi int, each func(page int, r *pixeldiff.Raster, widthPt, heightPt float64) error) error {
	return m.rasterize(ctx, pdfPath, dpi, 0, 0, each)
}

// RasterizeRange implements RangeRasterizer: `mutool pages` and `mutool
// draw` are given the range, so the other pages are neither read nor drawn.
func (m *Mutool) RasterizeRange(ctx context.Context, pdfPath string, dpi, first, last int, each func(page int, r *pixeldiff.Raster, widthPt, heightPt float64) error) error {
	return m.rasterize(ctx, pdfPath, dpi, first, last, each)
}

// rasterize draws pages first..last, or every page when both are 0.
func (m *Mutool) rasterize(ctx context.Context, pdfPath string, dpi, first, last int, each func(page int, r *pixeldiff.Raster, widthPt, heightPt float64) error) error {
	if err := checkRange(first, last); err != nil {
		return err
	}
	var rng []string
	if first > 0 {
		rng = []string{fmt.Sprintf("%d-%d", first, last)}
	}
	out, err := runOutput(ctx, time.Minute, m.bin(), append([]string{"pages", pdfPath}, rng...)...)
	if err != nil {
		return sizesErr(ctx, "mutool pages", err, out)
	}
	if first == 0 && bytes.Contains(out, []byte("Failed to gather information")) {
		// mutool pages lists a phantom page 0 for an empty page tree:
		// ask for the page count itself.
		cnt, cerr := runOutput(ctx, time.Minute, m.bin(), "show", pdfPath, "trailer/Root/Pages/Count")
		if cerr == nil && strings.TrimSpace(string(cnt)) == "0" {
			return nil
		}
	}
	first = max(first, 1)
	sizes, err := parseMutoolPages(out, first)
	if err != nil {
		return &RenderError{Reason: ReasonRasterize, Detail: err.Error()}
	}
	if len(rng) > 0 && len(sizes) != last-first+1 {
		return &RenderError{Reason: ReasonRasterize, Detail: fmt.Sprintf("mutool pages: pages %s asked, %d listed", rng[0], len(sizes))}
	}
	if len(rng) == 0 {
		first = 0
	}
	return m.drawKnown(ctx, pdfPath, dpi, first, sizes, each)
}

// drawKnown draws the pages first..first+len(sizes)-1 whose sizes are
// known (every page when first is 0), without asking mutool pages.
func (m *Mutool) drawKnown(ctx context.Context, pdfPath string, dpi, first int, sizes []pageSize, each func(int, *pixeldiff.Raster, float64, float64) error) error {
	args := []string{"draw", "-q", "-r", strconv.Itoa(dpi), "-c", "rgb", "-F", "pnm", "-o", "-", pdfPath}
	if first == 0 {
		first = 1
	} else {
		args = append(args, fmt.Sprintf("%d-%d", first, first+len(sizes)-1))
	}
	return drawPages(ctx, "mutool", exec.Command(m.bin(), args...), sizes, dpi, first, each)
}

func orDefault(s, def string) string {
	if s != "" {
		return s
	}
	return def
}

func firstLine(b []byte) string {
	s := strings.TrimSpace(string(b))
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	if len(s) > 200 {
		s = s[:200]
	}
	return s
}

// tailBuffer keeps the last 4 KiB written to it (a process's stderr).
type tailBuffer struct{ b []byte }

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.b = append(t.b, p...)
	if len(t.b) > 4096 {
		t.b = append(t.b[:0], t.b[len(t.b)-4096:]...)
	}
	return len(p), nil
}

func (t *tailBuffer) String() string { return strings.TrimSpace(string(t.b)) }
