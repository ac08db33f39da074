// Package hwpx validates and counts Hangul (.hwpx) documents.
//
// An HWPX file is an OCF container (the ODF/EPUB family, KS X 6101 OWPML),
// not OOXML: no [Content_Types].xml and no .rels, so the core's OPC checks
// are skipped for it. Inspect checks the container the way Hancom writes
// it (mimetype, META-INF/container.xml, the content.hpf manifest and
// spine), the header's section count, and that every character, paragraph,
// style and border-fill reference in the sections resolves in
// Contents/header.xml; in the same single scan of each part it counts
// sections, paragraphs (hp:p, inside tables included) and tables (hp:tbl,
// nested included).
//
// Hancom's own deviations from the published schemas are accepted and never
// reported: the attribute spelled tagetApplication in version.xml, the OPF
// namespace written with a trailing slash, hrefs relative to the package
// root instead of content.hpf, a missing META-INF/manifest.xml
// (neolord0/hwpxlib#13), the "none" reference 4294967295. Schema-style
// findings are never graded above warning.
//
// It imports formats (and internal packages) only; it must not import
// formats/inspect, content, pixeldiff, render, baseline, audit, reports or corpus
// (formats/inspect wires it; the others judge what it reports).
package hwpx

import (
	"context"
	"fmt"
	"path"
	"regexp"
	"strings"

	"github.com/editaudit/editaudit/formats"
)

// Finding codes of the Hangul checks: a public interface, never renamed.
// Each finding's grade is set where it is emitted, with its evidence.
const (
	// CodeMimetypeMissing: no mimetype entry.
	CodeMimetypeMissing = "hwpx.mimetype-missing"
	// CodeMimetypeContent: the mimetype entry does not hold exactly
	// application/hwp+zip.
	CodeMimetypeContent = "hwpx.mimetype-content"
	// CodeMimetypeLayout: mimetype is not the first entry, or is compressed.
	CodeMimetypeLayout = "hwpx.mimetype-layout"
	// CodeContainerMissing: no META-INF/container.xml.
	CodeContainerMissing = "hwpx.container-missing"
	// CodeRootfile: container.xml names no usable package rootfile, or the
	// rootfile's path or media type is not Hancom's.
	CodeRootfile = "hwpx.rootfile"
	// CodeManifestItemMissing: a content.hpf manifest item names a part
	// that is not in the package.
	CodeManifestItemMissing = "hwpx.manifest-item-missing"
	// CodeLinkedItem: a manifest item links a file outside the package.
	CodeLinkedItem = "hwpx.linked-item"
	// CodeSpineRefUndefined: a spine itemref names no manifest item.
	CodeSpineRefUndefined = "hwpx.spine-ref-undefined"
	// CodeSectionNotInSpine: a Contents/sectionN.xml part the spine does
	// not list.
	CodeSectionNotInSpine = "hwpx.section-not-in-spine"
	// CodeHeaderMissing: no Contents/header.xml.
	CodeHeaderMissing = "hwpx.header-missing"
	// CodeSecCnt: header.xml's secCnt differs from the number of sections,
	// or is missing.
	CodeSecCnt = "hwpx.seccnt-mismatch"
	// CodeUndefinedIDRef: a section references a character shape,
	// paragraph shape, style or border fill the header does not define.
	CodeUndefinedIDRef = "hwpx.undefined-idref"
)

// Count keys (DESIGN.md: hwpx sections, paragraphs, tables).
const (
	KeySections   = "sections"
	KeyParagraphs = "paragraphs"
	KeyTables     = "tables"
)

// Container facts (OCF 3.0 §3.3 and Hancom's own files).
const (
	DefaultRootfile = "Contents/content.hpf"
	DefaultHeader   = "Contents/header.xml"
)

// inspector holds the state of one inspection.
type inspector struct {
	ctx context.Context
	p   *formats.Package
	rep *formats.Report
}

