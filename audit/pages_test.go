package audit_test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/editaudit/editaudit/audit"
	"github.com/editaudit/editaudit/baseline"
	"github.com/editaudit/editaudit/pixeldiff/render"
)

// TestPagesDrawnOnce: a one-word edit of the contract, audited against a
// stored snapshot with the changed page shown. The rasterizer runs once for
// the edited file's signatures (whose changed page is kept for comparing
// and showing) and once for the original's changed page (drawn once for
// comparing and showing, without asking pdfinfo its size again): two
// pdftoppm runs and one pdfinfo run, where the audit used to run pdftoppm
// and pdfinfo three times each.
func TestPagesDrawnOnce(t *testing.T) {
	r := needRenderer(t)
	for _, tool := range []string{"pdftoppm", "pdfinfo"} {
		requireTools(t, tool)
	}
	dir := t.TempDir()
	log := filepath.Join(dir, "runs.log")
	wrap := func(name string) string {
		real, err := exec.LookPath(name)
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, name)
		script := "#!/bin/sh\necho " + name + " >>" + log + "\nexec " + real + " \"$@\"\n"
		if err := os.WriteFile(p, []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
		return p
	}
	counting := &render.Renderer{Converter: r.Converter, Raster: &render.Pdftoppm{Bin: wrap("pdftoppm"), InfoBin: wrap("pdfinfo")}}
	orig := synthDoc(t, "contract.json")
	edited := mutateDoc(t, "docx.word-replaced", orig)
	o, e := write(t, dir, "o.docx", orig), write(t, dir, "e.docx", edited)
	st, err := baseline.OpenStore(filepath.Join(dir, "store"))
	if err != nil {
		t.Fatal(err)
	}
	opts := audit.Options{Render: audit.RenderOn, Renderer: counting, Store: st, Show: 3}
	if _, err := audit.Files(context.Background(), o, e, opts); err != nil { // stores the original
		t.Fatal(err)
	}
	os.Remove(log)
	res, err := audit.Files(context.Background(), o, e, opts)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Pages.Changed) != 1 || len(res.Pages.Shown) != 1 {
		t.Fatalf("pages %+v: want one changed page, shown", res.Pages)
	}
	b, _ := os.ReadFile(log)
	runs := strings.Fields(string(b))
	count := map[string]int{}
	for _, r := range runs {
		count[r]++
	}
	if count["pdftoppm"] != 2 || count["pdfinfo"] != 1 {
		t.Errorf("rasterizer runs %v, want pdftoppm twice (the edited file, the original's changed page) and pdfinfo once", count)
	}

	// With a page cache (what render.New gives every Renderer) the
	// original's changed page is drawn by the first audit that compares it
	// and taken from the cache by the next: one pdftoppm run (the edited
	// file), and the same pages, boxes and images as without the cache.
	counting.Pages = render.NewPageCache(render.DefaultPageCacheBytes)
	for round := 1; round <= 2; round++ {
		os.Remove(log)
		cached, err := audit.Files(context.Background(), o, e, opts)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := os.ReadFile(log)
		if want, got := 3-round, strings.Count(string(b), "pdftoppm"); got != want {
			t.Errorf("round %d with the page cache: pdftoppm ran %d times, want %d", round, got, want)
		}
		if !reflect.DeepEqual(cached.Pages.Changed, res.Pages.Changed) || len(cached.Pages.Shown) != 1 ||
			!bytes.Equal(cached.Pages.Shown[0].JPEG, res.Pages.Shown[0].JPEG) {
			t.Errorf("round %d with the page cache: pages %+v, want %+v and the same image", round, cached.Pages.Changed, res.Pages.Changed)
		}
	}
	if st := counting.Pages.Stats(); st.Hits != 1 || st.Pages != 1 {
		t.Errorf("page cache %+v, want the original's changed page kept and found once", st)
	}
}
