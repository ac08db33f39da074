package audit

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/editaudit/editaudit/baseline"
	"github.com/editaudit/editaudit/internal/fsutil"
	"github.com/editaudit/editaudit/pixeldiff"
	"github.com/editaudit/editaudit/render"
)

// compareChunk bounds the pages held in memory at once while comparing
// (each A4 page at 100 dpi is ~2.9 MB of RGB).
const compareChunk = 8

// jpegQuality of the before/after composites.
const jpegQuality = 85

// comparePages aligns the original's and the edited file's pages, compares
// the pairs that differ, says reflows once, and draws the pages the budget
// shows.
func comparePages(ctx context.Context, r *render.Renderer, snap *baseline.Snapshot, ep baseline.Pages, opts Options) Pages {
	out := Pages{Status: PagesOK, Changed: []ChangedPage{}, Inserted: []int{}, Deleted: []int{}, Shown: []ShownPage{}, Toolchain: ep.Toolchain,
		Notice: ep.Notice, Notes: ep.Notes}
	sp := snap.Pages
	if out.Notice == "" {
		out.Notice = sp.Notice
	}
	switch {
	case sp.Status != baseline.PagesOK:
		out.Status, out.Message = sp.Status, "original: "+sp.Message
		out.After = len(ep.Sigs)
		return out
	case ep.Status != baseline.PagesOK:
		out.Status, out.Message = ep.Status, "edited file: "+ep.Message
		out.Before = len(sp.Sigs)
		return out
	}
	out.Before, out.After = len(sp.Sigs), len(ep.Sigs)
	bands := sp.Bands
	pairs := pixeldiff.Align(sp.Sigs, ep.Sigs, bands)
	reflows := pixeldiff.DetectReflow(sp.Sigs, ep.Sigs, pairs, bands)
	inRun := map[int]bool{}
	for _, rf := range reflows {
		out.Reflowed = append(out.Reflowed, Reflow{From: rf.From, To: rf.To, Cause: rf.Cause, BeforeFrom: rf.BeforeFrom, BeforeTo: rf.BeforeTo})
		for p := rf.From; p <= rf.To; p++ {
			if p != rf.Cause {
				inRun[p] = true
			}
		}
	}
	// Pixel-compare the pairs that differ and are not explained by a
	// reflow; a pair whose differences are only rendering noise is same.
	// A moved page is compared when its content outside the bands differs
	// (paired by its text: a slide moved and its number changed).
	var todo []int
	for i, p := range pairs {
		if p.Label != pixeldiff.LabelChanged || inRun[p.After] {
			continue
		}
		if p.Moved && sp.Sigs[p.Before-1].Masked(bands) == ep.Sigs[p.After-1].Masked(bands) {
			continue
		}
		todo = append(todo, i)
	}
	diffs := map[int]pixeldiff.Diff{}
	copts := opts.Compare
	copts.Bands = bands
	before := originalPages(r, snap)
	after := newPageSource(r, ep.PDFPath(), ep.Sizes, ep.Kept())
	for start := 0; start < len(todo); start += compareChunk {
		chunk := todo[start:min(len(todo), start+compareChunk)]
		bs, as, err := rasterPairs(ctx, before, after, pairs, chunk)
		if err != nil {
			out.Status, out.Message = PagesFailed, fmt.Sprintf("comparing pages: %v", err)
			return out
		}
		for _, i := range chunk {
			p := pairs[i]
			diffs[i] = pixeldiff.Compare(bs[p.Before], as[p.After], copts)
		}
	}
	var kept []pixeldiff.Pair
	for i, p := range pairs {
		switch p.Label {
		case pixeldiff.LabelInserted:
			out.Inserted = append(out.Inserted, p.After)
		case pixeldiff.LabelDeleted:
			out.Deleted = append(out.Deleted, p.Before)
		case pixeldiff.LabelChanged:
			if inRun[p.After] {
				break // said once in Reflowed
			}
			d, compared := diffs[i]
			if compared && d.Same && !p.Moved {
				p.Label = pixeldiff.LabelSame
				break
			}
			cp := ChangedPage{Before: p.Before, After: p.After, MarginsOnly: p.MarginsOnly || d.MarginsOnly, Moved: p.Moved, Boxes: [][4]int{}}
			if compared {
				cp.Ratio, cp.Boxes = round4(d.Ratio), d.Boxes
				if cp.Boxes == nil {
					cp.Boxes = [][4]int{}
				}
			}
			out.Changed = append(out.Changed, cp)
		}
		kept = append(kept, p)
	}
	sel := pixeldiff.Budget(kept, reflows, opts.show())
	for _, p := range sel.Listed {
		if p.After > 0 && inRun[p.After] {
			continue // said once, in Reflowed
		}
		if p.After > 0 {
			out.NotShown = append(out.NotShown, p.After)
		} else {
			out.NotShown = append(out.NotShown, p.Before)
		}
	}
	boxes := map[[2]int][][4]int{}
	for _, c := range out.Changed {
		boxes[[2]int{c.Before, c.After}] = c.Boxes
	}
	shown, err := drawShown(ctx, before, after, sel.Shown, boxes, opts.OutDir)
	if err != nil {
		out.Status, out.Message = PagesFailed, fmt.Sprintf("drawing the changed pages: %v", err)
		return out
	}
	out.Shown = shown
	return out
}

