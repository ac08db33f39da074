package content

import (
	"context"
	"strconv"
	"strings"

	"github.com/editaudit/editaudit/formats"
	"github.com/editaudit/editaudit/formats/hwpx"
)

// isHancom: an element of one of Hancom's OWPML namespaces
// (http://www.hancom.co.kr/hwpml/2011/paragraph, …/section, …/head and
// their later versions).
func isHancom(e *formats.Element, local string) bool {
	return e != nil && e.Name.Local == local && strings.HasPrefix(e.Name.Space, "http://www.hancom.co.kr/hwpml/")
}

// hwpxHeader is what the sections' references resolve to.
type hwpxHeader struct {
	fonts  map[string]string // HANGUL font id → face
	chars  map[string]Format // charPr id → format
	styles map[string]string // style id → name
}

type hwpxHeaderHandler struct {
	formats.NopHandler
	hd      *hwpxHeader
	hangul  bool
	cur     *Format
	curID   string
	fontRef string
}

func (h *hwpxHeaderHandler) Start(e *formats.Element) {
	switch {
	case isHancom(e, "fontface"):
		l, _ := e.Get("", "lang")
		h.hangul = strings.EqualFold(l, "HANGUL")
	case isHancom(e, "font") && h.hangul && isHancom(e.Parent, "fontface"):
		id, _ := e.Get("", "id")
		face, _ := e.Get("", "face")
		h.hd.fonts[id] = face
	case isHancom(e, "charPr") && isHancom(e.Parent, "charProperties"):
		h.curID, _ = e.Get("", "id")
		f := Format{}
		if v, ok := e.Get("", "height"); ok {
			f.Size = hundredthPoints(v)
		}
		if v, _ := e.Get("", "textColor"); v != "" && !strings.EqualFold(v, "none") {
			f.Color = strings.ToUpper(strings.TrimPrefix(v, "#"))
		}
		if v, _ := e.Get("", "shadeColor"); v != "" && !strings.EqualFold(v, "none") {
			f.Highlight = "shading " + strings.ToUpper(strings.TrimPrefix(v, "#"))
		}
		h.cur, h.fontRef = &f, ""
	case h.cur != nil && isHancom(e.Parent, "charPr"):
		switch e.Name.Local {
		case "fontRef":
			h.fontRef, _ = e.Get("", "hangul")
		case "bold":
			h.cur.Bold = true
		case "italic":
			h.cur.Italic = true
		case "underline":
			t, _ := e.Get("", "type")
			h.cur.Underline = t != "" && !strings.EqualFold(t, "NONE")
		case "strikeout":
			// Hangul writes shape="NONE" or "3D" on text that is not
			// struck through (both are common in the healthy corpus files).
			s, _ := e.Get("", "shape")
			h.cur.Strike = s != "" && !strings.EqualFold(s, "NONE") && !strings.EqualFold(s, "3D")
		}
	case isHancom(e, "style") && isHancom(e.Parent, "styles"):
		id, _ := e.Get("", "id")
		name, _ := e.Get("", "name")
		if name == "" {
			name, _ = e.Get("", "engName")
		}
		h.hd.styles[id] = name
	}
}

func (h *hwpxHeaderHandler) End(e *formats.Element) {
	if isHancom(e, "charPr") && h.cur != nil {
		h.cur.Font = h.fontRef // resolved to a face once the fonts are known
		h.hd.chars[h.curID] = *h.cur
		h.cur = nil
	}
}

// extractHwpx reads the paragraphs (table cells, headers, footers, notes
// and text boxes included) of every section; each section is a story.
func extractHwpx(ctx context.Context, p *formats.Package, x *extraction) error {
	sections, header := hwpx.ReadingOrder(ctx, p)
	hd := &hwpxHeader{fonts: map[string]string{}, chars: map[string]Format{}, styles: map[string]string{}}
	x.contextParts = []string{header}
	if header == "" {
		x.formatsUnknown = "the package has no Contents/header.xml"
	} else if why := x.scanPart(ctx, p, header, &hwpxHeaderHandler{hd: hd}); why != "" {
		x.formatsUnknown = header + " did not parse (" + why + ")"
	}
	for id, f := range hd.chars {
		if face, ok := hd.fonts[f.Font]; ok {
			f.Font = face
		} else {
			f.Font = ""
		}
		hd.chars[id] = f
	}
	if len(sections) == 0 {
		x.fail("", "the package", "it has no section part")
		return ctx.Err()
	}
	headerSame := x.from != nil && x.formatsUnknown == "" && x.from.xa.formatsUnknown == "" &&
		x.sameContext(ctx, p, x.from.xa.contextParts, x.contextParts)
	for i, part := range sections {
		if err := ctx.Err(); err != nil {
			return err
		}
		n := i + 1
		x.readStory(ctx, p, part, strconv.Itoa(n), headerSame, func() storyHandler {
			return newHwpxHandler(x, hd, part, strings.ToLower(part), n)
		})
	}
	return ctx.Err()
}

