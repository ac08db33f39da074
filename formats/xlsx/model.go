package xlsx

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/editaudit/editaudit/formats"
)

// Workbook reference integrity (sheet ids, defined-name scopes and sheet
// references, pivot caches, table headers) and worksheet content models
// (containers that must not be empty, references inside the grid). Each
// rule is a row of a table below, with its grade and evidence; docs/validation.md
// lists the same rows.

// ContainerRule is one worksheet container that must hold at least one
// child.
type ContainerRule struct {
	Element, Child string
	Grade          formats.Grade
	Evidence       string
}

// ContainerRules are the worksheet containers checked for emptiness.
var ContainerRules = []ContainerRule{
	{Element: "mergeCells", Child: "mergeCell", Grade: formats.Fatal,
		Evidence: "troldal/OpenXLSX#351 (an empty <mergeCells>, with or without count=\"0\": Excel does not read the file); jmix-framework/jmix#5221 (an empty <mergeCells/>: Excel repairs, removing it fixes the file)"},
	{Element: "hyperlinks", Child: "hyperlink", Grade: formats.Fatal,
		Evidence: "STRML/node-xlsx-writestream#3 (an empty <hyperlinks>: \"unreadable content\"); JanKallman/EPPlus#17; nissl-lab/npoi#1128 (an empty hyperlinks node: Excel repairs the workbook)"},
	{Element: "conditionalFormatting", Child: "cfRule", Grade: formats.Fatal,
		Evidence: "exceljs/exceljs#2178 (a <conditionalFormatting sqref=…/> whose rule was dropped: Excel's \"We found a problem with some content\" and a repair)"},
	{Element: "cols", Child: "col", Grade: formats.Warning,
		Evidence: "ECMA-376 Part 1 §18.3.1.17 (CT_Cols: one or more col); Excel's reaction not documented"},
	{Element: "dataValidations", Child: "dataValidation", Grade: formats.Warning,
		Evidence: "ECMA-376 Part 1 §18.3.1.33 (CT_DataValidations: one or more); Excel's reaction not documented"},
}

var containerRule = func() map[string]*ContainerRule {
	m := map[string]*ContainerRule{}
	for i := range ContainerRules {
		m[ContainerRules[i].Element] = &ContainerRules[i]
	}
	return m
}()

// WorkbookRule is one reference-integrity rule of the workbook, for
// docs/validation.md.
type WorkbookRule struct {
	Code     string
	Grade    formats.Grade
	When     string
	Evidence string
}

