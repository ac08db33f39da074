package formats

// Stated limits (docs/operations.md): each hostile input below must end in a
// finding that names it, in bounded memory (measured as the bytes allocated
// while handling it, an upper bound of the peak heap) and in bounded time (a
// generous sanity cap only: the machine running the suite may be loaded).
// The inputs are generated streaming, never held whole in memory.

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"context"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"
	"runtime"
	"strings"
	"testing"
	"time"
)

// limitWallCap is the sanity cap on one hostile input. The real figures are
// logged and recorded in docs/operations.md; this only catches a hang.
const limitWallCap = 90 * time.Second

// measureAlloc runs fn and returns the bytes allocated meanwhile (TotalAlloc
// delta: every allocation counts, freed or not, so it bounds the peak) and
// the elapsed time. Tests using it must not run in parallel.
func measureAlloc(fn func()) (uint64, time.Duration) {
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	start := time.Now()
	fn()
	d := time.Since(start)
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc, d
}

// repeatReader yields pat over and over, n bytes in all.
type repeatReader struct {
	pat []byte
	off int
	n   int64
}

func (r *repeatReader) Read(b []byte) (int, error) {
	if r.n <= 0 {
		return 0, io.EOF
	}
	if int64(len(b)) > r.n {
		b = b[:r.n]
	}
	w := 0
	for w < len(b) {
		c := copy(b[w:], r.pat[r.off:])
		w += c
		r.off = (r.off + c) % len(r.pat)
	}
	r.n -= int64(w)
	return w, nil
}

// repeated returns a reader of prefix, pat repeated to n bytes, suffix.
func repeated(prefix, pat string, n int64, suffix string) io.Reader {
	return io.MultiReader(strings.NewReader(prefix), &repeatReader{pat: []byte(pat), n: n}, strings.NewReader(suffix))
}

// distinctSiblings yields <r><e0/><e1/>…</r> with n children of n
// different names.
type distinctSiblings struct {
	i, n int
	buf  []byte
	done bool
}

func (d *distinctSiblings) Read(b []byte) (int, error) {
	for len(d.buf) < len(b) && !d.done {
		switch {
		case d.i == 0 && len(d.buf) == 0 && d.n > 0 && d.i < d.n:
			d.buf = append(d.buf, "<r>"...)
			fallthrough
		default:
			if d.i < d.n {
				d.buf = fmt.Appendf(d.buf, "<e%d/>", d.i)
				d.i++
			} else {
				d.buf = append(d.buf, "</r>"...)
				d.done = true
			}
		}
	}
	if len(d.buf) == 0 {
		return 0, io.EOF
	}
	n := copy(b, d.buf)
	d.buf = d.buf[n:]
	return n, nil
}

// manyAttrs yields one start tag with n attributes a0="" a1="" ….
func manyAttrs(n int) io.Reader {
	var b bytes.Buffer
	b.WriteString("<r")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, ` a%d=""`, i)
	}
	b.WriteString("/>")
	return &b
}

const billionLaughs = `<?xml version="1.0"?>
<!DOCTYPE lolz [
 <!ENTITY lol "lol">
 <!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
 <!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
 <!ENTITY lol5 "&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;">
 <!ENTITY lol6 "&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;">
 <!ENTITY lol7 "&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;">
 <!ENTITY lol8 "&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;">
 <!ENTITY lol9 "&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;">
]>
<lolz>&lol9;</lolz>`

const w14 = `xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"`

