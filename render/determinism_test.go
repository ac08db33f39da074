package render

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"html"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/editaudit/editaudit/internal/testdoc"
	"github.com/editaudit/editaudit/pixeldiff"
)

// trackedDocx is a Word document with tracked insertions and deletions by
// the given authors, in that order, two paragraphs per author, and a
// DATE and a TIME field whose stored results are fixed strings.
func trackedDocx(authors ...string) map[string]string {
	var body strings.Builder
	for i, a := range authors {
		a = html.EscapeString(a)
		fmt.Fprintf(&body, `<w:p><w:r><w:t xml:space="preserve">Clause %d kept, </w:t></w:r>`+
			`<w:ins w:id="%d" w:author="%s" w:date="2024-01-0%dT10:00:00Z"><w:r><w:t xml:space="preserve">inserted by %s, </w:t></w:r></w:ins>`+
			`<w:del w:id="%d" w:author="%s" w:date="2024-01-0%dT10:00:00Z"><w:r><w:delText xml:space="preserve">deleted by %s.</w:delText></w:r></w:del></w:p>`,
			i+1, 2*i+1, a, i%9+1, a, 2*i+2, a, i%9+1, a)
		fmt.Fprintf(&body, `<w:p><w:pPr><w:rPr><w:ins w:id="%d" w:author="%s" w:date="2024-01-0%dT10:00:00Z"/></w:rPr></w:pPr>`+
			`<w:ins w:id="%d" w:author="%s" w:date="2024-01-0%dT10:00:00Z"><w:r><w:t>A whole paragraph %s added.</w:t></w:r></w:ins></w:p>`,
			100+2*i, a, i%9+1, 101+2*i, a, i%9+1, a)
	}
	body.WriteString(`<w:p><w:r><w:t xml:space="preserve">Dated </w:t></w:r><w:r><w:fldChar w:fldCharType="begin"/></w:r>` +
		`<w:r><w:instrText xml:space="preserve"> DA</w:instrText></w:r><w:r><w:instrText xml:space="preserve">TE \@ "d MMMM yyyy" </w:instrText></w:r>` +
		`<w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>2 March 2021</w:t></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r>` +
		`<w:r><w:t xml:space="preserve"> at </w:t></w:r><w:fldSimple w:instr=" TIME \@ &quot;HH:mm:ss&quot; "><w:r><w:t>09:15:00</w:t></w:r></w:fldSimple>` +
		`<w:r><w:t xml:space="preserve">, page </w:t></w:r><w:fldSimple w:instr=" PAGE "><w:r><w:t>7</w:t></w:r></w:fldSimple></w:p>`)
	parts := docxParts()
	parts["word/document.xml"] = strings.Replace(parts["word/document.xml"], "<w:body>", "<w:body>"+body.String(), 1)
	return parts
}

// renderHash converts doc through p and hashes every page's pixels as
// pdftoppm draws them at 100 dpi.
func renderHash(t *testing.T, p *Pool, doc string) (string, error) {
	t.Helper()
	pdf, err := p.ConvertPDF(context.Background(), doc)
	if err != nil {
		return "", err
	}
	defer os.Remove(pdf)
	h := sha256.New()
	err = NewPdftoppm().Rasterize(context.Background(), pdf, 100, func(page int, r *pixeldiff.Raster, _, _ float64) error {
		fmt.Fprintf(h, "%d %dx%d\n", page, r.W, r.H)
		h.Write(r.Pix)
		return nil
	})
	return hex.EncodeToString(h.Sum(nil)), err
}

// convertBatch converts docs as one LibreOffice run, in this order: the
// pool has one worker and a batch window far longer than the gap between
// the requests, which are made one after another. It returns each
// document's page hash.
func convertBatch(t *testing.T, p *Pool, docs []string) []string {
	t.Helper()
	runs := p.Stats().Runs
	out := make([]string, len(docs))
	errs := make([]error, len(docs))
	var wg sync.WaitGroup
	for i, d := range docs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out[i], errs[i] = renderHash(t, p, d)
		}()
		time.Sleep(60 * time.Millisecond) // queue order = docs order
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("%s: %v", filepath.Base(docs[i]), err)
		}
	}
	if got := p.Stats().Runs - runs; got != 1 {
		t.Fatalf("%d LibreOffice runs for one batch of %d", got, len(docs))
	}
	return out
}

