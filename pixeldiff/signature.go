package pixeldiff

import (
	"cmp"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"hash"
	"image"
	"slices"

	"github.com/corona10/goimagehash"
)

// Hash is a SHA-256 digest of page pixels. It marshals to JSON as 64 hex
// digits.
type Hash [32]byte

// MarshalText implements encoding.TextMarshaler.
func (h Hash) MarshalText() ([]byte, error) { return hexText(h[:]), nil }

// UnmarshalText implements encoding.TextUnmarshaler.
func (h *Hash) UnmarshalText(b []byte) error { return unhexText(h[:], b) }

// String returns the first 12 hex digits, enough to tell pages apart in
// logs.
func (h Hash) String() string { return hex.EncodeToString(h[:6]) }

// SegHash is a digest of one horizontal segment of a page: SHA-256
// truncated to 128 bits. It marshals to JSON as 32 hex digits.
type SegHash [16]byte

// MarshalText implements encoding.TextMarshaler.
func (h SegHash) MarshalText() ([]byte, error) { return hexText(h[:]), nil }

// UnmarshalText implements encoding.TextUnmarshaler.
func (h *SegHash) UnmarshalText(b []byte) error { return unhexText(h[:], b) }

func hexText(p []byte) []byte {
	out := make([]byte, hex.EncodedLen(len(p)))
	hex.Encode(out, p)
	return out
}

func unhexText(dst, b []byte) error {
	if hex.DecodedLen(len(b)) != len(dst) {
		return fmt.Errorf("pixeldiff: hash of %d hex digits, want %d", len(b), 2*len(dst))
	}
	_, err := hex.Decode(dst, b)
	return err
}

// LineHashes are 64-bit digests of a page's blocks of content (runs of
// rows that are not blank, see blankRows: in text, one line each), top to
// bottom. They marshal to JSON as base64 of their little-endian bytes, so
// that no JSON reader rounds them.
type LineHashes []uint64

// MarshalText implements encoding.TextMarshaler.
func (l LineHashes) MarshalText() ([]byte, error) {
	b := make([]byte, 8*len(l))
	for i, v := range l {
		binary.LittleEndian.PutUint64(b[8*i:], v)
	}
	out := make([]byte, base64.StdEncoding.EncodedLen(len(b)))
	base64.StdEncoding.Encode(out, b)
	return out, nil
}

// UnmarshalText implements encoding.TextUnmarshaler.
func (l *LineHashes) UnmarshalText(t []byte) error {
	b := make([]byte, base64.StdEncoding.DecodedLen(len(t)))
	n, err := base64.StdEncoding.Decode(b, t)
	if err != nil {
		return fmt.Errorf("pixeldiff: line hashes: %w", err)
	}
	if n%8 != 0 {
		return fmt.Errorf("pixeldiff: line hashes: %d bytes is not a multiple of 8", n)
	}
	out := make(LineHashes, n/8)
	for i := range out {
		out[i] = binary.LittleEndian.Uint64(b[8*i:])
	}
	*l = out
	return nil
}

// PageSig identifies a rendered page without its pixels: what the baseline
// stores per page and what Align works on. It is computed from the page
// alone (Signature), while the running header/footer bands are a property
// of the whole document (BandDetector): the signature keeps the page cut
// into horizontal segments at every block of content near the top and
// bottom edges, so that the hash of the page without any bands can be
// derived later, without the pixels (Masked).
type PageSig struct {
	// W and H are the page size in pixels.
	W int `json:"w"`
	H int `json:"h"`
	// Full is an exact hash of the whole page.
	Full Hash `json:"full"`
	// Cuts are the segment boundaries, ascending, from 0 to H: the first
	// row of every block of content in the top zone, the end of every
	// block in the bottom zone, and the zones' inner edges.
	Cuts []int `json:"cuts"`
	// Segs[i] hashes rows [Cuts[i], Cuts[i+1]).
	Segs []SegHash `json:"segs"`
	// Blocks are the blocks of content (runs of rows that are not blank,
	// see blankRows) inside the top and bottom zones, as [y0, y1) rows:
	// a band applies to the page only if its edge falls between blocks.
	Blocks [][2]int `json:"blocks"`
	// Lines hash every block of content of the page, top to bottom, by
	// its pixels alone (not its position). LibreOffice's PDF rasterized by
	// poppler draws a text line pixel-identically wherever it lands on the
	// page (measured: after a paragraph insertion, 296 of 296 moved lines
	// were found again), so lines follow content across pages: the
	// similarity of pages in an alignment gap and reflow detection use
	// them. MuPDF's mutool does not: it draws glyphs at quarter-pixel
	// phases, so a moved line often hashes differently (which is why
	// render's DefaultRasterizer prefers pdftoppm).
	Lines LineHashes `json:"lines"`
	// PHash is a 64-bit perceptual hash (DCT hash, goimagehash's
	// PerceptionHash) of the page between the top and bottom zones:
	// near-equal pictures have hashes a few bits apart. It pairs pages with
	// few lines (pictures, slides); on pages of text it is noise (measured:
	// 18–36 bits between any two pages of a report, reflowed or not).
	// Encoded as a decimal string in JSON so that no JSON reader rounds it.
	PHash uint64 `json:"phash,string"`
	// Text is the page's text layer (see PageText): nil when it was not
	// extracted, in which case pages are aligned by their pixels alone.
	Text *PageText `json:"text,omitempty"`
}

