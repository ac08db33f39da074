package docx

import (
	"context"
	"fmt"

	"github.com/editaudit/editaudit/formats"
)

// CodeUnknownW15 is an element in the Word 2012 (w15) namespace that the
// namespace does not define.
const CodeUnknownW15 = "docx.unknown-w15-element"

// NSW15 is the Word 2012 namespace of comment extensions.
const NSW15 = "http://schemas.microsoft.com/office/word/2010/11/wordml"

// commentsExHandler checks word/commentsExtended.xml: the only child of
// w15:commentsEx is w15:commentEx ([MS-DOCX] §2.6.2). Word 2013 and later
// understand the w15 namespace, so under Markup Compatibility (ECMA-376
// part 3 §10.2) an element it does not define there is not ignorable: the
// Open XML SDK's Invalid_Word15Comments test file carries w15:commentExNG.
// Word's own reaction is not documented, so a warning.
type commentsExHandler struct {
	formats.NopHandler
	part  string
	found []formats.Finding
}

func (h *commentsExHandler) Start(e *formats.Element) {
	if e.Depth != 2 || e.Name.Space != NSW15 || e.Name.Local == "commentEx" {
		return
	}
	h.found = append(h.found, formats.Finding{Code: CodeUnknownW15, Grade: formats.Warning, Part: h.part,
		Line: e.Line, Column: e.Column, Locator: e.Locator(), Anchor: e.QName(),
		Message: fmt.Sprintf("<%s> is not an element of the w15 namespace (comment extensions hold only w15:commentEx); Word understands w15 and may reject it", e.QName()),
		Fix:     "rename it to w15:commentEx or remove it"})
}

// checkCommentsEx scans the comment-extension parts of the main part.
func checkCommentsEx(ctx context.Context, p *formats.Package, rels *formats.Rels) []formats.Finding {
	var out []formats.Finding
	for _, part := range relatedParts(p, rels, "commentsExtended") {
		h := &commentsExHandler{part: part}
		p.ScanPart(ctx, part, h)
		out = append(out, h.found...)
	}
	return out
}

// relatedParts returns the parts in the package that relationships of the
// given types (last segment) point to, in relationship order.
func relatedParts(p *formats.Package, rels *formats.Rels, types ...string) []string {
	var out []string
	for _, typ := range types {
		for _, r := range rels.ByType(typ) {
			if !r.External && r.Resolved != "" && p.Has(r.Resolved) {
				out = append(out, p.Entry(r.Resolved).Part)
			}
		}
	}
	return out
}
