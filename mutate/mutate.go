package mutate

import (
	"errors"
	"fmt"
	"strings"

	"github.com/editaudit/editaudit/formats"
)

// Expectation is the audit outcome an injector promises when an edited
// file is compared with its original.
type Expectation struct {
	// Blocked: the audit must block (a new fatal finding).
	Blocked bool `json:"blocked"`
	// Code and Grade: the new finding the audit must report ("" when the
	// edit adds no finding).
	Code  string        `json:"code,omitempty"`
	Grade formats.Grade `json:"grade,omitempty"`
	// Shrinks lists the structure metrics (the counts keys of DESIGN.md and
	// formats: tables, nested_tables, rows, cells, paragraphs, slides,
	// runs, notes, charts, images…) that must drop; no other metric may
	// drop. It is asserted for kinds that are not blocked: a defect that
	// makes a part unparsable also makes it uncountable.
	Shrinks []string `json:"shrinks,omitempty"`
	// PagesChange: the rendered pages differ (a page changed, was inserted
	// or deleted). Like Shrinks it is stated for edits that keep the file
	// openable; for a blocked file the renderer shows whatever it
	// salvages, and the value is false by convention (not asserted).
	PagesChange bool `json:"pages_change"`
}

// String renders the expectation on one line, as `mutate --list` prints
// it: "blocked fatal xml.illegal-char" or "passes; shrinks tables,rows;
// pages change".
func (e Expectation) String() string {
	var parts []string
	if e.Blocked {
		parts = append(parts, "blocked")
	} else {
		parts = append(parts, "passes")
	}
	if e.Code != "" {
		parts = append(parts, string(e.Grade)+" "+e.Code)
	}
	if len(e.Shrinks) > 0 {
		parts = append(parts, "shrinks "+strings.Join(e.Shrinks, ","))
	}
	if !e.Blocked {
		if e.PagesChange {
			parts = append(parts, "pages change")
		} else {
			parts = append(parts, "pages unchanged")
		}
	}
	return strings.Join(parts, "; ")
}

// Mutation describes one injector: its kind, what it does (and which
// library or bug it imitates), the formats it applies to and the expected
// audit outcome.
type Mutation struct {
	Kind        string           `json:"kind"`
	Description string           `json:"description"`
	Formats     []formats.Format `json:"formats"`
	Expect      Expectation      `json:"expect"`
}

// Applied is the result of one injection: the new file, the expectation
// for this input (Shrinks can be narrower than the kind's listing, e.g.
// an openpyxl resave of a workbook with charts but no images), and a note
// saying exactly what was changed.
type Applied struct {
	Data   []byte
	Expect Expectation
	Note   string
}

// Errors of Mutate and Apply.
var (
	// ErrUnknownKind: no injector has that kind.
	ErrUnknownKind = errors.New("mutate: unknown mutation kind")
	// ErrNotApplicable: the input lacks what the injector needs (a nested
	// table, an image, a second slide…) or is of another format.
	ErrNotApplicable = errors.New("mutate: mutation not applicable")
)

// injector is one entry of the table: the public description and the
// function that edits the package. apply returns a note and, when the
// shrink depends on the input, the exact list (nil: Expect.Shrinks).
type injector struct {
	Mutation
	apply func(p *zpkg, f formats.Format) (note string, shrinks []string, err error)
}

// Mutations lists every injector in a fixed order: edit damage, benign
// edits, then defects.
func Mutations() []Mutation {
	inj := injectors()
	out := make([]Mutation, len(inj))
	for i, in := range inj {
		out[i] = in.Mutation
		out[i].Formats = append([]formats.Format(nil), in.Formats...)
		out[i].Expect.Shrinks = append([]string(nil), in.Expect.Shrinks...)
	}
	return out
}

// Mutate applies the named injector to a file and returns the new file.
// Every entry it does not change is copied byte for byte.
func Mutate(kind string, in []byte) ([]byte, error) {
	a, err := Apply(kind, in)
	if err != nil {
		return nil, err
	}
	return a.Data, nil
}

