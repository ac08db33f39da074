package xlsx

import (
	"fmt"
	"strings"

	"github.com/editaudit/editaudit/formats"
)

// definedName is one workbook.xml definedName, checked once all names are
// known (a formula may call a named LAMBDA defined further down).
type definedName struct {
	name, text   string
	localSheetID string
	hasLocal     bool
	line, col    int
	locator      string
}

// workbookHandler reads workbook.xml: the sheet list, the defined names
// and the calculation properties (ECMA-376 §18.2.27 CT_Workbook).
type workbookHandler struct {
	formats.NopHandler
	in        *inspector
	sawSheets bool
	sheetsLoc string
	sheetsL   int
	sheetsC   int
	names     []*definedName
	cur       *definedName
	text      strings.Builder
	calcLoc   string
	calcL     int
	calcC     int
	manual    bool
	view      *bookView
}

func (h *workbookHandler) Start(e *formats.Element) {
	switch {
	case e.Depth == 2 && isSML(e, "sheets"):
		h.sawSheets = true
		h.sheetsLoc, h.sheetsL, h.sheetsC = e.Locator(), e.Line, e.Column
	case e.Depth == 3 && isSML(e, "sheet") && isSML(e.Parent, "sheets"):
		name, _ := attr(e, "name")
		id, hasID := attr(e, "sheetId")
		h.in.sheets = append(h.in.sheets, &sheetEntry{name: name, rid: relID(e), sheetID: id, hasID: hasID, line: e.Line, col: e.Column, locator: e.Locator()})
	case e.Depth == 3 && isSML(e, "pivotCache") && isSML(e.Parent, "pivotCaches"):
		if id, ok := attr(e, "cacheId"); ok {
			h.in.pivotCaches[strings.TrimSpace(id)] = true
		}
	case e.Depth == 3 && isSML(e, "definedName"):
		name, _ := attr(e, "name")
		local, hasLocal := attr(e, "localSheetId")
		h.cur = &definedName{name: name, localSheetID: local, hasLocal: hasLocal, line: e.Line, col: e.Column, locator: e.Locator()}
		h.text.Reset()
		u := strings.ToUpper(name)
		h.in.definedNames[u] = true
		if _, local := attr(e, "localSheetId"); !local {
			h.in.bookNames[u] = true
		}
	case e.Depth == 3 && isSML(e, "workbookView") && h.view == nil:
		if v, ok := attr(e, "activeTab"); ok {
			h.view = &bookView{activeTab: v, at: posOf(e)}
		}
	case e.Depth == 2 && isSML(e, "calcPr"):
		if m, _ := attr(e, "calcMode"); m == "manual" {
			h.manual = true
			h.calcLoc, h.calcL, h.calcC = e.Locator(), e.Line, e.Column
		}
	}
}

func (h *workbookHandler) Text(e *formats.Element, t []byte) {
	if h.cur != nil && e.Depth == 3 {
		h.text.Write(t)
	}
}

func (h *workbookHandler) End(e *formats.Element) {
	if h.cur != nil && e.Depth == 3 && isSML(e, "definedName") {
		h.cur.text = h.text.String()
		h.names = append(h.names, h.cur)
		h.cur = nil
	}
}

