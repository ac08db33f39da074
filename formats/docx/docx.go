// Package docx validates and counts WordprocessingML packages (.docx, .docm,
// .dotx, Transitional and Strict).
//
// Inspect scans the main document part and every header, footer,
// footnotes, endnotes and comments part it relates to, each exactly once,
// streaming: in the same pass it counts the structure (tables, rows, cells,
// paragraphs, nested tables) and runs the Word checks of DEFECTS.md (cell
// without a final paragraph, row without cells, table without rows, run
// content outside a run, table inside a paragraph, duplicate drawing ids
// involving a shape), the reference checks of refs.go (comments, notes,
// numbering, styles, bookmarks, paragraph and durable ids: IDRefKinds,
// MarkRules) and the content models of model.go (ContentRules: runs outside
// paragraphs, paragraphs in paragraphs, table structure). The numbering,
// styles and settings parts are scanned for the ids they define.
//
// Counting rules (the same as the independent counter the tests were
// verified with):
//   - a paragraph is any w:p, wherever it sits: body, table cells, nested
//     tables, text boxes (w:txbxContent), content controls;
//   - a table is any w:tbl; a nested table is a w:tbl with a w:tbl ancestor
//     (a table inside a cell, also through a text box in the cell); its rows
//     (w:tr) and cells (w:tc) count like any other;
//   - markup compatibility (ECMA-376 part 3 §10.2): of an
//     mc:AlternateContent only the first mc:Choice is counted; further
//     Choices and the mc:Fallback are skipped, because they repeat the
//     Choice's content for older consumers (Word writes every text box
//     twice: once as a wps:wsp shape, once as a VML fallback) and would
//     count each text-box paragraph twice. The checks skip them as well;
//   - every paragraph of a notes or comments part counts, the separator
//     footnotes Word writes included.
//
// It imports formats (and internal packages) only; it must not import
// formats/inspect, content, pixeldiff, render, baseline, audit, reports or corpus
// (formats/inspect wires it; the others judge what it reports).
package docx

import (
	"context"
	"path"
	"strings"

	"github.com/editaudit/editaudit/formats"
)

// Namespace URIs, Transitional then Strict (ISO/IEC 29500-1 Strict renames
// them). Elements are matched by URI, never by prefix.
const (
	NSW       = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
	NSWStrict = "http://purl.oclc.org/ooxml/wordprocessingml/main"
	// NSMC is the markup-compatibility namespace (ECMA-376 part 3); it is
	// the same in Strict.
	NSMC       = "http://schemas.openxmlformats.org/markup-compatibility/2006"
	NSWP       = "http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing"
	NSWPStrict = "http://purl.oclc.org/ooxml/drawingml/wordprocessingDrawing"
	// Word 2010 drawing extensions: shapes, groups, canvases.
	NSWPS = "http://schemas.microsoft.com/office/word/2010/wordprocessingShape"
	NSWPG = "http://schemas.microsoft.com/office/word/2010/wordprocessingGroup"
	NSWPC = "http://schemas.microsoft.com/office/word/2010/wordprocessingCanvas"
)

// Metric names of the counts (DESIGN.md: docx tables, rows, cells,
// paragraphs; nested_tables is the extra metric for tables inside cells).
const (
	MetricTables       = "tables"
	MetricRows         = "rows"
	MetricCells        = "cells"
	MetricParagraphs   = "paragraphs"
	MetricNestedTables = "nested_tables"
)

// storyTypes are the relationship types (last segment) of the main part
// whose targets are scanned and counted besides the main part, in this
// order.
var storyTypes = []string{"header", "footer", "footnotes", "endnotes", "comments"}

// Inspect validates and counts the Word package p into rep. The error is
// only for cancellation; every defect is a finding.
func Inspect(ctx context.Context, p *formats.Package, rep *formats.Report) error {
	if p.MainPart == "" || !p.Has(p.MainPart) {
		return ctx.Err() // the core reports the missing main part
	}
	rels := p.RelsOf(ctx, p.MainPart)
	parts, _ := StoryParts(p, rels)
	ids := &docPrIndex{}
	refs := newIDIndex()
	// storyDefs: the comments and notes parts read to the end, by kind;
	// broken: the kinds whose defining part did not parse.
	storyDefs := map[*IDRefKind]string{}
	broken := map[*IDRefKind]bool{}
	for _, part := range parts {
		if err := ctx.Err(); err != nil {
			return err
		}
		label := PartLabel(p.MainPart, part)
		h := newStoryHandler(part, label, p.Limits.MaxFindingsPerCode, ids, refs)
		res := p.ScanPart(ctx, part, h)
		if h.defKind != nil {
			if res.Complete {
				storyDefs[h.defKind] = part
			} else {
				broken[h.defKind] = true
			}
		}
		h.marks.report(h)
		h.finish(rep)
		for _, f := range h.findings {
			p.Add(f)
		}
	}
	for _, f := range ids.findings() {
		p.Add(f)
	}
	for _, f := range checkCommentsEx(ctx, p, rels) {
		p.Add(f)
	}
	for k := range broken {
		delete(storyDefs, k)
	}
	for _, f := range scanDefs(ctx, p, rels, refs, storyDefs, broken) {
		p.Add(f)
	}
	for _, f := range refs.findings() {
		p.Add(f)
	}
	for _, f := range checkDurableIDs(ctx, p, rels) {
		p.Add(f)
	}
	return ctx.Err()
}

// StoryParts lists the parts that hold a Word document's text: the main
// part, then every header, footer, footnotes, endnotes and comments part
// of its relationships rels (each once, by type and then naturally sorted
// by name). missing lists the targets of those relationships that the
// package lacks (a broken story, not an empty one).
func StoryParts(p *formats.Package, rels *formats.Rels) (parts, missing []string) {
	parts = []string{p.MainPart}
	seen := map[string]bool{strings.ToLower(p.MainPart): true}
	for _, typ := range storyTypes {
		var group []string
		for _, r := range rels.ByType(typ) {
			if r.External || r.Resolved == "" {
				continue
			}
			e := p.Entry(r.Resolved)
			if e == nil {
				missing = append(missing, r.Resolved)
				continue
			}
			if seen[strings.ToLower(e.Part)] {
				continue
			}
			seen[strings.ToLower(e.Part)] = true
			group = append(group, e.Part)
		}
		sortNatural(group)
		parts = append(parts, group...)
	}
	return parts, missing
}

func sortNatural(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && formats.NaturalLess(s[j], s[j-1]); j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

// PartLabel names a part in Where strings and messages: "body" for the
// main part, the file name ("header1.xml") for a part in the main part's
// folder, the full name otherwise.
func PartLabel(mainPart, part string) string {
	if strings.EqualFold(part, mainPart) {
		return "body"
	}
	if strings.EqualFold(formats.Dir(part), formats.Dir(mainPart)) {
		return path.Base(part)
	}
	return part
}
