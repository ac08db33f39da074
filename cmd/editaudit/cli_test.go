package main

// The CLI contract of DESIGN.md through Run (no subprocess): exit codes
// 0/1/2/3 for check and audit, --help naming them, inputs never modified
// except by --restore (which restores atomically and keeps the rejected
// copy), and an unwritable --out folder ending in exit 3 with nothing
// written anywhere.

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/editaudit/editaudit/internal/testdoc"
)

// cliDocx is a minimal valid Word document: a table whose cell holds cell,
// then a paragraph holding text (both raw, so a control character in them
// is an XML-illegal character).
func cliDocx(t *testing.T, cell, text string) []byte {
	t.Helper()
	return testdoc.Zip(
		testdoc.Part{Name: "[Content_Types].xml", Data: `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>`},
		testdoc.Part{Name: "_rels/.rels", Data: `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`},
		testdoc.Part{Name: "word/document.xml", Data: `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>` +
			`<w:tbl><w:tr><w:tc><w:p><w:r><w:t>` + cell + `</w:t></w:r></w:p></w:tc></w:tr></w:tbl><w:p><w:r><w:t>` + text + `</w:t></w:r></w:p>` +
			`<w:sectPr><w:pgSz w:w="11906" w:h="16838"/></w:sectPr></w:body></w:document>`},
	)
}

// cliFiles writes the test documents into dir: a healthy original, a
// healthy edit, a broken edit (a new fatal finding), a broken original and
// a file that is not a document.
func cliFiles(t *testing.T, dir string) map[string]string {
	t.Helper()
	files := map[string][]byte{
		"orig.docx":       cliDocx(t, "cell", "Hello"),
		"ok.docx":         cliDocx(t, "cell", "Hello, edited"),
		"broken.docx":     cliDocx(t, "cell", "Hel\x0blo"),
		"broken-too.docx": cliDocx(t, "cell, edited", "Hel\x0blo"),
		"notes.txt":       []byte("not a document"),
	}
	paths := map[string]string{}
	for name, data := range files {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		paths[name] = p
	}
	return paths
}

// cliRun runs the CLI in-process.
func cliRun(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = Run(context.Background(), append([]string{"editaudit"}, args...), &out, &errb)
	return code, out.String(), errb.String()
}

// noSoffice makes LibreOffice unfindable for the rest of the test.
func noSoffice(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	if _, err := exec.LookPath("soffice"); err == nil {
		t.Fatal("soffice still found")
	}
}

