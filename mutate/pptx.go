package mutate

import (
	"fmt"

	"github.com/editaudit/editaudit/formats"
)

// applySlideDeleted deletes a slide the way python-pptx users do (the
// widely copied recipe: drop the rId from presentation part, remove the
// sldId from sldIdLst). python-pptx then saves only the parts it can reach,
// so the slide, its notes slide and media only it used leave the package
// together with their content-type Overrides. The slide deleted is the
// first one with text from the second slide on (else the first): a
// deleted slide must take paragraphs and runs with it for the expectation
// to hold.
func applySlideDeleted(p *zpkg, _ formats.Format) (string, []string, error) {
	before, err := reachable(p)
	if err != nil {
		return "", nil, err
	}
	pres, slides, err := slideParts(p)
	if err != nil {
		return "", nil, err
	}
	hasRuns := func(part string) bool {
		doc, err := loadXML(p, part)
		return err == nil && len(descendants(doc.Root(), nsA, "r")) > 0
	}
	target := ""
	for i := 1; i < len(slides) && target == ""; i++ {
		if hasRuns(slides[i]) {
			target = slides[i]
		}
	}
	if target == "" && len(slides) > 0 && hasRuns(slides[0]) {
		target = slides[0]
	}
	if target == "" {
		return "", nil, fmt.Errorf("%w: no slide with text", ErrNotApplicable)
	}
	doc, err := loadXML(p, pres)
	if err != nil {
		return "", nil, err
	}
	slideDoc, err := loadXML(p, target)
	if err != nil {
		return "", nil, err
	}
	slideRels, _, err := readRels(p, target)
	if err != nil {
		return "", nil, err
	}
	rs, rdoc, err := readRels(p, pres)
	if err != nil {
		return "", nil, err
	}
	rid := ""
	for _, r := range rs {
		if r.target == target {
			rid = r.id
			rdoc.Root().RemoveChild(r.el)
		}
	}
	for _, lst := range children(doc.Root(), nsP, "sldIdLst") {
		for _, s := range children(lst, nsP, "sldId") {
			if id, _ := attrNS(s, nsR, "id"); id == rid {
				lst.RemoveChild(s)
			}
		}
	}
	if err := saveXML(p, pres, doc); err != nil {
		return "", nil, err
	}
	if err := saveXML(p, formats.RelsPartOf(pres), rdoc); err != nil {
		return "", nil, err
	}
	gone, err := dropUnreachable(p, before)
	if err != nil {
		return "", nil, err
	}
	shrinks := []string{"slides", "paragraphs", "runs"}
	for _, r := range slideRels {
		if hasSuffixFold(r.typ, "/notesSlide") {
			shrinks = append(shrinks, "notes")
			break
		}
	}
	if len(descendants(slideDoc.Root(), nsA, "tbl")) > 0 {
		shrinks = append(shrinks, "tables")
	}
	return fmt.Sprintf("deleted %s (%s); dropped %v", target, rid, gone), shrinks, nil
}

// applyRunsDropped keeps only the first run of the first slide paragraph
// that has two or more runs (code that rewrites paragraph text through
// runs[0] and deletes the rest loses their formatting and text).
func applyRunsDropped(p *zpkg, _ formats.Format) (string, []string, error) {
	_, slides, err := slideParts(p)
	if err != nil {
		return "", nil, err
	}
	for _, part := range slides {
		doc, err := loadXML(p, part)
		if err != nil {
			return "", nil, err
		}
		for _, para := range descendants(doc.Root(), nsA, "p") {
			runs := children(para, nsA, "r")
			if len(runs) < 2 {
				continue
			}
			for _, r := range runs[1:] {
				para.RemoveChild(r)
			}
			if err := saveXML(p, part, doc); err != nil {
				return "", nil, err
			}
			return fmt.Sprintf("%s: %s kept 1 of %d runs", part, locator(para), len(runs)), nil, nil
		}
	}
	return "", nil, fmt.Errorf("%w: no slide paragraph with two or more runs", ErrNotApplicable)
}
