package render

import (
	"archive/zip"
	"bytes"
	"io"
	"os"
	"path"
	"regexp"
	"slices"
	"strings"
)

// Rendering a document must not depend on when it is rendered. Word's DATE
// and TIME fields show the current date and time, and LibreOffice updates
// them on load: a baseline rendered on Monday and its edit rendered on
// Tuesday differ on every page that shows one, and a TIME field with
// seconds differs between two pages of one run (measured on the corpus:
// oxsdk_complex2010.docx printed "12/1/26 at 22:57:58" on page 8 and
// "22:57:59" on page 9). LibreOffice keeps a field's stored result when the
// field is locked (w:fldLock, ECMA-376 Part 1 §17.16.18; checked: a locked
// DATE field of oxsdk_Complex01.docx renders "Wednesday, November 18,
// 2015", as stored, instead of today). PowerPoint's date fields (a:fld
// type="datetime…", §21.1.2.2.4) render today's date too, and Calc
// recalculates volatile functions (NOW, TODAY, RAND, RANDBETWEEN) on every
// load although the profile says never to recalculate (measured: RAND()
// with a cached 0.123 printed 0.392159, then 0.380662). So the staged copy
// of a document — never the caller's file — shows the value the file
// holds: Word's DATE and TIME fields are locked, PowerPoint's date fields
// become plain runs of their stored text, and a cell whose formula calls a
// volatile function keeps its cached value without the formula.

// stageVersion names the staging rewrite; it is part of ProfileKey, so a
// change of the rewrite changes the Toolchain.
const stageVersion = "stored-dates/1+no-comment-anchors/1"

// maxFieldPart bounds the XML part read into memory to lock its fields; a
// larger part is left as it is.
const maxFieldPart = 64 << 20

// volatileFields are the Word field types whose result is the current date
// or time (§17.16.5: DATE, TIME).
var volatileFields = []string{"DATE", "TIME"}

// fieldTag finds the tags that make fields: w:fldChar (begin, separate,
// end of a complex field), w:instrText (its instructions), w:fldSimple.
var fieldTag = regexp.MustCompile(`<([A-Za-z_][\w.\-]*:)?(fldChar|instrText|fldSimple)\b([^>]*)>`)

var (
	fldCharType = regexp.MustCompile(`\bfldCharType\s*=\s*["'](\w+)["']`)
	fldInstr    = regexp.MustCompile(`\binstr\s*=\s*"([^"]*)"|\binstr\s*=\s*'([^']*)'`)
	fldLockAttr = regexp.MustCompile(`\bfldLock\s*=\s*["'][^"']*["']`)
)

// stageRewrite says which parts of a package of extension ext are
// rewritten, and how: nil when the format has nothing to fix.
func stageRewrite(ext string) (parts func(name string) bool, fix func([]byte) ([]byte, bool)) {
	xmlUnder := func(prefix string) func(string) bool {
		return func(name string) bool {
			n := strings.ToLower(name)
			return strings.HasPrefix(n, prefix) && path.Ext(n) == ".xml"
		}
	}
	switch ext {
	case ".docx", ".docm", ".dotx", ".dotm":
		return xmlUnder("word/"), both(lockVolatileFields, stripCommentAnchors)
	case ".pptx", ".pptm", ".potx", ".potm", ".ppsx", ".ppsm":
		return xmlUnder("ppt/"), freezeDateFields
	case ".xlsx", ".xlsm", ".xltx", ".xltm":
		return xmlUnder("xl/worksheets/"), freezeVolatileFormulas
	}
	return nil, nil
}

// prepareStaged rewrites the staged copy at p (extension ext) so that it
// renders the same at any time (stageRewrite). Anything it cannot read is
// left as it is, for LibreOffice to report; the file is replaced only when
// something was rewritten.
func prepareStaged(p, ext string) error {
	parts, fix := stageRewrite(ext)
	if fix == nil {
		return nil
	}
	zr, err := zip.OpenReader(p)
	if err != nil {
		return nil
	}
	defer zr.Close()
	changed := map[string][]byte{}
	for _, f := range zr.File {
		if !parts(f.Name) || f.UncompressedSize64 > maxFieldPart {
			continue
		}
		rc, err := f.Open()
		if err != nil {
			continue
		}
		b, err := io.ReadAll(io.LimitReader(rc, maxFieldPart+1))
		rc.Close()
		if err != nil || len(b) > maxFieldPart {
			continue
		}
		if out, ok := fix(b); ok {
			changed[f.Name] = out
		}
	}
	if len(changed) == 0 {
		return nil
	}
	tmp := p + ".fields"
	out, err := os.OpenFile(tmp, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err != nil {
		return err
	}
	zw := zip.NewWriter(out)
	err = func() error {
		for _, f := range zr.File {
			if b, ok := changed[f.Name]; ok {
				h := f.FileHeader
				h.Method = zip.Deflate
				w, err := zw.CreateHeader(&h)
				if err != nil {
					return err
				}
				if _, err := w.Write(b); err != nil {
					return err
				}
				continue
			}
			// Every other entry is copied as stored, compressed bytes
			// and all.
			w, err := zw.CreateRaw(&f.FileHeader)
			if err != nil {
				return err
			}
			r, err := f.OpenRaw()
			if err != nil {
				return err
			}
			if _, err := io.Copy(w, r); err != nil {
				return err
			}
		}
		return zw.Close()
	}()
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(tmp)
		return nil // left as it is: LibreOffice reads the original copy
	}
	return os.Rename(tmp, p)
}

