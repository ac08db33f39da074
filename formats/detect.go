package formats

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"path"
	"strings"
)

// mainTypes maps the content type of a package's main part to the format
// and flavor (ECMA-376 part 1 §11.3.10, §13.3.6, §12.3.23; MS-OE376 for the
// macro-enabled types). Strict packages use the same content types.
var mainTypes = map[string][2]string{
	"application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml":   {"docx", "docx"},
	"application/vnd.openxmlformats-officedocument.wordprocessingml.template.main+xml":   {"docx", "dotx"},
	"application/vnd.ms-word.document.macroenabled.main+xml":                             {"docx", "docm"},
	"application/vnd.ms-word.template.macroenabledtemplate.main+xml":                     {"docx", "dotm"},
	"application/vnd.openxmlformats-officedocument.presentationml.presentation.main+xml": {"pptx", "pptx"},
	"application/vnd.openxmlformats-officedocument.presentationml.slideshow.main+xml":    {"pptx", "ppsx"},
	"application/vnd.openxmlformats-officedocument.presentationml.template.main+xml":     {"pptx", "potx"},
	"application/vnd.ms-powerpoint.presentation.macroenabled.main+xml":                   {"pptx", "pptm"},
	"application/vnd.ms-powerpoint.slideshow.macroenabled.main+xml":                      {"pptx", "ppsm"},
	"application/vnd.ms-powerpoint.template.macroenabled.main+xml":                       {"pptx", "potm"},
	"application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml":         {"xlsx", "xlsx"},
	"application/vnd.openxmlformats-officedocument.spreadsheetml.template.main+xml":      {"xlsx", "xltx"},
	"application/vnd.ms-excel.sheet.macroenabled.main+xml":                               {"xlsx", "xlsm"},
	"application/vnd.ms-excel.template.macroenabled.main+xml":                            {"xlsx", "xltm"},
}

// HWPX container facts (OWPML / KS X 6101, OCF layout; see DEFECTS.md).
const (
	HWPXMimetype      = "application/hwp+zip"
	HWPXContainer     = "META-INF/container.xml"
	HWPXRootMediaType = "application/hwpml-package+xml"
)

