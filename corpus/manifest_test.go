package corpus

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/editaudit/editaudit/corpus/results"
)

func TestParseManifest(t *testing.T) {
	base := filepath.FromSlash("/data/m")
	abs := func(p string) string { return filepath.Join(base, filepath.FromSlash(p)) }
	tests := []struct {
		name, format, in string
		want             []Pair
		err              string // substring of the error; "" means no error
	}{
		{name: "csv with all columns", format: ManifestCSV,
			in:   "id,group,original,edited\na1,gpt,o/a.docx,e/a.docx\na2,claude,o/b.pptx,/abs/b.pptx\n",
			want: []Pair{{ID: "a1", Group: "gpt", Original: abs("o/a.docx"), Edited: abs("e/a.docx")}, {ID: "a2", Group: "claude", Original: abs("o/b.pptx"), Edited: "/abs/b.pptx"}}},
		{name: "csv default ids are data row numbers, comments and blank lines skipped, extra columns ignored", format: ManifestCSV,
			in:   "\ufeffOriginal , Edited,notes\n# a comment\nx.docx,y.docx,\"hello, world\"\n\nx.docx,z.docx,n\n",
			want: []Pair{{ID: "1", Original: abs("x.docx"), Edited: abs("y.docx")}, {ID: "2", Original: abs("x.docx"), Edited: abs("z.docx")}}},
		{name: "csv quoted path with comma", format: ManifestCSV,
			in:   "original,edited\n\"a, b.docx\",c.docx\n",
			want: []Pair{{ID: "1", Original: abs("a, b.docx"), Edited: abs("c.docx")}}},
		{name: "tsv literal quotes", format: ManifestTSV,
			in:   "edited\toriginal\tid\n\"e\".docx\to.docx\t7\n",
			want: []Pair{{ID: "7", Original: abs("o.docx"), Edited: abs(`"e".docx`)}}},
		{name: "jsonl numbers, strings, blank lines", format: ManifestJSONL,
			in:   "{\"original\":\"a.docx\",\"edited\":\"b.docx\",\"id\":12}\n\n{\"original\":\"a.docx\",\"edited\":\"c.docx\",\"group\":\"m\"}\n",
			want: []Pair{{ID: "12", Original: abs("a.docx"), Edited: abs("b.docx")}, {ID: "2", Group: "m", Original: abs("a.docx"), Edited: abs("c.docx")}}},
		{name: "csv header without edited", format: ManifestCSV, in: "original,id\na,1\n", err: "lacks an original or edited column"},
		{name: "csv empty", format: ManifestCSV, in: "", err: "empty"},
		{name: "csv duplicate header", format: ManifestCSV, in: "original,edited,edited\na,b,c\n", err: "appears twice"},
		{name: "csv missing edited value", format: ManifestCSV, in: "original,edited\na.docx,\n", err: "row 1: no edited"},
		{name: "duplicate ids", format: ManifestCSV, in: "id,original,edited\nx,a,b\nx,c,d\n", err: "row 2: id \"x\" is also the id of row 1"},
		{name: "explicit id colliding with a default id", format: ManifestCSV, in: "id,original,edited\n2,a,b\n,c,d\n", err: "also the id"},
		{name: "jsonl bad json", format: ManifestJSONL, in: "{\"original\":\"a\"\n", err: "line 1"},
		{name: "jsonl two values on a line", format: ManifestJSONL, in: "{\"original\":\"a\",\"edited\":\"b\"} {}\n", err: "more than one JSON value"},
		{name: "jsonl id of a bad type", format: ManifestJSONL, in: "{\"original\":\"a\",\"edited\":\"b\",\"id\":[1]}\n", err: "string or a number"},
		{name: "jsonl original not a string", format: ManifestJSONL, in: "{\"original\":3,\"edited\":\"b\"}\n", err: "line 1"},
		{name: "NUL in a path", format: ManifestJSONL, in: "{\"original\":\"a\\u0000\",\"edited\":\"b\"}\n", err: "NUL or line break"},
		{name: "unknown format", format: "xml", in: "", err: "unknown format"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseManifest(strings.NewReader(tc.in), tc.format, base)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) || !errors.Is(err, ErrManifest) {
					t.Fatalf("error %v, want ErrManifest containing %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got  %+v\nwant %+v", got, tc.want)
			}
		})
	}
}

func TestManifestFormatOf(t *testing.T) {
	tests := []struct{ name, head, want string }{
		{"pairs.csv", "{", ManifestCSV},
		{"pairs.TSV", "", ManifestTSV},
		{"pairs.ndjson", "", ManifestJSONL},
		{"pairs", "\ufeff  {\"original\":1}", ManifestJSONL},
		{"pairs", "original\tedited\n", ManifestTSV},
		{"pairs", "original,edited\na\tb,c\n", ManifestCSV},
	}
	for _, tc := range tests {
		if got := ManifestFormatOf(tc.name, []byte(tc.head)); got != tc.want {
			t.Errorf("%s %q: %s, want %s", tc.name, tc.head, got, tc.want)
		}
	}
}

