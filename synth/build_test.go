package synth_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/editaudit/editaudit/formats"
	"github.com/editaudit/editaudit/formats/inspect"
	"github.com/editaudit/editaudit/internal/testdoc"
	"github.com/editaudit/editaudit/synth"
	"github.com/editaudit/editaudit/synth/synthtest"
)

// artifactsDir makes a folder with a PNG and a JPEG and opens it.
func artifactsDir(t *testing.T) (string, *synth.Artifacts) {
	t.Helper()
	dir := t.TempDir()
	img := image.NewNRGBA(image.Rect(0, 0, 64, 40))
	for y := 0; y < 40; y++ {
		for x := 0; x < 64; x++ {
			img.SetNRGBA(x, y, color.NRGBA{uint8(x * 4), uint8(y * 6), 160, 255})
		}
	}
	var pb, jb bytes.Buffer
	if err := png.Encode(&pb, img); err != nil {
		t.Fatal(err)
	}
	if err := jpeg.Encode(&jb, img, &jpeg.Options{Quality: 80}); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "pic.png"), pb.Bytes(), 0o644)
	os.WriteFile(filepath.Join(dir, "photo.jpg"), jb.Bytes(), 0o644)
	art, err := synth.OpenArtifacts(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { art.Close() })
	return dir, art
}

var randomFormats = []string{"docx", "pptx", "xlsx", "hwpx"}

// randomSeeds is how many random specs of each format the tests draw.
const randomSeeds = 12

// TestRandomSpecs: random valid specs (fixed seeds) build — which includes
// the self-check: no fatal or error finding of editaudit's own inspector —
// give the same bytes twice, and survive a JSON round trip through Parse
// with the same bytes.
func TestRandomSpecs(t *testing.T) {
	_, art := artifactsDir(t)
	ctx := context.Background()
	opts := synth.BuildOptions{Options: synth.Options{Artifacts: art}}
	for _, f := range randomFormats {
		for seed := uint64(1); seed <= randomSeeds; seed++ {
			t.Run(fmt.Sprintf("%s-%d", f, seed), func(t *testing.T) {
				spec := synthtest.RandomSpec(seed, synthtest.RandomOptions{Format: f, Artifacts: []string{"pic.png", "photo.jpg"}})
				res, err := synth.Build(ctx, spec, opts)
				if err != nil {
					t.Fatalf("build: %v", err)
				}
				rep, err := inspect.Bytes(ctx, res.Data, "random."+f, inspect.Options{})
				if err != nil {
					t.Fatal(err)
				}
				for _, fd := range rep.Findings {
					if fd.Grade == formats.Fatal || fd.Grade == formats.Error {
						t.Errorf("check: %s", fd)
					}
				}
				again, err := synth.Build(ctx, spec, opts)
				if err != nil || !bytes.Equal(again.Data, res.Data) {
					t.Errorf("a second build differs (err %v)", err)
				}
				js, err := json.Marshal(spec)
				if err != nil {
					t.Fatal(err)
				}
				parsed, err := synth.Parse(bytes.NewReader(js), opts.Options)
				if err != nil {
					t.Fatalf("the spec's own JSON does not parse: %v", err)
				}
				third, err := synth.Build(ctx, parsed, opts)
				if err != nil || !bytes.Equal(third.Data, res.Data) {
					t.Errorf("after a JSON round trip the output differs (err %v)", err)
				}
			})
		}
	}
}

