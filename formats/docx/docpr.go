package docx

import (
	"fmt"
	"strconv"

	"github.com/editaudit/editaudit/formats"
)

// docPr is one drawing's wp:docPr (its non-visual id and name).
type docPr struct {
	id, name, part, loc string
	line, col           int
	// shape: the drawing is (or holds) a text box, shape, group or canvas
	// (wps:wsp, wpg:wgp, wpc:wpc, w:txbxContent), not only a picture.
	shape bool
}

// docPrIndex gathers the drawings of every scanned part: drawing ids are
// compared across the whole document (body, headers, footers…).
type docPrIndex struct {
	all []docPr
}

func (x *docPrIndex) add(d docPr) { x.all = append(x.all, d) }

// findings reports drawings that reuse another drawing's wp:docPr/@id
// when a text box or shape is among them.
//
// The evidence is disputed, so the grade is error and only for the case
// with a report behind it: dolanmiu/docx#2719 — a text box in a footer and
// an image both carrying id 1 make Word report unreadable content —
// against tensorbee/rdocx#72 — image-only duplicates across parts (a logo
// in the header and a figure in the body, as Word and Google Docs write
// them) open fine in Word, LibreOffice and Google Docs. Image-only
// duplicates are therefore not reported at all. ECMA-376 part 1
// §20.4.2.5 asks for unique ids.
func (x *docPrIndex) findings() []formats.Finding {
	byID := map[string][]int{}
	var order []string
	maxID := 0
	for i, d := range x.all {
		if d.id == "" {
			continue
		}
		if v, err := strconv.Atoi(d.id); err == nil && v > maxID {
			maxID = v
		}
		if _, ok := byID[d.id]; !ok {
			order = append(order, d.id)
		}
		byID[d.id] = append(byID[d.id], i)
	}
	var out []formats.Finding
	for _, id := range order {
		idx := byID[id]
		if len(idx) < 2 {
			continue
		}
		shape := false
		for _, i := range idx {
			shape = shape || x.all[i].shape
		}
		if !shape {
			continue
		}
		first := x.all[idx[0]]
		for n, i := range idx[1:] {
			d := x.all[i]
			out = append(out, formats.Finding{Code: CodeDocPrDuplicateShape, Grade: formats.Error, Part: d.part,
				Line: d.line, Column: d.col, Locator: d.loc,
				Message: fmt.Sprintf("the %s %q reuses drawing id %s, already used by the %s %q in %s; when a text box or shape shares its id with another drawing, Word reports unreadable content (duplicates between pictures alone open fine)",
					kindName(d.shape), d.name, id, kindName(first.shape), first.name, first.part),
				Fix:    fmt.Sprintf("give this <wp:docPr> a unique id, e.g. id=\"%d\" (ids must be unique across the body, headers and footers)", maxID+1+n),
				Anchor: fmt.Sprintf("docPr id %s %q", id, d.name)})
		}
	}
	return out
}

func kindName(shape bool) string {
	if shape {
		return "text box or shape"
	}
	return "drawing"
}
