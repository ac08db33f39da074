// Package testdoc holds what the tests of every package need to build and
// find documents: zip packages from a map or a list of parts (and read
// back), a well-formedness check for XML parts, the real corpus folder (a
// failure under CI when it is missing, a skip elsewhere), the rule for
// tools a test needs (LibreOffice, mutool, Chromium), and Generated, which
// keeps a document the code writes (a table in a Markdown file) equal to
// the code.
//
// It is imported by _test.go files only. It must not import any editaudit
// package: the packages under test import it.
package testdoc

import (
	"archive/zip"
	"bytes"
	"encoding/xml"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// Part is one zip entry, written in the order given.
type Part struct {
	Name string
	Data string
	// Store writes the entry uncompressed (hwpx's mimetype is stored).
	Store bool
}

// Zip builds a zip of parts in the given order. It panics on an error of
// archive/zip (a test helper: the inputs are the test's own).
func Zip(parts ...Part) []byte {
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	for _, p := range parts {
		method := zip.Deflate
		if p.Store {
			method = zip.Store
		}
		w, err := zw.CreateHeader(&zip.FileHeader{Name: p.Name, Method: method})
		if err != nil {
			panic(err)
		}
		if _, err := w.Write([]byte(p.Data)); err != nil {
			panic(err)
		}
	}
	if err := zw.Close(); err != nil {
		panic(err)
	}
	return b.Bytes()
}

// ZipMap builds a zip from name → content, names sorted, except that
// "mimetype" (stored, as Hancom writes it) and "[Content_Types].xml" come
// first, where the applications write them.
func ZipMap(parts map[string]string) []byte {
	names := make([]string, 0, len(parts))
	for n := range parts {
		names = append(names, n)
	}
	sort.Slice(names, func(i, j int) bool {
		ri, rj := rank(names[i]), rank(names[j])
		if ri != rj {
			return ri < rj
		}
		return names[i] < names[j]
	})
	ps := make([]Part, len(names))
	for i, n := range names {
		ps[i] = Part{Name: n, Data: parts[n], Store: n == "mimetype"}
	}
	return Zip(ps...)
}

func rank(name string) int {
	switch name {
	case "mimetype":
		return 0
	case "[Content_Types].xml":
		return 1
	}
	return 2
}

// Pairs builds a zip from name, content, name, content… in that order.
func Pairs(nameContent ...string) []byte {
	if len(nameContent)%2 != 0 {
		panic("testdoc.Pairs: odd number of arguments")
	}
	ps := make([]Part, 0, len(nameContent)/2)
	for i := 0; i < len(nameContent); i += 2 {
		ps = append(ps, Part{Name: nameContent[i], Data: nameContent[i+1]})
	}
	return Zip(ps...)
}

// Entries reads every entry of a zip into memory in the archive's order,
// as Parts that Zip writes back the same way (a stored entry stays
// stored), failing the test when data is not a zip.
func Entries(tb testing.TB, data []byte) []Part {
	tb.Helper()
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		tb.Fatalf("not a zip: %v", err)
	}
	out := make([]Part, 0, len(zr.File))
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			tb.Fatal(err)
		}
		b, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			tb.Fatalf("%s: %v", f.Name, err)
		}
		out = append(out, Part{Name: f.Name, Data: string(b), Store: f.Method == zip.Store})
	}
	return out
}

// Unzip reads every entry of a zip into memory, failing the test when
// data is not a zip or holds one name twice.
func Unzip(tb testing.TB, data []byte) map[string][]byte {
	tb.Helper()
	out := map[string][]byte{}
	for _, p := range Entries(tb, data) {
		if _, dup := out[p.Name]; dup {
			tb.Errorf("duplicate entry %s", p.Name)
		}
		out[p.Name] = []byte(p.Data)
	}
	return out
}

