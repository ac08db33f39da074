package mutate_test

import (
	"archive/zip"
	"bytes"
	"errors"
	"io"
	"path"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/editaudit/editaudit/formats"
	"github.com/editaudit/editaudit/internal/testdoc"
	"github.com/editaudit/editaudit/mutate"
	"github.com/editaudit/editaudit/synth/synthtest"
)

func TestMutationsTable(t *testing.T) {
	seen := map[string]bool{}
	codes := map[string]bool{formats.CodeXMLIllegalChar: true, formats.CodeXMLNotWellFormed: true, formats.CodeCTNoType: true,
		formats.CodeCTWrongMainType: true, formats.CodeRelsTargetMissing: true, formats.CodeRelsUndefinedID: true}
	for _, m := range mutate.Mutations() {
		if seen[m.Kind] {
			t.Errorf("duplicate kind %s", m.Kind)
		}
		seen[m.Kind] = true
		if m.Description == "" || len(m.Formats) == 0 {
			t.Errorf("%s: no description or formats", m.Kind)
		}
		e := m.Expect
		if e.Blocked != (e.Grade == formats.Fatal) {
			t.Errorf("%s: blocked=%v with grade %q", m.Kind, e.Blocked, e.Grade)
		}
		if (e.Code == "") != (e.Grade == "") || (e.Code != "" && !codes[e.Code]) {
			t.Errorf("%s: code %q grade %q", m.Kind, e.Code, e.Grade)
		}
		if e.Blocked && (e.PagesChange || len(e.Shrinks) > 0) {
			t.Errorf("%s: a blocked kind states no pages or shrink", m.Kind)
		}
	}
	if _, err := mutate.Mutate("no.such-kind", nil); !errors.Is(err, mutate.ErrUnknownKind) {
		t.Errorf("unknown kind: %v", err)
	}
	if _, err := mutate.Mutate("zip.repacked", []byte("not a zip")); !errors.Is(err, mutate.ErrNotZip) {
		t.Errorf("not a zip: %v", err)
	}
}

// structure counts what the expectations talk about, with plain regular
// expressions over the parts (independent of the formats package): docx
// tables/rows/cells/paragraphs in the body, headers and footers; pptx
// slides and the paragraphs and runs on slides; xlsx charts and pictures;
// hwpx sections, paragraphs and tables.
func structure(t testing.TB, data []byte) map[string]int {
	parts := testdoc.Unzip(t, data)
	c := map[string]int{}
	count := func(re string, names ...string) int {
		n := 0
		r := regexp.MustCompile(re)
		for _, name := range names {
			n += len(r.FindAll(parts[name], -1))
		}
		return n
	}
	var names []string
	for n := range parts {
		names = append(names, n)
	}
	sort.Strings(names)
	match := func(re string) []string {
		var out []string
		r := regexp.MustCompile(re)
		for _, n := range names {
			if r.MatchString(n) {
				out = append(out, n)
			}
		}
		return out
	}
	switch {
	case parts["word/document.xml"] != nil:
		ps := match(`^word/(document|header\d+|footer\d+)\.xml$`)
		c["tables"] = count(`<w:tbl>`, ps...)
		c["rows"] = count(`<w:tr[\s>]`, ps...)
		c["cells"] = count(`<w:tc[\s>]`, ps...)
		c["paragraphs"] = count(`<w:p[\s>/]`, ps...)
		// nested_tables: tables opened while inside a cell.
		tagRE := regexp.MustCompile(`<(/?)w:(tc|tbl)[\s>/]`)
		for _, name := range ps {
			depth := 0
			for _, m := range tagRE.FindAllSubmatch(parts[name], -1) {
				switch {
				case string(m[2]) == "tc" && len(m[1]) == 0:
					depth++
				case string(m[2]) == "tc":
					depth--
				case string(m[2]) == "tbl" && len(m[1]) == 0 && depth > 0:
					c["nested_tables"]++
				}
			}
		}
	case parts["ppt/presentation.xml"] != nil:
		ss := match(`^ppt/slides/slide\d+\.xml$`)
		c["slides"] = count(`<p:sldId `, "ppt/presentation.xml")
		c["paragraphs"] = count(`<a:p[\s>/]`, ss...)
		c["runs"] = count(`<a:r>`, ss...)
		c["tables"] = count(`<a:tbl>`, ss...)
		c["notes"] = len(match(`^ppt/notesSlides/notesSlide\d+\.xml$`))
	case parts["xl/workbook.xml"] != nil:
		ds := match(`^xl/drawings/drawing\d+\.xml$`)
		c["charts"] = count(`<c:chart `, ds...)
		c["images"] = count(`<xdr:pic>`, ds...)
		c["sheets"] = count(`<sheet `, "xl/workbook.xml")
		c["tables"] = len(match(`^xl/tables/table\d+\.xml$`))
	default:
		ss := match(`^Contents/section\d+\.xml$`)
		c["sections"] = len(ss)
		c["paragraphs"] = count(`<hp:p `, ss...)
		c["tables"] = count(`<hp:tbl `, ss...)
	}
	return c
}