// Inspect validates and counts the Hangul package p into rep. Findings go to
// p (p.Add); counts and sites to rep. The error is for cancellation only.
func Inspect(ctx context.Context, p *formats.Package, rep *formats.Report) error {
	rep.AddCounts("", formats.Counts{KeySections: 0, KeyParagraphs: 0, KeyTables: 0})
	in := &inspector{ctx: ctx, p: p, rep: rep}
	in.checkMimetype()
	hpfPart := in.checkContainer()
	if err := ctx.Err(); err != nil {
		return err
	}
	var pkg *opfPackage
	if hpfPart != "" {
		pkg = in.readPackage(hpfPart)
	}
	header := in.headerPart(pkg)
	var hd *headerData
	if header == "" {
		// Every paragraph, run and style refers to shapes defined in the
		// header; without it none resolves, and Hancom reports the file as
		// damaged (DEFECTS.md: an undefined character property → REFUSE;
		// chrisryugj/kordoc#4: a package without header.xml does not open).
		p.Add(formats.Finding{Code: CodeHeaderMissing, Grade: formats.Fatal, Part: DefaultHeader, Anchor: "header",
			Message: "the package has no Contents/header.xml (the document's fonts, character and paragraph shapes and styles); Hangul reports the file as damaged",
			Fix:     "add Contents/header.xml (copy it from the template this document was made from), list it in content.hpf's manifest and spine, and set its secCnt to the number of sections"})
	} else {
		hd = in.scanHeader(header)
	}
	sections := in.sections(pkg, header)
	total := 0
	for _, part := range sections {
		if err := ctx.Err(); err != nil {
			return err
		}
		h := newSectionHandler(in, part, hd)
		res := p.ScanPart(ctx, part, h)
		if !h.isSection && (res.Complete || !p.Has(part)) {
			continue
		}
		// A spine section that did not parse counts as a section whose
		// paragraphs and tables are unknown (Report.NotCounted), not as
		// no section.
		total++
		c := formats.Counts{KeyParagraphs: h.paragraphs, KeyTables: h.tables}
		rep.AddCounts(part, formats.Counts{KeySections: 1, KeyParagraphs: h.paragraphs, KeyTables: h.tables})
		rep.Sites = append(rep.Sites, formats.Site{Part: part, Where: fmt.Sprintf("section %d", total), Counts: c})
		h.report()
	}
	if hd != nil && hd.sawHead {
		in.checkSecCnt(hd, total)
	}
	return nil
}

// ReadingOrder returns the section parts of the Hangul package p in the
// order Hangul reads them (the spine of content.hpf, the header left out;
// Contents/section*.xml in natural order without a usable spine) and its
// header part ("" when it has none), as Inspect finds them. Like Inspect,
// it adds the findings of what it reads (META-INF/container.xml,
// content.hpf) to p.
func ReadingOrder(ctx context.Context, p *formats.Package) (sections []string, header string) {
	in := &inspector{ctx: ctx, p: p, rep: &formats.Report{}}
	var pkg *opfPackage
	if hpf := in.checkContainer(); hpf != "" && ctx.Err() == nil {
		pkg = in.readPackage(hpf)
	}
	header = in.headerPart(pkg)
	return in.sections(pkg, header), header
}

