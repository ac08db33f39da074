package hwpx

import (
	"fmt"
	"net/url"
	"path"
	"strings"

	"github.com/editaudit/editaudit/formats"
)

// item is one opf:item of content.hpf's manifest.
type item struct {
	id, href     string
	part         string // the resolved part ("" when missing or linked)
	linked       bool
	line, column int
	locator      string
}

// itemref is one opf:itemref of the spine.
type itemref struct {
	idref        string
	line, column int
	locator      string
}

// opfPackage is the parsed package document (Contents/content.hpf), an OPF
// package (EPUB OPF 3.0 §3.4: manifest, spine).
type opfPackage struct {
	part  string
	items []*item
	byID  map[string]*item
	spine []itemref
}

// opfHandler reads the manifest and spine. Elements are matched by local
// name: Hancom writes the OPF namespace with a trailing slash
// (http://www.idpf.org/2007/opf/), other writers without it (DEFECTS.md:
// accept both).
type opfHandler struct {
	formats.NopHandler
	pkg *opfPackage
}

// Start implements formats.Handler.
func (h *opfHandler) Start(e *formats.Element) {
	if e.Parent == nil {
		return
	}
	switch {
	case e.Name.Local == "item" && e.Parent.Name.Local == "manifest":
		id, _ := e.Get("", "id")
		href, _ := e.Get("", "href")
		emb, _ := e.Get("", "isEmbeded") // Hancom's spelling
		it := &item{id: id, href: href, linked: emb == "0", line: e.Line, column: e.Column, locator: e.Locator()}
		h.pkg.items = append(h.pkg.items, it)
		if _, dup := h.pkg.byID[id]; !dup {
			h.pkg.byID[id] = it
		}
	case e.Name.Local == "itemref" && e.Parent.Name.Local == "spine":
		idref, _ := e.Get("", "idref")
		h.pkg.spine = append(h.pkg.spine, itemref{idref: idref, line: e.Line, column: e.Column, locator: e.Locator()})
	}
}

// readPackage scans content.hpf and checks that its manifest items and
// spine itemrefs resolve (DEFECTS.md: required).
func (in *inspector) readPackage(part string) *opfPackage {
	p := in.p
	pkg := &opfPackage{part: part, byID: map[string]*item{}}
	p.ScanPart(in.ctx, part, &opfHandler{pkg: pkg})
	for _, it := range pkg.items {
		if !isExternal(it.href) {
			it.part = in.resolveHref(part, it.href)
		}
		if it.part != "" {
			// In the package: a part, whatever isEmbeded says (Hancom writes
			// isEmbeded="0" on embedded OLE objects too: hwpxlib_SimpleOLE).
			it.linked = false
			continue
		}
		if it.linked || isExternal(it.href) {
			// Hancom writes linked media (isEmbeded="0") as a manifest item
			// whose href is a path on the author's disk (hwpxlib_SimpleVideo:
			// C:\Users\…\file.avi); the document opens, the media plays only
			// where that path exists → info.
			it.linked = true
			p.Add(formats.Finding{Code: CodeLinkedItem, Grade: formats.Info, Part: part, Line: it.line, Column: it.column, Locator: it.locator, Anchor: "linked:" + it.id,
				Message: fmt.Sprintf("manifest item %q links %s, a file outside the package; it is shown only on a machine where that path exists", it.id, it.href),
				Fix:     "embed the file (insert it again with \"embed in document\") if the document will be opened elsewhere"})
			continue
		}
		// A manifest entry naming a missing part: Hangul cannot load the
		// section, header or image it lists (DEFECTS.md: manifest items
		// must resolve) → fatal.
		p.Add(formats.Finding{Code: CodeManifestItemMissing, Grade: formats.Fatal, Part: part, Line: it.line, Column: it.column, Locator: it.locator, Anchor: "item:" + it.id + "→" + it.href,
			Message: fmt.Sprintf("manifest item %q names %s, which is not in the package", it.id, it.href),
			Fix:     fmt.Sprintf("restore %s, or remove the opf:item %q (and its spine itemref and every reference to it)", it.href, it.id)})
	}
	for _, ref := range pkg.spine {
		if _, ok := pkg.byID[ref.idref]; ok {
			continue
		}
		// The spine is the reading order; an itemref to no item leaves a
		// hole Hangul cannot fill (DEFECTS.md: spine refs must resolve).
		p.Add(formats.Finding{Code: CodeSpineRefUndefined, Grade: formats.Fatal, Part: part, Line: ref.line, Column: ref.column, Locator: ref.locator, Anchor: "itemref:" + ref.idref,
			Message: fmt.Sprintf("the spine lists idref %q, but the manifest has no item with that id", ref.idref),
			Fix:     fmt.Sprintf("add an opf:item with id=%q for the part it means, or remove the itemref", ref.idref)})
	}
	return pkg
}

// resolveHref finds the part an href names. Hancom writes hrefs relative to
// the package root ("Contents/section0.xml" from Contents/content.hpf);
// the OPF rule is relative to the package document (EPUB OPF 3.0 §3.4 /
// RFC 3986), which other writers follow ("section0.xml"). Both are tried.
func (in *inspector) resolveHref(hpf, href string) string {
	h := strings.ReplaceAll(href, `\`, "/")
	if i := strings.IndexAny(h, "#?"); i >= 0 {
		h = h[:i]
	}
	if u, err := url.PathUnescape(h); err == nil {
		h = u
	}
	if h == "" {
		return ""
	}
	for _, c := range []string{strings.TrimPrefix(path.Clean(h), "/"), path.Join(path.Dir(hpf), h)} {
		if e := in.p.Entry(c); e != nil && !e.Dir {
			return e.Part
		}
	}
	return ""
}

// isExternal reports hrefs that cannot name a part: a URL scheme, a drive
// letter, a UNC path.
func isExternal(href string) bool {
	if strings.Contains(href, "://") || strings.HasPrefix(href, `\\`) {
		return true
	}
	return len(href) > 2 && href[1] == ':' && (href[2] == '\\' || href[2] == '/') &&
		((href[0] >= 'A' && href[0] <= 'Z') || (href[0] >= 'a' && href[0] <= 'z'))
}
