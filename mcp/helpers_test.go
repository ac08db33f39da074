package mcp

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/editaudit/editaudit/mutate"
	"github.com/editaudit/editaudit/synth"
)

// session is a Server and the official Go SDK's client connected to it in
// memory, with the progress notifications the client received and the
// tool calls the server finished.
type session struct {
	srv *Server
	cs  *sdk.ClientSession

	mu       sync.Mutex
	progress []*sdk.ProgressNotificationParams
	done     chan doneCall
}

type doneCall struct {
	tool string
	err  error
}

func connect(t *testing.T, cfg Config) *session {
	t.Helper()
	ctx := context.Background()
	srv, err := New(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	s := &session{srv: srv, done: make(chan doneCall, 100)}
	srv.onDone = func(tool string, err error) { s.done <- doneCall{tool, err} }
	ct, st := sdk.NewInMemoryTransports()
	ss, err := srv.srv.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	client := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, &sdk.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, req *sdk.ProgressNotificationClientRequest) {
			s.mu.Lock()
			s.progress = append(s.progress, req.Params)
			s.mu.Unlock()
		},
	})
	cs, err := client.Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cs.Close()
		ss.Close()
		srv.Close()
	})
	s.cs = cs
	return s
}

// call calls a tool with a progress token and returns its result.
func (s *session) call(t *testing.T, ctx context.Context, name string, args any) (*sdk.CallToolResult, error) {
	t.Helper()
	p := &sdk.CallToolParams{Name: name, Arguments: args}
	p.SetProgressToken(name + "-" + time.Now().Format("150405.000000000"))
	return s.cs.CallTool(ctx, p)
}

// mustCall calls a tool that must answer (a tool error included).
func (s *session) mustCall(t *testing.T, name string, args any) *sdk.CallToolResult {
	t.Helper()
	res, err := s.call(t, context.Background(), name, args)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return res
}

// text joins the text content of a result.
func text(res *sdk.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*sdk.TextContent); ok {
			b.WriteString(tc.Text + "\n")
		}
	}
	return b.String()
}

// structured decodes the structured content.
func structured(t *testing.T, res *sdk.CallToolResult, v any) {
	t.Helper()
	b, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("structured content %s: %v", b, err)
	}
}

// contract is examples/specs/contract.json written (3 pages).
func contract(t testing.TB) []byte {
	t.Helper()
	f, err := os.Open("../examples/specs/contract.json")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	spec, err := synth.ParseSpec(f)
	if err != nil {
		t.Fatal(err)
	}
	b, err := synth.Synthesize(spec)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func edit(t testing.TB, injector string, doc []byte) []byte {
	t.Helper()
	b, err := mutate.Mutate(injector, doc)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// docs writes the contract, a one-word edit of it (reworded.docx) and a
// fatally broken one (broken.docx) into a new root folder.
func docs(t testing.TB) string {
	t.Helper()
	dir := t.TempDir()
	orig := contract(t)
	for n, b := range map[string][]byte{"contract.docx": orig, "reworded.docx": edit(t, "docx.word-replaced", orig), "broken.docx": edit(t, "xml.illegal-char", orig)} {
		if err := os.WriteFile(filepath.Join(dir, n), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}
