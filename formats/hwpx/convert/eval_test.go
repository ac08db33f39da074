//go:build eval

// The fidelity evaluation of docs/rendering.md ("Hangul (.hwpx) pages"): it
// measures PDFs made by each candidate renderer against what every real
// HWPX file declares about its own layout.
//
//	EVAL_DIRS="odt=/tmp/ev/a,rhwp=/tmp/ev/c,hwpxjs=/tmp/ev/b" \
//	  go test -tags eval -run TestFidelity -v ./formats/hwpx/convert
//
// Each folder holds NAME.pdf for the corpus file NAME.hwpx.
package convert

import (
	"bytes"
	"context"
	"encoding/xml"
	"fmt"
	"image"
	imgcolor "image/color"
	_ "image/jpeg"
	_ "image/png"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/editaudit/editaudit/formats"
	"github.com/editaudit/editaudit/internal/testdoc"
)

// hancomPara is a top-level paragraph as Hancom laid it out: the page it
// starts on (counted from the lineseg positions) and its first baseline.
type hancomPara struct {
	key      string // its first characters, spaces removed
	page     int    // 1-based
	baseline float64
	trusted  bool // no page split by a tall table before it
}

func hancomLayout(t *testing.T, path string) ([]hancomPara, int, *formats.Package) {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() }) // the package reads from f later
	st, _ := f.Stat()
	p, err := formats.Open(context.Background(), f, st.Size(), path, formats.DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	c := &conv{ctx: context.Background(), p: p}
	sections, _ := c.readManifest()
	var out []hancomPara
	page := 0
	for _, part := range sections {
		sec, _, err := parsePart(context.Background(), p, part)
		if err != nil || sec.name != "sec" {
			continue
		}
		ps := readPage(firstSecPr(sec), &header{borderFills: map[int]*borderFill{}})
		bodyTop := float64(ps.top+ps.header) / 100
		bodyH := ps.height - ps.top - ps.header - ps.bottom - ps.footer
		page++
		last := -1
		trusted := true
		for _, para := range sec.kids {
			if para.name != "p" {
				continue
			}
			segs := para.child("linesegarray").children("lineseg")
			if len(segs) == 0 {
				trusted = false
				continue
			}
			vp := segs[0].int("vertpos", 0)
			if last >= 0 && (vp < last || para.attr("pageBreak") == "1") {
				page++
			}
			last = vp
			// The paragraph's text, without the text of its tables.
			var b strings.Builder
			for _, run := range para.children("run") {
				for _, tt := range run.children("t") {
					b.WriteString(textOf(tt))
				}
			}
			key := strings.Join(strings.Fields(b.String()), "")
			r := []rune(key)
			if len(r) >= 4 {
				out = append(out, hancomPara{key: string(r[:min(len(r), 8)]), page: page,
					baseline: bodyTop + float64(vp+segs[0].int("baseline", 850))/100, trusted: trusted})
			}
			for _, run := range para.children("run") {
				if tb := run.child("tbl"); tb != nil {
					if vp+tb.child("sz").int("height", 0) > bodyH {
						trusted = false
					}
				}
			}
		}
	}
	return out, page, p
}

// stext is a PDF's characters with their page and baseline (mutool).
type stextChar struct {
	r    rune
	page int
	y    float64
}

func pdfChars(t *testing.T, pdf string) ([]stextChar, int) {
	out, err := exec.Command("mutool", "draw", "-F", "stext", "-o", "-", pdf).Output()
	if err != nil {
		t.Logf("%s: mutool: %v", pdf, err)
		return nil, 0
	}
	dec := xml.NewDecoder(bytes.NewReader(out))
	var chars []stextChar
	page := 0
	for {
		tok, err := dec.Token()
		if err != nil {
			break
		}
		se, ok := tok.(xml.StartElement)
		if !ok {
			continue
		}
		switch se.Name.Local {
		case "page":
			page++
		case "char":
			var c string
			var y float64
			for _, a := range se.Attr {
				switch a.Name.Local {
				case "c":
					c = a.Value
				case "y":
					fmt.Sscanf(a.Value, "%g", &y)
				}
			}
			for _, r := range c {
				if r != ' ' && r != '\u3000' && r != '\u00a0' {
					chars = append(chars, stextChar{r: r, page: page, y: y})
				}
			}
		}
	}
	return chars, page
}

