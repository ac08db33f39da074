package layout

import (
	"flag"
	"go/build"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/editaudit/editaudit/internal/testdoc"
)

var update = flag.Bool("update", false, "rewrite the table of imports in docs/architecture.md")

const (
	module = "github.com/editaudit/editaudit"
	root   = "../.."
)

// forbidden is what each package must not import, as its doc comment
// says: a package path relative to the module ("corpus": that package;
// "corpus/...": it and every package under it; "*": every editaudit
// package). testOnly packages are refused to every non-test import.
var (
	forbidden = map[string][]string{
		"formats":              {"formats/inspect", "content", "pixeldiff", "render", "baseline", "audit", "reports", "corpus/...", "synth/...", "mutate", "cmd/..."},
		"formats/docx":         {"formats/inspect", "content", "pixeldiff", "render", "baseline", "audit", "reports", "corpus/..."},
		"formats/pptx":         {"formats/inspect", "content", "pixeldiff", "render", "baseline", "audit", "reports", "corpus/..."},
		"formats/xlsx":         {"formats/inspect", "content", "pixeldiff", "render", "baseline", "audit", "reports", "corpus/..."},
		"formats/hwpx":         {"formats/inspect", "content", "pixeldiff", "render", "baseline", "audit", "reports", "corpus/..."},
		"formats/hwpx/convert": {"pixeldiff", "render", "baseline", "audit", "reports", "corpus/..."},
		"formats/inspect":      {"content", "pixeldiff", "render", "baseline", "audit", "reports", "corpus/..."},
		"content":              {"audit", "reports", "pixeldiff", "render", "baseline", "corpus/..."},
		"pixeldiff":            {"render", "formats/...", "baseline", "audit", "reports"},
		"render":               {"formats", "formats/inspect", "baseline", "audit", "reports", "corpus/..."},
		"baseline":             {"audit", "reports", "corpus/..."},
		"audit":                {"reports", "corpus/...", "cmd/..."},
		"reports":              {"render", "baseline", "corpus", "cmd/..."},
		"corpus/results":       {"corpus", "reports", "baseline", "pixeldiff", "render", "synth/...", "mutate"},
		"corpus":               {"synth/...", "mutate"},
		"synth":                {"audit", "baseline", "pixeldiff", "reports", "corpus/...", "mutate"},
		"mutate":               {"audit", "baseline", "pixeldiff", "render", "reports", "corpus/...", "synth/..."},
		"mcp":                  {"serve", "corpus/...", "mutate", "cmd/..."},
		"internal/fsutil":      {"*"},
		"internal/ctxio":       {"*"},
		"internal/plural":      {"*"},
		"internal/httpauth":    {"*"},
		"internal/testdoc":     {"*"},
		"internal/layout":      {"*"},
	}
	testOnly = []string{"internal/testdoc", "synth/synthtest"}
	// importedOnlyBy: the packages only the listed ones may import (the
	// drivers: nothing builds on them but the command).
	importedOnlyBy = map[string][]string{"mcp": {"cmd/editaudit"}}
)

type pkg struct {
	rel     string   // path relative to the module: "corpus/results"
	imports []string // the editaudit packages it imports (not in tests), relative
	doc     string   // the package doc comment
}

// load reads every package of the module (go/build for the imports of
// the non-test files, go/parser for the doc comment).
func load(t *testing.T) []pkg {
	t.Helper()
	var out []pkg
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		if n := d.Name(); p != root && (strings.HasPrefix(n, ".") || n == "testdata") {
			return filepath.SkipDir
		}
		if _, err := os.Stat(filepath.Join(p, "go.mod")); err == nil && p != root {
			return filepath.SkipDir // a module of its own (deploy/k8scheck)
		}
		bp, err := build.ImportDir(p, 0)
		if err != nil {
			if _, ok := err.(*build.NoGoError); ok {
				return nil
			}
			return err
		}
		if len(bp.GoFiles) == 0 {
			return nil // tests only (deploy): imported by nothing
		}
		rel, _ := filepath.Rel(root, p)
		k := pkg{rel: filepath.ToSlash(rel)}
		for _, imp := range bp.Imports {
			if r, ok := strings.CutPrefix(imp, module+"/"); ok {
				k.imports = append(k.imports, r)
			}
		}
		fset := token.NewFileSet()
		for _, f := range bp.GoFiles {
			af, err := parser.ParseFile(fset, filepath.Join(p, f), nil, parser.PackageClauseOnly|parser.ParseComments)
			if err != nil {
				return err
			}
			if af.Doc != nil {
				k.doc += af.Doc.Text()
			}
		}
		out = append(out, k)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(out) < 10 {
		t.Fatalf("only %d packages found under %s", len(out), root)
	}
	return out
}

