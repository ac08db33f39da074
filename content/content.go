package content

import (
	"bytes"
	"context"
	"fmt"
	"hash/maphash"
	"io"
	"os"
	"strings"

	"github.com/editaudit/editaudit/formats"
	"github.com/editaudit/editaudit/internal/ctxio"
)

// DefaultMaxChanges is how many changes Result.Changes lists when
// Options.MaxChanges is 0.
const DefaultMaxChanges = 200

// Options tune a content diff. The zero value is usable.
type Options struct {
	// MaxChanges caps Result.Changes (DefaultMaxChanges when 0); the rest
	// are counted in Result.Truncated and in the Summary.
	MaxChanges int
	// Limits bound the reading of each package (formats.DefaultLimits
	// when zero).
	Limits formats.Limits
	// MaxUnits bounds the paragraphs read from one Word, PowerPoint or
	// Hangul file (DefaultMaxUnits when 0); a file with more is not
	// compared (a "partial" result says so). Memory is about 200 bytes a
	// unit plus twice the document's text.
	MaxUnits int
}

// DefaultMaxUnits is Options.MaxUnits when 0: 19 times the paragraphs of
// the largest real document in the test corpus.
const DefaultMaxUnits = 300000

func (o Options) maxUnits() int {
	if o.MaxUnits <= 0 {
		return DefaultMaxUnits
	}
	return o.MaxUnits
}

func (o Options) maxChanges() int {
	if o.MaxChanges <= 0 {
		return DefaultMaxChanges
	}
	return o.MaxChanges
}

func (o Options) limits() formats.Limits {
	if o.Limits == (formats.Limits{}) {
		return formats.DefaultLimits()
	}
	return o.Limits
}

// Files diffs the content of the document at originalPath against the one
// at editedPath. The error is for I/O on the files and cancellation; a
// document that cannot be read is a "partial" Result saying so.
func Files(ctx context.Context, originalPath, editedPath string, opts Options) (*Result, error) {
	a, err := os.ReadFile(originalPath)
	if err != nil {
		return nil, err
	}
	b, err := os.ReadFile(editedPath)
	if err != nil {
		return nil, err
	}
	return Bytes(ctx, a, b, opts)
}

// Bytes diffs the content of two documents held in memory.
func Bytes(ctx context.Context, original, edited []byte, opts Options) (*Result, error) {
	return Readers(ctx, bytes.NewReader(original), int64(len(original)), bytes.NewReader(edited), int64(len(edited)), opts)
}

// Readers diffs the content of two documents read through io.ReaderAt.
func Readers(ctx context.Context, original io.ReaderAt, originalSize int64, edited io.ReaderAt, editedSize int64, opts Options) (*Result, error) {
	lim := opts.limits()
	pa, err := formats.Open(ctx, original, originalSize, "original", lim)
	if err != nil {
		return nil, err
	}
	pb, err := formats.Open(ctx, edited, editedSize, "edited", lim)
	if err != nil {
		return nil, err
	}
	return Packages(ctx, pa, pb, opts)
}

// Packages diffs the content of two opened packages. Each part is read
// afresh (the packages may have been inspected before); the packages'
// limits apply, including their total of bytes read, so a caller that
// already read a package near MaxTotalSize should open it again.
func Packages(ctx context.Context, original, edited *formats.Package, opts Options) (*Result, error) {
	c := &collector{max: opts.maxChanges()}
	res := &Result{Status: StatusOK}
	fa, fb := original.Format, edited.Format
	switch {
	case fa == formats.Unknown || fb == formats.Unknown:
		var which []string
		if fa == formats.Unknown {
			which = append(which, "the original")
		}
		if fb == formats.Unknown {
			which = append(which, "the edited file")
		}
		return partialResult(strings.Join(which, " and ") + " could not be read as a document package (its findings say why); no content was compared"), nil
	case fa != fb:
		return partialResult(fmt.Sprintf("the original is %s and the edited file is %s; content is compared only between documents of one format", fa, fb)), nil
	}
	var notes []string
	if fa == formats.XLSX {
		n, err := diffWorkbooks(ctx, original, edited, c)
		if err != nil {
			return nil, err
		}
		notes = n
	} else {
		xa, err := extract(ctx, original, newExtraction(opts.maxUnits()), true)
		if err != nil {
			return nil, err
		}
		xb := newExtraction(opts.maxUnits())
		if xa.kept != nil {
			xb.from = &reuse{pa: original, xa: xa, parts: xa.kept}
		}
		xb, err = extract(ctx, edited, xb, false)
		if err != nil {
			return nil, err
		}
		notes = diffExtractions(xa, xb, c)
	}
	res.Changes = c.changes
	if res.Changes == nil {
		res.Changes = []Change{}
	}
	res.Truncated = c.truncated
	res.Summary = c.sum
	if s := &res.Summary; s.UnitsBefore > 0 {
		s.ChangedShare = float64(s.Changed) / float64(s.UnitsBefore)
	}
	if len(notes) > 0 {
		res.Status = StatusPartial
		res.Message = strings.Join(notes, "; ")
	}
	return res, nil
}

func partialResult(msg string) *Result {
	return &Result{Status: StatusPartial, Message: msg, Changes: []Change{}}
}

