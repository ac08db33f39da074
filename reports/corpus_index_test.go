//go:build unix

package reports

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/editaudit/editaudit/audit"
	"github.com/editaudit/editaudit/corpus/results"
	"github.com/editaudit/editaudit/formats"
	"github.com/editaudit/editaudit/internal/testdoc"
)

// TestIndexHTMLSmall: the golden page of four pairs, the first page in
// the HTML in natural id order, the argument not reordered.
func TestIndexHTMLSmall(t *testing.T) {
	var rows []IndexRow
	for _, r := range []struct {
		id   string
		lost int
	}{{"2", 1}, {"10", 8}, {"1", 0}, {"3", 3}} {
		rows = append(rows, IndexRow{ID: r.id, Verdict: "passed", Format: "docx", Lost: r.lost, Report: "pairs/" + r.id + "/report.html"})
	}
	var buf bytes.Buffer
	if err := WriteIndexHTML(&buf, corpusSummary(), rows); err != nil {
		t.Fatal(err)
	}
	idx := buf.Bytes()
	golden(t, "corpus-index.html", idx)
	if got := regexp.MustCompile(`<tr><td class="mono">([0-9]+)</td>`).FindAllSubmatch(idx, -1); len(got) != 4 ||
		string(got[0][1]) != "1" || string(got[1][1]) != "2" || string(got[2][1]) != "3" || string(got[3][1]) != "10" {
		t.Errorf("rows not in id order")
	}
	if rows[0].ID != "2" {
		t.Error("WriteIndexHTML reordered its argument")
	}
	// A hostile id cannot end the data script.
	rows = append(rows, IndexRow{ID: "</script><script>alert(1)</script>", Verdict: "failed", Error: "<b>x</b>"})
	buf.Reset()
	if err := WriteIndexHTML(&buf, corpusSummary(), rows); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(buf.String(), "<script>alert(1)") {
		t.Error("an id broke out of the page's script")
	}
}

// TestIndexHTML1000 makes the index of a 1,000-pair run from result
// lines and drives it in headless Chromium (tools/validate/index.mjs,
// playwright-core): every filter, the search, paging and sorting show
// what the data says, without script errors.
func TestIndexHTML1000(t *testing.T) {
	v := testdoc.Validators(t)
	testdoc.Tool(t, "chromium")
	dir := t.TempDir()
	exts := []formats.Format{formats.DOCX, formats.PPTX, formats.XLSX, formats.HWPX}
	want := map[string]any{"total": 1000}
	verdicts, fmts, groups := map[string]int{}, map[string]int{}, map[string]int{}
	var rows []IndexRow
	search := 0
	combined := 0
	for i := range 1000 {
		r := &results.Record{ID: fmt.Sprintf("pair-%d", i+1), Group: fmt.Sprintf("model-%c", 'a'+i%3), Report: fmt.Sprintf("pairs/pair-%d/report.html", i+1)}
		r.Edited.Format = exts[i%4]
		r.Timings.Total = int64(100 + i)
		r.Pages.Status = audit.PagesOK
		switch {
		case i%10 == 0:
			r.Error = "open edited file: no such file"
		case i%7 == 0:
			r.Blocked = true
			r.NewFindings = []formats.Finding{{Code: "xml.illegal-char", Grade: formats.Fatal}}
		case i%5 == 0:
			r.NewFindings = []formats.Finding{{Code: "docx.prop-order", Grade: formats.Warning}}
			r.Structure.Shrunk = []audit.Shrink{{Metric: "tables", Before: 3, After: 2}}
		}
		row := IndexRowOf(r)
		rows = append(rows, row)
		verdicts[row.Verdict]++
		fmts[row.Format]++
		groups[row.Group]++
		if strings.Contains(row.Shrunk, "tables") {
			search++
		}
		if row.Verdict == "blocked" && row.Group == "model-b" && strings.Contains(row.Codes, "illegal") {
			combined++
		}
	}
	want["verdict"], want["format"], want["group"] = verdicts, fmts, groups
	want["search"] = map[string]int{"tables": search, "pair-999": 1, "no such file": verdicts["failed"], "zzz-nothing": 0}
	want["idDesc"] = "pair-1000"
	want["combined"] = map[string]any{"verdict": "blocked", "group": "model-b", "q": "illegal", "n": combined}
	var buf bytes.Buffer
	if err := WriteIndexHTML(&buf, corpusSummary(), rows); err != nil {
		t.Fatal(err)
	}
	page := filepath.Join(dir, "index.html")
	exp := filepath.Join(dir, "expect.json")
	if err := os.WriteFile(page, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	j, _ := json.Marshal(want)
	if err := os.WriteFile(exp, j, 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{filepath.Join(v, "index.mjs"), page, exp}
	if shot := os.Getenv("EDITAUDIT_INDEX_SCREENSHOT"); shot != "" {
		args = append(args, shot)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, "node", args...).CombinedOutput()
	t.Logf("%d bytes of HTML\n%s", buf.Len(), out)
	if err != nil {
		t.Fatalf("index.html in Chromium: %v", err)
	}
}
