package docx

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/editaudit/editaudit/formats"
)

// kind classifies an open element for the counter and the checks.
type kind uint8

const (
	kOther      kind = iota
	kSkip            // mc:Fallback, a second mc:Choice, or anything inside them
	kAlt             // mc:AlternateContent
	kChoice          // the first mc:Choice of an AlternateContent (counted)
	kP               // w:p
	kR               // w:r
	kRunHost         // w:hyperlink, w:ins, w:del, w:moveFrom, w:moveTo, w:smartTag, w:fldSimple, w:dir, w:bdo
	kRunContent      // w:t, w:br, w:drawing, w:tab… (EG_RunInnerContent)
	kTbl             // w:tbl
	kTr              // w:tr
	kTc              // w:tc
	kSdt             // w:sdt (transparent through its w:sdtContent)
	kSdtContent      // w:sdtContent
	kCustomXML       // w:customXml (transparent)
	kProp            // property elements: w:pPr, w:rPr, w:tcPr, w:sdtPr…: never content
	kRange           // range markup: bookmarks, comment ranges, permissions, proofErr
	kTxbx            // w:txbxContent
	kDrawing         // wp:inline, wp:anchor
	kBlock           // w:body, w:hdr, w:ftr, w:footnote, w:endnote, w:comment: block containers
)

// lastBlock is what a table cell ended with so far.
type lastBlock uint8

const (
	lastNone lastBlock = iota
	lastP
	lastTbl
	lastOther
)

// counters are the running structure counts of one part.
type counters struct {
	tables, rows, cells, paragraphs, nested int
}

// frame is the handler's state for one open element. Frames live in a
// stack reused across elements (their excerpt buffers too).
type frame struct {
	kind kind
	// n counts rows (tbl), cells (tr), choices (AlternateContent), nested
	// tables started directly in the cell's content (tc).
	n int
	// ord is the 1-based ordinal: table number (top-level in the part, or
	// nested within its cell), row number in its table, cell number in its
	// row.
	ord int
	// last and lastName: the last block-level child of a tc.
	last     lastBlock
	lastName string
	// snap are the part counters when the element started (tables and
	// cells, for their sites).
	snap counters
	// site is the index of the table's reserved site (-1: none).
	site int
	// excerpt collects the text of a paragraph, table or cell (capped).
	excerpt []byte
	// pending findings complete their anchor with the excerpt at the end
	// of the element.
	pending []pendingFinding
	// shape: the drawing holds a text box or shape; docPr its wp:docPr.
	shape bool
	docPr *docPr
	// Property checks: local is a property element's local name, order its
	// schema order, seen/seenNames its ordered children so far; flags.
	local     string
	order     *propOrder
	seen      []uint8
	seenNames []string
	flags     uint8
}

type pendingFinding struct {
	f      formats.Finding
	anchor string // prefix; the element's excerpt is appended
}

const excerptCap = 60

// storyHandler scans one part of the document (the body, a header…).
type storyHandler struct {
	formats.NopHandler
	part, label string
	maxPerCode  int
	ids         *docPrIndex
	refs        *idIndex
	defKind     *IDRefKind // the kind this part defines (comments, notes), from its root

	stack    []frame
	skip     int // depth inside skipped markup-compatibility branches
	tblDepth int
	topTbls  int
	c        counters
	lastPara string // excerpt of the last closed paragraph

	tableSites []formats.Site
	cellSites  []formats.Site
	findings   []formats.Finding
	perCode    map[string]int

	marks marks // bookmarks and paragraph ids of the part
}

func newStoryHandler(part, label string, maxPerCode int, ids *docPrIndex, refs *idIndex) *storyHandler {
	return &storyHandler{part: part, label: label, maxPerCode: maxPerCode, ids: ids, refs: refs, stack: make([]frame, 0, 32)}
}

func isW(e *formats.Element) bool { return e.Name.Space == NSW || e.Name.Space == NSWStrict }

