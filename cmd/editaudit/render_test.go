package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/editaudit/editaudit/render"
)

// TestRenderCommand: page images and pages.json; usage errors; a missing
// LibreOffice is exit 3 with how to install it; an .hwpx that is not one
// fails to convert (exit 3, said in pages.json).
func TestRenderCommand(t *testing.T) {
	dir := t.TempDir()
	doc := filepath.Join(dir, "contract.docx")
	if err := os.WriteFile(doc, cliDocx(t, "cell", "Hello"), 0o644); err != nil {
		t.Fatal(err)
	}
	hwpx := filepath.Join(dir, "form.hwpx")
	if err := os.WriteFile(hwpx, []byte("PK"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name     string
		args     []string
		noOffice bool
		code     int
		stderr   string
	}{
		{"no file", []string{"render"}, false, exitUsage, "exactly one FILE"},
		{"bad dpi", []string{"render", "--dpi", "5", doc}, false, exitUsage, "--dpi 5"},
		{"bad format", []string{"render", "--format", "gif", doc}, false, exitUsage, "png or jpeg"},
		{"bad rasterizer", []string{"render", "--rasterizer", "gs", doc}, false, exitUsage, "pdftoppm or mutool"},
		{"missing file", []string{"render", filepath.Join(dir, "nope.docx")}, false, exitUsage, "no such file"},
		{"no LibreOffice", []string{"render", "--out", filepath.Join(dir, "x"), doc}, true, exitTool, "apt-get install libreoffice"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if tc.noOffice {
				noSoffice(t)
			}
			code, _, stderr := cliRun(t, tc.args...)
			if code != tc.code || !strings.Contains(stderr, tc.stderr) {
				t.Errorf("exit %d, stderr %q; want %d and %q", code, stderr, tc.code, tc.stderr)
			}
		})
	}

	if _, err := exec.LookPath("soffice"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("soffice not installed")
		}
		t.Skip("soffice not installed")
	}
	for _, format := range []string{"png", "jpeg"} {
		out := filepath.Join(dir, "out-"+format)
		code, stdout, stderr := cliRun(t, "render", "--out", out, "--dpi", "40", "--format", format, doc)
		if code != exitOK {
			t.Fatalf("%s: exit %d: %s", format, code, stderr)
		}
		var pj render.PagesFile
		b, err := os.ReadFile(filepath.Join(out, "pages.json"))
		if err == nil {
			err = json.Unmarshal(b, &pj)
		}
		if err != nil {
			t.Fatal(err)
		}
		if pj.Status != "ok" || pj.Count != 1 || len(pj.Pages) != 1 || pj.Toolchain.DPI != 40 || pj.ToolchainKey == "" || !strings.Contains(stdout, ": 1 page at") {
			t.Errorf("%s: pages.json %+v, stdout %q", format, pj, stdout)
		}
		p := pj.Pages[0]
		if p.WidthPt < 595 || p.WidthPt > 596 || p.WidthPx != 331 || len(p.SHA256) != 64 {
			t.Errorf("%s: page %+v", format, p)
		}
		if info, err := os.Stat(filepath.Join(out, p.Image)); err != nil || info.Size() == 0 || !strings.HasSuffix(p.Image, map[string]string{"png": ".png", "jpeg": ".jpg"}[format]) {
			t.Errorf("%s: image %s: %v", format, p.Image, err)
		}
	}
	out := filepath.Join(dir, "out-hwpx")
	code, _, stderr := cliRun(t, "render", "--out", out, hwpx)
	b, _ := os.ReadFile(filepath.Join(out, "pages.json"))
	if code != exitTool || !strings.Contains(stderr, "hwpx-convert") || !strings.Contains(string(b), `"status": "failed"`) {
		t.Errorf("hwpx: exit %d, stderr %q, pages.json %s", code, stderr, b)
	}
}
