package mutate

import (
	"fmt"
	"strings"

	"github.com/beevik/etree"
	"github.com/editaudit/editaudit/formats"
)

// docxBody loads the main document part and its w:body.
func docxBody(p *zpkg) (string, *etree.Document, *etree.Element, error) {
	main, err := mainPart(p)
	if err != nil {
		return "", nil, nil, err
	}
	doc, err := loadXML(p, main)
	if err != nil {
		return "", nil, nil, err
	}
	bodies := children(doc.Root(), nsW, "body")
	if len(bodies) == 0 {
		return "", nil, nil, fmt.Errorf("%w: %s has no w:body", ErrNotApplicable, main)
	}
	return main, doc, bodies[0], nil
}

// wEl creates a w: element, using the prefix the document binds to the
// WordprocessingML namespace.
func wEl(ref *etree.Element, local string) *etree.Element {
	el := etree.NewElement(local)
	el.Space = ref.Space
	return el
}

// cellText is python-docx's _Cell.text getter: the text of the cell's own
// paragraphs joined by newlines (nested tables are not included).
func cellText(tc *etree.Element) string {
	var paras []string
	for _, p := range children(tc, nsW, "p") {
		var b strings.Builder
		walk(p, func(e *etree.Element) bool {
			switch {
			case is(e, nsW, "t"):
				b.WriteString(e.Text())
			case is(e, nsW, "tab"):
				b.WriteByte('\t')
			case is(e, nsW, "br"), is(e, nsW, "cr"):
				b.WriteByte('\n')
			}
			return true
		})
		paras = append(paras, b.String())
	}
	return strings.Join(paras, "\n")
}

// applyNestedTablesWiped imitates python-docx's `cell.text = …` setter
// (docx/table.py _Cell.text: tc.clear_content() then one paragraph with
// one run): on the first cell in document order that holds a nested table,
// everything but w:tcPr is removed and one paragraph with the cell's own
// text is added. The file stays valid; two nested tables silently go.
func applyNestedTablesWiped(p *zpkg, _ formats.Format) (string, []string, error) {
	main, doc, body, err := docxBody(p)
	if err != nil {
		return "", nil, err
	}
	var target *etree.Element
	walk(body, func(e *etree.Element) bool {
		if target != nil {
			return false
		}
		if is(e, nsW, "tc") && len(children(e, nsW, "tbl")) > 0 {
			target = e
			return false
		}
		return true
	})
	if target == nil {
		return "", nil, fmt.Errorf("%w: no table cell holds a nested table", ErrNotApplicable)
	}
	text := cellText(target)
	nested := len(descendants(target, nsW, "tbl"))
	for _, c := range target.ChildElements() {
		if !is(c, nsW, "tcPr") {
			target.RemoveChild(c)
		}
	}
	para := wEl(target, "p")
	run := wEl(target, "r")
	para.AddChild(run)
	for i, line := range strings.Split(text, "\n") {
		if i > 0 {
			run.AddChild(wEl(target, "br"))
		}
		if line == "" {
			continue // python-docx writes no w:t for an empty chunk
		}
		t := wEl(target, "t")
		t.CreateAttr("xml:space", "preserve")
		t.SetText(line)
		run.AddChild(t)
	}
	target.AddChild(para)
	if err := saveXML(p, main, doc); err != nil {
		return "", nil, err
	}
	return fmt.Sprintf("%s: cell.text set on %s; %d nested tables removed", main, locator(target), nested), nil, nil
}

