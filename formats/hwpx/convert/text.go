package convert

import (
	"fmt"
	"strings"
)

// textProps is the ODF text-properties element of a character shape;
// highlight is a marker-pen colour ("" for none).
func (c *conv) textProps(cp *charPr, highlight string) string {
	if cp == nil {
		return ""
	}
	var b strings.Builder
	b.WriteString("<style:text-properties")
	size := func(lang int) string {
		rel := cp.relSz[lang]
		if rel <= 0 || rel > 1000 {
			rel = 100
		}
		return ptf(float64(cp.height) * float64(rel) / 10000)
	}
	fmt.Fprintf(&b, ` fo:font-size="%s" style:font-size-asian="%s" style:font-size-complex="%s"`, size(langLatin), size(langHangul), size(langLatin))
	fmt.Fprintf(&b, ` style:font-name="%s" style:font-name-asian="%s" style:font-name-complex="%s"`,
		esc(c.family(langLatin, cp.font[langLatin])), esc(c.family(langHangul, cp.font[langHangul])), esc(c.family(langLatin, cp.font[langLatin])))
	if cp.color != "" {
		fmt.Fprintf(&b, ` fo:color="%s"`, cp.color)
	}
	switch {
	case highlight != "":
		fmt.Fprintf(&b, ` fo:background-color="%s"`, highlight)
	case cp.shade != "" && cp.shade != "#ffffff":
		fmt.Fprintf(&b, ` fo:background-color="%s"`, cp.shade)
	}
	if cp.bold {
		b.WriteString(` fo:font-weight="bold" style:font-weight-asian="bold" style:font-weight-complex="bold"`)
	}
	if cp.italic {
		b.WriteString(` fo:font-style="italic" style:font-style-asian="italic" style:font-style-complex="italic"`)
	}
	if cp.underline != "" {
		fmt.Fprintf(&b, ` style:text-underline-style="%s" style:text-underline-width="auto" style:text-underline-color="%s"`, lineStyle(cp.underline), orFont(cp.underColor))
		if strings.HasPrefix(cp.underline, "DOUBLE") {
			b.WriteString(` style:text-underline-type="double"`)
		}
	}
	if cp.strike != "" {
		fmt.Fprintf(&b, ` style:text-line-through-style="%s" style:text-line-through-color="%s"`, lineStyle(cp.strike), orFont(cp.strikeColor))
	}
	switch {
	case cp.sup:
		b.WriteString(` style:text-position="super 58%"`)
	case cp.sub:
		b.WriteString(` style:text-position="sub 58%"`)
	case cp.off[langHangul] != 0:
		// Hancom's offset is a percentage of the font size, positive up.
		fmt.Fprintf(&b, ` style:text-position="%d%% 100%%"`, clamp(cp.off[langHangul], -100, 100))
	}
	if sp := cp.spacing[langHangul]; sp != 0 {
		// 자간: a percentage of the font size added between characters.
		fmt.Fprintf(&b, ` fo:letter-spacing="%s"`, ptf(float64(cp.height)*float64(clamp(sp, -50, 50))/10000))
	}
	if r := cp.ratio[langHangul]; r != 100 && r > 0 {
		// 장평: the glyph width as a percentage.
		fmt.Fprintf(&b, ` style:text-scale="%d%%"`, clamp(r, 50, 200))
	}
	if cp.outline {
		b.WriteString(` style:text-outline="true"`)
	}
	if cp.shadow {
		b.WriteString(` fo:text-shadow="1pt 1pt"`)
	}
	b.WriteString(` fo:language="ko" fo:country="KR" style:language-asian="ko" style:country-asian="KR"/>`)
	return b.String()
}

func orFont(c string) string {
	if c == "" {
		return "font-color"
	}
	return c
}

// lineStyle maps an OWPML line shape to an ODF line style.
func lineStyle(shape string) string {
	switch shape {
	case "DASH", "LONG_DASH", "DASH_DOT", "DASH_DOT_DOT":
		return "dash"
	case "DOT", "CIRCLE":
		return "dotted"
	case "WAVE", "DOUBLE_WAVE":
		return "wave"
	}
	return "solid"
}

func clamp(v, lo, hi int) int { return max(lo, min(hi, v)) }

// family maps the font id of a script to the installed family.
func (c *conv) family(lang, id int) string {
	f, ok := c.h.fonts[lang][id]
	if !ok {
		f = c.h.fonts[langHangul][id]
	}
	return mapFont(f.face, f.kind, lang == langLatin)
}

// borderProp is an ODF border value for a HWPX border.
func borderProp(b border) string {
	if !b.visible() {
		return "none"
	}
	w := b.width
	if w <= 0 {
		w = 0.1
	}
	col := b.color
	if col == "" {
		col = "#000000"
	}
	style := "solid"
	switch b.kind {
	case "DASH", "LONG_DASH", "DASH_DOT", "DASH_DOT_DOT":
		style = "dashed"
	case "DOT", "CIRCLE":
		style = "dotted"
	case "DOUBLE_SLIM", "SLIM_THICK", "THICK_SLIM", "SLIM_THICK_SLIM":
		style = "double"
		w = max(w, 0.5)
	}
	return fmt.Sprintf("%smm %s %s", strings.TrimRight(strings.TrimRight(fmt.Sprintf("%.3f", w), "0"), "."), style, col)
}
