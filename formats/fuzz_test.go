package formats

// Fuzz targets for everything in this package that reads untrusted bytes:
// the package reader (Open and the package-level scans), the XML scanner
// and Sanitize. Seeds are small generated packages and parts; crashers
// found by `go test -fuzz` are kept under testdata/fuzz/<Target>/ and run
// as regular tests. scripts/fuzz.sh runs every target.

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/editaudit/editaudit/internal/testdoc"
)

// fuzzZip builds a zip from name/content pairs (deflated).
func fuzzZip(parts ...string) []byte { return testdoc.Pairs(parts...) }

const (
	fzCT   = `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/ppt/presentation.xml" ContentType="application/vnd.openxmlformats-officedocument.presentationml.presentation.main+xml"/></Types>`
	fzRels = `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="%s"/></Relationships>`
	fzDoc  = `<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><w:body><w:tbl><w:tr><w:tc><w:p><w:r><w:t>a</w:t></w:r></w:p></w:tc></w:tr></w:tbl><w:p><w:hyperlink r:id="rId9"/></w:p></w:body></w:document>`
)

// packageSeeds are small packages of every kind the reader distinguishes:
// the formats, and the ways a file fails to be one.
func packageSeeds() [][]byte {
	docx := fuzzZip("[Content_Types].xml", fzCT, "_rels/.rels", fmt.Sprintf(fzRels, "word/document.xml"), "word/document.xml", fzDoc,
		"word/_rels/document.xml.rels", `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="x/styles" Target="styles.xml"/><Relationship Id="rId1" Type="x/y" Target="../../z.xml"/></Relationships>`)
	xlsx := fuzzZip("[Content_Types].xml", fzCT, "_rels/.rels", fmt.Sprintf(fzRels, "/xl/workbook.xml"),
		"xl/workbook.xml", `<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="S" sheetId="1" r:id="rId1"/></sheets></workbook>`,
		"xl/_rels/workbook.xml.rels", `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`,
		"xl/worksheets/sheet1.xml", `<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData><row r="1"><c r="A1"><v>1</v></c></row></sheetData></worksheet>`)
	hwpx := fuzzZip("mimetype", HWPXMimetype, HWPXContainer, `<container><rootfiles><rootfile full-path="Contents/content.hpf" media-type="application/hwpml-package+xml"/></rootfiles></container>`,
		"Contents/content.hpf", `<opf:package xmlns:opf="http://www.idpf.org/2007/opf/"><opf:manifest><opf:item id="s0" href="Contents/section0.xml"/></opf:manifest><opf:spine><opf:itemref idref="s0"/></opf:spine></opf:package>`,
		"Contents/section0.xml", `<hs:sec xmlns:hs="http://www.hancom.co.kr/hwpml/2011/section"/>`)
	strict := fuzzZip("[Content_Types].xml", fzCT, "_rels/.rels", `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://purl.oclc.org/ooxml/officeDocument/relationships/officeDocument" Target="ppt/presentation.xml"/></Relationships>`,
		"ppt/presentation.xml", `<p:presentation xmlns:p="http://purl.oclc.org/ooxml/presentationml/main"/>`)
	hostile := fuzzZip("/abs.xml", "<a/>", `word\x.xml`, "<a/>", "../up.xml", "<a/>", "Word/Document.XML", "<a/>", "word/document.xml", "<a>\x01&#1;<!DOCTYPE x></a>")
	// A stored entry with one byte changed after writing: a CRC mismatch.
	var sb bytes.Buffer
	zw := zip.NewWriter(&sb)
	w, _ := zw.CreateHeader(&zip.FileHeader{Name: "word/document.xml", Method: zip.Store})
	w.Write([]byte(fzDoc))
	zw.Close()
	crc := sb.Bytes()
	crc[bytes.Index(crc, []byte("<w:body>"))+3] ^= 1
	return [][]byte{
		docx, xlsx, hwpx, strict, hostile, crc,
		docx[:len(docx)/2],            // truncated
		docx[:len(docx)-10],           // end record cut
		append([]byte("MZ"), docx...), // prefixed
		{},
		[]byte("PK\x05\x06" + strings.Repeat("\x00", 18)),                                    // empty archive
		append([]byte{0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1}, make([]byte, 512)...), // OLE2
		[]byte("not a zip at all"),
	}
}

