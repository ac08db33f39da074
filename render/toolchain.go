package render

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/editaudit/editaudit/formats/hwpx/convert"
)

// Toolchain identifies everything that affects rendered pixels. It goes into
// every cache key and every report: two renders are comparable only when
// their toolchains are equal. LibreOffice and the rasterizer are identified
// by their version strings; Fonts is a hash of the installed font files
// (path and size), because a font added or removed changes text layout.
// Engine says which converter drove LibreOffice (EngineWarm or
// EngineBatch); it is reported but kept out of Key, because both load and
// export a document with the same arguments and give the same pixels
// (TestWarmMatchesBatch), so a baseline made by one serves the other.
type Toolchain struct {
	LibreOffice string `json:"libreoffice"`
	Rasterizer  string `json:"rasterizer"`
	DPI         int    `json:"dpi"`
	Fonts       string `json:"fonts"`
	// Profile is ProfileKey: the LibreOffice settings and the staging
	// rewrite every converter applies ("" without a converter).
	Profile string `json:"profile,omitempty"`
	Engine  string `json:"engine,omitempty"`
	// HWPX is the version of editaudit's HWPX → ODT converter
	// (formats/hwpx/convert.Version): Hangul pages laid out by different
	// converter versions are never compared.
	HWPX string `json:"hwpx,omitempty"`
}

// Key returns a stable short hash (16 hex digits) of the toolchain, for cache
// keys. Equal toolchains give equal keys; any field change but Engine
// gives a new key.
func (t Toolchain) Key() string {
	t.Engine = ""
	b, _ := json.Marshal(t) // a struct of strings and an int cannot fail
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:8])
}

// String is a one-line description for logs and reports.
func (t Toolchain) String() string {
	s := fmt.Sprintf("%s; %s; %d dpi; fonts %s", t.LibreOffice, t.Rasterizer, t.DPI, t.Fonts)
	if t.HWPX != "" {
		s += "; " + t.HWPX
	}
	if t.Profile != "" {
		s += "; profile " + t.Profile
	}
	if t.Engine != "" {
		s += "; " + t.Engine + " converter"
	}
	return s
}

// ToolchainOf fingerprints a converter and a rasterizer at dpi without
// converting anything: it asks both their versions and hashes the font
// folders. Either may be nil (its field stays ""): a caller that refuses a
// document before starting LibreOffice still names the rasterizer and the
// fonts.
func ToolchainOf(ctx context.Context, c Converter, rz Rasterizer, dpi int) Toolchain {
	return toolchainOf(ctx, c, rz, dpi, "")
}

// toolchainOf is ToolchainOf remembering the rasterizer's version in
// cacheDir ("" none) per binary.
func toolchainOf(ctx context.Context, c Converter, rz Rasterizer, dpi int, cacheDir string) Toolchain {
	tc := Toolchain{DPI: dpi, HWPX: convert.Version}
	var progDir string
	if c != nil {
		tc.LibreOffice = c.Version(ctx)
		progDir = c.ProgramDir()
		tc.Profile = ProfileKey()
		if e, ok := c.(interface{ Engine() string }); ok {
			tc.Engine = e.Engine()
		}
	}
	if rz != nil {
		v := toolVersion(cacheDir, rasterizerBinary(rz), func() string { return rz.Version(ctx) })
		tc.Rasterizer = strings.TrimSpace(rz.Name() + " " + v)
	}
	if h, _, err := FontsHash(ctx, FontDirs(progDir)); err == nil {
		tc.Fonts = h
	}
	return tc
}

// rasterizerBinary is the program whose version a rasterizer reports ("" when
// unknown: then its version is not remembered).
func rasterizerBinary(rz Rasterizer) string {
	switch r := rz.(type) {
	case *Pdftoppm:
		return r.bin()
	case *Mutool:
		return r.bin()
	}
	return ""
}

