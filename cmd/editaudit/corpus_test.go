package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/editaudit/editaudit/corpus"
	"github.com/editaudit/editaudit/corpus/results"
	"github.com/editaudit/editaudit/mutate"
	"github.com/editaudit/editaudit/synth"
)

// corpusFixture writes a docx original, three edits of it and a CSV
// manifest (ids 1–3, groups a and b) into dir.
func corpusFixture(t *testing.T, dir string) string {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "..", "examples", "specs", "contract.json"))
	if err != nil {
		t.Fatal(err)
	}
	spec, err := synth.ParseSpec(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	orig, err := synth.Synthesize(spec)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "orig.docx"), orig, 0o644); err != nil {
		t.Fatal(err)
	}
	var csv strings.Builder
	csv.WriteString("id,group,original,edited\n")
	for i, k := range []string{"xml.illegal-char", "docx.row-deleted", "docx.word-replaced"} {
		b, err := mutate.Mutate(k, orig)
		if err != nil {
			t.Fatal(err)
		}
		name := k + ".docx"
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
		group := "a"
		if i == 2 {
			group = "b"
		}
		csv.WriteString(strings.Join([]string{string(rune('1' + i)), group, "orig.docx", name}, ",") + "\n")
	}
	m := filepath.Join(dir, "pairs.csv")
	if err := os.WriteFile(m, []byte(csv.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return m
}

func TestCorpusCommands(t *testing.T) {
	dir := t.TempDir()
	manifest := corpusFixture(t, dir)
	store := filepath.Join(dir, "store")
	run := filepath.Join(dir, "run")

	code, out, errs := cliRun(t, "corpus", "run", "--render", "off", "--store", store, "--out", run, "--progress", "json", manifest)
	if code != exitOK {
		t.Fatalf("run: exit %d\n%s\n%s", code, out, errs)
	}
	if !strings.Contains(out, "blocked                1   33.3%") || !strings.Contains(out, "3 audited, 0 failed, 0 kept") {
		t.Errorf("run output:\n%s", out)
	}
	var last corpus.ProgressEvent
	lines := strings.Split(strings.TrimSpace(errs), "\n")
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &last); err != nil || last.Type != "done" || last.Done != 3 {
		t.Errorf("progress on stderr %q: %v", errs, err)
	}

	code, out, _ = cliRun(t, "corpus", "summary", "--format", "json", run)
	var s results.Summary
	if code != exitOK || json.Unmarshal([]byte(out), &s) != nil || s.Schema != results.SummarySchema || s.Overall.Pairs != 3 || len(s.Groups) != 2 {
		t.Errorf("summary json: exit %d\n%s", code, out)
	}
	if s.Overall.StructureLoss.Pairs != 1 {
		t.Errorf("structure loss %+v", s.Overall.StructureLoss)
	}
	code, out, _ = cliRun(t, "corpus", "summary", "--format", "html", run)
	if code != exitOK || !strings.HasPrefix(out, "<!DOCTYPE html>") {
		t.Errorf("summary html: exit %d", code)
	}
	code, out, _ = cliRun(t, "corpus", "summary", run)
	if code != exitOK || !strings.Contains(out, "group b") {
		t.Errorf("summary text: exit %d\n%s", code, out)
	}

	// Two shards merged; compare the merge with the whole run.
	shards := cliShards(t, dir, store, manifest)
	merged := filepath.Join(dir, "merged")
	code, out, errs = cliRun(t, append([]string{"corpus", "merge", "--out", merged}, shards...)...)
	if code != exitOK || !strings.Contains(out, "3 pairs from 2 run folders") {
		t.Fatalf("merge: exit %d\n%s\n%s", code, out, errs)
	}
	code, out, _ = cliRun(t, "corpus", "compare", run, merged)
	if code != exitOK || !strings.Contains(out, "pairs: 3 in both") || !strings.Contains(out, "unchanged 3") {
		t.Errorf("compare: exit %d\n%s", code, out)
	}
	code, out, _ = cliRun(t, "corpus", "compare", "--format", "json", run, merged)
	var c results.Comparison
	if code != exitOK || json.Unmarshal([]byte(out), &c) != nil || c.Matched != 3 || c.Unchanged != 3 {
		t.Errorf("compare json: exit %d\n%s", code, out)
	}

	// Two folders paired by relative path, with unpaired files reported.
	od, ed := filepath.Join(dir, "o"), filepath.Join(dir, "e")
	for _, d := range []string{od, ed} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	copyTo := func(src, dst string) {
		b, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(dst, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	copyTo(filepath.Join(dir, "orig.docx"), filepath.Join(od, "c.docx"))
	copyTo(filepath.Join(dir, "docx.row-deleted.docx"), filepath.Join(ed, "c.docx"))
	copyTo(filepath.Join(dir, "orig.docx"), filepath.Join(od, "lonely.docx"))
	dirRun := filepath.Join(dir, "dirrun")
	code, out, errs = cliRun(t, "corpus", "run", "--render", "off", "--store", store, "--out", dirRun, "--progress", "none", "--originals", od, "--edited", ed)
	if code != exitOK || !strings.Contains(errs, "1 file only in") || !strings.Contains(out, "1 only in the originals") {
		t.Errorf("folders: exit %d\n%s\n%s", code, out, errs)
	}

	for _, tc := range []struct {
		name string
		args []string
		code int
	}{
		{"no manifest", []string{"corpus", "run"}, exitUsage},
		{"bad shard", []string{"corpus", "run", "--shard", "4/3", manifest}, exitUsage},
		{"bad render", []string{"corpus", "run", "--render", "maybe", manifest}, exitUsage},
		{"bad progress", []string{"corpus", "run", "--progress", "loud", manifest}, exitUsage},
		{"manifest and folders", []string{"corpus", "run", "--originals", od, "--edited", ed, manifest}, exitUsage},
		{"bad manifest", []string{"corpus", "run", "--render", "off", "--out", filepath.Join(dir, "x"), filepath.Join(dir, "orig.docx")}, exitUsage},
		{"missing manifest", []string{"corpus", "run", filepath.Join(dir, "nope.csv")}, exitUsage},
		{"summary of a non-run", []string{"corpus", "summary", dir}, exitUsage},
		{"summary bad format", []string{"corpus", "summary", "--format", "xml", run}, exitUsage},
		{"merge into a run", []string{"corpus", "merge", "--out", merged, run}, exitUsage}, // a bad --out, like every bad path
		{"merge without --out", []string{"corpus", "merge", run}, exitUsage},
		{"compare one run", []string{"corpus", "compare", run}, exitUsage},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if code, out, errs := cliRun(t, tc.args...); code != tc.code {
				t.Errorf("exit %d, want %d\n%s\n%s", code, tc.code, out, errs)
			}
		})
	}
}

// cliShards runs manifest as shards 1/2 and 2/2 (render off) into
// dir/shard-1 and dir/shard-2 and returns the two folders.
func cliShards(t *testing.T, dir, store, manifest string) []string {
	t.Helper()
	var shards []string
	for _, k := range []string{"1/2", "2/2"} {
		d := filepath.Join(dir, "shard-"+k[:1])
		if code, out, errs := cliRun(t, "corpus", "run", "--render", "off", "--store", store, "--out", d, "--progress", "none", "--shard", k, manifest); code != exitOK {
			t.Fatalf("shard %s: exit %d\n%s\n%s", k, code, out, errs)
		}
		shards = append(shards, d)
	}
	return shards
}
