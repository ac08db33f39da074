package render

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"regexp"
	"strconv"
	"time"
)

// Target is a conversion other than to PDF: a LibreOffice export filter
// (`soffice --convert-to EXT:FILTER`), optionally with formulas
// recalculated when the document is loaded. The zero Target is PDF.
type Target struct {
	// Ext is the extension of the result, without the dot ("xlsx").
	Ext string
	// Filter is LibreOffice's export filter name ("Calc Office Open XML");
	// empty lets LibreOffice pick the default filter for Ext.
	Filter string
	// Recalc recalculates every formula when LibreOffice loads the
	// document (Calc's OOXMLRecalcMode and ODFRecalcMode set to 0,
	// "always", in the profile of that run; LibreOffice's default, 1, keeps
	// the cached values a file carries), so the saved file carries values
	// LibreOffice computed.
	Recalc bool
}

// XLSXRecalc is the Target of a workbook saved back as xlsx with every
// formula recalculated by LibreOffice.
var XLSXRecalc = Target{Ext: "xlsx", Filter: "Calc Office Open XML", Recalc: true}

// pdfTarget is what ConvertPDF converts to.
var pdfTarget = Target{Ext: "pdf"}

func (t Target) ext() string {
	if t.Ext == "" {
		return "pdf"
	}
	return t.Ext
}

// arg is the --convert-to argument.
func (t Target) arg() string {
	if t.Filter == "" {
		return t.ext()
	}
	return t.ext() + ":" + t.Filter
}

// key tells targets apart in the pool's de-duplication and batching.
func (t Target) key() string { return fmt.Sprintf("%s|%s|%v", t.ext(), t.Filter, t.Recalc) }

// Exporter converts a document into another format through LibreOffice.
// Pool implements it with the same batching, deadlines and quarantine as
// ConvertPDF (a batch holds one Target); another Converter (a warm
// LibreOffice behind a UNO listener) implements it by loading the
// document, calculating (XCalculatable.calculateAll when Recalc) and
// storing it with the filter.
type Exporter interface {
	// ConvertTo converts docPath (only read) to target and returns the new
	// file's path; the caller owns it and removes it. Errors are those of
	// Converter.ConvertPDF.
	ConvertTo(ctx context.Context, docPath string, target Target) (string, error)
}

// recalcSettings are added to the profile of runs whose Target recalculates
// (sc/inc/calcconfig.hxx ScRecalcOptions: 0 RECALC_ALWAYS, 1 RECALC_NEVER,
// 2 RECALC_ASK; officecfg Calc.xcs Formula/Load). They stay out of the
// rendering profile: a render shows the values a file carries, as Excel
// does when it opens a workbook saved by itself.
var recalcSettings = []xcuSetting{
	{"/org.openoffice.Office.Calc/Formula/Load", "OOXMLRecalcMode", "xs:int", "0"},
	{"/org.openoffice.Office.Calc/Formula/Load", "ODFRecalcMode", "xs:int", "0"},
}

var pdfPagesRe = regexp.MustCompile(`(?m)^Pages:\s+(\d+)\s*$`)

// CountPDFPages returns the number of pages of a PDF (poppler's pdfinfo, or
// MuPDF's mutool without poppler). A missing tool is ErrNoRenderer.
func CountPDFPages(ctx context.Context, pdfPath string) (int, error) {
	if _, err := exec.LookPath("pdfinfo"); err != nil {
		if _, merr := exec.LookPath("mutool"); merr == nil {
			out, err := runOutput(ctx, time.Minute, "mutool", "show", pdfPath, "trailer/Root/Pages/Count")
			if err != nil {
				return 0, &RenderError{Doc: pdfPath, Reason: ReasonRasterize, Detail: "mutool show: " + firstLine(out)}
			}
			n, err := strconv.Atoi(string(bytes.TrimSpace(out)))
			if err != nil {
				return 0, &RenderError{Doc: pdfPath, Reason: ReasonRasterize, Detail: "mutool show: no page count"}
			}
			return n, nil
		}
	}
	out, err := runOutput(ctx, time.Minute, "pdfinfo", pdfPath)
	if err != nil {
		return 0, sizesErr(ctx, "pdfinfo", err, out)
	}
	m := pdfPagesRe.FindSubmatch(out)
	if m == nil {
		return 0, &RenderError{Doc: pdfPath, Reason: ReasonRasterize, Detail: "pdfinfo: no page count in output: " + firstLine(out)}
	}
	return strconv.Atoi(string(m[1]))
}
