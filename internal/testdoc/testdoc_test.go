package testdoc

import (
	"archive/zip"
	"bytes"
	"io"
	"testing"
)

func TestZipMapOrderAndMethod(t *testing.T) {
	data := ZipMap(map[string]string{
		"b.xml":               "<b/>",
		"[Content_Types].xml": "<Types/>",
		"a.xml":               "<a/>",
		"mimetype":            "application/hwp+zip",
	})
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range zr.File {
		names = append(names, f.Name)
	}
	want := []string{"mimetype", "[Content_Types].xml", "a.xml", "b.xml"}
	if len(names) != len(want) {
		t.Fatalf("names %v, want %v", names, want)
	}
	for i := range want {
		if names[i] != want[i] {
			t.Fatalf("names %v, want %v", names, want)
		}
	}
	if zr.File[0].Method != zip.Store || zr.File[2].Method != zip.Deflate {
		t.Errorf("methods: mimetype %d, a.xml %d; want stored, deflated", zr.File[0].Method, zr.File[2].Method)
	}
	rc, _ := zr.File[2].Open()
	b, _ := io.ReadAll(rc)
	if string(b) != "<a/>" {
		t.Errorf("a.xml = %q", b)
	}
}

func TestPairsKeepsOrderAndDuplicates(t *testing.T) {
	data := Pairs("x.xml", "1", "x.xml", "2")
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	if len(zr.File) != 2 {
		t.Fatalf("%d entries, want 2 (duplicates kept: tests build broken packages)", len(zr.File))
	}
}
