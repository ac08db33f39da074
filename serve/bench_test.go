//go:build bench

package serve

// The measurement behind docs/benchmarks.md "Service latency": a one-word edit
// of a 5-page contract, rendering on, the original in the store, audited
// (1) by the command, one process per audit (`editaudit audit --store S`),
// and (2) by POST /v1/audit to a warm server (original_sha256), one client
// and then 4 concurrent clients. Wall time and the CPU time of the whole
// process tree (the command and its LibreOffice; the test process — server
// and client — and its LibreOffice) side by side.
//
//	go test -tags bench -run TestBenchService -v -timeout 30m ./serve
//
// It prints numbers rather than assert speed (the machine is shared).

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/editaudit/editaudit/baseline"
	"github.com/editaudit/editaudit/internal/testdoc"
	"github.com/editaudit/editaudit/synth"
)

// fivePageContract is examples/specs/contract.json with its body repeated
// after a page break: 5 pages.
func fivePageContract(t *testing.T) []byte {
	t.Helper()
	spec := contractSpec(t)
	body := spec.Docx.Body
	spec.Docx.Body = append(append(append([]synth.Block(nil), body...), synth.Block{PageBreak: true}), body[:len(body)*9/16]...)
	b, err := synth.Synthesize(spec)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func median(ds []time.Duration) time.Duration {
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[len(s)/2]
}

func loadavg() string {
	b, _ := os.ReadFile("/proc/loadavg")
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return "?"
	}
	return f[0]
}

func TestBenchService(t *testing.T) {
	const n = 9
	dir := t.TempDir()
	orig := fivePageContract(t)
	edited := edit(t, "docx.word-replaced", orig)
	o, e := filepath.Join(dir, "contract.docx"), filepath.Join(dir, "edited.docx")
	os.WriteFile(o, orig, 0o644)
	os.WriteFile(e, edited, 0o644)
	bin := filepath.Join(dir, "editaudit")
	if b, err := exec.Command("go", "build", "-o", bin, "../cmd/editaudit").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, b)
	}

	// The command, the store warm (one audit first fills it).
	store := filepath.Join(dir, "cli-store")
	cli := func() (time.Duration, time.Duration) {
		cmd := exec.Command(bin, "audit", "--store", store, "--render", "on", "--format", "json", o, e)
		cmd.Stdout = nil
		start := time.Now()
		if err := cmd.Run(); err != nil {
			t.Fatalf("editaudit audit: %v", err)
		}
		wall := time.Since(start)
		return wall, cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	}
	cli()

	// The service, warm, the original stored by POST /v1/baseline.
	r := start(t, Config{StoreDir: filepath.Join(dir, "service-store"), RenderMode: "on"})
	resp, body := post(t, r.url+PathBaseline, "", file("file", "contract.docx", orig))
	var bl baseline.Receipt
	if resp.StatusCode != 200 || json.Unmarshal(body, &bl) != nil || bl.Pages.Count != 5 {
		t.Fatalf("baseline: %d %s", resp.StatusCode, body)
	}
	one := func() {
		resp, body := post(t, r.url+PathAudit, "", field("original_sha256", bl.SHA256), file("edited", "edited.docx", edited), field("format", "json"))
		if resp.StatusCode != 200 || !strings.Contains(string(body), `"status": "ok"`) {
			t.Fatalf("audit: %d %.300s", resp.StatusCode, body)
		}
	}
	one() // the first audit after the warm-up documents

	var cliWall, cliCPU, svcWall, svcCPU []time.Duration
	self := os.Getpid()
	// Alternate the two arms so that the machine's load hits both alike.
	for i := 0; i < n; i++ {
		w, c := cli()
		cliWall, cliCPU = append(cliWall, w), append(cliCPU, c)
		c0 := testdoc.TreeCPU(self)
		s0 := time.Now()
		one()
		svcWall = append(svcWall, time.Since(s0))
		svcCPU = append(svcCPU, testdoc.TreeCPU(self)-c0)
	}
	t.Logf("load average at the end: %s", loadavg())
	t.Logf("editaudit audit --store (one process per audit): median wall %v, median CPU %v", median(cliWall).Round(time.Millisecond), median(cliCPU).Round(time.Millisecond))
	t.Logf("POST /v1/audit, original_sha256, one client:     median wall %v, median CPU %v", median(svcWall).Round(time.Millisecond), median(svcCPU).Round(time.Millisecond))
	t.Logf("service / command: wall %.2f, CPU %.2f", float64(median(svcWall))/float64(median(cliWall)), float64(median(svcCPU))/float64(median(cliCPU)))

	// Throughput: 4 clients, each sending n audits at once.
	const clients = 4
	c0 := testdoc.TreeCPU(self)
	s0 := time.Now()
	var wg sync.WaitGroup
	lat := make([][]time.Duration, clients)
	for c := 0; c < clients; c++ {
		wg.Add(1)
		go func(c int) {
			defer wg.Done()
			for i := 0; i < n; i++ {
				s := time.Now()
				one()
				lat[c] = append(lat[c], time.Since(s))
			}
		}(c)
	}
	wg.Wait()
	wall, cpu := time.Since(s0), testdoc.TreeCPU(self)-c0
	var all []time.Duration
	for _, l := range lat {
		all = append(all, l...)
	}
	t.Logf("4 concurrent clients, %d audits (workers %d): %.2f audits/s, wall %v, CPU %v (%v per audit), median latency %v; load average %s",
		len(all), r.cfg.Workers, float64(len(all))/wall.Seconds(), wall.Round(time.Millisecond), cpu.Round(time.Millisecond),
		(cpu / time.Duration(len(all))).Round(time.Millisecond), median(all).Round(time.Millisecond), loadavg())
	_ = context.Background
}
