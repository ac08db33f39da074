package pixeldiff

import (
	"bytes"
	"context"
	"fmt"
	"html"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/editaudit/editaudit/internal/testdoc"
)

// End-to-end tests on documents rendered by LibreOffice. The documents are
// written in the test as flat OpenDocument files (.fodt, .fodp: one XML
// file each), converted to PDF by one soffice run, and rasterized at 100
// dpi by both programs render may use (pdftoppm and mutool: a
// toolchain uses either), each checked on its own. The programs are run
// directly: render imports this package, so its tests cannot use
// it.

// e2eDoc is one generated document.
type e2eDoc struct {
	name string // file name without extension
	ext  string // "fodt" or "fodp"
	body string // the complete XML
}

// rendered holds a document's pages and its PDF.
type rendered struct {
	pdf   string
	pages []*Raster
}

// needRenderer checks that LibreOffice and poppler are installed
// (testdoc.Tool: a skip, or a failure under CI=true).
func needRenderer(t *testing.T) {
	t.Helper()
	for _, tool := range append([]string{"soffice", "pdftotext"}, e2eRasterizers...) {
		testdoc.Tool(t, tool)
	}
}

// runGroup runs a command in its own process group and kills the whole
// group when ctx ends, so that no soffice survives a timeout.
func runGroup(ctx context.Context, name string, args ...string) ([]byte, error) {
	cmd := exec.Command(name, args...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) // stray children
		return out.Bytes(), err
	case <-ctx.Done():
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		<-done
		return out.Bytes(), ctx.Err()
	}
}

// e2eRasterizers are the programs the pages are drawn with.
var e2eRasterizers = []string{"pdftoppm", "mutool"}

// rasterizeArgs is the command drawing pdf's pages as prefix-N.ppm.
func rasterizeArgs(rz, pdf, prefix string) []string {
	if rz == "mutool" {
		return []string{"mutool", "draw", "-q", "-r", "100", "-c", "rgb", "-F", "pnm", "-o", prefix + "-%d.ppm", pdf}
	}
	return []string{"pdftoppm", "-r", "100", pdf, prefix}
}

// renderDocs converts all documents with one soffice run and rasterizes
// every PDF at 100 dpi with each of e2eRasterizers: rasterizer → name →
// pages.
func renderDocs(t *testing.T, docs []e2eDoc) map[string]map[string]rendered {
	t.Helper()
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	var files []string
	for _, d := range docs {
		p := filepath.Join(dir, d.name+"."+d.ext)
		if err := os.WriteFile(p, []byte(d.body), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, p)
	}
	outDir := filepath.Join(dir, "pdf")
	args := append([]string{
		"-env:UserInstallation=file://" + filepath.Join(dir, "profile"),
		"--headless", "--norestore", "--nolockcheck", "--nodefault",
		"--convert-to", "pdf", "--outdir", outDir,
	}, files...)
	start := time.Now()
	if out, err := runGroup(ctx, "soffice", args...); err != nil {
		t.Fatalf("soffice: %v\n%s", err, out)
	}
	t.Logf("soffice converted %d documents in %v", len(docs), time.Since(start).Round(time.Millisecond))
	res := map[string]map[string]rendered{}
	for _, rz := range e2eRasterizers {
		res[rz] = map[string]rendered{}
	}
	for _, d := range docs {
		for _, rz := range e2eRasterizers {
			res[rz][d.name] = rasterizeDoc(t, ctx, rz, filepath.Join(outDir, d.name+".pdf"), filepath.Join(dir, rz, d.name))
		}
	}
	return res
}

// rasterizeDoc draws pdf's pages with rz as prefix-N.ppm files and reads
// them back.
func rasterizeDoc(t *testing.T, ctx context.Context, rz, pdf, prefix string) rendered {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(prefix), 0o755); err != nil {
		t.Fatal(err)
	}
	args := rasterizeArgs(rz, pdf, prefix)
	if out, err := runGroup(ctx, args[0], args[1:]...); err != nil {
		t.Fatalf("%s %s: %v\n%s", rz, pdf, err, out)
	}
	ppms, _ := filepath.Glob(prefix + "-*.ppm")
	sort.Slice(ppms, func(i, j int) bool { return pageNum(ppms[i]) < pageNum(ppms[j]) })
	var pages []*Raster
	for _, p := range ppms {
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		r, err := ReadPNM(f)
		f.Close()
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		pages = append(pages, r)
	}
	if len(pages) == 0 {
		t.Fatalf("%s: no pages rendered by %s", pdf, rz)
	}
	return rendered{pdf: pdf, pages: pages}
}