// detect finds the format from the package content, never the extension.
func (p *Package) detect(ctx context.Context) {
	if p.isHWPX() {
		p.Format, p.Flavor = HWPX, "hwpx"
		p.checkExtension()
		return
	}
	p.parseContentTypes(ctx)
	root := p.RelsOf(ctx, "")
	if p.ContentTypes == nil {
		// OPC §10.1.2.1 [M2.1]: a package has exactly one content types stream.
		p.Add(Finding{Code: CodeCTMissing, Grade: Fatal, Part: "[Content_Types].xml", Anchor: "ct",
			Message: "the package has no [Content_Types].xml, so no part has a content type; Office refuses the file",
			Fix:     "write the package again with a [Content_Types].xml at the root (name exactly so, forward slashes)"})
	}
	var main *Rel
	if root != nil {
		for _, r := range root.Rels {
			if strings.HasPrefix(r.Type, "http://purl.oclc.org/ooxml/") {
				p.Strict = true
			}
			if strings.HasSuffix(r.Type, "/officeDocument") && !r.External && main == nil {
				r := r
				main = &r
			}
		}
	} else {
		p.Add(Finding{Code: CodeMainPartMissing, Grade: Fatal, Part: "_rels/.rels", Anchor: "package-rels",
			Message: "the package has no _rels/.rels, so nothing says which part is the document; Office refuses the file",
			Fix:     "write _rels/.rels with an officeDocument relationship to the main part (word/document.xml, ppt/presentation.xml or xl/workbook.xml)"})
	}
	if main != nil {
		p.MainPart = main.Resolved
	}
	// Fall back to the conventional main part names, to count and validate
	// what can be, while the findings above say the package is broken.
	if p.MainPart == "" {
		for _, c := range []string{"word/document.xml", "ppt/presentation.xml", "xl/workbook.xml"} {
			if p.Has(c) {
				p.MainPart = p.Entry(c).Part
				break
			}
		}
		if root != nil && main == nil {
			p.Add(Finding{Code: CodeMainPartMissing, Grade: Fatal, Part: root.Part, Anchor: "officeDocument",
				Message: "_rels/.rels has no officeDocument relationship, so nothing says which part is the document",
				Fix:     "add <Relationship Id=\"rId1\" Type=\"http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument\" Target=\"word/document.xml\"/> (with this format's main part)"})
		}
	} else if !p.Has(p.MainPart) {
		p.Add(Finding{Code: CodeMainPartMissing, Grade: Fatal, Part: p.MainPart, Anchor: "main:" + p.MainPart,
			Message: fmt.Sprintf("the main document part %s named by _rels/.rels is not in the package", p.MainPart),
			Fix:     "restore the main part or point the officeDocument relationship at it"})
	} else {
		p.MainPart = p.Entry(p.MainPart).Part
	}
	if p.MainPart == "" {
		if p.ContentTypes != nil || root != nil {
			p.Add(Finding{Code: CodePackageUnknown, Grade: Fatal, Anchor: "unknown",
				Message: "the zip is not a Word, PowerPoint, Excel or Hangul package: no main document part was found",
				Fix:     "check that the file is a .docx, .pptx, .xlsx or .hwpx document"})
		} else {
			p.Add(Finding{Code: CodePackageUnknown, Grade: Fatal, Anchor: "unknown",
				Message: "the zip holds no Office package structure ([Content_Types].xml, _rels/.rels and a main part are all missing)",
				Fix:     "check that the file is a .docx, .pptx, .xlsx or .hwpx document"})
		}
		return
	}
	var ct string
	if p.ContentTypes != nil {
		ct = strings.ToLower(p.ContentTypes.Resolve(p.MainPart))
	}
	if ft, ok := mainTypes[ct]; ok {
		p.Format, p.Flavor = Format(ft[0]), ft[1]
	} else {
		switch lp := strings.ToLower(p.MainPart); {
		case strings.HasPrefix(lp, "word/"):
			p.Format, p.Flavor = DOCX, "docx"
		case strings.HasPrefix(lp, "ppt/"):
			p.Format, p.Flavor = PPTX, "pptx"
		case strings.HasPrefix(lp, "xl/"):
			p.Format, p.Flavor = XLSX, "xlsx"
		}
		if p.ContentTypes != nil {
			// ECMA-376 part 1 §11.3.10 etc.: the main part must have its
			// main content type; Word refuses a document part typed
			// application/xml (OXSDK InvalidDocPropsct).
			got := ct
			if got == "" {
				got = "no content type"
			}
			p.Add(Finding{Code: CodeCTWrongMainType, Grade: Fatal, Part: p.MainPart, Anchor: "main:" + ct,
				Message: fmt.Sprintf("the main part %s has %s, not a %s main-document content type; the application does not recognise the document", p.MainPart, got, p.Format),
				Fix:     fmt.Sprintf("add <Override PartName=\"/%s\" ContentType=\"%s\"/> to [Content_Types].xml", p.MainPart, expectedMain(p.Format))})
		}
	}
	if p.Strict && p.Flavor != "" {
		p.Flavor += "-strict"
	}
	p.checkExtension()
}

func expectedMain(f Format) string {
	for ct, ft := range mainTypes {
		if ft[0] == string(f) && ft[1] == string(f) {
			return ct
		}
	}
	return "the main content type"
}

// isHWPX: the OCF "mimetype" entry holds application/hwp+zip, or the
// package has META-INF/container.xml and a Contents/ folder.
func (p *Package) isHWPX() bool {
	if e := p.Entry("mimetype"); e != nil && e.blocked == nil && e.Size < 256 {
		rc, err := p.OpenPart("mimetype")
		if err == nil {
			b, _ := io.ReadAll(io.LimitReader(rc, 256))
			rc.Close()
			if bytes.Equal(bytes.TrimSpace(b), []byte(HWPXMimetype)) {
				return true
			}
		}
	}
	if p.Has(HWPXContainer) || p.Has("Contents/content.hpf") {
		for _, part := range p.Parts() {
			if strings.HasPrefix(strings.ToLower(part), "contents/") {
				return true
			}
		}
	}
	return false
}

