package mutate

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/beevik/etree"
	"github.com/editaudit/editaudit/formats"
	"github.com/editaudit/editaudit/formats/xlsx"
)

// SpreadsheetML drawing and chart namespaces, Transitional and Strict
// (ISO/IEC 29500-1 §18; Strict files use the purl.oclc.org namespaces).
const (
	nsXDR         = "http://schemas.openxmlformats.org/drawingml/2006/spreadsheetDrawing"
	nsXDRStrict   = "http://purl.oclc.org/ooxml/drawingml/spreadsheetDrawing"
	nsChart       = "http://schemas.openxmlformats.org/drawingml/2006/chart"
	nsChartStrict = "http://purl.oclc.org/ooxml/drawingml/chart"
)

// ss reports whether el is SpreadsheetML element local.
func ss(el *etree.Element, local string) bool {
	if el == nil || el.Tag != local {
		return false
	}
	ns := el.NamespaceURI()
	return ns == xlsx.NSMain || ns == xlsx.NSMainS
}

func ssChildren(el *etree.Element, local string) []*etree.Element {
	var out []*etree.Element
	for _, c := range el.ChildElements() {
		if ss(c, local) {
			out = append(out, c)
		}
	}
	return out
}

// applyOpenpyxlResave imitates what an openpyxl load_workbook/save cycle
// loses when it does not read a workbook's drawings back (DEFECTS.md;
// openpyxl's documentation: "openpyxl does currently not read all possible
// items in an Excel file so shapes will be lost", and charts and images
// read back only in the forms it models): each sheet's <drawing> element
// and relationship are not written, and neither are the drawing, chart and
// media parts.
func applyOpenpyxlResave(p *zpkg, _ formats.Format) (string, []string, error) {
	before, err := reachable(p)
	if err != nil {
		return "", nil, err
	}
	sheets, err := sheetParts(p, false)
	if err != nil {
		return "", nil, err
	}
	charts, images, drawings := 0, 0, 0
	for _, sheet := range sheets {
		doc, err := loadXML(p, sheet)
		if err != nil {
			return "", nil, err
		}
		ds := ssChildren(doc.Root(), "drawing")
		if len(ds) == 0 {
			continue
		}
		rs, rdoc, err := readRels(p, sheet)
		if err != nil {
			return "", nil, err
		}
		for _, d := range ds {
			rid, _ := attrNS(d, nsR, "id")
			for _, r := range rs {
				if r.id != rid {
					continue
				}
				if r.target != "" && p.has(r.target) {
					ddoc, err := loadXML(p, r.target)
					if err != nil {
						return "", nil, err
					}
					walk(ddoc.Root(), func(e *etree.Element) bool {
						switch ns := e.NamespaceURI(); {
						case e.Tag == "pic" && (ns == nsXDR || ns == nsXDRStrict):
							images++
						case e.Tag == "chart" && (ns == nsChart || ns == nsChartStrict):
							charts++
						}
						return true
					})
				}
				rdoc.Root().RemoveChild(r.el)
			}
			doc.Root().RemoveChild(d)
			drawings++
		}
		if err := saveXML(p, sheet, doc); err != nil {
			return "", nil, err
		}
		if rdoc != nil {
			if len(rdoc.Root().ChildElements()) == 0 {
				p.remove(formats.RelsPartOf(sheet))
			} else if err := saveXML(p, formats.RelsPartOf(sheet), rdoc); err != nil {
				return "", nil, err
			}
		}
	}
	if drawings == 0 {
		return "", nil, fmt.Errorf("%w: no worksheet has a drawing", ErrNotApplicable)
	}
	gone, err := dropUnreachable(p, before)
	if err != nil {
		return "", nil, err
	}
	shrinks := []string{}
	if charts > 0 {
		shrinks = append(shrinks, "charts")
	}
	if images > 0 {
		shrinks = append(shrinks, "images")
	}
	return fmt.Sprintf("removed %d drawings (%d charts, %d pictures); dropped %v", drawings, charts, images, gone), shrinks, nil
}

// sheetParts returns the workbook's sheet parts (worksheets, and unless
// worksheetsOnly also chartsheets and dialog sheets) in workbook order,
// resolved through the workbook's relationships (ECMA-376 part 1 §18.2.19
// sheet), never guessed from file names. The workbook is
// xl/workbook.xml when the package has it (as detectFormat decides, so a
// package whose _rels/.rels is damaged can still be edited), else the
// officeDocument part.
func sheetParts(p *zpkg, worksheetsOnly bool) ([]string, error) {
	wb := "xl/workbook.xml"
	if !p.has(wb) {
		var err error
		if wb, err = mainPart(p); err != nil {
			return nil, err
		}
	}
	doc, err := loadXML(p, wb)
	if err != nil {
		return nil, err
	}
	rs, _, err := readRels(p, wb)
	if err != nil {
		return nil, err
	}
	byID := map[string]relEntry{}
	for _, r := range rs {
		byID[r.id] = r
	}
	var out []string
	for _, lst := range ssChildren(doc.Root(), "sheets") {
		for _, sh := range ssChildren(lst, "sheet") {
			rid, _ := attrNS(sh, nsR, "id")
			r, ok := byID[rid]
			if !ok {
				return nil, fmt.Errorf("sheet %q has no relationship %q", sh.SelectAttrValue("name", ""), rid)
			}
			if !worksheetsOnly || strings.HasSuffix(r.typ, "/worksheet") {
				out = append(out, r.target)
			}
		}
	}
	return out, nil
}

// worksheetParts is sheetParts without chartsheets and dialog sheets.
func worksheetParts(p *zpkg) ([]string, error) { return sheetParts(p, true) }