// TestLimitsXML: hostile XML parts end in the finding that names them, in
// bounded memory. mem is the allocation bound; with the default 16 MiB
// token limit a full read of any of the 64 MiB inputs would allocate far
// more than it.
func TestLimitsXML(t *testing.T) {
	if testing.Short() {
		t.Skip("hostile inputs of 64 MiB: not in -short")
	}
	const mib = 1 << 20
	small := DefaultLimits()
	small.MaxTokenSize = 1 * mib
	tests := []struct {
		name     string
		in       func() io.Reader
		lim      Limits
		code     string
		complete bool
		mem      uint64
		notIn    string // must not appear in any message (leaked entity content)
	}{
		{"200k-deep nesting", func() io.Reader {
			return io.MultiReader(repeated("", "<a>", 3*200000, ""), repeated("", "</a>", 4*200000, ""))
		}, DefaultLimits(), CodeXMLTooDeep, false, 4 * mib, ""},
		{"200k-deep nesting with namespaces", func() io.Reader {
			return io.MultiReader(repeated("<w:document "+w14+">", "<w:tbl><w:tr><w:tc>", 19*200000/3, ""), strings.NewReader("</w:document>"))
		}, DefaultLimits(), CodeXMLTooDeep, false, 4 * mib, ""},
		{"billion laughs", func() io.Reader { return strings.NewReader(billionLaughs) }, DefaultLimits(), CodeXMLDoctype, false, 1 * mib, "lollol"},
		{"external entity", func() io.Reader {
			return strings.NewReader(`<?xml version="1.0"?><!DOCTYPE r [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><r>&xxe;</r>`)
		}, DefaultLimits(), CodeXMLDoctype, false, 1 * mib, "root:"},
		{"external DTD", func() io.Reader {
			return strings.NewReader(`<?xml version="1.0"?><!DOCTYPE r SYSTEM "http://127.0.0.1:9/evil.dtd"><r/>`)
		}, DefaultLimits(), CodeXMLDoctype, false, 1 * mib, ""},
		{"parameter entity", func() io.Reader {
			return strings.NewReader(`<!DOCTYPE r [<!ENTITY % p SYSTEM "file:///etc/passwd"> %p;]><r/>`)
		}, DefaultLimits(), CodeXMLDoctype, false, 1 * mib, "root:"},
		{"entity reference without DTD", func() io.Reader { return strings.NewReader(`<r>&xxe;</r>`) },
			DefaultLimits(), CodeXMLNotWellFormed, false, 1 * mib, ""},
		{"64 MiB attribute", func() io.Reader { return repeated(`<r a="`, "x", 64*mib, `"/>`) },
			DefaultLimits(), CodeXMLTokenTooLarge, false, 96 * mib, ""},
		{"64 MiB attribute, 1 MiB token limit", func() io.Reader { return repeated(`<r a="`, "x", 64*mib, `"/>`) },
			small, CodeXMLTokenTooLarge, false, 12 * mib, ""},
		// '>' is allowed in attribute values and text: it must not end the
		// token count.
		{"64 MiB attribute full of >", func() io.Reader { return repeated(`<r a="`, "x>", 64*mib, `"/>`) },
			small, CodeXMLTokenTooLarge, false, 12 * mib, ""},
		{"64 MiB text full of >", func() io.Reader { return repeated(`<r>`, "x>", 64*mib, `</r>`) },
			small, CodeXMLTokenTooLarge, false, 12 * mib, ""},
		// '<' is allowed in comments and CDATA sections.
		{"64 MiB comment full of <", func() io.Reader { return repeated(`<r><!--`, "x<", 64*mib, `--></r>`) },
			small, CodeXMLTokenTooLarge, false, 12 * mib, ""},
		{"64 MiB CDATA full of <", func() io.Reader { return repeated(`<r><![CDATA[`, "<x>", 64*mib, `]]></r>`) },
			small, CodeXMLTokenTooLarge, false, 12 * mib, ""},
		{"64 MiB DOCTYPE subset", func() io.Reader {
			return repeated(`<!DOCTYPE r [`, `<!ENTITY e "x">`, 64*mib, `]><r/>`)
		}, small, CodeXMLTokenTooLarge, false, 12 * mib, ""},
		{"64 MiB processing instruction", func() io.Reader { return repeated(`<r><?pi `, "<x>", 64*mib, `?></r>`) },
			small, CodeXMLTokenTooLarge, false, 12 * mib, ""},
		// One text node of 8 MiB of U+0001: reported (capped), in linear time.
		{"8 MiB of illegal characters in one text node", func() io.Reader { return repeated(`<r>`, "\x01", 8*mib, `</r>`) },
			DefaultLimits(), CodeXMLTooManyFindings, true, 48 * mib, ""},
		{"8 MiB of U+FFFF in one text node", func() io.Reader { return repeated(`<r>`, "\uffff", 8*mib-8*mib%3, `</r>`) },
			DefaultLimits(), CodeXMLTooManyFindings, true, 48 * mib, ""},
		// 200,000 children with 200,000 different names: the per-element
		// position index must not be quadratic.
		{"200k distinct sibling names", func() io.Reader { return &distinctSiblings{n: 200000} },
			DefaultLimits(), "", true, 160 * mib, ""},
		// One start tag with 100,000 attributes (1.2 MB): a legal token,
		// processed in memory proportional to it.
		{"100k attributes in one tag", func() io.Reader { return manyAttrs(100000) },
			DefaultLimits(), "", true, 64 * mib, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := tc.in()
			var res ScanResult
			alloc, d := measureAlloc(func() { res = ScanXML("word/document.xml", in, tc.lim, nil) })
			t.Logf("%s: %.1f MiB allocated, %s, %d findings", tc.name, float64(alloc)/mib, d.Round(time.Millisecond), len(res.Findings))
			if tc.code != "" && !hasCode(res.Findings, tc.code) {
				t.Errorf("findings %v, want %s", codesOf(res.Findings), tc.code)
			}
			if tc.code == "" && len(res.Findings) > 0 {
				t.Errorf("findings %v, want none", codesOf(res.Findings))
			}
			if res.Complete != tc.complete {
				t.Errorf("Complete = %v, want %v", res.Complete, tc.complete)
			}
			if alloc > tc.mem {
				t.Errorf("allocated %d MiB, bound %d MiB", alloc/mib, tc.mem/mib)
			}
			if d > limitWallCap {
				t.Errorf("took %s, sanity cap %s", d, limitWallCap)
			}
			for _, f := range res.Findings {
				if f.Part != "word/document.xml" || f.Message == "" || (tc.notIn != "" && strings.Contains(f.Message+f.Anchor, tc.notIn)) {
					t.Errorf("bad finding %+v", f)
				}
			}
		})
	}
}

