package xlsx

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/editaudit/editaudit/formats"
)

// The calculation rules (from the held-out evaluation, docs/validation.md):
// defects that string edits and libraries produce when they change cells
// without the calculation state around them. Each is a row of CellRules
// (content models) or WorkbookRules (references), with its evidence;
// docs/validation.md lists the same rows.

// CellRules are the formula rules from the held-out evaluation (rows of the
// same shape as WorkbookRules; docs/validation.md lists them as content models).
var CellRules = []WorkbookRule{
	{Code: CodeFormulaSyntax, Grade: formats.Fatal, When: "a formula that ends with a binary operator (=, <, >, &, +, -, *, /, ^): text such as \"=== Totals ===\" written as a formula",
		Evidence: "jmcnamara/XlsxWriter#962 (\"====new line===\" written as a formula: Excel reports the file corrupt); mk-j/PHP_XLSXWriter#147 and #232 (a string starting with = written as a formula: \"Excel found unreadable content\"); cxn03651/write_xlsx#129 (a line starting with = inside a text: \"We found a problem with some content\" and a repair)"},
	{Code: CodeSharedFormula, Grade: formats.Fatal, When: "cells of a shared formula (<f t=\"shared\" si=\"n\"/>) whose master cell (the one with the formula text and ref) no longer holds it",
		Evidence: "JanMarvin/openxlsx2#1217 (the master of a shared formula overwritten: \"Excel will complain and fixes the workbook by removing the shared formula from the remaining cells\"); JanMarvin/openxlsx2#238"},
}

// sharedSI is what a sheet holds of one shared formula index.
type sharedSI struct {
	master bool
	clones int
	first  pos
	ref    string
}

// noteShared records a cell's shared-formula role (called for every cell
// with <f t="shared">).
func (h *sheetHandler) noteShared(c *cellState) {
	si := strings.TrimSpace(c.fSI)
	if si == "" {
		return
	}
	if h.shared == nil {
		h.shared = map[string]*sharedSI{}
	}
	s := h.shared[si]
	if s == nil {
		s = &sharedSI{}
		h.shared[si] = s
	}
	if c.fRef != "" || strings.TrimSpace(string(c.f)) != "" {
		s.master = true
		return
	}
	if s.clones == 0 {
		s.first, s.ref = c.at(), c.ref()
	}
	s.clones++
}

// checkShared reports shared formulas whose master is gone.
func (h *sheetHandler) checkShared() {
	sis := make([]string, 0, len(h.shared))
	for si, s := range h.shared {
		if !s.master && s.clones > 0 {
			sis = append(sis, si)
		}
	}
	sort.Strings(sis)
	for _, si := range sis {
		s := h.shared[si]
		h.in.add(formats.Finding{Code: CodeSharedFormula, Grade: formats.Fatal, Part: h.part, Line: s.first.line, Column: s.first.col, Locator: s.first.loc,
			Anchor:  fmt.Sprintf("%s shared formula si=%s", h.s.name, si),
			Message: fmt.Sprintf("sheet '%s': %d cell(s) from %s on use shared formula si=\"%s\", but no cell holds its master (the <f t=\"shared\" ref=… si=\"%s\"> with the formula text); Excel repairs the workbook and removes the formula from those cells", h.s.name, s.clones, s.ref, si, si),
			Fix:     fmt.Sprintf("give each of those cells its own formula (<f>…</f> without t=\"shared\"), or restore the master cell's <f t=\"shared\" ref=\"…\" si=\"%s\">formula</f>", si)})
	}
}

// calcEntry is one <c> of xl/calcChain.xml.
type calcEntry struct {
	col, row int
	ref      string
	at       pos
}

// calcChain is what xl/calcChain.xml lists, by sheet id.
type calcChain struct {
	part    string
	bySheet map[string][]calcEntry
	order   []string // sheet ids in order of first appearance
}

type calcChainHandler struct {
	formats.NopHandler
	cc   *calcChain
	last string
}

func (h *calcChainHandler) Start(e *formats.Element) {
	if e.Depth != 2 || !isSML(e, "c") {
		return
	}
	if i, ok := attr(e, "i"); ok {
		h.last = strings.TrimSpace(i)
	}
	r, _ := attr(e, "r")
	col, row, ok := CellRef(strings.TrimSpace(r))
	if !ok || h.last == "" {
		return
	}
	if _, seen := h.cc.bySheet[h.last]; !seen {
		h.cc.order = append(h.cc.order, h.last)
	}
	h.cc.bySheet[h.last] = append(h.cc.bySheet[h.last], calcEntry{col: col, row: row, ref: r, at: posOf(e)})
}

// scanCalcChain reads xl/calcChain.xml when the workbook has one. A chain
// that cannot be read completely is not used.
func (in *inspector) scanCalcChain() {
	rels := in.p.RelsOf(in.ctx, in.wbPart).ByType("calcChain")
	if len(rels) == 0 {
		return
	}
	r := rels[0]
	if r.External || r.Resolved == "" || !in.p.Has(r.Resolved) {
		return
	}
	cc := &calcChain{part: in.p.Entry(r.Resolved).Part, bySheet: map[string][]calcEntry{}}
	if res := in.p.ScanPart(in.ctx, cc.part, &calcChainHandler{cc: cc}); !res.Complete {
		return
	}
	in.calc = cc
}

