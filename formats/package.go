package formats

import (
	"archive/zip"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"path"
	"sort"
	"strings"

	"github.com/editaudit/editaudit/internal/ctxio"
)

// Entry is one zip entry of a package.
type Entry struct {
	// Name is the entry name exactly as stored in the zip.
	Name string
	// Part is the normalized part name: backslashes turned into slashes,
	// no leading slash. Part names compare case-insensitively (OPC,
	// ECMA-376 part 2 §9.1.1.1).
	Part string
	// Size and CompressedSize are the declared sizes.
	Size, CompressedSize uint64
	// Method is the zip compression method (0 stored, 8 deflate).
	Method uint16
	// Dir is true for folder entries.
	Dir bool
	// Index is the entry's position in the zip's central directory.
	Index int

	f       *zip.File
	blocked error // set when a limit forbids reading the entry
	read    bool
}

// Package is an opened document package. Open never fails on content: a
// file that is not a package gives a Package with Format Unknown and
// findings that say why.
type Package struct {
	// Name is how the package is called in messages (its path).
	Name string
	// Format is the detected kind; Flavor the exact one ("docm", "potx",
	// "xlsx-strict"…).
	Format Format
	Flavor string
	// Strict is true for an ISO/IEC 29500 Strict package.
	Strict bool
	// Size and SHA256 describe the input bytes.
	Size   int64
	SHA256 string
	// Entries are the zip entries in central-directory order.
	Entries []*Entry
	// MainPart is the main document part ("word/document.xml"); "" if none.
	MainPart string
	// ContentTypes is the parsed [Content_Types].xml (nil for hwpx or when
	// absent).
	ContentTypes *ContentTypes
	// Limits are the limits every read is held to.
	Limits Limits

	byPart      map[string]*Entry // lower-cased part name → first entry
	rels        map[string]*Rels  // source part (lower-cased, "" for the package) → rels
	relsRead    map[string]bool
	findings    []Finding
	total       int64
	scanned     map[string]bool
	refs        map[string][]relRef // part → r:id references seen while scanning
	complete    map[string]bool     // part → its scan read it to the end
	relsSources []string
}

// Findings returns the package-level findings gathered so far, in the order
// they were found (callers sort).
func (p *Package) Findings() []Finding { return p.findings }

// Add records a finding.
func (p *Package) Add(f Finding) { p.findings = append(p.findings, f) }

// Entry returns the entry for a part name (case-insensitive, with or
// without a leading slash, backslashes tolerated), or nil.
func (p *Package) Entry(part string) *Entry {
	return p.byPart[normPart(part)]
}

// Has reports whether the package holds part.
func (p *Package) Has(part string) bool { return p.Entry(part) != nil }

