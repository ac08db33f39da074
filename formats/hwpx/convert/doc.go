// Package convert turns a Hangul (.hwpx) document into an OpenDocument
// Text (.odt) package that LibreOffice lays out and prints, so HWPX edits
// get before/after pages like every other format (LibreOffice 7.4 has no
// HWPX import filter). The result is approximate by nature: rendered
// pages carry Notice, and Version goes into the renderer's toolchain key.
//
// It owns the mapping from OWPML to ODF: sections (paper, margins, page
// border, headers, footers, page numbers → page layouts and master pages),
// paragraphs (paragraph shapes → alignment, indents, spacing, line height
// as Hangul computes it; bullets and numbering as text), runs (character
// shapes → font, size, bold/italic/underline/strike, colour, shading,
// letter spacing, width ratio), tables (a grid solved from cellAddr,
// cellSpan and cellSz: column widths, minimum row heights, spans, borders
// and fills, cell margins, vertical alignment, header rows, nesting),
// pictures (BinData), text boxes (hp:rect with hp:drawText), form controls
// as their printed look. What it cannot draw is listed in Result.Notes.
//
// It reads the package through formats (zip limits, XML scanner with depth
// and token limits, no DTDs), is deterministic (the same input gives the
// same bytes) and never writes the input. It must not import pixeldiff, render,
// baseline, audit, reports or corpus: the renderer calls it, not the
// other way round.
package convert