func TestCLIExitCodes(t *testing.T) {
	dir := t.TempDir()
	f := cliFiles(t, dir)
	store := t.TempDir()
	tests := []struct {
		name     string
		args     []string
		noOffice bool
		code     int
		stderr   string // substring of stderr
		stdout   string // substring of stdout
	}{
		{"check healthy", []string{"check", f["orig.docx"]}, false, 0, "", ""},
		{"check healthy json", []string{"check", "--format", "json", f["orig.docx"]}, false, 0, "", `"fatal": false`},
		{"check fatal", []string{"check", f["broken.docx"]}, false, 1, "", "xml.illegal-char"},
		{"check one fatal of two", []string{"check", "--format", "json", f["orig.docx"], f["broken.docx"]}, false, 1, "", `"fatal": true`},
		{"check not a document is a finding", []string{"check", f["notes.txt"]}, false, 1, "", "zip.not-zip"},
		{"check no file", []string{"check"}, false, 2, "needs at least one FILE", ""},
		{"check bad format", []string{"check", "--format", "yaml", f["orig.docx"]}, false, 2, "--format", ""},
		{"check unknown flag", []string{"check", "--frobnicate", f["orig.docx"]}, false, 2, "frobnicate", ""},
		{"unknown command", []string{"frobnicate"}, false, 2, "", ""},
		{"check missing file is a finding", []string{"check", filepath.Join(dir, "missing.docx")}, false, 1, "", "file.missing"},
		{"audit passed", []string{"audit", "--render", "off", "--store", store, f["orig.docx"], f["ok.docx"]}, false, 0, "", ""},
		{"audit blocked", []string{"audit", "--render", "off", "--store", store, f["orig.docx"], f["broken.docx"]}, false, 1, "", "xml.illegal-char"},
		{"audit pre-existing fatal passes", []string{"audit", "--render", "off", "--store", store, "--format", "json", f["broken.docx"], f["broken-too.docx"]}, false, 0, "", `"fatal": 1`},
		{"audit one argument", []string{"audit", "--render", "off", f["orig.docx"]}, false, 2, "ORIGINAL and EDITED", ""},
		{"audit bad render mode", []string{"audit", "--render", "sometimes", f["orig.docx"], f["ok.docx"]}, false, 2, "--render", ""},
		{"audit bad format", []string{"audit", "--format", "pdf", f["orig.docx"], f["ok.docx"]}, false, 2, "--format", ""},
		{"audit folder", []string{"audit", "--render", "off", dir, f["ok.docx"]}, false, 2, "folder", ""},
		{"audit missing original", []string{"audit", "--render", "off", "--store", store, filepath.Join(dir, "missing.docx"), f["ok.docx"]}, false, 2, "missing.docx", ""},
		{"audit missing edited is a finding", []string{"audit", "--render", "off", "--store", store, "--format", "json", f["orig.docx"], filepath.Join(dir, "missing.docx")}, false, 1, "", `"code": "file.missing"`},
		{"audit render on without LibreOffice", []string{"audit", "--render", "on", "--store", store, f["orig.docx"], f["ok.docx"]}, true, 3, "apt-get install libreoffice", ""},
		{"audit render auto without LibreOffice", []string{"audit", "--render", "auto", "--store", store, "--format", "json", f["orig.docx"], f["broken.docx"]}, true, 1, "", `"status": "failed"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if tc.noOffice {
				noSoffice(t)
			}
			code, stdout, stderr := cliRun(t, tc.args...)
			if code != tc.code || !strings.Contains(stderr, tc.stderr) || !strings.Contains(stdout, tc.stdout) {
				t.Errorf("exit %d, want %d\nstdout: %.600s\nstderr: %s\nwant stdout ∋ %q, stderr ∋ %q", code, tc.code, stdout, stderr, tc.stdout, tc.stderr)
			}
		})
	}
}

// TestCLIRenderOnMissingSaysHow: exit 3 with how to fix, and nothing else
// on stdout.
func TestCLIRenderOnMissingSaysHow(t *testing.T) {
	f := cliFiles(t, t.TempDir())
	noSoffice(t)
	code, stdout, stderr := cliRun(t, "audit", "--render", "on", "--store", t.TempDir(), f["orig.docx"], f["ok.docx"])
	if code != exitTool || stdout != "" {
		t.Fatalf("exit %d, stdout %q", code, stdout)
	}
	for _, want := range []string{"LibreOffice", "apt-get install", "--render off"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr %q does not say %q", stderr, want)
		}
	}
}

// TestCLIAutoWithoutLibreOffice: --render auto still gives findings and
// structure, with pages.status failed and the reason.
func TestCLIAutoWithoutLibreOffice(t *testing.T) {
	f := cliFiles(t, t.TempDir())
	noSoffice(t)
	code, stdout, stderr := cliRun(t, "audit", "--format", "json", "--store", t.TempDir(), f["orig.docx"], f["broken.docx"])
	if code != exitBlocked {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var res struct {
		Blocked     bool
		NewFindings []struct{ Code string } `json:"new_findings"`
		Structure   struct {
			Before, After map[string]int
		}
		Pages struct{ Status, Message string }
	}
	if err := json.Unmarshal([]byte(stdout), &res); err != nil {
		t.Fatal(err)
	}
	if !res.Blocked || len(res.NewFindings) == 0 || res.NewFindings[0].Code != "xml.illegal-char" {
		t.Errorf("findings %+v", res.NewFindings)
	}
	if res.Structure.Before["tables"] != 1 || res.Structure.After["tables"] != 1 {
		t.Errorf("structure %+v", res.Structure)
	}
	if res.Pages.Status != "failed" || !strings.Contains(res.Pages.Message, "LibreOffice is not installed") {
		t.Errorf("pages %+v", res.Pages)
	}
}

func TestCLIHelpNamesExitCodes(t *testing.T) {
	for _, args := range [][]string{{"--help"}, {"-h"}} {
		code, stdout, _ := cliRun(t, args...)
		if code != 0 {
			t.Errorf("%v: exit %d", args, code)
		}
		for _, want := range []string{"EXIT CODES", "0  passed", "1  blocked", "2  usage error", "3  the tool could not do its job"} {
			if !strings.Contains(stdout, want) {
				t.Errorf("%v: help does not say %q", args, want)
			}
		}
	}
	code, stdout, _ := cliRun(t, "check", "--help")
	if code != 0 || !strings.Contains(stdout, "Exit code 1") {
		t.Errorf("check --help: exit %d, %q", code, stdout)
	}
}

// snapshotDir maps every file under dir to its sha256 and inode.
func snapshotDir(t *testing.T, dir string) map[string][2]uint64 {
	t.Helper()
	out := map[string][2]uint64{}
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256(b)
		var ino uint64
		if info, err := d.Info(); err == nil {
			if st, ok := info.Sys().(*syscall.Stat_t); ok {
				ino = st.Ino
			}
		}
		out[p] = [2]uint64{uint64(sum[0])<<56 | uint64(sum[1])<<48 | uint64(sum[2])<<40 | uint64(sum[3])<<32 | uint64(sum[4])<<24 | uint64(sum[5])<<16 | uint64(sum[6])<<8 | uint64(sum[7]), ino}
		return nil
	})
	return out
}

// TestCLIInputsNeverModified: check and audit in every output format, with
// and without --out, blocked or not, leave every input byte, inode and the
// inputs' folder exactly as they were.
func TestCLIInputsNeverModified(t *testing.T) {
	dir := t.TempDir()
	f := cliFiles(t, dir)
	before := snapshotDir(t, dir)
	store := t.TempDir()
	runs := [][]string{
		{"check", f["orig.docx"], f["broken.docx"], f["notes.txt"]},
		{"check", "--format", "json", "--parts", f["broken.docx"]},
	}
	for _, format := range []string{"text", "json", "model", "html", "sarif"} {
		for _, pair := range [][2]string{{"orig.docx", "ok.docx"}, {"orig.docx", "broken.docx"}, {"broken.docx", "orig.docx"}} {
			runs = append(runs,
				[]string{"audit", "--render", "off", "--store", store, "--format", format, f[pair[0]], f[pair[1]]},
				[]string{"audit", "--render", "off", "--store", store, "--format", format, "--out", filepath.Join(t.TempDir(), "out"), f[pair[0]], f[pair[1]]})
		}
	}
	for _, args := range runs {
		code, _, stderr := cliRun(t, args...)
		if code != 0 && code != 1 {
			t.Fatalf("%v: exit %d: %s", args, code, stderr)
		}
		after := snapshotDir(t, dir)
		if len(after) != len(before) {
			t.Fatalf("%v: the inputs' folder now holds %d files, was %d", args, len(after), len(before))
		}
		for p, h := range before {
			if after[p] != h {
				t.Fatalf("%v modified %s", args, p)
			}
		}
	}
}

// TestCLIRestore: --restore on a blocked edit puts the original's exact
// bytes at the edited path by rename (a new inode; no temp file left) and
// keeps the rejected bytes, in --out or beside the edited file; the
// original is untouched; a passing edit is left alone.
func TestCLIRestore(t *testing.T) {
	for _, withOut := range []bool{true, false} {
		dir := t.TempDir()
		f := cliFiles(t, dir)
		origBytes, _ := os.ReadFile(f["orig.docx"])
		brokenBytes, _ := os.ReadFile(f["broken.docx"])
		before := snapshotDir(t, dir)
		args := []string{"audit", "--render", "off", "--store", t.TempDir(), "--format", "json", "--restore"}
		rejected := filepath.Join(dir, "broken.rejected.docx")
		if withOut {
			out := filepath.Join(t.TempDir(), "rej")
			args = append(args, "--out", out)
			rejected = filepath.Join(out, "rejected.docx")
		}
		code, stdout, stderr := cliRun(t, append(args, f["orig.docx"], f["broken.docx"])...)
		if code != exitBlocked {
			t.Fatalf("out %v: exit %d: %s", withOut, code, stderr)
		}
		var res struct {
			Restored     bool
			RejectedCopy string `json:"rejected_copy"`
		}
		json.Unmarshal([]byte(stdout), &res)
		if !res.Restored {
			t.Errorf("out %v: restored false in %s", withOut, stdout)
		}
		if got, _ := os.ReadFile(f["broken.docx"]); !bytes.Equal(got, origBytes) {
			t.Errorf("out %v: the edited path does not hold the original's bytes", withOut)
		}
		if got, err := os.ReadFile(rejected); err != nil || !bytes.Equal(got, brokenBytes) {
			t.Errorf("out %v: rejected copy %s: %v", withOut, rejected, err)
		}
		after := snapshotDir(t, dir)
		if after[f["orig.docx"]] != before[f["orig.docx"]] {
			t.Errorf("out %v: the original was touched", withOut)
		}
		if after[f["broken.docx"]][1] == before[f["broken.docx"]][1] {
			t.Errorf("out %v: the edited file was rewritten in place, not replaced by a rename", withOut)
		}
		want := len(before)
		if !withOut {
			want++ // the rejected copy beside it
		}
		if len(after) != want {
			t.Errorf("out %v: %d files in the folder after restore, want %d (temp files left?)", withOut, len(after), want)
		}
	}
	// A passing edit is never restored.
	dir := t.TempDir()
	f := cliFiles(t, dir)
	before := snapshotDir(t, dir)
	if code, _, stderr := cliRun(t, "audit", "--render", "off", "--store", t.TempDir(), "--restore", f["orig.docx"], f["ok.docx"]); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if after := snapshotDir(t, dir); len(after) != len(before) || after[f["ok.docx"]] != before[f["ok.docx"]] {
		t.Error("a passing edit was touched by --restore")
	}
}

// readOnlyDir makes dir unwritable even for root (chmod, then the
// immutable attribute), or skips.
func readOnlyDir(t *testing.T, dir string) {
	t.Helper()
	writable := func() bool {
		p := filepath.Join(dir, ".probe")
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			return false
		}
		os.Remove(p)
		return true
	}
	os.Chmod(dir, 0o555)
	t.Cleanup(func() { os.Chmod(dir, 0o755) })
	if !writable() {
		return
	}
	if err := exec.Command("chattr", "+i", dir).Run(); err == nil {
		t.Cleanup(func() { exec.Command("chattr", "-i", dir).Run() })
	}
	if writable() {
		t.Skip("cannot make a folder read-only here (root without chattr)")
	}
}

// TestCLIOutReadOnly: an --out folder that cannot be written ends in exit
// 3 with a message naming it; nothing is written, the edited file is not
// restored (its rejected copy could not be kept) and no partial output is
// left.
func TestCLIOutReadOnly(t *testing.T) {
	dir := t.TempDir()
	f := cliFiles(t, dir)
	out := filepath.Join(t.TempDir(), "out")
	if err := os.Mkdir(out, 0o755); err != nil {
		t.Fatal(err)
	}
	readOnlyDir(t, out)
	before := snapshotDir(t, dir)
	store := t.TempDir()
	for _, args := range [][]string{
		{"audit", "--render", "off", "--store", store, "--format", "html", "--out", out, f["orig.docx"], f["ok.docx"]},
		{"audit", "--render", "off", "--store", store, "--restore", "--out", out, f["orig.docx"], f["broken.docx"]},
		{"audit", "--render", "off", "--store", store, "--format", "html", "--out", filepath.Join(out, "sub"), f["orig.docx"], f["ok.docx"]},
	} {
		code, stdout, stderr := cliRun(t, args...)
		if code != exitTool {
			t.Errorf("%v: exit %d, want 3\nstdout %.300s\nstderr %s", args, code, stdout, stderr)
		}
		if !strings.Contains(stderr, out) || !(strings.Contains(stderr, "permission denied") || strings.Contains(stderr, "read-only") || strings.Contains(stderr, "not permitted")) {
			t.Errorf("%v: stderr %q does not name the folder and the reason", args, stderr)
		}
		t.Logf("%v: %s", args[len(args)-4:], strings.TrimSpace(stderr))
		if ents, _ := os.ReadDir(out); len(ents) != 0 {
			t.Errorf("%v: %d entries written into the read-only folder", args, len(ents))
		}
		after := snapshotDir(t, dir)
		for p, h := range before {
			if after[p] != h {
				t.Errorf("%v modified %s", args, p)
			}
		}
		if len(after) != len(before) {
			t.Errorf("%v: files added beside the inputs", args)
		}
	}
}

// TestCLICancelled: a cancelled run exits 130 whatever the command was
// doing (a cancelled baseline exited 3 when the exit error was mapped
// before the cancellation).
func TestCLICancelled(t *testing.T) {
	dir := t.TempDir()
	f := cliFiles(t, dir)
	store := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, args := range [][]string{
		{"baseline", "--render", "off", "--store", store, f["orig.docx"]},
		{"audit", "--render", "off", "--store", store, f["orig.docx"], f["ok.docx"]},
		{"check", f["orig.docx"]},
	} {
		var out, errb bytes.Buffer
		code := Run(ctx, append([]string{"editaudit"}, args...), &out, &errb)
		if code != exitCancel || !strings.Contains(errb.String(), "cancelled") {
			t.Errorf("%v: exit %d, want 130; stderr %q", args[0], code, errb.String())
		}
	}
}
