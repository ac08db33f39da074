package layout

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"unicode"
)

// TestMarkdownLinks: every relative link of every Markdown file of the
// repository (README, CONTRIBUTING, docs/…) names a file or folder that
// exists, and its #anchor a heading of the page it names, as GitHub makes
// heading anchors. Pages move; a link left behind is found here, not by a
// reader.
func TestMarkdownLinks(t *testing.T) {
	problems, n := checkLinks(t, root)
	if n < 50 {
		t.Errorf("only %d relative links checked: is the walk finding the docs?", n)
	}
	for _, p := range problems {
		t.Error(p)
	}
}

// TestMarkdownLinksCanFail: the checker reports a missing file, a missing
// anchor and a missing anchor in the same page, and accepts what resolves.
func TestMarkdownLinksCanFail(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("README.md", "# Top\n\nSee [a](docs/a.md#the-service), [gone](docs/gone.md), [bad](docs/a.md#nowhere),\n"+
		"[self](#top), [self bad](#bottom), [img](docs/img/x.png), [web](https://example.com/x.md#y).\n"+
		"```\n[in a fence](docs/fenced.md)\n```\n`[in code](docs/code.md)`\n")
	write("docs/a.md", "# A\n\n## The service\n\n### `check --format json` (one file)\n\nBack: [top](../README.md#top), [code](#check---format-json-one-file).\n")
	write("docs/img/x.png", "")
	problems, n := checkLinks(t, dir)
	if n != 8 {
		t.Errorf("%d links checked, want 8 (fenced and inline code are not links; the web link is not relative)", n)
	}
	want := []string{
		"README.md: [gone](docs/gone.md): no such file",
		"README.md: [bad](docs/a.md#nowhere): docs/a.md has no heading #nowhere",
		"README.md: [self bad](#bottom): README.md has no heading #bottom",
	}
	sort.Strings(want)
	sort.Strings(problems)
	if strings.Join(problems, "\n") != strings.Join(want, "\n") {
		t.Errorf("problems:\n%s\nwant:\n%s", strings.Join(problems, "\n"), strings.Join(want, "\n"))
	}
}

// TestHeadingAnchor: GitHub's anchors of headings as this repository writes
// them.
func TestHeadingAnchor(t *testing.T) {
	for _, c := range []struct{ heading, want string }{
		{"Package level (every format)", "package-level-every-format"},
		{"Service latency (`editaudit serve`, one edit of a 5-page docx)", "service-latency-editaudit-serve-one-edit-of-a-5-page-docx"},
		{"Hangul (.hwpx) pages", "hangul-hwpx-pages"},
		{"Gates: `corpus compare --fail-on`", "gates-corpus-compare---fail-on"},
		{"Fonts: emoji", "fonts-emoji"},
		{"Nightly runs and CI: gates, JUnit, SARIF", "nightly-runs-and-ci-gates-junit-sarif"},
		{"The [link](x.md) in a heading", "the-link-in-a-heading"},
		{"Every file in `broken/`", "every-file-in-broken"},
	} {
		if got := headingAnchor(c.heading); got != c.want {
			t.Errorf("%q: %q, want %q", c.heading, got, c.want)
		}
	}
}

var (
	// mdLink is an inline link or image: [text](target) or ![alt](target),
	// the target without spaces (an optional "title" after it is dropped).
	mdLink    = regexp.MustCompile(`!?\[([^\]]*)\]\(([^()\s]+)(?:\s+"[^"]*")?\)`)
	inlineMD  = regexp.MustCompile("`[^`]*`")
	headingRE = regexp.MustCompile(`^(#{1,6})\s+(.*?)\s*#*\s*$`)
	schemeRE  = regexp.MustCompile(`^[a-zA-Z][a-zA-Z0-9+.-]*:`)
)

// checkLinks walks dir for Markdown files and returns one line per broken
// relative link, and how many relative links it checked.
func checkLinks(t *testing.T, dir string) (problems []string, checked int) {
	t.Helper()
	anchors := map[string]map[string]bool{}
	anchorsOf := func(path string) map[string]bool {
		if a, ok := anchors[path]; ok {
			return a
		}
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		a := headingAnchors(string(data))
		anchors[path] = a
		return a
	}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != dir && (strings.HasPrefix(name, ".") || name == "node_modules" || name == "bin") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".md") {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		for _, l := range links(string(data)) {
			target := l[1]
			if schemeRE.MatchString(target) || strings.HasPrefix(target, "/") {
				continue
			}
			checked++
			file, anchor, _ := strings.Cut(target, "#")
			dest := path
			if file != "" {
				dest = filepath.Join(filepath.Dir(path), filepath.FromSlash(file))
				if _, err := os.Stat(dest); err != nil {
					problems = append(problems, fmt.Sprintf("%s: [%s](%s): no such file", rel, l[0], target))
					continue
				}
			}
			if anchor == "" {
				continue
			}
			if !strings.HasSuffix(dest, ".md") {
				problems = append(problems, fmt.Sprintf("%s: [%s](%s): an anchor into a file that is not Markdown", rel, l[0], target))
				continue
			}
			if !anchorsOf(dest)[anchor] {
				destRel, _ := filepath.Rel(dir, dest)
				problems = append(problems, fmt.Sprintf("%s: [%s](%s): %s has no heading #%s", rel, l[0], target, filepath.ToSlash(destRel), anchor))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return problems, checked
}

// links returns the [text, target] of every inline link of a Markdown
// text, outside fenced code blocks and inline code.
func links(md string) [][2]string {
	var out [][2]string
	fenced := false
	for _, line := range strings.Split(md, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			fenced = !fenced
			continue
		}
		if fenced {
			continue
		}
		line = inlineMD.ReplaceAllString(line, "")
		for _, m := range mdLink.FindAllStringSubmatch(line, -1) {
			out = append(out, [2]string{m[1], m[2]})
		}
	}
	return out
}

// headingAnchors returns the anchors GitHub gives the headings of a
// Markdown text (a repeated heading gets -1, -2…).
func headingAnchors(md string) map[string]bool {
	out := map[string]bool{}
	seen := map[string]int{}
	fenced := false
	for _, line := range strings.Split(md, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			fenced = !fenced
			continue
		}
		m := headingRE.FindStringSubmatch(line)
		if fenced || m == nil {
			continue
		}
		a := headingAnchor(m[2])
		if n := seen[a]; n > 0 {
			out[fmt.Sprintf("%s-%d", a, n)] = true
		} else {
			out[a] = true
		}
		seen[a]++
	}
	return out
}

// headingAnchor is GitHub's anchor of a heading: its text (links reduced to
// their text) in lower case, every character other than a letter, a digit,
// a space, a hyphen or an underscore dropped, spaces turned to hyphens.
func headingAnchor(heading string) string {
	heading = mdLink.ReplaceAllString(heading, "$1")
	var b strings.Builder
	for _, r := range strings.ToLower(heading) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}
