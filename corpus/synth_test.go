package corpus

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/xml"
	"fmt"
	"io"
	"path"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/editaudit/editaudit/formats"
	"github.com/editaudit/editaudit/formats/inspect"
)

// testBases synthesizes the example specs and a few small specs built
// here, keyed by a name with the format's extension.
func testBases(t testing.TB) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	for _, name := range exampleSpecNames(t) {
		s := loadSpecFile(t, name)
		data, err := Synthesize(s)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		base := strings.TrimSuffix(path.Base(name), ".json")
		out[base+"."+s.Format] = data
	}
	for name, s := range smallSpecs() {
		data, err := Synthesize(s)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		out[name+"."+s.Format] = data
	}
	return out
}

// smallSpecs are bases with a different shape from the examples: a form
// whose nested tables sit in the first table, a plain deck, a workbook
// with a picture but no chart.
func smallSpecs() map[string]*Spec {
	opt := func(o ...string) Block {
		var rows []Row
		for _, x := range o {
			rows = append(rows, Row{Cells: []Cell{{Text: "\u2610"}, {Text: x}}})
		}
		return Block{Table: &Table{Widths: []float64{1, 6}, Rows: rows}}
	}
	return map[string]*Spec{
		"form": {Format: "docx", Title: "Form", Docx: &DocxSpec{Body: []Block{
			{Table: &Table{HeaderRows: 1, Rows: []Row{
				{Cells: []Cell{{Text: "Question"}, {Text: "Answer"}}},
				{Cells: []Cell{{Text: "Colour"}, {Blocks: []Block{{Paragraph: &Paragraph{Text: "Pick one:"}}, opt("Red", "Green", "Blue"), opt("Matte", "Gloss")}}}},
				{Cells: []Cell{{Text: "Name"}, {Text: "Kim Lee"}}},
				{Cells: []Cell{{Text: "Signed"}, {Text: ""}}},
			}}},
			{Paragraph: &Paragraph{Runs: []Run{{Text: "Return the form by Friday. "}, {Text: "Thank you.", Italic: true}}}},
			{List: &List{Items: []ListItem{{Text: "first"}, {Text: "second"}}}},
		}}},
		"plain": {Format: "pptx", Pptx: &PptxSpec{Size: "4:3", Slides: []Slide{
			{Title: "One", Body: []Paragraph{{Runs: []Run{{Text: "Alpha "}, {Text: "beta", Bold: true}}}}},
			{Title: "Two", Body: []Paragraph{{Text: "Gamma delta"}}, Image: &Image{Src: "builtin:logo"}},
			{Title: "Three", Notes: "closing words"},
		}}},
		"pictures": {Format: "xlsx", Xlsx: &XlsxSpec{Sheets: []Sheet{{Name: "Data",
			Rows:   [][]XCell{{{Kind: "text", Text: "Item"}, {Kind: "text", Text: "Cost"}}, {{Kind: "text", Text: "Paper"}, {Kind: "number", Number: 12.5}}, {{Kind: "text", Text: "Ink"}, {Kind: "formula", Formula: "B2*2"}}},
			Images: []Image{{Cell: "D2", Src: "builtin:stamp"}}}}}},
	}
}

// TestSynthesizeDeterministic: the same spec gives the same bytes, also
// when synthesized concurrently (no shared state).
func TestSynthesizeDeterministic(t *testing.T) {
	for _, name := range exampleSpecNames(t) {
		s := loadSpecFile(t, name)
		a, err := Synthesize(s)
		if err != nil {
			t.Fatal(err)
		}
		results := make(chan []byte, 2)
		for i := 0; i < 2; i++ {
			go func() {
				b, err := Synthesize(loadSpecFile(t, name))
				if err != nil {
					t.Error(err)
				}
				results <- b
			}()
		}
		for i := 0; i < 2; i++ {
			if b := <-results; !bytes.Equal(a, b) {
				t.Errorf("%s: two syntheses differ (%d vs %d bytes)", name, len(a), len(b))
			}
		}
		zr, err := zip.NewReader(bytes.NewReader(a), int64(len(a)))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range zr.File {
			if !f.Modified.Equal(zipTime()) {
				t.Errorf("%s: %s has time %v", name, f.Name, f.Modified)
			}
		}
	}
}