// rawEntries maps entry name → compressed bytes.
func rawEntries(t testing.TB, data []byte) (map[string][]byte, []*zip.File) {
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatalf("not a zip: %v", err)
	}
	out := map[string][]byte{}
	for _, f := range zr.File {
		r, err := f.OpenRaw()
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(r)
		if err != nil {
			t.Fatal(err)
		}
		out[f.Name] = b
	}
	return out, zr.File
}

// TestMutations applies every injector to every base it fits and checks
// the edit structurally: a readable zip, the untouched entries byte for
// byte, exactly the promised structure shrink, the defect really present,
// the input untouched, the output deterministic. The matrix is logged.
func TestMutations(t *testing.T) {
	bases := synthtest.Bases(t)
	var baseNames []string
	for n := range bases {
		baseNames = append(baseNames, n)
	}
	sort.Strings(baseNames)
	applied := map[string]int{}
	var matrix []string
	for _, m := range mutate.Mutations() {
		for _, bn := range baseNames {
			in := bases[bn]
			f := formats.Format(strings.TrimPrefix(path.Ext(bn), "."))
			fits := false
			for _, g := range m.Formats {
				fits = fits || g == f
			}
			orig := bytes.Clone(in)
			a, err := mutate.Apply(m.Kind, in)
			if !fits {
				if !errors.Is(err, mutate.ErrNotApplicable) {
					t.Errorf("%s × %s: want ErrNotApplicable, got %v", m.Kind, bn, err)
				}
				continue
			}
			if errors.Is(err, mutate.ErrNotApplicable) {
				matrix = append(matrix, m.Kind+" × "+bn+" → not applicable: "+err.Error())
				continue
			}
			if err != nil {
				t.Errorf("%s × %s: %v", m.Kind, bn, err)
				continue
			}
			applied[m.Kind]++
			matrix = append(matrix, m.Kind+" × "+bn+" → "+a.Expect.String()+" — "+a.Note)
			if !bytes.Equal(in, orig) {
				t.Fatalf("%s × %s modified its input", m.Kind, bn)
			}
			t.Run(m.Kind+"/"+bn, func(t *testing.T) {
				again, err := mutate.Mutate(m.Kind, in)
				if err != nil || !bytes.Equal(again, a.Data) {
					t.Errorf("Mutate differs from Apply or is not deterministic (%v)", err)
				}
				checkMutation(t, m, a, in)
			})
		}
	}
	for _, m := range mutate.Mutations() {
		if applied[m.Kind] == 0 {
			t.Errorf("%s applied to no base", m.Kind)
		}
	}
	t.Logf("injector × base → outcome:\n%s", strings.Join(matrix, "\n"))
}

func checkMutation(t *testing.T, m mutate.Mutation, a *mutate.Applied, in []byte) {
	before, after := testdoc.Unzip(t, in), testdoc.Unzip(t, a.Data)
	rawIn, _ := rawEntries(t, in)
	rawOut, filesOut := rawEntries(t, a.Data)
	changed := 0
	for name, content := range after {
		old, existed := before[name]
		switch {
		case !existed:
			t.Errorf("new entry %s", name)
		case !bytes.Equal(old, content):
			changed++
		case m.Kind != "zip.repacked" && !bytes.Equal(rawIn[name], rawOut[name]):
			t.Errorf("untouched entry %s was recompressed", name)
		}
	}
	if m.Kind == "zip.repacked" {
		if changed != 0 || len(after) != len(before) {
			t.Errorf("repack changed %d entries", changed)
		}
		for _, f := range filesOut {
			if f.Method != zip.Store {
				t.Errorf("%s is not stored", f.Name)
			}
		}
	} else if changed == 0 && len(after) == len(before) {
		t.Errorf("nothing changed")
	}
	// Structure: exactly the promised metrics shrink.
	sb, sa := structure(t, in), structure(t, a.Data)
	shrinks := map[string]bool{}
	for _, s := range a.Expect.Shrinks {
		shrinks[s] = true
	}
	for k, v := range sb {
		if shrinks[k] && sa[k] >= v {
			t.Errorf("%s should shrink: %d → %d", k, v, sa[k])
		}
		if !shrinks[k] && sa[k] < v {
			t.Errorf("%s shrank unexpectedly: %d → %d", k, v, sa[k])
		}
	}
	for s := range shrinks {
		if _, ok := sb[s]; !ok {
			t.Errorf("promised shrink of %s, which the test cannot count", s)
		}
	}
	// The file is still well-formed unless the defect says otherwise.
	for name, content := range after {
		if !strings.HasSuffix(name, ".xml") && !strings.HasSuffix(name, ".rels") {
			continue
		}
		err := testdoc.WellFormed(content)
		if bytes.Equal(before[name], content) {
			continue
		}
		switch m.Kind {
		case "xml.illegal-char", "xml.not-well-formed":
			if err == nil {
				t.Errorf("%s: changed part %s still parses", m.Kind, name)
			}
		default:
			if err != nil {
				t.Errorf("%s: %v", name, err)
			}
		}
	}
	checkDefect(t, m.Kind, before, after)
}

