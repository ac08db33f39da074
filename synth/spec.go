package synth

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"reflect"

	"github.com/editaudit/editaudit/formats"
	"github.com/editaudit/editaudit/render"
)

// A Spec describes one document as data. It is decoded from JSON by
// ParseSpec, which rejects unknown keys and checks every dimension against
// the caps below; Synthesize renders it with a deterministic writer.
//
// Exactly one of Docx, Pptx, Xlsx and Hwpx is set, the one Format names.
type Spec struct {
	// Format is "docx", "pptx", "xlsx" or "hwpx".
	Format string `json:"format"`
	// Title goes into the document properties (docProps/core.xml, the hwpx
	// package metadata).
	Title string `json:"title,omitempty"`
	// Docx is the body of a Word document.
	Docx *DocxSpec `json:"docx,omitempty"`
	// Pptx is the body of a PowerPoint deck.
	Pptx *PptxSpec `json:"pptx,omitempty"`
	// Xlsx is the body of an Excel workbook.
	Xlsx *XlsxSpec `json:"xlsx,omitempty"`
	// Hwpx is the body of a Hangul document.
	Hwpx *HwpxSpec `json:"hwpx,omitempty"`
}

// DocxSpec is a Word document: one section with an optional header and
// footer.
type DocxSpec struct {
	// Page sets the paper; A4 portrait with 25 mm margins when absent.
	Page *PageSpec `json:"page,omitempty"`
	// Header and Footer are the default header and footer (paragraphs,
	// tables, images; a run with "field":"PAGE" is a page number).
	Header []Block `json:"header,omitempty"`
	Footer []Block `json:"footer,omitempty"`
	// Body is the document content in order.
	Body []Block `json:"body"`
}

// PageSpec is a page size and margin.
type PageSpec struct {
	// Size is "A4" (default) or "Letter".
	Size string `json:"size,omitempty"`
	// Landscape turns the page.
	Landscape bool `json:"landscape,omitempty"`
	// MarginMM is every margin in millimetres (default 25).
	MarginMM float64 `json:"marginMM,omitempty"`
}

// Block is one piece of flow content: an object with exactly one key.
type Block struct {
	// Heading is a heading paragraph (level 1–6).
	Heading *Heading `json:"heading,omitempty"`
	// Paragraph is a paragraph of text or formatted runs.
	Paragraph *Paragraph `json:"paragraph,omitempty"`
	// Table is a table; its cells may hold blocks, nested tables included.
	Table *Table `json:"table,omitempty"`
	// List is a bulleted or numbered list (docx).
	List *List `json:"list,omitempty"`
	// Image is a picture on its own line (docx).
	Image *Image `json:"image,omitempty"`
	// Chart is a native chart (docx).
	Chart *Chart `json:"chart,omitempty"`
	// PageBreak starts a new page (top level of the body only).
	PageBreak bool `json:"pageBreak,omitempty"`
}

// Heading is a heading paragraph of level 1–6 (Word's built-in Heading N
// styles; bold larger text in hwpx).
type Heading struct {
	Level int    `json:"level"`
	Text  string `json:"text,omitempty"`
	Runs  []Run  `json:"runs,omitempty"`
}

// Paragraph is a paragraph given as plain Text or as formatted Runs (not
// both).
type Paragraph struct {
	Text string `json:"text,omitempty"`
	Runs []Run  `json:"runs,omitempty"`
	// Align is "left" (default), "center", "right" or "justify".
	Align string `json:"align,omitempty"`
	// Level is the bullet level of a pptx body paragraph (0–4).
	Level int `json:"level,omitempty"`
}

// Run is a stretch of text with one formatting.
type Run struct {
	Text      string `json:"text,omitempty"`
	Bold      bool   `json:"bold,omitempty"`
	Italic    bool   `json:"italic,omitempty"`
	Underline bool   `json:"underline,omitempty"`
	// Size is the font size in points (0: the style's size).
	Size float64 `json:"size,omitempty"`
	// Color is an RGB hex colour such as "1F4E79".
	Color string `json:"color,omitempty"`
	// Field makes the run a field instead of text: "PAGE" (page number) or
	// "NUMPAGES" (docx only).
	Field string `json:"field,omitempty"`
}