// firstWorksheet is the workbook's first worksheet part (ErrNotApplicable
// without one).
func firstWorksheet(p *zpkg) (string, error) {
	sheets, err := worksheetParts(p)
	if err != nil {
		return "", err
	}
	if len(sheets) == 0 {
		return "", fmt.Errorf("%w: no worksheet", ErrNotApplicable)
	}
	return sheets[0], nil
}

// hasValue reports whether a cell holds a value or formula.
func hasValue(c *etree.Element) bool {
	return len(ssChildren(c, "v")) > 0 || len(ssChildren(c, "f")) > 0 || len(ssChildren(c, "is")) > 0
}

// applyXlsxRowDeleted removes the last row with values of the first
// worksheet. When the row held formulas and the workbook has a calcChain
// part, that part goes too (openpyxl never writes it): a calc chain naming
// cells that no longer hold formulas makes Excel repair the file.
func applyXlsxRowDeleted(p *zpkg, _ formats.Format) (string, []string, error) {
	sheet, err := firstWorksheet(p)
	if err != nil {
		return "", nil, err
	}
	doc, err := loadXML(p, sheet)
	if err != nil {
		return "", nil, err
	}
	sds := ssChildren(doc.Root(), "sheetData")
	if len(sds) == 0 {
		return "", nil, fmt.Errorf("%w: %s has no sheetData", ErrNotApplicable, sheet)
	}
	var filled []*etree.Element
	for _, row := range ssChildren(sds[0], "row") {
		for _, c := range ssChildren(row, "c") {
			if hasValue(c) {
				filled = append(filled, row)
				break
			}
		}
	}
	if len(filled) < 2 {
		return "", nil, fmt.Errorf("%w: %s has fewer than two rows with values", ErrNotApplicable, sheet)
	}
	row := filled[len(filled)-1]
	formulas := 0
	for _, c := range ssChildren(row, "c") {
		formulas += len(ssChildren(c, "f"))
	}
	sds[0].RemoveChild(row)
	if err := saveXML(p, sheet, doc); err != nil {
		return "", nil, err
	}
	note := fmt.Sprintf("%s: removed row %s", sheet, row.SelectAttrValue("r", "?"))
	if formulas > 0 {
		rs, rdoc, err := readRels(p, "xl/workbook.xml")
		if err != nil {
			return "", nil, err
		}
		for _, r := range rs {
			if hasSuffixFold(r.typ, "/calcChain") {
				rdoc.Root().RemoveChild(r.el)
				p.remove(r.target)
				if err := saveXML(p, formats.RelsPartOf("xl/workbook.xml"), rdoc); err != nil {
					return "", nil, err
				}
				if err := editContentTypes(p, func(ct *etree.Element) { removeOverride(ct, r.target) }); err != nil {
					return "", nil, err
				}
				note += "; dropped " + r.target
			}
		}
	}
	return note, nil, nil
}

// applyValueChanged adds one to the first numeric constant of the first
// worksheet; without one, it changes the first shared string a cell uses.
func applyValueChanged(p *zpkg, _ formats.Format) (string, []string, error) {
	sheet, err := firstWorksheet(p)
	if err != nil {
		return "", nil, err
	}
	doc, err := loadXML(p, sheet)
	if err != nil {
		return "", nil, err
	}
	firstShared := -1
	for _, sd := range ssChildren(doc.Root(), "sheetData") {
		for _, row := range ssChildren(sd, "row") {
			for _, c := range ssChildren(row, "c") {
				vs := ssChildren(c, "v")
				if len(vs) == 0 || len(ssChildren(c, "f")) > 0 {
					continue
				}
				switch c.SelectAttrValue("t", "n") {
				case "n":
					n, err := strconv.ParseFloat(strings.TrimSpace(vs[0].Text()), 64)
					if err != nil {
						continue
					}
					old := strings.TrimSpace(vs[0].Text())
					nv := strconv.FormatFloat(n+1, 'f', -1, 64)
					vs[0].SetText(nv)
					if err := saveXML(p, sheet, doc); err != nil {
						return "", nil, err
					}
					return fmt.Sprintf("%s: cell %s %s → %s", sheet, c.SelectAttrValue("r", "?"), old, nv), nil, nil
				case "s":
					if firstShared < 0 {
						if i, err := strconv.Atoi(strings.TrimSpace(vs[0].Text())); err == nil {
							firstShared = i
						}
					}
				}
			}
		}
	}
	if firstShared < 0 {
		return "", nil, fmt.Errorf("%w: no constant value in %s", ErrNotApplicable, sheet)
	}
	var sst string
	for _, n := range p.names() {
		if strings.HasSuffix(strings.ToLower(n), "sharedstrings.xml") {
			sst = n
		}
	}
	if sst == "" {
		return "", nil, fmt.Errorf("%w: no shared strings part", ErrNotApplicable)
	}
	sdoc, err := loadXML(p, sst)
	if err != nil {
		return "", nil, err
	}
	sis := ssChildren(sdoc.Root(), "si")
	if firstShared >= len(sis) {
		return "", nil, fmt.Errorf("%w: shared string %d out of range", ErrNotApplicable, firstShared)
	}
	ts := descendants(sis[firstShared], xlsx.NSMain, "t")
	if len(ts) == 0 {
		return "", nil, fmt.Errorf("%w: shared string %d has no text", ErrNotApplicable, firstShared)
	}
	old := ts[0].Text()
	ts[0].SetText(old + " (changed)")
	if err := saveXML(p, sst, sdoc); err != nil {
		return "", nil, err
	}
	return fmt.Sprintf("%s: shared string %d %q → %q", sst, firstShared, old, old+" (changed)"), nil, nil
}