// Apply is Mutate with the expectation for this input and a note.
func Apply(kind string, in []byte) (*Applied, error) {
	var inj *injector
	for _, x := range injectors() {
		if x.Kind == kind {
			inj = &x
			break
		}
	}
	if inj == nil {
		return nil, fmt.Errorf("%w %q (see mutate --list)", ErrUnknownKind, kind)
	}
	p, err := openPkg(in)
	if err != nil {
		return nil, err
	}
	f := detectFormat(p)
	ok := false
	for _, g := range inj.Formats {
		if g == f {
			ok = true
		}
	}
	if !ok {
		return nil, fmt.Errorf("%w: %s applies to %s, the input is %s", ErrNotApplicable, kind, formatList(inj.Formats), f)
	}
	note, shrinks, err := inj.apply(p, f)
	if err != nil {
		return nil, fmt.Errorf("mutate: %s: %w", kind, err)
	}
	out, err := p.bytes()
	if err != nil {
		return nil, fmt.Errorf("mutate: %s: write: %w", kind, err)
	}
	exp := inj.Expect
	exp.Shrinks = append([]string(nil), inj.Expect.Shrinks...)
	if shrinks != nil {
		exp.Shrinks = shrinks
	}
	return &Applied{Data: out, Expect: exp, Note: note}, nil
}

func formatList(fs []formats.Format) string {
	var s []string
	for _, f := range fs {
		s = append(s, string(f))
	}
	return strings.Join(s, ", ")
}

// detectFormat tells the format from the package content: the hwpx
// mimetype, else the main part the package relationships name.
func detectFormat(p *zpkg) formats.Format {
	if b, err := p.read("mimetype"); err == nil && strings.TrimSpace(string(b)) == "application/hwp+zip" {
		return formats.HWPX
	}
	switch {
	case p.has("word/document.xml"):
		return formats.DOCX
	case p.has("ppt/presentation.xml"):
		return formats.PPTX
	case p.has("xl/workbook.xml"):
		return formats.XLSX
	}
	if main, err := mainPart(p); err == nil {
		switch {
		case strings.HasPrefix(main, "word/"):
			return formats.DOCX
		case strings.HasPrefix(main, "ppt/"):
			return formats.PPTX
		case strings.HasPrefix(main, "xl/"):
			return formats.XLSX
		}
	}
	return formats.Unknown
}