func pageNum(path string) int {
	base := strings.TrimSuffix(filepath.Base(path), ".ppm")
	n := 0
	fmt.Sscanf(base[strings.LastIndexByte(base, '-')+1:], "%d", &n)
	return n
}

// ---- document generation ----

// words is a small vocabulary for generated prose.
var words = strings.Fields(`agreement party parties shall hereby term notice payment invoice
services delivery schedule period written consent obligations liability damages
confidential information supplier customer effective date termination clause
section provided however subject applicable law dispute resolution amendment
warranty performance standard report annual quarterly budget review figure table`)

// prose returns n sentences of deterministic pseudo-text.
func prose(rng *rand.Rand, n int) string {
	var b strings.Builder
	for s := 0; s < n; s++ {
		k := 8 + rng.Intn(12)
		for i := 0; i < k; i++ {
			w := words[rng.Intn(len(words))]
			if i == 0 {
				w = capitalize(w)
			}
			b.WriteString(w)
			if i < k-1 {
				b.WriteByte(' ')
			}
		}
		b.WriteString(". ")
	}
	return strings.TrimSpace(b.String())
}

func capitalize(w string) string { return strings.ToUpper(w[:1]) + w[1:] }

// para is one paragraph of a generated text document.
type para struct {
	style string // "P" body, "H" heading, "PB"/"HB" the same starting a new page
	text  string
}

