//go:build unix

package reports

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/editaudit/editaudit/internal/testdoc"
)

// TestIndexHTMLSorts loads index.html in headless Chromium, clicks column
// headers from an appended script and reads the row order back from the
// DOM: the inline sorting works on numbers (descending on the second
// click) and on ids (by their natural order, "10" after "3").
func TestIndexHTMLSorts(t *testing.T) {
	chromium := testdoc.Tool(t, "chromium")
	dir := t.TempDir()
	var rows []IndexRow
	for _, r := range []struct {
		id   string
		lost int
	}{{"2", 1}, {"10", 8}, {"1", 0}, {"3", 3}} {
		rows = append(rows, IndexRow{ID: r.id, Verdict: "passed", Lost: r.lost, Report: "pairs/" + r.id + "/report.html"})
	}
	var buf bytes.Buffer
	if err := WriteIndexHTML(&buf, corpusSummary(), rows); err != nil {
		t.Fatal(err)
	}
	idx := buf.Bytes()
	golden(t, "corpus-index.html", idx)
	// Server-side order is natural by id; the id column sorts by that rank.
	if got := regexp.MustCompile(`<td class="mono" data-v="([0-9]+)">([0-9]+)</td>`).FindAllSubmatch(idx, -1); len(got) != 4 ||
		string(got[0][2]) != "1" || string(got[1][2]) != "2" || string(got[2][2]) != "3" || string(got[3][2]) != "10" || string(got[3][1]) != "3" {
		t.Errorf("rows not in id order")
	}
	if rows[0].ID != "2" {
		t.Error("WriteIndexHTML reordered its argument")
	}
	probe := `<script>
var hs = document.querySelectorAll("#pairs th");
function order() { return Array.prototype.map.call(document.querySelectorAll("#pairs tbody tr"), function (r) { return r.cells[0].textContent; }).join(","); }
hs[5].click(); hs[5].click(); document.body.setAttribute("data-lost-desc", order());
hs[0].click(); hs[0].click(); document.body.setAttribute("data-id-desc", order());
</script></body>`
	page := filepath.Join(dir, "probe.html")
	if err := os.WriteFile(page, bytes.Replace(idx, []byte("</body>"), []byte(probe), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--user-data-dir="+filepath.Join(dir, "profile"), "--dump-dom", "file://"+page)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if cmd.Process != nil {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
	if err != nil {
		t.Fatalf("chromium: %v\n%s", err, stderr.String())
	}
	dom := stdout.String()
	for _, want := range []string{`data-lost-desc="10,3,2,1"`, `data-id-desc="10,3,2,1"`} {
		if !strings.Contains(dom, want) {
			m := regexp.MustCompile(`data-[a-z-]+-desc="[^"]*"`).FindAllString(dom, -1)
			t.Errorf("want %s, got %v", want, m)
		}
	}
}
