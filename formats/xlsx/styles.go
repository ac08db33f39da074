package xlsx

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/editaudit/editaudit/formats"
	"github.com/editaudit/editaudit/internal/plural"
)

// Style references. A cell, row or column names its format by index into
// styles.xml's cellXfs; a format names its font, fill and border by index,
// and a conditional format its differential format by index into dxfs.
// Each kind is a row of StyleRefKinds; docs/validation.md lists the same rows.

// StyleRefKind is one kind of index reference into styles.xml.
type StyleRefKind struct {
	// Where is the attribute, as people write it ("c/@s").
	Where string
	// Space is the styles.xml list the index points into.
	Space string
	Grade formats.Grade
	// Evidence cites the public report behind Grade.
	Evidence string
}

// The style reference kinds.
var (
	refCellS = &StyleRefKind{Where: "c/@s", Space: "cellXfs", Grade: formats.Fatal,
		Evidence: "ggreen86/XLSX-Workbook-Class#19 (a cell format index past the cellXfs count: \"Repaired Records: Format from /xl/styles.xml part\", \"Cell information from /xl/worksheets/sheet2.xml\")"}
	refRowS = &StyleRefKind{Where: "row/@s", Space: "cellXfs", Grade: formats.Fatal,
		Evidence: "the same index space as c/@s (XLSX-Workbook-Class#19)"}
	refColStyle = &StyleRefKind{Where: "col/@style", Space: "cellXfs", Grade: formats.Fatal,
		Evidence: "abap2xlsx/abap2xlsx#235 (a column referring to the style one past the last: unreadable content, \"Repaired Records: Format from /xl/styles.xml part\")"}
	refFontID = &StyleRefKind{Where: "xf/@fontId", Space: "fonts", Grade: formats.Fatal,
		Evidence: "dtjohnson/xlsx-populate#259 (\"Removed Feature: Format from /xl/styles.xml part (Styles)\", \"Removed Feature: Font …\" after a format named a font that was not there)"}
	refFillID = &StyleRefKind{Where: "xf/@fillId", Space: "fills", Grade: formats.Fatal,
		Evidence: "the same repair as fontId (xlsx-populate#259); xou/elixlsx#27 (fill indexes off by the count)"}
	refBorderID = &StyleRefKind{Where: "xf/@borderId", Space: "borders", Grade: formats.Fatal,
		Evidence: "the same repair as fontId (xlsx-populate#259)"}
	refXfID = &StyleRefKind{Where: "cellXfs xf/@xfId, cellStyle/@xfId", Space: "cellStyleXfs", Grade: formats.Fatal,
		Evidence: "the same repair of the Styles part (xlsx-populate#259); ECMA-376 Part 1 §18.8.45"}
	refDxfID = &StyleRefKind{Where: "cfRule/@dxfId", Space: "dxfs", Grade: formats.Fatal,
		Evidence: "QtExcel/QXlsx#155 (conditional format whose differential format was never written to dxfs: Excel cannot open the file without an error); PHPOffice/PHPExcel#481 (\"Removed Feature: Conditional formatting\")"}
	refNumFmt = &StyleRefKind{Where: "xf/@numFmtId", Space: "numFmts (ids 164 and up)", Grade: formats.Warning,
		Evidence: "ECMA-376 Part 1 §18.8.30: ids 0–163 are built in, others must be defined; Excel's reaction to an undefined one is not documented"}
	// StyleRefKinds lists the kinds, in docs/validation.md order.
	StyleRefKinds = []*StyleRefKind{refCellS, refRowS, refColStyle, refFontID, refFillID, refBorderID, refXfID, refDxfID, refNumFmt}
)

// styles is what the sheets need from styles.xml.
type styles struct {
	part  string
	known bool // styles.xml was read to the end
	// counts of the index spaces
	cellXfs, cellStyleXfs, fonts, fills, borders, dxfs int
	numFmts                                            map[int]bool
}