// classify returns the kind of e from its name (the parent decides for
// markup-compatibility branches).
func classify(e *formats.Element) kind {
	switch e.Name.Space {
	case NSW, NSWStrict:
	case NSWP, NSWPStrict:
		if e.Name.Local == "inline" || e.Name.Local == "anchor" {
			return kDrawing
		}
		return kOther
	default:
		return kOther
	}
	switch e.Name.Local {
	case "p":
		return kP
	case "r":
		return kR
	case "tbl":
		return kTbl
	case "tr":
		return kTr
	case "tc":
		return kTc
	case "sdt":
		return kSdt
	case "sdtContent":
		return kSdtContent
	case "customXml":
		return kCustomXML
	case "txbxContent":
		return kTxbx
	case "body", "hdr", "ftr", "footnote", "endnote", "comment":
		return kBlock
	case "hyperlink", "ins", "del", "moveFrom", "moveTo", "smartTag", "fldSimple", "dir", "bdo":
		return kRunHost
	case "pPr", "rPr", "tcPr", "trPr", "tblPr", "tblPrEx", "tblGrid", "sdtPr", "sdtEndPr", "customXmlPr", "smartTagPr", "sectPr":
		return kProp
	case "bookmarkStart", "bookmarkEnd", "commentRangeStart", "commentRangeEnd",
		"moveFromRangeStart", "moveFromRangeEnd", "moveToRangeStart", "moveToRangeEnd",
		"permStart", "permEnd", "proofErr",
		"customXmlInsRangeStart", "customXmlInsRangeEnd", "customXmlDelRangeStart", "customXmlDelRangeEnd",
		"customXmlMoveFromRangeStart", "customXmlMoveFromRangeEnd", "customXmlMoveToRangeStart", "customXmlMoveToRangeEnd":
		return kRange
	}
	if runContent[e.Name.Local] {
		return kRunContent
	}
	return kOther
}

// runContent are the children of CT_R (EG_RunInnerContent, ECMA-376 part 1
// §17.3.3) that are valid only inside a run.
var runContent = map[string]bool{
	"t": true, "br": true, "cr": true, "tab": true, "ptab": true, "drawing": true, "pict": true,
	"object": true, "sym": true, "noBreakHyphen": true, "softHyphen": true, "delText": true,
	"instrText": true, "delInstrText": true, "fldChar": true, "lastRenderedPageBreak": true,
	"footnoteReference": true, "endnoteReference": true, "commentReference": true,
	"separator": true, "continuationSeparator": true, "footnoteRef": true, "endnoteRef": true,
	"annotationRef": true, "pgNum": true, "dayShort": true, "monthShort": true, "yearShort": true,
	"dayLong": true, "monthLong": true, "yearLong": true, "contentPart": true, "ruby": true,
}

// transparent kinds pass content through to their parent: a paragraph in
// a w:sdt's w:sdtContent in a cell is the cell's paragraph.
func transparent(k kind) bool {
	switch k {
	case kSdt, kSdtContent, kCustomXML, kAlt, kChoice:
		return true
	}
	return false
}

// host returns the index of the frame that holds an element whose parent
// frame is at i, looking through transparent wrappers; -1 when the element
// is a wrapper's property (w:sdtPr in w:sdt) or has no parent.
func (h *storyHandler) host(i int) int {
	for i >= 0 {
		switch h.stack[i].kind {
		case kSdtContent, kChoice:
			// w:sdtContent → w:sdt, mc:Choice → mc:AlternateContent: skip the pair.
			if i > 0 && (h.stack[i-1].kind == kSdt || h.stack[i-1].kind == kAlt) {
				i--
			}
			i--
			continue
		case kCustomXML:
			i--
			continue
		case kSdt, kAlt:
			return -1 // a property of the wrapper, not content
		}
		return i
	}
	return -1
}

// nearest returns the index of the innermost open frame of kind k, or -1.
func (h *storyHandler) nearest(k kind) int {
	for i := len(h.stack) - 1; i >= 0; i-- {
		if h.stack[i].kind == k {
			return i
		}
	}
	return -1
}