// TestSchema: the generated schema compiles in ajv (draft 2020-12, strict
// mode); every example validates against the fixtures schema, every random
// spec against the public one; specs the validator refuses for a cap, a
// wrong key or a fixture form are refused by the schema too.
func TestSchema(t *testing.T) {
	v := testdoc.Validators(t)
	dir := t.TempDir()
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	public := write("schema.json", synth.Schema())
	fixtures := write("schema-fixtures.json", synth.SchemaFor(synth.Options{Fixtures: true}))
	run := func(schema string, specs ...string) (string, error) {
		out, err := exec.Command("node", append([]string{filepath.Join(v, "synth-schema.mjs"), schema}, specs...)...).CombinedOutput()
		return string(out), err
	}
	if out, err := run(fixtures, synthtest.ExampleSpecs(t)...); err != nil {
		t.Errorf("examples against the fixtures schema: %v\n%s", err, out)
	}
	var specs []string
	for _, f := range randomFormats {
		for seed := uint64(1); seed <= randomSeeds; seed++ {
			js, err := json.Marshal(synthtest.RandomSpec(seed, synthtest.RandomOptions{Format: f, Artifacts: []string{"pic.png"}}))
			if err != nil {
				t.Fatal(err)
			}
			specs = append(specs, write(fmt.Sprintf("%s-%d.json", f, seed), js))
		}
	}
	cells := strings.TrimSuffix(strings.Repeat(`{"text":"x"},`, synth.MaxCells+1), ",")
	var invalid []string
	for name, bad := range map[string]string{
		"cells cap":     `{"format":"docx","docx":{"body":[{"table":{"rows":[{"cells":[` + cells + `]}]}}]}}`,
		"unknown key":   `{"format":"docx","docx":{"body":[{"paragraf":{"text":"a"}}]}}`,
		"two keys":      `{"format":"docx","docx":{"body":[{"paragraph":{"text":"a"},"pageBreak":true}]}}`,
		"builtin image": `{"format":"docx","docx":{"body":[{"image":{"src":"builtin:logo"}}]}}`,
		"url image":     `{"format":"docx","docx":{"body":[{"image":{"src":"https://x.example/a.png"}}]}}`,
		"raw formula":   `{"format":"xlsx","xlsx":{"sheets":[{"name":"S","rows":[[{"rawFormula":"1+1"}]]}]}}`,
		"two values":    `{"format":"xlsx","xlsx":{"sheets":[{"name":"S","rows":[[{"text":"a","number":1}]]}]}}`,
		"title cap":     `{"format":"docx","title":"` + strings.Repeat("t", synth.MaxTitleLen+1) + `","docx":{"body":[{"pageBreak":true}]}}`,
	} {
		if _, err := synth.Parse(strings.NewReader(bad), synth.Options{}); err == nil {
			t.Errorf("%s: the validator accepts it", name)
		}
		invalid = append(invalid, write(strings.ReplaceAll(name, " ", "-")+".json", []byte(bad)))
	}
	if out, err := run(public, append(append(specs, "--invalid"), invalid...)...); err != nil {
		t.Errorf("random specs against the public schema, and specs it must refuse: %v\n%s", err, out)
	}
}

// TestAllErrorsInOnePass: a wrong type does not hide a range error
// elsewhere, each error has its path, caps are stated, and errors beyond
// the listed ones are counted.
func TestAllErrorsInOnePass(t *testing.T) {
	spec := `{"format":"docx","docx":{"body":[
		{"heading":{"level":"one","text":"a"}},
		{"heading":{"level":9,"text":"b"}},
		{"table":{"rows":[{"cells":[` + strings.TrimSuffix(strings.Repeat(`{"text":"x"},`, synth.MaxCells+1), ",") + `]}]}},
		{"paragraph":{"text":"` + strings.Repeat("a", synth.MaxTextLen+1) + `"}},
		{"paragraf":{}}]}}`
	_, err := synth.Parse(strings.NewReader(spec), synth.Options{})
	var se *synth.SpecErrors
	if !errors.As(err, &se) {
		t.Fatalf("err = %v", err)
	}
	want := []struct {
		path string
		cap  int
	}{
		{"$.docx.body[0].heading.level", 0},
		{"$.docx.body[1].heading.level", 0},
		{"$.docx.body[2].table.rows[0].cells", synth.MaxCells},
		{"$.docx.body[3].paragraph.text", synth.MaxTextLen},
		{"$.docx.body[4].paragraf", 0},
	}
	got := map[string]int{}
	for _, e := range se.Errors {
		got[e.Path] = e.Cap
	}
	for _, w := range want {
		c, ok := got[w.path]
		if !ok {
			t.Errorf("no error at %s; got %v", w.path, err)
		} else if c != w.cap {
			t.Errorf("%s: cap %d, want %d", w.path, c, w.cap)
		}
	}
	if len(se.Errors) != len(want) {
		t.Errorf("%d errors, want %d: %v", len(se.Errors), len(want), err)
	}
	// Past MaxListedErrors the rest are counted.
	var bad []string
	for i := 0; i < synth.MaxListedErrors+17; i++ {
		bad = append(bad, `{"heading":{"level":0,"text":"h"}}`)
	}
	_, err = synth.Parse(strings.NewReader(`{"format":"docx","docx":{"body":[`+strings.Join(bad, ",")+`]}}`), synth.Options{})
	if !errors.As(err, &se) || len(se.Errors) != synth.MaxListedErrors || se.More != 17 {
		t.Fatalf("want %d listed and 17 more, got %v", synth.MaxListedErrors, err)
	}
	if se.Errors[0].Path != "$.docx.body[0].heading.level" || se.Errors[11].Path != "$.docx.body[11].heading.level" {
		t.Errorf("errors not in document order: %s, %s", se.Errors[0].Path, se.Errors[11].Path)
	}
}

