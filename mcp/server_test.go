package mcp

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/editaudit/editaudit/internal/testdoc"
	"github.com/editaudit/editaudit/render"
	"github.com/editaudit/editaudit/synth"
)

// TestToolsList: five tools, each with an input and an output schema;
// synth's input schema is the spec's with out added.
func TestToolsList(t *testing.T) {
	s := connect(t, Config{Roots: []string{t.TempDir()}, StoreDir: t.TempDir(), RenderMode: "off"})
	res, err := s.cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]*sdk.Tool{}
	for _, tool := range res.Tools {
		names[tool.Name] = tool
		if tool.InputSchema == nil || tool.OutputSchema == nil || tool.Description == "" {
			t.Errorf("%s: schemas or description missing", tool.Name)
		}
	}
	for _, n := range []string{"check", "audit", "synth", "render", "baseline"} {
		if names[n] == nil {
			t.Errorf("no tool %s", n)
		}
	}
	in, _ := names["synth"].InputSchema.(map[string]any)
	props, _ := in["properties"].(map[string]any)
	req, _ := in["required"].([]any)
	if props["format"] == nil || props["docx"] == nil || props["out"] == nil || len(req) != 2 || in["$defs"] == nil {
		t.Errorf("synth input schema: properties %v, required %v", props, req)
	}
}

// TestPathRefusals: every tool refuses a path outside the roots, a link
// leading outside, a missing file and a sibling folder named like the
// root, as a tool error naming the path; nothing is read (the FIFO behind
// the link would block a read) and nothing is written.
func TestPathRefusals(t *testing.T) {
	root, sibling, _ := rootsFixture(t)
	s := connect(t, Config{Roots: []string{root}, StoreDir: t.TempDir(), RenderMode: "off"})
	in := filepath.Join(root, "a.docx")
	bad := map[string]string{
		filepath.Join(sibling, "c.docx"):   "is outside the folders",
		filepath.Join(root, "pipe.docx"):   "(a symbolic link), outside",
		filepath.Join(root, "out.docx"):    "(a symbolic link), outside",
		filepath.Join(root, "nofile.docx"): "no such file",
	}
	for p, why := range bad {
		for _, c := range []struct {
			tool string
			args map[string]any
		}{
			{"check", map[string]any{"path": p}},
			{"render", map[string]any{"path": p}},
			{"baseline", map[string]any{"path": p}},
			{"audit", map[string]any{"original": p, "edited": in}},
			{"audit", map[string]any{"original": in, "edited": p}},
			{"audit", map[string]any{"original": in, "edited": p, "restore": true}},
		} {
			res := s.mustCall(t, c.tool, c.args)
			if !res.IsError || !strings.Contains(text(res), why) || !strings.Contains(text(res), p) {
				t.Errorf("%s %v: isError %v, %q", c.tool, c.args, res.IsError, text(res))
			}
		}
	}
	// synth's out: outside, through a link leading outside, in a sibling.
	spec := map[string]any{"format": "docx", "docx": map[string]any{"body": []any{map[string]any{"paragraph": map[string]any{"text": "x"}}}}}
	for _, out := range []string{filepath.Join(sibling, "new.docx"), filepath.Join(root, "outdir", "new.docx"), filepath.Join(root, "out.docx")} {
		spec["out"] = out
		res := s.mustCall(t, "synth", spec)
		var r synth.Refused
		structured(t, res, &r)
		if !res.IsError || len(r.Errors) != 1 || r.Errors[0].Path != "$.out" || !strings.Contains(r.Errors[0].Message, "outside") {
			t.Errorf("synth out %s: %v %q", out, res.IsError, text(res))
		}
	}
	if _, err := os.Stat(filepath.Join(sibling, "new.docx")); err == nil {
		t.Error("synth wrote outside the root")
	}
	if b, _ := os.ReadFile(filepath.Join(filepath.Dir(root), "elsewhere", "d.docx")); string(b) != "PK" {
		t.Error("synth replaced a file outside the root through a link")
	}
}