// checkFindings asserts what every finding must be, whatever the input.
func checkFindings(t *testing.T, fs []Finding) {
	t.Helper()
	for _, f := range fs {
		if !f.Grade.Valid() || f.Code == "" || !strings.Contains(f.Code, ".") || f.Message == "" || f.Line < 0 || f.Column < 0 {
			t.Fatalf("malformed finding %+v", f)
		}
		if _, err := json.Marshal(f); err != nil {
			t.Fatalf("finding does not marshal: %v", err)
		}
	}
}

// FuzzOpen: the package reader on arbitrary bytes never fails (the input is
// in memory), never panics, reports only well-formed findings, reads no
// part past the limits, and is deterministic. Its entry pre-count never
// undercounts what archive/zip reads.
func FuzzOpen(f *testing.F) {
	for _, s := range packageSeeds() {
		f.Add(s)
	}
	lim := DefaultLimits()
	f.Fuzz(func(t *testing.T, data []byte) {
		run := func() (*Package, []Finding) {
			p, err := Open(context.Background(), bytes.NewReader(data), int64(len(data)), "f.docx", lim)
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
			fs := append([]Finding(nil), p.Findings()...)
			Sort(fs)
			return p, fs
		}
		p, fs := run()
		checkFindings(t, fs)
		for _, part := range p.Parts() {
			if b, err := p.ReadPart(part); err == nil && int64(len(b)) > lim.MaxEntrySize {
				t.Fatalf("%s: read %d bytes past the entry limit", part, len(b))
			}
		}
		if _, fs2 := run(); !equalFindings(fs, fs2) {
			t.Fatalf("not deterministic:\n%v\n%v", fs, fs2)
		}
		if zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data))); err == nil {
			if n := countEntries(bytes.NewReader(data), int64(len(data)), 1<<30); n < len(zr.File) {
				t.Fatalf("countEntries = %d, archive/zip read %d", n, len(zr.File))
			}
		}
	})
}

func equalFindings(a, b []Finding) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// nestHandler checks the event stream a Handler receives.
type nestHandler struct {
	t     *testing.T
	lim   Limits
	stack []string
	ends  int
	first string
}

func (h *nestHandler) Start(e *Element) {
	if h.first == "" {
		h.first = e.Name.Local
	}
	if e.Depth != len(h.stack)+1 || e.Depth > h.lim.MaxDepth || e.Index < 1 || !strings.HasPrefix(e.Locator(), "/") {
		h.t.Fatalf("element %s: depth %d (stack %d), index %d, locator %q", e.QName(), e.Depth, len(h.stack), e.Index, e.Locator())
	}
	if (e.Parent == nil) != (e.Depth == 1) {
		h.t.Fatalf("element %s at depth %d: parent %v", e.QName(), e.Depth, e.Parent)
	}
	h.stack = append(h.stack, e.QName())
}

func (h *nestHandler) End(e *Element) {
	if len(h.stack) == 0 || h.stack[len(h.stack)-1] != e.QName() {
		h.t.Fatalf("End(%s) with open %v", e.QName(), h.stack)
	}
	h.stack = h.stack[:len(h.stack)-1]
	h.ends++
}

func (h *nestHandler) Text(e *Element, b []byte) {
	if len(h.stack) == 0 || h.stack[len(h.stack)-1] != e.QName() {
		h.t.Fatalf("Text in %s with open %v", e.QName(), h.stack)
	}
}

// rawIllegal counts the XML-illegal characters written literally in b
// (XML 1.0 §2.2): C0 controls but tab, LF and CR, and U+FFFE, U+FFFF.
func rawIllegal(b []byte) int {
	n := 0
	for i := 0; i < len(b); i++ {
		switch c := b[i]; {
		case c < 0x20 && c != '\t' && c != '\n' && c != '\r':
			n++
		case c == 0xEF && i+2 < len(b) && b[i+1] == 0xBF && (b[i+2] == 0xBE || b[i+2] == 0xBF):
			n++
			i += 2
		}
	}
	return n
}

