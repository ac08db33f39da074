package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/editaudit/editaudit/synth"
	"github.com/editaudit/editaudit/synth/synthtest"
)

// synthCLI runs `editaudit synth ARGS…` through Run.
func synthCLI(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = Run(context.Background(), append([]string{"editaudit", "synth"}, args...), &out, &errb)
	return code, out.String(), errb.String()
}

func exampleSpecPath(name string) string {
	return filepath.Join("..", "..", "examples", "specs", name+".json")
}

// TestSynthJSONResult: editaudit.synth/v1 as DESIGN.md states it, for a
// written document (pages null when not rendered) and for a spec error
// (exit 1, every error with its path, caps, the count beyond the list,
// nothing written).
func TestSynthJSONResult(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "contract.docx")
	code, stdout, stderr := synthCLI(t, "--fixtures", "--render", "off", "--format", "json", exampleSpecPath("contract"), out)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var ok map[string]any
	if err := json.Unmarshal([]byte(stdout), &ok); err != nil {
		t.Fatalf("%v: %s", err, stdout)
	}
	data, _ := os.ReadFile(out)
	sum := sha256.Sum256(data)
	for k, want := range map[string]any{"schema": "editaudit.synth/v1", "status": "ok", "path": out, "sha256": hex.EncodeToString(sum[:]), "format": "docx", "pages": nil} {
		if got, has := ok[k]; !has || got != want {
			t.Errorf("%s = %v (present %v), want %v", k, got, has, want)
		}
	}

	bad := filepath.Join(dir, "bad.json")
	var blocks []string
	for i := 0; i < synth.MaxListedErrors+3; i++ {
		blocks = append(blocks, `{"heading":{"level":7,"text":"h"}}`)
	}
	blocks = append(blocks, `{"table":{"rows":[{"cells":[`+strings.TrimSuffix(strings.Repeat(`{"text":"x"},`, synth.MaxCells+1), ",")+`]}]}}`)
	os.WriteFile(bad, []byte(`{"format":"docx","docx":{"body":[{"heading":{"level":"one"}},`+strings.Join(blocks, ",")+`]}}`), 0o644)
	badOut := filepath.Join(dir, "bad.docx")
	code, stdout, _ = synthCLI(t, "--format", "json", bad, badOut)
	if code != exitBlocked {
		t.Fatalf("bad spec: exit %d, want %d", code, exitBlocked)
	}
	var fail struct {
		Schema, Status string
		Errors         []struct {
			Path, Message string
			Cap           int
		}
		More *int
	}
	if err := json.Unmarshal([]byte(stdout), &fail); err != nil {
		t.Fatalf("%v: %s", err, stdout)
	}
	if fail.Schema != "editaudit.synth/v1" || fail.Status != "error" || len(fail.Errors) != synth.MaxListedErrors || fail.More == nil || *fail.More != 5 {
		t.Errorf("error result: %s", stdout)
	}
	if fail.Errors[0].Path != "$.docx.body[0].heading.level" || !strings.Contains(fail.Errors[0].Message, "integer") {
		t.Errorf("first error %+v", fail.Errors[0])
	}
	if _, err := os.Stat(badOut); err == nil {
		t.Error("a spec error wrote OUT")
	}
	// The text form states the count and what was cut.
	code, stdout, _ = synthCLI(t, bad, badOut)
	if code != exitBlocked || !strings.Contains(stdout, fmt.Sprintf("%d problems", synth.MaxListedErrors+5)) || !strings.Contains(stdout, "and 5 more") {
		t.Errorf("text: exit %d\n%s", code, stdout)
	}
	// Caps travel in the JSON.
	code, stdout, _ = synthCLI(t, "--format", "json", exampleSpecPath("contract"), badOut)
	if code != exitBlocked || !strings.Contains(stdout, `"path":"$.docx.header[0].table.rows[0].cells[0].blocks[0].image.src"`) || !strings.Contains(stdout, "test fixtures") {
		t.Errorf("builtin images without --fixtures: exit %d %s", code, stdout)
	}
	tooBig := filepath.Join(dir, "big.json")
	os.WriteFile(tooBig, []byte(`{"format":"docx","docx":{"body":[{"table":{"rows":[{"cells":[`+strings.TrimSuffix(strings.Repeat(`{"text":"x"},`, synth.MaxCells+1), ",")+`]}]}}]}}`), 0o644)
	_, stdout, _ = synthCLI(t, "--format", "json", tooBig, badOut)
	if !strings.Contains(stdout, fmt.Sprintf(`"cap":%d`, synth.MaxCells)) {
		t.Errorf("no cap in %s", stdout)
	}
}

