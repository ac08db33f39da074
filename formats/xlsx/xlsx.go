// Package xlsx validates and counts Excel workbooks (.xlsx, .xlsm, .xltx,
// Transitional and Strict). It reads the package itself, streaming each
// part once through formats.Package.ScanPart, so a workbook that Excel
// libraries refuse to load is still counted and checked.
//
// Counts (DESIGN.md): sheets, charts, images, tables, defined_names,
// data_validations, conditional_formats, merged_ranges; a per-part
// breakdown and one formats.Site per sheet ("sheet 'Name'").
//
// Checks: the Excel section of DEFECTS.md — sheet names, shared-string
// indexes, cell values and text lengths, merged ranges, tables, row and
// cell order, worksheet child order, formulas (separators, localized
// names, LET/LAMBDA parameters, future-function prefixes, dynamic-array
// metadata), data validation limits and manual calculation; style indexes
// against styles.xml (styles.go: StyleRefKinds), sheet ids, defined-name
// scopes, table headers, pivot caches, empty containers and references
// beyond the grid (model.go: WorkbookRules, ContainerRules). Each check
// cites its evidence where it is emitted.
//
// It imports formats (and internal packages) only; it must not import
// formats/inspect, content, pixeldiff, render, baseline, audit, reports or corpus
// (formats/inspect wires it; the others judge what it reports).
package xlsx

import (
	"context"
	"fmt"

	"github.com/editaudit/editaudit/formats"
)

// SpreadsheetML namespaces, Transitional and Strict (ISO/IEC 29500-1 Strict
// renames the main namespace), and the extension namespaces counted.
const (
	NSMain  = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
	NSMainS = "http://purl.oclc.org/ooxml/spreadsheetml/main"
	nsX14   = "http://schemas.microsoft.com/office/spreadsheetml/2009/9/main"
	nsMC    = "http://schemas.openxmlformats.org/markup-compatibility/2006"
	nsXdr   = "http://schemas.openxmlformats.org/drawingml/2006/spreadsheetDrawing"
	nsXdrS  = "http://purl.oclc.org/ooxml/drawingml/spreadsheetDrawing"
	nsChart = "http://schemas.openxmlformats.org/drawingml/2006/chart"
	nsChrtS = "http://purl.oclc.org/ooxml/drawingml/chart"
	nsCx    = "http://schemas.microsoft.com/office/drawing/2014/chartex"
)

// Count keys (DESIGN.md "Counts keys per format": xlsx).
const (
	KeySheets             = "sheets"
	KeyCharts             = "charts"
	KeyImages             = "images"
	KeyTables             = "tables"
	KeyDefinedNames       = "defined_names"
	KeyDataValidations    = "data_validations"
	KeyConditionalFormats = "conditional_formats"
	KeyMergedRanges       = "merged_ranges"
)

// countKeys lists every xlsx count key; every report carries all of them.
var countKeys = []string{KeySheets, KeyCharts, KeyImages, KeyTables, KeyDefinedNames,
	KeyDataValidations, KeyConditionalFormats, KeyMergedRanges}

// sheetKeys are the keys of a sheet's Site.
var sheetKeys = []string{KeyCharts, KeyImages, KeyTables, KeyDataValidations, KeyConditionalFormats, KeyMergedRanges}

// inspector holds the state of one workbook inspection.
type inspector struct {
	ctx context.Context
	p   *formats.Package
	rep *formats.Report

	wbPart       string
	sheets       []*sheetEntry
	definedNames map[string]bool // upper-case names, all scopes
	bookNames    map[string]bool // upper-case workbook-scoped names (no localSheetId)

	sstCount  int  // number of si in the shared string table
	sstKnown  bool // the shared string table was read completely (or is absent)
	metaCount int  // number of bk in cellMetadata
	metaKnown bool

	tableNames map[string]string // upper displayName → part of the first table
	tableIDs   map[string]string // id → part of the first table

	perCode map[string]int // code + part → findings emitted

	// macros is true for a macro-enabled workbook (a vbaProject
	// relationship): a call of an unknown name may be a VBA function.
	macros bool

	styles      *styles         // what styles.xml defines (nil before scanStyles)
	wbKnown     bool            // workbook.xml was read to the end
	pivotCaches map[string]bool // cacheId of every workbook pivotCache
	keepSST     bool            // keep the shared strings' text (tables need their headers)
	sst         []string        // the shared strings, when keepSST
	calc        *calcChain      // xl/calcChain.xml, when the workbook has one that could be read
}