// matches reports whether the package rel is what rule names.
func matches(rule, rel string) bool {
	switch {
	case rule == "*":
		return true
	case strings.HasSuffix(rule, "/..."):
		base := strings.TrimSuffix(rule, "/...")
		return rel == base || strings.HasPrefix(rel, base+"/")
	}
	return rel == rule
}

// TestImports: no package imports what its rule forbids, and the test
// helpers are imported by tests only.
func TestImports(t *testing.T) {
	for _, p := range load(t) {
		for _, imp := range p.imports {
			for _, rule := range forbidden[p.rel] {
				if matches(rule, imp) {
					t.Errorf("%s imports %s, which its doc comment forbids (%s)", p.rel, imp, rule)
				}
			}
			for _, to := range testOnly {
				if imp == to {
					t.Errorf("%s imports %s outside its tests", p.rel, imp)
				}
			}
			if allowed, ok := importedOnlyBy[imp]; ok && !slices.Contains(allowed, p.rel) {
				t.Errorf("%s imports %s, which only %s may import", p.rel, imp, strings.Join(allowed, ", "))
			}
		}
	}
}

// TestDocsSayImports: every package's doc comment says what it must not
// import (or that it imports no editaudit package), and names every
// package its rule forbids.
func TestDocsSayImports(t *testing.T) {
	for _, p := range load(t) {
		doc := strings.Join(strings.Fields(p.doc), " ")
		if doc == "" {
			t.Errorf("%s has no doc comment", p.rel)
			continue
		}
		if !strings.Contains(doc, "must not import") && !strings.Contains(doc, "no editaudit package") {
			t.Errorf("%s: the doc comment does not say what it must not import", p.rel)
		}
		for _, rule := range forbidden[p.rel] {
			name := strings.TrimSuffix(rule, "/...")
			if rule == "*" {
				if !strings.Contains(doc, "no editaudit package") && !strings.Contains(doc, "any editaudit package") {
					t.Errorf("%s: the doc comment does not say it imports no editaudit package", p.rel)
				}
				continue
			}
			if !containsWord(doc, name) {
				t.Errorf("%s: the doc comment does not name %s, which it must not import", p.rel, name)
			}
		}
	}
}

// containsWord reports whether s holds name not as part of a longer path
// or word ("corpus" is not in "corpus/results").
func containsWord(s, name string) bool {
	for i := 0; ; {
		j := strings.Index(s[i:], name)
		if j < 0 {
			return false
		}
		a, b := i+j, i+j+len(name)
		before := a == 0 || !wordByte(s[a-1])
		after := b == len(s) || !wordByte(s[b]) && s[b] != '/'
		if before && after {
			return true
		}
		i = a + 1
	}
}

func wordByte(c byte) bool {
	return c == '_' || c == '/' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

const (
	archDoc     = root + "/docs/architecture.md"
	tablesBegin = "<!-- imports:begin (generated by go test ./internal/layout -update; edit the code, not this) -->"
	tablesEnd   = "<!-- imports:end -->"
)

// importTable is docs/architecture.md's table: each package and the editaudit
// packages it imports.
func importTable(ps []pkg) string {
	sort.Slice(ps, func(i, j int) bool { return ps[i].rel < ps[j].rel })
	var b strings.Builder
	b.WriteString("| package | imports (of editaudit) |\n|---|---|\n")
	for _, p := range ps {
		imps := append([]string(nil), p.imports...)
		sort.Strings(imps)
		for i := range imps {
			imps[i] = "`" + imps[i] + "`"
		}
		list := strings.Join(imps, ", ")
		if list == "" {
			list = "—"
		}
		b.WriteString("| `" + p.rel + "` | " + list + " |\n")
	}
	return b.String()
}

// TestLayoutTable: the table of imports in docs/architecture.md is the
// code's.
func TestLayoutTable(t *testing.T) {
	testdoc.Generated(t, archDoc, tablesBegin, tablesEnd, "\n"+importTable(load(t)), *update)
}
