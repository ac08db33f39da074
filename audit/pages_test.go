package audit_test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/editaudit/editaudit/audit"
	"github.com/editaudit/editaudit/baseline"
	"github.com/editaudit/editaudit/render"
)

// TestPagesDrawnOnce: a one-word edit of the contract, audited against a
// stored snapshot with the changed page shown. Every page of the edited
// file is drawn once, for its signature (the changed page is kept for
// comparing and showing; a lone audit draws the two halves of the file at
// once), the original's changed page once (for comparing and showing,
// without asking pdfinfo its size again), and pdfinfo runs once, where the
// audit used to run pdftoppm and pdfinfo three times each. With the page
// cache, the next audit of an edit of the same original draws none of the
// original's pages.
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
		script := "#!/bin/sh\necho " + name + " \"$@\" >>" + log + "\nexec " + real + " \"$@\"\n"
		if err := os.WriteFile(p, []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
		return p
	}
	counting := &render.Renderer{Converter: r.Converter, Raster: &render.Pdftoppm{Bin: wrap("pdftoppm"), InfoBin: wrap("pdfinfo")}}
	orig := synthDoc(t, "contract.json")
	edited := mutateDoc(t, "docx.word-replaced", orig)
	o, e := write(t, dir, "o.docx", orig), write(t, dir, "e.docx", edited)
	storeDir := filepath.Join(dir, "store")
	st, err := baseline.OpenStore(storeDir)
	if err != nil {
		t.Fatal(err)
	}
	opts := audit.Options{Render: audit.RenderOn, Renderer: counting, Store: st, Show: 3}
	if _, err := audit.Files(context.Background(), o, e, opts); err != nil { // stores the original
		t.Fatal(err)
	}
	// drawn reads the log: pages drawn from the original's stored PDF and
	// from the edited file's, each page at most once, and pdfinfo's runs.
	drawn := func(editedPages int) (origPages, editedDrawn, infos int) {
		b, _ := os.ReadFile(log)
		os.Remove(log)
		seen := map[string]bool{}
		for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
			f := strings.Fields(line)
			if len(f) == 0 {
				continue
			}
			if f[0] == "pdfinfo" {
				infos++
				continue
			}
			pdf := f[len(f)-1]
			first, last := 1, editedPages
			for i := 1; i+1 < len(f); i++ {
				switch f[i] {
				case "-f":
					first, _ = strconv.Atoi(f[i+1])
				case "-l":
					last, _ = strconv.Atoi(f[i+1])
				}
			}
			for p := first; p <= last; p++ {
				key := pdf + "#" + strconv.Itoa(p)
				if seen[key] {
					t.Errorf("page %d of %s drawn twice", p, pdf)
				}
				seen[key] = true
				if strings.HasPrefix(pdf, storeDir) {
					origPages++
				} else {
					editedDrawn++
				}
			}
		}
		return
	}
	os.Remove(log)
	res, err := audit.Files(context.Background(), o, e, opts)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Pages.Changed) != 1 || len(res.Pages.Shown) != 1 {
		t.Fatalf("pages %+v: want one changed page, shown", res.Pages)
	}
	if op, ep, infos := drawn(res.Pages.After); op != 1 || ep != res.Pages.After || infos != 1 {
		t.Errorf("drew %d pages of the original, %d of the edited file's %d, ran pdfinfo %d times; want 1, all once, 1", op, ep, res.Pages.After, infos)
	}

	// With a page cache (what render.New gives every Renderer) the
	// original's changed page is drawn by the first audit that compares it
	// and taken from the cache by the next, with the same pages, boxes and
	// images as without the cache.
	counting.Pages = render.NewPageCache(render.DefaultPageCacheBytes)
	for round := 1; round <= 2; round++ {
		cached, err := audit.Files(context.Background(), o, e, opts)
		if err != nil {
			t.Fatal(err)
		}
		if op, ep, _ := drawn(cached.Pages.After); op != 2-round || ep != cached.Pages.After {
			t.Errorf("round %d with the page cache: drew %d pages of the original and %d of the edited file's %d, want %d and all", round, op, ep, cached.Pages.After, 2-round)
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
