package convert

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// pt formats a length in HWPUNIT (1/7200 inch = 1/100 pt) as ODF points.
func pt(hwp int) string { return ptf(float64(hwp) / 100) }

// ptf formats points with at most two decimals (0.01 pt is one HWPUNIT).
func ptf(v float64) string {
	s := strconv.FormatFloat(v, 'f', 2, 64)
	s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	if s == "-0" {
		s = "0"
	}
	return s + "pt"
}

// esc escapes text for XML content and attribute values. Characters XML
// 1.0 does not allow are dropped (a hostile part cannot make the converter
// write a document LibreOffice refuses).
func esc(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '&':
			b.WriteString("&amp;")
		case r == '<':
			b.WriteString("&lt;")
		case r == '>':
			b.WriteString("&gt;")
		case r == '"':
			b.WriteString("&quot;")
		case r == '\t' || r == '\n' || r == '\r':
			b.WriteRune(r)
		case r < 0x20 || (r >= 0xD800 && r <= 0xDFFF) || r == 0xFFFE || r == 0xFFFF || r == utf8.RuneError:
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// textRun writes text as ODF paragraph content. Every run of spaces
// becomes text:s with its count (ODF 1.3 §6.1.3: plain white space
// collapses, and a leading space would be dropped), tabs text:tab,
// newlines text:line-break.
func textRun(b *strings.Builder, s string) {
	start, spaces := 0, 0
	for i, r := range s {
		if r == ' ' {
			if spaces == 0 {
				b.WriteString(esc(s[start:i]))
			}
			spaces++
			start = i + 1
			continue
		}
		if spaces > 0 {
			writeSpaces(b, spaces)
			spaces = 0
		}
		switch r {
		case '\t':
			b.WriteString(esc(s[start:i]))
			b.WriteString("<text:tab/>")
			start = i + 1
		case '\n', '\r':
			b.WriteString(esc(s[start:i]))
			b.WriteString("<text:line-break/>")
			start = i + 1
		}
	}
	if spaces > 0 {
		writeSpaces(b, spaces)
		return
	}
	b.WriteString(esc(s[start:]))
}

func writeSpaces(b *strings.Builder, n int) {
	if n == 1 {
		b.WriteString("<text:s/>")
		return
	}
	fmt.Fprintf(b, `<text:s text:c="%d"/>`, n)
}

// styleSet collects automatic styles, one per distinct definition, named in
// order of first use (so the output is the same for the same input).
type styleSet struct {
	prefix string // before every name: styles.xml and content.xml differ
	byKey  map[string]string
	defs   []string
	count  map[string]int
}

func newStyleSet(prefix string) *styleSet {
	return &styleSet{prefix: prefix, byKey: map[string]string{}, count: map[string]int{}}
}

// get returns the name of the style of family with the given properties
// XML, adding it when new. prefix names it (P, T, Tb, …).
func (s *styleSet) get(family, prefix, attrs, props string) string {
	key := family + "\x00" + attrs + "\x00" + props
	if n, ok := s.byKey[key]; ok {
		return n
	}
	s.count[prefix]++
	name := s.prefix + prefix + strconv.Itoa(s.count[prefix])
	s.byKey[key] = name
	s.defs = append(s.defs, fmt.Sprintf(`<style:style style:name="%s" style:family="%s"%s>%s</style:style>`, name, family, attrs, props))
	return name
}

func (s *styleSet) write(b *strings.Builder) {
	for _, d := range s.defs {
		b.WriteString(d)
	}
}

const odfNS = ` xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0"` +
	` xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0"` +
	` xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"` +
	` xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0"` +
	` xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0"` +
	` xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0"` +
	` xmlns:xlink="http://www.w3.org/1999/xlink"` +
	` xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0"` +
	` xmlns:loext="urn:org:documentfoundation:names:experimental:office:xmlns:loext:1.0"` +
	` office:version="1.3"`
