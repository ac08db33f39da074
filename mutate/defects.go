package mutate

import (
	"fmt"
	"strings"

	"github.com/beevik/etree"
	"github.com/editaudit/editaudit/formats"
)

// Defect injectors: each writes one defect of DEFECTS.md whose finding
// code is fixed in formats/codes.go.

// ctXML is the generic XML content type a part falls back to.
const ctXML = "application/xml"

// applyIllegalChar writes U+000B raw into the middle of the first text
// node of the main text part (DEFECTS.md: XML-illegal characters make
// Word and Excel repair the part; exceljs#234, rubyXL#243).
func applyIllegalChar(p *zpkg, f formats.Format) (string, []string, error) {
	part, err := textPart(p, string(f))
	if err != nil {
		return "", nil, err
	}
	note, err := insertInText(p, part, "\x0B")
	return note, nil, err
}

// applyNotWellFormed writes an unescaped ampersand into the first text
// node: the classic result of building XML by string concatenation.
func applyNotWellFormed(p *zpkg, f formats.Format) (string, []string, error) {
	part, err := textPart(p, string(f))
	if err != nil {
		return "", nil, err
	}
	note, err := insertInText(p, part, " & ")
	return note, nil, err
}

// ctTarget is the main part whose content type the ct.* injectors break:
// the first slide or the first worksheet.
func ctTarget(p *zpkg, f formats.Format) (string, error) {
	switch f {
	case formats.PPTX:
		_, slides, err := slideParts(p)
		if err != nil {
			return "", err
		}
		if len(slides) == 0 {
			return "", fmt.Errorf("%w: no slide", ErrNotApplicable)
		}
		return slides[0], nil
	case formats.XLSX:
		return firstWorksheet(p)
	}
	return "", ErrNotApplicable
}

// applyCTNoType removes the part's Override and the Default for "xml":
// the part then has no content type at all (OPC part 2 §10.1.2.4).
func applyCTNoType(p *zpkg, f formats.Format) (string, []string, error) {
	target, err := ctTarget(p, f)
	if err != nil {
		return "", nil, err
	}
	ext := target[strings.LastIndexByte(target, '.')+1:]
	var had bool
	var pinned []string
	err = editContentTypes(p, func(ct *etree.Element) {
		had = removeOverride(ct, target)
		d := defaultFor(ct, ext)
		if d == nil {
			return
		}
		// Other parts typed through this Default keep their type through
		// an Override of their own, so that only the target loses it.
		overridden := map[string]bool{}
		for _, o := range ct.ChildElements() {
			if o.Tag == "Override" {
				overridden[strings.ToLower(strings.TrimPrefix(o.SelectAttrValue("PartName", ""), "/"))] = true
			}
		}
		for _, n := range p.names() {
			if n == target || n == ctPart || strings.HasSuffix(n, "/") || !strings.EqualFold(n[strings.LastIndexByte(n, '.')+1:], ext) || overridden[strings.ToLower(n)] {
				continue
			}
			o := etree.NewElement("Override")
			o.Space = ct.Space
			o.CreateAttr("PartName", "/"+n)
			o.CreateAttr("ContentType", d.SelectAttrValue("ContentType", ""))
			ct.AddChild(o)
			pinned = append(pinned, n)
		}
		ct.RemoveChild(d)
	})
	if err != nil {
		return "", nil, err
	}
	if !had {
		return "", nil, fmt.Errorf("%w: %s has no Override", ErrNotApplicable, target)
	}
	note := fmt.Sprintf("removed the Override of /%s and the Default for .%s", target, ext)
	if len(pinned) > 0 {
		note += fmt.Sprintf("; %d other parts typed by that Default got Overrides", len(pinned))
	}
	return note, nil, nil
}

// applyCTWrongMainType removes the part's Override and makes sure the
// Default for "xml" is application/xml: the slide or worksheet then
// resolves to a generic XML type. This is the deliberate choice for the
// common case (a Default for xml exists in nearly every package); when
// the Default is absent too, the result is ct.no-type instead, which is
// why that case is a separate kind.
func applyCTWrongMainType(p *zpkg, f formats.Format) (string, []string, error) {
	target, err := ctTarget(p, f)
	if err != nil {
		return "", nil, err
	}
	ext := target[strings.LastIndexByte(target, '.')+1:]
	var had, added bool
	err = editContentTypes(p, func(ct *etree.Element) {
		had = removeOverride(ct, target)
		if defaultFor(ct, ext) == nil {
			d := etree.NewElement("Default")
			d.Space = ct.Space
			d.CreateAttr("Extension", ext)
			d.CreateAttr("ContentType", ctXML)
			ct.InsertChildAt(0, d) // Defaults conventionally precede Overrides
			added = true
		}
	})
	if err != nil {
		return "", nil, err
	}
	if !had {
		return "", nil, fmt.Errorf("%w: %s has no Override", ErrNotApplicable, target)
	}
	note := fmt.Sprintf("removed the Override of /%s; it falls back to the Default for .%s", target, ext)
	if added {
		note += " (added as application/xml)"
	}
	return note, nil, nil
}

