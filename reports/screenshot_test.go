//go:build unix

package reports

import (
	"bytes"
	"context"
	"errors"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/editaudit/editaudit/internal/testdoc"
)

// TestHTMLScreenshot renders the richest audit report in headless Chromium
// and checks that the page draws: the PNG decodes, ink is spread over the
// page (not a blank or half-drawn page), the passed banner's green and the
// shrunk rows' amber are there. EDITAUDIT_SCREENSHOT=path.png keeps a copy
// of the screenshot, and the HTML beside it, for people to look at.
func TestHTMLScreenshot(t *testing.T) {
	chromium := findChromium()
	if chromium == "" {
		testdoc.Missing(t, "chromium")
	}
	dir := t.TempDir()
	html := filepath.Join(dir, "report.html")
	var b bytes.Buffer
	if err := WriteHTML(&b, passedShrunkPages(t), HTMLOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(html, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	shot := filepath.Join(dir, "report.png")
	if err := screenshot(t, chromium, html, shot, filepath.Join(dir, "profile"), 1280, 2000); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(shot)
	if err != nil {
		t.Fatal(err)
	}
	if keep := os.Getenv("EDITAUDIT_SCREENSHOT"); keep != "" {
		if err := os.WriteFile(keep, data, 0o644); err != nil {
			t.Error(err)
		}
		if err := os.WriteFile(strings.TrimSuffix(keep, filepath.Ext(keep))+".html", b.Bytes(), 0o644); err != nil {
			t.Error(err)
		}
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if got := img.Bounds().Size(); got.X != 1280 || got.Y != 2000 {
		t.Errorf("screenshot is %v, want 1280×2000", got)
	}

	// Ink in at least 10 of the 16 horizontal bands of the page: the
	// report fills the window, with header, tables and page images.
	const bands = 16
	inked := 0
	h := img.Bounds().Dy()
	for i := 0; i < bands; i++ {
		if hasInk(img, image.Rect(0, i*h/bands, img.Bounds().Dx(), (i+1)*h/bands)) {
			inked++
		}
	}
	if inked < 10 {
		t.Errorf("ink in %d of %d bands: the report did not render", inked, bands)
	}
	// The passed banner (green #1a7f37 label) near the top, and the amber
	// highlight of the shrunk rows (#fffbe6) somewhere on the page.
	if !hasColor(img, image.Rect(0, 0, 1280, 500), 0x1a, 0x7f, 0x37, 24) {
		t.Error("no green verdict label in the top of the page")
	}
	if !hasColor(img, img.Bounds(), 0xff, 0xfb, 0xe6, 3) {
		t.Error("no highlighted shrunk row")
	}
}

func findChromium() string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// screenshot runs headless Chromium in its own process group with a fresh
// profile, and kills the whole group when it ends or times out.
func screenshot(t *testing.T, chromium, html, out, profile string, w, h int) error {
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, chromium,
		"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--hide-scrollbars", "--force-device-scale-factor=1",
		"--user-data-dir="+profile, "--screenshot="+out,
		"--window-size="+strconv.Itoa(w)+","+strconv.Itoa(h), "file://"+html)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err := cmd.Run()
	if cmd.Process != nil {
		// Renderer and zygote children may outlive the browser process.
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
	if err != nil {
		return errors.Join(err, errors.New(lastLines(stderr.String(), 10)))
	}
	if _, err := os.Stat(out); err != nil {
		return errors.Join(err, errors.New(lastLines(stderr.String(), 10)))
	}
	return nil
}

func lastLines(s string, n int) string {
	lines := bytes.Split([]byte(s), []byte("\n"))
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return string(bytes.Join(lines, []byte("\n")))
}

// hasInk reports whether r holds a pixel that is clearly not background
// (the page's #f6f8fa and white both count as background).
func hasInk(img image.Image, r image.Rectangle) bool {
	r = r.Intersect(img.Bounds())
	for y := r.Min.Y; y < r.Max.Y; y += 2 {
		for x := r.Min.X; x < r.Max.X; x += 2 {
			cr, cg, cb, _ := img.At(x, y).RGBA()
			if cr>>8 < 0xd0 || cg>>8 < 0xd0 || cb>>8 < 0xd0 {
				return true
			}
		}
	}
	return false
}

// hasColor reports whether r holds a pixel within tol of (R, G, B).
func hasColor(img image.Image, r image.Rectangle, R, G, B uint8, tol int) bool {
	r = r.Intersect(img.Bounds())
	near := func(a uint32, b uint8) bool {
		d := int(a>>8) - int(b)
		return d >= -tol && d <= tol
	}
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			cr, cg, cb, _ := img.At(x, y).RGBA()
			if near(cr, R) && near(cg, G) && near(cb, B) {
				return true
			}
		}
	}
	return false
}