// WorkbookRules are the workbook reference rules besides StyleRefKinds.
var WorkbookRules = []WorkbookRule{
	{Code: CodeSheetID, Grade: formats.Fatal, When: "a <sheet> whose sheetId is missing, not a positive number, or shared with another sheet",
		Evidence: "ClosedXML/ClosedXML#131, #220 (two <sheet> entries with one sheetId: \"Your excel file is broken and will be repaired\"); weshatheleopard/rubyXL#176 (an invalid sheetId: the file needs repair)"},
	{Code: CodeDefinedNameSheet, Grade: formats.Fatal, When: "a definedName whose localSheetId is not the index of a sheet, or whose formula names a sheet the workbook does not have (external [n] references and #REF! aside)",
		Evidence: "iOfficeAI/OfficeCLI#243 (localSheetId left pointing past the last sheet: Excel refuses the file); ClosedXML/ClosedXML#1007, #848 (a name referring to a deleted sheet: corrupt workbook); RamblingCookieMonster/PSExcel#54 (\"Removed Records: Named range from /xl/workbook.xml part\" for invalid references)"},
	{Code: CodeTableHeader, Grade: formats.Fatal, When: "a table header cell (first row of ref, unless headerRowCount=\"0\") whose text differs from its tableColumn name",
		Evidence: "jmcnamara/XlsxWriter#1126, #225 (header cells overwritten after the table was added: Excel's recovery error); office-kit/xlsx#138 and ropensci/writexl#133 (\"Excel treats a mismatch as a corrupt file\" and repairs by dropping the table)"},
	{Code: CodeTableHeader, Grade: formats.Warning, When: "a table header cell that is empty or absent while its tableColumn has a name",
		Evidence: "not measured: Excel itself never writes one (it names blank headers Column1…), so a program cleared it"},
	{Code: CodeRefOutOfRange, Grade: formats.Fatal, When: "a cell (c/@r), row (row/@r), merge, hyperlink, data-validation or conditional-format range, autoFilter or column (col/@max) beyond XFD1048576",
		Evidence: "iOfficeAI/OfficeCLI#353 (a validation range shifted to A3:A1048577: Excel refuses the workbook, 0x800A03EC); ECMA-376 Part 1 §18.3.1.73 (rows 1…1048576), columns A…XFD"},
	{Code: CodeRefInvalid, Grade: formats.Fatal, When: "a <mergeCell> whose ref is empty or not a range",
		Evidence: "randym/axlsx#302 (<mergeCell ref=\"\"/>: Excel's \"some content is unreadable\" and a repair that drops formatting)"},
	{Code: CodeCalcChain, Grade: formats.Fatal, When: "an xl/calcChain.xml entry for a cell that holds no formula (cells inside an array formula's range aside), or for a sheet id the workbook does not have",
		Evidence: "dotnet/Open-XML-SDK#1457 (\"Removed Records: Formula from /xl/calcChain.xml part\"), #1491 (the SDK team: removing formulas is what makes Excel validate the chain and repair); JanMarvin/openxlsx2#437 (a formula overwritten with a value: the same repair); unidoc/unioffice#215; cuba-platform/yarg#10"},
	{Code: CodeActiveTab, Grade: formats.Fatal, When: "a workbookView whose activeTab is not the index of a sheet (the active sheet was removed)",
		Evidence: "JanMarvin/openxlsx2#793 (\"the last tab was active, but removed and the activeTab id was never updated. Therefore Excel complained\"); EPPlusSoftware/EPPlus#339"},
	{Code: CodePivotCache, Grade: formats.Fatal, When: "a pivotTableDefinition whose cacheId names no <pivotCache> of workbook.xml",
		Evidence: "EPPlusSoftware/EPPlus#615 (an incorrect pivot cache id written for a pivot table: corrupt workbook), #1089"},
}

// gridRef parses an A1 reference like CellRef, but without the sheet's
// bounds: it reports the column and row written and whether they lie
// beyond XFD1048576. ok is false when s is not an A1 reference at all.
func gridRef(s string) (col, row int, beyond, ok bool) {
	s = strings.ReplaceAll(strings.TrimSpace(s), "$", "")
	i := 0
	for i < len(s) && isASCIILetter(s[i]) {
		if col <= MaxCol*26 {
			col = col*26 + int(upper(s[i])-'A'+1)
		}
		i++
	}
	if i == 0 || i == len(s) {
		return 0, 0, false, false
	}
	for j := i; j < len(s); j++ {
		if s[j] < '0' || s[j] > '9' {
			return 0, 0, false, false
		}
	}
	r, err := strconv.Atoi(s[i:])
	if err != nil {
		r = MaxRow + 1 // more digits than an int holds: beyond the grid
	}
	if r < 1 {
		return 0, 0, false, false
	}
	return col, r, col > MaxCol || r > MaxRow, true
}

// beyondGrid returns the first cell of a range list (space-separated
// "A1:B2 C3") that lies beyond XFD1048576, or "".
func beyondGrid(sqref string) string {
	for _, r := range strings.Fields(sqref) {
		for _, c := range strings.Split(r, ":") {
			if _, _, beyond, ok := gridRef(c); ok && beyond {
				return c
			}
		}
	}
	return ""
}