// stylesHandler reads styles.xml: the size of every list an index points
// into, and the indexes its own formats use.
type stylesHandler struct {
	formats.NopHandler
	s    *styles
	refs []xfRef
	done map[string]bool // lists whose end tag was read
}

func (h *stylesHandler) End(e *formats.Element) {
	if e.Depth == 2 {
		if h.done == nil {
			h.done = map[string]bool{}
		}
		h.done[e.Name.Local] = true
	}
}

// xfRef is one index an xf or cellStyle of styles.xml uses that names an
// entry of a list not read yet (styles.xml in schema order lists fonts,
// fills, borders and cellStyleXfs before the formats, so this is rare) or
// that is already known to be undefined.
type xfRef struct {
	kind      *StyleRefKind
	value     string
	loc       string
	line, col int
}

// listDone reports whether the list kind k points into was read to its end.
func (h *stylesHandler) listDone(k *StyleRefKind) bool {
	return h.done[k.Space]
}

func (h *stylesHandler) Start(e *formats.Element) {
	if e.Depth == 3 && e.Parent != nil && (e.Parent.Name.Space == NSMain || e.Parent.Name.Space == NSMainS) {
		switch e.Parent.Name.Local {
		case "cellXfs":
			h.s.cellXfs++
			h.xfRefs(e, true)
		case "cellStyleXfs":
			h.s.cellStyleXfs++
			h.xfRefs(e, false)
		case "fonts":
			h.s.fonts++
		case "fills":
			h.s.fills++
		case "borders":
			h.s.borders++
		case "dxfs":
			h.s.dxfs++
		case "numFmts":
			if id, err := strconv.Atoi(strings.TrimSpace(attrOr(e, "numFmtId"))); err == nil {
				h.s.numFmts[id] = true
			}
		case "cellStyles":
			if v, ok := attr(e, "xfId"); ok {
				h.ref(refXfID, v, e)
			}
		}
	}
}

func attrOr(e *formats.Element, local string) string {
	v, _ := attr(e, local)
	return v
}

// xfRefs records the indexes of one xf.
func (h *stylesHandler) xfRefs(e *formats.Element, cell bool) {
	for _, k := range []struct {
		a    string
		kind *StyleRefKind
	}{{"fontId", refFontID}, {"fillId", refFillID}, {"borderId", refBorderID}, {"numFmtId", refNumFmt}, {"xfId", refXfID}} {
		if k.a == "xfId" && !cell {
			continue
		}
		if v, ok := attr(e, k.a); ok {
			h.ref(k.kind, v, e)
		}
	}
}

// ref keeps an index for the final check unless it is already known to
// be valid (the common case: no locator is built then).
func (h *stylesHandler) ref(k *StyleRefKind, v string, e *formats.Element) {
	if k != refNumFmt && h.listDone(k) && h.s.valid(k, v) {
		return
	}
	if k == refNumFmt && h.done["numFmts"] && h.s.valid(k, v) {
		return
	}
	if k == refNumFmt {
		if n, err := strconv.Atoi(strings.TrimSpace(v)); err == nil && n >= 0 && n < 164 {
			return // built in
		}
	}
	h.refs = append(h.refs, xfRef{k, v, e.Locator(), e.Line, e.Column})
}

// space returns the size of the list kind k points into.
func (s *styles) space(k *StyleRefKind) int {
	switch k {
	case refCellS, refRowS, refColStyle:
		return s.cellXfs
	case refFontID:
		return s.fonts
	case refFillID:
		return s.fills
	case refBorderID:
		return s.borders
	case refXfID:
		return s.cellStyleXfs
	case refDxfID:
		return s.dxfs
	}
	return 0
}

// valid reports whether value is a valid index of kind k.
func (s *styles) valid(k *StyleRefKind, value string) bool {
	n, err := strconv.Atoi(strings.TrimSpace(value))
	if err != nil || n < 0 {
		return false
	}
	if k == refNumFmt {
		return n < 164 || s.numFmts[n]
	}
	return n < s.space(k)
}

