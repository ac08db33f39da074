package formats

import (
	"archive/zip"
	"bytes"
	"context"
	"fmt"
	"io"
	"regexp"
	"strconv"
)

// Removal is one XML-illegal character removed by Sanitize.
type Removal struct {
	Part      string `json:"part"`
	Line      int    `json:"line"`
	Column    int    `json:"column"`
	CodePoint string `json:"code_point"` // "U+000B"
}

// illegalRef matches a character reference at the start of its input (of
// any length: XML allows leading zeros); its code point is checked.
var illegalRef = regexp.MustCompile(`^&#(x[0-9A-Fa-f]+|[0-9]+);`)

// Sanitize copies the package in (size bytes) to out with every
// XML-illegal character (XML 1.0 §2.2: U+0000–U+0008, U+000B, U+000C,
// U+000E–U+001F, U+FFFE, U+FFFF, raw or as a character reference) removed
// from every XML part — the clean-up a write pipeline does before
// validation. Other entries are copied byte for byte (still compressed).
// It returns every removal. The input is only read.
func Sanitize(ctx context.Context, in io.ReaderAt, size int64, out io.Writer, lim Limits) ([]Removal, error) {
	if n := countEntries(in, size, lim.MaxEntries+1); n > lim.MaxEntries {
		return nil, fmt.Errorf("formats: more than %d entries, over the limit", lim.MaxEntries)
	}
	zr, err := zip.NewReader(in, size)
	if err != nil {
		return nil, fmt.Errorf("formats: not a readable zip package: %w", err)
	}
	if len(zr.File) > lim.MaxEntries {
		return nil, fmt.Errorf("formats: %d entries, over the limit of %d", len(zr.File), lim.MaxEntries)
	}
	zw := zip.NewWriter(out)
	var removed []Removal
	for _, f := range zr.File {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if !isXMLName(f.Name) || f.UncompressedSize64 > uint64(lim.MaxEntrySize) {
			if err := copyRaw(zw, f); err != nil {
				return nil, err
			}
			continue
		}
		rc, err := f.Open()
		if err != nil {
			return nil, err
		}
		data, err := io.ReadAll(io.LimitReader(rc, lim.MaxEntrySize+1))
		rc.Close()
		if err != nil {
			return nil, fmt.Errorf("formats: reading %s: %w", f.Name, err)
		}
		clean, rs := sanitizeXML(f.Name, data)
		if len(rs) == 0 {
			if err := copyRaw(zw, f); err != nil {
				return nil, err
			}
			continue
		}
		removed = append(removed, rs...)
		hdr := f.FileHeader
		w, err := zw.CreateHeader(&hdr)
		if err != nil {
			return nil, err
		}
		if _, err := w.Write(clean); err != nil {
			return nil, err
		}
	}
	return removed, zw.Close()
}

func isXMLName(name string) bool {
	ext := pathExt(name)
	return ext == ".xml" || ext == ".rels" || ext == ".hpf" || ext == ".XML"
}

func copyRaw(zw *zip.Writer, f *zip.File) error {
	r, err := f.OpenRaw()
	if err != nil {
		return err
	}
	w, err := zw.CreateRaw(&f.FileHeader)
	if err != nil {
		return err
	}
	_, err = io.Copy(w, r)
	return err
}

func legalChar(r rune) bool {
	return r == 0x9 || r == 0xA || r == 0xD || (r >= 0x20 && r <= 0xD7FF) || (r >= 0xE000 && r <= 0xFFFD) || (r >= 0x10000 && r <= 0x10FFFF)
}

// sanitizeXML removes illegal characters and references from one part,
// reporting positions in the original text (1-based line, column in bytes).
func sanitizeXML(part string, data []byte) ([]byte, []Removal) {
	var rs []Removal
	out := make([]byte, 0, len(data))
	line, lineStart := 1, 0
	for i := 0; i < len(data); {
		c := data[i]
		if c == '\n' {
			line, lineStart = line+1, i+1
		}
		switch {
		case c < 0x20 && c != '\t' && c != '\n' && c != '\r':
			rs = append(rs, Removal{part, line, i - lineStart + 1, fmt.Sprintf("U+%04X", c)})
			i++
			continue
		case c == 0xEF && i+2 < len(data) && data[i+1] == 0xBF && (data[i+2] == 0xBE || data[i+2] == 0xBF):
			rs = append(rs, Removal{part, line, i - lineStart + 1, fmt.Sprintf("U+%04X", 0xFFFE+int(data[i+2]-0xBE))})
			i += 3
			continue
		case c == '&' && i+2 < len(data) && data[i+1] == '#':
			if m := illegalRef.Find(data[i:]); m != nil {
				num := string(m[2 : len(m)-1])
				base := 10
				if num[0] == 'x' {
					num, base = num[1:], 16
				}
				v, err := strconv.ParseUint(num, base, 32)
				if err != nil || v > 0x10FFFF || !legalChar(rune(v)) {
					cp := fmt.Sprintf("U+%04X", v)
					if err != nil || v > 0x10FFFF {
						cp = "beyond U+10FFFF" // XML 1.0 §4.1 WFC: Legal Character
					}
					rs = append(rs, Removal{part, line, i - lineStart + 1, cp})
					i += len(m)
					continue
				}
			}
		}
		out = append(out, c)
		i++
	}
	if len(rs) == 0 {
		return data, nil
	}
	return bytes.Clone(out), rs
}