// extract reads the units of a Word, PowerPoint or Hangul package into x;
// keep records them per part for the other file's extraction to reuse.
func extract(ctx context.Context, p *formats.Package, x *extraction, keep bool) (*extraction, error) {
	if keep {
		x.kept = map[string]*partUnits{}
		x.hashes, x.seed = map[string]uint64{}, maphash.MakeSeed()
	}
	var err error
	switch p.Format {
	case formats.DOCX:
		err = extractDocx(ctx, p, x)
	case formats.PPTX:
		err = extractPptx(ctx, p, x)
	case formats.HWPX:
		err = extractHwpx(ctx, p, x)
	default:
		x.fail("", "the package", "the format "+string(p.Format)+" has no content reader")
	}
	if err != nil {
		return nil, err
	}
	if _, whole := x.failed[""]; whole {
		x.stories, x.kept = nil, nil
	}
	return x, nil
}

// diffExtractions aligns the stories of two extractions and returns the
// notes on what was left out.
func diffExtractions(xa, xb *extraction, c *collector) []string {
	var notes []string
	for _, k := range xa.order {
		notes = append(notes, describeFailure(k, xa.failed[k], "the original"))
	}
	for _, k := range xb.order {
		notes = append(notes, describeFailure(k, xb.failed[k], "the edited file"))
	}
	if _, whole := xa.failed[""]; whole {
		return notes
	}
	notes = append(notes, c.formatsUnknown(xa.formatsUnknown, xb.formatsUnknown)...)
	if _, whole := xb.failed[""]; whole {
		return notes
	}
	drop := func(units []*unit) []*unit {
		if len(xa.failed) == 0 && len(xb.failed) == 0 {
			return units
		}
		out := units[:0:0]
		for _, u := range units {
			if _, f := xa.failed[u.group]; f {
				continue
			}
			if _, f := xb.failed[u.group]; f {
				continue
			}
			out = append(out, u)
		}
		return out
	}
	// Stories in the edited file's order; a story only the original has
	// is reported where it stood, before the next story both share.
	byKey := map[string]int{}
	for i, s := range xa.stories {
		byKey[s.key] = i
	}
	inB := map[string]bool{}
	for _, s := range xb.stories {
		inB[s.key] = true
	}
	done := make([]bool, len(xa.stories))
	emitOnlyA := func(upto int) {
		for i := 0; i < upto; i++ {
			if !done[i] && !inB[xa.stories[i].key] {
				done[i] = true
				if _, f := xa.failed[xa.stories[i].key]; f {
					continue
				}
				if _, f := xb.failed[xa.stories[i].key]; f {
					continue
				}
				c.alignStories(drop(xa.stories[i].units), nil, xa.formats, xb.formats)
			}
		}
	}
	for _, sb := range xb.stories {
		if _, f := xa.failed[sb.key]; f {
			continue
		}
		if _, f := xb.failed[sb.key]; f {
			continue
		}
		var ua []*unit
		if i, ok := byKey[sb.key]; ok {
			emitOnlyA(i)
			done[i] = true
			ua = drop(xa.stories[i].units)
		}
		c.alignStories(ua, drop(sb.units), xa.formats, xb.formats)
	}
	emitOnlyA(len(xa.stories))
	return notes
}

// formatsUnknown turns off the formatting comparison when the formatting
// of either file cannot be resolved (why not, per file; "" when it can),
// and returns the notes saying so.
func (c *collector) formatsUnknown(original, edited string) []string {
	var notes []string
	for _, n := range []struct{ side, why string }{{"the original", original}, {"the edited file", edited}} {
		if n.why != "" {
			c.noFormats = true
			notes = append(notes, "formatting was not compared: in "+n.side+", "+n.why)
		}
	}
	return notes
}

func describeFailure(key string, f failure, side string) string {
	if key == "" {
		return fmt.Sprintf("%s could not be read (%s); no content was compared", side, f.why)
	}
	return fmt.Sprintf("%s did not parse in %s (%s); its content was not compared", f.what, side, f.why)
}

// scanPart streams one XML part of p through h, afresh (whatever the
// package's own scans did). It returns "" when the part was read to its
// end, else why not.
func scanPart(ctx context.Context, p *formats.Package, part string, h formats.Handler) string {
	return scanPartHashed(ctx, p, part, h, nil)
}

// scanPartHashed is scanPart that also feeds the part's bytes to sum
// (when not nil).
func scanPartHashed(ctx context.Context, p *formats.Package, part string, h formats.Handler, sum io.Writer) string {
	rc, err := p.OpenPart(part)
	if err != nil {
		return "cannot read the part: " + err.Error()
	}
	defer rc.Close()
	var r io.Reader = ctxio.Reader(ctx, rc)
	if sum != nil {
		r = io.TeeReader(r, sum)
	}
	res := formats.ScanXML(part, r, p.Limits, h)
	if res.Complete {
		return ""
	}
	for _, f := range res.Findings {
		if f.Grade == formats.Fatal {
			msg := f.Message
			if f.Line > 0 {
				msg = fmt.Sprintf("line %d, column %d: %s", f.Line, f.Column, msg)
			}
			return clip(msg, 200)
		}
	}
	return "the part could not be read to its end"
}
