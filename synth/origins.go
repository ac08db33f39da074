package synth

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/editaudit/editaudit/formats"
)

// origins records which spec path produced which part of the output, so
// that a finding of the self-check names the spec path a model can fix:
// a part ("ppt/slides/slide3.xml" → "$.pptx.slides[2]"), a top-level
// element of a docx body, header or footer ("w:tbl[2]" → the block that
// wrote it, down to the table cell), a worksheet cell ("Sales!C4" →
// "$.xlsx.sheets[0].rows[3][2]").
type origins struct {
	parts  map[string]string
	bodies map[string]*bodyOrigin
	sheets map[string]sheetOrigin
}

// bodyOrigin lists the children of a part's block container
// (/w:document/w:body, /w:hdr, /w:ftr) in order, with the spec path of
// the block that wrote each.
type bodyOrigin struct {
	depth int // locator steps down to the container: 2 for /w:document/w:body
	elems []bodyElem
}

type bodyElem struct {
	qname string
	path  string
	table bool // a w:tbl written from a spec table: rows and cells map one to one
}

// sheetOrigin is a worksheet part's sheet: its name and spec path.
type sheetOrigin struct{ name, path string }

func newOrigins() *origins {
	return &origins{parts: map[string]string{}, bodies: map[string]*bodyOrigin{}, sheets: map[string]sheetOrigin{}}
}

// part records that part was written from the spec at path.
func (o *origins) part(part, path string) {
	if o != nil {
		o.parts[part] = path
	}
}

// body starts recording the container of part, depth locator steps down.
func (o *origins) body(part, path string, depth int) *bodyOrigin {
	if o == nil {
		return nil
	}
	o.part(part, path)
	b := &bodyOrigin{depth: depth}
	o.bodies[part] = b
	return b
}

// add records the next child of the container.
func (b *bodyOrigin) add(qname, path string, table bool) {
	if b != nil {
		b.elems = append(b.elems, bodyElem{qname, path, table})
	}
}

// sheet records the worksheet part of a sheet.
func (o *origins) sheet(part, name, path string) {
	if o != nil {
		o.part(part, path)
		o.sheets[part] = sheetOrigin{name, path}
	}
}

// pathOf is the spec path behind a finding: as precise as the part allows,
// "$" for the package as a whole.
func (o *origins) pathOf(f formats.Finding) string {
	if o == nil || f.Part == "" {
		return "$"
	}
	if sh, ok := o.sheets[f.Part]; ok {
		if ref, ok := strings.CutPrefix(f.Anchor, sh.name+"!"); ok {
			ref, _, _ = strings.Cut(ref, " ")
			if c, err := parseCellRef(ref); err == nil {
				return fmt.Sprintf("%s.rows[%d][%d]", sh.path, c.row-1, c.col-1)
			}
		}
		return sh.path
	}
	if b, ok := o.bodies[f.Part]; ok && f.Locator != "" {
		if p := b.pathOf(f.Locator); p != "" {
			return p
		}
	}
	if p, ok := o.parts[f.Part]; ok {
		return p
	}
	return "$"
}

// pathOf maps a locator (/w:document/w:body/w:tbl[2]/w:tr[3]/w:tc[1]/…)
// to the block that wrote it; "" when it is not inside a recorded child.
func (b *bodyOrigin) pathOf(loc string) string {
	steps := strings.Split(strings.TrimPrefix(loc, "/"), "/")
	if len(steps) <= b.depth {
		return ""
	}
	q, n, ok := locStep(steps[b.depth])
	if !ok {
		return ""
	}
	seen := 0
	for _, e := range b.elems {
		if e.qname != q {
			continue
		}
		if seen++; seen != n {
			continue
		}
		p := e.path
		if !e.table || len(steps) <= b.depth+1 {
			return p
		}
		if q, r, ok := locStep(steps[b.depth+1]); ok && q == "w:tr" {
			p += fmt.Sprintf(".table.rows[%d]", r-1)
			if len(steps) > b.depth+2 {
				if q, c, ok := locStep(steps[b.depth+2]); ok && q == "w:tc" {
					p += fmt.Sprintf(".cells[%d]", c-1)
				}
			}
		}
		return p
	}
	return ""
}

// locStep splits "w:tbl[2]" into "w:tbl" and 2.
func locStep(s string) (string, int, bool) {
	i := strings.IndexByte(s, '[')
	if i < 0 || !strings.HasSuffix(s, "]") {
		return "", 0, false
	}
	n, err := strconv.Atoi(s[i+1 : len(s)-1])
	return s[:i], n, err == nil
}
