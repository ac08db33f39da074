package inspect_test

// Hostile inputs through the whole inspection, in every format: each hostile
// part replaces the format's main content part (the Word body, the first
// sheet, the first slide, the first Hangul section) of a generated example
// document, so the format's own validators and counters meet it too. Each
// must end in the finding that names it, with no error, in bounded memory.
// The package-level limits (entry counts, names, declared sizes) are tested
// in formats/limits_test.go.

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"context"
	"fmt"
	"hash/crc32"
	"io"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/editaudit/editaudit/formats"
	"github.com/editaudit/editaudit/formats/inspect"
)

// hostileMainPart is the part of each format that gets the hostile content.
var hostileMainPart = map[formats.Format]string{
	formats.DOCX: "word/document.xml",
	formats.XLSX: "xl/worksheets/sheet1.xml",
	formats.PPTX: "ppt/slides/slide1.xml",
	formats.HWPX: "Contents/section0.xml",
}

// hostileRepeat is prefix, pat repeated to n bytes, suffix, streamed.
func hostileRepeat(prefix, pat string, n int64, suffix string) func() io.Reader {
	return func() io.Reader {
		return io.MultiReader(strings.NewReader(prefix), &hostileRepeatReader{pat: []byte(pat), n: n}, strings.NewReader(suffix))
	}
}

type hostileRepeatReader struct {
	pat []byte
	off int
	n   int64
}

func (r *hostileRepeatReader) Read(b []byte) (int, error) {
	if r.n <= 0 {
		return 0, io.EOF
	}
	if int64(len(b)) > r.n {
		b = b[:r.n]
	}
	for i := range b {
		b[i] = r.pat[r.off]
		r.off = (r.off + 1) % len(r.pat)
	}
	r.n -= int64(len(b))
	return len(b), nil
}

// hostileZeros writes a deflate stream of n zeros (n a multiple of 1 MiB)
// holding 1 MiB at most: Go's deflater turns each sync-flushed MiB of zeros
// after the first into the same bytes.
func hostileZeros(w io.Writer, n int64) (uint32, error) {
	zeros := make([]byte, 1<<20)
	var buf bytes.Buffer
	fw, _ := flate.NewWriter(&buf, flate.BestCompression)
	var chunks [3][]byte
	for i := range chunks {
		start := buf.Len()
		fw.Write(zeros)
		fw.Flush()
		chunks[i] = bytes.Clone(buf.Bytes()[start:])
	}
	if !bytes.Equal(chunks[1], chunks[2]) {
		return 0, fmt.Errorf("deflate of zeros is not periodic")
	}
	start := buf.Len()
	fw.Close()
	final := bytes.Clone(buf.Bytes()[start:])
	w.Write(chunks[0])
	var crc uint32
	for i := int64(0); i < n>>20; i++ {
		if i > 0 {
			w.Write(chunks[1])
		}
		crc = crc32.Update(crc, crc32.IEEETable, zeros)
	}
	_, err := w.Write(final)
	return crc, err
}

// rawPart is a part's deflated bytes with the header values to declare.
type rawPart struct {
	data []byte
	crc  uint32
	size uint64 // declared uncompressed size
}

// deflated compresses a streamed part once (it is then placed in every
// format's package): content, or when bomb > 0, bomb zero bytes declared as
// declared bytes.
func deflated(t *testing.T, content func() io.Reader, bomb int64, declared uint64) rawPart {
	t.Helper()
	var out bytes.Buffer
	if bomb > 0 {
		crc, err := hostileZeros(&out, bomb)
		if err != nil {
			t.Fatal(err)
		}
		return rawPart{data: out.Bytes(), crc: crc, size: declared}
	}
	fw, _ := flate.NewWriter(&out, flate.BestSpeed)
	h := crc32.NewIEEE()
	n, err := io.Copy(io.MultiWriter(fw, h), content())
	if err != nil {
		t.Fatal(err)
	}
	fw.Close()
	return rawPart{data: out.Bytes(), crc: h.Sum32(), size: uint64(n)}
}