// relType → the content type its target must have. A main part (document,
// slide, worksheet) that resolves to another type — typically a slide
// without its Override falling back to application/xml — is refused or
// repaired (pandoc#9003; one production pipeline reports PowerPoint refusing
// it); for the others the evidence is weak, so they are warnings.
var relTargetTypes = map[string]struct {
	ct    string
	fatal bool
}{
	"slide":         {"application/vnd.openxmlformats-officedocument.presentationml.slide+xml", true},
	"slideLayout":   {"application/vnd.openxmlformats-officedocument.presentationml.slideLayout+xml", false},
	"slideMaster":   {"application/vnd.openxmlformats-officedocument.presentationml.slideMaster+xml", false},
	"notesSlide":    {"application/vnd.openxmlformats-officedocument.presentationml.notesSlide+xml", false},
	"worksheet":     {"application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml", true},
	"header":        {"application/vnd.openxmlformats-officedocument.wordprocessingml.header+xml", false},
	"footer":        {"application/vnd.openxmlformats-officedocument.wordprocessingml.footer+xml", false},
	"styles":        {"", false},
	"sharedStrings": {"application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml", false},
	// OPC part 2 §11.1 (core properties) and ECMA-376 part 1 §15.2.12.3
	// (extended properties): a docProps part typed as something else is
	// what the Open XML SDK's InvalidDocPropsct test file carries; the
	// applications' reaction is not documented, so a warning.
	"core-properties":     {"application/vnd.openxmlformats-package.core-properties+xml", false},
	"extended-properties": {"application/vnd.openxmlformats-officedocument.extended-properties+xml", false},
}

// loadAllRels parses every .rels part (before the generic scan, which
// would otherwise consume them) and remembers their source parts.
func (p *Package) loadAllRels(ctx context.Context) {
	for _, part := range p.Parts() {
		d := Dir(part)
		if !strings.HasSuffix(strings.ToLower(part), ".rels") || strings.ToLower(path.Base(d)) != "_rels" {
			continue
		}
		base := strings.TrimSuffix(path.Base(part), ".rels")
		src := path.Join(path.Dir(d), base)
		if src == "." || base == "" {
			src = ""
		}
		src = strings.TrimPrefix(src, "./")
		p.relsSources = append(p.relsSources, src)
		p.RelsOf(ctx, src)
	}
}