// fodt writes a flat ODT: A4, 2 cm margins, Liberation Serif 11 pt, and
// with header=true a running header "Annual report — page N".
func fodt(paras []para, header bool) string {
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>
<office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0"
 xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0"
 xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"
 xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0"
 office:version="1.2" office:mimetype="application/vnd.oasis.opendocument.text">
<office:font-face-decls>
 <style:font-face style:name="Liberation Serif" svg:font-family="'Liberation Serif'" xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0"/>
</office:font-face-decls>
<office:styles>
 <style:style style:name="Standard" style:family="paragraph">
  <style:paragraph-properties fo:margin-bottom="0.2cm"/>
  <style:text-properties style:font-name="Liberation Serif" fo:font-size="11pt"/>
 </style:style>
</office:styles>
<office:automatic-styles>
 <style:style style:name="P" style:family="paragraph" style:parent-style-name="Standard"/>
 <style:style style:name="PB" style:family="paragraph" style:parent-style-name="Standard">
  <style:paragraph-properties fo:break-before="page"/>
 </style:style>
 <style:style style:name="H" style:family="paragraph" style:parent-style-name="Standard">
  <style:paragraph-properties fo:margin-top="0.4cm" fo:margin-bottom="0.3cm"/>
  <style:text-properties fo:font-size="16pt" fo:font-weight="bold"/>
 </style:style>
 <style:style style:name="HB" style:family="paragraph" style:parent-style-name="Standard">
  <style:paragraph-properties fo:margin-top="0.4cm" fo:margin-bottom="0.3cm" fo:break-before="page"/>
  <style:text-properties fo:font-size="16pt" fo:font-weight="bold"/>
 </style:style>
 <style:style style:name="RULE" style:family="paragraph" style:parent-style-name="Standard">
  <style:paragraph-properties fo:padding="0.1cm" fo:border-bottom="1.5pt solid #000000" fo:margin-bottom="0.3cm"/>
 </style:style>
 <style:style style:name="ODD" style:family="paragraph" style:parent-style-name="Standard">
  <style:paragraph-properties fo:margin-top="0.13cm" fo:margin-bottom="0.37cm"/>
  <style:text-properties fo:font-size="10.3pt"/>
 </style:style>
 <style:page-layout style:name="pm1">
  <style:page-layout-properties fo:page-width="21cm" fo:page-height="29.7cm"
   fo:margin-top="1.2cm" fo:margin-bottom="1.2cm" fo:margin-left="2cm" fo:margin-right="2cm"/>
  <style:header-style><style:header-footer-properties fo:min-height="0.6cm" fo:margin-bottom="0.6cm"/></style:header-style>
 </style:page-layout>
</office:automatic-styles>
<office:master-styles>
 <style:master-page style:name="Standard" style:page-layout-name="pm1">`)
	if header {
		b.WriteString(`<style:header><text:p text:style-name="P">Annual report — page <text:page-number text:select-page="current">1</text:page-number></text:p></style:header>`)
	}
	b.WriteString("</style:master-page>\n</office:master-styles>\n<office:body><office:text>\n")
	for _, p := range paras {
		fmt.Fprintf(&b, "<text:p text:style-name=%q>%s</text:p>\n", p.style, html.EscapeString(p.text))
	}
	b.WriteString("</office:text></office:body></office:document>\n")
	return b.String()
}

// fodp writes a flat ODP deck with one title and one text box per slide.
func fodp(slides [][2]string) string {
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>
<office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0"
 xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0"
 xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"
 xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0"
 xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0"
 xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0"
 xmlns:presentation="urn:oasis:names:tc:opendocument:xmlns:presentation:1.0"
 office:version="1.2" office:mimetype="application/vnd.oasis.opendocument.presentation">
<office:automatic-styles>
 <style:page-layout style:name="PM1">
  <style:page-layout-properties fo:margin-top="0cm" fo:margin-bottom="0cm" fo:margin-left="0cm" fo:margin-right="0cm"
   fo:page-width="28cm" fo:page-height="15.75cm" style:print-orientation="landscape"/>
 </style:page-layout>
 <style:style style:name="T" style:family="paragraph"><style:text-properties fo:font-size="32pt" fo:font-weight="bold" style:font-name="Liberation Sans"/></style:style>
 <style:style style:name="B" style:family="paragraph"><style:text-properties fo:font-size="18pt" style:font-name="Liberation Sans"/></style:style>
</office:automatic-styles>
<office:master-styles><style:master-page style:name="Default" style:page-layout-name="PM1"/></office:master-styles>
<office:body><office:presentation>
`)
	for i, s := range slides {
		fmt.Fprintf(&b, `<draw:page draw:name="s%d" draw:master-page-name="Default">
 <draw:frame svg:x="2cm" svg:y="1.5cm" svg:width="24cm" svg:height="2.5cm"><draw:text-box><text:p text:style-name="T">%s</text:p></draw:text-box></draw:frame>
 <draw:frame svg:x="2cm" svg:y="5cm" svg:width="24cm" svg:height="9cm"><draw:text-box><text:p text:style-name="B">%s</text:p></draw:text-box></draw:frame>
</draw:page>
`, i+1, html.EscapeString(s[0]), html.EscapeString(s[1]))
	}
	b.WriteString("</office:presentation></office:body></office:document>\n")
	return b.String()
}

// contract is a document of explicit pages: a heading and three paragraphs
// per page, each page after the first starting with a page break.
func contract(pages int) []para {
	rng := rand.New(rand.NewSource(11))
	var ps []para
	for p := 1; p <= pages; p++ {
		st := "H"
		if p > 1 {
			st = "HB"
		}
		ps = append(ps, para{st, fmt.Sprintf("Article %d. %s", p, capitalize(words[p%len(words)]))})
		for k := 0; k < 3; k++ {
			ps = append(ps, para{"P", prose(rng, 6)})
		}
	}
	return ps
}

// report is long flowing prose with headings every few paragraphs and no
// explicit page breaks: it runs over several pages and reflows.
func report(paragraphs int) []para {
	rng := rand.New(rand.NewSource(23))
	var ps []para
	for i := 0; i < paragraphs; i++ {
		if i%5 == 0 {
			ps = append(ps, para{"H", fmt.Sprintf("%d. %s %s", i/5+1, capitalize(words[rng.Intn(len(words))]), words[rng.Intn(len(words))])})
		}
		ps = append(ps, para{"P", prose(rng, 4+rng.Intn(5))})
	}
	return ps
}