// Edit returns a copy of the package data with the named parts passed
// through their functions, every entry kept in its order and with its
// compression method (stored or deflated). It fails the test when data is
// not a zip or lacks a named part.
func Edit(tb testing.TB, data []byte, edits map[string]func(string) string) []byte {
	tb.Helper()
	parts := Entries(tb, data)
	done := map[string]bool{}
	for i, p := range parts {
		if fn, ok := edits[p.Name]; ok {
			parts[i].Data = fn(p.Data)
			done[p.Name] = true
		}
	}
	for name := range edits {
		if !done[name] {
			tb.Fatalf("the package has no part %s", name)
		}
	}
	return Zip(parts...)
}

// Replacer returns an edit function (for Edit) that replaces each old by
// its new, in order (old, new, old, new…); each old must occur exactly
// once in the part at that point, or the test fails.
func Replacer(tb testing.TB, pairs ...string) func(string) string {
	return func(s string) string {
		tb.Helper()
		for i := 0; i+1 < len(pairs); i += 2 {
			s = ReplaceOnce(tb, s, pairs[i], pairs[i+1])
		}
		return s
	}
}

// ReplaceOnce replaces old by new in s, which must hold old exactly once.
func ReplaceOnce(tb testing.TB, s, old, new string) string {
	tb.Helper()
	if n := strings.Count(s, old); n != 1 {
		short := old
		if len(short) > 80 {
			short = short[:80] + "…"
		}
		tb.Fatalf("%q occurs %d times, want once", short, n)
	}
	return strings.Replace(s, old, new, 1)
}

// Generated keeps a generated document equal to what the code produces:
// the text of path between the markers begin and end (the whole file when
// begin is "") must be want; with update it is rewritten instead (the
// -update flag of the test that generates it).
func Generated(tb testing.TB, path, begin, end, want string, update bool) {
	tb.Helper()
	data, err := os.ReadFile(path)
	if err != nil && !(update && begin == "" && os.IsNotExist(err)) {
		tb.Fatal(err)
	}
	doc := string(data)
	i, j := 0, len(doc)
	if begin != "" {
		i, j = strings.Index(doc, begin), strings.Index(doc, end)
		if i < 0 || j < i {
			tb.Fatalf("%s lacks the markers %q … %q", path, begin, end)
		}
		i += len(begin)
	}
	if doc[i:j] == want {
		return
	}
	if !update {
		tb.Fatalf("%s differs from what the code generates: run the test with -update and review the diff", path)
	}
	if err := os.WriteFile(path, []byte(doc[:i]+want+doc[j:]), 0o644); err != nil {
		tb.Fatal(err)
	}
}

