package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/editaudit/editaudit/corpus/results"
	"github.com/editaudit/editaudit/formats"
	"github.com/editaudit/editaudit/internal/testdoc"
	"github.com/editaudit/editaudit/reports"
	"github.com/editaudit/editaudit/synth"
	"github.com/editaudit/editaudit/synth/synthtest"
)

// writeRunDir writes a run folder whose results.jsonl holds n pairs of
// group g, the first blocked of them blocked.
func writeRunDir(t *testing.T, dir string, n, blockedN int) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	var lines []byte
	for i := range n {
		r := &results.Record{ID: string(rune('a' + i)), Group: "g", Render: "off", ToolchainKey: "norender", Engine: "e"}
		r.Original.SHA256, r.Edited.SHA256 = "o", "e"
		if i < blockedN {
			r.Blocked = true
			r.NewFindings = []formats.Finding{{Code: "xml.illegal-char", Grade: formats.Fatal, Part: "word/document.xml", Line: 1, Column: 2, Message: "bad"}}
		}
		b, err := r.MarshalLine()
		if err != nil {
			t.Fatal(err)
		}
		lines = append(lines, b...)
	}
	if err := os.WriteFile(filepath.Join(dir, results.ResultsFile), lines, 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestCorpusCompareGates(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	writeRunDir(t, a, 10, 1) // 10% blocked
	writeRunDir(t, b, 10, 2) // 20% blocked

	code, out, errs := cliRun(t, "corpus", "compare", "--fail-on", "blocked_rate>+0.5pp,structure_loss>+1pp", a, b)
	if code != exitBlocked {
		t.Fatalf("exit %d, want 1\n%s\n%s", code, out, errs)
	}
	if !strings.Contains(errs, "editaudit: gate blocked_rate>+0.5pp tripped: blocked_rate 10.0% → 20.0% (+10 pp), limit > +0.5 pp") ||
		strings.Contains(errs, "structure_loss>+1pp tripped") || !strings.Contains(errs, "1 of 2 gate results tripped") {
		t.Errorf("stderr:\n%s", errs)
	}
	if !strings.Contains(out, "TRIPPED blocked_rate>+0.5pp") || !strings.Contains(out, "ok      structure_loss>+1pp") {
		t.Errorf("stdout:\n%s", out)
	}
	// Per group, JSON: the gates are in the comparison.
	code, out, _ = cliRun(t, "corpus", "compare", "--format", "json", "--fail-on", "blocked_rate[*]>+20pp", a, b)
	var c results.Comparison
	if code != exitOK || json.Unmarshal([]byte(out), &c) != nil || len(c.Gates) != 1 || c.Gates[0].Group != "g" || c.Gates[0].Tripped {
		t.Errorf("json gates: exit %d\n%s", code, out)
	}
	// Better is not worse: the reverse comparison passes the same gate.
	if code, out, errs := cliRun(t, "corpus", "compare", "--fail-on", "blocked_rate>+0.5pp", b, a); code != exitOK {
		t.Errorf("reverse: exit %d\n%s\n%s", code, out, errs)
	}
	// A gate that names no metric is a usage error, before any run is read.
	if code, _, errs := cliRun(t, "corpus", "compare", "--fail-on", "blockd>1", a, b); code != exitUsage || !strings.Contains(errs, `no metric "blockd"`) {
		t.Errorf("bad gate: exit %d\n%s", code, errs)
	}
}

func TestCorpusSummaryJUnit(t *testing.T) {
	dir := t.TempDir()
	run := filepath.Join(dir, "run")
	writeRunDir(t, run, 3, 1)
	junit := filepath.Join(dir, "out", "junit.xml")
	if err := os.MkdirAll(filepath.Dir(junit), 0o755); err != nil {
		t.Fatal(err)
	}
	code, out, errs := cliRun(t, "corpus", "summary", "--junit", junit, run)
	if code != exitOK || !strings.Contains(out, "blocked") {
		t.Fatalf("exit %d\n%s\n%s", code, out, errs)
	}
	b, err := os.ReadFile(junit)
	if err != nil {
		t.Fatal(err)
	}
	x := string(b)
	if !strings.Contains(x, `<testsuites name="editaudit corpus run" tests="3" failures="1" errors="0"`) || strings.Count(x, "<testcase ") != 3 ||
		!strings.Contains(x, `<failure type="blocked" message="blocked: 1 new fatal finding (xml.illegal-char)">`) {
		t.Errorf("junit:\n%s", x)
	}
}

// TestCheckModelEveryPage: check --format model of a new 50-page report
// attaches every page up to --show 20 (not the first three), within the
// byte budget, and says what the cap left out; a budget below 64 KiB is a
// usage error. LibreOffice renders for real.
func TestCheckModelEveryPage(t *testing.T) {
	testdoc.Tool(t, "soffice")
	if testing.Short() {
		t.Skip("renders 50 pages")
	}
	dir := t.TempDir()
	doc := filepath.Join(dir, "report.docx")
	b, err := synth.Synthesize(synthtest.FiftyPages())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(doc, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, errs := cliRun(t, "check", "--format", "model", "--model-bytes", "1000", doc); code != exitUsage || !strings.Contains(errs, "--model-bytes 1000: at least 65536") {
		t.Errorf("tiny budget: exit %d %s", code, errs)
	}
	code, out, errs := cliRun(t, "check", "--format", "model", "--render", "on", doc)
	if code != exitOK {
		t.Fatalf("exit %d\n%s", code, errs)
	}
	var m struct {
		Content []struct{ Type, Text string } `json:"content"`
	}
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatal(err)
	}
	images := 0
	for _, c := range m.Content {
		if c.Type == "image" {
			images++
		}
	}
	last := m.Content[len(m.Content)-1].Text
	if images != 20 || len(out) > reports.DefaultModelBytes || !strings.Contains(m.Content[0].Text, "Pages: 1–20 of 50 attached below") ||
		!strings.Contains(last, "the page cap (20) left out the last 30 pages") {
		t.Errorf("%d images, %d bytes\nfirst: %s\nlast: %s", images, len(out), m.Content[0].Text, last)
	}
}
