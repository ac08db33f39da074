package render

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// TestDetectFormat: the staged extension comes from the name when it
// agrees with the content, from the content otherwise; HWPX and unknown
// content are unsupported.
func TestDetectFormat(t *testing.T) {
	dir := t.TempDir()
	odt := map[string]string{"mimetype": "application/vnd.oasis.opendocument.text", "content.xml": "<x/>"}
	hwpx := map[string]string{"mimetype": "application/hwp+zip", "Contents/section0.xml": "<x/>"}
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	tests := []struct {
		name    string
		path    string
		want    string
		wantErr error
	}{
		{"docx", writeZip(t, filepath.Join(dir, "a.docx"), docxParts([]string{"x"}), false), ".docx", nil},
		{"docm keeps its family extension", writeZip(t, filepath.Join(dir, "a.DOCM"), docxParts([]string{"x"}), false), ".docm", nil},
		{"docx named xlsx", writeZip(t, filepath.Join(dir, "b.xlsx"), docxParts([]string{"x"}), false), ".docx", nil},
		{"docx without extension", writeZip(t, filepath.Join(dir, "c"), docxParts([]string{"x"}), false), ".docx", nil},
		{"xlsx named .bin", writeZip(t, filepath.Join(dir, "d.bin"), xlsxParts([][]string{{"1"}}), false), ".xlsx", nil},
		{"pptx named docx", writeZip(t, filepath.Join(dir, "e.docx"), pptxParts("x"), false), ".pptx", nil},
		{"odt without extension", writeZip(t, filepath.Join(dir, "f"), odt, false), ".odt", nil},
		{"hwpx by content", writeZip(t, filepath.Join(dir, "g.zip"), hwpx, false), ".hwpx", nil},
		{"hwpx by name", write("h.hwpx", []byte("anything")), ".hwpx", nil},
		{"legacy doc by name", write("i.doc", []byte("\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1")), ".doc", nil},
		{"unknown binary", write("j.bin", []byte("\x00\x01\x02")), "", ErrUnsupported},
		{"corrupt zip trusts the name", write("k.docx", []byte("PK\x03\x04garbage")), ".docx", nil},
		{"empty file trusts the name", write("l.xlsx", nil), ".xlsx", nil},
		{"text", write("m.txt", []byte("hello")), ".txt", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := DetectFormat(tc.path)
			if tc.wantErr != nil {
				if !errors.Is(err, tc.wantErr) {
					t.Fatalf("DetectFormat = %q, %v; want %v", got, err, tc.wantErr)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Fatalf("DetectFormat = %q, %v; want %q", got, err, tc.want)
			}
		})
	}
	if _, err := DetectFormat(filepath.Join(dir, "missing.docx")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
	if _, err := DetectFormat(dir); !errors.Is(err, ErrUnsupported) {
		t.Errorf("directory: %v", err)
	}
}

// TestStageCopyLimit: inputs over MaxBytes are refused with ReasonTooLarge
// and leave no temp file.
func TestStageCopyLimit(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "big.txt")
	if err := os.WriteFile(src, make([]byte, 1000), 0o644); err != nil {
		t.Fatal(err)
	}
	stage := filepath.Join(dir, "stage")
	if err := os.Mkdir(stage, 0o700); err != nil {
		t.Fatal(err)
	}
	_, _, _, err := stageCopy(src, stage, 999)
	var re *RenderError
	if !errors.As(err, &re) || re.Reason != ReasonTooLarge {
		t.Errorf("stageCopy over the limit: %v", err)
	}
	tmp, sum, n, err := stageCopy(src, stage, 1000)
	if err != nil || n != 1000 || len(sum) != 64 {
		t.Fatalf("stageCopy at the limit: %v %d %q", err, n, sum)
	}
	os.Remove(tmp)
	if ents, _ := os.ReadDir(stage); len(ents) != 0 {
		t.Errorf("%d files left in the stage folder", len(ents))
	}
}
