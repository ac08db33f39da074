// Package content owns the structural content diff of an edit: it extracts
// located content units from the four formats (Word paragraphs, PowerPoint
// paragraphs, Excel cells, Hangul paragraphs and table cells, each with a
// part, a human "where", its text and its resolved run formatting) and
// diffs the original's units against the edited file's, reporting what
// text, cells and formatting the edit changed (Result, marshalled as the
// "content" object of DESIGN.md). The sentences a model reads about it are
// audit's (its feedback's Content section), like every other sentence of
// the feedback.
//
// It reads the packages itself, streaming each XML part through the
// formats package's reader and scanner (zip under limits, no DOM), so a
// 10,000-paragraph document or a 1,000,000-cell workbook is diffed in
// bounded memory: paragraph-like units keep their text (about 200 bytes a
// unit plus twice the document's text; at most Options.MaxUnits units a
// file); a worksheet is compared cell by cell by address, keeping 24 bytes
// for each cell of the original sheet being compared and 8 bytes for each
// shared string, and re-reading only the cells a listed change shows.
// Parts whose bytes are the same in both files (the slides, headers and
// sections an edit did not touch) are read once.
//
// Alignment: paragraph-like units are aligned per story (the Word body,
// each header, footer, notes or comments part; the whole deck; each Hangul
// section) by the hash of their normalised text (whitespace collapsed,
// NFC): common prefix and suffix, an exact LCS on small stretches, a
// patience split on large ones; units left over are paired by word
// similarity within one kind of container (a changed paragraph), matched
// by equal text elsewhere (a moved paragraph) or reported inserted or
// deleted. Inside a changed unit a word-level diff says what changed.
// Formatting is compared character by character over the text the two
// versions share, as a reader sees it: Word through the style hierarchy
// and the theme's fonts, PowerPoint through placeholder inheritance
// (pptxstyle.go), colours as RGB (theme colours, tints and lumMod/lumOff
// applied), Excel number formats with their literals written one way;
// rsid attributes, proofing marks, language tags and run splits are not
// formatting, nor are the cached results of fields Word recomputes (page
// numbers, dates). Excel cells are compared by address within
// sheets matched by name (then by sheetId: a rename), a formula by its
// relative form (a shared formula and the same formulas written out in
// full are equal); a formula's cached value is not content.
//
// A part that does not parse, or that the relationships name but the
// package lacks, on either side is left out on both sides and the result
// is "partial": no change is ever inferred from a parse failure.
//
// Where forms (DESIGN.md; numbers are 1-based in document order; deleted
// units are numbered as in the original, all others as in the edited
// file):
//
//   - Word: "body paragraph 12" (paragraphs of the body outside tables and
//     text boxes), "body table 2, row 3, cell 1" (the cell's first
//     paragraph; ", paragraph 2" for the next), nested tables
//     "body table 2, row 1, cell 1, table 1, row 1, cell 1", text boxes
//     "body text box 1, paragraph 1", other stories by file name
//     ("header1.xml paragraph 1") or note ("footnote 3, paragraph 1",
//     "endnote 1, …", "comment 0, …").
//   - PowerPoint: "slide 4, shape 'Title 1'" (", paragraph 2" for the
//     next), tables "slide 4, shape 'Table 3', row 2, cell 1", notes
//     "slide 4 notes, paragraph 2"; slides in the order of the slide list.
//   - Excel: "Sheet1!B4", "'My Sheet'!B4"; sheets "sheet 'Name'".
//   - Hangul: "section 1, paragraph 3", "section 1, table 2, row 3, cell 1",
//     "section 1, header 1, paragraph 1" (also footer, footnote, endnote,
//     text box).
//
// Not compared: Word equations (OMML), field codes, numbering labels,
// images, and toggle properties as toggles (a bold character style on
// bold paragraph text counts as bold); PowerPoint layouts', masters',
// charts' and SmartArt text, table styles, and colour modifiers other than
// lumMod/lumOff (compared as written); Excel comments, defined names,
// charts, and cells' borders and alignment; formatting of Excel cells
// hidden under a merged range.
//
// It imports formats and, of formats/docx, pptx, xlsx and hwpx, their
// namespace constants and what they export about reading a package (Word's
// story parts and their labels, A1 references, Hangul's reading order),
// internal/ctxio and internal/plural; it must not import audit, reports, pixeldiff, render,
// baseline or corpus (they consume its Result).
package content