// checkDefect looks for the specific damage of each kind.
func checkDefect(t *testing.T, kind string, before, after map[string][]byte) {
	changedParts := func() []string {
		var out []string
		for n, c := range after {
			if !bytes.Equal(before[n], c) {
				out = append(out, n)
			}
		}
		sort.Strings(out)
		return out
	}
	removed := func() []string {
		var out []string
		for n := range before {
			if _, ok := after[n]; !ok {
				out = append(out, n)
			}
		}
		sort.Strings(out)
		return out
	}
	ct := string(after["[Content_Types].xml"])
	switch kind {
	case "xml.illegal-char":
		for _, n := range changedParts() {
			if !bytes.Contains(after[n], []byte{0x0B}) {
				t.Errorf("%s has no U+000B", n)
			}
		}
	case "xml.not-well-formed":
		for _, n := range changedParts() {
			if !bytes.Contains(after[n], []byte(" & ")) {
				t.Errorf("%s has no bare &", n)
			}
		}
	case "ct.no-type", "ct.wrong-main-type":
		cp := changedParts()
		if len(cp) != 1 || cp[0] != "[Content_Types].xml" {
			t.Fatalf("changed %v, want only [Content_Types].xml", cp)
		}
		hasXMLDefault := regexp.MustCompile(`(?i)<Default Extension="xml"`).MatchString(ct)
		if (kind == "ct.no-type") == hasXMLDefault {
			t.Errorf("%s: Default for xml present = %v", kind, hasXMLDefault)
		}
		if strings.Count(string(before["[Content_Types].xml"]), "<Override")-strings.Count(ct, "<Override") != 1 {
			t.Errorf("%s: exactly one Override should go", kind)
		}
	case "rels.target-missing":
		rm := removed()
		if len(rm) != 1 || !strings.Contains(rm[0], "media/") {
			t.Fatalf("removed %v, want one media part", rm)
		}
		found := false
		for n, c := range after {
			if strings.HasSuffix(n, ".rels") && bytes.Contains(c, []byte(path.Base(rm[0]))) {
				found = true
			}
		}
		if !found {
			t.Errorf("no relationship still names %s", rm[0])
		}
	case "rels.undefined-id":
		cp := changedParts()
		if len(cp) != 1 || !bytes.Contains(after[cp[0]], []byte(`r:embed="rIdX999"`)) {
			t.Fatalf("changed %v without an r:embed=rIdX999", cp)
		}
		if bytes.Contains(after[formats.RelsPartOf(cp[0])], []byte(`"rIdX999"`)) {
			t.Errorf("rIdX999 is defined")
		}
	case "docx.word-replaced", "pptx.word-replaced":
		cp := changedParts()
		if len(cp) != 1 || len(before[cp[0]]) != len(after[cp[0]]) {
			t.Errorf("a same-length word replacement changes one part and no length (%v)", cp)
		}
	case "docx.page-break-top":
		if bytes.Count(after["word/document.xml"], []byte(`w:type="page"`)) != bytes.Count(before["word/document.xml"], []byte(`w:type="page"`))+1 {
			t.Errorf("no page break added")
		}
		if !regexp.MustCompile(`<w:body><w:p><w:r><w:br w:type="page"/>`).Match(after["word/document.xml"]) {
			t.Errorf("the page break is not the first body paragraph")
		}
	case "docx.nested-tables-wiped":
		if d := bytes.Count(before["word/document.xml"], []byte("<w:tbl>")) - bytes.Count(after["word/document.xml"], []byte("<w:tbl>")); d < 1 {
			t.Errorf("no nested table removed")
		}
	case "pptx.slide-deleted":
		rm := removed()
		slides := 0
		for _, n := range rm {
			if strings.HasPrefix(n, "ppt/slides/slide") {
				slides++
				if strings.Contains(ct, "/"+n+`"`) {
					t.Errorf("Override for %s remains", n)
				}
			}
		}
		if slides != 1 {
			t.Errorf("removed %v, want one slide", rm)
		}
	case "xlsx.openpyxl-resave":
		for n := range after {
			if strings.HasPrefix(n, "xl/drawings/") || strings.HasPrefix(n, "xl/charts/") {
				t.Errorf("%s survived", n)
			}
		}
		if strings.Contains(ct, "drawing+xml") || strings.Contains(ct, "drawingml.chart+xml") {
			t.Errorf("drawing or chart Override survived")
		}
	case "xlsx.row-deleted":
		sheet := "xl/worksheets/sheet1.xml"
		if bytes.Count(before[sheet], []byte("<row "))-bytes.Count(after[sheet], []byte("<row ")) != 1 {
			t.Errorf("not exactly one row removed")
		}
	}
}

func BenchmarkApply(b *testing.B) {
	bases := synthtest.Bases(b)
	for _, c := range []struct{ kind, base string }{
		{"docx.nested-tables-wiped", "contract.docx"},
		{"pptx.slide-deleted", "deck.pptx"},
		{"xlsx.openpyxl-resave", "workbook.xlsx"},
		{"xml.illegal-char", "contract.docx"},
	} {
		b.Run(c.kind, func(b *testing.B) {
			for b.Loop() {
				if _, err := mutate.Apply(c.kind, bases[c.base]); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