// outOfGrid reports a reference beyond the sheet's last cell.
func (h *sheetHandler) outOfGrid(e *formats.Element, what, ref, cell string) {
	h.in.add(formats.Finding{Code: CodeRefOutOfRange, Grade: formats.Fatal, Part: h.part, Line: e.Line, Column: e.Column, Locator: e.Locator(),
		Anchor:  fmt.Sprintf("%s %s %s", h.s.name, what, ref),
		Message: fmt.Sprintf("sheet '%s': the %s %s reaches %s, beyond the last cell of a sheet (XFD1048576: 16,384 columns, 1,048,576 rows); Excel refuses to open the workbook", h.s.name, what, ref, cell),
		Fix:     fmt.Sprintf("clip the %s to XFD1048576 (a range that was shifted past the last row usually meant to end at row 1048576), or delete it", what)})
}

// modelStart applies the content-model and reference checks to a
// worksheet element (the other checks of Start are unchanged).
func (h *sheetHandler) modelStart(e *formats.Element) {
	if !h.worksheet || e.Parent == nil || (e.Parent.Name.Space != NSMain && e.Parent.Name.Space != NSMainS) {
		return
	}
	if e.Name.Space != NSMain && e.Name.Space != NSMainS {
		return
	}
	switch e.Parent.Name.Local {
	case "mergeCells":
		if e.Name.Local != "mergeCell" {
			return
		}
		ref, _ := attr(e, "ref")
		if c := beyondGrid(ref); c != "" {
			h.outOfGrid(e, "merged range", ref, c)
		} else if _, ok := parseRange(ref); !ok {
			h.in.add(formats.Finding{Code: CodeRefInvalid, Grade: formats.Fatal, Part: h.part, Line: e.Line, Column: e.Column, Locator: e.Locator(),
				Anchor:  fmt.Sprintf("%s mergeCell ref %q", h.s.name, ref),
				Message: fmt.Sprintf("sheet '%s': <mergeCell ref=%q> does not name a range of cells; Excel reports unreadable content and repairs the workbook", h.s.name, ref),
				Fix:     "delete this <mergeCell> (and lower <mergeCells count>), or give it the range it merges, e.g. ref=\"A1:C1\""})
		}
	case "hyperlinks":
		if ref, _ := attr(e, "ref"); beyondGrid(ref) != "" {
			h.outOfGrid(e, "hyperlink", ref, beyondGrid(ref))
		}
	case "dataValidations":
		if sq, _ := attr(e, "sqref"); beyondGrid(sq) != "" {
			h.outOfGrid(e, "data validation range", sq, beyondGrid(sq))
		}
	case "cols":
		if m, _ := attr(e, "max"); m != "" {
			if n, err := strconv.Atoi(strings.TrimSpace(m)); err == nil && n > MaxCol {
				h.outOfGrid(e, "column range", "max="+m, "column "+m)
			}
		}
		if s, ok := attr(e, "style"); ok {
			h.useStyle(refColStyle, s, e)
		}
	case "conditionalFormatting":
		if d, ok := attr(e, "dxfId"); ok && e.Name.Local == "cfRule" {
			h.useStyle(refDxfID, d, e)
		}
	case "worksheet":
		switch e.Name.Local {
		case "conditionalFormatting":
			if sq, _ := attr(e, "sqref"); beyondGrid(sq) != "" {
				h.outOfGrid(e, "conditional format range", sq, beyondGrid(sq))
			}
		case "autoFilter":
			if ref, _ := attr(e, "ref"); beyondGrid(ref) != "" {
				h.outOfGrid(e, "autoFilter", ref, beyondGrid(ref))
			}
		}
	}
}