// Start implements formats.Handler.
func (h *storyHandler) Start(e *formats.Element) {
	n := len(h.stack)
	parent := -1
	if n > 0 {
		parent = n - 1
	}
	k := kOther
	switch {
	case h.skip > 0:
		k = kSkip
	case e.Name.Space == NSMC:
		switch e.Name.Local {
		case "AlternateContent":
			k = kAlt
		case "Choice":
			if parent >= 0 && h.stack[parent].kind == kAlt && h.stack[parent].n == 0 {
				h.stack[parent].n++
				k = kChoice
			} else {
				k = kSkip
			}
		case "Fallback":
			k = kSkip
		}
	default:
		k = classify(e)
	}
	if cap(h.stack) > n {
		h.stack = h.stack[:n+1]
	} else {
		h.stack = append(h.stack, frame{})
	}
	f := &h.stack[n]
	buf, seen, seenNames := f.excerpt[:0], f.seen[:0], f.seenNames[:0]
	*f = frame{kind: k, site: -1, excerpt: buf, seen: seen, seenNames: seenNames}
	if k == kSkip {
		h.skip++
		return
	}
	if isW(e) {
		h.startW(e, k)
		if len(e.Attr) > 0 {
			h.checkNumbers(e)
		}
	}
	if k != kProp && k != kRange {
		h.checkPlace(e, k, parent)
	}
	if parent >= 0 {
		if h.stack[parent].kind == kProp {
			h.checkPropChild(e, parent)
		}
		if k == kProp {
			f.local = e.Name.Local
			if isW(e) {
				f.order = orderOf(f.local)
			}
			h.checkPropPlace(e, parent)
		} else {
			h.stack[parent].flags |= flagContent
		}
	}
	// A block-level child of a cell: remember what the cell ends with.
	if parent >= 0 && k != kProp && k != kRange && !transparent(k) {
		if hi := h.host(parent); hi >= 0 && h.stack[hi].kind == kTc {
			tc := &h.stack[hi]
			switch k {
			case kP:
				tc.last = lastP
			case kTbl:
				tc.last = lastTbl
			default:
				tc.last, tc.lastName = lastOther, e.QName()
			}
		}
	}
	switch k {
	case kP:
		h.c.paragraphs++
		f.ord = h.c.paragraphs
	case kTbl:
		h.startTable(e, f, parent)
	case kTr:
		h.c.rows++
		if parent >= 0 {
			if hi := h.host(parent); hi >= 0 && h.stack[hi].kind == kTbl {
				h.stack[hi].n++
				f.ord = h.stack[hi].n
			}
		}
	case kTc:
		h.c.cells++
		f.snap = h.c
		if parent >= 0 {
			if hi := h.host(parent); hi >= 0 && h.stack[hi].kind == kTr {
				h.stack[hi].n++
				f.ord = h.stack[hi].n
			}
		}
	case kRunContent:
		h.checkRunContent(e, parent)
	case kTxbx:
		if d := h.nearest(kDrawing); d >= 0 {
			h.stack[d].shape = true
		}
	case kBlock:
		if e.Depth == 2 && e.Index > 1 && e.Name.Local == "body" {
			h.multipleBody(e)
		}
	case kOther:
		switch e.Name.Space {
		case NSWP, NSWPStrict:
			if e.Name.Local == "docPr" && parent >= 0 && h.stack[parent].kind == kDrawing {
				id, _ := e.Get("", "id")
				name, _ := e.Get("", "name")
				h.stack[parent].docPr = &docPr{id: strings.TrimSpace(id), name: name, part: h.part,
					line: e.Line, col: e.Column, loc: e.Locator()}
			}
		case NSWPS, NSWPG, NSWPC:
			// wps:wsp (a shape or text box), wpg:wgp (a group), wpc:wpc (a canvas).
			if e.Name.Local == "wsp" || e.Name.Local == "wgp" || e.Name.Local == "wpc" {
				if d := h.nearest(kDrawing); d >= 0 {
					h.stack[d].shape = true
				}
			}
		}
	}
}

