package render

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/editaudit/editaudit/pixeldiff"
)

// testPage is one page of a generated PDF: its MediaBox size, /Rotate and a
// black rectangle (x, y, w, h in points).
type testPage struct {
	w, h   float64
	rotate int
	rect   [4]float64
}

// writeTestPDF writes a PDF 1.4 file with a correct cross-reference table
// (ISO 32000-1, §7.5.4), one content stream per page.
func writeTestPDF(t testing.TB, path string, pages []testPage) string {
	t.Helper()
	var objs []string
	kids := ""
	for i := range pages {
		kids += fmt.Sprintf("%d 0 R ", 3+2*i)
	}
	objs = append(objs, "<< /Type /Catalog /Pages 2 0 R >>",
		fmt.Sprintf("<< /Type /Pages /Kids [%s] /Count %d >>", kids, len(pages)))
	for i, p := range pages {
		content := fmt.Sprintf("0 0 0 rg %g %g %g %g re f", p.rect[0], p.rect[1], p.rect[2], p.rect[3])
		objs = append(objs,
			fmt.Sprintf("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 %g %g] /Rotate %d /Contents %d 0 R >>", p.w, p.h, p.rotate, 4+2*i),
			fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", len(content), content))
	}
	var b bytes.Buffer
	b.WriteString("%PDF-1.4\n")
	offs := make([]int, len(objs))
	for i, o := range objs {
		offs[i] = b.Len()
		fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\n", i+1, o)
	}
	xref := b.Len()
	fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f \n", len(objs)+1)
	for _, o := range offs {
		fmt.Fprintf(&b, "%010d 00000 n \n", o)
	}
	fmt.Fprintf(&b, "trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n", len(objs)+1, xref)
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestParsePdfinfo(t *testing.T) {
	tests := []struct {
		name, out string
		want      []pageSize
		wantErr   bool
	}{
		{"two pages, one rotated", "Pages:           2\nPage    1 size:  595.304 x 841.89 pts (A4)\nPage    1 rot:   0\nPage    2 size:  720 x 540 pts\nPage    2 rot:   270\n",
			[]pageSize{{595.304, 841.89}, {540, 720}}, false},
		{"no pages", "Pages:           0\n", []pageSize{}, false},
		{"missing size", "Pages:           2\nPage    1 size:  10 x 20 pts\n", nil, true},
		{"no page count", "Syntax Error: broken\n", nil, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := parsePdfinfo([]byte(tc.out))
			if (err != nil) != tc.wantErr {
				t.Fatalf("err = %v", err)
			}
			if !tc.wantErr && fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
}

func TestParseMutoolPages(t *testing.T) {
	out := `x.pdf:
<page pagenum="1">
<MediaBox l="0" b="0" r="595.30398" t="841.8898" />
</page>
<page pagenum="2">
<MediaBox l="0" b="0" r="800" t="600" />
<CropBox l="10" b="20" r="710" t="520" />
<Rotate v="90" />
</page>
`
	got, err := parseMutoolPages([]byte(out), 1)
	want := []pageSize{{595.30398, 841.8898}, {500, 700}}
	if err != nil || fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("got %v, %v; want %v", got, err, want)
	}
	if _, err := parseMutoolPages([]byte(`<page pagenum="1">`+"\nFailed to gather information for page 1\n</page>"), 1); err == nil {
		t.Errorf("a page without a box parsed")
	}
	// A range: the pages listed must be the ones asked for. mutool clamps
	// "7-9" of a 5-page PDF to page 5 instead of refusing it.
	box := `<MediaBox l="0" b="0" r="100" t="200" />`
	if got, err := parseMutoolPages([]byte(`<page pagenum="3">`+box+`</page><page pagenum="4">`+box+`</page>`), 3); err != nil || len(got) != 2 {
		t.Errorf("pages 3-4: %v, %v", got, err)
	}
	if _, err := parseMutoolPages([]byte(`<page pagenum="5">`+box+`</page>`), 7); err == nil {
		t.Errorf("page 5 listed for a range from 7 parsed")
	}
}

func TestRasterizers(t *testing.T) {
	requireTools(t, "pdftoppm", "pdfinfo", "mutool")
	dir := t.TempDir()
	pdf := writeTestPDF(t, filepath.Join(dir, "t.pdf"), []testPage{
		{w: 595, h: 842, rect: [4]float64{100, 100, 200, 300}},
		{w: 720, h: 540, rect: [4]float64{0, 0, 360, 540}},
		{w: 300, h: 200, rotate: 90, rect: [4]float64{0, 0, 150, 200}},
	})
	type page struct {
		r    *pixeldiff.Raster
		w, h float64
	}
	ctx := context.Background()
	got := map[string][]page{}
	for _, rz := range []Rasterizer{NewPdftoppm(), NewMutool()} {
		if v := rz.Version(ctx); v == "" {
			t.Errorf("%s: no version", rz.Name())
		}
		err := rz.Rasterize(ctx, pdf, 72, func(n int, r *pixeldiff.Raster, w, h float64) error {
			if n != len(got[rz.Name()])+1 {
				return fmt.Errorf("page %d out of order", n)
			}
			got[rz.Name()] = append(got[rz.Name()], page{r, w, h})
			return nil
		})
		if err != nil {
			t.Fatalf("%s: %v", rz.Name(), err)
		}
	}
	a, b := got["pdftoppm"], got["mutool"]
	if len(a) != 3 || len(b) != 3 {
		t.Fatalf("pages: pdftoppm %d, mutool %d, want 3", len(a), len(b))
	}
	wantSize := [][2]float64{{595, 842}, {720, 540}, {200, 300}}
	for i := range a {
		if a[i].w != wantSize[i][0] || a[i].h != wantSize[i][1] || b[i].w != a[i].w || b[i].h != a[i].h {
			t.Errorf("page %d size: pdftoppm %gx%g, mutool %gx%g, want %v", i+1, a[i].w, a[i].h, b[i].w, b[i].h, wantSize[i])
		}
		if a[i].r.W != b[i].r.W || a[i].r.H != b[i].r.H {
			t.Errorf("page %d raster: pdftoppm %dx%d, mutool %dx%d", i+1, a[i].r.W, a[i].r.H, b[i].r.W, b[i].r.H)
			continue
		}
		differ := 0
		for k := range a[i].r.Pix {
			if d := int(a[i].r.Pix[k]) - int(b[i].r.Pix[k]); d > 64 || d < -64 {
				differ++
			}
		}
		if differ > len(a[i].r.Pix)/100 {
			t.Errorf("page %d: %d of %d samples differ by more than 64", i+1, differ, len(a[i].r.Pix))
		}
	}
	// Page 2 is half black (left), half white.
	p2 := a[1].r
	if p2.Pix[3*(270*p2.W+100)] != 0 || p2.Pix[3*(270*p2.W+600)] != 0xff {
		t.Errorf("page 2 not half black: %d %d", p2.Pix[3*(270*p2.W+100)], p2.Pix[3*(270*p2.W+600)])
	}
}

// TestRasterizeRange: both rasterizers draw a range of pages as the same
// pages (numbers, sizes, pixels) as a full pass, agree with each other, and
// refuse a range beyond the last page; RasterizePages draws a scattered,
// repeated list once per page in ascending order.
func TestRasterizeRange(t *testing.T) {
	requireTools(t, "pdftoppm", "pdfinfo", "mutool")
	var pages []testPage
	for i := range 5 {
		pages = append(pages, testPage{w: 300 + 20*float64(i), h: 400, rect: [4]float64{10 + 30*float64(i), 20, 40, 60 + 40*float64(i)}})
	}
	pdf := writeTestPDF(t, filepath.Join(t.TempDir(), "five.pdf"), pages)
	ctx := context.Background()
	type page struct {
		n    int
		r    *pixeldiff.Raster
		w, h float64
	}
	collect := func(dst *[]page) func(int, *pixeldiff.Raster, float64, float64) error {
		return func(n int, r *pixeldiff.Raster, w, h float64) error {
			*dst = append(*dst, page{n, r, w, h})
			return nil
		}
	}
	ranged := map[string][]page{}
	for _, rz := range []RangeRasterizer{&Pdftoppm{}, &Mutool{}} {
		var full, part, picked []page
		if err := rz.Rasterize(ctx, pdf, 72, collect(&full)); err != nil || len(full) != 5 {
			t.Fatalf("%s: full pass: %v, %d pages", rz.Name(), err, len(full))
		}
		if err := rz.RasterizeRange(ctx, pdf, 72, 2, 4, collect(&part)); err != nil {
			t.Fatalf("%s: range 2-4: %v", rz.Name(), err)
		}
		if len(part) != 3 {
			t.Fatalf("%s: range 2-4 gave %d pages", rz.Name(), len(part))
		}
		for i, p := range part {
			f := full[p.n-1]
			if p.n != 2+i || p.w != f.w || p.h != f.h || !bytes.Equal(p.r.Pix, f.r.Pix) {
				t.Errorf("%s: range page %d (%gx%g pt) differs from the full pass's page %d (%gx%g pt)", rz.Name(), p.n, p.w, p.h, f.n, f.w, f.h)
			}
		}
		ranged[rz.Name()] = part
		if err := RasterizePages(ctx, rz, pdf, 72, []int{5, 2, 3, 2}, collect(&picked)); err != nil {
			t.Fatalf("%s: RasterizePages: %v", rz.Name(), err)
		}
		var nums []int
		for _, p := range picked {
			nums = append(nums, p.n)
			if !bytes.Equal(p.r.Pix, full[p.n-1].r.Pix) {
				t.Errorf("%s: RasterizePages page %d differs from the full pass", rz.Name(), p.n)
			}
		}
		if fmt.Sprint(nums) != "[2 3 5]" {
			t.Errorf("%s: RasterizePages drew pages %v, want [2 3 5]", rz.Name(), nums)
		}
		// With the sizes known (as signed), the same pages, sizes and
		// pixels, without the size program.
		var sizes [][2]float64
		for _, f := range full {
			sizes = append(sizes, [2]float64{f.w, f.h})
		}
		var known []page
		if err := RasterizeKnownPages(ctx, rz, pdf, 72, []int{5, 2, 3, 2}, sizes, collect(&known)); err != nil {
			t.Fatalf("%s: RasterizeKnownPages: %v", rz.Name(), err)
		}
		if len(known) != 3 {
			t.Errorf("%s: RasterizeKnownPages drew %d pages, want 3", rz.Name(), len(known))
		}
		for _, p := range known {
			f := full[p.n-1]
			if p.w != f.w || p.h != f.h || !bytes.Equal(p.r.Pix, f.r.Pix) {
				t.Errorf("%s: RasterizeKnownPages page %d differs from the full pass", rz.Name(), p.n)
			}
		}
		if err := RasterizeKnownPages(ctx, rz, pdf, 72, []int{6}, sizes, collect(new([]page))); err == nil {
			t.Errorf("%s: RasterizeKnownPages of page 6 of 5 accepted", rz.Name())
		}
		if sr, ok := rz.(SplitRasterizer); ok {
			// Drawn in two halves at once: the same pages, in order.
			var split []page
			if err := sr.RasterizeSplit(ctx, pdf, 72, collect(&split)); err != nil || len(split) != 5 {
				t.Fatalf("%s: split pass: %v, %d pages", rz.Name(), err, len(split))
			}
			for i, p := range split {
				f := full[i]
				if p.n != i+1 || p.w != f.w || p.h != f.h || !bytes.Equal(p.r.Pix, f.r.Pix) {
					t.Errorf("%s: split pass page %d (as %d) differs from the full pass's", rz.Name(), i+1, p.n)
				}
			}
			// The callback's error stops both halves and is returned.
			stop := errors.New("enough")
			calls := 0
			err := sr.RasterizeSplit(ctx, pdf, 72, func(int, *pixeldiff.Raster, float64, float64) error { calls++; return stop })
			if err != stop || calls != 1 {
				t.Errorf("%s: split pass with a failing callback: %v after %d calls", rz.Name(), err, calls)
			}
		}
		var re *RenderError
		if err := rz.RasterizeRange(ctx, pdf, 72, 4, 7, collect(new([]page))); !errors.As(err, &re) || re.Reason != ReasonRasterize {
			t.Errorf("%s: range 4-7 of 5 pages: %v, want a rasterize error", rz.Name(), err)
		}
		if err := rz.RasterizeRange(ctx, pdf, 72, 0, 2, collect(new([]page))); err == nil {
			t.Errorf("%s: range 0-2 accepted", rz.Name())
		}
	}
	a, b := ranged["pdftoppm"], ranged["mutool"]
	for i := range a {
		if a[i].n != b[i].n || a[i].w != b[i].w || a[i].h != b[i].h || a[i].r.W != b[i].r.W || a[i].r.H != b[i].r.H {
			t.Errorf("range page %d: pdftoppm %d %gx%g pt %dx%d px, mutool %d %gx%g pt %dx%d px", i, a[i].n, a[i].w, a[i].h, a[i].r.W, a[i].r.H, b[i].n, b[i].w, b[i].h, b[i].r.W, b[i].r.H)
			continue
		}
		if d := pixeldiff.Compare(a[i].r, b[i].r, pixeldiff.CompareOptions{}); !d.Same {
			t.Errorf("range page %d: pdftoppm and mutool draw different pages (ratio %.4f, boxes %v)", a[i].n, d.Ratio, d.Boxes)
		}
	}
}

// TestRasterizeFaults: 0 pages, a page over the size limit, a corrupt PDF,
// a failing callback, a cancelled context, a missing program.
func TestRasterizeFaults(t *testing.T) {
	requireTools(t, "pdftoppm", "pdfinfo", "mutool")
	dir := t.TempDir()
	ctx := context.Background()
	normal := writeTestPDF(t, filepath.Join(dir, "n.pdf"), []testPage{{w: 200, h: 200}, {w: 200, h: 200}})
	huge := writeTestPDF(t, filepath.Join(dir, "huge.pdf"), []testPage{{w: 20000, h: 100}})
	corrupt := filepath.Join(dir, "corrupt.pdf")
	if err := os.WriteFile(corrupt, []byte("%PDF-1.4\nthis is not a pdf"), 0o644); err != nil {
		t.Fatal(err)
	}
	stop := errors.New("stop")
	for _, rz := range []Rasterizer{NewPdftoppm(), NewMutool()} {
		t.Run(rz.Name(), func(t *testing.T) {
			none := func(int, *pixeldiff.Raster, float64, float64) error { return nil }
			n := 0
			if err := rz.Rasterize(ctx, "testdata/zero-pages.pdf", 72, func(int, *pixeldiff.Raster, float64, float64) error { n++; return nil }); err != nil || n != 0 {
				t.Errorf("0-page PDF: %v, %d pages", err, n)
			}
			var re *RenderError
			if err := rz.Rasterize(ctx, huge, 100, none); !errors.As(err, &re) || re.Reason != ReasonTooLarge {
				t.Errorf("huge page: %v", err)
			}
			if err := rz.Rasterize(ctx, corrupt, 72, none); !errors.As(err, &re) || re.Reason != ReasonRasterize {
				t.Errorf("corrupt PDF: %v", err)
			}
			calls := 0
			if err := rz.Rasterize(ctx, normal, 72, func(int, *pixeldiff.Raster, float64, float64) error { calls++; return stop }); err != stop || calls != 1 {
				t.Errorf("callback error: %v after %d calls", err, calls)
			}
			cctx, cancel := context.WithCancel(ctx)
			cancel()
			if err := rz.Rasterize(cctx, normal, 72, none); !errors.Is(err, context.Canceled) {
				t.Errorf("cancelled: %v", err)
			}
		})
	}
	missingTool := []Rasterizer{&Pdftoppm{InfoBin: "/nonexistent/pdfinfo"}, &Pdftoppm{Bin: "/nonexistent/pdftoppm"}, &Mutool{Bin: "/nonexistent/mutool"}}
	for _, rz := range missingTool {
		if err := rz.Rasterize(ctx, normal, 72, func(int, *pixeldiff.Raster, float64, float64) error { return nil }); !errors.Is(err, ErrNoRenderer) {
			t.Errorf("%+v: %v, want ErrNoRenderer", rz, err)
		}
	}
}

// TestDefaultRasterizer: pdftoppm when poppler is installed, mutool when
// only it is, pdftoppm (failing with ErrNoRenderer) when neither is.
func TestDefaultRasterizer(t *testing.T) {
	requireTools(t, "pdftoppm", "pdfinfo", "mutool")
	if n := DefaultRasterizer().Name(); n != "pdftoppm" {
		t.Errorf("with poppler and mutool installed: %s", n)
	}
	onlyMutool := t.TempDir()
	mutool, _ := exec.LookPath("mutool")
	if err := os.Symlink(mutool, filepath.Join(onlyMutool, "mutool")); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", onlyMutool)
	if n := DefaultRasterizer().Name(); n != "mutool" {
		t.Errorf("with only mutool: %s", n)
	}
	t.Setenv("PATH", t.TempDir())
	rz := DefaultRasterizer()
	if rz.Name() != "pdftoppm" {
		t.Errorf("with neither: %s", rz.Name())
	}
	if err := rz.Rasterize(context.Background(), "x.pdf", 72, func(int, *pixeldiff.Raster, float64, float64) error { return nil }); !errors.Is(err, ErrNoRenderer) {
		t.Errorf("with neither: %v, want ErrNoRenderer", err)
	}
}