// injectors is the table. A validator-specific injector (e.g.
// docx.tc-no-final-p, xlsx.let-without-xlpm) is one more entry: a kind, a
// description, its formats, the expectation with the validator's code and
// grade, and an apply function built from the helpers in pkg.go.
func injectors() []injector {
	docxShrink := []string{"tables", "nested_tables", "rows", "cells", "paragraphs"}
	ooxml := []formats.Format{formats.DOCX, formats.PPTX, formats.XLSX}
	allFour := []formats.Format{formats.DOCX, formats.PPTX, formats.XLSX, formats.HWPX}
	return []injector{
		// Edit damage that validators cannot see.
		{Mutation{Kind: "docx.nested-tables-wiped", Formats: []formats.Format{formats.DOCX},
			Description: "python-docx's cell.text setter on the first cell holding nested tables: every paragraph and nested table of the cell is replaced by one paragraph with the cell's own text",
			Expect:      Expectation{Shrinks: docxShrink, PagesChange: true}}, applyNestedTablesWiped},
		{Mutation{Kind: "docx.row-deleted", Formats: []formats.Format{formats.DOCX},
			Description: "the last row of the first body table with at least two rows is removed (a row without nested tables or vertical merges), as tbl._tbl.remove(row._tr) does",
			Expect:      Expectation{Shrinks: []string{"rows", "cells", "paragraphs"}, PagesChange: true}}, applyDocxRowDeleted},
		{Mutation{Kind: "pptx.slide-deleted", Formats: []formats.Format{formats.PPTX},
			Description: "a slide with text (the second, else the first) is deleted the python-pptx way: its sldId and relationship are removed and the parts only it used (slide, notes slide, media) are dropped on save with their content-type overrides; notes and tables shrink too when the slide had them",
			Expect:      Expectation{Shrinks: []string{"slides", "paragraphs", "runs"}, PagesChange: true}}, applySlideDeleted},
		{Mutation{Kind: "pptx.runs-dropped", Formats: []formats.Format{formats.PPTX},
			Description: "in the first slide paragraph with two or more runs every run but the first is deleted (paragraph.text rewrites that keep only runs[0])",
			Expect:      Expectation{Shrinks: []string{"runs"}, PagesChange: true}}, applyRunsDropped},
		{Mutation{Kind: "xlsx.openpyxl-resave", Formats: []formats.Format{formats.XLSX},
			Description: "openpyxl's load/save drops drawings: each worksheet's <drawing> element and relationship go, with the drawing, chart and image parts and their content-type overrides",
			Expect:      Expectation{Shrinks: []string{"charts", "images"}, PagesChange: true}}, applyOpenpyxlResave},
		{Mutation{Kind: "xlsx.row-deleted", Formats: []formats.Format{formats.XLSX},
			Description: "the last row holding values in the first worksheet is removed (openpyxl delete_rows on a trailing row; calcChain.xml is dropped as openpyxl does when the row had formulas); cells are not a structure metric for xlsx, so only the pages show it",
			Expect:      Expectation{PagesChange: true}}, applyXlsxRowDeleted},
		// Benign edits.
		{Mutation{Kind: "docx.paragraph-appended", Formats: []formats.Format{formats.DOCX},
			Description: "one paragraph of text is appended at the end of the body, before sectPr",
			Expect:      Expectation{PagesChange: true}}, applyParagraphAppended},
		{Mutation{Kind: "docx.word-replaced", Formats: []formats.Format{formats.DOCX},
			Description: "one word of four or more letters in the first body text is replaced by another word of the same length",
			Expect:      Expectation{PagesChange: true}}, applyWordReplaced},
		{Mutation{Kind: "docx.page-break-top", Formats: []formats.Format{formats.DOCX},
			Description: "a paragraph holding a page break is inserted at the start of the body: every page moves one page down",
			Expect:      Expectation{PagesChange: true}}, applyPageBreakTop},
		{Mutation{Kind: "pptx.word-replaced", Formats: []formats.Format{formats.PPTX},
			Description: "one word of four or more letters in the first slide text is replaced by another word of the same length",
			Expect:      Expectation{PagesChange: true}}, applyWordReplaced},
		{Mutation{Kind: "xlsx.value-changed", Formats: []formats.Format{formats.XLSX},
			Description: "the first numeric constant of the first worksheet is increased by one (a shared string is changed when there is no number)",
			Expect:      Expectation{PagesChange: true}}, applyValueChanged},
		{Mutation{Kind: "zip.repacked", Formats: allFour,
			Description: "every entry is rewritten uncompressed (stored), content untouched: a control that must change nothing",
			Expect:      Expectation{}}, applyRepacked},
		// Defects (codes of formats/codes.go; grades per DEFECTS.md).
		{Mutation{Kind: "xml.illegal-char", Formats: allFour,
			Description: "U+000B (a vertical tab, what Word's manual line break becomes when pasted through some libraries) is written raw into the middle of the first body text node; XML 1.0 forbids it",
			Expect:      Expectation{Blocked: true, Code: formats.CodeXMLIllegalChar, Grade: formats.Fatal}}, applyIllegalChar},
		{Mutation{Kind: "xml.not-well-formed", Formats: allFour,
			Description: "an unescaped ' & ' is written into the first body text node (string-built XML without escaping)",
			Expect:      Expectation{Blocked: true, Code: formats.CodeXMLNotWellFormed, Grade: formats.Fatal}}, applyNotWellFormed},
		{Mutation{Kind: "ct.no-type", Formats: []formats.Format{formats.PPTX, formats.XLSX},
			Description: "the content-type Override of the first slide (pptx) or worksheet (xlsx) is removed and so is the Default for the xml extension, so the part resolves to no type at all (pandoc#11492)",
			Expect:      Expectation{Blocked: true, Code: formats.CodeCTNoType, Grade: formats.Fatal}}, applyCTNoType},
		{Mutation{Kind: "ct.wrong-main-type", Formats: []formats.Format{formats.PPTX, formats.XLSX},
			Description: "the content-type Override of the first slide (pptx) or worksheet (xlsx) is removed while the Default for xml (application/xml) stays, so the part falls back to application/xml (pandoc#9003)",
			Expect:      Expectation{Blocked: true, Code: formats.CodeCTWrongMainType, Grade: formats.Fatal}}, applyCTWrongMainType},
		{Mutation{Kind: "rels.target-missing", Formats: ooxml,
			Description: "the first image part is deleted from the zip while its relationship stays (and its Override, if any, goes)",
			Expect:      Expectation{Blocked: true, Code: formats.CodeRelsTargetMissing, Grade: formats.Fatal}}, applyTargetMissing},
		{Mutation{Kind: "rels.undefined-id", Formats: ooxml,
			Description: "the first r:embed of a picture is changed to rIdX999, an id its part's relationships do not define",
			Expect:      Expectation{Blocked: true, Code: formats.CodeRelsUndefinedID, Grade: formats.Fatal}}, applyUndefinedID},
	}
}
