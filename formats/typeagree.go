package formats

import (
	"fmt"
	"path"
	"strings"
)

// Package-level type agreement: the application a file opens in is chosen
// by its extension, and Office then checks that the main part's content
// type is the one that extension promises. A template saved under .docx, a
// macro-enabled workbook under .xlsx, a workbook renamed .docx: the bytes
// are a sound package, the name is wrong.

// flavorExt is the extension of each flavor (without "-strict").
var flavorExt = map[string]string{
	"docx": ".docx", "dotx": ".dotx", "docm": ".docm", "dotm": ".dotm",
	"pptx": ".pptx", "potx": ".potx", "ppsx": ".ppsx", "pptm": ".pptm", "potm": ".potm", "ppsm": ".ppsm",
	"xlsx": ".xlsx", "xltx": ".xltx", "xlsm": ".xlsm", "xltm": ".xltm",
	"hwpx": ".hwpx",
}

// extFlavor maps a file extension to the flavor it promises.
var extFlavor = func() map[string]string {
	m := map[string]string{}
	for f, e := range flavorExt {
		m[e] = f
	}
	return m
}()

// flavorKind describes a flavor for people and for the agreement rules:
// template, macro-enabled, slide show.
type flavorKind struct {
	format                Format
	template, macro, show bool
	what                  string // "a macro-enabled template", "a workbook"…
}

var flavorKinds = map[string]flavorKind{
	"docx": {format: DOCX, what: "a Word document"},
	"dotx": {format: DOCX, template: true, what: "a Word template"},
	"docm": {format: DOCX, macro: true, what: "a macro-enabled Word document"},
	"dotm": {format: DOCX, template: true, macro: true, what: "a macro-enabled Word template"},
	"pptx": {format: PPTX, what: "a presentation"},
	"potx": {format: PPTX, template: true, what: "a presentation template"},
	"ppsx": {format: PPTX, show: true, what: "a slide show"},
	"pptm": {format: PPTX, macro: true, what: "a macro-enabled presentation"},
	"potm": {format: PPTX, template: true, macro: true, what: "a macro-enabled presentation template"},
	"ppsm": {format: PPTX, show: true, macro: true, what: "a macro-enabled slide show"},
	"xlsx": {format: XLSX, what: "a workbook"},
	"xltx": {format: XLSX, template: true, what: "a workbook template"},
	"xlsm": {format: XLSX, macro: true, what: "a macro-enabled workbook"},
	"xltm": {format: XLSX, template: true, macro: true, what: "a macro-enabled workbook template"},
	"hwpx": {format: HWPX, what: "a Hangul document"},
}

// TypeRule is one row of the type-agreement table: when the content's
// flavor and the name's flavor differ in the way Match describes, the
// finding has Grade, for the reason Evidence gives.
type TypeRule struct {
	// Name says which disagreement the row covers.
	Name string
	// Match reports whether the row applies to content flavor c named as n.
	Match func(c, n flavorKind) bool
	// Grade and Effect: what the application does.
	Grade  Grade
	Effect string
	// Evidence cites the public reports behind Grade.
	Evidence string
}