// withBreakAtTop inserts an empty paragraph and a page break before the
// first paragraph.
func withBreakAtTop(ps []para) []para {
	out := []para{{"P", ""}}
	first := ps[0]
	first.style += "B"
	out = append(out, first)
	return append(out, ps[1:]...)
}

// replaceWord replaces the first whole-word occurrence of old in paragraph
// i.
func replaceWord(t *testing.T, ps []para, i int, old, repl string) []para {
	t.Helper()
	out := append([]para(nil), ps...)
	text := " " + out[i].text + " "
	k := strings.Index(text, " "+old+" ")
	if k < 0 {
		t.Fatalf("word %q not in paragraph %d", old, i)
	}
	out[i].text = strings.TrimSpace(text[:k+1] + repl + text[k+1+len(old):])
	return out
}

// insertPara inserts a paragraph before paragraph i.
func insertPara(ps []para, i int, p para) []para {
	out := append([]para(nil), ps[:i]...)
	out = append(out, p)
	return append(out, ps[i:]...)
}

func deckSlides() [][2]string {
	rng := rand.New(rand.NewSource(5))
	var s [][2]string
	for i := 1; i <= 5; i++ {
		s = append(s, [2]string{fmt.Sprintf("Quarterly review %d", i), prose(rng, 2)})
	}
	return s
}

// e2eDocs are all the documents the end-to-end tests need, rendered in one
// soffice run.
func e2eDocs(t *testing.T) []e2eDoc {
	c := contract(4)
	// Paragraph 9 is on page 3 (a heading and three paragraphs per page).
	word := strings.Fields(c[9].text)[3]
	rep := report(40)
	slides := deckSlides()
	return []e2eDoc{
		{"contract", "fodt", fodt(c, false)},
		{"contract-break-top", "fodt", fodt(withBreakAtTop(c), false)},
		{"contract-one-word", "fodt", fodt(replaceWord(t, c, 9, word, "zebra"), false)},
		{"report", "fodt", fodt(rep, true)},
		{"report-break-top", "fodt", fodt(withBreakAtTop(rep), true)},
		{"report-insert", "fodt", fodt(insertPara(rep, 9, para{"P", prose(rand.New(rand.NewSource(99)), 5)}), true)},
		// A paragraph of another size and spacing: the content below moves
		// by a fraction of a pixel.
		{"report-insert-odd", "fodt", fodt(insertPara(rep, 9, para{"ODD", prose(rand.New(rand.NewSource(98)), 3)}), true)},
		// A rule (an empty paragraph with a bottom border): no text.
		{"report-rule", "fodt", fodt(insertPara(rep, 9, para{"RULE", ""}), true)},
		// A paragraph inserted on page 2 and a rule further down: a change
		// without text inside the reflowed pages.
		{"report-insert-rule", "fodt", fodt(insertPara(insertPara(rep, 30, para{"RULE", ""}), 9, para{"P", prose(rand.New(rand.NewSource(99)), 5)}), true)},
		{"deck", "fodp", fodp(slides)},
		{"deck-minus-2", "fodp", fodp(append(append([][2]string(nil), slides[:1]...), slides[2:]...))},
	}
}

// auditPages aligns and compares two rendered documents the way the audit
// does: bands from the original, signatures of both sides with them, the
// alignment, then Compare on every pair that is not the same.
func auditPages(before, after []*Raster) ([]Pair, map[[2]int]Diff, Bands) {
	bands := DetectBands(before)
	pairs := Align(sign(before), sign(after), bands)
	diffs := map[[2]int]Diff{}
	for _, p := range pairs {
		if p.Before > 0 && p.After > 0 && p.Label != LabelSame {
			diffs[[2]int{p.Before, p.After}] = Compare(before[p.Before-1], after[p.After-1], CompareOptions{Bands: bands})
		}
	}
	return pairs, diffs, bands
}

