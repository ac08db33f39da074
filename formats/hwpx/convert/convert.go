package convert

import (
	"archive/zip"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/editaudit/editaudit/formats"
	"github.com/editaudit/editaudit/internal/fsutil"
)

// Version identifies the converter's output: a change that can move a
// pixel of any rendered page bumps it. It belongs in the renderer's
// toolchain key next to LibreOffice's version, so pages converted by
// different versions are never compared.
const Version = "hwpx2odt/2"

// Notice is the one line a rendering made through this converter carries.
const Notice = "rendered by editaudit's HWPX converter, not Hancom Office"

// Ext is the extension of the converter's output (an OpenDocument Text
// package); LibreOffice picks its import filter from it.
const Ext = ".odt"

// ErrNotHWPX: the input is not an HWPX package (or cannot be read as one).
var ErrNotHWPX = errors.New("convert: not an HWPX document")

// Options tune a conversion. The zero value is ready to use.
type Options struct {
	// Limits bound the reading of the package (zip entries, sizes, XML
	// depth); zero means formats.DefaultLimits().
	Limits formats.Limits
}

// Result tells what a conversion did.
type Result struct {
	// Sections is the number of sections converted.
	Sections int
	// Notes list what the converter approximated or left out (each once,
	// in the order met), e.g. "lines and connectors are not drawn".
	Notes []string
	// Bytes is the size of the ODT written.
	Bytes int64
}

// Convert converts the HWPX package p into an OpenDocument Text package
// written to out. The output is a function of the input bytes and
// Version only: the same document converts to the same bytes. A
// document that is not HWPX is ErrNotHWPX; a damaged one converts as far
// as it can be read (the Notes say what was lost). It never modifies p's
// file.
func Convert(ctx context.Context, p *formats.Package, out io.Writer) (*Result, error) {
	if p.Format != formats.HWPX {
		return nil, fmt.Errorf("%w: %s is %s", ErrNotHWPX, p.Name, p.Format)
	}
	c := &conv{ctx: ctx, p: p, bin: map[string]string{}, content: newStyleSet(""), styles: newStyleSet("M"),
		picName: map[string]string{}, nums: counters{}}
	sections, headerPart := c.readManifest()
	var hroot *node
	if headerPart != "" {
		var note string
		var err error
		hroot, note, err = parsePart(ctx, p, headerPart)
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if err != nil {
			c.note("the header (fonts, character and paragraph shapes) could not be read: " + err.Error() + "; default shapes are used")
		} else if note != "" {
			c.note(note)
		}
	} else {
		c.note("the document has no Contents/header.xml: default character and paragraph shapes are used")
	}
	c.h = parseHeader(hroot)

	body := &strings.Builder{}
	res := &Result{}
	for i, part := range sections {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		sec, note, err := parsePart(ctx, p, part)
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if err != nil {
			c.note(fmt.Sprintf("section %s could not be read (%v) and is not shown", part, err))
			continue
		}
		if note != "" {
			c.note(note)
		}
		if sec.name != "sec" {
			continue
		}
		res.Sections++
		ps := readPage(firstSecPr(sec), c.h)
		c.outline = ps.outline
		c.secLeft = ps.left
		master := c.masterPage(i+1, ps, collectHF(sec))
		w := &writer{b: body, st: c.content, master: master}
		before := body.Len()
		c.blocks(w, sec)
		if c.err != nil {
			return nil, c.err
		}
		if body.Len() == before {
			// An empty section still starts its page.
			w.b.WriteString(`<text:p text:style-name="` + w.st.get("paragraph", "P", ` style:parent-style-name="Standard" style:master-page-name="`+master+`"`, "") + `"/>`)
		}
	}
	if res.Sections == 0 {
		if len(sections) == 0 {
			c.note("the document has no section: an empty page is shown")
		}
		c.masterPage(1, defaultPage, hf{})
		body.WriteString(`<text:p text:style-name="` + c.content.get("paragraph", "P", ` style:parent-style-name="Standard" style:master-page-name="MP1"`, "") + `"/>`)
	}
	data, err := c.pack(body.String())
	if err != nil {
		return nil, err
	}
	n, err := out.Write(data)
	res.Bytes = int64(n)
	if err != nil {
		return nil, err
	}
	res.Notes = c.countedNotes()
	return res, nil
}

// countedNotes are the notes with how often each occurred.
func (c *conv) countedNotes() []string {
	out := make([]string, 0, len(c.notes))
	for _, n := range c.notes {
		if k := c.noted[n]; k > 1 {
			n = fmt.Sprintf("%s (%d times)", n, k)
		}
		out = append(out, n)
	}
	return out
}