// startTable counts a w:tbl, numbers it, reserves its site when it is a
// top-level table, and flags a table inside a paragraph.
func (h *storyHandler) startTable(e *formats.Element, f *frame, parent int) {
	f.snap = h.c
	h.c.tables++
	if h.tblDepth > 0 {
		h.c.nested++
		if tc := h.nearest(kTc); tc >= 0 {
			h.stack[tc].n++
			f.ord = h.stack[tc].n
		}
	} else {
		h.topTbls++
		f.ord = h.topTbls
		f.site = len(h.tableSites)
		h.tableSites = append(h.tableSites, formats.Site{Part: h.part, Where: h.where(len(h.stack) - 1)})
	}
	h.tblDepth++
	// dolanmiu/docx#2120, #2650: a w:tbl inside a w:p (CT_P admits no
	// tables, ECMA-376 part 1 §17.3.1.22); Word refuses to open the file
	// ("Word experienced an error trying to open the file") where
	// LibreOffice and Google Docs are forgiving.
	for i := parent; i >= 0; i-- {
		k := h.stack[i].kind
		if k == kP {
			p := &h.stack[i]
			p.pending = append(p.pending, pendingFinding{anchor: "table in paragraph ", f: formats.Finding{
				Code: CodeTblInP, Grade: formats.Fatal, Part: h.part, Line: e.Line, Column: e.Column, Locator: e.Locator(),
				Message: fmt.Sprintf("%s sits inside a paragraph (<w:p>); a paragraph cannot contain a table, and Word refuses to open the file (LibreOffice and Google Docs hide the error)", h.where(len(h.stack)-1)),
				Fix:     "end the paragraph before the table: move this <w:tbl> out of the <w:p> so it is the paragraph's sibling, and keep a <w:p> after it if it ends a table cell",
			}})
			break
		}
		if !transparent(k) && k != kRunHost && k != kR {
			break
		}
	}
}

// checkRunContent flags run content placed directly in a paragraph (or a
// hyperlink, field, tracked change) instead of inside a w:r.
// dolanmiu/docx#2120: a w:br written straight into w:p makes Word report
// unreadable content and repair the document; ECMA-376 part 1 §17.3.3:
// these elements are children of CT_R only.
func (h *storyHandler) checkRunContent(e *formats.Element, parent int) {
	for i := parent; i >= 0; i-- {
		k := h.stack[i].kind
		if k == kP {
			inP := "the paragraph"
			if i != parent {
				inP = "a " + h.containerName(parent) + " of the paragraph"
			}
			p := &h.stack[i]
			p.pending = append(p.pending, pendingFinding{anchor: "<" + e.QName() + "> in paragraph ", f: formats.Finding{
				Code: CodeRunContentOutsideRun, Grade: formats.Fatal, Part: h.part, Line: e.Line, Column: e.Column, Locator: e.Locator(),
				Message: fmt.Sprintf("<%s> sits directly in %s (%s), outside any run; run content must be inside a <w:r>, and Word reports unreadable content and repairs the document", e.QName(), inP, h.whereP(i)),
				Fix:     fmt.Sprintf("wrap it in a run: <w:r><%s …/></w:r>", e.QName()),
			}})
			return
		}
		if !transparent(k) && k != kRunHost {
			return
		}
	}
}

func (h *storyHandler) containerName(i int) string {
	return map[kind]string{kRunHost: "hyperlink, field or tracked change", kSdt: "content control",
		kSdtContent: "content control", kCustomXML: "custom XML element", kAlt: "compatibility block", kChoice: "compatibility block"}[h.stack[i].kind]
}