// TestPackageSanity checks what makes Office refuse or repair a file, on
// every synthesized document: well-formed XML parts, a content type for
// every part, relationship targets that exist, every r:id a part uses
// defined in its .rels, and the format rules of DEFECTS.md the writers
// must respect.
func TestPackageSanity(t *testing.T) {
	for name, data := range testBases(t) {
		t.Run(name, func(t *testing.T) {
			parts := unzipAll(t, data)
			for n, b := range parts {
				if strings.HasSuffix(n, ".xml") || strings.HasSuffix(n, ".rels") || strings.HasSuffix(n, ".hpf") {
					if err := wellFormed(b); err != nil {
						t.Errorf("%s: %v", n, err)
					}
				}
			}
			if strings.HasSuffix(name, ".hwpx") {
				checkHwpx(t, data, parts)
				return
			}
			checkContentTypes(t, parts)
			checkRelationships(t, parts)
			switch path.Ext(name) {
			case ".docx":
				checkDocxCells(t, parts["word/document.xml"])
			case ".pptx":
				checkPresentationOrder(t, parts["ppt/presentation.xml"])
			}
		})
	}
}

// TestOwnCheckHasNoFatal: the project's own validators find nothing fatal
// in any synthesized document (the acceptance rule); findings of
// lower grades are listed.
func TestOwnCheckHasNoFatal(t *testing.T) {
	for name, data := range testBases(t) {
		rep, err := inspect.Bytes(context.Background(), data, name, inspect.Options{})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if string(rep.Format) != strings.TrimPrefix(path.Ext(name), ".") {
			t.Errorf("%s detected as %s", name, rep.Format)
		}
		for _, f := range rep.Findings {
			if f.Grade == formats.Fatal {
				t.Errorf("%s: %s", name, f)
			} else {
				t.Logf("%s: %s", name, f)
			}
		}
	}
}

func unzipAll(t testing.TB, data []byte) map[string][]byte {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatalf("not a zip: %v", err)
	}
	out := map[string][]byte{}
	for _, f := range zr.File {
		if _, dup := out[f.Name]; dup {
			t.Errorf("duplicate entry %s", f.Name)
		}
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatalf("%s: %v", f.Name, err)
		}
		out[f.Name] = b
	}
	return out
}

