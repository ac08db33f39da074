package inspect

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/editaudit/editaudit/formats"
	"github.com/editaudit/editaudit/internal/testdoc"
)

// corpusDir returns $EDITAUDIT_CORPUS: a skip without it, a failure under CI.
func corpusDir(t *testing.T) string {
	t.Helper()
	return testdoc.Corpus(t)
}

// TestCorpusHealthy: every real file in the format folders inspects without
// error, and none of them is fatal (they all open in their application).
func TestCorpusHealthy(t *testing.T) {
	dir := corpusDir(t)
	for _, sub := range []string{"docx", "pptx", "xlsx", "hwpx"} {
		files := testdoc.CorpusGlob(t, sub+"/*")
		if len(files) == 0 {
			t.Fatalf("no files in %s/%s", dir, sub)
		}
		for _, f := range files {
			rep, err := File(context.Background(), f, Options{})
			if err != nil {
				t.Errorf("%s: %v", f, err)
				continue
			}
			if string(rep.Format) != sub {
				t.Errorf("%s: detected %s", filepath.Base(f), rep.Format)
			}
			for _, fd := range rep.Findings {
				if fd.Grade == formats.Fatal {
					t.Errorf("%s: healthy file has a fatal finding: %s", filepath.Base(f), fd)
				}
			}
		}
	}
}

// TestCorpusBroken: every file in broken/ gets at least one finding that
// names what is wrong; the hard-broken ones are fatal.
func TestCorpusBroken(t *testing.T) {
	want := map[string]string{ // file → a code that must be among the findings
		"openpyxl_null_file.xlsx":          formats.CodeZipEmpty,
		"excelize_encryptAES.xlsx":         formats.CodeZipEncrypted,
		"oxsdk_encrypted_pptx.pptx":        formats.CodeZipEncrypted,
		"poi_truncated62886.docx":          formats.CodeZipTruncated,
		"poi_fuzz-docx-badcentraldir.docx": formats.CodeZipCentralDir,
		"poi_fuzz-docx-crc.docx":           formats.CodeZipCRC,
		"poi_fuzz-xlsx-crc.xlsx":           formats.CodeZipCRC,
		"openpyxl_null_archive.xlsx":       formats.CodeCTMissing,
		"poi_xlsx-corrupted.xlsx":          formats.CodeXMLNotWellFormed,
		"poi_duplicate-filename.xlsx":      formats.CodeZipDuplicate,
		"poi_ExternalEntityInText.docx":    formats.CodeXMLDoctype,
		"poi_poc-xmlbomb.xlsx":             formats.CodeXMLDoctype,
		"oxsdk_InvalidDocProps.docx":       formats.CodeRelsTargetMissing,
		"oxsdk_missingcalcchainpart.xlsx":  formats.CodeRelsTargetMissing,
		"poi_49609.xlsx":                   formats.CodeZipEntryName,
		"oxsdk_5Errors.docx":               "docx.comment-undefined",
	}
	// Not fatal: relationships to a missing image that nothing uses (Word
	// ignores them, python-docx#1219; docs/validation.md).
	notFatal := map[string]bool{"poi_60316b.dotx": true}
	files := testdoc.CorpusGlob(t, "broken/*")
	for _, f := range files {
		base := filepath.Base(f)
		rep, err := File(context.Background(), f, Options{})
		if err != nil {
			t.Errorf("%s: %v", base, err)
			continue
		}
		if notFatal[base] && rep.Fatal() {
			t.Errorf("%s: fatal, but its only defects are unused relationships: %v", base, rep.Findings)
		}
		code, hard := want[base]
		if !hard {
			continue
		}
		found := false
		for _, fd := range rep.Findings {
			if fd.Code == code && fd.Grade == formats.Fatal && strings.TrimSpace(fd.Message) != "" {
				found = true
			}
		}
		if !found {
			t.Errorf("%s: no fatal %s among %v", base, code, rep.Findings)
		}
	}
}
