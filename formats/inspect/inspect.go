// Package inspect validates and counts a document of any supported format:
// it opens the package under limits, hands it to the format's inspector
// (formats/docx, pptx, xlsx, hwpx), runs the package-level checks, and
// returns one sorted Report. It lives apart from formats because it imports
// every format package, which themselves import formats.
//
// It must not import content, pixeldiff, render, baseline, audit, reports or
// corpus: it judges a document's bytes, and those packages build on it.
package inspect

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/editaudit/editaudit/formats"
	"github.com/editaudit/editaudit/formats/docx"
	"github.com/editaudit/editaudit/formats/hwpx"
	"github.com/editaudit/editaudit/formats/pptx"
	"github.com/editaudit/editaudit/formats/xlsx"
	"github.com/editaudit/editaudit/internal/fsutil"
)

// Options tune an inspection.
type Options struct {
	// Limits bound the resources spent; zero means formats.DefaultLimits.
	Limits formats.Limits
}

func (o Options) limits() formats.Limits {
	if o.Limits.MaxEntries == 0 {
		return formats.DefaultLimits()
	}
	return o.Limits
}

// File inspects the document at path. The error is for I/O failures and
// cancellation only; a corrupt document is a Report with findings.
func File(ctx context.Context, path string, opts Options) (*formats.Report, error) {
	// A FIFO, device, socket or folder is refused from its stat, before
	// any open (an open of a FIFO blocks until a writer comes).
	f, st, err := fsutil.OpenRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	lim := opts.limits()
	if st.Size() > lim.MaxFileSize {
		return Reader(ctx, f, st.Size(), path, opts) // reports the limit without reading
	}
	// Read once into memory: the zip reader seeks all over the file and the
	// bytes are hashed anyway; documents are small next to the limits. The
	// read is limited to the size seen, so a file growing meanwhile cannot
	// take more.
	data := make([]byte, st.Size())
	if _, err := io.ReadFull(f, data); err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	return Reader(ctx, bytes.NewReader(data), int64(len(data)), path, opts)
}

// Bytes inspects a document held in memory; name is used in messages.
func Bytes(ctx context.Context, data []byte, name string, opts Options) (*formats.Report, error) {
	return Reader(ctx, bytes.NewReader(data), int64(len(data)), name, opts)
}

// Reader inspects a document read from ra.
func Reader(ctx context.Context, ra io.ReaderAt, size int64, name string, opts Options) (*formats.Report, error) {
	p, err := formats.Open(ctx, ra, size, name, opts.limits())
	if err != nil {
		return nil, err
	}
	rep := &formats.Report{Path: name, Format: p.Format, Flavor: p.Flavor, SHA256: p.SHA256, Size: size, Counts: formats.Counts{}, MainPart: p.MainPart}
	if len(p.Entries) > 0 {
		if err := inspectFormat(ctx, p, rep); err != nil {
			return nil, err
		}
		rep.NotCounted = notCounted(p, rep)
		if err := p.ScanRest(ctx); err != nil {
			return nil, err
		}
	} else {
		// Not a readable zip (truncated, no central directory, empty):
		// nothing was counted, which says nothing about what it holds.
		rep.NotCounted = []string{formats.NotCountedPackage}
	}
	rep.Findings = append(rep.Findings, p.Findings()...)
	formats.Sort(rep.Findings)
	if rep.Findings == nil {
		rep.Findings = []formats.Finding{}
	}
	return rep, nil
}

// notCounted lists the parts the format counted (rep.Parts) and the main
// part whose scans stopped before their end, naturally sorted: their
// counts are partial.
func notCounted(p *formats.Package, rep *formats.Report) []string {
	var out []string
	seen := map[string]bool{}
	add := func(part string) {
		if part != "" && !seen[strings.ToLower(part)] && p.Incomplete(part) {
			seen[strings.ToLower(part)] = true
			out = append(out, part)
		}
	}
	add(p.MainPart)
	for part := range rep.Parts {
		add(part)
	}
	sort.Slice(out, func(i, j int) bool { return formats.NaturalLess(out[i], out[j]) })
	return out
}

// inspectFormat runs the format's own validators and counter.
func inspectFormat(ctx context.Context, p *formats.Package, rep *formats.Report) error {
	switch p.Format {
	case formats.DOCX:
		return docx.Inspect(ctx, p, rep)
	case formats.PPTX:
		return pptx.Inspect(ctx, p, rep)
	case formats.HWPX:
		return hwpx.Inspect(ctx, p, rep)
	case formats.XLSX:
		return xlsx.Inspect(ctx, p, rep)
	}
	return nil
}
