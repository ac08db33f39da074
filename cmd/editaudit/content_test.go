package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/editaudit/editaudit/internal/testdoc"
)

// The case as a user meets it: slide 1's title of the 187-slide
// deck changed from "line" to "blue".
func deckEdit(t *testing.T) (orig, edited string) {
	t.Helper()
	orig = testdoc.CorpusFile(t, "pptx/docx4j_AutoShapes-187slides.pptx")
	a, err := os.ReadFile(orig)
	if err != nil {
		t.Fatal(err)
	}
	edited = filepath.Join(t.TempDir(), "deck-edited.pptx")
	b := testdoc.Edit(t, a, map[string]func(string) string{
		"ppt/slides/slide1.xml": testdoc.Replacer(t, "<a:t>line</a:t>", "<a:t>blue</a:t>"),
	})
	if err := os.WriteFile(edited, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return orig, edited
}

// --content on (the default) and off, in the text and the JSON; a bad
// value is a usage error; corpus run carries it into every line.
func TestCLIContent(t *testing.T) {
	orig, edited := deckEdit(t)
	store := t.TempDir()
	code, out, errs := cliRun(t, "audit", "--render", "off", "--store", store, orig, edited)
	if code != exitOK || !strings.Contains(out, "\nContent changed: 1 text edit; 1 of 187 paragraphs of the original touched (0.5%).") ||
		!strings.Contains(out, "\n- text changed in slide 1, shape 'Title 3': [-line-]{+blue+}\n") {
		t.Errorf("text: %d\n%s%s", code, out, errs)
	}
	code, out, _ = cliRun(t, "audit", "--render", "off", "--store", store, "--format", "json", orig, edited)
	var res struct {
		Content struct {
			Status  string `json:"status"`
			Changes []struct {
				Kind, Part, Where, Before, After string
			} `json:"changes"`
			Truncated int `json:"truncated"`
		} `json:"content"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil || code != exitOK {
		t.Fatalf("json: %d %v", code, err)
	}
	if c := res.Content; c.Status != "ok" || len(c.Changes) != 1 || c.Changes[0].Kind != "text" || c.Changes[0].Where != "slide 1, shape 'Title 3'" ||
		c.Changes[0].Part != "ppt/slides/slide1.xml" || c.Changes[0].Before != "line" || c.Changes[0].After != "blue" {
		t.Errorf("json content %+v", c)
	}
	code, out, _ = cliRun(t, "audit", "--render", "off", "--store", store, "--content", "off", "--format", "json", orig, edited)
	if code != exitOK || !strings.Contains(out, `"status": "off"`) || strings.Contains(out, "Title 3") {
		t.Errorf("--content off: %d\n%s", code, out)
	}
	if code, _, errs := cliRun(t, "audit", "--content", "maybe", orig, edited); code != exitUsage || !strings.Contains(errs, `--content "maybe": use on or off`) {
		t.Errorf("--content maybe: %d %s", code, errs)
	}
	// HTML: the redline; SARIF: a note.
	code, out, _ = cliRun(t, "audit", "--render", "off", "--store", store, "--format", "html", orig, edited)
	if code != exitOK || !strings.Contains(out, `<del>line</del><ins>blue</ins>`) {
		t.Errorf("html: %d", code)
	}
	code, out, _ = cliRun(t, "audit", "--render", "off", "--store", store, "--format", "sarif", orig, edited)
	if code != exitOK || !strings.Contains(out, `"ruleId": "content.text"`) || !strings.Contains(out, `"text": "Content: 1 text change. Where: slide 1, shape 'Title 3'."`) {
		t.Errorf("sarif: %d", code)
	}

	// corpus run --content off: every line says off, and the summary too.
	dir := t.TempDir()
	manifest := filepath.Join(dir, "pairs.csv")
	if err := os.WriteFile(manifest, []byte("id,original,edited\nslide,"+orig+","+edited+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	run := filepath.Join(dir, "run")
	for _, mode := range []string{"off", "on"} {
		if code, out, errs := cliRun(t, "corpus", "run", "--render", "off", "--content", mode, "--store", store, "--out", run, "--progress", "none", manifest); code != exitOK {
			t.Fatalf("corpus run --content %s: %d %s %s", mode, code, out, errs)
		}
		line, err := os.ReadFile(filepath.Join(run, "results.jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		want := `"content":{"status":"off"`
		if mode == "on" {
			want = `"content":{"status":"ok","changes":[{"kind":"text","part":"ppt/slides/slide1.xml","where":"slide 1, shape 'Title 3'"`
		}
		if !strings.Contains(string(line), want) || !strings.Contains(string(line), `"content_mode":"`+mode+`"`) {
			t.Errorf("--content %s: %s", mode, line)
		}
	}
	code, out, _ = cliRun(t, "corpus", "summary", run)
	if code != exitOK || !strings.Contains(out, "content: 1 pair compared\n") || !strings.Contains(out, "changed              1  100.0% of compared pairs") {
		t.Errorf("summary: %d\n%s", code, out)
	}
	if code, _, _ := cliRun(t, "corpus", "run", "--content", "maybe", manifest); code != exitUsage {
		t.Errorf("corpus run --content maybe: %d", code)
	}
}

// Rendered, the deck's pages do not change (the title is tiny); the audit
// says what did.
func TestCLISlideTitleRendered(t *testing.T) {
	if testing.Short() {
		t.Skip("renders 374 slides with LibreOffice (skipped in -short)")
	}
	testdoc.Tool(t, "soffice")
	orig, edited := deckEdit(t)
	code, out, errs := cliRun(t, "audit", "--render", "on", "--store", t.TempDir(), orig, edited)
	if code != exitOK {
		t.Fatalf("%d %s", code, errs)
	}
	for _, want := range []string{
		"\n- text changed in slide 1, shape 'Title 3': [-line-]{+blue+}\n",
		"\nPages: 187 before, 187 after; none changed on the rendered pages, although the content did (above).",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("lacks %q:\n%s", want, out)
		}
	}
}