func round4(f float64) float64 {
	return float64(int64(f*10000+0.5)) / 10000
}

// keptPages bounds the page rasters an audit holds per document (an A4
// page at 100 dpi is ~2.9 MB; as many as a compare chunk): the edited
// file's pages kept from signing and the pages drawn for comparing,
// reused when the same pages are compared and shown. Pages beyond it are
// drawn again when needed.
const keptPages = compareChunk

// pageSource draws a document's pages from its PDF, each once: pages kept
// from signing and pages drawn before (up to keptPages) are handed out
// again instead of drawn again, and pages are drawn in ranges without
// asking the rasterizer for their sizes, which the signing recorded.
//
// The original's pages are also looked up in, and put into, the
// renderer's page cache by their signatures (sigs): an agent's next edit
// of the same original is compared with them without drawing them again.
// A page drawn here is put under the signature the snapshot recorded for
// it: the same PDF drawn by the same rasterizer (the store hands out a
// snapshot only for the renderer's toolchain) gives the same pixels.
type pageSource struct {
	r     *render.Renderer
	pdf   string
	sizes [][2]float64
	have  map[int]*pixeldiff.Raster
	sigs  []pixeldiff.PageSig // an original's: its pages are cached
}

func newPageSource(r *render.Renderer, pdf string, sizes [][2]float64, kept map[int]*pixeldiff.Raster) *pageSource {
	have := map[int]*pixeldiff.Raster{}
	for p, ra := range kept {
		have[p] = ra
	}
	return &pageSource{r: r, pdf: pdf, sizes: sizes, have: have}
}

// originalPages is the pageSource of an original's stored PDF, through
// the renderer's page cache.
func originalPages(r *render.Renderer, snap *baseline.Snapshot) *pageSource {
	s := newPageSource(r, snap.PDF(), snap.Pages.Sizes, nil)
	s.sigs = snap.Pages.Sigs
	return s
}

// cached returns page p from the page cache (nil when not there).
func (s *pageSource) cached(p int) *pixeldiff.Raster {
	if s.sigs == nil || p < 1 || p > len(s.sigs) {
		return nil
	}
	return s.r.Pages.Get(s.sigs[p-1].Full)
}