// FuzzScanXML: the scanner on arbitrary bytes never panics, delivers
// properly nested events within the depth limit, and when it reads a part
// to the end it has reported every literal illegal character.
func FuzzScanXML(f *testing.F) {
	for _, s := range []string{
		fzDoc, fzCT, fmt.Sprintf(fzRels, "word/document.xml"),
		"<a>\x01x\n\x1fy</a>", "<a>x\uffffy\ufffe</a>", "<a>x&#1;y</a>", "<a b='1' b='2'/>",
		"\xef\xbb\xbf<a/>", "\xff\xfe<\x00a\x00/\x00>\x00", `<?xml version="1.0" encoding="UTF-16"?><a/>`,
		"<!DOCTYPE a [<!ENTITY e 'x'>]><a>&e;</a>", "<a><![CDATA[<b>]]><!-- c --><?pi x?></a>",
		"<p:a xmlns:p='u'><p:b/><q:c/></p:a>", "<a>&lt;&#x41;&amp;&#65;</a>", "<a></b>", "<a/><b/>", "text", "",
		strings.Repeat("<a>", 300) + strings.Repeat("</a>", 300),
	} {
		f.Add([]byte(s))
	}
	lim := DefaultLimits()
	lim.MaxTokenSize = 4096 // small enough for the fuzzer's inputs to reach
	lim.MaxDepth = 64
	f.Fuzz(func(t *testing.T, data []byte) {
		h := &nestHandler{t: t, lim: lim}
		res := ScanXML("p.xml", bytes.NewReader(data), lim, h)
		checkFindings(t, res.Findings)
		illegal, capped := 0, false
		for _, f := range res.Findings {
			if f.Part != "p.xml" || !(strings.HasPrefix(f.Code, "xml.") || strings.HasPrefix(f.Code, "zip.")) {
				t.Fatalf("finding %+v", f)
			}
			if !utf8.ValidString(f.Message) {
				t.Fatalf("message is not UTF-8: %q", f.Message)
			}
			switch f.Code {
			case CodeXMLIllegalChar:
				illegal++
			case CodeXMLTooManyFindings:
				capped = true
			}
		}
		if !res.Complete {
			return
		}
		if len(h.stack) != 0 || h.first == "" || res.Root.Local != h.first {
			t.Fatalf("complete scan: open %v, root %q, first %q", h.stack, res.Root.Local, h.first)
		}
		utf16 := bytes.HasPrefix(data, []byte{0xFF, 0xFE}) || bytes.HasPrefix(data, []byte{0xFE, 0xFF})
		if want := rawIllegal(data); !utf16 && !capped && illegal != want {
			t.Fatalf("%d xml.illegal-char findings, %d illegal characters in the part", illegal, want)
		}
	})
}

// illegalRefs finds character references (XML 1.0 §4.1) to characters
// XML forbids, parsing them independently of Sanitize.
var anyRef = regexp.MustCompile(`&#(x[0-9A-Fa-f]+|[0-9]+);`)

func illegalRefs(b []byte) [][]int {
	var out [][]int
	for _, m := range anyRef.FindAllSubmatchIndex(b, -1) {
		num := string(b[m[2]:m[3]])
		base := 10
		if num[0] == 'x' {
			num, base = num[1:], 16
		}
		v, err := strconv.ParseUint(num, base, 64)
		if err != nil || !legalChar(rune(min(v, 0x7fffffff))) || v > 0x10FFFF {
			out = append(out, m)
		}
	}
	return out
}

// reference is what may follow '&' in well-formed XML (XML 1.0 §4.1).
var reference = regexp.MustCompile(`^&(#[0-9]+|#x[0-9A-Fa-f]+|[A-Za-z_:][-A-Za-z0-9._:]*);`)

// bareAmp reports whether an '&' in b does not start a reference.
func bareAmp(b []byte) bool {
	for i, c := range b {
		if c == '&' && !reference.Match(b[i:]) {
			return true
		}
	}
	return false
}

