package content

import (
	"bytes"
	"context"
	"hash/maphash"
	"io"
	"strings"

	"github.com/editaudit/editaudit/formats"
	"github.com/editaudit/editaudit/internal/ctxio"
)

// An edit usually leaves most parts byte for byte as they were (the other
// slides, the headers, the unchanged sections). The edited file's
// extraction takes the original's units for such a part instead of
// scanning it again, when everything else its units depend on (styles,
// slide number, section number) is the same too.

// partUnits are the units the original's extraction read from one part.
type partUnits struct {
	part  string // as named in the original
	ctx   string // what else the units depend on
	units []*unit
}

// reuse is what the edited file's extraction may take from the
// original's.
type reuse struct {
	pa    *formats.Package
	xa    *extraction
	parts map[string]*partUnits // lower-case part name → units
}

// scanPart scans a part of p; the original's extraction records a hash of
// every part it reads completely, so that the edited file's can tell an
// identical part by reading only its own copy.
func (x *extraction) scanPart(ctx context.Context, p *formats.Package, part string, h formats.Handler) string {
	if x.hashes == nil {
		return scanPart(ctx, p, part, h)
	}
	var sum maphash.Hash
	sum.SetSeed(x.seed)
	why := scanPartHashed(ctx, p, part, h, &sum)
	if why == "" {
		x.hashes[strings.ToLower(part)] = sum.Sum64()
	}
	return why
}

// sameAsOriginal reports whether part b of p (the edited file) holds the
// same bytes as part a of the original.
func (x *extraction) sameAsOriginal(ctx context.Context, p *formats.Package, b, a string) bool {
	xa := x.from.xa
	want, ok := xa.hashes[strings.ToLower(a)]
	if !ok {
		return sameBytes(ctx, x.from.pa, a, p, b)
	}
	ea, eb := x.from.pa.Entry(a), p.Entry(b)
	if ea == nil || eb == nil || ea.Size != eb.Size {
		return false
	}
	rc, err := p.OpenPart(b)
	if err != nil {
		return false
	}
	defer rc.Close()
	var sum maphash.Hash
	sum.SetSeed(xa.seed)
	if _, err := io.Copy(&sum, ctxio.Reader(ctx, rc)); err != nil {
		return false
	}
	return sum.Sum64() == want
}

// storyHandler scans one story part into units.
type storyHandler interface {
	formats.Handler
	collected() []*unit
}

// readStory adds the story of part: the original's units when the part
// and its context (pctx; contextSame for the parts formatting is resolved
// through) are unchanged, else the units a scan with a new handler finds.
// A part that does not parse fails its story.
func (x *extraction) readStory(ctx context.Context, p *formats.Package, part, pctx string, contextSame bool, handler func() storyHandler) {
	key := strings.ToLower(part)
	if units, ok := x.reusedIf(contextSame, ctx, p, part, pctx); ok {
		x.stories = append(x.stories, &story{key: key, part: part, units: units})
		return
	}
	h := handler()
	if why := x.scanPart(ctx, p, part, h); why != "" {
		x.fail(key, part, why)
		return
	}
	x.keep(part, pctx, h.collected())
	x.stories = append(x.stories, &story{key: key, part: part, units: h.collected()})
}

// keep records the units of a part (original side only).
func (x *extraction) keep(part, ctx string, units []*unit) {
	if x.kept == nil {
		return
	}
	x.kept[strings.ToLower(part)] = &partUnits{part: part, ctx: ctx, units: units}
}

// reused returns copies of the original's units for part when its bytes
// and context are the same in both files.
func (x *extraction) reused(ctx context.Context, p *formats.Package, part, pctx string) ([]*unit, bool) {
	if x.from == nil {
		return nil, false
	}
	pu := x.from.parts[strings.ToLower(part)]
	if pu == nil || pu.ctx != pctx || !x.sameAsOriginal(ctx, p, part, pu.part) {
		return nil, false
	}
	fa := x.from.xa.formats
	out := make([]*unit, len(pu.units))
	for i, u := range pu.units {
		c := *u
		c.part = part
		if len(u.runs) > 0 {
			c.runs = make([]run, len(u.runs))
			for k, r := range u.runs {
				c.runs[k] = run{n: r.n, f: x.formats.intern(fa.list[r.f])}
			}
		}
		out[i] = &c
	}
	if x.units+len(out) > x.maxUnits {
		x.units = x.maxUnits
		x.take() // reports the overflow
		return nil, true
	}
	x.units += len(out)
	return out, true
}

// sameContext reports whether the parts the units' formatting is resolved
// through (styles.xml and the theme, header.xml) are the same in both
// files; partsA are the original's names ("" when absent), partsB the
// edited file's.
func (x *extraction) sameContext(ctx context.Context, p *formats.Package, partsA, partsB []string) bool {
	if x.from == nil || len(partsA) != len(partsB) {
		return false
	}
	for i := range partsA {
		a, b := partsA[i], partsB[i]
		if a == "" || b == "" {
			if a != b {
				return false
			}
			continue
		}
		if !x.sameAsOriginal(ctx, p, b, a) {
			return false
		}
	}
	return true
}

// reusedIf is reused when cond holds.
func (x *extraction) reusedIf(cond bool, ctx context.Context, p *formats.Package, part, pctx string) ([]*unit, bool) {
	if !cond {
		return nil, false
	}
	return x.reused(ctx, p, part, pctx)
}

// sameBytes reports whether part a of pa and part b of pb hold the same
// bytes, reading both in step (constant memory; it stops at the first
// difference).
func sameBytes(ctx context.Context, pa *formats.Package, a string, pb *formats.Package, b string) bool {
	ea, eb := pa.Entry(a), pb.Entry(b)
	if ea == nil || eb == nil || ea.Size != eb.Size {
		return false
	}
	ra, err := pa.OpenPart(a)
	if err != nil {
		return false
	}
	defer ra.Close()
	rb, err := pb.OpenPart(b)
	if err != nil {
		return false
	}
	defer rb.Close()
	var bufA, bufB [32 << 10]byte
	for {
		if ctx.Err() != nil {
			return false
		}
		na, errA := io.ReadFull(ra, bufA[:])
		nb, errB := io.ReadFull(rb, bufB[:])
		if na != nb || !bytes.Equal(bufA[:na], bufB[:nb]) {
			return false
		}
		endA := errA == io.EOF || errA == io.ErrUnexpectedEOF
		endB := errB == io.EOF || errB == io.ErrUnexpectedEOF
		switch {
		case endA && endB:
			return true
		case errA != nil || errB != nil:
			return false // a read error (CRC, limit): scan it and say so
		}
	}
}