// get returns the rasters of pages (1-based).
func (s *pageSource) get(ctx context.Context, pages []int) (map[int]*pixeldiff.Raster, error) {
	m := map[int]*pixeldiff.Raster{}
	var missing []int
	for _, p := range pages {
		ra := s.have[p]
		if ra == nil {
			if ra = s.cached(p); ra != nil && len(s.have) < keptPages {
				s.have[p] = ra
			}
		}
		if ra != nil {
			m[p] = ra
		} else {
			missing = append(missing, p)
		}
	}
	if len(missing) == 0 {
		return m, nil
	}
	keep := func(page int, ra *pixeldiff.Raster, _, _ float64) error {
		m[page] = ra
		if len(s.have) < keptPages {
			s.have[page] = ra
		}
		if s.sigs != nil && page >= 1 && page <= len(s.sigs) {
			s.r.Pages.Put(s.sigs[page-1].Full, ra)
		}
		return nil
	}
	if len(s.sizes) > 0 {
		return m, render.RasterizeKnownPages(ctx, s.r.Raster, s.pdf, s.r.DPIValue(), missing, s.sizes, keep)
	}
	return m, render.RasterizePages(ctx, s.r.Raster, s.pdf, s.r.DPIValue(), missing, keep)
}

// rasterPairs draws the pages of the pairs listed by idx on both sides.
func rasterPairs(ctx context.Context, before, after *pageSource, pairs []pixeldiff.Pair, idx []int) (map[int]*pixeldiff.Raster, map[int]*pixeldiff.Raster, error) {
	var wantB, wantA []int
	for _, i := range idx {
		if pairs[i].Before > 0 {
			wantB = append(wantB, pairs[i].Before)
		}
		if pairs[i].After > 0 {
			wantA = append(wantA, pairs[i].After)
		}
	}
	bs, err := before.get(ctx, wantB)
	if err != nil {
		return nil, nil, err
	}
	as, err := after.get(ctx, wantA)
	return bs, as, err
}

// drawShown makes the before/after composites of the shown pairs, as JPEG
// bytes and, with an output folder, as files pages/pN.jpg (the edited
// page's number; dN.jpg for a deleted original page).
func drawShown(ctx context.Context, before, after *pageSource, shown []pixeldiff.Pair, boxes map[[2]int][][4]int, outDir string) ([]ShownPage, error) {
	res := []ShownPage{}
	if len(shown) == 0 {
		return res, nil
	}
	idx := make([]int, len(shown))
	for i := range shown {
		idx[i] = i
	}
	bs, as, err := rasterPairs(ctx, before, after, shown, idx)
	if err != nil {
		return nil, err
	}
	for _, p := range shown {
		var before, after *pixeldiff.Raster
		o := pixeldiff.CompositeOptions{}
		if p.Before > 0 {
			before = bs[p.Before]
			o.LabelBefore = fmt.Sprintf("original p. %d", p.Before)
		} else if p.Label == pixeldiff.LabelReflowed {
			// Its content is the original's, from the pages around it.
			o.LabelBefore = "(reflowed: content of other original pages)"
		} else {
			o.LabelBefore = "(not in the original)"
		}
		if p.After > 0 {
			after = as[p.After]
			o.LabelAfter = fmt.Sprintf("edited p. %d", p.After)
		} else if p.Label == pixeldiff.LabelReflowed {
			o.LabelAfter = "(reflowed: content on other edited pages)"
		} else {
			o.LabelAfter = "(deleted)"
		}
		b := boxes[[2]int{p.Before, p.After}]
		img := pixeldiff.Composite(before, after, b, b, o)
		var buf bytes.Buffer
		if err := pixeldiff.EncodeJPEG(&buf, img, jpegQuality); err != nil {
			return nil, err
		}
		sp := ShownPage{Before: p.Before, After: p.After, JPEG: buf.Bytes()}
		if outDir != "" {
			name := fmt.Sprintf("p%d.jpg", p.After)
			if p.After == 0 {
				name = fmt.Sprintf("d%d.jpg", p.Before)
			}
			sp.Image = "pages/" + name
			if err := writeFileAtomic(filepath.Join(outDir, "pages", name), buf.Bytes()); err != nil {
				return nil, err
			}
		}
		res = append(res, sp)
	}
	return res, nil
}

// writeFileAtomic writes an output file through a temp file and rename.
func writeFileAtomic(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return fsutil.WriteFileAtomic(path, data, 0o644)
}
