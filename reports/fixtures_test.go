package reports

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/jpeg"
	"testing"

	"github.com/editaudit/editaudit/audit"
	"github.com/editaudit/editaudit/content"
	"github.com/editaudit/editaudit/formats"
)

// fixture is one hand-built Result the golden files are made from.
type fixture struct {
	name   string
	result func(t testing.TB) *audit.Result
}

// fixtures are the four audits of the golden tests: a blocked edit that was
// restored; a passing edit that lost nested tables and changed, inserted
// and reflowed pages; a passing edit whose pages could not be rendered; an
// edit with more new findings than the feedback lists.
var fixtures = []fixture{
	{"blocked-restored", blockedRestored},
	{"passed-shrunk-pages", passedShrunkPages},
	{"pages-failed", pagesFailed},
	{"many-findings", manyFindings},
}

func sha(seed string) string {
	// A fixed digest per seed: the fixtures never read files.
	h := sha256.Sum256([]byte(seed))
	return hex.EncodeToString(h[:])
}

func blockedRestored(testing.TB) *audit.Result {
	return &audit.Result{
		Schema:       audit.Schema,
		Original:     audit.FileInfo{Path: "templates/contract.docx", SHA256: sha("orig1"), Format: formats.DOCX},
		Edited:       audit.FileInfo{Path: "work/contract.docx", SHA256: sha("edit1"), Format: formats.DOCX},
		Blocked:      true,
		Restored:     true,
		RejectedCopy: "rejected.docx",
		NewFindings: []formats.Finding{{
			Code: formats.CodeXMLIllegalChar, Grade: formats.Fatal, Part: "word/document.xml",
			Line: 2, Column: 19965, Locator: "/w:document/w:body/w:p[31]/w:r[2]/w:t",
			Message: "Control character U+0001 in text \"Party A\\x01 shall\"; XML 1.0 (§2.2 Char) forbids it, so Word refuses the file.",
			Fix:     "Remove the character, or replace it with a space, before saving.",
			Anchor:  "U+0001 Party A",
		}},
		Preexisting: formats.Tally{Total: 411, Fatal: 9, Error: 12, Warning: 380, Info: 10},
		Structure: audit.Structure{
			Before: formats.Counts{"tables": 5, "rows": 20, "cells": 60, "paragraphs": 80},
			After:  formats.Counts{"tables": 5, "rows": 20, "cells": 60, "paragraphs": 80},
		},
		Pages:   audit.Pages{Status: audit.PagesOff, Message: "not asked for (--render off)"},
		Content: content.Off(),
	}
}