// sheetEntry is one <sheet> of workbook.xml.
type sheetEntry struct {
	name, rid     string
	sheetID       string
	hasID         bool
	line, col     int
	locator       string
	part, relType string
}

// Inspect validates and counts the workbook p and adds its findings to p
// and its counts and sites to rep. The error is only for cancellation.
func Inspect(ctx context.Context, p *formats.Package, rep *formats.Report) error {
	in := &inspector{ctx: ctx, p: p, rep: rep, definedNames: map[string]bool{}, bookNames: map[string]bool{},
		tableNames: map[string]string{}, tableIDs: map[string]string{}, perCode: map[string]int{}, pivotCaches: map[string]bool{}}
	zero := formats.Counts{}
	for _, k := range countKeys {
		zero[k] = 0
	}
	rep.AddCounts("", zero)
	if p.MainPart == "" || !p.Has(p.MainPart) {
		return ctx.Err()
	}
	in.wbPart = p.Entry(p.MainPart).Part
	in.macros = len(p.RelsOf(ctx, in.wbPart).ByType("vbaProject")) > 0
	in.scanWorkbook()
	if err := ctx.Err(); err != nil {
		return err
	}
	in.scanCalcChain()
	in.scanStyles()
	for _, s := range in.sheets {
		if s.part != "" && len(p.RelsOf(ctx, s.part).ByType("table")) > 0 {
			in.keepSST = true // table headers are compared with their cells' text
			break
		}
	}
	in.scanSharedStrings()
	in.scanMetadata()
	for _, s := range in.sheets {
		if err := ctx.Err(); err != nil {
			return err
		}
		in.scanSheet(s)
	}
	in.checkCalcChainSheets()
	return ctx.Err()
}

// add records a finding, at most Limits.MaxFindingsPerCode per code and
// part (then one info finding says the rest are not listed).
func (in *inspector) add(f formats.Finding) {
	key := f.Code + "\x00" + f.Part
	n := in.perCode[key]
	in.perCode[key]++
	max := in.p.Limits.MaxFindingsPerCode
	if max > 0 && n == max {
		in.p.Add(formats.Finding{Code: CodeTooMany, Grade: formats.Info, Part: f.Part, Anchor: f.Code,
			Message: fmt.Sprintf("more than %d %s findings in this part; the rest are not listed", max, f.Code)})
	}
	if max > 0 && n >= max {
		return
	}
	in.p.Add(f)
}

// relID returns the r:id attribute of e (Transitional or Strict).
func relID(e *formats.Element) string {
	if v, ok := e.Get(formats.NSRelsT, "id"); ok {
		return v
	}
	v, _ := e.Get(formats.NSRelsS, "id")
	return v
}

// isSML reports whether e is the SpreadsheetML element local.
func isSML(e *formats.Element, local string) bool {
	return e.Name.Local == local && (e.Name.Space == NSMain || e.Name.Space == NSMainS)
}

// attr returns the unqualified attribute local of e.
func attr(e *formats.Element, local string) (string, bool) { return e.Get("", local) }

// resolve returns the existing part a relationship id of source points
// at, or "".
func (in *inspector) resolve(source, rid string) string {
	if rid == "" {
		return ""
	}
	r := in.p.RelsOf(in.ctx, source).ByID(rid)
	if r == nil || r.External || r.Resolved == "" || !in.p.Has(r.Resolved) {
		return ""
	}
	return in.p.Entry(r.Resolved).Part
}

// relTypeOf returns the last segment of the type of relationship rid.
func (in *inspector) relTypeOf(source, rid string) string {
	r := in.p.RelsOf(in.ctx, source).ByID(rid)
	if r == nil {
		return ""
	}
	t := r.Type
	for i := len(t) - 1; i >= 0; i-- {
		if t[i] == '/' {
			return t[i+1:]
		}
	}
	return t
}
