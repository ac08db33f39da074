//go:build bench

package corpus

// The memory benchmark of docs/benchmarks.md "Batch at the floor":
//
//	go test -tags bench -run TestBenchRSS1000 -v -timeout 2h ./corpus
//
// It prints what it measures and fails only when memory grows.

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/editaudit/editaudit/audit"
	"github.com/editaudit/editaudit/internal/testdoc"
	"github.com/editaudit/editaudit/render"
)

// oneParagraphDocx is a minimal Word document of one paragraph.
func oneParagraphDocx(text string) []byte {
	return testdoc.ZipMap(map[string]string{
		"[Content_Types].xml": `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>` +
			`<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
			`<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>` +
			`<Default Extension="xml" ContentType="application/xml"/>` +
			`<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>`,
		"_rels/.rels": `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>` +
			`<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
			`<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`,
		"word/document.xml": `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>` +
			`<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>` +
			`<w:p><w:r><w:t>Terms of the agreement.</w:t></w:r></w:p>` +
			`<w:p><w:r><w:t xml:space="preserve">` + text + `</w:t></w:r></w:p>` +
			`<w:sectPr><w:pgSz w:w="11906" w:h="16838"/></w:sectPr></w:body></w:document>`,
	})
}

// rssOf returns the resident memory of process pid in KiB (0 when gone).
func rssOf(pid string) int {
	b, _ := os.ReadFile(filepath.Join("/proc", pid, "status"))
	for _, l := range strings.Split(string(b), "\n") {
		if f := strings.Fields(l); len(f) >= 2 && f[0] == "VmRSS:" {
			n, _ := strconv.Atoi(f[1])
			return n
		}
	}
	return 0
}

// officeRSS sums the resident memory (KiB) of the processes whose command
// line mentions dir (the pool's LibreOffice and bridge), and counts them.
func officeRSS(dir string) (kb, n int) {
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		if _, err := strconv.Atoi(e.Name()); err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err == nil && bytes.Contains(b, []byte(dir)) {
			kb += rssOf(e.Name())
			n++
		}
	}
	return kb, n
}

// TestBenchRSS1000 renders 1,000 pairs (a one-paragraph original; each
// edit a different sentence) through RunPairs with the default renderer
// (the warm converter when python3-uno is installed), sampling this
// process's RSS and LibreOffice's as pairs are done. It fails when the Go
// RSS after 1,000 pairs exceeds that after 100 by more than 30 MiB.
func TestBenchRSS1000(t *testing.T) {
	testdoc.Tool(t, "soffice")
	const n = 1000
	dir := t.TempDir()
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	orig := filepath.Join(dir, "original.docx")
	if err := os.WriteFile(orig, oneParagraphDocx("Edit number zero."), 0o644); err != nil {
		t.Fatal(err)
	}
	var pairs []Pair
	for i := 1; i <= n; i++ {
		ed := filepath.Join(dir, fmt.Sprintf("e%04d.docx", i))
		if err := os.WriteFile(ed, oneParagraphDocx(fmt.Sprintf("Edit number %d, with its own words.", i)), 0o644); err != nil {
			t.Fatal(err)
		}
		pairs = append(pairs, Pair{ID: strconv.Itoa(i), Original: orig, Edited: ed})
	}
	ctx := context.Background()
	r, closeR, err := NewRenderer(ctx, audit.RenderOn)
	if err != nil {
		t.Fatal(err)
	}
	defer closeR()
	out := filepath.Join(dir, "run")
	done := make(chan error, 1)
	start := time.Now()
	go func() {
		_, err := RunPairs(ctx, pairs, RunOptions{Out: out, Store: openTestStore(t), Render: audit.RenderOn, Renderer: r})
		done <- err
	}()
	self := strconv.Itoa(os.Getpid())
	var at100, peak, lastLogged int
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	for finished := false; !finished; {
		select {
		case err := <-done:
			if err != nil {
				t.Fatal(err)
			}
			finished = true
		case <-tick.C:
		}
		b, _ := os.ReadFile(filepath.Join(out, "results.jsonl"))
		pairsDone := bytes.Count(b, []byte("\n"))
		rss := rssOf(self)
		peak = max(peak, rss)
		if at100 == 0 && pairsDone >= 100 {
			at100 = rss
		}
		if pairsDone/100 > lastLogged/100 || finished {
			lo, procs := officeRSS(tmp)
			t.Logf("%4d pairs, %6.1fs: Go RSS %6.1f MiB (peak %6.1f), LibreOffice+bridge RSS %6.1f MiB in %d processes",
				pairsDone, time.Since(start).Seconds(), float64(rss)/1024, float64(peak)/1024, float64(lo)/1024, procs)
			lastLogged = pairsDone
		}
	}
	st := r.Converter.(*render.Pool).Stats()
	t.Logf("%s: %d pairs in %s; pool %+v", r.Toolchain(ctx), n, time.Since(start).Round(time.Second), st)
	if end := rssOf(self); at100 > 0 && end-at100 > 30*1024 {
		t.Errorf("Go RSS grew from %d KiB after 100 pairs to %d KiB after %d", at100, end, n)
	}
}