func TestReadManifestResolvesAgainstItsFolder(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "sub", "list")
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(`{"original":"../a.docx","edited":"b.docx","id":"x"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := ReadManifest(p)
	if err != nil {
		t.Fatal(err)
	}
	want := []Pair{{ID: "x", Original: filepath.Join(dir, "a.docx"), Edited: filepath.Join(dir, "sub", "b.docx")}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v, want %+v", got, want)
	}
}

func TestPairDirs(t *testing.T) {
	root := t.TempDir()
	write := func(rel string) {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{"o/a.docx", "o/sub/b.pptx", "o/only-o.xlsx", "o/.hidden/x.docx", "o/.DS_Store",
		"e/a.docx", "e/sub/b.pptx", "e/sub/only-e.docx"} {
		write(f)
	}
	pairs, un, err := PairDirs(filepath.Join(root, "o"), filepath.Join(root, "e"))
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, p := range pairs {
		ids = append(ids, p.ID)
		if _, err := os.Stat(p.Original); err != nil {
			t.Error(err)
		}
		if _, err := os.Stat(p.Edited); err != nil {
			t.Error(err)
		}
	}
	if !reflect.DeepEqual(ids, []string{"a.docx", "sub/b.pptx"}) {
		t.Errorf("ids %v", ids)
	}
	if !reflect.DeepEqual(un, results.Unpaired{OriginalsOnly: []string{"only-o.xlsx"}, EditedOnly: []string{"sub/only-e.docx"}}) {
		t.Errorf("unpaired %+v", un)
	}
	if _, _, err := PairDirs(filepath.Join(root, "o", "a.docx"), root); err == nil {
		t.Error("a file as the originals folder: no error")
	}
}

func TestPairDir(t *testing.T) {
	tests := []struct{ id, want string }{
		{"17", "pairs/17"},
		{"run-3_a.b", "pairs/run-3_a.b"},
		{"sub/b.pptx", "pairs/sub_b.pptx~"},
		{"..", "pairs/~"},
		{".hidden", "pairs/hidden~"},
		{"계약서", "pairs/___~"},
	}
	seen := map[string]string{}
	for _, tc := range tests {
		got := PairDir(tc.id)
		if !strings.HasPrefix(got, tc.want) {
			t.Errorf("PairDir(%q) = %q, want prefix %q", tc.id, got, tc.want)
		}
		if prev, dup := seen[got]; dup {
			t.Errorf("%q and %q share %s", prev, tc.id, got)
		}
		seen[got] = tc.id
		rel := strings.TrimPrefix(got, "pairs/")
		if !filepath.IsLocal(rel) || strings.ContainsAny(rel, "/\\") {
			t.Errorf("PairDir(%q) = %q is not one local name", tc.id, got)
		}
	}
	// Two ids that sanitise alike still get different folders.
	if PairDir("a/b") == PairDir("a_b") || PairDir("a/b") == PairDir("a\\b") {
		t.Error("sanitised ids collide")
	}
}

func TestShard(t *testing.T) {
	if _, err := ParseShard("3/2"); err == nil {
		t.Error("3/2 accepted")
	}
	for _, bad := range []string{"1", "0/3", "a/b", "1/0", "-1/3"} {
		if _, err := ParseShard(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	var pairs []Pair
	for i := range 300 {
		pairs = append(pairs, Pair{ID: "p" + string(rune('a'+i%26)) + strings.Repeat("x", i/26)})
	}
	seen := map[string]int{}
	for k := 1; k <= 3; k++ {
		s, err := ParseShard(strings.Join([]string{string(rune('0' + k)), "3"}, "/"))
		if err != nil {
			t.Fatal(err)
		}
		sel := s.Select(pairs)
		if len(sel) < 70 || len(sel) > 130 {
			t.Errorf("shard %s holds %d of 300 pairs", s, len(sel))
		}
		for _, p := range sel {
			seen[p.ID]++
		}
	}
	if len(seen) != len(pairs) {
		t.Errorf("shards cover %d of %d pairs", len(seen), len(pairs))
	}
	for id, n := range seen {
		if n != 1 {
			t.Errorf("%s in %d shards", id, n)
		}
	}
}

// FuzzParseManifest: no input panics, and every accepted manifest gives
// pairs with unique, non-empty ids and both paths.
func FuzzParseManifest(f *testing.F) {
	seeds := []string{
		"id,group,original,edited\na1,gpt,o/a.docx,e/a.docx\n",
		"original,edited\n\"a, b.docx\",c.docx\n# c\n\n",
		"\ufefforiginal\tedited\tid\n\"x\ty\tz\n",
		"{\"original\":\"a.docx\",\"edited\":\"b.docx\",\"id\":12}\n{\"original\":\"a\",\"edited\":\"c\",\"group\":\"m\"}\n",
		"{\"original\":\"a\",\"edited\":\"b\",\"id\":1e400}\n",
		"original,edited\n\"unterminated\n",
		"id,original,edited\n2,a,b\n,c,d\n",
	}
	for _, s := range seeds {
		for _, format := range []string{ManifestCSV, ManifestTSV, ManifestJSONL} {
			f.Add(s, format)
		}
	}
	f.Fuzz(func(t *testing.T, in, format string) {
		pairs, err := ParseManifest(strings.NewReader(in), format, "base")
		if err != nil {
			if !errors.Is(err, ErrManifest) {
				t.Fatalf("error not ErrManifest: %v", err)
			}
			return
		}
		ids := map[string]bool{}
		for _, p := range pairs {
			if p.ID == "" || p.Original == "" || p.Edited == "" {
				t.Fatalf("incomplete pair %+v", p)
			}
			if ids[p.ID] {
				t.Fatalf("duplicate id %q", p.ID)
			}
			ids[p.ID] = true
			if d := PairDir(p.ID); !filepath.IsLocal(filepath.FromSlash(d)) {
				t.Fatalf("PairDir(%q) = %q leaves the run folder", p.ID, d)
			}
		}
	})
}