// TestArtifacts: handles resolve to PNG and JPEG files of the folder, and
// nothing else does: traversal, absolute paths, symbolic links out of the
// folder, FIFOs, missing files, files that are not images, oversize files.
func TestArtifacts(t *testing.T) {
	dir, art := artifactsDir(t)
	outside := t.TempDir()
	png := filepath.Join(dir, "pic.png")
	data, _ := os.ReadFile(png)
	os.WriteFile(filepath.Join(outside, "secret.png"), data, 0o644)
	os.Symlink(filepath.Join(outside, "secret.png"), filepath.Join(dir, "escape.png"))
	os.Symlink("pic.png", filepath.Join(dir, "inside.png"))
	os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("hello"), 0o644)
	os.WriteFile(filepath.Join(dir, "big.png"), append(data, make([]byte, synth.MaxImageBytes)...), 0o644)
	if err := mkfifo(filepath.Join(dir, "pipe.png")); err != nil {
		t.Logf("no FIFO: %v", err)
	}
	os.Mkdir(filepath.Join(dir, "sub"), 0o755)
	os.WriteFile(filepath.Join(dir, "sub", "x.png"), data, 0o644)
	spec := func(src string) string {
		return `{"format":"docx","docx":{"body":[{"image":{"src":` + fmt.Sprintf("%q", src) + `}}]}}`
	}
	for _, ok := range []string{"artifact:pic.png", "artifact:photo.jpg", "artifact:inside.png"} {
		s, err := synth.Parse(strings.NewReader(spec(ok)), synth.Options{Artifacts: art})
		if err != nil {
			t.Errorf("%s: %v", ok, err)
			continue
		}
		if _, err := synth.Build(context.Background(), s, synth.BuildOptions{Options: synth.Options{Artifacts: art}}); err != nil {
			t.Errorf("%s: build: %v", ok, err)
		}
	}
	for src, want := range map[string]string{
		"artifact:../" + filepath.Base(outside) + "/secret.png": "file name in the artifacts folder",
		"artifact:sub/x.png":                 "file name in the artifacts folder",
		"artifact:escape.png":                "outside the artifacts folder",
		"artifact:pipe.png":                  "not a regular file",
		"artifact:missing.png":               "no such file",
		"artifact:notes.txt":                 "neither a PNG nor a JPEG",
		"artifact:big.png":                   "cap",
		"artifact:.hidden":                   "file name in the artifacts folder",
		filepath.Join(dir, "pic.png"):        "is a path",
		"file://" + png:                      "is a URL",
		"http://example.com/a.png":           "is a URL",
		"data:image/png;base64,iVBORw0KGgo=": "data: URI",
		"builtin:logo":                       "test fixtures",
	} {
		_, err := synth.Parse(strings.NewReader(spec(src)), synth.Options{Artifacts: art})
		if err == nil || !strings.Contains(err.Error(), "$.docx.body[0].image.src") || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: err = %v, want the path and %q", src, err, want)
		}
	}
	if _, err := synth.Parse(strings.NewReader(`{"format":"docx","docx":{"body":[{"image":{"data":"iVBORw0KGgo="}}]}}`), synth.Options{Artifacts: art}); err == nil || !strings.Contains(err.Error(), "$.docx.body[0].image.data") {
		t.Errorf("inline data accepted without fixtures: %v", err)
	}
}

// TestCapsFitTheChecker: a spec at the cell cap, all cells alike (the
// most compressible output), builds and passes the self-check — its
// document part would deflate 239:1, past the ratio editaudit's reader
// refuses, so the writer deflates it at the fastest level — and one cell
// more is a spec error with the cap.
func TestCapsFitTheChecker(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a 21 MB part")
	}
	table := func(rows int) synth.Block {
		tb := &synth.Table{}
		for i := 0; i < rows; i++ {
			tb.Rows = append(tb.Rows, synth.Row{Cells: []synth.Cell{{Text: "x", Bold: true, Shade: "D9E2F3"}}})
		}
		return synth.Block{Table: tb}
	}
	var body []synth.Block
	for i := 0; i < synth.MaxTotalCells/synth.MaxRows; i++ {
		body = append(body, table(synth.MaxRows))
	}
	spec := &synth.Spec{Format: "docx", Docx: &synth.DocxSpec{Body: body}}
	res, err := synth.Build(context.Background(), spec, synth.BuildOptions{})
	if err != nil {
		t.Fatalf("at the cap: %v", err)
	}
	t.Logf("%d cells: %d bytes", synth.MaxTotalCells, len(res.Data))
	spec.Docx.Body = append(spec.Docx.Body, table(1))
	_, err = synth.Build(context.Background(), spec, synth.BuildOptions{})
	var se *synth.SpecErrors
	if !errors.As(err, &se) || se.Errors[0].Cap != synth.MaxTotalCells {
		t.Errorf("one cell over the cap: %v", err)
	}
}