// summary condenses an audit: inserted and deleted page numbers, content
// changes as "b-a", margins-only changes as "b-a".
type summary struct {
	inserted, deleted, content, margins []string
}

func summarize(pairs []Pair, diffs map[[2]int]Diff) summary {
	var s summary
	for _, p := range pairs {
		switch {
		case p.Label == LabelInserted:
			s.inserted = append(s.inserted, fmt.Sprint(p.After))
		case p.Label == LabelDeleted:
			s.deleted = append(s.deleted, fmt.Sprint(p.Before))
		case p.Label == LabelChanged:
			d := diffs[[2]int{p.Before, p.After}]
			k := fmt.Sprintf("%d-%d", p.Before, p.After)
			switch {
			case d.Same:
			case d.MarginsOnly:
				s.margins = append(s.margins, k)
			default:
				s.content = append(s.content, k)
			}
		}
	}
	return s
}

func TestEndToEnd(t *testing.T) {
	needRenderer(t)
	all := renderDocs(t, e2eDocs(t))
	for _, rz := range e2eRasterizers {
		t.Run(rz, func(t *testing.T) { testEndToEnd(t, all[rz]) })
	}
}

func testEndToEnd(t *testing.T, docs map[string]rendered) {
	for name, r := range docs {
		t.Logf("%s: %d pages", name, len(r.pages))
	}
	check := func(t *testing.T, before, after string, want summary) ([]Pair, map[[2]int]Diff) {
		t.Helper()
		pairs, diffs, bands := auditPages(docs[before].pages, docs[after].pages)
		got := summarize(pairs, diffs)
		t.Logf("%s → %s (bands %+v): %s", before, after, bands, fmtPairs(pairs))
		eq := func(a, b []string) bool { return strings.Join(a, ",") == strings.Join(b, ",") }
		if !eq(got.inserted, want.inserted) || !eq(got.deleted, want.deleted) || !eq(got.content, want.content) {
			t.Errorf("inserted %v deleted %v content %v; want inserted %v deleted %v content %v",
				got.inserted, got.deleted, got.content, want.inserted, want.deleted, want.content)
		}
		if want.margins != nil && !eq(got.margins, want.margins) {
			t.Errorf("margins-only %v, want %v", got.margins, want.margins)
		}
		return pairs, diffs
	}
	t.Run("page break at the top", func(t *testing.T) {
		n := len(docs["contract"].pages)
		if n < 4 {
			t.Fatalf("contract has %d pages, want ≥ 4", n)
		}
		check(t, "contract", "contract-break-top", summary{inserted: []string{"1"}, margins: []string{}})
	})
	t.Run("one word changed", func(t *testing.T) {
		_, diffs := check(t, "contract", "contract-one-word", summary{content: []string{"3-3"}})
		d := diffs[[2]int{3, 3}]
		if len(d.Boxes) != 1 {
			t.Fatalf("boxes %v, want one box around the word", d.Boxes)
		}
		// The box covers the word and the rest of its line, which moves
		// when the word's width changes: one line high.
		if b := d.Boxes[0]; b[3]-b[1] > 30 {
			t.Errorf("box %v is higher than one line at 100 dpi", b)
		}
	})
	t.Run("running headers, page break at the top", func(t *testing.T) {
		n := len(docs["report"].pages)
		if n < 3 {
			t.Fatalf("report has %d pages, want ≥ 3", n)
		}
		var margins []string
		for i := 1; i <= n; i++ {
			margins = append(margins, fmt.Sprintf("%d-%d", i, i+1))
		}
		check(t, "report", "report-break-top", summary{inserted: []string{"1"}, margins: margins})
	})
	t.Run("reflow", func(t *testing.T) {
		testReflowE2E(t, docs)
	})
	t.Run("slide removed", func(t *testing.T) {
		check(t, "deck", "deck-minus-2", summary{deleted: []string{"2"}, margins: []string{}})
	})
}