// WellFormed parses b with encoding/xml, which rejects malformed markup
// and characters outside the XML 1.0 Char production.
func WellFormed(b []byte) error {
	d := xml.NewDecoder(bytes.NewReader(b))
	for {
		_, err := d.Token()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// CI reports whether the tests run under CI (CI=true), where a missing
// corpus or tool is a failure instead of a skip.
func CI() bool { return os.Getenv("CI") == "true" }

// Missing skips the test because what is not available, or fails it under
// CI, where everything the suite needs is installed by scripts/setup.sh.
func Missing(tb testing.TB, what string) {
	tb.Helper()
	if CI() {
		tb.Fatalf("%s is not available (CI=true: scripts/setup.sh installs it and the test must run)", what)
	}
	tb.Skipf("%s is not available", what)
}

// Corpus returns the real corpus folder ($EDITAUDIT_CORPUS). Without it the
// test is skipped, or failed under CI.
func Corpus(tb testing.TB) string {
	tb.Helper()
	dir := os.Getenv("EDITAUDIT_CORPUS")
	if dir == "" {
		Missing(tb, "the real corpus (EDITAUDIT_CORPUS)")
		return ""
	}
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		Missing(tb, "the real corpus folder "+dir)
		return ""
	}
	return dir
}

// CorpusFile returns $EDITAUDIT_CORPUS/rel, skipping (or failing under CI)
// when the corpus or the file is missing.
func CorpusFile(tb testing.TB, rel string) string {
	tb.Helper()
	p := filepath.Join(Corpus(tb), filepath.FromSlash(rel))
	if _, err := os.Stat(p); err != nil {
		Missing(tb, "corpus file "+rel)
	}
	return p
}

// CorpusGlob returns the corpus files matching pattern (a filepath.Match
// pattern relative to $EDITAUDIT_CORPUS, e.g. "docx/*"), sorted, without
// hidden files: an editor's lock file (LibreOffice's ".~lock.x.docx#",
// Word's "~$x.docx" is not hidden and stays) or a ".DS_Store" beside the
// documents is not a document of the corpus.
func CorpusGlob(tb testing.TB, pattern string) []string {
	tb.Helper()
	all, err := filepath.Glob(filepath.Join(Corpus(tb), filepath.FromSlash(pattern)))
	if err != nil {
		tb.Fatalf("corpus glob %q: %v", pattern, err)
	}
	var out []string
	for _, f := range all {
		if !strings.HasPrefix(filepath.Base(f), ".") {
			out = append(out, f)
		}
	}
	return out
}

// Tool returns the path of the program name on PATH, skipping (or failing
// under CI) when it is not installed.
func Tool(tb testing.TB, name string) string {
	tb.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		Missing(tb, name)
	}
	return p
}

// AmendParagraphs appends " "+word to the text of the first n paragraphs
// of a WordprocessingML part whose last run ends the paragraph
// ("…</w:t></w:r></w:p>"), and returns the part and how many it amended
// (fewer than n when the part has fewer such paragraphs).
func AmendParagraphs(doc string, n int, word string) (string, int) {
	const end = "</w:t></w:r></w:p>"
	var out strings.Builder
	rest, done := doc, 0
	for done < n {
		i := strings.Index(rest, end)
		if i < 0 {
			break
		}
		out.WriteString(rest[:i] + " " + word + end)
		rest = rest[i+len(end):]
		done++
	}
	out.WriteString(rest)
	return out.String(), done
}

// Validators returns the folder of the schema and lint checks run by
// node (tools/validate: SARIF and Kubernetes schemas, the JUnit XSD, the
// Dockerfile linter, playwright-core), after checking that node and its
// packages are installed (scripts/setup.sh runs npm ci there); skips, or
// fails under CI, when they are not.
func Validators(tb testing.TB) string {
	tb.Helper()
	Tool(tb, "node")
	v := filepath.Join(moduleRoot(tb), "tools", "validate")
	if _, err := os.Stat(filepath.Join(v, "node_modules", "ajv")); err != nil {
		Missing(tb, "the validators in tools/validate (npm ci --prefix tools/validate)")
	}
	return v
}

// moduleRoot is the folder of go.mod above the test's folder.
func moduleRoot(tb testing.TB) string {
	tb.Helper()
	dir, err := os.Getwd()
	if err != nil {
		tb.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			tb.Fatal("testdoc: no go.mod above the test's folder")
		}
		dir = parent
	}
}

// BuildCLI builds cmd/editaudit into tb's temp folder and returns the
// binary's path, for tests that must run the command as a process: to
// kill it, to limit its memory, to send it signals.
func BuildCLI(tb testing.TB) string {
	tb.Helper()
	bin := filepath.Join(tb.TempDir(), "editaudit")
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/editaudit")
	cmd.Dir = moduleRoot(tb)
	if out, err := cmd.CombinedOutput(); err != nil {
		tb.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// Sparse makes a sparse file of size bytes at path (no disk blocks: a file
// far larger than memory or the disk, for size limits); skips when the
// file system cannot hold one.
func Sparse(tb testing.TB, path string, size int64) {
	tb.Helper()
	f, err := os.Create(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	if err := f.Truncate(size); err != nil {
		tb.Skipf("sparse file: %v", err)
	}
}
