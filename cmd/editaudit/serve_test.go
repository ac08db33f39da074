package main

// The service answers what the command prints: for the same files, every
// audit format (json, text, model, sarif, html) and every check format is
// byte-equal between `editaudit audit|check` and POST /v1/audit|check,
// with real LibreOffice; `audit --server` prints the same again, with the
// same exit code; a service that cannot be reached leaves the audit to the
// command.

import (
	"bytes"
	"context"
	"io"
	"mime/multipart"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/editaudit/editaudit/internal/testdoc"
	"github.com/editaudit/editaudit/mutate"
	"github.com/editaudit/editaudit/serve"
)

// startService serves on a free loopback port until the test ends and
// returns its URL once /healthz would answer 200.
func startService(t *testing.T, cfg serve.Config) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	s, err := serve.New(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- s.Serve(ctx, ln) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Serve: %v", err)
		}
	})
	wctx, wcancel := context.WithTimeout(ctx, 5*time.Minute)
	defer wcancel()
	if err := s.WaitReady(wctx); err != nil {
		t.Fatal(err)
	}
	return "http://" + ln.Addr().String()
}

// postFiles sends files (field → path, uploaded under their base names)
// and fields, and returns status, verdict header and body.
func postFiles(t *testing.T, url string, files [][2]string, fields ...string) (int, string, []byte) {
	t.Helper()
	var b bytes.Buffer
	mw := multipart.NewWriter(&b)
	for _, f := range files {
		data, err := os.ReadFile(f[1])
		if err != nil {
			t.Fatal(err)
		}
		w, _ := mw.CreateFormFile(f[0], filepath.Base(f[1]))
		w.Write(data)
	}
	for i := 0; i+1 < len(fields); i += 2 {
		mw.WriteField(fields[i], fields[i+1])
	}
	mw.Close()
	resp, err := http.Post(url, mw.FormDataContentType(), &b)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header.Get("X-Editaudit-Blocked"), body
}

