package main

// One exit-code rule for every command, through Run: a document being
// judged that is not there is the finding file.missing (exit 1, the normal
// output in every format); any other path that names nothing usable, a
// flag that does not parse or a value out of range is a usage error (exit
// 2, on stderr, nothing on stdout); help topics and --version work.

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestExitCodeRule(t *testing.T) {
	dir := t.TempDir()
	f := cliFiles(t, dir)
	store := t.TempDir()
	missing := filepath.Join(dir, "missing.docx")
	folder := filepath.Join(dir, "folder.docx")
	if err := os.Mkdir(folder, 0o755); err != nil {
		t.Fatal(err)
	}
	spec := filepath.Join("..", "..", "examples", "specs", "contract.json")
	out := t.TempDir()
	for _, tc := range []struct {
		name   string
		args   []string
		code   int
		stdout string // substring of stdout ("" with code 2: stdout must be empty)
		stderr string // substring of stderr
	}{
		// Documents being judged: a finding.
		{"check missing", []string{"check", missing}, 1, "file.missing", ""},
		{"check folder", []string{"check", folder}, 1, "is a folder, not a document file", ""},
		{"check missing among others", []string{"check", "--format", "json", f["orig.docx"], missing}, 1, `"code": "file.missing"`, ""},
		{"audit missing edited", []string{"audit", "--render", "off", "--store", store, f["orig.docx"], missing}, 1, "file.missing", ""},
		{"audit folder edited", []string{"audit", "--render", "off", "--store", store, f["orig.docx"], folder}, 1, "file.missing", ""},
		// Every other path: a usage error.
		{"audit missing original", []string{"audit", "--render", "off", "--store", store, missing, f["ok.docx"]}, 2, "", "ORIGINAL"},
		{"audit folder original", []string{"audit", "--render", "off", "--store", store, dir, f["ok.docx"]}, 2, "", "corpus run --originals"},
		{"baseline missing", []string{"baseline", "--render", "off", "--store", store, missing}, 2, "", "missing.docx"},
		{"baseline folder", []string{"baseline", "--render", "off", "--store", store, folder}, 2, "", "is a folder"},
		{"render missing", []string{"render", missing}, 2, "", "missing.docx"},
		{"render folder", []string{"render", folder}, 2, "", "is a folder"},
		{"sanitize missing", []string{"sanitize", missing, filepath.Join(out, "s.docx")}, 2, "", "missing.docx"},
		{"sanitize folder", []string{"sanitize", folder, filepath.Join(out, "s.docx")}, 2, "", "is a folder"},
		{"corpus run missing manifest", []string{"corpus", "run", missing}, 2, "", "MANIFEST"},
		{"corpus run missing folders", []string{"corpus", "run", "--originals", missing, "--edited", dir}, 2, "", "--originals"},
		{"corpus summary missing", []string{"corpus", "summary", missing}, 2, "", "not a run folder"},
		{"corpus compare missing", []string{"corpus", "compare", missing, missing}, 2, "", "not a run folder"},
		{"corpus merge missing", []string{"corpus", "merge", "--out", filepath.Join(out, "m"), missing}, 2, "", "not a run folder"},
		{"corpus synth missing spec", []string{"corpus", "synth", missing, filepath.Join(out, "x.docx")}, 2, "", "missing.docx"},
		{"corpus mutate missing", []string{"corpus", "mutate", "zip.repacked", missing, filepath.Join(out, "x.docx")}, 2, "", "missing.docx"},
		// Flags: a usage error on stderr, never help on stdout.
		{"show not a number", []string{"audit", "--show", "abc", f["orig.docx"], f["ok.docx"]}, 2, "", `invalid value "abc" for flag -show`},
		{"show negative", []string{"audit", "--show", "-1", f["orig.docx"], f["ok.docx"]}, 2, "", "--show -1"},
		{"check show negative", []string{"check", "--show", "-2", f["orig.docx"]}, 2, "", "--show -2"},
		{"corpus run show not a number", []string{"corpus", "run", "--show", "x", missing}, 2, "", "invalid value"},
		{"dpi not a number", []string{"render", "--dpi", "high", f["orig.docx"]}, 2, "", "invalid value"},
		{"sanitize bad format", []string{"sanitize", "--format", "xml", f["orig.docx"], filepath.Join(out, "s2.docx")}, 2, "", "--format"},
		{"unknown flag", []string{"baseline", "--frob", f["orig.docx"]}, 2, "", "frob"},
		{"unknown command", []string{"frobnicate"}, 2, "", "no command"},
		{"help of nothing", []string{"help", "frobnicate"}, 2, "", "no help topic"},
		// What works.
		{"baseline", []string{"baseline", "--render", "off", "--store", store, f["orig.docx"]}, 0, "0 findings", ""},
		{"baseline one finding", []string{"baseline", "--render", "off", "--store", store, f["broken.docx"]}, 0, "1 finding,", ""},
		{"corpus synth", []string{"corpus", "synth", "--fixtures", spec, filepath.Join(out, "c.docx")}, 0, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := cliRun(t, tc.args...)
			if tc.code == exitUsage && stdout != "" {
				t.Errorf("usage error printed on stdout: %.300q", stdout)
			}
			if code != tc.code || !strings.Contains(stdout, tc.stdout) || !strings.Contains(stderr, tc.stderr) {
				t.Errorf("exit %d, want %d\nstdout: %.400s\nstderr: %s\nwant stdout ∋ %q, stderr ∋ %q", code, tc.code, stdout, stderr, tc.stdout, tc.stderr)
			}
		})
	}
}