func passedShrunkPages(t testing.TB) *audit.Result {
	return &audit.Result{
		Schema:   audit.Schema,
		Original: audit.FileInfo{Path: "templates/contract.docx", SHA256: sha("orig2"), Format: formats.DOCX, Pages: 8},
		Edited:   audit.FileInfo{Path: "work/contract-edited.docx", SHA256: sha("edit2"), Format: formats.DOCX, Pages: 9},
		NewFindings: []formats.Finding{{
			Code: formats.CodeRelsOrphanPart, Grade: formats.Warning, Part: "word/media/image3.png",
			Message: "Part word/media/image3.png is not the target of any relationship; Word ignores it and may drop it on save.",
			Fix:     "Delete the part, or reference it from word/_rels/document.xml.rels.",
		}},
		Preexisting: formats.Tally{Total: 3, Error: 1, Warning: 2},
		Resolved: []formats.Finding{
			{Code: "docx.tc-no-final-p", Grade: formats.Fatal, Part: "word/document.xml", Line: 2, Column: 8812,
				Message: "Table cell without a final paragraph."},
			{Code: formats.CodeRelsOrphanPart, Grade: formats.Warning, Part: "word/media/image1.emf",
				Message: "Part word/media/image1.emf is not the target of any relationship."},
		},
		Structure: audit.Structure{
			Before: formats.Counts{"tables": 5, "rows": 20, "cells": 60, "paragraphs": 80},
			After:  formats.Counts{"tables": 1, "rows": 14, "cells": 52, "paragraphs": 86},
			Shrunk: []audit.Shrink{
				{Metric: "cells", Before: 60, After: 52, Where: "body table 3, row 2, cell 2: 8 cells removed with the nested tables"},
				{Metric: "rows", Before: 20, After: 14, Where: "body table 3, row 2, cell 2: 6 rows removed with the nested tables"},
				{Metric: "tables", Before: 5, After: 1, Where: "body table 3, row 2, cell 2: 2 nested tables removed; body table 3, row 4, cell 1: 2 nested tables removed"},
			},
		},
		Pages: audit.Pages{
			Status: audit.PagesOK, Before: 8, After: 9,
			Changed: []audit.ChangedPage{
				{Before: 2, After: 2, Ratio: 0.013, Boxes: [][4]int{{120, 340, 980, 420}}},
				{Before: 5, After: 6, Ratio: 0.0042, Boxes: [][4]int{{100, 100, 600, 140}, {100, 700, 500, 760}}},
				{Before: 8, After: 9, Ratio: 0.0006, Boxes: [][4]int{{560, 1540, 640, 1570}}, MarginsOnly: true},
			},
			Inserted: []int{3},
			Reflowed: []audit.Reflow{{From: 4, To: 5, Cause: 3}},
			Shown: []audit.ShownPage{
				{Before: 2, After: 2, Image: "pages/p2.jpg", JPEG: composite(t, 2, true, true)},
				{Before: 0, After: 3, Image: "pages/p3.jpg", JPEG: composite(t, 3, false, true)},
				{Before: 5, After: 6, Image: "pages/p6.jpg", JPEG: composite(t, 6, true, true)},
			},
			NotShown:  []int{9},
			Toolchain: "LibreOffice 24.2.7.2; pdftoppm 24.02.0; 100 dpi; fonts 3c1f9a0e",
		},
		Content: &content.Result{Status: content.StatusOK,
			Changes: []content.Change{
				{Kind: content.KindText, Part: "word/document.xml", Where: "body paragraph 12",
					Before: "The Supplier shall deliver the goods within 30 days of the order.",
					After:  "The Supplier shall deliver the goods within 45 days of the order <b>.",
					Detail: `replaced "30" with "45"; inserted "<b>"`,
					Diff: []content.Op{{Op: "=", Text: "…Supplier shall deliver the goods within "}, {Op: "-", Text: "30"}, {Op: "+", Text: "45"},
						{Op: "=", Text: " days of the order"}, {Op: "+", Text: " <b>"}, {Op: "=", Text: "."}}},
				{Kind: content.KindFormat, Part: "word/document.xml", Where: "body table 2, row 12, cell 2, paragraph 4",
					Before: "bold; font Comic Sans MS", After: "not bold; font Times New Roman",
					Detail: "3 bold runs became plain; font Comic Sans MS → Times New Roman on 4 runs",
					Text:   "Regulatory Action Level (AL): The concentration of a contaminant which, if exceeded, triggers treatment", Lost: true},
				{Kind: content.KindDeleted, Part: "word/document.xml", Where: "body paragraph 20", Before: "This clause survives termination."},
				{Kind: content.KindInserted, Part: "word/document.xml", Where: "body paragraph 21", After: "Either party may terminate with 60 days' notice."},
				{Kind: content.KindMoved, Part: "word/document.xml", Where: "body paragraph 3", From: "body paragraph 40",
					Before: "Definitions", After: "Definitions", Detail: "moved from body paragraph 40"},
				{Kind: content.KindText, Part: "word/footer1.xml", Where: "footer1.xml paragraph 1", Before: "Draft", After: "Final",
					Detail: `replaced "Draft" with "Final"`, Diff: []content.Op{{Op: "-", Text: "Draft"}, {Op: "+", Text: "Final"}}},
			},
			Summary: content.Summary{UnitsBefore: 80, UnitsAfter: 86, Unchanged: 75, Changed: 5, Text: 3, Format: 1,
				Inserted: 7, Deleted: 1, Moved: 1, FormattingLost: 1, ChangedShare: 0.0625},
			Truncated: 6,
		},
	}
}

