package content

import (
	"context"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/editaudit/editaudit/internal/testdoc"
)

// corpusBytes reads a real corpus file.
func corpusBytes(t testing.TB, rel string) []byte {
	t.Helper()
	data, err := os.ReadFile(testdoc.CorpusFile(t, rel))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func diffBytes(t testing.TB, a, b []byte) *Result {
	t.Helper()
	r, err := Bytes(context.Background(), a, b, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// only asserts that r is ok and holds exactly one change, and returns it.
func only(t testing.TB, r *Result) Change {
	t.Helper()
	if r.Status != StatusOK {
		t.Fatalf("status %s (%s), want ok", r.Status, r.Message)
	}
	if len(r.Changes) != 1 || r.Truncated != 0 {
		t.Fatalf("got %d changes (+%d truncated), want exactly 1: %+v", len(r.Changes), r.Truncated, r.Changes)
	}
	return r.Changes[0]
}

var (
	startTag = regexp.MustCompile(`<([A-Za-z_][\w.\-]*(?::[\w.\-]+)?)((?:\s+[\w.\-]+(?::[\w.\-]+)?\s*=\s*(?:"[^"]*"|'[^']*'))+)(\s*/?)>`)
	attr     = regexp.MustCompile(`\s+[\w.\-]+(?::[\w.\-]+)?\s*=\s*(?:"[^"]*"|'[^']*')`)
)

// reverseAttributes writes every start tag's attributes in reverse order
// (namespace declarations included): the same XML.
func reverseAttributes(s string) string {
	return startTag.ReplaceAllStringFunc(s, func(tag string) string {
		m := startTag.FindStringSubmatch(tag)
		as := attr.FindAllString(m[2], -1)
		for i, j := 0, len(as)-1; i < j; i, j = i+1, j-1 {
			as[i], as[j] = as[j], as[i]
		}
		return "<" + m[1] + strings.Join(as, "") + m[3] + ">"
	})
}

var rsid = regexp.MustCompile(`(w:rsid\w*)="[0-9A-Fa-f]{8}"`)

// wordNoise rewrites what Word changes on every save without changing the
// document: rsid values, and proofing marks before runs.
func wordNoise(s string) string {
	s = rsid.ReplaceAllString(s, `$1="00ABCDEF"`)
	return strings.ReplaceAll(s, "<w:r>", `<w:proofErr w:type="spellStart"/><w:r>`)
}
