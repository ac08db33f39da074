package pixeldiff

import (
	"bufio"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"io"
	"math"
	"strconv"
	"strings"
	"unicode"
)

// The text layer of a page: its lines of text as the PDF holds them, top
// to bottom in reading order, each reduced to a hash of its words and the
// rows it spans. Pages are aligned by content with it (align_text.go):
// a text line is the same wherever it lands, on any page and at any
// sub-pixel position, where a line of pixels is not (a table split at
// another row, a ruled border drawn at another phase, glyphs MuPDF draws
// at quarter-pixel positions). render reads it from LibreOffice's
// PDF with `pdftotext -tsv` (ParseTSV) and stores it in the signatures.

// PageText is the text layer of one page. A nil *PageText means the text
// layer is unknown (not extracted); an empty one, a page without text.
type PageText struct {
	// Lines hash each line's words joined by single spaces (FNV-1a).
	Lines LineHashes `json:"lines"`
	// Shapes hash each line with its digit runs replaced by '#': a running
	// header or footer keeps its shape while its page number changes.
	Shapes LineHashes `json:"shapes"`
	// Rows are the pixel rows each line spans, [y0, y1) pairs flattened
	// (2 entries per line), at the resolution of the page's raster.
	Rows []int32 `json:"rows"`
	// Words hash every word of every line (FNV-1a, 32 bits), line after
	// line; Ends[i] is the end of line i's words in Words. They tell a line
	// that was only regrouped (pdftotext joins two table cells into one
	// line on one page and not on another) from one whose words changed.
	Words WordHashes `json:"words"`
	Ends  []int32    `json:"ends"`
}

// words returns line i's word hashes.
func (t *PageText) words(i int) []uint32 {
	s := int32(0)
	if i > 0 {
		s = t.Ends[i-1]
	}
	return t.Words[s:t.Ends[i]]
}

// WordHashes are 32-bit word digests. They marshal to JSON as base64 of
// their little-endian bytes.
type WordHashes []uint32

// MarshalText implements encoding.TextMarshaler.
func (w WordHashes) MarshalText() ([]byte, error) {
	b := make([]byte, 4*len(w))
	for i, v := range w {
		binary.LittleEndian.PutUint32(b[4*i:], v)
	}
	out := make([]byte, base64.StdEncoding.EncodedLen(len(b)))
	base64.StdEncoding.Encode(out, b)
	return out, nil
}

// UnmarshalText implements encoding.TextUnmarshaler.
func (w *WordHashes) UnmarshalText(t []byte) error {
	b := make([]byte, base64.StdEncoding.DecodedLen(len(t)))
	n, err := base64.StdEncoding.Decode(b, t)
	if err != nil {
		return fmt.Errorf("pixeldiff: word hashes: %w", err)
	}
	if n%4 != 0 {
		return fmt.Errorf("pixeldiff: word hashes: %d bytes is not a multiple of 4", n)
	}
	out := make(WordHashes, n/4)
	for i := range out {
		out[i] = binary.LittleEndian.Uint32(b[4*i:])
	}
	*w = out
	return nil
}

// Len is the number of lines.
func (t *PageText) Len() int {
	if t == nil {
		return 0
	}
	return len(t.Lines)
}

// TextLine is one line of text on a page, for NewPageText.
type TextLine struct {
	Text   string
	Y0, Y1 int // pixel rows [Y0, Y1)
}

// NewPageText hashes lines (in reading order). Lines without a letter or
// digit (rules drawn with underscores, bullets alone) are kept: they are
// content too.
func NewPageText(lines []TextLine) *PageText {
	t := &PageText{Lines: LineHashes{}, Shapes: LineHashes{}, Rows: []int32{}, Words: WordHashes{}, Ends: []int32{}}
	for _, l := range lines {
		words := strings.Fields(l.Text)
		if len(words) == 0 {
			continue
		}
		norm := strings.Join(words, " ")
		t.Lines = append(t.Lines, hash64(norm))
		t.Shapes = append(t.Shapes, hash64(shape(norm)))
		t.Rows = append(t.Rows, int32(l.Y0), int32(l.Y1))
		for _, w := range words {
			h := fnv.New32a()
			h.Write([]byte(w))
			t.Words = append(t.Words, h.Sum32())
		}
		t.Ends = append(t.Ends, int32(len(t.Words)))
	}
	return t
}

// shape replaces every run of digits by '#'.
func shape(s string) string {
	var b strings.Builder
	prev := false
	for _, r := range s {
		d := unicode.IsDigit(r)
		switch {
		case d && !prev:
			b.WriteByte('#')
		case !d:
			b.WriteRune(r)
		}
		prev = d
	}
	return b.String()
}

