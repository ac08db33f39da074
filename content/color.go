package content

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/editaudit/editaudit/formats"
)

// Colours are compared as the RGB a reader sees, so that a writer that
// spells out a theme colour (LibreOffice writes rgb="FF4E5B6F" for
// theme="3") changes nothing.

// themeColorsHandler reads a theme's colour scheme (DrawingML a:clrScheme,
// ECMA-376 Part 1 §20.1.6.2): dk1, lt1, dk2, lt2, accent1–6, hlink,
// folHlink.
type themeColorsHandler struct {
	formats.NopHandler
	colors map[string]string // "dk1" → "000000"
}

func (h *themeColorsHandler) Start(e *formats.Element) {
	// a:themeElements/a:clrScheme; the alternatives in
	// a:extraClrSchemeLst are not the theme's colours.
	if e.Parent == nil || e.Parent.Parent == nil || e.Parent.Parent.Name.Local != "clrScheme" ||
		e.Parent.Parent.Parent == nil || e.Parent.Parent.Parent.Name.Local != "themeElements" {
		return
	}
	slot := e.Parent.Name.Local
	switch e.Name.Local {
	case "srgbClr":
		v, _ := e.Get("", "val")
		h.colors[slot] = strings.ToUpper(v)
	case "sysClr":
		if v, ok := e.Get("", "lastClr"); ok {
			h.colors[slot] = strings.ToUpper(v)
		}
	}
}

// smlThemeOrder is the order of CT_Color/@theme indexes in SpreadsheetML:
// Excel swaps the dark and light pairs of the scheme's order.
var smlThemeOrder = []string{"lt1", "dk1", "lt2", "dk2", "accent1", "accent2", "accent3", "accent4", "accent5", "accent6", "hlink", "folHlink"}

// smlColor names a CT_Color (§18.8.9) as the RGB shown, the theme colour
// resolved and the tint applied; "" is automatic.
func smlColor(e *formats.Element, theme map[string]string) string {
	rgb := ""
	if v, ok := e.Get("", "rgb"); ok {
		v = strings.ToUpper(v)
		if len(v) == 8 {
			v = v[2:] // ARGB: Excel ignores the alpha byte
		}
		rgb = v
	} else if v, ok := e.Get("", "theme"); ok {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 || n >= len(smlThemeOrder) || theme[smlThemeOrder[n]] == "" {
			return "theme:" + v
		}
		rgb = theme[smlThemeOrder[n]]
	} else if v, ok := e.Get("", "indexed"); ok {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 || n >= len(indexedColors) {
			return "" // 64 and 65: the system foreground and background
		}
		rgb = indexedColors[n]
	} else {
		return ""
	}
	if t, ok := e.Get("", "tint"); ok {
		if f, err := strconv.ParseFloat(t, 64); err == nil && f != 0 {
			rgb = applyTint(rgb, f)
		}
	}
	return rgb
}

// indexedColors is the legacy palette of CT_Color/@indexed (§18.8.27).
var indexedColors = []string{
	"000000", "FFFFFF", "FF0000", "00FF00", "0000FF", "FFFF00", "FF00FF", "00FFFF",
	"000000", "FFFFFF", "FF0000", "00FF00", "0000FF", "FFFF00", "FF00FF", "00FFFF",
	"800000", "008000", "000080", "808000", "800080", "008080", "C0C0C0", "808080",
	"9999FF", "993366", "FFFFCC", "CCFFFF", "660066", "FF8080", "0066CC", "CCCCFF",
	"000080", "FF00FF", "FFFF00", "00FFFF", "800080", "800000", "008080", "0000FF",
	"00CCFF", "CCFFFF", "CCFFCC", "FFFF99", "99CCFF", "FF99CC", "CC99FF", "FFCC99",
	"3366FF", "33CCCC", "99CC00", "FFCC00", "FF9900", "FF6600", "666699", "969696",
	"003366", "339966", "003300", "333300", "993300", "993366", "333399", "333333",
}

// applyTint lightens (tint > 0) or darkens (tint < 0) an RGB colour the
// way §18.8.19 says: on the luminance of its HLS form.
func applyTint(rgb string, tint float64) string {
	v, err := strconv.ParseUint(rgb, 16, 32)
	if err != nil || len(rgb) != 6 {
		return rgb
	}
	r, g, b := float64(v>>16&0xff)/255, float64(v>>8&0xff)/255, float64(v&0xff)/255
	h, l, s := rgbToHLS(r, g, b)
	if tint < 0 {
		l *= 1 + tint
	} else {
		l = l*(1-tint) + tint
	}
	return hexRGB(hlsToRGB(h, l, s))
}

// hexRGB writes a colour of components in [0, 1] as "RRGGBB".
func hexRGB(r, g, b float64) string {
	to := func(x float64) int { return int(math.Round(math.Max(0, math.Min(1, x)) * 255)) }
	return fmt.Sprintf("%02X%02X%02X", to(r), to(g), to(b))
}

func rgbToHLS(r, g, b float64) (h, l, s float64) {
	mx, mn := math.Max(r, math.Max(g, b)), math.Min(r, math.Min(g, b))
	l = (mx + mn) / 2
	if mx == mn {
		return 0, l, 0
	}
	d := mx - mn
	if l > 0.5 {
		s = d / (2 - mx - mn)
	} else {
		s = d / (mx + mn)
	}
	switch mx {
	case r:
		h = (g - b) / d
		if g < b {
			h += 6
		}
	case g:
		h = (b-r)/d + 2
	default:
		h = (r-g)/d + 4
	}
	return h / 6, l, s
}

func hlsToRGB(h, l, s float64) (r, g, b float64) {
	if s == 0 {
		return l, l, l
	}
	var q float64
	if l < 0.5 {
		q = l * (1 + s)
	} else {
		q = l + s - l*s
	}
	p := 2*l - q
	hue := func(t float64) float64 {
		if t < 0 {
			t++
		}
		if t > 1 {
			t--
		}
		switch {
		case t < 1.0/6:
			return p + (q-p)*6*t
		case t < 0.5:
			return q
		case t < 2.0/3:
			return p + (q-p)*(2.0/3-t)*6
		}
		return p
	}
	return hue(h + 1.0/3), hue(h), hue(h - 1.0/3)
}