// collected implements storyHandler.
func (h *hwpxHandler) collected() []*unit { return h.units }

// hPara is an open paragraph.
type hPara struct {
	slot  int
	where string
	scope string
	style string
	b     *builder
	runs  []int32 // formats of the open runs
}

// hwpxHandler extracts the paragraphs of one section.
type hwpxHandler struct {
	formats.NopHandler
	x         *extraction
	hd        *hwpxHeader
	part, key string
	label     string
	units     []*unit
	locs      locStack
	paras     []*hPara
	counters  map[string]int // headers, footers, notes, text boxes of the section
}

func newHwpxHandler(x *extraction, hd *hwpxHeader, part, key string, n int) *hwpxHandler {
	label := "section " + strconv.Itoa(n)
	return &hwpxHandler{x: x, hd: hd, part: part, key: key, label: label, counters: map[string]int{}, locs: locStack{fallback: label}}
}

func (h *hwpxHandler) push(k uint8) { h.locs.push(k) }

// subListLabels names the containers of sub-lists.
var subListLabels = map[string]string{
	"header": "header", "footer": "footer", "footNote": "footnote", "endNote": "endnote",
	"drawText": "text box",
}

// Start implements formats.Handler.
func (h *hwpxHandler) Start(e *formats.Element) {
	if !strings.HasPrefix(e.Name.Space, "http://www.hancom.co.kr/hwpml/") {
		h.push(kOther)
		return
	}
	switch e.Name.Local {
	case "sec":
		if e.Depth == 1 {
			h.locs.container(h.label, ", ", h.key)
			h.push(kContainer)
			return
		}
	case "subList":
		if e.Parent != nil && !isHancom(e.Parent, "tc") {
			name := subListLabels[e.Parent.Name.Local]
			if name == "" {
				name = "object"
			}
			h.counters[name]++
			where := h.label + ", " + name + " " + strconv.Itoa(h.counters[name])
			h.locs.container(where, ", ", h.key+"/"+name)
			h.push(kContainer)
			return
		}
	case "tbl", "tr", "tc":
		if k := h.locs.openTablePart(e.Name.Local); k != kOther {
			h.push(k)
			return
		}
	case "p":
		h.openParagraph(e)
		return
	case "run":
		if p := h.para(); p != nil {
			ref, _ := e.Get("", "charPrIDRef")
			p.runs = append(p.runs, h.x.formats.intern(h.hd.chars[ref]))
			h.push(kRun)
			return
		}
	case "tab", "lineBreak", "nbSpace", "fwSpace", "hyphen":
		if isHancom(e.Parent, "t") {
			if p := h.para(); p != nil {
				s := map[string]string{"tab": "\t", "lineBreak": "\n", "nbSpace": "\u00a0", "fwSpace": "\u3000", "hyphen": "-"}[e.Name.Local]
				p.b.addString(s, h.runFormat(p))
			}
		}
	}
	h.push(kOther)
}

func (h *hwpxHandler) para() *hPara {
	if n := len(h.paras); n > 0 {
		return h.paras[n-1]
	}
	return nil
}

func (h *hwpxHandler) runFormat(p *hPara) int32 {
	if n := len(p.runs); n > 0 {
		return p.runs[n-1]
	}
	return h.x.formats.intern(Format{})
}

func (h *hwpxHandler) openParagraph(e *formats.Element) {
	where, scope := h.locs.paragraph()
	style := ""
	if ref, ok := e.Get("", "styleIDRef"); ok {
		style = h.hd.styles[ref]
		if style == "" {
			style = ref
		}
	}
	h.paras = append(h.paras, &hPara{slot: len(h.units), where: where, scope: scope, style: style, b: &builder{}})
	h.units = append(h.units, nil)
	h.push(kPara)
}

// Text implements formats.Handler.
func (h *hwpxHandler) Text(e *formats.Element, t []byte) {
	if !isHancom(e, "t") {
		return
	}
	if p := h.para(); p != nil {
		p.b.add(t, h.runFormat(p))
	}
}

// End implements formats.Handler.
func (h *hwpxHandler) End(e *formats.Element) {
	switch h.locs.end() {
	case kPara:
		p := h.paras[len(h.paras)-1]
		h.paras = h.paras[:len(h.paras)-1]
		if h.x.take() {
			h.units[p.slot] = p.b.unit(h.key, h.part, p.where, p.scope, p.style)
		}
	case kRun:
		if p := h.para(); p != nil && len(p.runs) > 0 {
			p.runs = p.runs[:len(p.runs)-1]
		}
	}
}