type paraScore struct {
	paras, found, trusted, samePage int
	dy                              []float64
}

func scoreParas(hp []hancomPara, chars []stextChar) paraScore {
	var s paraScore
	runes := make([]rune, len(chars))
	for i, c := range chars {
		runes[i] = c.r
	}
	text := string(runes)
	// byte offset → rune index
	idx := make([]int, 0, len(text)+1)
	for i := range text {
		idx = append(idx, i)
	}
	from := 0
	for _, p := range hp {
		s.paras++
		at := strings.Index(text[from:], p.key)
		if at < 0 {
			continue
		}
		at += from
		ri := sort.SearchInts(idx, at)
		s.found++
		from = at + len(p.key)
		if !p.trusted {
			continue
		}
		s.trusted++
		c := chars[ri]
		if c.page == p.page {
			s.samePage++
			d := c.y - p.baseline
			if d < 0 {
				d = -d
			}
			s.dy = append(s.dy, d)
		}
	}
	return s
}

func median(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	v = append([]float64(nil), v...)
	sort.Float64s(v)
	return v[len(v)/2]
}

func pct(v []float64, q float64) float64 {
	if len(v) == 0 {
		return 0
	}
	v = append([]float64(nil), v...)
	sort.Float64s(v)
	return v[min(len(v)-1, int(q*float64(len(v))))]
}

// previewScore compares page 1 of pdf with Hancom's own preview
// (Preview/PrvImage.*, page 1 drawn by Hangul at about 88 dpi): the F1 of
// ink pixels within tol pixels, and the F1 of rule pixels (horizontal and
// vertical runs of ink of 30 px or more: table borders and lines).
func previewScore(t *testing.T, p *formats.Package, pdf string) (ink, rules float64, ok bool) {
	var prv image.Image
	for _, n := range []string{"Preview/PrvImage.png", "Preview/PrvImage.jpg", "Preview/PrvImage.bmp"} {
		if data, err := p.ReadPart(n); err == nil {
			if img, _, err := image.Decode(bytes.NewReader(data)); err == nil {
				prv = img
				break
			}
		}
	}
	if prv == nil {
		return 0, 0, false
	}
	b := prv.Bounds()
	tmp := t.TempDir()
	cmd := exec.Command("pdftoppm", "-f", "1", "-l", "1", "-scale-to-x", fmt.Sprint(b.Dx()), "-scale-to-y", fmt.Sprint(b.Dy()), "-png", "-singlefile", pdf, filepath.Join(tmp, "p"))
	if err := cmd.Run(); err != nil {
		return 0, 0, false
	}
	data, err := os.ReadFile(filepath.Join(tmp, "p.png"))
	if err != nil {
		return 0, 0, false
	}
	ren, _, err := image.Decode(bytes.NewReader(data))
	if err != nil {
		return 0, 0, false
	}
	a, c := inkMask(prv), inkMask(ren)
	if len(a) != len(c) {
		return 0, 0, false
	}
	w, h := b.Dx(), b.Dy()
	ink = f1(a, c, w, h, 2)
	rules = f1(ruleMask(a, w, h), ruleMask(c, w, h), w, h, 2)
	return ink, rules, true
}

func inkMask(img image.Image) []bool {
	b := img.Bounds()
	m := make([]bool, b.Dx()*b.Dy())
	for y := 0; y < b.Dy(); y++ {
		for x := 0; x < b.Dx(); x++ {
			g := imgcolor.GrayModel.Convert(img.At(b.Min.X+x, b.Min.Y+y)).(imgcolor.Gray)
			m[y*b.Dx()+x] = g.Y < 160
		}
	}
	return m
}

