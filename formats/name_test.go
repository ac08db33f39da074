package formats

import (
	"encoding/json"
	"testing"
	"unicode/utf8"
)

// TestEscapeName: valid names are unchanged; invalid bytes become %XX (and
// % becomes %25 in such a name), so the name survives JSON exactly and two
// names that differ only in invalid bytes stay different.
func TestEscapeName(t *testing.T) {
	for in, want := range map[string]string{
		"contract.docx":           "contract.docx",
		"계약서 50%.docx":            "계약서 50%.docx",
		"caf\xe9.docx":            "caf%E9.docx",
		"caf\xe9 100%.docx":       "caf%E9 100%25.docx",
		"\xff\xfe":                "%FF%FE",
		"dir/\xc3\x28/\xe2\x82.x": "dir/%C3(/%E2%82.x",
	} {
		got := EscapeName(in)
		if got != want {
			t.Errorf("EscapeName(%q) = %q, want %q", in, got, want)
		}
		if !utf8.ValidString(got) {
			t.Errorf("%q is not valid UTF-8", got)
		}
		b, _ := json.Marshal(got)
		var back string
		if json.Unmarshal(b, &back) != nil || back != got {
			t.Errorf("%q does not survive JSON", got)
		}
	}
	if EscapeName("a\xe9") == EscapeName("a\xe8") {
		t.Error("two names differing in an invalid byte print the same")
	}
}