// checkOPC runs the content-type and relationship checks over the whole
// package. Parts must be scanned first (their r:id references are used).
func (p *Package) checkOPC(ctx context.Context) {
	sources := p.relsSources
	grade := func(pptx Grade, other Grade) Grade {
		if p.Format == PPTX {
			return pptx
		}
		return other
	}
	if ct := p.ContentTypes; ct != nil {
		for _, part := range p.Parts() {
			lp := normPart(part)
			if lp == "[content_types].xml" || strings.HasPrefix(lp, "[trash]/") {
				// [trash]/ holds parts an Office writer discarded; readers
				// ignore the folder (openpyxl bug304.xlsx opens in Excel).
				continue
			}
			if ct.Resolve(part) == "" {
				// OPC §10.1.2 [M2.4]: every part has a content type; a part
				// without one is dropped on repair (pandoc#11492).
				p.Add(Finding{Code: CodeCTNoType, Grade: Fatal, Part: part, Anchor: lp,
					Message: fmt.Sprintf("the part %s has no content type: no Override names it and no Default covers its extension", part),
					Fix:     fmt.Sprintf("add <Override PartName=\"/%s\" ContentType=\"…\"/> or a <Default Extension=\"%s\" …/> to [Content_Types].xml", part, strings.TrimPrefix(pathExt(part), "."))})
			}
		}
		for k, name := range ct.OverrideNames {
			if !p.Has(k) {
				// PptxGenJS#1444: PowerPoint repairs a deck whose Override
				// names a missing part. Excel itself writes such Overrides
				// (real files), so for other formats it is a warning.
				p.Add(Finding{Code: CodeCTOverrideMissing, Grade: grade(Fatal, Warning), Part: "[Content_Types].xml", Anchor: k,
					Message: fmt.Sprintf("[Content_Types].xml has an Override for %s, which is not in the package", name),
					Fix:     "remove the Override (or restore the part)"})
			}
		}
	}
	if root := p.rels[""]; root != nil {
		if core := root.ByType("core-properties"); len(core) > 1 {
			// OPC part 2 §8.3.3 [M4.1]: at most one core properties
			// relationship; a consumer shall consider more an error (Apache
			// POI refuses such packages: OPCCompliance test files). What
			// Office does is not documented, hence a warning.
			p.Add(Finding{Code: CodeRelsDuplicateCore, Grade: Warning, Part: root.Part, Line: core[1].Line, Column: core[1].Column, Anchor: "core-properties",
				Message: fmt.Sprintf("the package has %d core-properties relationships (%s and %s); OPC allows one", len(core), core[0].Target, core[1].Target),
				Fix:     fmt.Sprintf("remove relationship %s and the part %s", core[1].ID, core[1].Resolved)})
		}
	}
	for _, src := range sources {
		rels := p.rels[normPart(src)]
		if rels == nil {
			continue
		}
		if src != "" && !p.Has(src) {
			p.Add(Finding{Code: CodeRelsOrphanPart, Grade: Warning, Part: rels.Part, Anchor: rels.Part,
				Message: fmt.Sprintf("the relationships part %s describes %s, which is not in the package", rels.Part, src),
				Fix:     "remove the stale .rels part"})
		}
		for _, r := range rels.Rels {
			if r.External || r.Resolved == "" {
				continue
			}
			if strings.EqualFold(r.Target, "NULL") {
				// PowerPoint and Excel themselves write Target="NULL" for a
				// picture whose source was removed (real healthy files in the
				// corpus: oxsdk typical-deck.pptx, FamilyBudget.xltx); the
				// application opens them without a dialog.
				p.Add(Finding{Code: CodeRelsTargetMissing, Grade: Info, Part: rels.Part, Line: r.Line, Column: r.Column, Anchor: r.ID + "→NULL",
					Message: fmt.Sprintf("relationship %s (%s) has the placeholder target NULL that Office writes for removed media", r.ID, lastSeg(r.Type)),
					Fix:     "nothing to do; the application ignores it"})
				continue
			}
			if !p.Has(r.Resolved) {
				if p.unusedRel(src, r) {
					// A relationship of a type used only through r:id that no
					// attribute of its source names: the application never
					// follows it. Word opens documents whose header
					// relationships point at missing parts no section uses
					// (python-openxml/python-docx#1219, 1C-generated files);
					// Excel opens workbooks whose sheets relate missing
					// drawings (xlnt-community/xlnt#165). Warning.
					p.Add(Finding{Code: CodeRelsTargetMissing, Grade: Warning, Part: rels.Part, Line: r.Line, Column: r.Column, Anchor: r.ID + "→" + r.Resolved,
						Message: fmt.Sprintf("relationship %s (%s) points to %s, which is not in the package; nothing in %s uses %s, so the application ignores it", r.ID, lastSeg(r.Type), r.Resolved, src, r.ID),
						Fix:     fmt.Sprintf("remove relationship %s from %s (or restore %s)", r.ID, rels.Part, r.Resolved)})
					continue
				}
				// A relationship to a missing internal part: Word, Excel and
				// PowerPoint report unreadable content and repair or refuse
				// (confirmed; DEFECTS.md package table).
				p.Add(Finding{Code: CodeRelsTargetMissing, Grade: Fatal, Part: rels.Part, Line: r.Line, Column: r.Column, Anchor: r.ID + "→" + r.Resolved,
					Message: fmt.Sprintf("relationship %s (%s) points to %s, which is not in the package", r.ID, lastSeg(r.Type), r.Resolved),
					Fix:     fmt.Sprintf("restore %s, or remove relationship %s and every r:id=\"%s\" that uses it", r.Resolved, r.ID, r.ID)})
				continue
			}
			if want, ok := relTargetTypes[lastSeg(r.Type)]; ok && want.ct != "" && p.ContentTypes != nil {
				got := p.ContentTypes.Resolve(r.Resolved)
				if got != "" && !strings.EqualFold(got, want.ct) {
					g := Warning
					if want.fatal {
						g = Fatal
					}
					p.Add(Finding{Code: CodeCTWrongMainType, Grade: g, Part: p.Entry(r.Resolved).Part, Anchor: lastSeg(r.Type) + ":" + got,
						Message: fmt.Sprintf("%s is the target of a %s relationship but its content type is %s", p.Entry(r.Resolved).Part, lastSeg(r.Type), got),
						Fix:     fmt.Sprintf("give it the right type in [Content_Types].xml: <Override PartName=\"/%s\" ContentType=\"%s\"/> (replace an existing Override for it)", p.Entry(r.Resolved).Part, want.ct)})
				}
			}
		}
	}
	// r:id / r:embed / r:link … must name a relationship of the part's own
	// .rels (anthropics/skills#1060: an undefined r:id → repair), of a type
	// the element can use (refkinds.go).
	kinds := relRefIndex()
	for _, part := range p.Parts() {
		refs := p.refs[normPart(part)]
		if len(refs) == 0 {
			continue
		}
		rels := p.rels[normPart(part)]
		if !p.relsRead[normPart(part)] {
			rels = p.RelsOf(ctx, part)
		}
		for _, ref := range refs {
			if ref.id == "" {
				continue
			}
			if r := rels.ByID(ref.id); r != nil {
				p.checkRefType(kinds, part, ref, r)
				continue
			}
			where := "its relationships part " + RelsPartOf(part)
			if rels == nil {
				where = "a relationships part (it has none)"
			}
			if p.isTheme(part) {
				// MarkupRules: openpyxl copies a theme without its
				// relationships; no report of Excel reacting. Warning.
				p.Add(Finding{Code: CodeRelsUndefinedID, Grade: Warning, Part: part, Line: ref.line, Column: ref.col, Locator: ref.loc, Anchor: ref.attr + "=" + ref.id,
					Message: fmt.Sprintf("%s=\"%s\" in the theme refers to a relationship that is not defined in %s; a shape using this theme fill shows no picture", ref.attr, ref.id, where),
					Fix:     fmt.Sprintf("add relationship %s (the theme's picture) to %s, or remove the picture fill from the theme", ref.id, RelsPartOf(part))})
				continue
			}
			p.Add(Finding{Code: CodeRelsUndefinedID, Grade: Fatal, Part: part, Line: ref.line, Column: ref.col, Locator: ref.loc, Anchor: ref.attr + "=" + ref.id,
				Message: fmt.Sprintf("%s=\"%s\" refers to a relationship that is not defined in %s", ref.attr, ref.id, where),
				Fix:     fmt.Sprintf("add relationship %s to %s, or change %s to an Id that exists", ref.id, RelsPartOf(part), ref.attr)})
		}
	}
}

// isTheme reports whether part is a DrawingML theme or theme override.
func (p *Package) isTheme(part string) bool {
	if p.ContentTypes == nil {
		return false
	}
	ct := p.ContentTypes.Resolve(part)
	return strings.HasSuffix(ct, ".theme+xml") || strings.HasSuffix(ct, ".themeOverride+xml")
}

func lastSeg(s string) string {
	if i := strings.LastIndexByte(s, '/'); i >= 0 {
		return s[i+1:]
	}
	return s
}

func pathExt(s string) string {
	base := s[strings.LastIndexByte(s, '/')+1:]
	if i := strings.LastIndexByte(base, '.'); i >= 0 {
		return base[i:]
	}
	return ""
}
