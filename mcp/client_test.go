package mcp

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/json"
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

// nodeOut is what tools/mcpclient/run.mjs prints.
type nodeOut struct {
	Fatal  string
	Server struct{ Name, Version string }
	Tools  []struct {
		Name         string
		InputSchema  map[string]any
		OutputSchema map[string]any
	}
	Results []struct {
		Name     string
		Error    string
		Progress []struct {
			Progress float64
			Message  string
		}
		Result *struct {
			IsError bool
			Content []struct {
				Type, Text, Data, MimeType string
			}
			StructuredContent map[string]any
		}
	}
}

// TestTypeScriptClient is the bar of `editaudit mcp`: a real MCP client not
// written here — the official TypeScript SDK, installed from npm by
// scripts/setup.sh (tools/mcpclient) — starts the built command over stdio,
// and connects to it over streamable HTTP with a bearer token, lists the
// tools and calls them. An audit of a one-word edit returns the redline
// text, a JPEG image item and blocked false; a fatally broken edit returns
// blocked true naming the part; an invalid spec returns a tool error with
// its $. paths; a path outside the root is refused. The SDK also checks
// every structured result against the tool's output schema.
func TestTypeScriptClient(t *testing.T) {
	if testing.Short() {
		t.Skip("LibreOffice")
	}
	testdoc.Tool(t, "soffice")
	node := testdoc.Tool(t, "node")
	script, err := filepath.Abs("../tools/mcpclient/run.mjs")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(script), "node_modules", "@modelcontextprotocol", "sdk")); err != nil {
		testdoc.Missing(t, "tools/mcpclient/node_modules (npm ci there: scripts/setup.sh)")
	}
	bin := testdoc.BuildCLI(t)
	dir := docs(t)
	outside := t.TempDir()
	os.WriteFile(filepath.Join(outside, "contract.docx"), contract(t), 0o644)
	calls, _ := json.Marshal(map[string]any{"calls": []any{
		map[string]any{"name": "audit", "arguments": map[string]any{"original": filepath.Join(dir, "contract.docx"), "edited": filepath.Join(dir, "reworded.docx")}},
		map[string]any{"name": "audit", "arguments": map[string]any{"original": filepath.Join(dir, "contract.docx"), "edited": filepath.Join(dir, "broken.docx")}},
		map[string]any{"name": "synth", "arguments": map[string]any{"format": "docx", "out": filepath.Join(dir, "new.docx"),
			"docx": map[string]any{"body": []any{map[string]any{"paragraph": map[string]any{"text": "ok"}}, map[string]any{"table": map[string]any{"rows": []any{}}}}}}},
		map[string]any{"name": "check", "arguments": map[string]any{"path": filepath.Join(outside, "contract.docx")}},
	}})
	run := func(t *testing.T, args ...string) nodeOut {
		t.Helper()
		cmd := exec.Command(node, append([]string{script}, args...)...)
		cmd.Stdin = bytes.NewReader(calls)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		var out nodeOut
		if jerr := json.Unmarshal(stdout.Bytes(), &out); jerr != nil {
			t.Fatalf("node %v: %v, output %v\n%.2000s\nstderr:\n%.4000s", args, err, jerr, stdout.String(), stderr.String())
		}
		return out
	}
	t.Run("stdio", func(t *testing.T) {
		out := run(t, "--stdio", bin, "mcp", "--root", dir, "--store", t.TempDir())
		assertClientRun(t, out, dir, outside)
	})
	t.Run("http", func(t *testing.T) {
		tokenFile := filepath.Join(t.TempDir(), "token")
		os.WriteFile(filepath.Join(tokenFile), []byte("s3cret-token\n"), 0o600)
		srv := exec.Command(bin, "mcp", "--http", "127.0.0.1:0", "--token-file", tokenFile, "--root", dir, "--store", t.TempDir())
		stderr, _ := srv.StderrPipe()
		if err := srv.Start(); err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		urlc := make(chan string, 1)
		var log strings.Builder
		go func() {
			sc := bufio.NewScanner(stderr)
			for sc.Scan() {
				log.WriteString(sc.Text() + "\n")
				if m := regexp.MustCompile(`url=(http://\S+)`).FindStringSubmatch(sc.Text()); m != nil {
					urlc <- m[1]
				}
			}
			done <- srv.Wait()
		}()
		var url string
		select {
		case url = <-urlc:
		case err := <-done:
			t.Fatalf("editaudit mcp --http exited: %v\n%s", err, log.String())
		case <-time.After(2 * time.Minute):
			t.Fatal("editaudit mcp --http did not say where it listens")
		}
		if out := run(t, "--http", url); !strings.Contains(out.Fatal, "missing or wrong bearer token") {
			t.Errorf("without the token: %q", out.Fatal)
		}
		out := run(t, "--http", url, "--token", "s3cret-token")
		assertClientRun(t, out, dir, outside)
		srv.Process.Signal(syscall.SIGTERM)
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("after SIGTERM: %v\n%s", err, log.String())
			}
		case <-time.After(time.Minute):
			srv.Process.Kill()
			t.Fatal("still running a minute after SIGTERM")
		}
	})
}