func pagesFailed(testing.TB) *audit.Result {
	return &audit.Result{
		Schema:   audit.Schema,
		Original: audit.FileInfo{Path: "budget.xlsx", SHA256: sha("orig3"), Format: formats.XLSX},
		Edited:   audit.FileInfo{Path: "budget-edited.xlsx", SHA256: sha("edit3"), Format: formats.XLSX},
		NewFindings: []formats.Finding{
			{Code: "xlsx.calc-manual", Grade: formats.Warning, Part: "xl/workbook.xml", Line: 2, Column: 611,
				Locator: "/workbook/calcPr", Message: "Calculation mode is manual: Excel shows the cached values, which the edit made stale.",
				Fix: "Set calcPr/@calcMode to \"auto\" or remove the attribute, and set fullCalcOnLoad=\"1\"."},
			{Code: "xlsx.future-function-prefix", Grade: formats.Error, Part: "xl/worksheets/sheet2.xml", Line: 2, Column: 4410,
				Locator: "/worksheet/sheetData/row[14]/c[3]/f", Message: "XLOOKUP(A2,Prices!A:A,Prices!B:B) lacks the _xlfn. prefix; Excel shows #NAME? until the cell is edited.",
				Fix: "Write the function as _xlfn.XLOOKUP in the file's formula text."},
		},
		Structure: audit.Structure{
			Before: formats.Counts{"sheets": 3, "charts": 1, "defined_names": 4},
			After:  formats.Counts{"sheets": 3, "charts": 1, "defined_names": 4},
		},
		Pages: audit.Pages{Status: audit.PagesFailed,
			Message: "LibreOffice crashed converting the edited file (signal 11) after 2 retries"},
		Content: &content.Result{Status: content.StatusOK,
			Changes: []content.Change{
				{Kind: content.KindText, Part: "xl/workbook.xml", Where: "sheet 'Prices'", Before: "Prices", After: "Price list", Detail: "sheet renamed"},
				{Kind: content.KindCell, Part: "xl/worksheets/sheet2.xml", Where: "'Price list'!C14", Before: "=VLOOKUP(A2,Prices!A:B,2)", After: "=XLOOKUP(A2,Prices!A:A,Prices!B:B)", Detail: "formula changed"},
				{Kind: content.KindCell, Part: "xl/worksheets/sheet2.xml", Where: "'Price list'!D14", Before: "12.5", After: "12.50", Detail: "type number → text"},
				{Kind: content.KindFormat, Part: "xl/worksheets/sheet2.xml", Where: "'Price list'!D15", Before: `number format "$"#,##0.00`, After: "number format General",
					Detail: `number format "$"#,##0.00 → General on 1 cell`, Text: "2500"},
				{Kind: content.KindInserted, Part: "xl/worksheets/sheet3.xml", Where: "sheet 'Notes'", After: "Notes", Detail: "sheet added with 4 cells"},
			},
			Summary: content.Summary{UnitsBefore: 412, UnitsAfter: 416, Unchanged: 409, Changed: 3, Text: 1, Format: 1, Cells: 2,
				Inserted: 4, ChangedShare: 0.0073, SheetsAdded: 1, SheetsRenamed: 1},
		},
	}
}

func manyFindings(testing.TB) *audit.Result {
	var fs []formats.Finding
	// 5 fatal, 9 error, 10 warning, 3 info: 27 findings, more than the cap
	// of 20, listed in shuffled order to prove the writer sorts them.
	grades := []struct {
		g formats.Grade
		n int
	}{{formats.Info, 3}, {formats.Warning, 10}, {formats.Error, 9}, {formats.Fatal, 5}}
	for _, gr := range grades {
		for i := 0; i < gr.n; i++ {
			f := formats.Finding{Grade: gr.g, Part: fmt.Sprintf("Contents/section%d.xml", i%3),
				Line: 2, Column: 100 + 37*i, Locator: fmt.Sprintf("/hs:sec/hp:p[%d]/hp:run[1]/hp:t", 3+i)}
			switch gr.g {
			case formats.Fatal:
				f.Code, f.Message, f.Fix = formats.CodeXMLIllegalChar, fmt.Sprintf("Control character U+%04X in text.", 1+i), "Remove the character."
			case formats.Error:
				f.Code, f.Message, f.Fix = formats.CodeRelsTargetMissing, fmt.Sprintf("Relationship rId%d points to BinData/image%d.png, which is not in the package.", 10+i, i), "Add the part or remove the reference."
			case formats.Warning:
				f.Code, f.Message = formats.CodeRelsOrphanPart, fmt.Sprintf("Part BinData/old%d.bmp is not the target of any relationship.", i)
				f.Part, f.Line, f.Column, f.Locator = fmt.Sprintf("BinData/old%d.bmp", i), 0, 0, ""
			case formats.Info:
				f.Code, f.Message = formats.CodeCTDuplicateDefault, "Extension png has two Default content types; the first one wins."
				f.Part, f.Line, f.Column, f.Locator = "[Content_Types].xml", 2, 60+i, "/Types/Default[3]"
			}
			fs = append(fs, f)
		}
	}
	return &audit.Result{
		Schema:      audit.Schema,
		Original:    audit.FileInfo{Path: "forms/application.hwpx", SHA256: sha("orig4"), Format: formats.HWPX},
		Edited:      audit.FileInfo{Path: "forms/application-filled.hwpx", SHA256: sha("edit4"), Format: formats.HWPX},
		Blocked:     true,
		NewFindings: fs,
		Preexisting: formats.Tally{Total: 1, Fatal: 1},
		Structure: audit.Structure{
			Before: formats.Counts{"sections": 3, "paragraphs": 120, "tables": 4},
			After:  formats.Counts{"sections": 3, "paragraphs": 118, "tables": 4},
			Shrunk: []audit.Shrink{{Metric: "paragraphs", Before: 120, After: 118}},
		},
		Pages: audit.Pages{Status: audit.PagesUnsupported, Message: "LibreOffice cannot open .hwpx files"},
		Content: &content.Result{Status: content.StatusPartial,
			Message: "Contents/section2.xml did not parse in the edited file (XML syntax error on line 2: unexpected EOF); it was left out on both sides",
			Changes: []content.Change{{Kind: content.KindText, Part: "Contents/section0.xml", Where: "section 1, table 1, row 3, cell 1",
				Before: "5", After: "50", Detail: `replaced "5" with "50"`, Diff: []content.Op{{Op: "-", Text: "5"}, {Op: "+", Text: "50"}}}},
			Summary: content.Summary{UnitsBefore: 80, UnitsAfter: 80, Unchanged: 79, Changed: 1, Text: 1, ChangedShare: 0.0125},
		},
	}
}