// modelEnd reports a worksheet container that ended empty.
func (h *sheetHandler) modelEnd(e *formats.Element) {
	if !h.worksheet || e.Children > 0 || !(e.Name.Space == NSMain || e.Name.Space == NSMainS) {
		return
	}
	if e.Parent == nil || !(isSML(e.Parent, "worksheet") || e.Parent.Name.Space == nsMC) {
		return
	}
	r := containerRule[e.Name.Local]
	if r == nil {
		return
	}
	effect := "Excel reports unreadable content and repairs the workbook"
	if r.Grade != formats.Fatal {
		effect = "the schema requires at least one, and Excel's reaction is not documented"
	}
	h.in.add(formats.Finding{Code: CodeEmptyContainer, Grade: r.Grade, Part: h.part, Line: e.Line, Column: e.Column, Locator: e.Locator(),
		Anchor:  fmt.Sprintf("%s empty %s", h.s.name, e.Name.Local),
		Message: fmt.Sprintf("sheet '%s': <%s> holds no <%s>; %s", h.s.name, e.QName(), r.Child, effect),
		Fix:     fmt.Sprintf("delete the empty <%s> element (write it only when there is at least one <%s>)", e.QName(), r.Child)})
}

// checkSheetIDs applies the sheetId rule (WorkbookRules).
func (in *inspector) checkSheetIDs() {
	seen := map[uint64]*sheetEntry{}
	for _, s := range in.sheets {
		var why string
		n, err := strconv.ParseUint(strings.TrimSpace(s.sheetID), 10, 32)
		switch {
		case !s.hasID:
			why = "has no sheetId"
		case err != nil || n == 0:
			why = fmt.Sprintf("has sheetId=%q, which is not a positive number", s.sheetID)
		default:
			if first, dup := seen[n]; dup {
				why = fmt.Sprintf("has sheetId %d, already the id of sheet '%s'; sheet ids are unique", n, first.name)
			} else {
				seen[n] = s
			}
		}
		if why == "" {
			continue
		}
		in.add(formats.Finding{Code: CodeSheetID, Grade: formats.Fatal, Part: in.wbPart, Line: s.line, Column: s.col, Locator: s.locator,
			Anchor:  "sheet " + s.name + " sheetId",
			Message: fmt.Sprintf("the sheet '%s' %s; Excel reports the file as broken and repairs it", s.name, why),
			Fix:     fmt.Sprintf("give the sheet a sheetId no other sheet uses (one more than the largest, e.g. %d); sheetId is not the sheet's position", in.maxSheetID()+1)})
	}
}

func (in *inspector) maxSheetID() uint64 {
	var m uint64
	for _, s := range in.sheets {
		if n, err := strconv.ParseUint(strings.TrimSpace(s.sheetID), 10, 32); err == nil && n > m {
			m = n
		}
	}
	return m
}

// checkDefinedNameSheets applies the defined-name rule (WorkbookRules).
func (in *inspector) checkDefinedNameSheets(names []*definedName) {
	sheets := map[string]bool{}
	for _, s := range in.sheets {
		sheets[foldName(s.name)] = true
	}
	for _, n := range names {
		at := pos{n.line, n.col, n.locator}
		if n.hasLocal {
			if i, err := strconv.Atoi(strings.TrimSpace(n.localSheetID)); err != nil || i < 0 || i >= len(in.sheets) {
				in.add(formats.Finding{Code: CodeDefinedNameSheet, Grade: formats.Fatal, Part: in.wbPart, Line: at.line, Column: at.col, Locator: at.loc,
					Anchor:  "defined name " + n.name + " localSheetId " + n.localSheetID,
					Message: fmt.Sprintf("the defined name %q is scoped to sheet index localSheetId=%q, but the workbook has %d sheet(s) (indexes 0–%d); Excel refuses the file", n.name, n.localSheetID, len(in.sheets), len(in.sheets)-1),
					Fix:     "set localSheetId to the 0-based position of the sheet the name belongs to (renumber after deleting a sheet), or delete the name"})
				continue
			}
		}
		for _, missing := range missingSheets(n.text, sheets) {
			in.add(formats.Finding{Code: CodeDefinedNameSheet, Grade: formats.Fatal, Part: in.wbPart, Line: at.line, Column: at.col, Locator: at.loc,
				Anchor:  "defined name " + n.name + " sheet " + missing,
				Message: fmt.Sprintf("the defined name %q refers to the sheet '%s' (%s), which the workbook does not have; Excel removes the name while repairing the workbook (\"Removed Records: Named range from /xl/workbook.xml part\")", n.name, missing, clip(n.text, 80)),
				Fix:     fmt.Sprintf("point the name at an existing sheet, write #REF! where the sheet was deleted (what Excel does), or delete the name %q", n.name)})
		}
	}
}