// scanWorkbook reads workbook.xml and runs the workbook-level checks.
func (in *inspector) scanWorkbook() {
	h := &workbookHandler{in: in}
	res := in.p.ScanPart(in.ctx, in.wbPart, h)
	in.rep.AddCounts(in.wbPart, formats.Counts{KeySheets: len(in.sheets), KeyDefinedNames: len(h.names)})
	wbRels := in.p.RelsOf(in.ctx, in.wbPart)
	for _, s := range in.sheets {
		if r := wbRels.ByID(s.rid); r != nil && !r.External && r.Resolved != "" {
			s.part = r.Resolved
			if e := in.p.Entry(r.Resolved); e != nil {
				s.part = e.Part
			}
			s.relType = in.relTypeOf(in.wbPart, s.rid)
		}
	}
	isWorkbook := res.Root.Local == "workbook" && (res.Root.Space == NSMain || res.Root.Space == NSMainS)
	if res.Complete && isWorkbook && len(in.sheets) == 0 {
		// ECMA-376 §18.2.20: CT_Sheets holds one or more sheet elements
		// (minOccurs 1), and Excel cannot show a workbook without a sheet:
		// it reports the file as corrupt (excelize test/BadWorkbook.xlsx,
		// an empty <sheets/>).
		loc, l, c := h.sheetsLoc, h.sheetsL, h.sheetsC
		what := "an empty <sheets> element"
		if !h.sawSheets {
			loc, l, c, what = "/"+res.Root.Local, 0, 0, "no <sheets> element"
		}
		in.add(formats.Finding{Code: CodeNoSheets, Grade: formats.Fatal, Part: in.wbPart, Line: l, Column: c, Locator: loc,
			Anchor:  "sheets",
			Message: "the workbook lists no sheet (" + what + "); Excel needs at least one sheet and reports the file as corrupt",
			Fix:     "add a <sheet name=\"Sheet1\" sheetId=\"1\" r:id=\"…\"/> to <sheets> pointing at a worksheet part through xl/_rels/workbook.xml.rels"})
	}
	in.checkSheetNames()
	in.wbKnown = res.Complete && isWorkbook
	if in.wbKnown {
		in.checkSheetIDs()
		in.checkDefinedNameSheets(h.names)
		in.checkActiveTab(h.view)
	}
	if h.manual {
		// DEFECTS.md (confirmed, Microsoft docs): in manual mode Excel does
		// not recalculate on open, and it ignores fullCalcOnLoad then, so
		// values written by a library stay stale (SILENT risk: warning).
		in.add(formats.Finding{Code: CodeCalcManual, Grade: formats.Warning, Part: in.wbPart, Line: h.calcL, Column: h.calcC,
			Locator: h.calcLoc, Anchor: "calcMode",
			Message: "the workbook is set to manual calculation (calcPr calcMode=\"manual\"): Excel will show the cached values of formulas without recalculating them, and ignores fullCalcOnLoad in this mode, so values a program changed stay stale",
			Fix:     "remove the calcMode attribute from <calcPr> (or set calcMode=\"auto\")"})
	}
	for _, n := range h.names {
		if strings.TrimSpace(n.text) == "" {
			continue
		}
		in.checkFormula(formulaSite{part: in.wbPart, locator: n.locator, line: n.line, col: n.col,
			where: "defined name " + n.name}, n.text)
	}
}

// checkSheetNames applies Excel's sheet-name rules. DEFECTS.md (confirmed):
// Excel repairs a workbook whose sheet name is longer than 31 characters,
// holds : \ / ? * [ ], is blank, or starts or ends with an apostrophe, and
// one whose names repeat compared case-insensitively (openxml-audit
// compares case-sensitively and misses "Data"/"data").
func (in *inspector) checkSheetNames() {
	seen := map[string]*sheetEntry{}
	for _, s := range in.sheets {
		var why []string
		switch {
		case s.name == "":
			why = append(why, "it is blank")
		case utf16Len(s.name) > 31:
			why = append(why, fmt.Sprintf("it is %d characters long, over Excel's limit of 31", utf16Len(s.name)))
		}
		if i := strings.IndexAny(s.name, `:\/?*[]`); i >= 0 {
			why = append(why, fmt.Sprintf("it contains %q, one of the characters : \\ / ? * [ ] that sheet names cannot hold", s.name[i:i+1]))
		}
		if strings.HasPrefix(s.name, "'") || strings.HasSuffix(s.name, "'") {
			why = append(why, "it starts or ends with an apostrophe")
		}
		if len(why) > 0 {
			in.add(formats.Finding{Code: CodeSheetName, Grade: formats.Fatal, Part: in.wbPart, Line: s.line, Column: s.col,
				Locator: s.locator, Anchor: "sheet:" + s.name,
				Message: fmt.Sprintf("the sheet name %q is not allowed: %s; Excel repairs the workbook and renames or drops the sheet", s.name, strings.Join(why, "; ")),
				Fix:     "rename the sheet to at most 31 characters without : \\ / ? * [ ] and without a leading or trailing apostrophe, and update formulas that refer to it"})
		}
		key := foldName(s.name)
		if first, dup := seen[key]; dup {
			in.add(formats.Finding{Code: CodeSheetNameDup, Grade: formats.Fatal, Part: in.wbPart, Line: s.line, Column: s.col,
				Locator: s.locator, Anchor: "sheet:" + s.name,
				Message: fmt.Sprintf("the sheet name %q repeats %q: Excel compares sheet names case-insensitively, so the workbook has two sheets of one name and Excel repairs it", s.name, first.name),
				Fix:     fmt.Sprintf("give the sheet %q a name no other sheet has (ignoring case)", s.name)})
			continue
		}
		seen[key] = s
	}
}