// The same document renders to the same pixels whatever it is batched
// with. LibreOffice colours tracked changes by the order in which one
// soffice process meets their authors (SwModule's author list), so without
// fixed revision colours a document rendered after another one with other
// authors changes colour; DATE and TIME fields show the current date and
// time unless locked to their stored result. 20 renders of a generated
// document with three authors (and of a real corpus document with tracked
// changes when the corpus is at hand), alone and in batches of different
// composition and order, give one raster hash each.
func TestRenderDeterministicAcrossBatches(t *testing.T) {
	if testing.Short() {
		t.Skip("renders with LibreOffice (skipped in -short)")
	}
	requireSoffice(t)
	dir := t.TempDir()
	target := writeZip(t, filepath.Join(dir, "target.docx"), trackedDocx("Alice Author", "Bob Builder", "Carol Checker"), false)
	fillers := []string{
		writeZip(t, filepath.Join(dir, "f1.docx"), trackedDocx("Zed Zimmer", "Carol Checker"), false),
		writeZip(t, filepath.Join(dir, "f2.docx"), trackedDocx("Carol Checker", "Bob Builder", "Alice Author", "Yan Yu"), false),
		writeZip(t, filepath.Join(dir, "f3.docx"), trackedDocx("Xavier", "Will", "Vera", "Uma", "Tom"), false),
		writeZip(t, filepath.Join(dir, "f4.docx"), docxParts([]string{"no tracked changes"}), false),
	}
	targets := []string{target}
	if dir := os.Getenv("EDITAUDIT_CORPUS"); dir != "" {
		// Real tracked changes: insertions and deletions by one author,
		// 16 pages.
		targets = append(targets, testdoc.CorpusFile(t, "docx/poi_stress023.docx"))
	}
	p := newTestPool(t, PoolOptions{Workers: 1, BatchWindow: 2 * time.Second, MaxBatch: 16})
	// 20 compositions: alone, and after/among fillers in varying order.
	var compositions [][]string
	compositions = append(compositions, nil)
	for i := 0; len(compositions) < 20; i++ {
		var c []string
		for k := 0; k <= i%len(fillers); k++ {
			c = append(c, fillers[(i+k)%len(fillers)])
		}
		compositions = append(compositions, c)
	}
	hashes := make([]map[string]int, len(targets))
	for i := range hashes {
		hashes[i] = map[string]int{}
	}
	for i, fill := range compositions {
		// Targets before, between or after the fillers.
		var batch []string
		at := i % (len(fill) + 1)
		batch = append(batch, fill[:at]...)
		batch = append(batch, targets...)
		batch = append(batch, fill[at:]...)
		got := convertBatch(t, p, batch)
		for k := range targets {
			hashes[k][got[at+k]]++
		}
	}
	for k, tg := range targets {
		if len(hashes[k]) != 1 {
			t.Errorf("%s: %d different rasters over %d renders: %v", filepath.Base(tg), len(hashes[k]), len(compositions), hashes[k])
		}
	}
}

// Date fields of slides and volatile formulas of sheets render the value
// the file holds, not today's date or a new random number.
func TestRenderStoredDates(t *testing.T) {
	if testing.Short() {
		t.Skip("renders with LibreOffice (skipped in -short)")
	}
	requireSoffice(t)
	dir := t.TempDir()
	pp := pptxParts("Title")
	pp["ppt/slides/slide1.xml"] = strings.Replace(pp["ppt/slides/slide1.xml"], `<a:t>Title</a:t></a:r>`,
		`<a:t>Dated </a:t></a:r><a:fld id="{B6F15528-21DE-4FAA-801E-634DDDAF4B2B}" type="datetime1"><a:rPr lang="en-US" sz="4000"/><a:t>1/2/2003</a:t></a:fld>`, 1)
	xp := xlsxParts([][]string{{"x"}})
	xp["xl/worksheets/sheet1.xml"] = strings.Replace(xp["xl/worksheets/sheet1.xml"], `<sheetData>`,
		`<sheetData><row r="2"><c r="A2"><f>RAND()</f><v>0.123</v></c><c r="B2"><f>TODAY()</f><v>40000</v></c></row>`, 1)
	p := newTestPool(t, PoolOptions{Workers: 1})
	for name, parts := range map[string]map[string]string{"d.pptx": pp, "r.xlsx": xp} {
		doc := writeZip(t, filepath.Join(dir, name), parts, false)
		pdf, err := p.ConvertPDF(context.Background(), doc)
		if err != nil {
			t.Fatal(err)
		}
		out, err := exec.Command("pdftotext", pdf, "-").Output()
		os.Remove(pdf)
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]string{"d.pptx": "Dated 1/2/2003", "r.xlsx": "0.123"}[name]
		if !strings.Contains(string(out), want) {
			t.Errorf("%s: %q lacks %q", name, out, want)
		}
	}
}