// PHashDistance is the number of differing bits between two pages'
// perceptual hashes (0..64).
func (s PageSig) PHashDistance(o PageSig) int {
	x := s.PHash ^ o.PHash
	n := 0
	for x != 0 {
		x &= x - 1
		n++
	}
	return n
}

// bandLines returns the lines of s outside the bands of b that apply to
// the page.
func (s PageSig) bandLines(b Bands) []uint64 {
	top, bottom := s.BandsOn(b)
	lo, hi := 0, len(s.Lines)
	for _, bl := range s.Blocks {
		if bl[1] <= top {
			lo++
		}
		if bl[0] >= s.H-bottom {
			hi--
		}
	}
	if hi < lo {
		return nil
	}
	return s.Lines[lo:hi]
}

// textIdx returns the indices of the page's text lines outside the bands
// of b that apply to it: a line belongs to a band when its middle row lies
// inside it (a text box is taller than the ink it holds, so its edges may
// cross the band's edge).
func (s PageSig) textIdx(b Bands) []int {
	if s.Text == nil {
		return nil
	}
	top, bottom := s.BandsOn(b)
	out := make([]int, 0, len(s.Text.Lines))
	for i := range s.Text.Lines {
		y0, y1 := s.Text.row(i)
		if mid := (y0 + y1) / 2; mid < top || mid >= s.H-bottom {
			continue
		}
		out = append(out, i)
	}
	return out
}

// sortedCopy returns a sorted copy of l.
func sortedCopy[T cmp.Ordered](l []T) []T {
	out := slices.Clone(l)
	slices.Sort(out)
	return out
}

// commonSorted counts the elements two sorted multisets share.
func commonSorted[T cmp.Ordered](a, b []T) int {
	n := 0
	for i, j := 0, 0; i < len(a) && j < len(b); {
		switch {
		case a[i] == b[j]:
			n++
			i++
			j++
		case a[i] < b[j]:
			i++
		default:
			j++
		}
	}
	return n
}

// BandsOn returns the bands of b that apply to the page: as Bands.On on
// the pixels, decided from the recorded blocks.
func (s PageSig) BandsOn(b Bands) (top, bottom int) {
	z := zoneRows(s.H)
	inBlock := func(y int) bool {
		for _, bl := range s.Blocks {
			if bl[0] <= y && y < bl[1] {
				return true
			}
		}
		return false
	}
	if b.Top > 0 && b.Top < z && !inBlock(b.Top) {
		top = b.Top
	}
	if b.Bottom > 0 && b.Bottom < z && !inBlock(s.H-b.Bottom-1) {
		bottom = b.Bottom
	}
	return top, bottom
}

// Masked is the exact hash of the page without the bands of b that apply
// to it: the hash of the segments from the first content at or below the
// top band to the last content at or above the bottom band, with their
// position. Two pages that differ only inside the bands have equal masked
// hashes. With zero Bands it is still a hash of the whole page (but not
// equal to Full).
func (s PageSig) Masked(b Bands) Hash {
	top, bottom := s.BandsOn(b)
	// First segment starting at or below the top band; last ending at or
	// above the bottom band. The rows skipped in between are blank (the
	// band edge lies outside every block).
	i0, i1 := 0, len(s.Segs)
	for i0 < len(s.Segs) && s.Cuts[i0] < top {
		i0++
	}
	for i1 > i0 && s.Cuts[i1] > s.H-bottom {
		i1--
	}
	h := sha256.New()
	var hdr [32]byte
	binary.LittleEndian.PutUint64(hdr[:8], uint64(s.W))
	binary.LittleEndian.PutUint64(hdr[8:16], uint64(s.H))
	if i0 < len(s.Cuts) {
		binary.LittleEndian.PutUint64(hdr[16:24], uint64(s.Cuts[i0]))
	}
	binary.LittleEndian.PutUint64(hdr[24:], uint64(s.Cuts[i1]))
	h.Write([]byte{'m'})
	h.Write(hdr[:])
	for _, sg := range s.Segs[i0:i1] {
		h.Write(sg[:])
	}
	var out Hash
	h.Sum(out[:0])
	return out
}