// Table is a table of rows of cells. Merges: a cell spans Span grid
// columns; a vertical merge starts with VMerge "restart" and continues with
// empty cells marked "continue" in the rows below, at the same grid column.
type Table struct {
	// Widths are relative column widths, one per grid column (equal when
	// absent).
	Widths []float64 `json:"widths,omitempty"`
	// HeaderRows is the number of leading rows repeated on every page and
	// shaded as headings.
	HeaderRows int `json:"headerRows,omitempty"`
	// NoBorders draws the table without lines (docx, hwpx).
	NoBorders bool  `json:"noBorders,omitempty"`
	Rows      []Row `json:"rows"`
}

// Row is one table row.
type Row struct {
	Cells []Cell `json:"cells"`
}

// Cell is one table cell, given as plain Text or as Blocks (paragraphs,
// lists, images and nested tables; docx and hwpx only).
type Cell struct {
	Text   string  `json:"text,omitempty"`
	Blocks []Block `json:"blocks,omitempty"`
	// Span is the number of grid columns the cell covers (default 1).
	Span int `json:"span,omitempty"`
	// VMerge is "restart" or "continue" for vertically merged cells.
	VMerge string `json:"vmerge,omitempty"`
	// Shade is an RGB hex background colour.
	Shade string `json:"shade,omitempty"`
	// Bold makes the plain Text bold.
	Bold bool `json:"bold,omitempty"`
}

// List is a bulleted or numbered list (a real numbering definition in
// docx).
type List struct {
	Ordered bool       `json:"ordered,omitempty"`
	Items   []ListItem `json:"items"`
}

// ListItem is one list paragraph at indentation Level 0–8.
type ListItem struct {
	Text  string `json:"text,omitempty"`
	Runs  []Run  `json:"runs,omitempty"`
	Level int    `json:"level,omitempty"`
}

// Image is a PNG or JPEG picture. Src is "artifact:ID": the file named ID
// in the artifacts folder the caller gave (--artifacts DIR). Never a path,
// a URL or a data: URI. The project's own fixtures may also use
// "builtin:NAME" (an image painted in code, see BuiltinImages) or Data
// (base64 PNG).
type Image struct {
	Src  string `json:"src,omitempty"`
	Data string `json:"data,omitempty"`
	// Width and Height are the displayed size in points (default: the
	// pixel size at 96 dpi; one given keeps the aspect ratio).
	Width  float64 `json:"width,omitempty"`
	Height float64 `json:"height,omitempty"`
	// Alt is the alternative text.
	Alt string `json:"alt,omitempty"`
	// Align is "left" (default), "center" or "right" (docx).
	Align string `json:"align,omitempty"`
	// Cell anchors the picture's top-left corner in an xlsx sheet ("H2").
	Cell string `json:"cell,omitempty"`
}

// Chart is a native chart (a DrawingML c:chart part, with its data in an
// embedded workbook) in a docx body or on a slide. Its data is given here:
// one value per category in every series.
type Chart struct {
	// Type is "col", "bar", "line" or "pie".
	Type  string `json:"type"`
	Title string `json:"title,omitempty"`
	// Categories label the data points (the horizontal axis; pie slices).
	Categories []string      `json:"categories"`
	Series     []ChartSeries `json:"series"`
	// Width and Height are the displayed size in points (default 432×252
	// in docx; on a slide the chart fills its area).
	Width  float64 `json:"width,omitempty"`
	Height float64 `json:"height,omitempty"`
}

// ChartSeries is one named row of values, one per category.
type ChartSeries struct {
	Name   string    `json:"name"`
	Values []float64 `json:"values"`
}

// PptxSpec is a PowerPoint deck.
type PptxSpec struct {
	// Size is "16:9" (default) or "4:3".
	Size   string  `json:"size,omitempty"`
	Slides []Slide `json:"slides"`
}

// Slide is one slide: a title, then body paragraphs, a table and a picture
// laid out below it, and speaker notes.
type Slide struct {
	Title string      `json:"title,omitempty"`
	Body  []Paragraph `json:"body,omitempty"`
	Table *Table      `json:"table,omitempty"`
	Image *Image      `json:"image,omitempty"`
	// Chart is a native chart laid out below the title (beside body text
	// or a table, like a picture).
	Chart *Chart `json:"chart,omitempty"`
	// Notes are the speaker notes, one paragraph per line.
	Notes string `json:"notes,omitempty"`
}