// TestLimitTokenSizeExact: the token limit counts the bytes of one token,
// whatever characters it holds; a token at the limit passes, one byte more
// does not.
func TestLimitTokenSizeExact(t *testing.T) {
	lim := DefaultLimits()
	lim.MaxTokenSize = 1000
	for _, tc := range []struct {
		name, in string
		tooBig   bool
	}{
		// `<r a="` is 6 bytes, `"/>` 3: 991 x make a 1000-byte tag.
		{"tag at the limit", `<r a="` + strings.Repeat("x", 991) + `"/>`, false},
		{"tag one over", `<r a="` + strings.Repeat("x", 992) + `"/>`, true},
		{"text at the limit", `<r>` + strings.Repeat(">", 1000) + `</r>`, false},
		{"text one over", `<r>` + strings.Repeat(">", 1001) + `</r>`, true},
		{"many small tokens", `<r>` + strings.Repeat(`<a b="x>y">t>u</a>`, 5000) + `</r>`, false},
	} {
		res := ScanXML("p.xml", strings.NewReader(tc.in), lim, nil)
		if got := hasCode(res.Findings, CodeXMLTokenTooLarge); got != tc.tooBig || res.Complete == tc.tooBig {
			t.Errorf("%s: findings %v complete %v, want too-large %v", tc.name, codesOf(res.Findings), res.Complete, tc.tooBig)
		}
	}
}