// composite draws a small before | after page pair the way the page
// comparison does (changed regions outlined in red on both sides) and
// encodes it as JPEG. before or after false leaves that side blank grey
// (an inserted or deleted page).
func composite(t testing.TB, seed int, before, after bool) []byte {
	t.Helper()
	const pw, ph, gap = 240, 320, 12
	img := image.NewRGBA(image.Rect(0, 0, 2*pw+3*gap, ph+2*gap))
	draw.Draw(img, img.Bounds(), &image.Uniform{color.RGBA{0xe9, 0xed, 0xf1, 0xff}}, image.Point{}, draw.Src)
	for side, present := range []bool{before, after} {
		r := image.Rect(gap+side*(pw+gap), gap, gap+side*(pw+gap)+pw, gap+ph)
		if !present {
			draw.Draw(img, r, &image.Uniform{color.RGBA{0xd0, 0xd7, 0xde, 0xff}}, image.Point{}, draw.Src)
			continue
		}
		drawPage(img, r, seed, side == 1)
		if before && after {
			outline(img, image.Rect(r.Min.X+18, r.Min.Y+60+5*14-4, r.Max.X-18, r.Min.Y+60+8*14-2), color.RGBA{0xcf, 0x22, 0x2e, 0xff})
		}
	}
	return encodeJPEG(t, img)
}

// pageImage draws one rendered page, as `check` attaches them.
func pageImage(t testing.TB, seed int) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, 240, 320))
	drawPage(img, img.Bounds(), seed, false)
	return encodeJPEG(t, img)
}

// drawPage draws a page with a heading, lines of "text" and a table into r;
// edited shortens three lines, the change the composites outline.
func drawPage(img *image.RGBA, r image.Rectangle, seed int, edited bool) {
	draw.Draw(img, r, image.White, image.Point{}, draw.Src)
	ink := &image.Uniform{color.RGBA{0x44, 0x4c, 0x56, 0xff}}
	grey := &image.Uniform{color.RGBA{0x8c, 0x95, 0x9f, 0xff}}
	x0, y0 := r.Min.X, r.Min.Y
	draw.Draw(img, image.Rect(x0+24, y0+28, x0+24+120+seed*4, y0+38), ink, image.Point{}, draw.Src)
	for i := 0; i < 9; i++ {
		w := 150 + (i*37+seed*11)%40
		if edited && i >= 5 && i <= 7 {
			w = 90 + (i*13)%60
		}
		y := y0 + 60 + i*14
		draw.Draw(img, image.Rect(x0+24, y, x0+24+w, y+5), grey, image.Point{}, draw.Src)
	}
	for i := 0; i <= 3; i++ {
		y := y0 + 210 + i*22
		draw.Draw(img, image.Rect(x0+24, y, r.Max.X-24, y+1), ink, image.Point{}, draw.Src)
	}
}

func encodeJPEG(t testing.TB, img image.Image) []byte {
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, img, &jpeg.Options{Quality: 80}); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func outline(img *image.RGBA, r image.Rectangle, c color.RGBA) {
	u := &image.Uniform{c}
	for _, e := range []image.Rectangle{
		{r.Min, image.Pt(r.Max.X, r.Min.Y+2)}, {image.Pt(r.Min.X, r.Max.Y-2), r.Max},
		{r.Min, image.Pt(r.Min.X+2, r.Max.Y)}, {image.Pt(r.Max.X-2, r.Min.Y), r.Max},
	} {
		draw.Draw(img, e, u, image.Point{}, draw.Src)
	}
}