// Signature computes the signature of page r from the page alone (no
// bands: they are applied later, by Masked and Align), so it can be taken
// while the pages stream from the rasterizer, in the same pass as
// BandDetector.Add. The pixels are read to find the blank rows, hashed per
// segment (Full is the hash of the segment hashes) and per line, and
// reduced to 64×64 for the perceptual hash: about 4 ms for an A4 page at
// 100 dpi (docs/benchmarks.md).
func Signature(r *Raster) PageSig {
	z := zoneRows(r.H)
	stride := r.Stride()
	s := PageSig{W: r.W, H: r.H}
	blocks := blocksOf(blankRows(r))
	// Every row that is not of one colour is hashed once (SHA-256); lines
	// and segments hash those row digests, and a row of one colour by its
	// colour. The encoding is one of two fixed-length records per row, so
	// equal hashes still mean equal pixels — with each inked row read once
	// instead of once per line and again per segment (a third of the SHA
	// work on a page of text).
	rows := make([]Hash, r.H)
	inked := make([]bool, r.H)
	for y := 0; y < r.H; y++ {
		row := r.Pix[y*stride : (y+1)*stride]
		if !oneColour(row) {
			inked[y], rows[y] = true, sha256.Sum256(row)
		} else if len(row) >= 3 {
			copy(rows[y][:], row[:3])
		}
	}
	rowsHash := func(h hash.Hash, y0, y1 int) {
		for y := y0; y < y1; y++ {
			if inked[y] {
				h.Write([]byte{'r'})
				h.Write(rows[y][:])
			} else {
				h.Write([]byte{'u'})
				h.Write(rows[y][:3])
			}
		}
	}
	s.Lines = make(LineHashes, len(blocks))
	lh := sha256.New()
	var d Hash
	for i, b := range blocks {
		lh.Reset()
		rowsHash(lh, b[0], b[1])
		lh.Sum(d[:0])
		s.Lines[i] = binary.LittleEndian.Uint64(d[:8])
	}
	cuts := []int{0}
	for _, b := range blocks { // top zone: cut where each block starts
		if b[0] >= z {
			break
		}
		s.Blocks = append(s.Blocks, [2]int{b[0], min(b[1], z)})
		if b[0] > 0 {
			cuts = append(cuts, b[0])
		}
	}
	if z > cuts[len(cuts)-1] {
		cuts = append(cuts, z)
	}
	if r.H-z > cuts[len(cuts)-1] {
		cuts = append(cuts, r.H-z)
	}
	for _, b := range blocks { // bottom zone: cut where each block ends
		if b[1] <= r.H-z {
			continue
		}
		s.Blocks = append(s.Blocks, [2]int{max(b[0], r.H-z), b[1]})
		if b[1] > cuts[len(cuts)-1] && b[1] < r.H {
			cuts = append(cuts, b[1])
		}
	}
	cuts = append(cuts, r.H)
	s.Cuts = cuts
	full := sha256.New()
	var hdr [16]byte
	binary.LittleEndian.PutUint64(hdr[:8], uint64(r.W))
	binary.LittleEndian.PutUint64(hdr[8:], uint64(r.H))
	full.Write([]byte{'f'})
	full.Write(hdr[:])
	for i := 0; i+1 < len(cuts); i++ {
		lh.Reset()
		rowsHash(lh, cuts[i], cuts[i+1])
		lh.Sum(d[:0])
		var sg SegHash
		copy(sg[:], d[:])
		s.Segs = append(s.Segs, sg)
		full.Write(d[:])
	}
	full.Sum(s.Full[:0])
	s.PHash = perceptualHash(r, z, z, inked)
	return s
}

// perceptualHash downsamples rows [top, H-bottom) of r to a 64×64 grey
// image with an area (box) filter and hashes it with goimagehash's
// PerceptionHash. Doing the downsampling here, on the packed pixels, keeps
// goimagehash from walking a page-sized image through image.Image.At.
// inked[y] is false for the rows of one colour.
func perceptualHash(r *Raster, top, bottom int, inked []bool) uint64 {
	const n = 64
	h := r.H - top - bottom
	if h <= 0 || r.W <= 0 {
		return 0
	}
	g := image.NewGray(image.Rect(0, 0, n, n))
	// Accumulate luma per output cell, weighting by how many source pixels
	// fall in it (integer bins; the page is far larger than 64 px).
	sum := make([]uint64, n*n)
	cnt := make([]uint32, n*n)
	xbin := make([]int, r.W)
	for x := range xbin {
		xbin[x] = x * n / r.W
	}
	stride := r.Stride()
	// Rows of one colour (most of a page) add their luma once per cell.
	var xcnt [n]uint64
	for _, b := range xbin {
		xcnt[b]++
	}
	for y := 0; y < h; y++ {
		row := r.Pix[(top+y)*stride : (top+y+1)*stride]
		by := (y * n / h) * n
		if !inked[top+y] {
			l := 299*uint64(row[0]) + 587*uint64(row[1]) + 114*uint64(row[2])
			for b, c := range xcnt {
				sum[by+b] += l * c
				cnt[by+b] += uint32(c)
			}
			continue
		}
		for x := 0; x < r.W; x++ {
			i := 3 * x
			// Rec. 601 luma in integers.
			l := 299*uint64(row[i]) + 587*uint64(row[i+1]) + 114*uint64(row[i+2])
			sum[by+xbin[x]] += l
			cnt[by+xbin[x]]++
		}
	}
	for i := range sum {
		if cnt[i] > 0 {
			g.Pix[i] = uint8(sum[i] / uint64(cnt[i]) / 1000)
		}
	}
	ph, err := goimagehash.PerceptionHash(g)
	if err != nil { // only for a nil image
		return 0
	}
	return ph.GetHash()
}