// TestIllegalCharAcrossReads: a three-byte U+FFFE/U+FFFF split between two
// reads of the underlying reader is still found (the decoder reads 4 KiB at
// a time, so any part longer than that can split one).
func TestIllegalCharAcrossReads(t *testing.T) {
	for split := 1; split <= 2; split++ {
		pre := "<r>" + strings.Repeat("a", 10)
		ch := "\uffff"
		r := io.MultiReader(strings.NewReader(pre+ch[:split]), strings.NewReader(ch[split:]+"b</r>"))
		res := ScanXML("p.xml", r, DefaultLimits(), nil)
		if len(res.Findings) != 1 || res.Findings[0].Code != CodeXMLIllegalChar || !strings.Contains(res.Findings[0].Message, "U+FFFF") {
			t.Errorf("split after byte %d: findings %+v, want one U+FFFF", split, res.Findings)
		}
	}
}

func hasCode(fs []Finding, code string) bool {
	for _, f := range fs {
		if f.Code == code {
			return true
		}
	}
	return false
}

func codesOf(fs []Finding) []string {
	var out []string
	for _, f := range fs {
		out = append(out, f.Code)
	}
	return out
}

// zeroBomb writes a deflate stream of n zero bytes (n a multiple of 1 MiB)
// without holding more than 1 MiB of zeros: Go's deflater turns each
// sync-flushed MiB of zeros after the first into the same 1,037 bytes, so
// the stream is the first chunk, that chunk repeated, and the final block.
// Deflate's best ratio on zeros is about 1,000:1, so 1 GiB takes ~1 MiB.
func zeroBomb(w io.Writer, n int64) (crc uint32, err error) {
	const chunk = 1 << 20
	zeros := make([]byte, chunk)
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
	if _, err := w.Write(chunks[0]); err != nil {
		return 0, err
	}
	for i := int64(1); i < n/chunk; i++ {
		if _, err := w.Write(chunks[1]); err != nil {
			return 0, err
		}
	}
	if _, err := w.Write(final); err != nil {
		return 0, err
	}
	for i := int64(0); i < n/chunk; i++ {
		crc = crc32.Update(crc, crc32.IEEETable, zeros)
	}
	return crc, nil
}

// TestZeroBombGenerator: the generator's stream inflates to exactly n zeros.
func TestZeroBombGenerator(t *testing.T) {
	var b bytes.Buffer
	crc, err := zeroBomb(&b, 8<<20)
	if err != nil {
		t.Fatal(err)
	}
	data, err := io.ReadAll(flate.NewReader(&b))
	if err != nil || len(data) != 8<<20 || bytes.Count(data, []byte{0}) != len(data) || crc32.ChecksumIEEE(data) != crc {
		t.Fatalf("inflated %d bytes, err %v", len(data), err)
	}
}

// rawEntry is one entry of a hand-built zip: data is written raw (already
// compressed when method is Deflate); size and crc are what the headers
// declare.
type rawEntry struct {
	name   string
	method uint16
	size   uint64
	crc    uint32
	write  func(io.Writer) error
}

// docxShell is a minimal valid docx around the given document body.
func docxShell(body string) []rawEntry {
	return []rawEntry{
		storedEntry("[Content_Types].xml", `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Default Extension="bin" ContentType="application/octet-stream"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>`),
		storedEntry("_rels/.rels", `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`),
		storedEntry("word/document.xml", `<?xml version="1.0" encoding="UTF-8"?><w:document `+w14+`><w:body>`+body+`</w:body></w:document>`),
	}
}

func storedEntry(name, data string) rawEntry {
	return rawEntry{name: name, method: zip.Store, size: uint64(len(data)), crc: crc32.ChecksumIEEE([]byte(data)),
		write: func(w io.Writer) error { _, err := io.WriteString(w, data); return err }}
}