// ConvertFile converts the HWPX file in to the ODT file out, written
// whole or not at all (a temporary file in out's folder, renamed).
func ConvertFile(ctx context.Context, in, out string, opt Options) (*Result, error) {
	f, st, err := fsutil.OpenRegular(in) // a FIFO is refused before it could block the open
	if err != nil {
		return nil, err
	}
	defer f.Close()
	lim := opt.Limits
	if lim == (formats.Limits{}) {
		lim = formats.DefaultLimits()
	}
	p, err := formats.Open(ctx, f, st.Size(), in, lim)
	if err != nil {
		return nil, err
	}
	if p.Format != formats.HWPX {
		why := ""
		for _, fd := range p.Findings() {
			if fd.Grade == formats.Fatal {
				why = ": " + fd.Message
				break
			}
		}
		return nil, fmt.Errorf("%w: %s%s", ErrNotHWPX, in, why)
	}
	tmp, err := os.CreateTemp(filepath.Dir(out), ".hwpx2odt-*"+Ext)
	if err != nil {
		return nil, err
	}
	ok := false
	defer func() {
		if !ok {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	res, err := Convert(ctx, p, tmp)
	if err != nil {
		return nil, err
	}
	if err := tmp.Close(); err != nil {
		return nil, err
	}
	if err := os.Rename(tmp.Name(), out); err != nil {
		return nil, err
	}
	ok = true
	return res, nil
}

// readManifest reads content.hpf: the binary items (id → part) and the
// section parts in spine order (Contents/section*.xml in natural order when
// there is no usable spine), and the header part.
func (c *conv) readManifest() (sections []string, header string) {
	p := c.p
	hpf := ""
	if root, _, err := parsePart(c.ctx, p, formats.HWPXContainer); err == nil {
		var walk func(*node)
		walk = func(n *node) {
			for _, k := range n.kids {
				if k.name == "rootfile" && hpf == "" && strings.HasSuffix(strings.ToLower(k.attr("full-path")), ".hpf") {
					hpf = k.attr("full-path")
				}
				walk(k)
			}
		}
		walk(root)
	}
	if hpf == "" || !p.Has(hpf) {
		hpf = "Contents/content.hpf"
	}
	byID := map[string]string{}
	var spine []string
	if root, _, err := parsePart(c.ctx, p, hpf); err == nil {
		for _, sect := range root.kids {
			switch sect.name {
			case "manifest":
				for _, it := range sect.children("item") {
					if part := resolve(p, hpf, it.attr("href")); part != "" {
						byID[it.attr("id")] = part
					}
				}
			case "spine":
				for _, ref := range sect.children("itemref") {
					spine = append(spine, ref.attr("idref"))
				}
			}
		}
	}
	c.bin = byID
	seen := map[string]bool{}
	for _, id := range spine {
		part := byID[id]
		lp := strings.ToLower(part)
		if part == "" || seen[lp] || !strings.HasSuffix(lp, ".xml") || path.Base(lp) == "header.xml" {
			continue
		}
		seen[lp] = true
		sections = append(sections, part)
	}
	if len(sections) == 0 {
		for _, part := range p.PartsUnder("Contents/") {
			if sectionName(part) {
				sections = append(sections, part)
			}
		}
	}
	if e := p.Entry("Contents/header.xml"); e != nil {
		header = e.Part
	}
	for _, id := range sortedKeys(byID) {
		if strings.EqualFold(path.Base(byID[id]), "header.xml") {
			header = byID[id]
		}
	}
	return sections, header
}

func sectionName(part string) bool {
	b := strings.ToLower(path.Base(part))
	if !strings.HasPrefix(b, "section") || !strings.HasSuffix(b, ".xml") {
		return false
	}
	for _, r := range b[len("section") : len(b)-len(".xml")] {
		if r < '0' || r > '9' {
			return false
		}
	}
	return len(b) > len("section.xml")
}

// resolve finds the part an href of content.hpf names: relative to the
// package root (Hancom) or to content.hpf (the OPF rule).
func resolve(p *formats.Package, hpf, href string) string {
	h := strings.ReplaceAll(href, `\`, "/")
	if i := strings.IndexAny(h, "#?"); i >= 0 {
		h = h[:i]
	}
	if u, err := url.PathUnescape(h); err == nil {
		h = u
	}
	if h == "" || strings.Contains(h, "://") {
		return ""
	}
	for _, cand := range []string{strings.TrimPrefix(path.Clean(h), "/"), path.Join(path.Dir(hpf), h)} {
		if e := p.Entry(cand); e != nil && !e.Dir {
			return e.Part
		}
	}
	return ""
}

// zipTime is the fixed modification time of every entry written, so the
// same input gives the same bytes.
var zipTime = time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)

// pack writes the ODT package: mimetype first and stored (ODF 1.3 part 2
// §3.3), then the manifest, styles, content and pictures.
func (c *conv) pack(body string) ([]byte, error) {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	add := func(name string, method uint16, data []byte) error {
		w, err := zw.CreateHeader(&zip.FileHeader{Name: name, Method: method, Modified: zipTime})
		if err != nil {
			return err
		}
		_, err = w.Write(data)
		return err
	}
	if err := add("mimetype", zip.Store, []byte("application/vnd.oasis.opendocument.text")); err != nil {
		return nil, err
	}
	var man strings.Builder
	man.WriteString(`<?xml version="1.0" encoding="UTF-8"?><manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.3">`)
	man.WriteString(`<manifest:file-entry manifest:full-path="/" manifest:version="1.3" manifest:media-type="application/vnd.oasis.opendocument.text"/>`)
	for _, n := range []string{"content.xml", "styles.xml", "meta.xml"} {
		man.WriteString(`<manifest:file-entry manifest:full-path="` + n + `" manifest:media-type="text/xml"/>`)
	}
	for _, pic := range c.pics {
		man.WriteString(`<manifest:file-entry manifest:full-path="` + esc(pic.name) + `" manifest:media-type="` + pic.mediaType + `"/>`)
	}
	man.WriteString(`</manifest:manifest>`)
	files := []struct {
		name string
		data string
	}{
		{"META-INF/manifest.xml", man.String()},
		{"meta.xml", `<?xml version="1.0" encoding="UTF-8"?><office:document-meta xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:meta="urn:oasis:names:tc:opendocument:xmlns:meta:1.0" xmlns:dc="http://purl.org/dc/elements/1.1/" office:version="1.3"><office:meta><meta:generator>editaudit ` + Version + `</meta:generator><dc:description>` + esc(Notice) + `</dc:description></office:meta></office:document-meta>`},
		{"styles.xml", c.stylesXML()},
		{"content.xml", c.contentXML(body)},
	}
	for _, f := range files {
		if err := add(f.name, zip.Deflate, []byte(f.data)); err != nil {
			return nil, err
		}
	}
	for _, pic := range c.pics {
		if err := add(pic.name, zip.Store, pic.data); err != nil {
			return nil, err
		}
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func fontDecls() string {
	var b strings.Builder
	b.WriteString("<office:font-face-decls>")
	for _, f := range allFamilies {
		fmt.Fprintf(&b, `<style:font-face style:name="%s" svg:font-family="'%s'" style:font-family-generic="%s" style:font-pitch="%s"/>`, f.name, f.name, f.generic, f.pitch)
	}
	b.WriteString("</office:font-face-decls>")
	return b.String()
}

func (c *conv) stylesXML() string {
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?><office:document-styles` + odfNS + `>`)
	b.WriteString(fontDecls())
	b.WriteString(`<office:styles>`)
	// Defaults: Hangul's (10 pt 함초롬바탕 → the serif), Korean language,
	// no automatic hyphenation, the section's tab interval.
	fmt.Fprintf(&b, `<style:default-style style:family="paragraph"><style:paragraph-properties style:tab-stop-distance="%s" style:writing-mode="lr-tb" fo:hyphenation-ladder-count="no-limit" style:line-break="normal"/>`+
		`<style:text-properties style:font-name="%s" style:font-name-asian="%s" style:font-name-complex="%s" fo:font-size="10pt" style:font-size-asian="10pt" style:font-size-complex="10pt" fo:language="ko" fo:country="KR" style:language-asian="ko" style:country-asian="KR" fo:hyphenate="false"/></style:default-style>`,
		pt(4000), famSerifKR, famSerifKR, famSerifKR)
	b.WriteString(`<style:default-style style:family="table"><style:table-properties table:border-model="collapsing"/></style:default-style>`)
	b.WriteString(`<style:default-style style:family="graphic"><style:graphic-properties draw:stroke="none" draw:fill="none" fo:border="none" style:flow-with-text="false"/></style:default-style>`)
	b.WriteString(`<style:style style:name="Standard" style:family="paragraph" style:class="text"/>`)
	b.WriteString(`</office:styles><office:automatic-styles>`)
	c.styles.write(&b)
	b.WriteString(`</office:automatic-styles><office:master-styles>`)
	for _, m := range c.masters {
		b.WriteString(m)
	}
	b.WriteString(`</office:master-styles></office:document-styles>`)
	return b.String()
}

func (c *conv) contentXML(body string) string {
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?><office:document-content` + odfNS + `>`)
	b.WriteString(fontDecls())
	b.WriteString(`<office:automatic-styles>`)
	c.content.write(&b)
	b.WriteString(`</office:automatic-styles><office:body><office:text>`)
	b.WriteString(body)
	b.WriteString(`</office:text></office:body></office:document-content>`)
	return b.String()
}