// FuzzSanitize: Sanitize removes exactly the XML-illegal characters and
// references of each XML part — each removal names what was at its
// position, the rest is kept byte for byte, and (for a part well-formed
// apart from them) nothing illegal is left and a second pass removes
// nothing — and copies other entries unchanged. On
// arbitrary bytes it fails cleanly or writes a readable zip.
func FuzzSanitize(f *testing.F) {
	// The crashers found so far are in testdata/fuzz/FuzzSanitize.
	for _, s := range []string{"<a>\x01x\n\x1fy</a>", "<a>x&#1;y&#x1F;&#65;</a>", "<a>\uffff\ufffe</a>", "\r\n<a>\x0b</a>"} {
		f.Add([]byte(s), false)
	}
	f.Add(packageSeeds()[0], true)
	lim := DefaultLimits()
	f.Fuzz(func(t *testing.T, data []byte, asZip bool) {
		in := data
		if !asZip {
			in = fuzzZip("word/document.xml", string(data), "word/media/image1.png", "\x89PNG\x01\x02&#1;")
		}
		var out bytes.Buffer
		rs, err := Sanitize(context.Background(), bytes.NewReader(in), int64(len(in)), &out, lim)
		if err != nil {
			if !asZip {
				t.Fatalf("Sanitize of a valid zip: %v", err)
			}
			return
		}
		zr, err := zip.NewReader(bytes.NewReader(out.Bytes()), int64(out.Len()))
		if err != nil {
			t.Fatalf("output is not a zip: %v", err)
		}
		if asZip {
			return
		}
		files := map[string][]byte{}
		for _, zf := range zr.File {
			rc, err := zf.Open()
			if err != nil {
				t.Fatal(err)
			}
			var b bytes.Buffer
			b.ReadFrom(rc)
			rc.Close()
			files[zf.Name] = b.Bytes()
		}
		if len(zr.File) != 2 || string(files["word/media/image1.png"]) != "\x89PNG\x01\x02&#1;" {
			t.Fatalf("entries changed: %d files", len(zr.File))
		}
		clean := files["word/document.xml"]
		// Rebuild the expected output from the removals.
		lineStart := []int{0}
		for i, c := range data {
			if c == '\n' {
				lineStart = append(lineStart, i+1)
			}
		}
		var want []byte
		prev := 0
		for _, r := range rs {
			if r.Part != "word/document.xml" || r.Line < 1 || r.Line > len(lineStart) {
				t.Fatalf("removal %+v", r)
			}
			off := lineStart[r.Line-1] + r.Column - 1
			if off < prev || off >= len(data) {
				t.Fatalf("removal %+v out of order or range", r)
			}
			n := 0
			switch c := data[off]; {
			case c < 0x20:
				n = 1
				if want := fmt.Sprintf("U+%04X", c); r.CodePoint != want {
					t.Fatalf("removal %+v: the byte there is %s", r, want)
				}
			case c == 0xEF:
				n = 3
				if off+2 >= len(data) || r.CodePoint != fmt.Sprintf("U+%04X", 0xFFFE+int(data[off+2])-0xBE) {
					t.Fatalf("removal %+v: %q is not U+FFFE or U+FFFF", r, data[off:min(len(data), off+3)])
				}
			case c == '&':
				m := anyRef.FindIndex(data[off:])
				if m == nil || m[0] != 0 {
					t.Fatalf("removal %+v: no character reference at %q", r, data[off:min(len(data), off+16)])
				}
				n = m[1]
			default:
				t.Fatalf("removal %+v: %q is not illegal", r, data[off:min(len(data), off+8)])
			}
			want = append(want, data[prev:off]...)
			prev = off + n
		}
		want = append(want, data[prev:]...)
		if !bytes.Equal(clean, want) {
			t.Fatalf("output is not the input minus the removals:\n in  %q\n out %q\n want %q", data, clean, want)
		}
		// Removing a character can join what surrounded it into a new
		// illegal reference or U+FFFF ("&#\x01" + "1;", "\xEF\x01\xBF\xBF"),
		// but only around a bare '&' or broken UTF-8, which are errors of
		// their own: the guarantee is for parts that are well-formed apart
		// from the illegal characters.
		if !utf8.Valid(data) || bareAmp(data) {
			return
		}
		if n := rawIllegal(clean); n > 0 || len(illegalRefs(clean)) > 0 {
			t.Fatalf("illegal characters left: %q", clean)
		}
		var again bytes.Buffer
		rs2, err := Sanitize(context.Background(), bytes.NewReader(out.Bytes()), int64(out.Len()), &again, lim)
		if err != nil || len(rs2) != 0 {
			t.Fatalf("second pass: %v, %v", rs2, err)
		}
	})
}