// replacePart copies the package in with part's content replaced by rp.
func replacePart(t *testing.T, in []byte, part string, rp rawPart) []byte {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(in), int64(len(in)))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	zw := zip.NewWriter(&out)
	found := false
	for _, f := range zr.File {
		hdr := f.FileHeader
		r, _ := f.OpenRaw()
		if f.Name == part {
			found = true
			hdr = zip.FileHeader{Name: part, Method: zip.Deflate, CRC32: rp.crc, UncompressedSize64: rp.size, CompressedSize64: uint64(len(rp.data))}
			r = bytes.NewReader(rp.data)
		}
		w, err := zw.CreateRaw(&hdr)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := io.Copy(w, r); err != nil {
			t.Fatal(err)
		}
	}
	if !found {
		t.Fatalf("no part %s", part)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

func TestHostileInputs(t *testing.T) {
	if testing.Short() {
		t.Skip("gigabyte bombs and 64 MiB parts: not in -short")
	}
	const mib = 1 << 20
	const gib = 1 << 30
	laughs := `<?xml version="1.0"?><!DOCTYPE l [<!ENTITY a "aaaaaaaaaa">` +
		`<!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">` +
		`<!ENTITY d "&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;"><!ENTITY e "&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;">` +
		`<!ENTITY f "&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;"><!ENTITY g "&f;&f;&f;&f;&f;&f;&f;&f;&f;&f;">` +
		`<!ENTITY h "&g;&g;&g;&g;&g;&g;&g;&g;&g;&g;"><!ENTITY i "&h;&h;&h;&h;&h;&h;&h;&h;&h;&h;">]><l>&i;</l>`
	cases := []struct {
		name    string
		content func() io.Reader
		bomb    int64
		decl    uint64
		code    string
		mem     uint64 // allocation bound beyond 4× the input
	}{
		{"200k-deep nesting", func() io.Reader {
			return io.MultiReader(hostileRepeat("", "<a>", 3*200000, "")(), hostileRepeat("", "</a>", 4*200000, "")())
		}, 0, 0, formats.CodeXMLTooDeep, 16 * mib},
		{"billion laughs", hostileRepeat(laughs, " ", 1, ""), 0, 0, formats.CodeXMLDoctype, 16 * mib},
		{"external entity", hostileRepeat(`<?xml version="1.0"?><!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]><r>&x;</r>`, " ", 1, ""), 0, 0, formats.CodeXMLDoctype, 16 * mib},
		// With a 4 MiB token limit: reading either whole would allocate
		// at least 128 MiB.
		{"64 MiB attribute", hostileRepeat(`<r a="`, "x", 64*mib, `"/>`), 0, 0, formats.CodeXMLTokenTooLarge, 40 * mib},
		{"64 MiB text full of >", hostileRepeat(`<r>`, "x>", 64*mib, `</r>`), 0, 0, formats.CodeXMLTokenTooLarge, 40 * mib},
		{"8 MiB of illegal characters", hostileRepeat(`<r>`, "\x01", 8*mib, `</r>`), 0, 0, formats.CodeXMLTooManyFindings, 64 * mib},
		{"1 GiB of zeros (ratio ~1000:1)", nil, gib, gib, formats.CodeZipLimit, 16 * mib},
		{"1 GiB of zeros declaring 1 KiB", nil, gib, 1024, formats.CodeZipLimit, 16 * mib},
	}
	seeds := specSeeds(t)
	parts := make([]rawPart, len(cases))
	for i, tc := range cases {
		parts[i] = deflated(t, tc.content, tc.bomb, tc.decl)
	}
	for _, format := range []formats.Format{formats.DOCX, formats.XLSX, formats.PPTX, formats.HWPX} {
		base, ok := seeds[format]
		if !ok {
			t.Errorf("no example document for %s", format)
			continue
		}
		part := hostileMainPart[format]
		for i, tc := range cases {
			t.Run(string(format)+"/"+tc.name, func(t *testing.T) {
				data := replacePart(t, base, part, parts[i])
				var rep *formats.Report
				var err error
				runtime.GC()
				var m0, m1 runtime.MemStats
				runtime.ReadMemStats(&m0)
				start := time.Now()
				lim := formats.DefaultLimits()
				if tc.bomb == 0 {
					// These parts compress far beyond 200:1, so the ratio
					// limit alone refuses them unread; lifted, the XML
					// limits must hold in each format's scan.
					lim.MaxRatio = 1 << 40
					lim.MaxTokenSize = 4 * mib
				}
				rep, err = inspect.Bytes(context.Background(), data, "hostile."+string(format), inspect.Options{Limits: lim})
				d := time.Since(start)
				runtime.ReadMemStats(&m1)
				alloc := m1.TotalAlloc - m0.TotalAlloc
				if err != nil {
					t.Fatalf("inspect: %v", err)
				}
				t.Logf("%d-byte file: %.1f MiB allocated, %s, %d findings", len(data), float64(alloc)/mib, d.Round(time.Millisecond), len(rep.Findings))
				found := false
				for _, f := range rep.Findings {
					if f.Code == tc.code && f.Part == part {
						found = true
					}
					if strings.Contains(f.Message+f.Anchor, "root:") {
						t.Errorf("finding leaks file content: %+v", f)
					}
				}
				if !found {
					t.Errorf("no %s finding on %s: %v", tc.code, part, rep.Findings)
				}
				if !rep.Fatal() {
					t.Error("a hostile part is not fatal")
				}
				if bound := tc.mem + 4*uint64(len(data)); alloc > bound {
					t.Errorf("allocated %d MiB, bound %d MiB", alloc/mib, bound/mib)
				}
				if d > 90*time.Second {
					t.Errorf("took %s (sanity cap 90s)", d)
				}
			})
		}
	}
}