// missingSheets returns the sheet names a formula refers to (Sheet1!A1,
// 'My sheet'!A1, Sheet1:Sheet3!A1) that are not in sheets. References
// into other workbooks ([1]Sheet1!A1, '[Book.xlsx]Sheet1'!A1) are skipped.
func missingSheets(f string, sheets map[string]bool) []string {
	toks := tokenize(f)
	var out []string
	for i, t := range toks {
		if t.Kind != tokOp || t.Text != "!" || i == 0 {
			continue
		}
		names := []int{i - 1}
		if i >= 3 && toks[i-2].Kind == tokOp && toks[i-2].Text == ":" {
			names = append(names, i-3)
		}
		for _, j := range names {
			nt := toks[j]
			if nt.Kind != tokWord && nt.Kind != tokSheet {
				names = nil
				break
			}
			if j > 0 && toks[j-1].Kind == tokBracket {
				names = nil // [1]Sheet1!A1: another workbook
				break
			}
		}
		for _, j := range names {
			name := toks[j].Text
			if toks[j].Kind == tokSheet {
				name = strings.ReplaceAll(strings.TrimSuffix(strings.TrimPrefix(name, "'"), "'"), "''", "'")
			}
			if strings.ContainsAny(name, "[]") || name == "" {
				continue // '[Book.xlsx]Sheet1' or 'C:\dir\[Book.xlsx]Sheet1'
			}
			if !sheets[foldName(name)] {
				out = appendOnce(out, name)
			}
		}
	}
	return out
}

// pivotHandler reads a pivot table's cacheId.
type pivotHandler struct {
	formats.NopHandler
	cacheID   string
	has       bool
	line, col int
	loc       string
}

func (h *pivotHandler) Start(e *formats.Element) {
	if e.Depth == 1 {
		h.cacheID, h.has = attr(e, "cacheId")
		h.line, h.col, h.loc = e.Line, e.Column, e.Locator()
	}
}

// checkPivots reads the pivot tables a sheet relates and checks their
// cache ids against workbook.xml's pivotCaches (WorkbookRules).
func (in *inspector) checkPivots(s *sheetEntry) {
	if !in.wbKnown {
		return
	}
	for _, r := range in.p.RelsOf(in.ctx, s.part).ByType("pivotTable") {
		if r.External || r.Resolved == "" || !in.p.Has(r.Resolved) {
			continue
		}
		part := in.p.Entry(r.Resolved).Part
		h := &pivotHandler{}
		res := in.p.ScanPart(in.ctx, part, h)
		if !res.Complete || !h.has || in.pivotCaches[strings.TrimSpace(h.cacheID)] {
			continue
		}
		in.add(formats.Finding{Code: CodePivotCache, Grade: formats.Fatal, Part: part, Line: h.line, Column: h.col, Locator: h.loc,
			Anchor:  "pivot cacheId " + h.cacheID,
			Message: fmt.Sprintf("the pivot table on sheet '%s' uses cacheId=%q, but workbook.xml's <pivotCaches> has no <pivotCache cacheId=%q>; Excel reports the workbook as corrupt and removes the pivot table", s.name, h.cacheID, h.cacheID),
			Fix:     "set cacheId to the cacheId of the <pivotCache> in workbook.xml whose r:id relates this table's pivotCacheDefinition, or add that <pivotCache>"})
	}
}