// wellFormed parses b with encoding/xml, which rejects malformed markup
// and characters outside the XML 1.0 Char production.
func wellFormed(b []byte) error {
	d := xml.NewDecoder(bytes.NewReader(b))
	for {
		_, err := d.Token()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

func checkContentTypes(t *testing.T, parts map[string][]byte) {
	ct := string(parts["[Content_Types].xml"])
	defaults := map[string]bool{}
	for _, m := range regexp.MustCompile(`<Default Extension="([^"]+)"`).FindAllStringSubmatch(ct, -1) {
		defaults[strings.ToLower(m[1])] = true
	}
	overrides := map[string]bool{}
	for _, m := range regexp.MustCompile(`<Override PartName="/([^"]+)"`).FindAllStringSubmatch(ct, -1) {
		if overrides[m[1]] {
			t.Errorf("duplicate Override %s", m[1])
		}
		overrides[m[1]] = true
		if _, ok := parts[m[1]]; !ok {
			t.Errorf("Override for %s, which is not in the zip", m[1])
		}
	}
	for n := range parts {
		if n == "[Content_Types].xml" {
			continue
		}
		if !overrides[n] && !defaults[strings.ToLower(strings.TrimPrefix(path.Ext(n), "."))] {
			t.Errorf("%s has no content type", n)
		}
	}
	// Main parts must have their own Override, not the xml Default.
	for n := range parts {
		if regexp.MustCompile(`^(word/document|ppt/slides/slide\d+|xl/worksheets/sheet\d+|ppt/presentation|xl/workbook)\.xml$`).MatchString(n) && !overrides[n] {
			t.Errorf("main part %s resolves through a Default", n)
		}
	}
}

var (
	relRE  = regexp.MustCompile(`<Relationship ([^>]*?)/?>`)
	attrRE = regexp.MustCompile(`(\w+)="([^"]*)"`)
	ridUse = regexp.MustCompile(`\br:(?:id|embed|link|pict)="([^"]*)"`)
)

func checkRelationships(t *testing.T, parts map[string][]byte) {
	for n, b := range parts {
		if !strings.HasSuffix(n, ".rels") {
			continue
		}
		dir, file := path.Split(n)
		source := path.Join(path.Dir(strings.TrimSuffix(dir, "/")), strings.TrimSuffix(file, ".rels"))
		if n == "_rels/.rels" {
			source = ""
		}
		if source != "" {
			if _, ok := parts[source]; !ok {
				t.Errorf("%s belongs to a missing part %s", n, source)
			}
		}
		ids := map[string]bool{}
		for _, m := range relRE.FindAllStringSubmatch(string(b), -1) {
			attrs := map[string]string{}
			for _, a := range attrRE.FindAllStringSubmatch(m[1], -1) {
				attrs[a[1]] = a[2]
			}
			if ids[attrs["Id"]] {
				t.Errorf("%s: duplicate Id %s", n, attrs["Id"])
			}
			ids[attrs["Id"]] = true
			if attrs["TargetMode"] == "External" {
				continue
			}
			target := resolveTarget(source, attrs["Target"])
			if source == "" {
				target = strings.TrimPrefix(attrs["Target"], "/")
			}
			if _, ok := parts[target]; !ok {
				t.Errorf("%s: %s → %s is missing", n, attrs["Id"], target)
			}
		}
		if source == "" {
			continue
		}
		for _, m := range ridUse.FindAllStringSubmatch(string(parts[source]), -1) {
			if !ids[m[1]] {
				t.Errorf("%s uses r:id %s, which %s does not define", source, m[1], n)
			}
		}
	}
	// A part using r:ids needs a .rels.
	for n, b := range parts {
		if strings.HasSuffix(n, ".xml") && ridUse.Match(b) {
			if _, ok := parts[relsPartOf(n)]; !ok {
				t.Errorf("%s uses r:ids but has no %s", n, relsPartOf(n))
			}
		}
	}
}

// checkDocxCells: every w:tc ends with a w:p (ECMA-376 §17.4.66; the
// most common Word failure, DEFECTS.md), also after a nested table.
func checkDocxCells(t *testing.T, doc []byte) {
	type frame struct{ name, last string }
	var stack []frame
	cells := 0
	d := xml.NewDecoder(bytes.NewReader(doc))
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		switch e := tok.(type) {
		case xml.StartElement:
			if len(stack) > 0 && e.Name.Local != "tcPr" {
				stack[len(stack)-1].last = e.Name.Local
			}
			stack = append(stack, frame{name: e.Name.Local})
		case xml.EndElement:
			top := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if top.name == "tc" && e.Name.Space == nsW {
				cells++
				if top.last != "p" {
					t.Errorf("a w:tc ends with %q, not w:p", top.last)
				}
			}
		}
	}
	if cells == 0 && bytes.Contains(doc, []byte("<w:tbl>")) {
		t.Error("tables but no cells seen")
	}
}

func checkPresentationOrder(t *testing.T, pres []byte) {
	order := []string{"sldMasterIdLst", "notesMasterIdLst", "handoutMasterIdLst", "sldIdLst", "sldSz", "notesSz", "defaultTextStyle"}
	last := -1
	for _, m := range regexp.MustCompile(`<p:(\w+)`).FindAllStringSubmatch(string(pres), -1) {
		for i, o := range order {
			if m[1] == o {
				if i < last {
					t.Errorf("presentation.xml: %s after %s (CT_Presentation order)", o, order[last])
				}
				last = i
			}
		}
	}
}

// checkHwpx: DEFECTS.md's container layout and IDRefs that resolve.
func checkHwpx(t *testing.T, data []byte, parts map[string][]byte) {
	zr, _ := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if zr.File[0].Name != "mimetype" || zr.File[0].Method != zip.Store || string(parts["mimetype"]) != "application/hwp+zip" {
		t.Errorf("mimetype must be first, stored, application/hwp+zip")
	}
	if !strings.Contains(string(parts["META-INF/container.xml"]), `full-path="Contents/content.hpf" media-type="application/hwpml-package+xml"`) {
		t.Errorf("container.xml does not name Contents/content.hpf")
	}
	hpf := string(parts["Contents/content.hpf"])
	items := map[string]string{}
	for _, m := range regexp.MustCompile(`<opf:item id="([^"]+)" href="([^"]+)"`).FindAllStringSubmatch(hpf, -1) {
		items[m[1]] = m[2]
		if _, ok := parts[m[2]]; !ok {
			t.Errorf("manifest item %s → %s is missing", m[1], m[2])
		}
	}
	for _, m := range regexp.MustCompile(`<opf:itemref idref="([^"]+)"`).FindAllStringSubmatch(hpf, -1) {
		if _, ok := items[m[1]]; !ok {
			t.Errorf("spine itemref %s has no manifest item", m[1])
		}
	}
	header := string(parts["Contents/header.xml"])
	var sections []string
	for n := range parts {
		if regexp.MustCompile(`^Contents/section\d+\.xml$`).MatchString(n) {
			sections = append(sections, n)
		}
	}
	sort.Strings(sections)
	if !strings.Contains(header, fmt.Sprintf(`secCnt="%d"`, len(sections))) {
		t.Errorf("header secCnt does not equal %d sections", len(sections))
	}
	defined := func(kind string) map[string]bool {
		m := map[string]bool{}
		for _, x := range regexp.MustCompile(`<hh:`+kind+` id="(\d+)"`).FindAllStringSubmatch(header, -1) {
			m[x[1]] = true
		}
		return m
	}
	refs := map[string]map[string]bool{"charPrIDRef": defined("charPr"), "paraPrIDRef": defined("paraPr"), "styleIDRef": defined("style"), "borderFillIDRef": defined("borderFill")}
	for _, sec := range append(sections, "Contents/header.xml") {
		for attr, ids := range refs {
			for _, m := range regexp.MustCompile(`\b`+attr+`="(\d+)"`).FindAllStringSubmatch(string(parts[sec]), -1) {
				if !ids[m[1]] {
					t.Errorf("%s: %s=%s is not defined in header.xml", sec, attr, m[1])
				}
			}
		}
	}
	for _, kind := range []string{"charProperties", "paraProperties", "borderFills", "styles"} {
		m := regexp.MustCompile(`<hh:` + kind + ` itemCnt="(\d+)"`).FindStringSubmatch(header)
		child := map[string]string{"charProperties": "charPr", "paraProperties": "paraPr", "borderFills": "borderFill", "styles": "style"}[kind]
		if m == nil || m[1] != fmt.Sprint(len(defined(child))) {
			t.Errorf("%s itemCnt does not match its %d children", kind, len(defined(child)))
		}
	}
}

// fiftyPageSpec is a report of 50 pages: each page a heading, paragraphs,
// a list and a table, then a page break.
func fiftyPageSpec() *Spec {
	var body []Block
	for p := 1; p <= 50; p++ {
		body = append(body, Block{Heading: &Heading{Level: 1, Text: fmt.Sprintf("Chapter %d", p)}})
		for i := 0; i < 3; i++ {
			body = append(body, Block{Paragraph: &Paragraph{Align: "justify", Runs: []Run{
				{Text: "This paragraph describes the obligations of the parties in some detail, "},
				{Text: "including deadlines", Bold: true},
				{Text: " and the consequences of missing them. It is long enough to wrap over several lines on the page."},
			}}})
		}
		body = append(body, Block{List: &List{Ordered: p%2 == 0, Items: []ListItem{{Text: "first point"}, {Text: "second point"}, {Text: "detail", Level: 1}}}})
		var rows []Row
		rows = append(rows, Row{Cells: []Cell{{Text: "Item"}, {Text: "Quantity"}, {Text: "Price"}}})
		for r := 0; r < 6; r++ {
			rows = append(rows, Row{Cells: []Cell{{Text: fmt.Sprintf("Item %d.%d", p, r)}, {Text: fmt.Sprint(r + 1)}, {Text: fmt.Sprintf("EUR %d.00", 10*(r+1))}}})
		}
		body = append(body, Block{Table: &Table{HeaderRows: 1, Widths: []float64{3, 1, 1}, Rows: rows}})
		if p < 50 {
			body = append(body, Block{PageBreak: true})
		}
	}
	return &Spec{Format: "docx", Title: "Fifty pages", Docx: &DocxSpec{
		Footer: []Block{{Paragraph: &Paragraph{Align: "center", Runs: []Run{{Text: "Page "}, {Field: "PAGE"}}}}},
		Body:   body,
	}}
}

// TestSynthesis50Pages: the budget is 100 ms for a 50-page docx.
// The best of five runs is compared (the machine is shared).
func TestSynthesis50Pages(t *testing.T) {
	s := fiftyPageSpec()
	best := time.Hour
	for i := 0; i < 5; i++ {
		start := time.Now()
		if _, err := Synthesize(s); err != nil {
			t.Fatal(err)
		}
		best = min(best, time.Since(start))
	}
	t.Logf("50-page docx synthesized in %v (best of 5)", best)
	if best > 100*time.Millisecond {
		t.Errorf("50-page docx took %v, the budget is 100 ms", best)
	}
}

func BenchmarkSynthesize50PageDocx(b *testing.B) {
	s := fiftyPageSpec()
	for b.Loop() {
		if _, err := Synthesize(s); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSynthesizeExamples(b *testing.B) {
	for _, name := range exampleSpecNames(b) {
		s := loadSpecFile(b, name)
		b.Run(path.Base(name), func(b *testing.B) {
			for b.Loop() {
				if _, err := Synthesize(s); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
