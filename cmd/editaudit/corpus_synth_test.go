package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/editaudit/editaudit/mutate"
)

// runCorpus runs `editaudit corpus ARGS…` through Run, as main does.
func runCorpus(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	return cliRun(t, append([]string{"corpus"}, args...)...)
}

func TestCorpusSynthAndMutate(t *testing.T) {
	dir := t.TempDir()
	spec := filepath.Join("..", "..", "examples", "specs", "contract.json")
	out := filepath.Join(dir, "contract.docx")
	if code, _, errs := runCorpus(t, "synth", "--fixtures", "--render", "off", spec, out); code != exitOK {
		t.Fatalf("synth: exit %d: %s", code, errs)
	}
	first, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	// Deterministic through the CLI as well, and no temp file left behind.
	if code, _, errs := runCorpus(t, "synth", "--fixtures", "--render", "off", spec, out); code != exitOK {
		t.Fatalf("synth again: exit %d: %s", code, errs)
	}
	second, _ := os.ReadFile(out)
	if !bytes.Equal(first, second) {
		t.Error("two syntheses differ")
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Errorf("%d entries in the output folder, want 1", len(ents))
	}

	wiped := filepath.Join(dir, "wiped.docx")
	code, stdout, errs := runCorpus(t, "mutate", "--json", "docx.nested-tables-wiped", out, wiped)
	if code != exitOK {
		t.Fatalf("mutate: exit %d: %s", code, errs)
	}
	var mj mutateJSON
	if err := json.Unmarshal([]byte(stdout), &mj); err != nil {
		t.Fatalf("mutate --json: %v\n%s", err, stdout)
	}
	if mj.Expect.Blocked || strings.Join(mj.Expect.Shrinks, ",") != "tables,nested_tables,rows,cells,paragraphs" || mj.SHA256 == "" {
		t.Errorf("unexpected mutate output %+v", mj)
	}
	after, _ := os.ReadFile(out)
	if !bytes.Equal(after, first) {
		t.Error("mutate changed its input")
	}
	if _, err := os.Stat(wiped); err != nil {
		t.Error(err)
	}

	// An invalid spec is exit 1 naming the path (synth's own tests say
	// more); usage errors: wrong arity, unknown kind, inapplicable kind,
	// OUT = IN.
	bad := filepath.Join(dir, "bad.json")
	os.WriteFile(bad, []byte(`{"format":"docx","docx":{"body":[{"paragraf":{}}]}}`), 0o644)
	if code, stdout, errs := runCorpus(t, "synth", bad, filepath.Join(dir, "x.docx")); code != exitBlocked || !strings.Contains(stdout, "$.docx.body[0].paragraf") {
		t.Errorf("bad spec: exit %d, want %d naming the path: %s%s", code, exitBlocked, stdout, errs)
	}
	for _, args := range [][]string{
		{"synth", spec},
		{"mutate", "no.such", out, filepath.Join(dir, "y.docx")},
		{"mutate", "pptx.slide-deleted", out, filepath.Join(dir, "y.docx")},
		{"mutate", "zip.repacked", out, out},
		{"mutate", "--list", "extra"},
	} {
		code, _, errs := runCorpus(t, args...)
		if code != exitUsage {
			t.Errorf("%v: exit %d, want %d (%s)", args, code, exitUsage, errs)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "y.docx")); err == nil {
		t.Error("a failed mutate wrote OUT")
	}
}

func TestCorpusMutateList(t *testing.T) {
	code, stdout, errs := runCorpus(t, "mutate", "--list")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	ms := mutate.Mutations()
	if len(lines) != len(ms) {
		t.Fatalf("%d lines for %d kinds", len(lines), len(ms))
	}
	for i, m := range ms {
		if !strings.HasPrefix(lines[i], m.Kind+" ") || !strings.HasSuffix(lines[i], m.Expect.String()) {
			t.Errorf("line %q does not list %s with %q", lines[i], m.Kind, m.Expect)
		}
	}
	code, stdout, _ = runCorpus(t, "mutate", "--list", "--json")
	var list []mutate.Mutation
	if code != exitOK || json.Unmarshal([]byte(stdout), &list) != nil || len(list) != len(ms) {
		t.Errorf("--list --json: exit %d, %d kinds", code, len(list))
	}
}