// scanStyles reads styles.xml and checks the indexes its formats use.
func (in *inspector) scanStyles() {
	in.styles = &styles{numFmts: map[int]bool{}}
	rels := in.p.RelsOf(in.ctx, in.wbPart).ByType("styles")
	if len(rels) == 0 || rels[0].External || !in.p.Has(rels[0].Resolved) {
		return // no styles part: Excel uses its defaults; nothing to check against
	}
	part := in.p.Entry(rels[0].Resolved).Part
	in.styles.part = part
	h := &stylesHandler{s: in.styles}
	res := in.p.ScanPart(in.ctx, part, h)
	in.styles.known = res.Complete
	if !res.Complete {
		return
	}
	for _, r := range h.refs {
		if in.styles.valid(r.kind, r.value) {
			continue
		}
		in.add(in.styleFinding(r.kind, r.value, part, pos{r.line, r.col, r.loc}, "a format of styles.xml", 1))
	}
}

// styleFinding describes an index reference that points past its list.
func (in *inspector) styleFinding(k *StyleRefKind, value, part string, at pos, where string, n int) formats.Finding {
	size := in.styles.space(k)
	effect := "Excel repairs the workbook and drops the formatting (\"Repaired Records: Format from /xl/styles.xml part\")"
	if k.Grade != formats.Fatal {
		effect = "Excel's reaction is not documented"
	}
	times := ""
	if n > 1 {
		times = fmt.Sprintf(" (%d times in this part; the first is here)", n)
	}
	var msg, fix string
	if k == refNumFmt {
		msg = fmt.Sprintf("%s uses number format %s (%s), which is neither built in (0–163) nor defined in <numFmts>%s; %s", where, value, k.Where, times, effect)
		fix = fmt.Sprintf("add <numFmt numFmtId=\"%s\" formatCode=\"…\"/> to <numFmts> in %s, or use a built-in id", value, in.styles.part)
	} else {
		msg = fmt.Sprintf("%s uses %s=\"%s\", but <%s> in %s holds %d entr%s (indexes 0–%d)%s; %s", where, k.Where, value, k.Space, in.styles.part, size, plural.Word(size, "y", "ies"), size-1, times, effect)
		if size == 0 {
			msg = fmt.Sprintf("%s uses %s=\"%s\", but %s has no <%s> entries%s; %s", where, k.Where, value, in.styles.part, k.Space, times, effect)
		}
		fix = fmt.Sprintf("point it at an existing entry (0–%d) of <%s>, or add the missing entries to %s and raise the list's count", max(size-1, 0), k.Space, in.styles.part)
	}
	return formats.Finding{Code: CodeStyleUndefined, Grade: k.Grade, Part: part, Line: at.line, Column: at.col, Locator: at.loc,
		Anchor: fmt.Sprintf("%s %s=%s", where, k.Where, value), Message: msg, Fix: fix}
}

// styleUse counts a sheet's references to one undefined index.
type styleUse struct {
	kind  *StyleRefKind
	value string
	at    pos
	n     int
}

// useStyle checks one index a sheet uses (c/@s, row/@s, col/@style,
// cfRule/@dxfId) and remembers the first use of each undefined value.
func (h *sheetHandler) useStyle(k *StyleRefKind, value string, e *formats.Element) {
	st := h.in.styles
	if st == nil || !st.known || st.valid(k, value) {
		return
	}
	key := k.Where + "=" + value
	if u := h.badStyles[key]; u != nil {
		u.n++
		return
	}
	if h.badStyles == nil {
		h.badStyles = map[string]*styleUse{}
	}
	u := &styleUse{kind: k, value: value, at: posOf(e), n: 1}
	h.badStyles[key] = u
	h.badOrder = append(h.badOrder, u)
}

// reportStyles adds a sheet's undefined style indexes, one per value.
func (h *sheetHandler) reportStyles() {
	for _, u := range h.badOrder {
		h.in.add(h.in.styleFinding(u.kind, u.value, h.part, u.at, "sheet '"+h.s.name+"'", u.n))
	}
}