// applyTargetMissing deletes the first image part that a picture part's
// relationships name, keeping the relationship (and dropping an Override
// for the image, if any, so that the only defect is the dangling target).
func applyTargetMissing(p *zpkg, f formats.Format) (string, []string, error) {
	parts, err := pictureParts(p, f)
	if err != nil {
		return "", nil, err
	}
	for _, part := range parts {
		rs, _, err := readRels(p, part)
		if err != nil {
			return "", nil, err
		}
		for _, r := range rs {
			if r.target == "" || !hasSuffixFold(r.typ, "/image") || !p.has(r.target) {
				continue
			}
			p.remove(r.target)
			if err := editContentTypes(p, func(ct *etree.Element) { removeOverride(ct, r.target) }); err != nil {
				return "", nil, err
			}
			return fmt.Sprintf("deleted %s; %s still names it as %s", r.target, formats.RelsPartOf(part), r.id), nil, nil
		}
	}
	return "", nil, fmt.Errorf("%w: no image relationship", ErrNotApplicable)
}

// applyUndefinedID points the first picture's r:embed at rIdX999, which
// the part's relationships do not define (anthropics/skills#1060).
func applyUndefinedID(p *zpkg, f formats.Format) (string, []string, error) {
	part, doc, blip, rid, err := firstBlip(p, f)
	if err != nil {
		return "", nil, err
	}
	for i := range blip.Attr {
		a := &blip.Attr[i]
		if a.Key == "embed" && sameNS(a.NamespaceURI(), nsR) {
			a.Value = "rIdX999"
		}
	}
	if err := saveXML(p, part, doc); err != nil {
		return "", nil, err
	}
	return fmt.Sprintf("%s: r:embed %s changed to rIdX999", part, rid), nil, nil
}

// applyRepacked rewrites every entry stored instead of deflated. The
// content does not change, so the audit must report nothing.
func applyRepacked(p *zpkg, _ formats.Format) (string, []string, error) {
	p.storeAll = true
	return fmt.Sprintf("%d entries rewritten stored", len(p.names())), nil, nil
}

func hasSuffixFold(s, suffix string) bool {
	return len(s) >= len(suffix) && strings.EqualFold(s[len(s)-len(suffix):], suffix)
}

// pictureParts returns the parts holding pictures (a:blip r:embed) in the
// order the injectors look at them: the docx main part, headers and
// footers; the slides; the xlsx drawings.
func pictureParts(p *zpkg, f formats.Format) ([]string, error) {
	switch f {
	case formats.DOCX:
		main, err := mainPart(p)
		if err != nil {
			return nil, err
		}
		out := []string{main}
		rs, _, err := readRels(p, main)
		if err != nil {
			return nil, err
		}
		for _, r := range rs {
			if r.target != "" && (hasSuffixFold(r.typ, "/header") || hasSuffixFold(r.typ, "/footer")) {
				out = append(out, r.target)
			}
		}
		return out, nil
	case formats.PPTX:
		_, slides, err := slideParts(p)
		return slides, err
	case formats.XLSX:
		sheets, err := worksheetParts(p)
		if err != nil {
			return nil, err
		}
		var out []string
		for _, s := range sheets {
			rs, _, err := readRels(p, s)
			if err != nil {
				return nil, err
			}
			for _, r := range rs {
				if r.target != "" && hasSuffixFold(r.typ, "/drawing") {
					out = append(out, r.target)
				}
			}
		}
		return out, nil
	}
	return nil, ErrNotApplicable
}

// firstBlip finds the first a:blip with an r:embed in the picture parts.
func firstBlip(p *zpkg, f formats.Format) (part string, doc *etree.Document, blip *etree.Element, rid string, err error) {
	parts, err := pictureParts(p, f)
	if err != nil {
		return "", nil, nil, "", err
	}
	for _, part := range parts {
		if !p.has(part) {
			continue
		}
		doc, err := loadXML(p, part)
		if err != nil {
			return "", nil, nil, "", err
		}
		for _, b := range descendants(doc.Root(), nsA, "blip") {
			if id, ok := attrNS(b, nsR, "embed"); ok && id != "" {
				return part, doc, b, id, nil
			}
		}
	}
	return "", nil, nil, "", fmt.Errorf("%w: no picture (a:blip r:embed)", ErrNotApplicable)
}