// TestArgumentErrors: a misspelt or mistyped argument, an original given
// twice or not at all, a sha256 not in the store: tool errors that say
// what to send.
func TestArgumentErrors(t *testing.T) {
	dir := docs(t)
	s := connect(t, Config{Roots: []string{dir}, StoreDir: t.TempDir(), RenderMode: "off"})
	c := filepath.Join(dir, "contract.docx")
	for _, tc := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{"check", map[string]any{"pth": c}, `unknown argument "pth" (this tool takes model_bytes, path, show)`},
		{"check", map[string]any{"path": 3}, "argument path: a string, not a JSON number"},
		{"check", map[string]any{"path": c, "show": -1}, "show -1: a number of pages from 0"},
		{"check", map[string]any{"path": c, "model_bytes": 10}, "model_bytes 10: at least 65536"},
		{"audit", map[string]any{"edited": c}, "give the original either as original"},
		{"audit", map[string]any{"original": c, "original_sha256": strings.Repeat("a", 64), "edited": c}, "not both"},
		{"audit", map[string]any{"original": c}, "edited is missing"},
		{"audit", map[string]any{"original_sha256": strings.Repeat("ab", 32), "edited": c}, "store does not hold that document; store it first with the baseline tool"},
		{"audit", map[string]any{"original_sha256": "xyz", "edited": c}, "64 hex digits"},
		{"render", map[string]any{"path": c}, "--render off"},
	} {
		res := s.mustCall(t, tc.tool, tc.args)
		if !res.IsError || !strings.Contains(text(res), tc.want) {
			t.Errorf("%s %v: isError %v, %q; want %q", tc.tool, tc.args, res.IsError, text(res), tc.want)
		}
	}
}

// TestSynthSpecErrors: the spec's problems come from synth's own
// validation, every one at once with its $. path and cap, as a tool
// error; nothing is written. A good spec is written and checked.
func TestSynthSpecErrors(t *testing.T) {
	dir := t.TempDir()
	s := connect(t, Config{Roots: []string{dir}, StoreDir: t.TempDir(), RenderMode: "off"})
	out := filepath.Join(dir, "memo.docx")
	long := strings.Repeat("x", synth.MaxTitleLen+1)
	res := s.mustCall(t, "synth", map[string]any{"format": "docx", "title": long, "out": out, "colour": "red",
		"docx": map[string]any{"body": []any{map[string]any{"table": map[string]any{"rows": []any{}}}, map[string]any{"heading": map[string]any{"level": 9, "text": "t"}}}}})
	var r synth.Refused
	structured(t, res, &r)
	paths := map[string]int{}
	for _, e := range r.Errors {
		paths[e.Path] = e.Cap
	}
	if !res.IsError || r.Status != "error" || len(r.Errors) != 4 || paths["$.title"] != synth.MaxTitleLen ||
		!hasKey(paths, "$.colour") || !hasKey(paths, "$.docx.body[0].table.rows") || !hasKey(paths, "$.docx.body[1].heading.level") ||
		!strings.Contains(text(res), "4 problems in the spec; nothing was written") || !strings.Contains(text(res), "$.docx.body[1].heading.level") {
		t.Errorf("isError %v, errors %+v\n%s", res.IsError, r.Errors, text(res))
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("an invalid spec wrote its out")
	}
	// No out at all: said at $.out beside the spec's own errors.
	res = s.mustCall(t, "synth", map[string]any{"format": "docx"})
	structured(t, res, &r)
	if !res.IsError || len(r.Errors) != 2 || r.Errors[0].Path != "$.out" || r.Errors[1].Path != "$.docx" {
		t.Errorf("no out: %+v", r.Errors)
	}
	// A good spec: written, and checked before it is handed back.
	res = s.mustCall(t, "synth", map[string]any{"format": "docx", "out": "memo.docx",
		"docx": map[string]any{"body": []any{map[string]any{"paragraph": map[string]any{"text": "Hello."}}}}})
	var w synth.Written
	structured(t, res, &w)
	b, err := os.ReadFile(out)
	if res.IsError || err != nil || w.Status != "ok" || w.Path != "memo.docx" || w.SHA256 != sha256Of(b) ||
		!strings.Contains(text(res), "OK: nothing at fatal in memo.docx") {
		t.Errorf("good spec: %v %+v %v\n%s", res.IsError, w, err, text(res))
	}
}

func hasKey(m map[string]int, k string) bool { _, ok := m[k]; return ok }

