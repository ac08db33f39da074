package render

import (
	"archive/zip"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/editaudit/editaudit/internal/fsutil"
)

// Extensions LibreOffice imports, grouped by the application that renders
// them. The extension of a staged copy tells LibreOffice's type detection
// where to start; it still checks the content.
var (
	writerExts  = []string{".docx", ".docm", ".dotx", ".dotm", ".doc", ".dot", ".rtf", ".odt", ".ott", ".fodt", ".txt", ".html", ".htm"}
	calcExts    = []string{".xlsx", ".xlsm", ".xltx", ".xltm", ".xls", ".xlt", ".ods", ".ots", ".fods", ".csv"}
	impressExts = []string{".pptx", ".pptm", ".potx", ".potm", ".ppsx", ".ppsm", ".ppt", ".pps", ".pot", ".odp", ".otp", ".fodp", ".odg"}
)

// ooxmlFamily maps an OOXML package's main folder to its extensions; the
// first one is the canonical extension used when the file's own extension
// is missing or belongs to another family.
var ooxmlFamily = map[string][]string{
	"word/": {".docx", ".docm", ".dotx", ".dotm"},
	"ppt/":  {".pptx", ".pptm", ".potx", ".potm", ".ppsx", ".ppsm"},
	"xl/":   {".xlsx", ".xlsm", ".xltx", ".xltm"},
}

// odfMime maps an ODF package's mimetype entry (ODF 1.2 part 3, §3.3) to
// its extension.
var odfMime = map[string]string{
	"application/vnd.oasis.opendocument.text":                  ".odt",
	"application/vnd.oasis.opendocument.text-template":         ".ott",
	"application/vnd.oasis.opendocument.spreadsheet":           ".ods",
	"application/vnd.oasis.opendocument.spreadsheet-template":  ".ots",
	"application/vnd.oasis.opendocument.presentation":          ".odp",
	"application/vnd.oasis.opendocument.presentation-template": ".otp",
	"application/vnd.oasis.opendocument.graphics":              ".odg",
}

// hwpxMime is the mimetype entry of an OWPML (HWPX) package (KS X 6101).
// LibreOffice 7.x has no HWPX import filter: DetectFormat names such a
// file hwpxExt, the Renderer converts it first (hwpx.go) and the Pool
// refuses it.
const (
	hwpxMime = "application/hwp+zip"
	hwpxExt  = ".hwpx"
)

func knownExt(ext string) bool {
	for _, l := range [][]string{writerExts, calcExts, impressExts} {
		for _, e := range l {
			if e == ext {
				return true
			}
		}
	}
	return false
}

// DetectFormat returns the extension under which path is handed to
// LibreOffice. The file's own extension is used when it agrees with the
// content; a zip package is sniffed (word/ → .docx, ppt/ → .pptx, xl/ →
// .xlsx, an ODF mimetype → its extension) so a missing or wrong extension
// does not matter. A Hangul package gives ".hwpx" (the Renderer converts
// it before LibreOffice sees it); content that is neither a known package
// nor carries a known extension gives ErrUnsupported.
func DetectFormat(path string) (string, error) {
	ext := strings.ToLower(filepath.Ext(path))
	f, info, err := fsutil.OpenRegular(path) // a FIFO is refused before it could block the open
	if errors.Is(err, fsutil.ErrNotRegular) {
		return "", fmt.Errorf("%w: %w", ErrUnsupported, err)
	}
	if err != nil {
		return "", err
	}
	defer f.Close()
	var magic [4]byte
	n, _ := io.ReadFull(f, magic[:])
	if n == 4 && bytes.Equal(magic[:], []byte("PK\x03\x04")) {
		if sniffed, err := sniffZip(f, info.Size(), ext); err != nil {
			return "", fmt.Errorf("%s: %w", filepath.Base(path), err)
		} else if sniffed != "" {
			return sniffed, nil
		}
	}
	if knownExt(ext) || ext == hwpxExt {
		return ext, nil
	}
	return "", fmt.Errorf("%w: %s: unrecognised document type", ErrUnsupported, filepath.Base(path))
}

// sniffZip names the package type of a zip, or "" when the zip cannot be
// read or is of no known kind (the caller then trusts the extension and lets
// LibreOffice decide).
func sniffZip(f io.ReaderAt, size int64, ext string) (string, error) {
	zr, err := zip.NewReader(f, size)
	if err != nil {
		return "", nil // corrupt central directory: LibreOffice reports it
	}
	for _, zf := range zr.File {
		if zf.Name != "mimetype" || zf.UncompressedSize64 > 256 {
			continue
		}
		rc, err := zf.Open()
		if err != nil {
			break
		}
		b, _ := io.ReadAll(io.LimitReader(rc, 256))
		rc.Close()
		mt := strings.TrimSpace(string(b))
		if mt == hwpxMime {
			return hwpxExt, nil
		}
		if e, ok := odfMime[mt]; ok {
			return e, nil
		}
		break
	}
	for _, zf := range zr.File {
		for prefix, fam := range ooxmlFamily {
			if !strings.HasPrefix(zf.Name, prefix) {
				continue
			}
			for _, e := range fam {
				if e == ext {
					return ext, nil
				}
			}
			return fam[0], nil
		}
	}
	return "", nil
}

// stageCopy copies src to a new file in dir while hashing it, refusing
// inputs larger than maxBytes. It returns the temporary path and the
// hex sha256 of the content.
func stageCopy(src, dir string, maxBytes int64) (tmp, sum string, size int64, err error) {
	in, _, err := fsutil.OpenRegular(src)
	if err != nil {
		return "", "", 0, err
	}
	defer in.Close()
	out, err := os.CreateTemp(dir, "in-*.tmp")
	if err != nil {
		return "", "", 0, err
	}
	h := sha256.New()
	n, err := io.Copy(io.MultiWriter(out, h), io.LimitReader(in, maxBytes+1))
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err == nil && n > maxBytes {
		err = &RenderError{Doc: src, Reason: ReasonTooLarge, Detail: fmt.Sprintf("larger than the %d byte limit", maxBytes)}
	}
	if err != nil {
		os.Remove(out.Name())
		return "", "", 0, err
	}
	return out.Name(), hex.EncodeToString(h.Sum(nil)), n, nil
}