// checkMimetype: OCF 3.0 §3.3 puts the mimetype first, stored, holding
// exactly the media type; Hancom writes application/hwp+zip so.
func (in *inspector) checkMimetype() {
	p := in.p
	e := p.Entry("mimetype")
	if e == nil {
		// DEFECTS.md: mimetype is required; it is how Hangul and every
		// reader recognises the package as HWPX.
		p.Add(formats.Finding{Code: CodeMimetypeMissing, Grade: formats.Fatal, Part: "mimetype", Anchor: "mimetype",
			Message: "the package has no mimetype entry; Hangul does not recognise it as an HWPX document",
			Fix:     "add an entry named mimetype holding exactly application/hwp+zip (no newline), stored uncompressed as the first entry of the zip"})
		return
	}
	data, err := p.ReadPart(e.Part)
	switch {
	case err != nil:
		// The core reports unreadable entries (CRC, limits).
	case string(data) == formats.HWPXMimetype:
	case strings.TrimSpace(string(data)) == formats.HWPXMimetype:
		// Padding around the right type: readers that compare the exact
		// bytes (OCF §3.3) miss it; Hangul's reaction is unmeasured.
		p.Add(formats.Finding{Code: CodeMimetypeContent, Grade: formats.Warning, Part: e.Part, Anchor: "mimetype-padding",
			Message: fmt.Sprintf("the mimetype entry holds %q: the right type with extra whitespace; it must be exactly application/hwp+zip", string(data)),
			Fix:     "write the mimetype entry again with exactly the 19 bytes application/hwp+zip and no newline"})
	default:
		p.Add(formats.Finding{Code: CodeMimetypeContent, Grade: formats.Fatal, Part: e.Part, Anchor: "mimetype-content",
			Message: fmt.Sprintf("the mimetype entry holds %q, not application/hwp+zip, so the package does not declare itself as HWPX", excerpt(data)),
			Fix:     "write the mimetype entry with exactly application/hwp+zip"})
	}
	// Hancom writes mimetype first and stored (every real file in the
	// corpus); a re-zip that compresses it or moves it is a deviation whose
	// effect in Hangul is not measured → warning (DEFECTS.md).
	if first := firstFile(p); first != nil && first != e {
		p.Add(formats.Finding{Code: CodeMimetypeLayout, Grade: formats.Warning, Part: e.Part, Anchor: "mimetype-not-first",
			Message: fmt.Sprintf("mimetype is not the first zip entry (%s is); Hancom writes it first so the type can be read at a fixed offset", first.Name),
			Fix:     "re-zip with mimetype first (zip -X0 out.hwpx mimetype, then zip -Xr9D out.hwpx the rest), or save the document again in Hangul"})
	}
	if e.Method != 0 {
		p.Add(formats.Finding{Code: CodeMimetypeLayout, Grade: formats.Warning, Part: e.Part, Anchor: "mimetype-compressed",
			Message: "the mimetype entry is compressed; Hancom stores it uncompressed so the type can be read without unzipping",
			Fix:     "re-zip with mimetype stored, not deflated (zip -X0 out.hwpx mimetype first), or save the document again in Hangul"})
	}
}

func firstFile(p *formats.Package) *formats.Entry {
	for _, e := range p.Entries {
		if !e.Dir {
			return e
		}
	}
	return nil
}

func excerpt(b []byte) string {
	s := string(b)
	if len(s) > 60 {
		s = s[:60] + "…"
	}
	return s
}

// rootfile is one ocf:rootfile of META-INF/container.xml.
type rootfile struct {
	fullPath, mediaType string
	line, column        int
	locator             string
}