func hash64(s string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(s))
	return h.Sum64()
}

// row returns line i's rows.
func (t *PageText) row(i int) (y0, y1 int) { return int(t.Rows[2*i]), int(t.Rows[2*i+1]) }

// ParseTSV reads the output of `pdftotext -tsv` (poppler ≥ 21.06: one row
// per page, flow, block, line and word, with level, page_num, the box in
// points and the text) and returns the text layer of every page, with the
// rows scaled to dpi. Every page has an entry, empty when it has no text.
func ParseTSV(r io.Reader, dpi int) ([]*PageText, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	scale := float64(dpi) / 72
	var pages [][]TextLine
	var cur *TextLine
	var words []string
	flush := func() {
		if cur != nil && len(pages) > 0 {
			cur.Text = strings.Join(words, " ")
			pages[len(pages)-1] = append(pages[len(pages)-1], *cur)
		}
		cur, words = nil, words[:0]
	}
	first := true
	for sc.Scan() {
		line := sc.Text()
		if first {
			first = false
			if strings.HasPrefix(line, "level\t") {
				continue
			}
		}
		f := strings.SplitN(line, "\t", 12)
		if len(f) < 12 {
			continue
		}
		level, err := strconv.Atoi(f[0])
		if err != nil {
			return nil, fmt.Errorf("pixeldiff: pdftotext tsv: bad level %q", f[0])
		}
		switch level {
		case 1: // a page
			flush()
			pages = append(pages, nil)
		case 4: // a line: its box
			flush()
			top, err1 := strconv.ParseFloat(f[7], 64)
			h, err2 := strconv.ParseFloat(f[9], 64)
			if err1 != nil || err2 != nil {
				return nil, fmt.Errorf("pixeldiff: pdftotext tsv: bad line box %q", line)
			}
			cur = &TextLine{Y0: int(math.Floor(top * scale)), Y1: int(math.Ceil((top + h) * scale))}
		case 5: // a word of the current line
			if cur != nil {
				words = append(words, f[11])
			}
		default: // flows and blocks
			flush()
		}
	}
	flush()
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("pixeldiff: pdftotext tsv: %w", err)
	}
	out := make([]*PageText, len(pages))
	for i, ls := range pages {
		out[i] = NewPageText(ls)
	}
	return out, nil
}

// ConfirmBands keeps a running header or footer band only if its text
// repeats from page to page, digits aside: a band is a property of the
// document because the same element recurs, not because something sits at
// the same place on every page. A slide title at the top of every slide
// makes BandDetector's pixel rule fire (the same title bar, text that
// overlaps), but its words differ from slide to slide: the band would hide
// a title edit as "only the header changed" (docs/rendering.md, "Aligning
// pages by content": poi_real-deck-HowWeRefactor.pptx). For each band, the
// consecutive pages on which it applies are compared by the shapes
// (PageText.Shapes) of the text lines inside it; the band is kept when no
// page has text in it (a rule, a logo: the pixel rule stands), or when at
// least as many pages repeat their band text (that of one of the two
// pages before) as do not. Pages without
// a text layer leave the bands as they are.
func ConfirmBands(b Bands, sigs []PageSig) Bands {
	for _, s := range sigs {
		if s.Text == nil {
			return b
		}
	}
	zoneText := func(s PageSig, top bool) (shapes []uint64, applies bool) {
		t, bo := s.BandsOn(b)
		if (top && t == 0) || (!top && bo == 0) {
			return nil, false
		}
		for i, sh := range s.Text.Shapes {
			y0, y1 := s.Text.row(i)
			mid := (y0 + y1) / 2
			if (top && mid < t) || (!top && mid >= s.H-bo) {
				shapes = append(shapes, sh)
			}
		}
		return shapes, true
	}
	// A page repeats when its band text is that of the page before or of
	// the one before that (left and right pages with mirrored headers).
	keep := func(top bool) bool {
		same, differ := 0, 0
		var hist [2][]uint64 // band text of the previous two pages
		var ok [2]bool
		for _, s := range sigs {
			cur, applies := zoneText(s, top)
			if applies && (ok[0] || ok[1]) {
				switch {
				case ok[0] && slicesEqual(hist[0], cur), ok[1] && slicesEqual(hist[1], cur):
					if len(cur) > 0 {
						same++
					}
				default:
					differ++
				}
			}
			hist[1], ok[1] = hist[0], ok[0]
			hist[0], ok[0] = cur, applies
		}
		return differ == 0 || same >= differ
	}
	if b.Top > 0 && !keep(true) {
		b.Top = 0
	}
	if b.Bottom > 0 && !keep(false) {
		b.Bottom = 0
	}
	return b
}

func slicesEqual(a, b []uint64) bool {
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