func TestServiceEqualsCLI(t *testing.T) {
	if testing.Short() {
		t.Skip("LibreOffice")
	}
	if _, err := exec.LookPath("soffice"); err != nil {
		testdoc.Missing(t, "LibreOffice (soffice)")
	}
	dir := t.TempDir()
	t.Chdir(dir)
	code, _, stderr := cliRun(t, "corpus", "synth", "--fixtures", "--render", "off", filepath.Join(cwd(t), "../../examples/specs/contract.json"), "contract.docx")
	if code != 0 {
		t.Fatalf("synth: %s", stderr)
	}
	orig, _ := os.ReadFile("contract.docx")
	for name, inj := range map[string]string{"reworded.docx": "docx.word-replaced", "broken.docx": "xml.illegal-char"} {
		b, err := mutate.Mutate(inj, orig)
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(name, b, 0o644)
	}
	url := startService(t, serve.Config{StoreDir: filepath.Join(dir, "service-store"), TempDir: dir, Workers: 2, RenderMode: "on"})
	for _, edited := range []string{"reworded.docx", "broken.docx"} {
		wantBlocked := map[string]string{"reworded.docx": "false", "broken.docx": "true"}[edited]
		for _, format := range []string{"json", "text", "model", "sarif", "html"} {
			code, cli, stderr := cliRun(t, "audit", "--store", "cli-store", "--format", format, "contract.docx", edited)
			if code != map[string]int{"false": 0, "true": 1}[wantBlocked] {
				t.Fatalf("audit %s %s: exit %d %s", format, edited, code, stderr)
			}
			status, blocked, body := postFiles(t, url+serve.PathAudit, [][2]string{{"original", "contract.docx"}, {"edited", edited}}, "format", format)
			if status != 200 || blocked != wantBlocked {
				t.Fatalf("POST audit %s %s: %d blocked=%s %s", format, edited, status, blocked, body)
			}
			if !bytes.Equal(body, []byte(cli)) {
				t.Errorf("audit --format %s %s: service and CLI differ\nservice %s\ncli     %s", format, edited, head(body), head([]byte(cli)))
			}
			if format != "json" && format != "model" {
				continue
			}
			// The command through the service: same bytes, same exit code.
			code2, viaServer, stderr := cliRun(t, "audit", "--server", url, "--format", format, "contract.docx", edited)
			if code2 != code || viaServer != cli || stderr != "" {
				t.Errorf("audit --server --format %s %s: exit %d (want %d), stderr %q, same output %v", format, edited, code2, code, stderr, viaServer == cli)
			}
		}
		if edited == "reworded.docx" {
			_, _, body := postFiles(t, url+serve.PathAudit, [][2]string{{"original", "contract.docx"}, {"edited", edited}}, "format", "json")
			if !bytes.Contains(body, []byte(`"status": "ok"`)) || !bytes.Contains(body, []byte(`"changed": [`)) {
				t.Errorf("pages not rendered and compared: %s", body)
			}
		}
	}
	for _, file := range []string{"contract.docx", "broken.docx"} {
		for _, format := range []string{"json", "text", "model", "html"} {
			code, cli, stderr := cliRun(t, "check", "--format", format, file)
			status, blocked, body := postFiles(t, url+serve.PathCheck, [][2]string{{"file", file}}, "format", format)
			if status != 200 || (blocked == "true") != (code == 1) {
				t.Fatalf("POST check %s %s: %d blocked=%s (exit %d %s) %s", format, file, status, blocked, code, stderr, body)
			}
			if !bytes.Equal(body, []byte(cli)) {
				t.Errorf("check --format %s %s: service and CLI differ\nservice %s\ncli     %s", format, file, head(body), head([]byte(cli)))
			}
		}
	}
	// A service that cannot be reached: the command audits here and says so.
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	gone := "http://" + ln.Addr().String()
	ln.Close()
	code, local, stderr := cliRun(t, "audit", "--server", gone, "--store", "cli-store", "--format", "json", "contract.docx", "broken.docx")
	_, want, _ := cliRun(t, "audit", "--store", "cli-store", "--format", "json", "contract.docx", "broken.docx")
	if code != 1 || local != want || !bytes.Contains([]byte(stderr), []byte("auditing locally")) {
		t.Errorf("unreachable service: exit %d, stderr %q, same output %v", code, stderr, local == want)
	}
}

// cwd is the package folder, where the test started (t.Chdir moves away).
func cwd(t *testing.T) string {
	t.Helper()
	if pkgDir == "" {
		t.Fatal("no working folder")
	}
	return pkgDir
}

var pkgDir, _ = os.Getwd()

func head(b []byte) string {
	if len(b) > 300 {
		return string(b[:300]) + "…"
	}
	return string(b)
}

// TestServeCommand: the flags' refusals are usage errors (exit 2), and a
// cancelled context (SIGTERM) stops the service with exit 0.
func TestServeCommand(t *testing.T) {
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty")
	os.WriteFile(empty, []byte("\n"), 0o600)
	for _, args := range [][]string{
		{"serve", "--addr", "0.0.0.0:0"},
		{"serve", "--addr", ":8787"},
		{"serve", "--addr", "nohost"},
		{"serve", "--token-file", empty},
		{"serve", "--token-file", filepath.Join(dir, "missing")},
		{"serve", "--render", "sometimes"},
		{"serve", "--max-upload-mb", "0"},
		{"serve", "extra"},
	} {
		if code, _, stderr := cliRun(t, args...); code != exitUsage || stderr == "" {
			t.Errorf("%v: exit %d, stderr %q", args, code, stderr)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	var out, errb bytes.Buffer
	done := make(chan int, 1)
	go func() {
		done <- Run(ctx, []string{"editaudit", "serve", "--addr", "127.0.0.1:0", "--render", "off", "--store", filepath.Join(dir, "store")}, &out, &errb)
	}()
	time.Sleep(500 * time.Millisecond)
	cancel()
	if code := <-done; code != exitOK {
		t.Errorf("serve after SIGTERM: exit %d, stderr %s", code, errb.String())
	}
	if !bytes.Contains(errb.Bytes(), []byte("msg=stopped")) {
		t.Errorf("no stop logged: %s", errb.String())
	}
}
