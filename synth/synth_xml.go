package synth

import (
	"strconv"
	"strings"
)

// xmlHeader starts every XML part the writers produce.
const xmlHeader = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>` + "\n"

// xb builds XML text. Writers compose markup by hand (it is faster and
// byte-stable); every text and attribute value passes through esc.
type xb struct{ strings.Builder }

// s appends raw markup.
func (b *xb) s(parts ...string) *xb {
	for _, p := range parts {
		b.WriteString(p)
	}
	return b
}

// t appends escaped text or attribute content.
func (b *xb) t(s string) *xb {
	escapeInto(&b.Builder, s)
	return b
}

// attr appends ` name="escaped value"`.
func (b *xb) attr(name, value string) *xb {
	b.WriteByte(' ')
	b.WriteString(name)
	b.WriteString(`="`)
	escapeInto(&b.Builder, value)
	b.WriteByte('"')
	return b
}

// iattr appends ` name="n"`.
func (b *xb) iattr(name string, n int64) *xb {
	b.WriteByte(' ')
	b.WriteString(name)
	b.WriteString(`="`)
	b.WriteString(strconv.FormatInt(n, 10))
	b.WriteByte('"')
	return b
}

func (b *xb) bytes() []byte { return []byte(b.String()) }

// escapeInto writes s with the five XML specials escaped, and tab,
// newline and carriage return as character references so that they survive
// attribute-value normalisation.
func escapeInto(b *strings.Builder, s string) {
	last := 0
	for i := 0; i < len(s); i++ {
		var rep string
		switch s[i] {
		case '&':
			rep = "&amp;"
		case '<':
			rep = "&lt;"
		case '>':
			rep = "&gt;"
		case '"':
			rep = "&quot;"
		case '\'':
			rep = "&apos;"
		case '\t':
			rep = "&#9;"
		case '\n':
			rep = "&#10;"
		case '\r':
			rep = "&#13;"
		default:
			continue
		}
		b.WriteString(s[last:i])
		b.WriteString(rep)
		last = i + 1
	}
	b.WriteString(s[last:])
}

func esc(s string) string {
	var b strings.Builder
	escapeInto(&b, s)
	return b.String()
}

// rel is one relationship of a part.
type rel struct{ id, typ, target, mode string }

// rels collects a part's relationships, numbered rId1, rId2, ….
type rels struct{ list []rel }

func (r *rels) add(typ, target string) string {
	id := "rId" + strconv.Itoa(len(r.list)+1)
	r.list = append(r.list, rel{id: id, typ: typ, target: target})
	return id
}

func (r *rels) xml() []byte {
	var b xb
	b.s(xmlHeader, `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">`)
	for _, x := range r.list {
		b.s(`<Relationship`).attr("Id", x.id).attr("Type", x.typ).attr("Target", x.target)
		if x.mode != "" {
			b.attr("TargetMode", x.mode)
		}
		b.s(`/>`)
	}
	b.s(`</Relationships>`)
	return b.bytes()
}

// Relationship types (ECMA-376 part 1 §15).
const (
	relOfficeDoc  = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument"
	relCore       = "http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties"
	relExtended   = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/extended-properties"
	relStyles     = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles"
	relSettings   = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/settings"
	relNumbering  = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/numbering"
	relHeader     = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/header"
	relFooter     = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/footer"
	relImage      = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/image"
	relTheme      = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/theme"
	relFontTable  = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/fontTable"
	relSlide      = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/slide"
	relLayout     = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/slideLayout"
	relMaster     = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/slideMaster"
	relNotesSlide = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/notesSlide"
	relNotesMast  = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/notesMaster"
	relPresProps  = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/presProps"
	relViewProps  = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/viewProps"
	relTblStyles  = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/tableStyles"
	relMetadata   = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/sheetMetadata"
)

// contentTypes builds [Content_Types].xml.
type contentTypes struct {
	defaults  [][2]string
	overrides [][2]string
}

func (c *contentTypes) def(ext, typ string) { c.defaults = append(c.defaults, [2]string{ext, typ}) }

func (c *contentTypes) over(part, typ string) {
	c.overrides = append(c.overrides, [2]string{"/" + part, typ})
}

func (c *contentTypes) xml() []byte {
	var b xb
	b.s(xmlHeader, `<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">`)
	for _, d := range c.defaults {
		b.s(`<Default`).attr("Extension", d[0]).attr("ContentType", d[1]).s(`/>`)
	}
	for _, o := range c.overrides {
		b.s(`<Override`).attr("PartName", o[0]).attr("ContentType", o[1]).s(`/>`)
	}
	b.s(`</Types>`)
	return b.bytes()
}

// Content types of the parts the writers create.
const (
	ctRels     = "application/vnd.openxmlformats-package.relationships+xml"
	ctXML      = "application/xml"
	ctPNG      = "image/png"
	ctJPEG     = "image/jpeg"
	ctCore     = "application/vnd.openxmlformats-package.core-properties+xml"
	ctExtended = "application/vnd.openxmlformats-officedocument.extended-properties+xml"
	ctTheme    = "application/vnd.openxmlformats-officedocument.theme+xml"
)

// fixedDate is the creation and modification date written into document
// properties: a constant, so that output depends on the spec only.
const fixedDate = "2024-01-01T00:00:00Z"

// corePropsXML is docProps/core.xml with the spec's title.
func corePropsXML(title string) []byte {
	var b xb
	b.s(xmlHeader, `<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/" xmlns:dcmitype="http://purl.org/dc/dcmitype/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">`)
	if title != "" {
		b.s(`<dc:title>`).t(title).s(`</dc:title>`)
	}
	b.s(`<dc:creator>editaudit corpus</dc:creator><cp:lastModifiedBy>editaudit corpus</cp:lastModifiedBy>`)
	b.s(`<dcterms:created xsi:type="dcterms:W3CDTF">`, fixedDate, `</dcterms:created><dcterms:modified xsi:type="dcterms:W3CDTF">`, fixedDate, `</dcterms:modified></cp:coreProperties>`)
	return b.bytes()
}

// appPropsXML is docProps/app.xml naming the generator.
func appPropsXML(extra string) []byte {
	return []byte(xmlHeader + `<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/extended-properties" xmlns:vt="http://schemas.openxmlformats.org/officeDocument/2006/docPropsVTypes"><Application>editaudit corpus</Application>` + extra + `</Properties>`)
}
