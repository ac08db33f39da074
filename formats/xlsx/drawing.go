package xlsx

import "github.com/editaudit/editaudit/formats"

// drawingHandler counts the pictures and chart references of a
// SpreadsheetML drawing part (ECMA-376 §20.5 xdr:wsDr). Content inside
// mc:Fallback is skipped: the mc:Choice before it is what Excel shows, and
// counting both would count one object twice.
type drawingHandler struct {
	formats.NopHandler
	pics     int
	chartIDs []string
	fallback int
}

func (h *drawingHandler) Start(e *formats.Element) {
	if e.Name.Space == nsMC && e.Name.Local == "Fallback" {
		h.fallback++
		return
	}
	if h.fallback > 0 {
		return
	}
	switch {
	case e.Name.Local == "pic" && (e.Name.Space == nsXdr || e.Name.Space == nsXdrS):
		h.pics++
	case e.Name.Local == "chart" && (e.Name.Space == nsChart || e.Name.Space == nsChrtS || e.Name.Space == nsCx):
		if id := relID(e); id != "" {
			h.chartIDs = append(h.chartIDs, id)
		}
	}
}

func (h *drawingHandler) End(e *formats.Element) {
	if e.Name.Space == nsMC && e.Name.Local == "Fallback" {
		h.fallback--
	}
}

// scanDrawing counts a drawing's images (xdr:pic) and its charts: the
// distinct chart parts (c:chart, and cx:chart for the Excel 2016 chart
// types) its relationships resolve to and the package holds.
func (in *inspector) scanDrawing(part string) formats.Counts {
	h := &drawingHandler{}
	in.p.ScanPart(in.ctx, part, h)
	charts := map[string]bool{}
	for _, id := range h.chartIDs {
		if c := in.resolve(part, id); c != "" {
			charts[c] = true
		}
	}
	return formats.Counts{KeyCharts: len(charts), KeyImages: h.pics}
}