// formulaCells returns the set a sheet fills with its formula cells, or
// nil when the calculation chain lists none of its cells.
func (in *inspector) formulaCells(s *sheetEntry) map[[2]int]bool {
	if in.calc == nil || len(in.calc.bySheet[strings.TrimSpace(s.sheetID)]) == 0 {
		return nil
	}
	return map[[2]int]bool{}
}

// checkCalcChain reports chain entries of sheet s that hold no formula.
// Excel validates the chain against the cells when a formula was removed
// and repairs ("Removed Records: Formula from /xl/calcChain.xml part").
// Cells inside an array or data-table formula's range are listed too
// (Excel writes them; the real openpyxl_formulae.xlsx has C11:C14 of the
// array C10:C14).
func (in *inspector) checkCalcChain(s *sheetEntry, formulas map[[2]int]bool, spans []rng) {
	var stale []calcEntry
	for _, e := range in.calc.bySheet[strings.TrimSpace(s.sheetID)] {
		if formulas[[2]int{e.col, e.row}] || inSpans(spans, e.col, e.row) {
			continue
		}
		stale = append(stale, e)
	}
	if len(stale) == 0 {
		return
	}
	e := stale[0]
	var refs []string
	for i, x := range stale {
		if i == 5 {
			refs = append(refs, "…")
			break
		}
		refs = append(refs, x.ref)
	}
	in.add(formats.Finding{Code: CodeCalcChain, Grade: formats.Fatal, Part: in.calc.part, Line: e.at.line, Column: e.at.col, Locator: e.at.loc,
		Anchor:  fmt.Sprintf("calcChain %s!%s", s.name, e.ref),
		Message: fmt.Sprintf("xl/calcChain.xml lists %d cell(s) of sheet '%s' (%s) that hold no formula; Excel repairs the workbook (\"Removed Records: Formula from /xl/calcChain.xml part\")", len(stale), s.name, strings.Join(refs, ", ")),
		Fix:     "delete xl/calcChain.xml, its relationship in xl/_rels/workbook.xml.rels and its Override in [Content_Types].xml (Excel rebuilds the chain), or remove those <c> entries"})
}

// checkCalcChainSheets reports chain entries naming a sheet id the
// workbook does not have.
func (in *inspector) checkCalcChainSheets() {
	if in.calc == nil || !in.wbKnown {
		return
	}
	ids := map[string]bool{}
	for _, s := range in.sheets {
		ids[strings.TrimSpace(s.sheetID)] = true
	}
	for _, id := range in.calc.order {
		if ids[id] {
			continue
		}
		es := in.calc.bySheet[id]
		e := es[0]
		in.add(formats.Finding{Code: CodeCalcChain, Grade: formats.Fatal, Part: in.calc.part, Line: e.at.line, Column: e.at.col, Locator: e.at.loc,
			Anchor:  "calcChain sheet " + id,
			Message: fmt.Sprintf("xl/calcChain.xml lists %d formula cell(s) of sheet id %s, but the workbook has no sheet with sheetId=\"%s\"; Excel repairs the workbook (\"Removed Records: Formula from /xl/calcChain.xml part\")", len(es), id, id),
			Fix:     "delete xl/calcChain.xml, its relationship in xl/_rels/workbook.xml.rels and its Override in [Content_Types].xml (Excel rebuilds the chain)"})
	}
}

// checkActiveTab reports a workbookView whose activeTab is not a sheet.
func (in *inspector) checkActiveTab(v *bookView) {
	if v == nil || !in.wbKnown || len(in.sheets) == 0 {
		return
	}
	n, err := strconv.Atoi(strings.TrimSpace(v.activeTab))
	if err != nil || n < len(in.sheets) {
		return
	}
	in.add(formats.Finding{Code: CodeActiveTab, Grade: formats.Fatal, Part: in.wbPart, Line: v.at.line, Column: v.at.col, Locator: v.at.loc,
		Anchor:  "activeTab=" + v.activeTab,
		Message: fmt.Sprintf("the workbook view's activeTab=\"%d\" names sheet %d (0-based), but the workbook has %d sheet(s): a sheet was removed without updating the view; Excel reports a problem and repairs the workbook", n, n, len(in.sheets)),
		Fix:     fmt.Sprintf("set activeTab in <workbookView> to the index of an existing sheet (0–%d), e.g. activeTab=\"0\"", len(in.sheets)-1)})
}

// bookView is the first workbookView of workbook.xml.
type bookView struct {
	activeTab string
	at        pos
}

// inSpans reports whether the cell (col, row) lies in one of the ranges.
func inSpans(spans []rng, col, row int) bool {
	for _, r := range spans {
		if col >= r.c1 && col <= r.c2 && row >= r.r1 && row <= r.r2 {
			return true
		}
	}
	return false
}