// fieldLock is a field's opening tag ([start, end) in the part) and its
// namespace prefix ("w:").
type fieldLock struct {
	tag [2]int
	pfx string
}

// lockVolatileFields sets w:fldLock on every complex or simple field of
// the XML part b whose instruction is a volatileFields type; ok is false
// when there is none. Only the field's opening tag changes (an attribute
// added with the tag's own prefix, or an existing fldLock set to 1).
func lockVolatileFields(b []byte) (out []byte, ok bool) {
	if !bytes.Contains(b, []byte("fld")) {
		return nil, false
	}
	type open struct {
		tag   [2]int // the begin fldChar tag
		pfx   string
		instr strings.Builder
		done  bool // its instructions are complete (separate seen)
	}
	var stack []*open
	var locks []fieldLock
	volatile := func(instr string) bool {
		f := strings.Fields(instr)
		return len(f) > 0 && slices.Contains(volatileFields, strings.ToUpper(f[0]))
	}
	decide := func(o *open) {
		if !o.done && volatile(o.instr.String()) {
			locks = append(locks, fieldLock{o.tag, o.pfx})
		}
		o.done = true
	}
	for _, m := range fieldTag.FindAllSubmatchIndex(b, -1) {
		pfx := ""
		if m[2] >= 0 {
			pfx = string(b[m[2]:m[3]])
		}
		attrs := b[m[6]:m[7]]
		switch string(b[m[4]:m[5]]) {
		case "fldChar":
			t := fldCharType.FindSubmatch(attrs)
			if t == nil {
				continue
			}
			switch string(t[1]) {
			case "begin":
				stack = append(stack, &open{tag: [2]int{m[0], m[1]}, pfx: pfx})
			case "separate":
				if len(stack) > 0 {
					decide(stack[len(stack)-1])
				}
			case "end":
				if len(stack) > 0 {
					decide(stack[len(stack)-1])
					stack = stack[:len(stack)-1]
				}
			}
		case "instrText":
			if len(stack) == 0 || stack[len(stack)-1].done || bytes.HasSuffix(attrs, []byte("/")) {
				continue
			}
			end := bytes.IndexByte(b[m[1]:], '<')
			if end < 0 {
				continue
			}
			stack[len(stack)-1].instr.Write(b[m[1] : m[1]+end])
		case "fldSimple":
			in := fldInstr.FindSubmatch(attrs)
			if in == nil {
				continue
			}
			instr := string(in[1]) + string(in[2])
			if volatile(strings.ReplaceAll(instr, "&quot;", `"`)) {
				locks = append(locks, fieldLock{[2]int{m[0], m[1]}, pfx})
			}
		}
	}
	if len(locks) == 0 {
		return nil, false
	}
	// Nested fields are decided inner first: write in document order.
	slices.SortFunc(locks, func(x, y fieldLock) int {
		return x.tag[0] - y.tag[0]
	})
	var buf bytes.Buffer
	buf.Grow(len(b) + 20*len(locks))
	last := 0
	for _, l := range locks {
		tag := b[l.tag[0]:l.tag[1]]
		if loc := fldLockAttr.FindIndex(tag); loc != nil {
			// fldLock="0" or "false": set it.
			buf.Write(b[last : l.tag[0]+loc[0]])
			buf.WriteString(`fldLock="1"`)
			last = l.tag[0] + loc[1]
			continue
		}
		if l.pfx == "" {
			continue // no prefix to put the attribute in WordprocessingML's namespace
		}
		// After "<" + prefix + name.
		at := l.tag[0] + 1 + len(l.pfx)
		for at < l.tag[1] && b[at] != ' ' && b[at] != '\t' && b[at] != '\n' && b[at] != '\r' && b[at] != '/' && b[at] != '>' {
			at++
		}
		buf.Write(b[last:at])
		buf.WriteString(" " + l.pfx + `fldLock="1"`)
		last = at
	}
	buf.Write(b[last:])
	return buf.Bytes(), true
}

// pptDateField finds a DrawingML date field (a:fld whose type starts with
// "datetime") with its content; pptPPr a paragraph-properties element
// inside one (a:fld may hold a:pPr, a:r may not).
var (
	pptDateField = regexp.MustCompile(`(?s)<([A-Za-z_][\w.\-]*:)?fld\b[^>]*\btype\s*=\s*["']datetime[^"']*["'][^>]*>(.*?)</([A-Za-z_][\w.\-]*:)?fld>`)
	pptPPr       = regexp.MustCompile(`(?s)<([A-Za-z_][\w.\-]*:)?pPr\b[^>]*/>|<([A-Za-z_][\w.\-]*:)?pPr\b[^>]*>.*?</([A-Za-z_][\w.\-]*:)?pPr>`)
)