// XlsxSpec is an Excel workbook.
type XlsxSpec struct {
	Sheets []Sheet `json:"sheets"`
}

// Sheet is one worksheet. Rows start at A1.
type Sheet struct {
	Name string `json:"name"`
	// Rows hold the cell values from A1: a JSON string (a formula when it
	// starts with "="), number, boolean, null (empty) or an XCell object.
	Rows [][]XCell `json:"rows,omitempty"`
	// ColWidths are column widths in characters from column A.
	ColWidths   []float64     `json:"colWidths,omitempty"`
	Merges      []string      `json:"merges,omitempty"`
	Tables      []XTable      `json:"tables,omitempty"`
	Charts      []XChart      `json:"charts,omitempty"`
	Validations []XValidation `json:"validations,omitempty"`
	Images      []Image       `json:"images,omitempty"`
}

// XTable is an Excel table (ListObject) over Ref, whose first row holds the
// column names.
type XTable struct {
	Name string `json:"name"`
	Ref  string `json:"ref"`
	// Style is a built-in table style (default "TableStyleMedium2").
	Style string `json:"style,omitempty"`
}

// XChart is a native chart anchored at Cell.
type XChart struct {
	// Type is "col", "bar", "line" or "pie".
	Type  string `json:"type"`
	Title string `json:"title,omitempty"`
	Cell  string `json:"cell"`
	// Width and Height in pixels (default 480×290).
	Width  int       `json:"width,omitempty"`
	Height int       `json:"height,omitempty"`
	Series []XSeries `json:"series"`
}

// XSeries is one chart series: references such as "Sheet1!$B$2:$B$5" to
// cells of the workbook (Name is one cell holding the series name).
type XSeries struct {
	Name       string `json:"name,omitempty"`
	Categories string `json:"categories,omitempty"`
	Values     string `json:"values"`
}

// XValidation is a list data validation (a drop-down) over Ref.
type XValidation struct {
	Ref  string   `json:"ref"`
	List []string `json:"list"`
}

// HwpxSpec is a Hangul document: sections of paragraphs and tables.
type HwpxSpec struct {
	Sections []HSection `json:"sections"`
}

// HSection is one section (Contents/sectionN.xml): headings, paragraphs,
// tables and page breaks.
type HSection struct {
	Blocks []Block `json:"blocks"`
}

// Caps on every dimension of a spec. A spec exceeding one is rejected with
// the JSON path and the cap; writers can then size everything safely. The
// totals keep every part of the output well inside the inspector's limits
// (formats.DefaultLimits: 256 MiB per part, 16 MiB per XML token) and the
// renderer's page cap (MaxPages), so that `editaudit check` passes what
// synth writes.
const (
	MaxSpecBytes      = 32 << 20  // the JSON text
	MaxBlocks         = 5000      // blocks in one body, header, footer, cell or section
	MaxTotalBlocks    = 50000     // blocks in the whole document, nested ones included
	MaxRuns           = 500       // runs in one paragraph
	MaxTotalRuns      = 500000    // runs in the whole document
	MaxTextLen        = 32767     // characters in one text value (Excel's cell limit)
	MaxTitleLen       = 1000      // characters of the document title
	MaxTotalText      = 8_000_000 // characters of text in the whole document
	MaxRows           = 2000      // rows in one table
	MaxCells          = 63        // cells in one table row (Word's column limit)
	MaxTotalCells     = 100000    // table cells in a docx, pptx or hwpx document, nested ones included
	MaxNesting        = 5         // tables inside table cells, levels deep
	MaxListItems      = 2000      // items in one list
	MaxImageBytes     = 4 << 20   // one image file (PNG or JPEG)
	MaxTotalImage     = 32 << 20  // all images of a document
	MaxImagePixels    = 4096      // width or height of one image in pixels
	MaxImagePoints    = 2000      // displayed width or height in points
	MaxSlides         = 500       // slides in a deck
	MaxSlideParas     = 200       // body paragraphs on one slide
	MaxSlideRows      = 100       // rows of a table on a slide
	MaxSheets         = 100       // worksheets in a workbook
	MaxSheetRows      = 10000     // rows of one sheet
	MaxSheetCols      = 256       // cells in one sheet row
	MaxSheetCells     = 200000    // cells of one workbook
	MaxSheetItems     = 200       // merges, tables, charts, validations or images of one sheet
	MaxFormulaLen     = 8192      // characters of one formula (Excel's limit)
	MaxCharts         = 100       // charts in a docx or pptx document
	MaxChartSeries    = 32        // series of one chart
	MaxChartPoints    = 1000      // categories (data points per series) of a docx or pptx chart
	MaxSections       = 100       // hwpx sections
	MaxValidationList = 255       // characters of a list validation (Excel's limit)
	// MaxPages is the most pages a document may render to: the renderer's
	// own cap (render.DefaultMaxPages), past which check and audit cannot
	// show its pages. Synth counts pages when it renders.
	MaxPages = render.DefaultMaxPages
	// MaxListedErrors is the most errors a SpecErrors lists; the rest are
	// counted in More.
	MaxListedErrors = 50
	maxShapeDepth   = 64 // JSON nesting accepted before the decoder stops
)