func assertClientRun(t *testing.T, out nodeOut, dir, outside string) {
	t.Helper()
	if out.Fatal != "" {
		t.Fatalf("the client failed: %s", out.Fatal)
	}
	tools := map[string]bool{}
	for _, tool := range out.Tools {
		tools[tool.Name] = tool.InputSchema["type"] == "object" && tool.OutputSchema != nil
	}
	if out.Server.Name != "editaudit" || len(tools) != 5 || !tools["check"] || !tools["audit"] || !tools["synth"] || !tools["render"] || !tools["baseline"] {
		t.Errorf("server %+v, tools %v", out.Server, tools)
	}
	if len(out.Results) != 4 {
		t.Fatalf("%d results", len(out.Results))
	}
	for _, r := range out.Results {
		if r.Error != "" || r.Result == nil {
			t.Fatalf("%s: the client threw %q", r.Name, r.Error)
		}
	}
	text := func(i int) string {
		var b strings.Builder
		for _, c := range out.Results[i].Result.Content {
			b.WriteString(c.Text + "\n")
		}
		return b.String()
	}
	// The one-word edit: the redline, a JPEG, not blocked, progress.
	reworded := out.Results[0]
	images := 0
	for _, c := range reworded.Result.Content {
		if c.Type == "image" {
			jpeg, err := base64.StdEncoding.DecodeString(c.Data)
			if err != nil || c.MimeType != "image/jpeg" || !bytes.HasPrefix(jpeg, []byte{0xff, 0xd8, 0xff}) {
				t.Errorf("image item %s, not a JPEG (%v)", c.MimeType, err)
			}
			images++
		}
	}
	sc := reworded.Result.StructuredContent
	counts, _ := sc["counts"].(map[string]any)
	if reworded.Result.IsError || images < 1 || sc["blocked"] != false || !strings.Contains(text(0), "[-Master-]{+Silver+}") ||
		counts["images"] != float64(images) || len(reworded.Progress) < 1 {
		t.Errorf("one-word edit: isError %v, %d images, blocked %v, counts %v, %d progress notifications\n%s",
			reworded.Result.IsError, images, sc["blocked"], counts, len(reworded.Progress), text(0))
	}
	// The broken edit: blocked, naming the part.
	broken := out.Results[1].Result
	if broken.IsError || broken.StructuredContent["blocked"] != true || !strings.Contains(text(1), "BLOCKED") ||
		!strings.Contains(text(1), "fatal xml.illegal-char at word/document.xml") {
		t.Errorf("broken edit: blocked %v\n%s", broken.StructuredContent["blocked"], text(1))
	}
	// The invalid spec: a tool error with its $. path, nothing written.
	spec := out.Results[2].Result
	errs, _ := spec.StructuredContent["errors"].([]any)
	first, _ := errs[0].(map[string]any)
	if !spec.IsError || len(errs) != 1 || first["path"] != "$.docx.body[1].table.rows" || !strings.Contains(text(2), "$.docx.body[1].table.rows") {
		t.Errorf("invalid spec: isError %v, errors %v\n%s", spec.IsError, errs, text(2))
	}
	if _, err := os.Stat(filepath.Join(dir, "new.docx")); err == nil {
		t.Error("the invalid spec was written")
	}
	// The path outside the root.
	refused := out.Results[3].Result
	if !refused.IsError || !strings.Contains(text(3), filepath.Join(outside, "contract.docx")) || !strings.Contains(text(3), "outside") {
		t.Errorf("outside the root: isError %v\n%s", refused.IsError, text(3))
	}
}