func ruleMask(m []bool, w, h int) []bool {
	out := make([]bool, len(m))
	const minRun = 30
	for y := 0; y < h; y++ {
		for x := 0; x < w; {
			if !m[y*w+x] {
				x++
				continue
			}
			e := x
			for e < w && m[y*w+e] {
				e++
			}
			if e-x >= minRun {
				for i := x; i < e; i++ {
					out[y*w+i] = true
				}
			}
			x = e
		}
	}
	for x := 0; x < w; x++ {
		for y := 0; y < h; {
			if !m[y*w+x] {
				y++
				continue
			}
			e := y
			for e < h && m[e*w+x] {
				e++
			}
			if e-y >= minRun {
				for i := y; i < e; i++ {
					out[i*w+x] = true
				}
			}
			y = e
		}
	}
	return out
}

// f1 of mask b against reference a, a pixel counting as matched when the
// other mask has ink within tol pixels.
func f1(a, b []bool, w, h, tol int) float64 {
	near := func(m []bool, x, y int) bool {
		for dy := -tol; dy <= tol; dy++ {
			for dx := -tol; dx <= tol; dx++ {
				xx, yy := x+dx, y+dy
				if xx >= 0 && yy >= 0 && xx < w && yy < h && m[yy*w+xx] {
					return true
				}
			}
		}
		return false
	}
	var na, nb, ma, mb int
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			i := y*w + x
			if a[i] {
				na++
				if near(b, x, y) {
					ma++
				}
			}
			if b[i] {
				nb++
				if near(a, x, y) {
					mb++
				}
			}
		}
	}
	if na == 0 || nb == 0 {
		return 0
	}
	r, p := float64(ma)/float64(na), float64(mb)/float64(nb)
	if r+p == 0 {
		return 0
	}
	return 2 * r * p / (r + p)
}

func TestFidelity(t *testing.T) {
	dirs := os.Getenv("EVAL_DIRS")
	if dirs == "" {
		t.Skip("EVAL_DIRS not set")
	}
	testdoc.Tool(t, "mutool")
	testdoc.Tool(t, "pdftoppm")
	root := testdoc.Corpus(t)
	files, _ := filepath.Glob(filepath.Join(root, "hwpx", "*.hwpx"))
	type total struct {
		paraScore
		pages, hancom, previews int
		ink, rules              []float64
	}
	var names []string
	tot := map[string]*total{}
	for _, d := range strings.Split(dirs, ",") {
		name, _, _ := strings.Cut(d, "=")
		names = append(names, name)
		tot[name] = &total{}
	}
	for _, f := range files {
		base := strings.TrimSuffix(filepath.Base(f), ".hwpx")
		hp, hpages, pkg := hancomLayout(t, f)
		line := fmt.Sprintf("%-38s hancom≥%3d", base, hpages)
		for _, d := range strings.Split(dirs, ",") {
			name, dir, _ := strings.Cut(d, "=")
			pdf := filepath.Join(dir, base+".pdf")
			chars, pages := pdfChars(t, pdf)
			s := scoreParas(hp, chars)
			tt := tot[name]
			tt.paras += s.paras
			tt.found += s.found
			tt.trusted += s.trusted
			tt.samePage += s.samePage
			tt.dy = append(tt.dy, s.dy...)
			tt.pages += pages
			tt.hancom += hpages
			ink, rules, ok := previewScore(t, pkg, pdf)
			if ok {
				tt.previews++
				tt.ink = append(tt.ink, ink)
				tt.rules = append(tt.rules, rules)
			}
			line += fmt.Sprintf(" | %s p=%3d found=%3d/%3d same=%3d/%3d dy50=%5.1f ink=%.2f rules=%.2f", name, pages, s.found, s.paras, s.samePage, s.trusted, median(s.dy), ink, rules)
		}
		t.Log(line)
	}
	for _, n := range names {
		tt := tot[n]
		t.Logf("%-7s pages %d (Hancom ≥ %d) | paragraphs found %d/%d (%.1f%%) | on Hancom's page %d/%d (%.1f%%) | baseline error median %.1f pt, p90 %.1f pt | page 1 vs Hancom preview (%d files): ink F1 median %.2f, rule F1 median %.2f",
			n, tt.pages, tt.hancom, tt.found, tt.paras, 100*float64(tt.found)/float64(max(tt.paras, 1)), tt.samePage, tt.trusted, 100*float64(tt.samePage)/float64(max(tt.trusted, 1)),
			median(tt.dy), pct(tt.dy, 0.9), tt.previews, median(tt.ink), median(tt.rules))
	}
}