// Options say what a spec may use beyond its public forms. The zero value
// is what a model or any outside caller gets: images only as artifact:ID
// handles (and only with Artifacts set), formulas only as typed.
type Options struct {
	// Fixtures allows the project's own test material: images painted in
	// code ("builtin:NAME"), inline base64 images ("data") and formulas
	// written verbatim ("rawFormula", to build deliberately defective
	// files). The project's tests and examples set it.
	Fixtures bool
	// Artifacts resolves "artifact:ID" image handles; nil refuses them.
	Artifacts *Artifacts
}

// ParseSpec reads a spec of the project's own fixtures: Parse with
// Options{Fixtures: true}.
func ParseSpec(r io.Reader) (*Spec, error) { return Parse(r, Options{Fixtures: true}) }

// Parse reads a JSON spec strictly and checks it under o. Unknown keys,
// wrong value types, trailing data, values beyond the caps and forms o
// does not allow are errors naming the JSON path; every problem of the
// spec is found in one pass (a wrong type does not hide a value beyond a
// cap elsewhere). A returned error other than an I/O error is a
// *SpecErrors.
func Parse(r io.Reader, o Options) (*Spec, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxSpecBytes+1))
	if err != nil {
		return nil, fmt.Errorf("synth: read spec: %w", err)
	}
	if len(data) > MaxSpecBytes {
		return nil, &SpecErrors{Errors: []*SpecError{{Path: "$", Msg: fmt.Sprintf("the spec is more than %d bytes", MaxSpecBytes), Cap: MaxSpecBytes}}}
	}
	// Generic JSON first: decoding it against the spec types by reflection
	// gives every wrong key or type with its JSON path (encoding/json's own
	// errors carry none) and keeps going.
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var raw any
	if err := dec.Decode(&raw); err != nil {
		return nil, &SpecErrors{Errors: []*SpecError{{Path: "$", Msg: "not valid JSON: " + err.Error()}}}
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, &SpecErrors{Errors: []*SpecError{{Path: "$", Msg: "trailing data after the JSON object"}}}
	}
	var s Spec
	d := &decoder{}
	d.decode("$", raw, reflect.ValueOf(&s).Elem(), 0)
	v := newValidator(o)
	v.spec(&s)
	if err := mergeErrors(&d.errs, &v.errs); err != nil {
		return nil, err
	}
	return &s, nil
}

// Validate checks a spec built in code as ParseSpec checks JSON (the
// project's fixtures allowed).
func (s *Spec) Validate() error { return s.Check(Options{Fixtures: true}) }

// Check checks a spec built in code under o: required fields, allowed
// values, merges, references and every cap. The error is a *SpecErrors.
func (s *Spec) Check(o Options) error {
	v := newValidator(o)
	v.spec(s)
	return mergeErrors(nil, &v.errs)
}

// FormatOf returns the spec's format as a formats.Format.
func (s *Spec) FormatOf() formats.Format { return formats.Format(s.Format) }