// freezeDateFields turns every date field of a DrawingML part into a plain
// run holding the field's stored text (a:fld → a:r, its a:rPr and a:t
// kept), so that it shows what the file holds instead of today's date.
func freezeDateFields(b []byte) ([]byte, bool) {
	if !bytes.Contains(b, []byte("datetime")) {
		return nil, false
	}
	n := 0
	out := pptDateField.ReplaceAllFunc(b, func(m []byte) []byte {
		sm := pptDateField.FindSubmatch(m)
		pfx := string(sm[1])
		n++
		return []byte("<" + pfx + "r>" + string(pptPPr.ReplaceAll(sm[2], nil)) + "</" + pfx + "r>")
	})
	return out, n > 0
}

// Volatile spreadsheet functions: their result changes at each
// calculation (NOW, TODAY: the clock; RAND…: random).
var (
	volatileCall = regexp.MustCompile(`(?i)\b(NOW|TODAY|RAND|RANDBETWEEN|RANDARRAY)\s*\(`)
	// sheetCell is one c element with content; sheetFormula its f
	// element (written out or empty).
	sheetCell    = regexp.MustCompile(`(?s)<([A-Za-z_][\w.\-]*:)?c\b[^>]*[^/]>.*?</([A-Za-z_][\w.\-]*:)?c>`)
	sheetFormula = regexp.MustCompile(`(?s)<([A-Za-z_][\w.\-]*:)?f\b([^>]*)(?:/>|>(.*?)</([A-Za-z_][\w.\-]*:)?f>)`)
	sheetValue   = regexp.MustCompile(`<([A-Za-z_][\w.\-]*:)?v\b`)
)

// freezeVolatileFormulas removes the formula of every cell of a worksheet
// part that calls a volatile function and holds a cached value (v), so
// LibreOffice shows that value instead of recalculating it. Shared
// formulas (t="shared") are left alone: other cells refer to their text.
func freezeVolatileFormulas(b []byte) ([]byte, bool) {
	if !volatileCall.Match(b) {
		return nil, false
	}
	n := 0
	out := sheetCell.ReplaceAllFunc(b, func(c []byte) []byte {
		f := sheetFormula.FindSubmatchIndex(c)
		if f == nil || f[6] < 0 || !volatileCall.Match(c[f[6]:f[7]]) || !sheetValue.Match(c[f[1]:]) {
			return c
		}
		if bytes.Contains(c[f[4]:f[5]], []byte("shared")) {
			return c
		}
		n++
		return append(append([]byte(nil), c[:f[0]]...), c[f[1]:]...)
	})
	return out, n > 0
}

// both applies f then g to a part; ok when either changed it.
func both(f, g func([]byte) ([]byte, bool)) func([]byte) ([]byte, bool) {
	return func(b []byte) ([]byte, bool) {
		out, ok := f(b)
		if !ok {
			out = b
		}
		if o2, ok2 := g(out); ok2 {
			return o2, true
		}
		return out, ok
	}
}

// Word comments are not printed (ExportNotes is false in the profile), but
// their anchors in the text make a LibreOffice kept running behind a UNO
// listener abort: the -nogui packages ship no Writer .ui files, and the
// comment margin windows it builds for a loaded document's view in its
// event loop (InterimItemWindow, "NoSuchElementException", SIGABRT) cannot
// be built. A batch conversion closes the document before that event runs.
// Measured on the corpus: the six docx files with w:commentReference — and
// only they — aborted the warm LibreOffice on every try (docx4j_invoice,
// oxsdk_Comment042, oxsdk_Complex01, oxsdk_complex2010,
// poi_WordWithAttachments, pydocx_comments-rich-para). So the staged copy
// of a Word document loses its comment anchors (w:commentRangeStart,
// w:commentRangeEnd, w:commentReference, ECMA-376 Part 1 §17.13.4); the
// comments part stays. Both converters stage the same way, so every
// comparison is between pages rendered alike. The pages are the same
// pixels except where an anchor sat: a zero-width mark that can shift a
// line's glyphs by a pixel (oxsdk_Complex01 page 2) or, inside a text box,
// the box's width (its page 5).
var commentAnchor = regexp.MustCompile(`<([A-Za-z_][\w.\-]*:)?(commentRangeStart|commentRangeEnd|commentReference)\b[^>]*?(/>|>\s*</([A-Za-z_][\w.\-]*:)?(commentRangeStart|commentRangeEnd|commentReference)\s*>)`)

// stripCommentAnchors removes the comment anchors of the XML part b; ok is
// false when it has none.
func stripCommentAnchors(b []byte) ([]byte, bool) {
	if !bytes.Contains(b, []byte("comment")) {
		return nil, false
	}
	out := commentAnchor.ReplaceAll(b, nil)
	if len(out) == len(b) {
		return nil, false
	}
	return out, true
}
