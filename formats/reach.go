package formats

import (
	"fmt"
	"path"
	"sort"
	"strings"
)

// Reachability. An application finds a package's parts by following
// relationships from the package relationships (_rels/.rels) outward
// (ECMA-376 Part 2 §8.3, §9.3): a part that no chain of relationships
// reaches is never read. Office itself leaves such parts behind: discarded
// parts under [trash]/ (openpyxl's bug304.xlsx, written by Excel, opens),
// slides deleted from the slide list but left in the package
// (ShapeCrawler#985: "the file loads normally in PowerPoint"). So nothing
// inside an orphan part blocks: its findings are kept, at warning, and
// their message says "orphan part".

// explicitRelTypes are the relationship types the source part uses only
// through an r:* attribute (r:id, r:embed, r:link, r:dm…). A relationship
// of one of these types that no attribute names is unused; the other
// types (styles, settings, theme, numbering, comments, footnotes,
// calcChain, customXml, slideLayout…) are used by their type alone. The
// value says from which source the type is explicit: "" from any part,
// "main" only from the main part (a layout's slideMaster relationship and a
// pivot table's cache relationship are implicit), "notes" from any part
// but a notes slide (whose slide relationship is implicit).
var explicitRelTypes = map[string]string{
	"image": "", "hyperlink": "", "header": "", "footer": "", "chart": "", "chartUserShapes": "",
	"oleObject": "", "package": "", "video": "", "audio": "", "media": "",
	"diagramData": "", "diagramLayout": "", "diagramQuickStyle": "", "diagramColors": "",
	"drawing": "", "vmlDrawing": "", "table": "", "control": "", "tags": "", "font": "", "aFChunk": "", "subDocument": "",
	"slide":       "notes",
	"slideMaster": "main", "notesMaster": "main", "handoutMaster": "main",
	"worksheet": "main", "chartsheet": "main", "dialogsheet": "main", "externalLink": "main", "pivotCacheDefinition": "main",
}

// unusedRel reports whether relationship r of source is never named by an
// r:* attribute of the source part, as far as a complete scan of the part
// can tell. Relationships of implicit types are always "used".
func (p *Package) unusedRel(source string, r Rel) bool {
	from, explicit := explicitRelTypes[lastSeg(r.Type)]
	key := normPart(source)
	switch {
	case source == "" || !explicit:
		return false
	case from == "main" && key != normPart(p.MainPart):
		return false
	case from == "notes" && strings.Contains(key, "/notesslides/"):
		return false
	}
	// Only a completely scanned XML part tells: VML parts name their
	// images with o:relid, outside the relationships namespace.
	if !p.complete[key] || !strings.HasSuffix(key, ".xml") {
		return false
	}
	for _, ref := range p.refs[key] {
		if ref.id == r.ID {
			return false
		}
	}
	return true
}

// reachable returns the lower-cased names of the parts a chain of
// internal relationships reaches from the package relationships.
func (p *Package) reachable() map[string]bool {
	seen := map[string]bool{}
	queue := []string{""}
	for len(queue) > 0 {
		src := queue[0]
		queue = queue[1:]
		rels := p.rels[src]
		if rels == nil {
			continue
		}
		for _, r := range rels.Rels {
			if r.External || r.Resolved == "" {
				continue
			}
			k := normPart(r.Resolved)
			if seen[k] || p.byPart[k] == nil {
				continue
			}
			seen[k] = true
			queue = append(queue, k)
		}
	}
	return seen
}

// orphans returns the parts no relationship reaches, and the
// relationships parts of those parts: lower-cased name → the orphan part
// (for a .rels part, the part it describes). [Content_Types].xml and the
// relationships parts of reached parts are not orphans.
func (p *Package) orphans() map[string]string {
	reach := p.reachable()
	out := map[string]string{}
	for _, part := range p.Parts() {
		k := normPart(part)
		if reach[k] || k == "[content_types].xml" {
			continue
		}
		if strings.HasSuffix(k, ".rels") && path.Base(path.Dir(k)) == "_rels" {
			src := strings.TrimPrefix(path.Join(path.Dir(path.Dir(k)), strings.TrimSuffix(path.Base(k), ".rels")), "./")
			e := p.byPart[src]
			if src == "." || src == "" || reach[src] || e == nil {
				continue // the package's own rels, a reached part's, or a stale one (rels.orphan-part)
			}
			out[k] = e.Part
			continue
		}
		out[k] = part
	}
	return out
}

// orphanGraded are the codes whose findings in an orphan part are graded
// down: what the application would find if it read the part. Zip-level
// findings (CRC, names, limits) stay as they are: they concern the
// archive, which the application does read.
func orphanGraded(code string) bool {
	return !strings.HasPrefix(code, "zip.") && !strings.HasPrefix(code, "ct.override") && !strings.HasPrefix(code, "ct.duplicate") &&
		code != CodeCTMissing && code != CodeMainPartMissing && code != CodePackageUnknown && code != CodeExtensionMismatch
}

// gradeOrphans lowers fatal and error findings inside orphan parts to
// warnings, saying why, and lists each orphan part that holds such a
// finding once, at info.
func (p *Package) gradeOrphans() {
	orph := p.orphans()
	if len(orph) == 0 {
		return
	}
	hit := map[string]bool{}
	for i := range p.findings {
		f := &p.findings[i]
		src, ok := orph[normPart(f.Part)]
		if !ok || !orphanGraded(f.Code) {
			continue
		}
		hit[src] = true
		if f.Grade.Rank() < Warning.Rank() {
			f.Message = fmt.Sprintf("orphan part (no relationship reaches %s, so the application never reads it; graded warning, was %s): %s", src, f.Grade, f.Message)
			f.Grade = Warning
		}
	}
	parts := make([]string, 0, len(hit))
	for part := range hit {
		parts = append(parts, part)
	}
	sort.Strings(parts)
	for _, part := range parts {
		p.Add(Finding{Code: CodeOrphanPart, Grade: Info, Part: part, Anchor: "orphan",
			Message: fmt.Sprintf("%s is an orphan part: no relationship from the package, its main part or any part they reach names it, so the application ignores it (and drops it on the next save); the findings inside it are warnings", part),
			Fix:     "delete the part (and its .rels and [Content_Types].xml Override) if it is left over from an edit; if it belongs to the document, add the relationship that should reach it"})
	}
}
