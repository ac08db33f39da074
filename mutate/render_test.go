//go:build unix

package mutate_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/editaudit/editaudit/internal/testdoc"
	"github.com/editaudit/editaudit/mutate"
	"github.com/editaudit/editaudit/synth"
	"github.com/editaudit/editaudit/synth/synthtest"
)

// TestRenderWithLibreOffice converts every synthesized docx, pptx and xlsx
// with real LibreOffice in one batch, checks each gives a PDF with pages
// (the 50-page spec exactly 50), and checks the PagesChange promise of
// every injector that keeps the file openable: the rasterized pages of the
// edited file differ from the original's exactly when it says so.
func TestRenderWithLibreOffice(t *testing.T) {
	soffice := testdoc.Tool(t, "soffice")
	pdfinfo := testdoc.Tool(t, "pdfinfo")
	pdftoppm := testdoc.Tool(t, "pdftoppm")
	dir := t.TempDir()
	in := filepath.Join(dir, "in")
	if err := os.Mkdir(in, 0o755); err != nil {
		t.Fatal(err)
	}
	var files []string
	write := func(name string, data []byte) {
		p := filepath.Join(in, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, p)
	}
	bases := synthtest.Bases(t)
	fifty, err := synth.Synthesize(synthtest.FiftyPages())
	if err != nil {
		t.Fatal(err)
	}
	bases["fifty.docx"] = fifty
	var names []string
	for n := range bases {
		if !strings.HasSuffix(n, ".hwpx") { // LibreOffice does not read hwpx
			names = append(names, n)
		}
	}
	sort.Strings(names)
	for _, n := range names {
		write(n, bases[n])
	}
	// One base per format carries every openable edit.
	type pair struct{ base, edited string }
	expect := map[pair]bool{}
	for _, base := range []string{"contract.docx", "deck.pptx", "workbook.xlsx"} {
		for _, m := range mutate.Mutations() {
			if m.Expect.Blocked {
				continue
			}
			a, err := mutate.Apply(m.Kind, bases[base])
			if err != nil {
				continue // another format
			}
			ext := filepath.Ext(base)
			edited := strings.TrimSuffix(base, ext) + "__" + m.Kind + ext
			write(edited, a.Data)
			expect[pair{base, edited}] = a.Expect.PagesChange
		}
	}

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	out := filepath.Join(dir, "pdf")
	args := append([]string{"-env:UserInstallation=file://" + filepath.Join(dir, "profile"), "--headless", "--norestore", "--convert-to", "pdf", "--outdir", out}, files...)
	cmd := exec.CommandContext(ctx, soffice, args...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 10 * time.Second
	var logb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &logb, &logb
	start := time.Now()
	err = cmd.Run()
	if cmd.Process != nil {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) // no soffice.bin left behind
	}
	if err != nil {
		t.Fatalf("soffice: %v\n%s", err, logb.String())
	}
	t.Logf("LibreOffice converted %d files in %v", len(files), time.Since(start).Round(time.Millisecond))

	pagesRE := regexp.MustCompile(`(?m)^Pages:\s+(\d+)`)
	pages := map[string]int{}
	for _, f := range files {
		name := filepath.Base(f)
		pdf := filepath.Join(out, strings.TrimSuffix(name, filepath.Ext(name))+".pdf")
		info, err := exec.CommandContext(ctx, pdfinfo, pdf).Output()
		if err != nil {
			t.Errorf("%s: no readable PDF: %v", name, err)
			continue
		}
		m := pagesRE.FindSubmatch(info)
		n := 0
		if m != nil {
			n, _ = strconv.Atoi(string(m[1]))
		}
		if n < 1 {
			t.Errorf("%s: PDF has no pages", name)
		}
		pages[name] = n
	}
	if pages["fifty.docx"] != 50 {
		t.Errorf("the 50-page spec rendered as %d pages", pages["fifty.docx"])
	}
	raster := func(name string) [][]byte {
		pdf := filepath.Join(out, strings.TrimSuffix(name, filepath.Ext(name))+".pdf")
		prefix := filepath.Join(dir, "png", name)
		if err := os.MkdirAll(filepath.Dir(prefix), 0o755); err != nil {
			t.Fatal(err)
		}
		if b, err := exec.CommandContext(ctx, pdftoppm, "-r", "24", "-png", pdf, prefix).CombinedOutput(); err != nil {
			t.Fatalf("pdftoppm %s: %v\n%s", name, err, b)
		}
		pngs, _ := filepath.Glob(prefix + "-*.png")
		sort.Strings(pngs)
		var out [][]byte
		for _, p := range pngs {
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, b)
		}
		return out
	}
	var report []string
	for p, want := range expect {
		a, b := raster(p.base), raster(p.edited)
		differ := len(a) != len(b)
		for i := 0; !differ && i < len(a); i++ {
			differ = !bytes.Equal(a[i], b[i])
		}
		report = append(report, fmt.Sprintf("%s: %d → %d pages, differ=%v", p.edited, len(a), len(b), differ))
		if differ != want {
			t.Errorf("%s: pages differ = %v, the injector promises %v", p.edited, differ, want)
		}
	}
	sort.Strings(report)
	t.Logf("rendered edits:\n%s", strings.Join(report, "\n"))
}