// buildZip writes the entries with their declared headers.
func buildZip(t testing.TB, entries []rawEntry) []byte {
	t.Helper()
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	for _, e := range entries {
		cw := &countWriter{}
		if err := e.write(cw); err != nil {
			t.Fatal(err)
		}
		w, err := zw.CreateRaw(&zip.FileHeader{Name: e.name, Method: e.method, CRC32: e.crc,
			UncompressedSize64: e.size, CompressedSize64: uint64(cw.n)})
		if err != nil {
			t.Fatal(err)
		}
		if err := e.write(w); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

type countWriter struct{ n int64 }

func (c *countWriter) Write(b []byte) (int, error) { c.n += int64(len(b)); return len(b), nil }

// bombEntry is name holding n zeros deflated, declaring declared bytes.
func bombEntry(t testing.TB, name string, n int64, declared uint64) rawEntry {
	var b bytes.Buffer
	crc, err := zeroBomb(&b, n)
	if err != nil {
		t.Fatal(err)
	}
	data := b.Bytes()
	return rawEntry{name: name, method: zip.Deflate, size: declared, crc: crc,
		write: func(w io.Writer) error { _, err := w.Write(data); return err }}
}

// openAll opens data as a package and runs the package-level scans, the
// way the inspectors do.
func openAll(t testing.TB, data []byte, lim Limits) *Package {
	t.Helper()
	p, err := Open(context.Background(), bytes.NewReader(data), int64(len(data)), "hostile.docx", lim)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	if len(p.Entries) > 0 {
		if p.MainPart != "" {
			p.ScanPart(context.Background(), p.MainPart, nil)
		}
		if err := p.ScanRest(context.Background()); err != nil {
			t.Fatalf("ScanRest: %v", err)
		}
	}
	return p
}

// TestLimitsZip: hostile archives end in zip.limit / zip.bad-entry-name /
// zip.duplicate-entry findings, in memory bounded independently of what
// they declare or expand to.
func TestLimitsZip(t *testing.T) {
	if testing.Short() {
		t.Skip("gigabyte bombs: not in -short")
	}
	const mib = 1 << 20
	const gib = 1 << 30
	scaled := DefaultLimits() // the total limit, scaled down to test quickly
	scaled.MaxTotalSize, scaled.MaxEntrySize, scaled.MaxRatio = 8*mib, 4*mib, 1<<40
	many := func(n int) []rawEntry {
		es := docxShell("<w:p/>")
		for i := 0; i < n; i++ {
			es = append(es, storedEntry(fmt.Sprintf("word/media/f%06d.bin", i), ""))
		}
		return es
	}
	tests := []struct {
		name    string
		entries func(t *testing.T) []rawEntry
		lim     Limits
		code    string
		part    string
		mem     uint64 // beyond the input itself
	}{
		{"1 GiB of zeros deflated (ratio ~1000:1)", func(t *testing.T) []rawEntry {
			return append(docxShell("<w:p/>"), bombEntry(t, "word/media/image1.bin", gib, gib))
		}, DefaultLimits(), CodeZipLimit, "word/media/image1.bin", 8 * mib},
		{"1 GiB of zeros as the main XML part", func(t *testing.T) []rawEntry {
			es := docxShell("")
			es[2] = bombEntry(t, "word/document.xml", gib, gib)
			return es
		}, DefaultLimits(), CodeZipLimit, "word/document.xml", 8 * mib},
		{"1 GiB of zeros declaring 1 KiB", func(t *testing.T) []rawEntry {
			return append(docxShell("<w:p/>"), bombEntry(t, "word/media/image1.bin", gib, 1024))
		}, DefaultLimits(), CodeZipLimit, "word/media/image1.bin", 8 * mib},
		{"1 GiB of zeros declaring 1 KiB, XML part", func(t *testing.T) []rawEntry {
			es := docxShell("")
			es[2] = bombEntry(t, "word/document.xml", gib, 1024)
			return es
		}, DefaultLimits(), CodeZipLimit, "word/document.xml", 8 * mib},
		{"a gigabyte declared entry size", func(t *testing.T) []rawEntry {
			e := storedEntry("word/media/big.bin", "tiny")
			e.size = gib
			return append(docxShell("<w:p/>"), e)
		}, DefaultLimits(), CodeZipLimit, "word/media/big.bin", 4 * mib},
		{"an exabyte declared entry size", func(t *testing.T) []rawEntry {
			e := storedEntry("word/media/big.bin", "tiny")
			e.size = 1 << 60
			return append(docxShell("<w:p/>"), e)
		}, DefaultLimits(), CodeZipLimit, "word/media/big.bin", 4 * mib},
		{"total over the limit (scaled: 3 × 3 MiB, limit 8 MiB)", func(t *testing.T) []rawEntry {
			es := docxShell("<w:p/>")
			for i := 1; i <= 3; i++ {
				es = append(es, bombEntry(t, fmt.Sprintf("word/media/z%d.bin", i), 3*mib, 3*mib))
			}
			return es
		}, scaled, CodeZipLimit, "", 8 * mib},
		{"100k entries", func(t *testing.T) []rawEntry { return many(100000) }, DefaultLimits(), CodeZipLimit, "", 160 * mib},
		{"300k central-directory records, no data", nil, DefaultLimits(), CodeZipLimit, "", 4 * mib},
		{"absolute name", func(t *testing.T) []rawEntry {
			return append(docxShell("<w:p/>"), storedEntry("/etc/cron.d/x", "x"))
		}, DefaultLimits(), CodeZipEntryName, "/etc/cron.d/x", 1 * mib},
		{"drive-letter name", func(t *testing.T) []rawEntry {
			return append(docxShell("<w:p/>"), storedEntry("C:/Windows/x.xml", "<x/>"))
		}, DefaultLimits(), CodeZipEntryName, "C:/Windows/x.xml", 1 * mib},
		{"leading .. name", func(t *testing.T) []rawEntry {
			return append(docxShell("<w:p/>"), storedEntry("../../evil.sh", "x"))
		}, DefaultLimits(), CodeZipEntryName, "../../evil.sh", 1 * mib},
		{"inner .. name", func(t *testing.T) []rawEntry {
			return append(docxShell("<w:p/>"), storedEntry("word/../../evil.xml", "<x/>"))
		}, DefaultLimits(), CodeZipEntryName, "word/../../evil.xml", 1 * mib},
		{"backslash name", func(t *testing.T) []rawEntry {
			return append(docxShell("<w:p/>"), storedEntry(`word\media\image1.png`, "x"))
		}, DefaultLimits(), CodeZipEntryName, `word\media\image1.png`, 1 * mib},
		{"backslash .. name", func(t *testing.T) []rawEntry {
			return append(docxShell("<w:p/>"), storedEntry(`..\..\evil.bat`, "x"))
		}, DefaultLimits(), CodeZipEntryName, `..\..\evil.bat`, 1 * mib},
		{"duplicate name in another case", func(t *testing.T) []rawEntry {
			return append(docxShell("<w:p/>"), storedEntry("Word/Document.xml", "<x/>"))
		}, DefaultLimits(), CodeZipDuplicate, "Word/Document.xml", 1 * mib},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var data []byte
			if tc.entries == nil {
				data = centralDirOnly(300000)
			} else {
				data = buildZip(t, tc.entries(t))
			}
			var p *Package
			alloc, d := measureAlloc(func() { p = openAll(t, data, tc.lim) })
			fs := p.Findings()
			t.Logf("%s: %d-byte zip, %.1f MiB allocated, %s, %d findings", tc.name, len(data), float64(alloc)/mib, d.Round(time.Millisecond), len(fs))
			found := false
			for _, f := range fs {
				if f.Code == tc.code && (tc.part == "" || f.Part == tc.part) {
					found = true
					if f.Grade != Fatal || f.Message == "" {
						t.Errorf("finding %+v: want a fatal finding with a message", f)
					}
				}
			}
			if !found {
				t.Errorf("findings %v, want %s on %q", fs, tc.code, tc.part)
			}
			if bound := tc.mem + 2*uint64(len(data)); alloc > bound {
				t.Errorf("allocated %d MiB, bound %d MiB", alloc/mib, bound/mib)
			}
			if d > limitWallCap {
				t.Errorf("took %s, sanity cap %s", d, limitWallCap)
			}
		})
	}
}