// TypeRules are tried in order; the first that matches grades the
// finding. A disagreement no row covers is a warning (effect unmeasured).
var TypeRules = []TypeRule{
	{Name: "another format (a workbook named .docx, a document named .hwpx)",
		Match: func(c, n flavorKind) bool { return c.format != n.format }, Grade: Fatal,
		Effect:   "the application the extension opens does not find its own main part in the package and reports the file as corrupt",
		Evidence: "ECMA-376 Part 2 §8 and Part 1 §11.3.10/§12.3.23/§13.3.6: each application reads only its own main part type; the extension selects the application"},
	{Name: "Word: a template saved as a document (.dotx content as .docx)",
		Match: func(c, n flavorKind) bool { return c.format == DOCX && c.template && !n.template }, Grade: Fatal,
		Effect:   "Word reports the file as corrupt and asks to repair it",
		Evidence: "EvotecIT/OfficeIMO#1782 (a .dotx saved to a .docx path kept the template content type; Word reported the output as corrupt or needing repair)"},
	{Name: "Word: macro-enabled content under a macro-free name (.docm content as .docx)",
		Match: func(c, n flavorKind) bool { return c.format == DOCX && c.macro && !n.macro }, Grade: Fatal,
		Effect:   "Word refuses it (\"we found a problem with its contents\")",
		Evidence: "spender-sandbox/cuckoo-modified#147 (.docm documents opened as .docx: \"We can't open … because we found a problem with its contents\"; fine as .docm)"},
	{Name: "Excel: a template saved as a workbook (.xltx content as .xlsx)",
		Match: func(c, n flavorKind) bool { return c.format == XLSX && c.template != n.template }, Grade: Fatal,
		Effect:   "Excel refuses to open it (\"the file format or file extension is not valid\")",
		Evidence: "dtjohnson/xlsx-populate#191 (an .xltx template saved as .xlsx: Excel refuses it unless the extension is .xltx); qax-os/excelize (\"Fix file corrupted when save as in XLAM / XLSM / XLTM / XLTX extension\", ErrWorkbookExt)"},
	{Name: "Excel: macro-free content under a macro-enabled name (.xlsx content as .xlsm)",
		Match: func(c, n flavorKind) bool { return c.format == XLSX && !c.macro && n.macro }, Grade: Fatal,
		Effect:   "Excel refuses to open it (\"the file format or file extension is not valid\")",
		Evidence: "jmcnamara/excel-writer-xlsx#94 (.xlsx content saved as .xlsm: \"Excel cannot open the file … because the file format or file extension is not valid\"); SverkerSbrg/openpyxl-templates#6"},
	{Name: "PowerPoint: a presentation saved as a slide show (.pptx content as .ppsx)",
		Match: func(c, n flavorKind) bool { return c.format == PPTX && !c.show && n.show }, Grade: Fatal,
		Effect:   "PowerPoint refuses it (\"PowerPoint can't read …\")",
		Evidence: "scanny/python-pptx#438 (a presentation saved as .ppsx: \"PowerPoint can't read …ppsx\")"},
}

// checkExtension compares the detected flavor with the extension of the
// package's name. Names without a known Office or Hangul extension (a
// temporary file, stdin, .zip) say nothing and give no finding.
func (p *Package) checkExtension() {
	ext := strings.ToLower(path.Ext(p.Name))
	named, ok := extFlavor[ext]
	if !ok || p.Format == Unknown {
		return
	}
	content := strings.TrimSuffix(p.Flavor, "-strict")
	if content == named || content == "" {
		return
	}
	c, n := flavorKinds[content], flavorKinds[named]
	rule := TypeRule{Grade: Warning,
		Effect:   "whether the application accepts this combination is not confirmed (it refuses several others)",
		Evidence: "not measured"}
	for _, r := range TypeRules {
		if r.Match(c, n) {
			rule = r
			break
		}
	}
	f := Finding{Code: CodeExtensionMismatch, Grade: rule.Grade, Part: "[Content_Types].xml",
		Anchor:  content + " as " + ext,
		Message: fmt.Sprintf("this is %s (%s) saved as %s: %s", c.what, flavorExt[content], ext, rule.Effect)}
	if c.format != n.format {
		f.Fix = fmt.Sprintf("rename the file to %s (its content is %s), or save the content as %s", strings.TrimSuffix(path.Base(p.Name), path.Ext(p.Name))+flavorExt[content], c.what, n.what)
	} else {
		f.Fix = fmt.Sprintf("rename the file to %s, or keep the name and give %s the content type of %s (%s)",
			strings.TrimSuffix(path.Base(p.Name), path.Ext(p.Name))+flavorExt[content], p.MainPart, n.what, mainTypeOf(named))
		if c.macro && !n.macro {
			f.Fix += ", removing the vbaProject part and its relationship"
		}
	}
	if p.Format == HWPX || p.ContentTypes == nil {
		f.Part = "mimetype"
		if p.Format != HWPX {
			f.Part = p.MainPart
		}
	} else if at, ok := p.ContentTypes.OverrideAt[normPart(p.MainPart)]; ok {
		f.Line, f.Column = at[0], at[1]
	}
	p.Add(f)
}

// mainTypeOf returns the main content type of a flavor ("" for hwpx).
func mainTypeOf(flavor string) string {
	for ct, ft := range mainTypes {
		if ft[1] == flavor {
			// The table keys are lower-cased; write the type as registered.
			ct = strings.Replace(ct, "macroenabledtemplate", "macroEnabledTemplate", 1)
			return strings.Replace(ct, "macroenabled", "macroEnabled", 1)
		}
	}
	return ""
}