// checkContainer checks META-INF/container.xml and returns the part of the
// package document (content.hpf) to read, "" when there is none.
func (in *inspector) checkContainer() string {
	p := in.p
	ce := p.Entry(formats.HWPXContainer)
	if ce == nil {
		// DEFECTS.md: META-INF/container.xml is required; a generator that
		// left it out (with other omissions) produced files Hangul refuses as
		// damaged (chrisryugj/kordoc#4, fixed by adding it in #9).
		p.Add(formats.Finding{Code: CodeContainerMissing, Grade: formats.Fatal, Part: formats.HWPXContainer, Anchor: "container",
			Message: "the package has no META-INF/container.xml, which tells Hangul where the package document (Contents/content.hpf) is; Hangul reports the file as damaged",
			Fix:     `add META-INF/container.xml: <ocf:container xmlns:ocf="urn:oasis:names:tc:opendocument:xmlns:container"><ocf:rootfiles><ocf:rootfile full-path="Contents/content.hpf" media-type="application/hwpml-package+xml"/></ocf:rootfiles></ocf:container>`})
		if p.Has(DefaultRootfile) {
			return p.Entry(DefaultRootfile).Part
		}
		return ""
	}
	h := &containerHandler{}
	p.ScanPart(in.ctx, ce.Part, h)
	// The package document is the rootfile of media type
	// application/hwpml-package+xml; Hancom always names
	// Contents/content.hpf. Fall back to a rootfile with that path.
	var pick *rootfile
	for i := range h.rootfiles {
		if strings.EqualFold(h.rootfiles[i].mediaType, formats.HWPXRootMediaType) {
			pick = &h.rootfiles[i]
			break
		}
	}
	if pick == nil {
		for i := range h.rootfiles {
			if strings.EqualFold(strings.TrimPrefix(h.rootfiles[i].fullPath, "/"), DefaultRootfile) || strings.HasSuffix(strings.ToLower(h.rootfiles[i].fullPath), ".hpf") {
				pick = &h.rootfiles[i]
				break
			}
		}
	}
	if pick == nil {
		// No rootfile names the package document: Hangul has nothing to
		// open (DEFECTS.md: the rootfile is required).
		p.Add(formats.Finding{Code: CodeRootfile, Grade: formats.Fatal, Part: ce.Part, Anchor: "no-rootfile",
			Message: "META-INF/container.xml names no package document (no ocf:rootfile with media-type application/hwpml-package+xml); Hangul cannot find the document",
			Fix:     `add <ocf:rootfile full-path="Contents/content.hpf" media-type="application/hwpml-package+xml"/> inside <ocf:rootfiles>`})
		if p.Has(DefaultRootfile) {
			return p.Entry(DefaultRootfile).Part
		}
		return ""
	}
	target := strings.TrimPrefix(pick.fullPath, "/")
	if !p.Has(target) {
		p.Add(formats.Finding{Code: CodeRootfile, Grade: formats.Fatal, Part: ce.Part, Line: pick.line, Column: pick.column, Locator: pick.locator, Anchor: "rootfile-missing:" + target,
			Message: fmt.Sprintf("the rootfile %s named by META-INF/container.xml is not in the package; Hangul cannot open the document", target),
			Fix:     fmt.Sprintf("restore %s (the manifest and spine of the document), or point full-path at the package's .hpf part", target)})
		if p.Has(DefaultRootfile) {
			return p.Entry(DefaultRootfile).Part
		}
		return ""
	}
	if !strings.EqualFold(pick.mediaType, formats.HWPXRootMediaType) {
		// The media type Hancom writes; a different one is a schema-level
		// deviation whose effect is unmeasured → warning.
		p.Add(formats.Finding{Code: CodeRootfile, Grade: formats.Warning, Part: ce.Part, Line: pick.line, Column: pick.column, Locator: pick.locator, Anchor: "media-type:" + pick.mediaType,
			Message: fmt.Sprintf("the rootfile %s has media-type %q; Hancom writes application/hwpml-package+xml", target, pick.mediaType),
			Fix:     fmt.Sprintf("set media-type=\"%s\" on this ocf:rootfile", formats.HWPXRootMediaType)})
	}
	if !strings.EqualFold(target, DefaultRootfile) {
		p.Add(formats.Finding{Code: CodeRootfile, Grade: formats.Warning, Part: ce.Part, Line: pick.line, Column: pick.column, Locator: pick.locator, Anchor: "path:" + target,
			Message: fmt.Sprintf("the package document is %s; Hancom always writes Contents/content.hpf and other readers look there", target),
			Fix:     "move the package document to Contents/content.hpf and update full-path"})
	}
	return p.Entry(target).Part
}

// containerHandler reads the ocf:rootfile elements.
type containerHandler struct {
	formats.NopHandler
	rootfiles []rootfile
}

// Start implements formats.Handler.
func (h *containerHandler) Start(e *formats.Element) {
	if e.Name.Local != "rootfile" {
		return
	}
	fp, _ := e.Get("", "full-path")
	mt, _ := e.Get("", "media-type")
	h.rootfiles = append(h.rootfiles, rootfile{fullPath: fp, mediaType: mt, line: e.Line, column: e.Column, locator: e.Locator()})
}

// headerPart finds Contents/header.xml: the manifest's header item, else
// the conventional name.
func (in *inspector) headerPart(pkg *opfPackage) string {
	if pkg != nil {
		for _, it := range pkg.items {
			if it.part != "" && (strings.EqualFold(it.id, "header") || strings.EqualFold(path.Base(it.part), "header.xml")) {
				return it.part
			}
		}
	}
	if e := in.p.Entry(DefaultHeader); e != nil {
		return e.Part
	}
	return ""
}

var sectionName = regexp.MustCompile(`(?i)^contents/section\d+\.xml$`)

