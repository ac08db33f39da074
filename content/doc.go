// Package content owns the structural content diff of an edit: it extracts
// located content units from the four formats (Word paragraphs, PowerPoint
// paragraphs, Excel cells, Hangul paragraphs and table cells, each with a
// part, a human "where", its text and its resolved run formatting) and
// diffs the original's units against the edited file's, reporting what
// text, cells and formatting the edit changed.
//
// It reads the packages itself, streaming each XML part through the
// formats package's reader and scanner (zip under limits, no DOM), so a
// 10,000-paragraph document or a 1,000,000-cell workbook is diffed in
// bounded memory: paragraph-like units keep their text (about twice the
// document's text plus 64 bytes a unit); a worksheet is compared cell by
// cell by address, keeping 24 bytes for each cell of the original sheet
// being compared and 8 bytes for each shared string, and re-reading only
// the few cells whose text a change shows.
//
// Alignment: paragraph-like units are aligned per story (the Word body,
// each header, footer, notes or comments part; the whole deck; each Hangul
// section) with a patience diff over the hash of their normalised text
// (whitespace collapsed, NFC), a bounded LCS inside the gaps, then units
// left over are paired by word similarity (a changed paragraph), matched
// by equal text elsewhere (a moved paragraph) or reported inserted or
// deleted. Inside a changed unit a word-level diff says what changed.
// Formatting is compared character by character over the text the two
// versions share. A part that does not parse on either side is left out on
// both sides and the result is "partial": no change is ever inferred from a
// parse failure.
//
// It imports formats and the namespace constants of formats/docx, pptx,
// xlsx and hwpx only; it must not import audit, reports, pixeldiff,
// baseline or corpus (they consume its Result).
package content
