package serve

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/editaudit/editaudit/internal/testdoc"
)

// TestClients runs the example clients of examples/clients against the
// real server: the Python one (stdlib only) with --baseline (the original
// stored first, then sent by its sha256), the TypeScript one (compiled
// with the tsc of its npm ci) without. Each must print a model request
// whose user turn holds the instruction, the audit's feedback and, for a
// reworded page, its caption and JPEG; and exit 1 for a blocked edit.
func TestClients(t *testing.T) {
	if testing.Short() {
		t.Skip("LibreOffice")
	}
	r := realServer(t)
	dir := t.TempDir()
	orig := contract(t)
	docs := map[string][]byte{"contract.docx": orig, "reworded.docx": edit(t, "docx.word-replaced", orig), "broken.docx": edit(t, "xml.illegal-char", orig)}
	for n, b := range docs {
		if err := os.WriteFile(filepath.Join(dir, n), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	clients := map[string]func(args ...string) *exec.Cmd{}
	if py, err := exec.LookPath("python3"); err == nil {
		script, _ := filepath.Abs("../examples/clients/python/editaudit_client.py")
		clients["python"] = func(args ...string) *exec.Cmd {
			return exec.Command(py, append([]string{script, "--url", r.url, "--baseline"}, args...)...)
		}
	} else {
		testdoc.Missing(t, "python3")
	}
	if node, err := exec.LookPath("node"); err == nil {
		tsDir, _ := filepath.Abs("../examples/clients/typescript")
		tsc := filepath.Join(tsDir, "node_modules/.bin/tsc")
		if _, err := os.Stat(tsc); err != nil {
			testdoc.Missing(t, "examples/clients/typescript/node_modules (npm ci there: scripts/setup.sh)")
		}
		out := t.TempDir()
		if b, err := exec.Command(tsc, "-p", tsDir, "--outDir", out).CombinedOutput(); err != nil {
			t.Fatalf("tsc: %v\n%s", err, b)
		}
		// Node resolves "type": "module" from the nearest package.json.
		os.WriteFile(filepath.Join(out, "package.json"), []byte(`{"type":"module"}`), 0o644)
		clients["typescript"] = func(args ...string) *exec.Cmd {
			return exec.Command(node, append([]string{filepath.Join(out, "editaudit.js"), "--url", r.url}, args...)...)
		}
	} else {
		testdoc.Missing(t, "node")
	}
	for name, cmd := range clients {
		for _, tc := range []struct {
			edited string
			code   int
			images bool
		}{{"reworded.docx", 0, true}, {"broken.docx", 1, false}} {
			c := cmd("--instruction", "Rename the agreement.", filepath.Join(dir, "contract.docx"), filepath.Join(dir, tc.edited))
			var stdout, stderr bytes.Buffer
			c.Stdout, c.Stderr = &stdout, &stderr
			err := c.Run()
			code := 0
			if ee, ok := err.(*exec.ExitError); ok {
				code = ee.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			if code != tc.code {
				t.Fatalf("%s %s: exit %d, want %d\n%s", name, tc.edited, code, tc.code, stderr.String())
			}
			var req struct {
				Model    string
				Messages []struct {
					Role    string
					Content []struct {
						Type   string
						Text   string
						Source *struct{ Type, MediaType, Data string }
					}
				}
			}
			if err := json.Unmarshal(stdout.Bytes(), &req); err != nil || len(req.Messages) != 1 || req.Messages[0].Role != "user" {
				t.Fatalf("%s %s: not a model request: %v\n%.500s", name, tc.edited, err, stdout.String())
			}
			blocks := req.Messages[0].Content
			if len(blocks) < 2 || !strings.Contains(blocks[0].Text, "Rename the agreement.") || blocks[1].Type != "text" || blocks[1].Text == "" {
				t.Fatalf("%s %s: blocks %+v", name, tc.edited, blocks)
			}
			images := 0
			for _, b := range blocks[2:] {
				if b.Type != "image" {
					continue
				}
				images++
				jpeg, err := base64.StdEncoding.DecodeString(b.Source.Data)
				if err != nil || !bytes.HasPrefix(jpeg, []byte{0xff, 0xd8, 0xff}) {
					t.Errorf("%s %s: image block is not a base64 JPEG (%v)", name, tc.edited, err)
				}
			}
			if (images > 0) != tc.images {
				t.Errorf("%s %s: %d images", name, tc.edited, images)
			}
			if tc.code == 1 && !strings.Contains(strings.ToLower(blocks[1].Text), "block") {
				t.Errorf("%s %s: feedback does not say blocked: %.300s", name, tc.edited, blocks[1].Text)
			}
		}
	}
}
