package render

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestToolchainKey(t *testing.T) {
	base := Toolchain{LibreOffice: "LibreOffice 7.4.7.2", Rasterizer: "pdftoppm 22.12.0", DPI: 100, Fonts: "abc"}
	same := base
	if same.Key() != base.Key() || len(base.Key()) != 16 {
		t.Fatalf("Key not stable or not 16 hex digits: %q", base.Key())
	}
	changes := []func(*Toolchain){
		func(t *Toolchain) { t.LibreOffice = "LibreOffice 7.5" },
		func(t *Toolchain) { t.Rasterizer = "mutool 1.21.1" },
		func(t *Toolchain) { t.DPI = 150 },
		func(t *Toolchain) { t.Fonts = "abd" },
	}
	for i, ch := range changes {
		c := base
		ch(&c)
		if c.Key() == base.Key() {
			t.Errorf("change %d did not change the key", i)
		}
	}
}

// TestFontsHash: the hash changes when a font file is added or changes
// size, not when a non-font file appears.
func TestFontsHash(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	write := func(name string, n int) {
		if err := os.WriteFile(filepath.Join(dir, name), make([]byte, n), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("a.ttf", 10)
	h1, n1, err := FontsHash(ctx, []string{dir, filepath.Join(dir, "missing")})
	if err != nil || n1 != 1 {
		t.Fatalf("FontsHash: %v, %d files", err, n1)
	}
	write("readme.txt", 5)
	if h, _, _ := FontsHash(ctx, []string{dir}); h != h1 {
		t.Errorf("a non-font file changed the hash")
	}
	write("b.OTF", 3)
	h2, n2, _ := FontsHash(ctx, []string{dir})
	if h2 == h1 || n2 != 2 {
		t.Errorf("adding a font: hash %s→%s, %d files", h1, h2, n2)
	}
	write("a.ttf", 11)
	if h3, _, _ := FontsHash(ctx, []string{dir}); h3 == h2 {
		t.Errorf("a font changing size did not change the hash")
	}
}

// TestInstalledToolchain: the fingerprint `editaudit --version` prints
// without starting LibreOffice is the one a started Renderer gives, so its
// key is the key audits made here carry.
func TestInstalledToolchain(t *testing.T) {
	requireSoffice(t)
	ctx := context.Background()
	got, err := InstalledToolchain(ctx, 0)
	if err != nil {
		t.Fatal(err)
	}
	r, err := New(ctx, Config{Converter: newTestPool(t, PoolOptions{Workers: 1})})
	if err != nil {
		t.Fatal(err)
	}
	want := r.Toolchain(ctx)
	if got.Key() != want.Key() || got.LibreOffice == "" || got.Fonts == "" || got.Profile == "" {
		t.Errorf("installed %+v\nrenderer  %+v", got, want)
	}
	// Which converter New would start is not known without starting it.
	if want.Engine = ""; got != want {
		t.Errorf("installed %+v\nrenderer  %+v (engine aside)", got, want)
	}
	t.Setenv("PATH", t.TempDir())
	if _, err := InstalledToolchain(ctx, 0); !errors.Is(err, ErrNoRenderer) {
		t.Errorf("without LibreOffice: %v", err)
	}
}
