//go:build bench

package mcp

// The measurement behind docs/benchmarks.md "MCP": the warm audit of
// serve's benchmark (a one-word edit of a 5-page contract, rendering on,
// the original in the store) through `editaudit mcp` — the audit tool
// over streamable HTTP, the Go SDK's client, original and edited by path —
// and through `editaudit serve` — POST /v1/audit with both files, format
// model (the same content: the feedback and the before/after JPEGs) — each
// server warm with its own 2-worker LibreOffice, the arms alternated.
// Wall time, and the CPU time of the whole process tree (the test process,
// both servers and clients, the live LibreOffice processes and the reaped
// rasterizers).
//
//	go test -tags bench -run TestBenchMCP -v -timeout 30m ./mcp
//
// It prints numbers rather than assert speed (the machine is shared).

import (
	"context"
	"net"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/editaudit/editaudit/internal/testdoc"
	"github.com/editaudit/editaudit/render"
	"github.com/editaudit/editaudit/serve"
	"github.com/editaudit/editaudit/synth"
)

func TestBenchMCP(t *testing.T) {
	const n = 9
	ctx := context.Background()
	dir := t.TempDir()
	f, err := os.Open("../examples/specs/contract.json")
	if err != nil {
		t.Fatal(err)
	}
	spec, err := synth.ParseSpec(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	body := spec.Docx.Body
	spec.Docx.Body = append(append(append([]synth.Block(nil), body...), synth.Block{PageBreak: true}), body[:len(body)*9/16]...)
	orig, err := synth.Synthesize(spec)
	if err != nil {
		t.Fatal(err)
	}
	o, e := filepath.Join(dir, "contract.docx"), filepath.Join(dir, "edited.docx")
	os.WriteFile(o, orig, 0o644)
	os.WriteFile(e, edit(t, "docx.word-replaced", orig), 0o644)

	// serve, warm.
	svc, err := serve.New(ctx, serve.Config{StoreDir: filepath.Join(dir, "serve-store"), RenderMode: "on", Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	if err := svc.WaitReady(ctx); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	sctx, stop := context.WithCancel(ctx)
	defer stop()
	go svc.Serve(sctx, ln)
	cl := &serve.Client{URL: "http://" + ln.Addr().String()}
	viaServe := func() {
		ans, err := cl.Audit(ctx, serve.AuditRequest{Original: o, Edited: e, Format: "model", Render: "on"})
		if err != nil || ans.Blocked || !strings.Contains(string(ans.Body), `"type":"image"`) {
			t.Fatalf("serve: %v %.300s", err, ans.Body)
		}
	}

	// mcp, warm: the same 2 workers, streamable HTTP, the Go SDK client.
	srv, err := New(ctx, Config{Roots: []string{dir}, StoreDir: filepath.Join(dir, "mcp-store"), RenderMode: "on",
		Render: render.Config{Pool: render.PoolOptions{Workers: 2}}})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	hs := httptest.NewServer(srv.Handler(""))
	defer hs.Close()
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "bench", Version: "1"}, nil).Connect(ctx, &sdk.StreamableClientTransport{Endpoint: hs.URL + Path}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	viaMCP := func() {
		res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "audit", Arguments: map[string]any{"original": o, "edited": e}})
		if err != nil || res.IsError || len(res.Content) < 3 {
			t.Fatalf("mcp: %v %+v", err, res)
		}
	}
	// The first audits fill the stores and load each LibreOffice's Writer.
	for range 2 {
		viaServe()
		viaMCP()
	}
	self := os.Getpid()
	measure := func(f func()) (time.Duration, time.Duration) {
		c0, s0 := testdoc.TreeCPU(self), time.Now()
		f()
		return time.Since(s0), testdoc.TreeCPU(self) - c0
	}
	var sWall, sCPU, mWall, mCPU []time.Duration
	for range n {
		w, c := measure(viaServe)
		sWall, sCPU = append(sWall, w), append(sCPU, c)
		w, c = measure(viaMCP)
		mWall, mCPU = append(mWall, w), append(mCPU, c)
	}
	b, _ := os.ReadFile("/proc/loadavg")
	t.Logf("load average at the end: %s", strings.Fields(string(b))[0])
	t.Logf("POST /v1/audit (serve, format model):     median wall %v, median CPU %v", median(sWall).Round(time.Millisecond), median(sCPU).Round(time.Millisecond))
	t.Logf("tools/call audit (mcp, streamable HTTP):  median wall %v, median CPU %v", median(mWall).Round(time.Millisecond), median(mCPU).Round(time.Millisecond))
	t.Logf("mcp / serve: wall %.2f, CPU %.2f", float64(median(mWall))/float64(median(sWall)), float64(median(mCPU))/float64(median(sCPU)))
}

func median(ds []time.Duration) time.Duration {
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[len(s)/2]
}