// FontDirs returns the directories whose font files LibreOffice may use on
// this system: fontconfig's usual locations plus the fonts LibreOffice ships
// next to its program directory (programDir may be empty).
func FontDirs(programDir string) []string {
	dirs := []string{"/usr/share/fonts", "/usr/local/share/fonts"}
	if home, err := os.UserHomeDir(); err == nil {
		dirs = append(dirs, filepath.Join(home, ".fonts"), filepath.Join(home, ".local", "share", "fonts"))
	}
	if xdg := os.Getenv("XDG_DATA_HOME"); xdg != "" {
		dirs = append(dirs, filepath.Join(xdg, "fonts"))
	}
	if programDir != "" {
		dirs = append(dirs, filepath.Join(programDir, "..", "share", "fonts"))
	}
	return dirs
}

// fontExts are the file types fontconfig and LibreOffice load as fonts.
var fontExts = map[string]bool{
	".ttf": true, ".ttc": true, ".otf": true, ".otc": true, ".pfb": true,
	".pfa": true, ".pcf": true, ".woff": true, ".woff2": true, ".gz": true,
}

// FontsHash hashes the sorted list of font files (resolved path and size)
// found under dirs. Missing directories are skipped. It returns the first 16
// hex digits of a sha256 and the number of font files seen.
func FontsHash(ctx context.Context, dirs []string) (string, int, error) {
	seen := map[string]int64{}
	for _, d := range dirs {
		root, err := filepath.EvalSymlinks(d)
		if err != nil {
			continue // a missing directory holds no fonts
		}
		err = filepath.WalkDir(root, func(p string, de fs.DirEntry, err error) error {
			if err != nil {
				return nil // unreadable subtree: skip, like fontconfig does
			}
			if ctx.Err() != nil {
				return ctx.Err()
			}
			if de.IsDir() || !fontExts[strings.ToLower(filepath.Ext(p))] {
				return nil
			}
			info, err := os.Stat(p) // follows symlinked font files
			if err != nil || !info.Mode().IsRegular() {
				return nil
			}
			seen[p] = info.Size()
			return nil
		})
		if err != nil {
			return "", 0, err
		}
	}
	names := make([]string, 0, len(seen))
	for p := range seen {
		names = append(names, p)
	}
	sort.Strings(names)
	h := sha256.New()
	for _, p := range names {
		fmt.Fprintf(h, "%s\t%d\n", p, seen[p])
	}
	return hex.EncodeToString(h.Sum(nil)[:8]), len(names), nil
}

// InstalledToolchain fingerprints what New would render with here, at
// dpi, without starting LibreOffice as a converter: the LibreOffice on
// PATH (its --version), the default rasterizer and the fonts. Its Key is
// the one audits made here carry. A missing LibreOffice is ErrNoRenderer.
func InstalledToolchain(ctx context.Context, dpi int) (Toolchain, error) {
	exe, progDir, err := findSoffice("")
	if err != nil {
		return Toolchain{}, err
	}
	if dpi <= 0 {
		dpi = DefaultDPI
	}
	// The version a pool would read: from the cache entry of this
	// installation when there is one, else asked on a throwaway profile.
	cache := defaultCacheDir()
	version := ""
	if cache != "" {
		if inst, ok := readInstallation(filepath.Join(cache, installKey(exe, progDir))); ok {
			version = inst.version
		}
	}
	if version == "" {
		dir, err := os.MkdirTemp("", "editaudit-version-*")
		if err != nil {
			return Toolchain{}, fmt.Errorf("render: %w", err)
		}
		defer os.RemoveAll(dir)
		version = sofficeVersion(ctx, exe, filepath.Join(dir, "profile"))
	}
	tc := toolchainOf(ctx, &Pool{exe: exe, progDir: progDir, version: version}, DefaultRasterizer(), dpi, cache)
	tc.Engine = "" // which converter New starts is not known without starting it (and not part of Key)
	return tc, nil
}