// TestLimitFileSize: a file over MaxFileSize is reported without being
// read (the ReaderAt is never touched).
func TestLimitFileSize(t *testing.T) {
	p, err := Open(context.Background(), failReaderAt{}, 1<<40, "huge.docx", DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	if fs := p.Findings(); len(fs) != 1 || fs[0].Code != CodeZipLimit || len(p.Entries) != 0 {
		t.Fatalf("findings %+v", fs)
	}
}

type failReaderAt struct{}

func (failReaderAt) ReadAt([]byte, int64) (int, error) {
	return 0, fmt.Errorf("the file was read")
}

// centralDirOnly is a zip of n central-directory records named "a" and no
// entry data at all: 47 bytes per entry, the cheapest way to make
// archive/zip allocate a File per record.
func centralDirOnly(n int) []byte {
	var b bytes.Buffer
	for i := 0; i < n; i++ {
		var h [46]byte
		copy(h[:], "PK\x01\x02")
		binary.LittleEndian.PutUint16(h[28:], 1)
		b.Write(h[:])
		b.WriteByte('a')
	}
	var e [22]byte
	copy(e[:], "PK\x05\x06")
	binary.LittleEndian.PutUint16(e[8:], uint16(n))
	binary.LittleEndian.PutUint16(e[10:], uint16(n))
	binary.LittleEndian.PutUint32(e[12:], uint32(b.Len()))
	b.Write(e[:])
	return b.Bytes()
}

// TestCountEntries: the pre-count agrees with archive/zip on archives it
// reads, and on the hostile directory above.
func TestCountEntries(t *testing.T) {
	for _, n := range []int{0, 1, 7, 65535, 65536, 70000} {
		data := centralDirOnly(n)
		zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			t.Fatalf("%d: %v", n, err)
		}
		if got := countEntries(bytes.NewReader(data), int64(len(data)), 1<<30); got != len(zr.File) || got != n {
			t.Errorf("countEntries = %d, archive/zip %d, want %d", got, len(zr.File), n)
		}
		if got := countEntries(bytes.NewReader(data), int64(len(data)), 5); got != min(n, 5) {
			t.Errorf("countEntries(max 5) = %d", got)
		}
	}
	// archive/zip writes a zip64 end record from 65,535 entries on; a
	// self-extractor has a stub before the archive.
	build := func(n int) []byte {
		var b bytes.Buffer
		zw := zip.NewWriter(&b)
		for i := 0; i < n; i++ {
			if _, err := zw.CreateHeader(&zip.FileHeader{Name: fmt.Sprintf("f%d", i), Method: zip.Store}); err != nil {
				t.Fatal(err)
			}
		}
		zw.Close()
		return b.Bytes()
	}
	zip64 := build(65535)
	if !bytes.Contains(zip64[len(zip64)-200:], []byte("PK\x06\x06")) {
		t.Fatal("no zip64 end record")
	}
	for name, data := range map[string][]byte{"zip64": zip64, "prefixed": append([]byte("MZ stub......"), build(3)...)} {
		zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got := countEntries(bytes.NewReader(data), int64(len(data)), 1<<20); got != len(zr.File) {
			t.Errorf("%s: countEntries = %d, archive/zip %d", name, got, len(zr.File))
		}
	}
}