// Text implements formats.Handler: w:t text feeds the excerpts of the open
// paragraphs, tables and cells (the position-free anchors).
func (h *storyHandler) Text(e *formats.Element, text []byte) {
	if h.skip > 0 || e.Name.Local != "t" || !isW(e) {
		return
	}
	for i := len(h.stack) - 1; i >= 0; i-- {
		f := &h.stack[i]
		switch f.kind {
		case kP, kTbl, kTc:
			if len(f.excerpt) < excerptCap {
				f.excerpt = appendText(f.excerpt, text)
			}
		}
	}
}

// appendText appends text with runs of white space collapsed, up to a
// little past excerptCap.
func appendText(dst, text []byte) []byte {
	for _, c := range text {
		if len(dst) >= excerptCap+4 {
			break
		}
		if c == ' ' || c == '\t' || c == '\n' || c == '\r' {
			if len(dst) == 0 || dst[len(dst)-1] == ' ' {
				continue
			}
			c = ' '
		}
		dst = append(dst, c)
	}
	return dst
}

// excerpt renders a collected excerpt: trimmed, cut at excerptCap bytes on
// a rune boundary with "…" when longer.
func excerpt(b []byte) string {
	s := strings.TrimSpace(string(b))
	if len(s) <= excerptCap {
		return s
	}
	cut := excerptCap
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// End implements formats.Handler.
func (h *storyHandler) End(e *formats.Element) {
	n := len(h.stack) - 1
	if n < 0 {
		return
	}
	f := &h.stack[n]
	switch f.kind {
	case kSkip:
		h.skip--
	case kP:
		text := excerpt(f.excerpt)
		h.flushPending(f, fmt.Sprintf("%q", text))
		h.lastPara = text
		// Separate paragraphs in the excerpts of the enclosing cells and tables.
		for i := n - 1; i >= 0; i-- {
			if o := &h.stack[i]; (o.kind == kP || o.kind == kTbl || o.kind == kTc) && len(o.excerpt) > 0 &&
				len(o.excerpt) < excerptCap && o.excerpt[len(o.excerpt)-1] != ' ' {
				o.excerpt = append(o.excerpt, ' ')
			}
		}
	case kTbl:
		h.endTable(e, f)
	case kTr:
		if f.n == 0 {
			h.endEmptyRow(e, n)
		}
	case kTc:
		h.endCell(e, n)
	case kProp:
		h.endProp(e, f)
	case kDrawing:
		if f.docPr != nil {
			f.docPr.shape = f.shape
			h.ids.add(*f.docPr)
		}
	}
	h.stack = h.stack[:n]
}

func (h *storyHandler) flushPending(f *frame, text string) {
	for _, pf := range f.pending {
		pf.f.Anchor = pf.anchor + text
		h.add(pf.f)
	}
}

func (h *storyHandler) endTable(e *formats.Element, f *frame) {
	h.tblDepth--
	d := h.c
	d.tables -= f.snap.tables
	d.rows -= f.snap.rows
	d.cells -= f.snap.cells
	d.paragraphs -= f.snap.paragraphs
	d.nested -= f.snap.nested
	if h.tblDepth == 0 {
		// the table itself is not nested: nested_tables counts the tables inside it
		h.tableSites[f.site].Counts = formats.Counts{MetricTables: d.tables, MetricRows: d.rows, MetricCells: d.cells,
			MetricParagraphs: d.paragraphs, MetricNestedTables: d.tables - 1}
	}
	if f.n == 0 {
		// CT_Tbl requires at least one w:tr (ECMA-376 part 1 §17.4.38).
		// No public report says what Word does with a table without rows:
		// a warning until someone measures it.
		h.add(formats.Finding{Code: CodeTblNoRows, Grade: formats.Warning, Part: h.part, Line: e.Line, Column: e.Column,
			Locator: e.Locator(),
			Message: fmt.Sprintf("%s has no rows (<w:tr>); the schema requires at least one, and what Word does with it is not confirmed", h.where(len(h.stack)-1)),
			Fix:     "delete the empty <w:tbl>, or give it a row: <w:tr><w:tc><w:p/></w:tc></w:tr>",
			Anchor:  fmt.Sprintf("table without rows after paragraph %q", h.lastPara)})
	}
	h.flushPending(f, fmt.Sprintf("%q", excerpt(f.excerpt)))
}

// endEmptyRow: PHPOffice/PHPWord#2505 (fixed by #2516): a w:tr without a
// w:tc makes Word treat the document as corrupt, while LibreOffice and
// Google Docs open it. CT_Row requires cell content (ECMA-376 part 1
// §17.4.79).
func (h *storyHandler) endEmptyRow(e *formats.Element, n int) {
	pf := pendingFinding{anchor: "row without cells in table ", f: formats.Finding{
		Code: CodeTrNoTc, Grade: formats.Fatal, Part: h.part, Line: e.Line, Column: e.Column, Locator: e.Locator(),
		Message: fmt.Sprintf("%s has no cells (<w:tc>); Word treats the document as corrupt (LibreOffice and Google Docs open it, so the file looks fine there)", h.where(n)),
		Fix:     "delete this empty <w:tr>, or give it a cell: <w:tc><w:p/></w:tc>",
	}}
	if ti := h.host(n - 1); ti >= 0 && h.stack[ti].kind == kTbl {
		h.stack[ti].pending = append(h.stack[ti].pending, pf)
		return
	}
	pf.f.Anchor = pf.anchor
	h.add(pf.f)
}

// endCell checks the cell's final block and records the site of a cell
// holding nested tables (tables and nested_tables both count the tables
// inside the cell, at any depth).
//
// dotnet/Open-XML-SDK#592: a cell must end with a paragraph — Word says
// "Ambiguous cell mapping encountered. Possible missing paragraph element.
// <p> elements are required before every </tc>" and repairs or refuses the
// file, and the SDK validator reports 0 errors. The same failure after a
// nested table: jgm/pandoc#4953, unidoc/unioffice#234; for an empty cell:
// OfficeDev/Open-Xml-PowerTools#166. ECMA-376 part 1 §17.4.66: "a table
// cell shall contain at least one block-level element, and the last
// element shall be a paragraph".
func (h *storyHandler) endCell(e *formats.Element, n int) {
	f := &h.stack[n]
	if f.last != lastP {
		where := h.where(n)
		var msg, fix string
		switch f.last {
		case lastNone:
			msg = fmt.Sprintf("%s has no paragraph at all; every table cell must end with a paragraph (<w:p>)", where)
			fix = "add <w:p/> to this <w:tc> (after its <w:tcPr>)"
		case lastTbl:
			msg = fmt.Sprintf("%s ends with a nested table, but a cell must end with a paragraph (<w:p>)", where)
			fix = "add <w:p/> as the last child of this <w:tc>, after the nested </w:tbl>"
		default:
			msg = fmt.Sprintf("%s ends with <%s>, but a cell must end with a paragraph (<w:p>)", where, f.lastName)
			fix = "add <w:p/> as the last child of this <w:tc>"
		}
		h.add(formats.Finding{Code: CodeTcNoFinalP, Grade: formats.Fatal, Part: h.part, Line: e.Line, Column: e.Column,
			Locator: e.Locator(),
			Message: msg + `; Word reports "Ambiguous cell mapping encountered. Possible missing paragraph element" and repairs or refuses the file (the Open XML SDK validator does not catch it)`,
			Fix:     fix,
			Anchor:  fmt.Sprintf("cell %q", excerpt(f.excerpt))})
	}
	if t := h.c.tables - f.snap.tables; t > 0 {
		h.cellSites = append(h.cellSites, formats.Site{Part: h.part, Where: h.where(n), Counts: formats.Counts{
			MetricTables: t, MetricNestedTables: t, MetricRows: h.c.rows - f.snap.rows, MetricCells: h.c.cells - f.snap.cells,
			MetricParagraphs: h.c.paragraphs - f.snap.paragraphs}})
	}
}

// multipleBody: CT_Document has one w:body (ECMA-376 part 1 §17.2.2).
// docx-mailmerge wrote one body per merged record (python-docx#669); Word
// shows the document, but python-docx and other readers see only the first
// body, so content after it is invisible to them: a warning.
func (h *storyHandler) multipleBody(e *formats.Element) {
	h.add(formats.Finding{Code: CodeMultipleBody, Grade: formats.Warning, Part: h.part, Line: e.Line, Column: e.Column,
		Locator: e.Locator(),
		Message: fmt.Sprintf("the document has more than one <w:body> (this is body %d); a document has exactly one, and readers such as python-docx see only the first, so their edits miss the rest", e.Index),
		Fix:     "move the content of every further <w:body> into the first one (before its final <w:sectPr>) and delete the extra <w:body> elements",
		Anchor:  "extra body"})
}

// where names the table, row or cell open at stack index i for people:
// "body table 3, row 2, cell 2", "header1.xml table 1, row 1, cell 1,
// table 1". Numbers are 1-based in document order; a nested table is
// numbered within its cell.
func (h *storyHandler) where(i int) string {
	var b strings.Builder
	b.WriteString(h.label)
	first := true
	for j := 0; j <= i; j++ {
		f := &h.stack[j]
		var name string
		switch f.kind {
		case kTbl:
			name = "table"
		case kTr:
			name = "row"
		case kTc:
			name = "cell"
		default:
			continue
		}
		if first {
			b.WriteByte(' ')
			first = false
		} else {
			b.WriteString(", ")
		}
		b.WriteString(name)
		b.WriteByte(' ')
		b.WriteString(strconv.Itoa(f.ord))
	}
	return b.String()
}

// whereP names the paragraph at stack index i: its table cell if any,
// and its number among the part's paragraphs.
func (h *storyHandler) whereP(i int) string {
	w := h.where(i)
	if w == h.label {
		return fmt.Sprintf("%s, paragraph %d", w, h.stack[i].ord)
	}
	return fmt.Sprintf("%s, paragraph %d of the part", w, h.stack[i].ord)
}

// whereNear names the innermost paragraph, cell, row or table around
// stack index i, or the part.
func (h *storyHandler) whereNear(i int) string {
	for j := i; j >= 0; j-- {
		switch h.stack[j].kind {
		case kP:
			return h.whereP(j)
		case kTbl, kTr, kTc:
			return h.where(j)
		}
	}
	return h.label
}

// add records a finding, at most maxPerCode of one code in the part.
func (h *storyHandler) add(f formats.Finding) {
	if h.perCode == nil {
		h.perCode = map[string]int{}
	}
	n := h.perCode[f.Code]
	h.perCode[f.Code]++
	if h.maxPerCode > 0 && n == h.maxPerCode {
		h.findings = append(h.findings, formats.Finding{Code: formats.CodeXMLTooManyFindings, Grade: formats.Info, Part: h.part,
			Message: fmt.Sprintf("more than %d %s findings in this part; the rest are not listed", h.maxPerCode, f.Code),
			Anchor:  f.Code})
	}
	if h.maxPerCode > 0 && n >= h.maxPerCode {
		return
	}
	h.findings = append(h.findings, f)
}

// finish adds the part's counts and sites to rep: the part site first,
// then the top-level tables, then the cells holding nested tables.
func (h *storyHandler) finish(rep *formats.Report) {
	c := formats.Counts{MetricTables: h.c.tables, MetricRows: h.c.rows, MetricCells: h.c.cells,
		MetricParagraphs: h.c.paragraphs, MetricNestedTables: h.c.nested}
	rep.AddCounts(h.part, c)
	sc := formats.Counts{}
	sc.Add(c)
	rep.Sites = append(rep.Sites, formats.Site{Part: h.part, Where: h.label, Counts: sc})
	rep.Sites = append(rep.Sites, h.tableSites...)
	rep.Sites = append(rep.Sites, h.cellSites...)
}