// TestMissingEditedEveryFormat: an agent's script that exited without
// saving gets the finding file.missing in every format, blocked, with
// output a program can parse, and nothing about structure or pages that
// is not known.
func TestMissingEditedEveryFormat(t *testing.T) {
	dir := t.TempDir()
	f := cliFiles(t, dir)
	missing := filepath.Join(dir, "never-saved.docx")
	for _, format := range []string{"text", "json", "model", "html", "sarif"} {
		code, stdout, stderr := cliRun(t, "audit", "--render", "off", "--store", t.TempDir(), "--format", format, f["orig.docx"], missing)
		if code != exitBlocked || stderr != "" {
			t.Errorf("%s: exit %d, stderr %q", format, code, stderr)
		}
		if !strings.Contains(stdout, "file.missing") || !strings.Contains(stdout, "never-saved.docx") {
			t.Errorf("%s: the output does not name file.missing and the file:\n%.500s", format, stdout)
		}
		if strings.Contains(stdout, "refuse or repair") || strings.Contains(stdout, "nothing lost") {
			t.Errorf("%s: says something of a file that is not there:\n%.2000s", format, stdout)
		}
		switch format {
		case "json":
			var res struct {
				Blocked     bool
				NewFindings []struct{ Code, Grade string } `json:"new_findings"`
				Structure   struct {
					After  map[string]int
					Shrunk []any
				}
			}
			if err := json.Unmarshal([]byte(stdout), &res); err != nil || !res.Blocked || len(res.NewFindings) != 1 ||
				res.NewFindings[0].Code != "file.missing" || res.NewFindings[0].Grade != "fatal" || len(res.Structure.After) != 0 || len(res.Structure.Shrunk) != 0 {
				t.Errorf("json: %v %+v", err, res)
			}
		case "model", "sarif":
			var v map[string]any
			if err := json.Unmarshal([]byte(stdout), &v); err != nil {
				t.Errorf("%s: not JSON: %v", format, err)
			}
		}
	}
	// check, the same rule.
	for _, format := range []string{"text", "json", "model", "html"} {
		code, stdout, _ := cliRun(t, "check", "--format", format, missing)
		if code != exitBlocked || !strings.Contains(stdout, "file.missing") || strings.Contains(stdout, "refuse or repair") {
			t.Errorf("check %s: exit %d\n%.500s", format, code, stdout)
		}
	}
	// --restore puts the original where the edit was expected.
	code, _, stderr := cliRun(t, "audit", "--render", "off", "--store", t.TempDir(), "--restore", f["orig.docx"], missing)
	got, err := os.ReadFile(missing)
	want, _ := os.ReadFile(f["orig.docx"])
	if code != exitBlocked || err != nil || string(got) != string(want) {
		t.Errorf("--restore of a missing edit: exit %d (%s), %v", code, stderr, err)
	}
}

// TestHelpTopics: `help CMD` is CMD's --help, for every command and
// subcommand; --version names the engine and the toolchain.
func TestHelpTopics(t *testing.T) {
	var paths [][]string
	for _, c := range commands() {
		paths = append(paths, []string{c.Name})
		for _, s := range c.Subcommands {
			paths = append(paths, []string{c.Name, s.Name})
		}
	}
	for _, p := range paths {
		code, help, stderr := cliRun(t, append([]string{"help"}, p...)...)
		_, flagHelp, _ := cliRun(t, append(p, "--help")...)
		name := "editaudit " + strings.Join(p, " ")
		if code != 0 || !strings.Contains(help, name+" - ") || help != flagHelp {
			t.Errorf("help %v: exit %d (%s), %.200q; --help gives %.200q", p, code, stderr, help, flagHelp)
		}
	}
	code, stdout, _ := cliRun(t, "help")
	if code != 0 || !strings.Contains(stdout, "EXIT CODES") {
		t.Errorf("help: exit %d", code)
	}
	code, stdout, stderr := cliRun(t, "--version")
	if code != 0 || !strings.HasPrefix(stdout, "editaudit ") || !strings.Contains(stdout, "\ntoolchain") {
		t.Errorf("--version: exit %d\n%s%s", code, stdout, stderr)
	}
	noSoffice(t)
	code, stdout, _ = cliRun(t, "--version")
	if code != 0 || !strings.Contains(stdout, "toolchain: none (") || !strings.Contains(stdout, "not installed") {
		t.Errorf("--version without LibreOffice: exit %d\n%s", code, stdout)
	}
}