// applyDocxRowDeleted removes one row: in the first table of the body (top
// level first, then nested) with at least two rows, the last row (not the
// first) that holds no nested table and no vertical merge, so that the
// change is exactly one row and its cells.
func applyDocxRowDeleted(p *zpkg, _ formats.Format) (string, []string, error) {
	main, doc, body, err := docxBody(p)
	if err != nil {
		return "", nil, err
	}
	eligible := func(tr *etree.Element) bool {
		return len(descendants(tr, nsW, "tbl")) == 0 && len(descendants(tr, nsW, "vMerge")) == 0 && len(children(tr, nsW, "tc")) > 0
	}
	pick := func(tbls []*etree.Element) (*etree.Element, *etree.Element) {
		for _, tbl := range tbls {
			rows := children(tbl, nsW, "tr")
			for i := len(rows) - 1; i >= 1; i-- {
				if eligible(rows[i]) {
					return tbl, rows[i]
				}
			}
		}
		return nil, nil
	}
	tbl, row := pick(children(body, nsW, "tbl"))
	if row == nil {
		tbl, row = pick(descendants(body, nsW, "tbl"))
	}
	if row == nil {
		return "", nil, fmt.Errorf("%w: no table with a deletable second or later row", ErrNotApplicable)
	}
	where := locator(row)
	tbl.RemoveChild(row)
	if err := saveXML(p, main, doc); err != nil {
		return "", nil, err
	}
	return fmt.Sprintf("%s: removed %s", main, where), nil, nil
}

// applyParagraphAppended adds one paragraph at the end of the body (before
// the final w:sectPr, CT_Body).
func applyParagraphAppended(p *zpkg, _ formats.Format) (string, []string, error) {
	main, doc, body, err := docxBody(p)
	if err != nil {
		return "", nil, err
	}
	para := wEl(body, "p")
	run := wEl(body, "r")
	t := wEl(body, "t")
	t.SetText("This paragraph was appended by the edit.")
	run.AddChild(t)
	para.AddChild(run)
	idx := len(body.Child)
	if sp := children(body, nsW, "sectPr"); len(sp) > 0 {
		idx = sp[len(sp)-1].Index()
	}
	body.InsertChildAt(idx, para)
	if err := saveXML(p, main, doc); err != nil {
		return "", nil, err
	}
	return main + ": appended one paragraph at the end of the body", nil, nil
}

// applyPageBreakTop inserts a paragraph holding a page break as the first
// child of the body.
func applyPageBreakTop(p *zpkg, _ formats.Format) (string, []string, error) {
	main, doc, body, err := docxBody(p)
	if err != nil {
		return "", nil, err
	}
	para := wEl(body, "p")
	run := wEl(body, "r")
	br := wEl(body, "br")
	if body.Space != "" {
		br.CreateAttr(body.Space+":type", "page")
	} else {
		br.CreateAttr("type", "page")
	}
	run.AddChild(br)
	para.AddChild(run)
	body.InsertChildAt(0, para)
	if err := saveXML(p, main, doc); err != nil {
		return "", nil, err
	}
	return main + ": inserted a page-break paragraph at the top of the body", nil, nil
}

// applyWordReplaced replaces one word of four or more ASCII letters in the
// first text element (w:t in the docx body, a:t on the first slide with
// text) by another word of the same length.
func applyWordReplaced(p *zpkg, f formats.Format) (string, []string, error) {
	var parts []string
	var ns string
	switch f {
	case formats.DOCX:
		main, err := mainPart(p)
		if err != nil {
			return "", nil, err
		}
		parts, ns = []string{main}, nsW
	case formats.PPTX:
		_, slides, err := slideParts(p)
		if err != nil {
			return "", nil, err
		}
		parts, ns = slides, nsA
	}
	for _, part := range parts {
		doc, err := loadXML(p, part)
		if err != nil {
			return "", nil, err
		}
		for _, t := range descendants(doc.Root(), ns, "t") {
			text := t.Text()
			loc := asciiWord.FindStringIndex(text)
			if loc == nil {
				continue
			}
			old := text[loc[0]:loc[1]]
			repl := replacementWord(old)
			t.SetText(text[:loc[0]] + repl + text[loc[1]:])
			if err := saveXML(p, part, doc); err != nil {
				return "", nil, err
			}
			return fmt.Sprintf("%s: replaced %q by %q", part, old, repl), nil, nil
		}
	}
	return "", nil, fmt.Errorf("%w: no text with a word of four or more letters", ErrNotApplicable)
}