// testReflowE2E checks DetectReflow on real renderings and measures the
// text-layer alternative next to it (logged; see reflow.go for the
// decision).
func testReflowE2E(t *testing.T, docs map[string]rendered) {
	before := docs["report"]
	bands := DetectBands(before.pages)
	bs := sign(before.pages)
	start := time.Now()
	bText := pdfTextPages(t, before.pdf)
	textTime := time.Since(start)
	for _, tc := range []struct {
		edited string
		reflow bool // the edit moves everything below it
		// second is the page of a second change inside the moved pages
		// (0: none): it ends the first run and starts another.
		second int
	}{
		{"report-insert", true, 0},
		{"report-insert-odd", true, 0},
		{"report-rule", true, 0},
		{"report-insert-rule", true, -1},
		{"report-break-top", false, 0}, // a new page, nothing reflows
	} {
		after := docs[tc.edited]
		as := sign(after.pages)
		pairs := Align(bs, as, bands)
		start := time.Now()
		got := DetectReflow(bs, as, pairs, bands)
		pixTime := time.Since(start)
		start = time.Now()
		aText := pdfTextPages(t, after.pdf)
		viaText := textReflow(bText, aText, pairs)
		tt := textTime + time.Since(start)
		// The change is on the first page that differs; everything after
		// it moves, to the last page.
		first := 0
		for _, p := range pairs {
			if p.Label != LabelSame && !p.MarginsOnly {
				first = p.After
				break
			}
		}
		var want []Reflow
		switch {
		case tc.second < 0:
			// The rule's page: the first page after the insertion whose
			// pixels hold a line the original does not have.
			second := ruleChangePage(bs, as, bands, first)
			if second <= first+1 || second >= len(after.pages) {
				t.Fatalf("%s: the rule is on page %d, want it inside the moved pages after %d", tc.edited, second, first)
			}
			want = []Reflow{{From: first, To: second - 1, Cause: first}, {From: second, To: len(after.pages), Cause: second}}
		case tc.reflow:
			want = []Reflow{{From: first, To: len(after.pages), Cause: first}}
		}
		// The content-anchored alignment with the text layer, as the audit
		// runs it (pdftotext -tsv in the signatures, bands confirmed).
		bt, at := withText(t, bs, before.pdf), withText(t, as, after.pdf)
		tb := ConfirmBands(bands, bt)
		tp := Align(bt, at, tb)
		tr := DetectReflow(bt, at, tp, tb)
		t.Logf("%s: pairs %s; pixel lines %v in %v; text layer (-layout) %v in %v; text alignment %s, reflow %s",
			tc.edited, fmtPairs(pairs), got, pixTime.Round(time.Microsecond), viaText, tt.Round(time.Millisecond), fmtPairsReflow(tp), fmtRuns(tr))
		if fmtRuns(got) != fmtRuns(want) {
			t.Errorf("%s: reflow %v, want %v", tc.edited, got, want)
		}
	}
}

// ruleChangePage returns the first page after page `after` (1-based) of the
// edited document holding a line that appears nowhere in the original.
func ruleChangePage(before, edited []PageSig, bands Bands, after int) int {
	seen := map[uint64]bool{}
	for _, s := range before {
		for _, l := range s.bandLines(bands) {
			seen[l] = true
		}
	}
	for p := after; p < len(edited); p++ {
		for _, l := range edited[p].bandLines(bands) {
			if !seen[l] {
				return p + 1
			}
		}
	}
	return 0
}

// withText returns a copy of sigs with the text layer of pdf (pdftotext
// -tsv at 100 dpi, as render reads it).
func withText(t *testing.T, sigs []PageSig, pdf string) []PageSig {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	out, err := runGroup(ctx, "pdftotext", "-tsv", "-enc", "UTF-8", pdf, "-")
	if err != nil {
		t.Fatalf("pdftotext -tsv %s: %v", pdf, err)
	}
	texts, err := ParseTSV(bytes.NewReader(out), 100)
	if err != nil || len(texts) != len(sigs) {
		t.Fatalf("text layer of %s: %d pages for %d (%v)", pdf, len(texts), len(sigs), err)
	}
	c := slices.Clone(sigs)
	for i := range c {
		c[i].Text = texts[i]
	}
	return c
}
