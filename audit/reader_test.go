package audit

import (
	"os"
	"path/filepath"
	"testing"
)

// TestWriteTemp: an upload's name never names a file outside the temp
// folder; a name without a base name becomes "document".
func TestWriteTemp(t *testing.T) {
	for i, tc := range []struct{ name, want string }{
		{"contract.docx", "contract.docx"},
		{"../../etc/passwd.docx", "passwd.docx"},
		{"/abs/path/deck.pptx", "deck.pptx"},
		{"", "document"},
		{"/", "document"},
		{"..", "document"},
		{"a/b/..", "a"},
	} {
		dir := filepath.Join(t.TempDir(), "d")
		p, err := writeTemp(dir, tc.name, []byte("x"))
		if err != nil {
			t.Fatalf("%q: %v", tc.name, err)
		}
		if filepath.Dir(p) != dir || filepath.Base(p) != tc.want {
			t.Errorf("%d: %q written as %s, want %s", i, tc.name, p, filepath.Join(dir, tc.want))
		}
		if b, err := os.ReadFile(p); err != nil || string(b) != "x" {
			t.Errorf("%q: %v %q", tc.name, err, b)
		}
	}
}