// normPart lower-cases a part name and strips a leading slash.
func normPart(name string) string {
	name = strings.ReplaceAll(name, `\`, "/")
	return strings.ToLower(strings.TrimPrefix(name, "/"))
}

// Open reads a package from ra under lim. name is used in messages. The
// returned error is only for failures to read ra itself (I/O) or a
// cancelled ctx; every content problem is a finding on the Package.
func Open(ctx context.Context, ra io.ReaderAt, size int64, name string, lim Limits) (*Package, error) {
	p := &Package{Name: name, Format: Unknown, Size: size, Limits: lim,
		byPart: map[string]*Entry{}, rels: map[string]*Rels{}, relsRead: map[string]bool{},
		scanned: map[string]bool{}, refs: map[string][]relRef{}, complete: map[string]bool{}}
	if size > lim.MaxFileSize {
		p.Add(Finding{Code: CodeZipLimit, Grade: Fatal, Anchor: "file-size",
			Message: fmt.Sprintf("the file is %d bytes, over the %d-byte limit; it was not read", size, lim.MaxFileSize),
			Fix:     "raise the limit if this is a real document"})
		return p, nil
	}
	h := sha256.New()
	if _, err := io.Copy(h, io.NewSectionReader(ra, 0, size)); err != nil {
		return nil, fmt.Errorf("formats: reading %s: %w", name, err)
	}
	p.SHA256 = hex.EncodeToString(h.Sum(nil))
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if size == 0 {
		p.Add(Finding{Code: CodeZipEmpty, Grade: Fatal, Anchor: "empty",
			Message: "the file is empty (0 bytes); it is not a document",
			Fix:     "the write that produced it failed or was interrupted: write the document again"})
		return p, nil
	}
	head := make([]byte, min(size, 8))
	if _, err := ra.ReadAt(head, 0); err != nil && err != io.EOF {
		return nil, fmt.Errorf("formats: reading %s: %w", name, err)
	}
	if bytes.Equal(head, ole2Magic) {
		data := make([]byte, size)
		if _, err := ra.ReadAt(data, 0); err != nil && err != io.EOF {
			return nil, fmt.Errorf("formats: reading %s: %w", name, err)
		}
		p.Add(ole2Finding(data))
		return p, nil
	}
	// archive/zip parses every central-directory record before the entry
	// limit could apply, at a few hundred bytes of memory each: count them
	// first so a hostile directory of millions of tiny records is refused
	// in constant memory.
	if n := countEntries(ra, size, lim.MaxEntries+1); n > lim.MaxEntries {
		p.Add(Finding{Code: CodeZipLimit, Grade: Fatal, Anchor: "entries",
			Message: fmt.Sprintf("the zip archive has more than %d entries; it was not examined further", lim.MaxEntries),
			Fix:     "no real document has this many parts; the file is hostile or broken"})
		return p, nil
	}
	zr, err := zip.NewReader(ra, size)
	if err != nil && !errors.Is(err, zip.ErrInsecurePath) {
		p.Add(zipOpenFinding(ra, size, head, err))
		return p, nil
	}
	p.loadEntries(zr)
	if len(p.Entries) == 0 {
		p.Add(Finding{Code: CodeZipNoEntries, Grade: Fatal, Anchor: "no-entries",
			Message: "the zip archive holds no entries: no document parts at all",
			Fix:     "the document was not written: write it again"})
		return p, nil
	}
	p.detect(ctx)
	return p, ctx.Err()
}

// countEntries counts the central-directory records (APPNOTE 4.3.12) of
// the zip in ra, stopping at max, locating the directory the way
// archive/zip's Reader.init does (end record in the last 1 KiB, then 65
// KiB; zip64 locator; the base-offset correction). It returns 0 when the
// directory cannot be located (zip.NewReader then says why).
func countEntries(ra io.ReaderAt, size int64, max int) int {
	var eocd []byte
	var eocdOff int64
	for _, n := range []int64{1024, 65 * 1024} {
		n = min(n, size)
		buf := make([]byte, n)
		if _, err := ra.ReadAt(buf, size-n); err != nil && err != io.EOF {
			return 0
		}
		for i := len(buf) - 22; i >= 0; i-- {
			if buf[i] == 'P' && buf[i+1] == 'K' && buf[i+2] == 5 && buf[i+3] == 6 {
				if i+22+int(binary.LittleEndian.Uint16(buf[i+20:])) > len(buf) {
					return 0
				}
				eocd, eocdOff = buf[i:i+22], size-n+int64(i)
				break
			}
		}
		if eocd != nil || n == size {
			break
		}
	}
	if eocd == nil {
		return 0
	}
	records := uint64(binary.LittleEndian.Uint16(eocd[10:]))
	dirSize := uint64(binary.LittleEndian.Uint32(eocd[12:]))
	dirOff := uint64(binary.LittleEndian.Uint32(eocd[16:]))
	if records == 0xffff || dirSize == 0xffff || dirOff == 0xffffffff {
		var loc [20]byte
		if eocdOff >= 20 {
			if _, err := ra.ReadAt(loc[:], eocdOff-20); err == nil && bytes.Equal(loc[:4], []byte("PK\x06\x07")) &&
				binary.LittleEndian.Uint32(loc[4:]) == 0 && binary.LittleEndian.Uint32(loc[16:]) == 1 {
				p := int64(binary.LittleEndian.Uint64(loc[8:]))
				var end [56]byte
				if _, err := ra.ReadAt(end[:], p); err != nil || !bytes.Equal(end[:4], []byte("PK\x06\x06")) {
					return 0
				}
				eocdOff, dirSize, dirOff = p, binary.LittleEndian.Uint64(end[40:]), binary.LittleEndian.Uint64(end[48:])
			}
		}
	}
	if dirSize > 1<<62 || dirOff > 1<<62 {
		return 0
	}
	base := eocdOff - int64(dirSize) - int64(dirOff)
	if o := base + int64(dirOff); o < 0 || o >= size {
		return 0
	}
	// archive/zip drops the base offset when its record parser accepts a
	// record at the declared offset: ask that parser (validRecordAt).
	if base > 0 && validRecordAt(ra, size, int64(dirOff)) {
		base = 0
	}
	n := 0
	for off := base + int64(dirOff); n < max; n++ {
		l, ok := recordLen(ra, size, off)
		if !ok {
			break
		}
		off += l
	}
	return n
}

// recordLen returns the length of the central-directory record at off
// (APPNOTE 4.3.12: 46 bytes, then the name, extra field and comment), if
// one starts there and fits in the file.
func recordLen(ra io.ReaderAt, size, off int64) (int64, bool) {
	var h [46]byte
	if _, err := ra.ReadAt(h[:], off); err != nil || !bytes.Equal(h[:4], []byte("PK\x01\x02")) {
		return 0, false
	}
	l := 46 + int64(binary.LittleEndian.Uint16(h[28:])) + int64(binary.LittleEndian.Uint16(h[30:])) + int64(binary.LittleEndian.Uint16(h[32:]))
	return l, off+l <= size
}

// validRecordAt reports whether archive/zip's record parser (unexported)
// accepts the record at off: the record alone, followed by an end record
// naming it, is handed to zip.NewReader.
func validRecordAt(ra io.ReaderAt, size, off int64) bool {
	l, ok := recordLen(ra, size, off)
	if !ok {
		return false
	}
	b := make([]byte, l+22)
	if _, err := ra.ReadAt(b[:l], off); err != nil {
		return false
	}
	end := b[l:]
	copy(end, "PK\x05\x06")
	binary.LittleEndian.PutUint16(end[8:], 1)
	binary.LittleEndian.PutUint16(end[10:], 1)
	binary.LittleEndian.PutUint32(end[12:], uint32(l))
	_, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
	return err == nil || errors.Is(err, zip.ErrInsecurePath)
}

// zipOpenFinding names why archive/zip refused the file. The end of central
// directory record (APPNOTE 4.3.16, signature PK\x05\x06) sits in the last
// 65,557 bytes; local headers start with PK\x03\x04.
func zipOpenFinding(ra io.ReaderAt, size int64, head []byte, err error) Finding {
	tailLen := min(size, 65557)
	tail := make([]byte, tailLen)
	_, _ = ra.ReadAt(tail, size-tailLen)
	hasEOCD := bytes.Contains(tail, []byte("PK\x05\x06"))
	isZipStart := bytes.HasPrefix(head, []byte("PK\x03\x04"))
	switch {
	case isZipStart && !hasEOCD:
		return Finding{Code: CodeZipTruncated, Grade: Fatal, Anchor: "truncated",
			Message: "the zip archive is truncated: it starts like a zip but its end (the central directory) is missing, so the file was cut off while being written or copied",
			Fix:     "write or copy the document again; the missing part cannot be recovered from this file"}
	case hasEOCD:
		return Finding{Code: CodeZipCentralDir, Grade: Fatal, Anchor: "central-directory",
			Message: "the zip central directory is damaged (" + err.Error() + "); the application cannot list the document's parts",
			Fix:     "re-save the document from its source; the archive structure is corrupt"}
	}
	return Finding{Code: CodeZipNotZip, Grade: Fatal, Anchor: "not-zip",
		Message: fmt.Sprintf("the file is not a zip package (it starts with %q); Office documents are zip archives", printable(head)),
		Fix:     "check that this is really a .docx/.xlsx/.pptx/.hwpx file and not another format renamed"}
}

func printable(b []byte) string {
	var s strings.Builder
	for _, c := range b {
		if c >= 0x20 && c < 0x7f {
			s.WriteByte(c)
		} else {
			fmt.Fprintf(&s, "\\x%02x", c)
		}
	}
	return s.String()
}

// loadEntries checks entry names, counts and declared sizes.
func (p *Package) loadEntries(zr *zip.Reader) {
	lim := p.Limits
	if len(zr.File) > lim.MaxEntries {
		p.Add(Finding{Code: CodeZipLimit, Grade: Fatal, Anchor: "entries",
			Message: fmt.Sprintf("the zip archive has %d entries, over the limit of %d; only the first %d are examined", len(zr.File), lim.MaxEntries, lim.MaxEntries),
			Fix:     "no real document has this many parts; the file is hostile or broken"})
	}
	var total uint64
	dupReported := map[string]bool{}
	for i, f := range zr.File {
		if i >= lim.MaxEntries {
			break
		}
		e := &Entry{Name: f.Name, Part: strings.TrimPrefix(strings.ReplaceAll(f.Name, `\`, "/"), "/"),
			Size: f.UncompressedSize64, CompressedSize: f.CompressedSize64, Method: f.Method,
			Dir: strings.HasSuffix(f.Name, "/") || strings.HasSuffix(f.Name, `\`), Index: i, f: f}
		p.Entries = append(p.Entries, e)
		p.checkName(e)
		key := normPart(e.Part)
		if prev, ok := p.byPart[key]; ok && !e.Dir {
			// Part names are compared case-insensitively (OPC §9.1.1.1 [M1.12]);
			// two entries with one name: Excel repairs (poi duplicate-filename).
			if !dupReported[key] {
				dupReported[key] = true
				p.Add(Finding{Code: CodeZipDuplicate, Grade: Fatal, Part: e.Part, Anchor: key,
					Message: fmt.Sprintf("the zip holds two entries named %q and %q (names compare case-insensitively); the application cannot tell which is the part", prev.Name, e.Name),
					Fix:     "write the package again with each part exactly once"})
			}
			continue
		}
		p.byPart[key] = e
		if e.Dir {
			continue
		}
		switch {
		case f.UncompressedSize64 > uint64(lim.MaxEntrySize):
			e.blocked = fmt.Errorf("%w: %d bytes declared, limit %d", ErrEntryTooLarge, f.UncompressedSize64, lim.MaxEntrySize)
		case f.UncompressedSize64 > uint64(lim.RatioFloor) && f.CompressedSize64 > 0 && f.UncompressedSize64/f.CompressedSize64 > uint64(lim.MaxRatio):
			e.blocked = fmt.Errorf("%w: %d:1, limit %d:1", ErrRatio, f.UncompressedSize64/f.CompressedSize64, lim.MaxRatio)
		case f.Method != zip.Store && f.Method != zip.Deflate:
			e.blocked = fmt.Errorf("compression method %d is not stored or deflate", f.Method)
			p.Add(Finding{Code: CodeZipMethod, Grade: Fatal, Part: e.Part, Anchor: e.Part,
				Message: fmt.Sprintf("the entry uses zip compression method %d; Office reads only stored (0) and deflate (8) entries", f.Method),
				Fix:     "write the package again with deflate compression"})
			continue
		}
		if e.blocked != nil {
			p.Add(Finding{Code: CodeZipLimit, Grade: Fatal, Part: e.Part, Anchor: e.Part,
				Message: "the entry was not read: " + e.blocked.Error() + " (a decompression bomb or a hostile file)",
				Fix:     "no real document part is this large; remove it or write the document again"})
			continue
		}
		total += f.UncompressedSize64
	}
	if total > uint64(lim.MaxTotalSize) {
		p.Add(Finding{Code: CodeZipLimit, Grade: Fatal, Anchor: "total",
			Message: fmt.Sprintf("the entries declare %d bytes uncompressed in all, over the %d-byte limit; reading stops at the limit", total, lim.MaxTotalSize),
			Fix:     "a decompression bomb or a hostile file"})
	}
}

// checkName flags entry names that escape the archive or that Office does
// not accept as part names (OPC §9.1.1.1: segments separated by "/", no
// empty, "." or ".." segment; APPNOTE 4.4.17: forward slashes only).
func (p *Package) checkName(e *Entry) {
	var why string
	switch {
	case strings.Contains(e.Name, `\`):
		why = "uses backslashes as separators; zip entry names must use forward slashes, so the application does not find the part where it looks"
	case strings.HasPrefix(e.Name, "/") || (len(e.Name) > 1 && e.Name[1] == ':'):
		why = "is an absolute path"
	case e.Name == ".." || strings.HasPrefix(e.Name, "../") || strings.Contains(e.Name, "/../") || strings.HasSuffix(e.Name, "/.."):
		why = "contains a .. segment that points outside the archive"
	case strings.Contains(e.Name, "//") || strings.Contains(e.Name, "/./") || strings.HasPrefix(e.Name, "./"):
		why = "has an empty or \".\" segment"
	default:
		return
	}
	p.Add(Finding{Code: CodeZipEntryName, Grade: Fatal, Part: e.Name, Anchor: e.Name,
		Message: fmt.Sprintf("the zip entry name %q %s", e.Name, why),
		Fix:     "write the package again with relative, forward-slash part names such as word/document.xml"})
}

// limitedReader reads an entry's data, enforcing the declared size, the
// per-entry limit and the package-wide total.
type limitedReader struct {
	p   *Package
	e   *Entry
	r   io.Reader
	n   int64
	max int64
}

func (l *limitedReader) Read(b []byte) (int, error) {
	n, err := l.r.Read(b)
	l.n += int64(n)
	l.p.total += int64(n)
	if l.n > l.max {
		return n, fmt.Errorf("%w: more than %d bytes", ErrEntryTooLarge, l.max)
	}
	if l.p.total > l.p.Limits.MaxTotalSize {
		return n, fmt.Errorf("%w: more than %d bytes read in all", ErrTotalTooLarge, l.p.Limits.MaxTotalSize)
	}
	if errors.Is(err, zip.ErrChecksum) {
		return n, fmt.Errorf("%w (CRC-32 of %s)", err, l.e.Name)
	}
	if errors.Is(err, zip.ErrFormat) {
		// archive/zip's entry reader fails with ErrFormat only when the
		// data runs past the declared uncompressed size: a decompression
		// bomb that understates its size to pass the ratio check.
		return n, fmt.Errorf("%w: the data is longer than the %d bytes its header declares", ErrEntryTooLarge, l.e.Size)
	}
	return n, err
}

// OpenPart opens a part's data for reading under the limits. The reader
// verifies the CRC at the end (zip.ErrChecksum).
func (p *Package) OpenPart(part string) (io.ReadCloser, error) {
	e := p.Entry(part)
	if e == nil || e.Dir {
		return nil, fmt.Errorf("formats: no part %q", part)
	}
	if e.blocked != nil {
		return nil, e.blocked
	}
	rc, err := e.f.Open()
	if err != nil {
		return nil, err
	}
	e.read = true
	lr := &limitedReader{p: p, e: e, r: rc, max: min(p.Limits.MaxEntrySize, int64(e.Size)+1)}
	return struct {
		io.Reader
		io.Closer
	}{lr, rc}, nil
}

// ReadPart reads a whole part into memory under the limits.
func (p *Package) ReadPart(part string) ([]byte, error) {
	rc, err := p.OpenPart(part)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	return io.ReadAll(rc)
}

// readErrFinding turns an error reading a part into a finding.
func (p *Package) readErrFinding(part string, err error) Finding {
	if errors.Is(err, zip.ErrChecksum) {
		// APPNOTE 4.4.7: a CRC mismatch means the entry's bytes are not the
		// ones written; Office reports the file as corrupt.
		return Finding{Code: CodeZipCRC, Grade: Fatal, Part: part, Anchor: part,
			Message: "the entry's data does not match its CRC-32 checksum: the bytes were damaged after writing",
			Fix:     "copy or write the document again from an undamaged source"}
	}
	if errors.Is(err, ErrEntryTooLarge) || errors.Is(err, ErrTotalTooLarge) || errors.Is(err, ErrRatio) {
		return Finding{Code: CodeZipLimit, Grade: Fatal, Part: part, Anchor: part,
			Message: "reading the entry stopped at a limit: " + err.Error(),
			Fix:     "no real document part is this large; the file is hostile or broken"}
	}
	return Finding{Code: CodeZipCentralDir, Grade: Fatal, Part: part, Anchor: part,
		Message: "the entry cannot be read: " + err.Error(),
		Fix:     "the zip structure of this entry is damaged; write the document again"}
}

// ScanPart scans one XML part once: the generic XML checks run, r:id
// references are recorded for the relationship checks, and h (may be nil)
// receives the events. A part is scanned at most once; a second call
// returns the first result's completeness without calling h.
func (p *Package) ScanPart(ctx context.Context, part string, h Handler) ScanResult {
	key := normPart(part)
	if p.scanned[key] {
		return ScanResult{Complete: true}
	}
	p.scanned[key] = true
	e := p.Entry(part)
	if e == nil {
		return ScanResult{}
	}
	rc, err := p.OpenPart(part)
	if err != nil {
		if e.blocked == nil {
			p.Add(p.readErrFinding(e.Part, err))
		}
		return ScanResult{}
	}
	defer rc.Close()
	rh := &refHandler{next: h, relNS: relNamespaces}
	res := ScanXML(e.Part, ctxio.Reader(ctx, rc), p.Limits, rh)
	for i, f := range res.Findings {
		if f.Code == CodeXMLNotWellFormed && strings.Contains(f.Message, "checksum error") {
			res.Findings[i] = p.readErrFinding(e.Part, zip.ErrChecksum)
		}
	}
	p.findings = append(p.findings, res.Findings...)
	p.refs[key] = rh.refs
	p.complete[key] = res.Complete
	return res
}

// Incomplete reports whether part was scanned and the scan stopped before
// its end: the part did not parse (or could not be read), so whatever was
// counted from it is partial and its counts are unknown. A part that is
// not in the package is not incomplete: its content is gone.
func (p *Package) Incomplete(part string) bool {
	key := normPart(part)
	return p.scanned[key] && !p.complete[key] && p.Entry(part) != nil
}

// IsXMLPart reports whether a part holds XML, by its resolved content type
// or its extension.
func (p *Package) IsXMLPart(part string) bool {
	lp := strings.ToLower(part)
	if strings.HasSuffix(lp, ".xml") || strings.HasSuffix(lp, ".rels") || strings.HasSuffix(lp, ".hpf") {
		return true
	}
	if p.ContentTypes != nil {
		ct := p.ContentTypes.Resolve(part)
		return strings.HasSuffix(ct, "+xml") || ct == "application/xml" || ct == "text/xml"
	}
	return false
}

// ScanRest scans every XML part not scanned yet with the generic checks
// only, reads every other entry once to verify its CRC, and then runs the
// package-level content-type and relationship checks. Call it once, after
// the format's own scans.
func (p *Package) ScanRest(ctx context.Context) error {
	opc := p.Format != HWPX && (p.Format != Unknown || p.ContentTypes != nil)
	if opc {
		p.loadAllRels(ctx)
	}
	for _, e := range p.Entries {
		if err := ctx.Err(); err != nil {
			return err
		}
		if e.Dir || e.blocked != nil || p.byPart[normPart(e.Part)] != e {
			continue
		}
		if p.IsXMLPart(e.Part) {
			p.ScanPart(ctx, e.Part, nil)
			continue
		}
		if e.read {
			continue
		}
		rc, err := p.OpenPart(e.Part)
		if err == nil {
			_, err = io.Copy(io.Discard, ctxio.Reader(ctx, rc))
			rc.Close()
		}
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			p.Add(p.readErrFinding(e.Part, err))
		}
	}
	if opc {
		p.checkOPC(ctx)
		p.gradeOrphans()
	}
	return nil
}

// Parts returns the non-folder part names in zip order (first of duplicates).
func (p *Package) Parts() []string {
	var out []string
	for _, e := range p.Entries {
		if !e.Dir && p.byPart[normPart(e.Part)] == e {
			out = append(out, e.Part)
		}
	}
	return out
}

// PartsUnder returns the parts whose names start with prefix
// (case-insensitive), sorted naturally (slide2 before slide10).
func (p *Package) PartsUnder(prefix string) []string {
	lp := strings.ToLower(prefix)
	var out []string
	for _, part := range p.Parts() {
		if strings.HasPrefix(strings.ToLower(part), lp) {
			out = append(out, part)
		}
	}
	sort.Slice(out, func(i, j int) bool { return NaturalLess(out[i], out[j]) })
	return out
}

// NaturalLess compares strings with digit runs compared as numbers
// ("slide2" before "slide10"); of two equal numbers the one with fewer
// leading zeros comes first, so that distinct strings never compare equal.
func NaturalLess(a, b string) bool {
	for a != "" && b != "" {
		da, db := digits(a), digits(b)
		if da > 0 && db > 0 {
			na, nb := strings.TrimLeft(a[:da], "0"), strings.TrimLeft(b[:db], "0")
			if len(na) != len(nb) {
				return len(na) < len(nb)
			}
			if na != nb {
				return na < nb
			}
			if da != db {
				return da < db
			}
			a, b = a[da:], b[db:]
			continue
		}
		if a[0] != b[0] {
			return a[0] < b[0]
		}
		a, b = a[1:], b[1:]
	}
	return len(a) < len(b)
}

func digits(s string) int {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return i
}

// Dir returns the folder of a part name ("word" for "word/document.xml").
func Dir(part string) string {
	d := path.Dir(part)
	if d == "." {
		return ""
	}
	return d
}