// foldName is the case-insensitive identity of a name.
func foldName(s string) string { return strings.ToLower(strings.ToUpper(s)) }

// sstHandler counts the shared strings (§18.4.9 sst/si) and checks their
// length.
type sstHandler struct {
	formats.NopHandler
	in    *inspector
	part  string
	n     int
	text  strings.Builder
	inRPh int
	siL   int
	siC   int
	siLoc string
}

func (h *sstHandler) Start(e *formats.Element) {
	switch {
	case e.Depth == 2 && isSML(e, "si"):
		h.n++
		h.text.Reset()
		h.siL, h.siC, h.siLoc = e.Line, e.Column, e.Locator()
	case isSML(e, "rPh"):
		h.inRPh++
	}
}

func (h *sstHandler) Text(e *formats.Element, t []byte) {
	if h.inRPh == 0 && isSML(e, "t") && e.Depth >= 3 {
		h.text.Write(t)
	}
}

func (h *sstHandler) End(e *formats.Element) {
	switch {
	case isSML(e, "rPh"):
		h.inRPh--
	case e.Depth == 2 && isSML(e, "si"):
		if h.in.keepSST {
			h.in.sst = append(h.in.sst, h.text.String())
		}
		if n := excelTextLen(h.text.String()); n > maxCellText {
			in := h.in
			// DEFECTS.md (confirmed): Excel's cell text limit is 32,767
			// characters; longer strings are truncated in a repair.
			in.add(formats.Finding{Code: CodeTextTooLong, Grade: formats.Fatal, Part: h.part, Line: h.siL, Column: h.siC,
				Locator: h.siLoc, Anchor: fmt.Sprintf("shared string %d: %s", h.n-1, clip(h.text.String(), 60)),
				Message: fmt.Sprintf("shared string %d is %d characters long, over Excel's cell limit of 32,767; Excel truncates it while repairing the workbook", h.n-1, n),
				Fix:     "shorten the text to at most 32,767 characters or split it over several cells"})
		}
	}
}

// maxCellText is Excel's limit on the characters in one cell.
const maxCellText = 32767

// scanSharedStrings counts the shared string table the workbook names.
func (in *inspector) scanSharedStrings() {
	in.sstKnown = true
	rels := in.p.RelsOf(in.ctx, in.wbPart).ByType("sharedStrings")
	if len(rels) == 0 || rels[0].External || !in.p.Has(rels[0].Resolved) {
		return // no table: every t="s" cell points past its end
	}
	part := in.p.Entry(rels[0].Resolved).Part
	h := &sstHandler{in: in, part: part}
	res := in.p.ScanPart(in.ctx, part, h)
	in.sstCount, in.sstKnown = h.n, res.Complete
}

// metaHandler counts cellMetadata blocks (MS-XLSX §2.3.4 metadata part;
// ECMA-376 §18.9 cellMetadata/bk).
type metaHandler struct {
	formats.NopHandler
	n int
}

func (h *metaHandler) Start(e *formats.Element) {
	if e.Depth == 3 && isSML(e, "bk") && isSML(e.Parent, "cellMetadata") {
		h.n++
	}
}

// scanMetadata counts xl/metadata.xml's cell metadata blocks.
func (in *inspector) scanMetadata() {
	in.metaKnown = true
	rels := in.p.RelsOf(in.ctx, in.wbPart).ByType("sheetMetadata")
	if len(rels) == 0 || rels[0].External || !in.p.Has(rels[0].Resolved) {
		return
	}
	h := &metaHandler{}
	res := in.p.ScanPart(in.ctx, in.p.Entry(rels[0].Resolved).Part, h)
	in.metaCount, in.metaKnown = h.n, res.Complete
}