// sections returns the section parts in reading order: the spine's items
// except the header (the handler skips anything whose root is not hs:sec),
// or, without a usable spine, Contents/section*.xml in natural order.
// Section parts the spine leaves out are reported.
func (in *inspector) sections(pkg *opfPackage, header string) []string {
	p := in.p
	var out []string
	listed := map[string]bool{}
	if pkg != nil && len(pkg.spine) > 0 {
		for _, ref := range pkg.spine {
			it := pkg.byID[ref.idref]
			if it == nil || it.part == "" || strings.EqualFold(it.part, header) || listed[strings.ToLower(it.part)] || !p.IsXMLPart(it.part) {
				continue
			}
			listed[strings.ToLower(it.part)] = true
			out = append(out, it.part)
		}
	}
	if len(out) == 0 {
		for _, part := range p.PartsUnder("Contents/") {
			if sectionName.MatchString(part) {
				out = append(out, part)
			}
		}
		return out
	}
	for _, part := range p.PartsUnder("Contents/") {
		if sectionName.MatchString(part) && !listed[strings.ToLower(part)] {
			// Hangul reads the sections the spine lists; a section part left
			// out is not shown (unmeasured) → warning. It is not counted.
			p.Add(formats.Finding{Code: CodeSectionNotInSpine, Grade: formats.Warning, Part: part, Anchor: "unlisted:" + strings.ToLower(path.Base(part)),
				Message: fmt.Sprintf("%s is in the package but content.hpf's spine does not list it, so Hangul does not show it; it is not counted as a section", part),
				Fix:     fmt.Sprintf("if the section belongs to the document, add a manifest item for %s and an itemref to it in the spine (and raise secCnt in header.xml); otherwise delete the part", part)})
		}
	}
	return out
}

// checkSecCnt compares header.xml's secCnt with the sections read.
func (in *inspector) checkSecCnt(hd *headerData, sections int) {
	p := in.p
	if !hd.hasSecCnt {
		p.Add(formats.Finding{Code: CodeSecCnt, Grade: formats.Warning, Part: hd.part, Line: hd.line, Column: hd.column, Locator: hd.locator, Anchor: "secCnt-missing",
			Message: fmt.Sprintf("<hh:head> has no secCnt attribute; Hangul uses it to know how many sections to load (the document has %d)", sections),
			Fix:     fmt.Sprintf("add secCnt=\"%d\" to <hh:head>", sections)})
		return
	}
	n, ok := atoi(hd.secCnt)
	switch {
	case !ok:
		p.Add(formats.Finding{Code: CodeSecCnt, Grade: formats.Warning, Part: hd.part, Line: hd.line, Column: hd.column, Locator: hd.locator, Anchor: "secCnt-invalid",
			Message: fmt.Sprintf("<hh:head> has secCnt=%q, which is not a count; Hangul uses it to know how many sections to load (the document has %d)", hd.secCnt, sections),
			Fix:     fmt.Sprintf("set secCnt=\"%d\" on <hh:head>", sections)})
	case n > sections:
		// More sections declared than present: Hangul looks for the missing
		// section and refuses the file as damaged, even with forceopen —
		// measured on the same declared count of HWP5 (edwardkim/rhwp#6156,
		// Hancom COM 11.0) → fatal.
		p.Add(formats.Finding{Code: CodeSecCnt, Grade: formats.Fatal, Part: hd.part, Line: hd.line, Column: hd.column, Locator: hd.locator, Anchor: "secCnt>",
			Message: fmt.Sprintf("header.xml declares secCnt=%q but the document has %d section(s); Hangul looks for the missing section and reports the file as damaged", hd.secCnt, sections),
			Fix:     fmt.Sprintf("set secCnt=\"%d\" on <hh:head> (or restore the missing section part and its manifest and spine entries)", sections)})
	case n < sections:
		// Fewer declared than present: Hangul 2024 loads only the first
		// secCnt sections and the rest of the document silently disappears
		// (edwardkim/rhwp#1557, confirmed by changing secCnt alone, #1559)
		// → error (opens, shows wrong content).
		p.Add(formats.Finding{Code: CodeSecCnt, Grade: formats.Error, Part: hd.part, Line: hd.line, Column: hd.column, Locator: hd.locator, Anchor: "secCnt<",
			Message: fmt.Sprintf("header.xml declares secCnt=\"%d\" but the document has %d sections; Hangul opens it but shows only the first %d section(s), the rest of the document is not displayed", n, sections, n),
			Fix:     fmt.Sprintf("set secCnt=\"%d\" on <hh:head>", sections)})
	}
}

func atoi(s string) (int, bool) {
	s = strings.TrimSpace(s)
	if s == "" || len(s) > 9 {
		return 0, false
	}
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
		n = n*10 + int(s[i]-'0')
	}
	return n, true
}
