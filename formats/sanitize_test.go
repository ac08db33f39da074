package formats

import (
	"archive/zip"
	"bytes"
	"context"
	"io"
	"strings"
	"testing"

	"github.com/editaudit/editaudit/internal/testdoc"
)

func zipOf(t *testing.T, parts [][2]string) []byte {
	t.Helper()
	ps := make([]testdoc.Part, len(parts))
	for i, p := range parts {
		ps[i] = testdoc.Part{Name: p[0], Data: p[1]}
	}
	return testdoc.Zip(ps...)
}

func TestSanitize(t *testing.T) {
	in := zipOf(t, [][2]string{
		{"word/document.xml", "<a>x\x0by\n&#1;z&#x9;\xef\xbf\xbf</a>"},
		{"word/media/image1.png", "\x01\x02binary"},
		{"word/styles.xml", "<s/>"},
	})
	var out bytes.Buffer
	rs, err := Sanitize(context.Background(), bytes.NewReader(in), int64(len(in)), &out, DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	want := []Removal{{"word/document.xml", 1, 5, "U+000B"}, {"word/document.xml", 2, 1, "U+0001"}, {"word/document.xml", 2, 11, "U+FFFF"}}
	if len(rs) != len(want) {
		t.Fatalf("removals %+v", rs)
	}
	for i := range want {
		if rs[i] != want[i] {
			t.Errorf("removal %d = %+v, want %+v", i, rs[i], want[i])
		}
	}
	zr, err := zip.NewReader(bytes.NewReader(out.Bytes()), int64(out.Len()))
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, f := range zr.File {
		rc, _ := f.Open()
		b, _ := io.ReadAll(rc)
		got[f.Name] = string(b)
	}
	if got["word/document.xml"] != "<a>xy\nz&#x9;</a>" {
		t.Errorf("clean part %q", got["word/document.xml"])
	}
	if got["word/media/image1.png"] != "\x01\x02binary" {
		t.Errorf("binary part changed")
	}
	res := ScanXML("p", strings.NewReader(got["word/document.xml"]), DefaultLimits(), nil)
	if len(res.Findings) != 0 {
		t.Errorf("sanitized part still has findings: %v", res.Findings)
	}
}
