package mutate_test

import (
	"archive/zip"
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/editaudit/editaudit/internal/testdoc"
	"github.com/editaudit/editaudit/mutate"
)

// TestMutationsOnRealFiles runs every injector over the real corpus
// (EDITAUDIT_CORPUS: skipped without it, failed under CI): an injector
// either applies or says ErrNotApplicable, never fails otherwise, and its
// output is a readable zip in which every entry it did not change is
// byte-identical.
// The audit-level recall over these files is the corpus matrix's job.
func TestMutationsOnRealFiles(t *testing.T) {
	root := testdoc.Corpus(t)
	var files []string
	for _, d := range []string{"docx", "pptx", "xlsx", "hwpx"} {
		files = append(files, testdoc.CorpusGlob(t, d+"/*")...)
	}
	if len(files) == 0 {
		t.Fatalf("no files under %s", root)
	}
	start := time.Now()
	applied := map[string]int{}
	for _, f := range files {
		in, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range mutate.Mutations() {
			a, err := mutate.Apply(m.Kind, in)
			if errors.Is(err, mutate.ErrNotApplicable) {
				continue
			}
			if err != nil {
				t.Errorf("%s × %s: %v", m.Kind, filepath.Base(f), err)
				continue
			}
			applied[m.Kind]++
			zr, err := zip.NewReader(bytes.NewReader(a.Data), int64(len(a.Data)))
			if err != nil {
				t.Errorf("%s × %s: output is not a zip: %v", m.Kind, filepath.Base(f), err)
				continue
			}
			if m.Kind == "zip.repacked" {
				continue
			}
			rawIn, filesIn := rawEntries(t, in)
			crc := map[string]uint32{}
			for _, zf := range filesIn {
				crc[zf.Name] = zf.CRC32
			}
			rawOut, _ := rawEntries(t, a.Data)
			for _, zf := range zr.File {
				c, ok := crc[zf.Name]
				switch {
				case !ok:
					t.Errorf("%s × %s: new entry %s", m.Kind, filepath.Base(f), zf.Name)
				case c == zf.CRC32 && !bytes.Equal(rawIn[zf.Name], rawOut[zf.Name]):
					t.Errorf("%s × %s: unchanged entry %s was rewritten", m.Kind, filepath.Base(f), zf.Name)
				}
			}
		}
	}
	for _, m := range mutate.Mutations() {
		if applied[m.Kind] == 0 {
			t.Errorf("%s applied to no real file", m.Kind)
		}
	}
	t.Logf("%d files; applications per kind %v; %v", len(files), applied, time.Since(start).Round(time.Millisecond))
}