// TestRestore: with restore a blocked edit is undone (the original's bytes
// back at edited, the rejected file kept beside it); without, nothing is
// written; a passing edit is never touched.
func TestRestore(t *testing.T) {
	dir := docs(t)
	s := connect(t, Config{Roots: []string{dir}, StoreDir: t.TempDir(), RenderMode: "off"})
	orig, _ := os.ReadFile(filepath.Join(dir, "contract.docx"))
	broken, _ := os.ReadFile(filepath.Join(dir, "broken.docx"))
	for _, restore := range []bool{false, true} {
		res := s.mustCall(t, "audit", map[string]any{"original": filepath.Join(dir, "contract.docx"), "edited": filepath.Join(dir, "broken.docx"), "restore": restore})
		var out struct {
			Blocked, Restored bool
			Rejected          string
			Counts            struct {
				NewFindings struct{ Fatal int } `json:"new_findings"`
			}
		}
		structured(t, res, &out)
		now, _ := os.ReadFile(filepath.Join(dir, "broken.docx"))
		rejected, _ := os.ReadFile(filepath.Join(dir, "broken.rejected.docx"))
		switch {
		case res.IsError || !out.Blocked || out.Counts.NewFindings.Fatal != 1 || !strings.Contains(text(res), "word/document.xml"):
			t.Errorf("restore %v: %v %+v\n%s", restore, res.IsError, out, text(res))
		case !restore && (out.Restored || !bytes.Equal(now, broken) || rejected != nil):
			t.Error("without restore the edited file was written")
		case restore && (!out.Restored || !bytes.Equal(now, orig) || !bytes.Equal(rejected, broken) || !strings.Contains(text(res), "The original was restored")):
			t.Errorf("restore: restored %v, original back %v, rejected kept %v", out.Restored, bytes.Equal(now, orig), bytes.Equal(rejected, broken))
		}
	}
}

// TestCancel: a cancelled call ends at once, its LibreOffice work is
// stopped (the pool kills the run nobody waits for), and the pool serves
// the next call. LibreOffice is the real one behind the render tests'
// stand-in, which hangs on a document holding the marker HANG: the call
// could only end by its cancellation.
func TestCancel(t *testing.T) {
	if testing.Short() {
		t.Skip("LibreOffice")
	}
	t.Setenv("EDITAUDIT_REAL_SOFFICE", testdoc.Tool(t, "soffice"))
	wrapper, err := filepath.Abs("../render/testdata/soffice-faults.sh")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	orig := contract(t)
	os.WriteFile(filepath.Join(dir, "hang.docx"), marked(t, orig, "Master", "HANG"), 0o644)
	os.WriteFile(filepath.Join(dir, "fine.docx"), orig, 0o644)
	s := connect(t, Config{Roots: []string{dir}, StoreDir: t.TempDir(), RenderMode: "on",
		Render: render.Config{Engine: render.EngineBatch, Pool: render.PoolOptions{Workers: 1, SofficePath: wrapper, Deadline: 10 * time.Minute}}})
	if err := s.srv.WaitRenderer(context.Background()); err != nil {
		t.Fatal(err)
	}
	pool := s.srv.renderer.Converter.(interface{ Stats() render.PoolStats })
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() {
		_, err := s.call(t, ctx, "check", map[string]any{"path": filepath.Join(dir, "hang.docx")})
		errc <- err
	}()
	waitFor(t, "LibreOffice converting the document", func() bool { return pool.Stats().Runs == 1 })
	cancel()
	if err := <-errc; !errors.Is(err, context.Canceled) {
		t.Fatalf("the client's call: %v", err)
	}
	select {
	case d := <-s.done:
		if d.tool != "check" || !errors.Is(d.err, context.Canceled) {
			t.Fatalf("the server's call ended with %s %v", d.tool, d.err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the server went on with the cancelled call for 30 s")
	}
	waitFor(t, "the hanging LibreOffice killed", func() bool { return pool.Stats().Killed == 1 })
	// The progress said what the call was doing until then.
	s.mu.Lock()
	var msgs []string
	for _, p := range s.progress {
		msgs = append(msgs, p.Message)
	}
	s.mu.Unlock()
	if len(msgs) < 2 || !strings.Contains(strings.Join(msgs, "|"), "rendering the pages with LibreOffice") {
		t.Errorf("progress %q", msgs)
	}
	// The pool's only worker serves the next call.
	res := s.mustCall(t, "check", map[string]any{"path": filepath.Join(dir, "fine.docx"), "show": 1})
	var out checkOut
	structured(t, res, &out)
	if res.IsError || out.Pages.Status != "ok" || out.Pages.Count != 3 || len(out.Pages.Attached) != 1 {
		t.Errorf("after the cancel: %v %+v\n%s", res.IsError, out.Pages, text(res))
	}
	if st := pool.Stats(); st.Converted != 1 || st.Killed != 1 {
		t.Errorf("pool %+v: want the hang killed and the next document converted", st)
	}
}

// marked is doc with its parts stored uncompressed and old replaced by
// new in word/document.xml, so that the stand-in sees the marker.
func marked(t *testing.T, doc []byte, old, new string) []byte {
	t.Helper()
	var ps []testdoc.Part
	for _, p := range testdoc.Entries(t, doc) {
		if p.Name == "word/document.xml" {
			p.Data = strings.Replace(p.Data, old, new, 1)
		}
		p.Store = true
		ps = append(ps, p)
	}
	return testdoc.Zip(ps...)
}

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(3 * time.Minute)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("waited 3 minutes for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