// TestSynthUsage: wrong arguments are exit 2 and write nothing.
func TestSynthUsage(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "x.docx")
	for _, args := range [][]string{
		{exampleSpecPath("contract")},
		{"--format", "yaml", exampleSpecPath("contract"), out},
		{"--fixtures", "--to", "xlsx", exampleSpecPath("contract"), out},
		{"--fixtures", "--recalc", exampleSpecPath("contract"), out},
		{"--render", "off", "--to", "pdf", exampleSpecPath("contract"), out},
		{"--artifacts", filepath.Join(dir, "missing"), exampleSpecPath("contract"), out},
		{"--schema", "extra"},
		{filepath.Join(dir, "nope.json"), out},
	} {
		if code, _, stderr := synthCLI(t, args...); code != exitUsage {
			t.Errorf("%v: exit %d, want %d (%s)", args, code, exitUsage, stderr)
		}
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("a usage error wrote OUT")
	}
	code, stdout, _ := synthCLI(t, "--schema")
	var schema map[string]any
	if code != exitOK || json.Unmarshal([]byte(stdout), &schema) != nil || schema["$schema"] != "https://json-schema.org/draft/2020-12/schema" || schema["type"] != "object" {
		t.Errorf("--schema: exit %d, %.200s", code, stdout)
	}
	for _, k := range []string{"oneOf", "anyOf", "allOf"} {
		if _, ok := schema[k]; ok {
			t.Errorf("the schema root has %s (model tool schemas refuse it)", k)
		}
	}
}

// TestSynthChild is the child of TestSynthSameBytesEverywhere: it runs one
// synth in the environment its parent gave it.
func TestSynthChild(t *testing.T) {
	args := os.Getenv("EDITAUDIT_SYNTH_CHILD")
	if args == "" {
		t.Skip("run by TestSynthSameBytesEverywhere")
	}
	var out, errb bytes.Buffer
	if code := Run(context.Background(), append([]string{"editaudit", "synth"}, strings.Split(args, "\x1f")...), &out, &errb); code != exitOK {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
}

// TestSynthSameBytesEverywhere: the same spec gives the same sha256 under
// other time zones and locales (each run a fresh process, so time.Local
// and the C library's locale are the child's own).
func TestSynthSameBytesEverywhere(t *testing.T) {
	if testing.Short() {
		t.Skip("runs subprocesses")
	}
	dir := t.TempDir()
	specs := map[string]string{}
	for _, n := range []string{"contract", "deck", "workbook", "notice"} {
		specs[n] = exampleSpecPath(n)
	}
	for i, f := range []string{"docx", "xlsx"} {
		js, err := json.Marshal(synthtest.RandomSpec(uint64(100+i), synthtest.RandomOptions{Format: f}))
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, "random-"+f+".json")
		os.WriteFile(p, js, 0o644)
		specs["random-"+f] = p
	}
	envs := [][]string{
		{"TZ=UTC", "LC_ALL=C", "LANG=C"},
		{"TZ=Asia/Seoul", "LC_ALL=ko_KR.UTF-8", "LANG=ko_KR.UTF-8"},
		{"TZ=America/Los_Angeles", "LC_ALL=de_DE.UTF-8", "LANG=de_DE.UTF-8"},
	}
	for name, spec := range specs {
		var first string
		for i, env := range envs {
			out := filepath.Join(dir, fmt.Sprintf("%s-%d.out", name, i))
			cmd := exec.Command(os.Args[0], "-test.run=^TestSynthChild$", "-test.count=1")
			cmd.Env = append(os.Environ(), env...)
			cmd.Env = append(cmd.Env, "EDITAUDIT_SYNTH_CHILD="+strings.Join([]string{"--fixtures", "--render", "off", spec, out}, "\x1f"))
			if b, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("%s under %v: %v\n%s", name, env, err, b)
			}
			data, err := os.ReadFile(out)
			if err != nil {
				t.Fatal(err)
			}
			sum := sha256.Sum256(data)
			h := hex.EncodeToString(sum[:])
			if i == 0 {
				first = h
			} else if h != first {
				t.Errorf("%s: sha256 %s under %v, %s under %v", name, h, env, first, envs[0])
			}
		}
	}
}
