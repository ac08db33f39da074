package serve

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/editaudit/editaudit/baseline"
	"github.com/editaudit/editaudit/internal/testdoc"
	"github.com/editaudit/editaudit/mutate"
	"github.com/editaudit/editaudit/render"
	"github.com/editaudit/editaudit/synth"
)

// running is a Server serving on a free loopback port.
type running struct {
	*Server
	url  string
	stop context.CancelFunc
	done chan error
}

// start serves cfg on 127.0.0.1:0 until the test ends, and waits until
// /healthz would answer 200.
func start(t testing.TB, cfg Config) *running {
	t.Helper()
	if cfg.StoreDir == "" {
		cfg.StoreDir = t.TempDir()
	}
	if cfg.TempDir == "" {
		cfg.TempDir = t.TempDir()
	}
	r := startServer(t, cfg)
	t.Cleanup(func() { r.close(t) })
	return r
}

func startServer(t testing.TB, cfg Config) *running {
	t.Helper()
	ctx := context.Background()
	s, err := New(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		s.Close()
		t.Fatal(err)
	}
	sctx, stop := context.WithCancel(ctx)
	r := &running{Server: s, url: "http://" + ln.Addr().String(), stop: stop, done: make(chan error, 1)}
	go func() { r.done <- s.Serve(sctx, ln) }()
	wctx, cancel := context.WithTimeout(ctx, 5*time.Minute)
	defer cancel()
	if err := s.WaitReady(wctx); err != nil {
		r.close(t)
		t.Fatalf("warm-up: %v", err)
	}
	return r
}

func (r *running) close(t testing.TB) {
	r.stop()
	if err := <-r.done; err != nil {
		t.Errorf("Serve: %v", err)
	}
}

var (
	realOnce sync.Once
	realSrv  *running
	realErr  string
)

// realServer is one server with the real LibreOffice shared by the tests
// (its warm-up is the slow part), closed by TestMain.
func realServer(t *testing.T) *running {
	t.Helper()
	if _, err := exec.LookPath("soffice"); err != nil {
		testdoc.Missing(t, "LibreOffice (soffice)")
	}
	realOnce.Do(func() {
		dir, err := os.MkdirTemp("", "serve-test-")
		if err != nil {
			realErr = err.Error()
			return
		}
		realDir = dir
		rt := &onceTB{T: t}
		func() {
			defer func() { recover() }()
			realSrv = startServer(rt, Config{StoreDir: filepath.Join(dir, "store"), TempDir: dir, Workers: 2, RenderMode: "on"})
		}()
		if realSrv == nil {
			realErr = "the shared server did not start: " + rt.msg
		}
	})
	if realSrv == nil {
		t.Fatal(realErr)
	}
	return realSrv
}

var realDir string

// onceTB lets startServer report through the first test that asks for
// the shared server without tying the server's life to that test.
type onceTB struct {
	*testing.T
	msg string
}

func (o *onceTB) Fatal(a ...any) { o.msg = fmt.Sprint(a...); panic(o.msg) }
func (o *onceTB) Fatalf(f string, a ...any) {
	o.msg = fmt.Sprintf(f, a...)
	panic(o.msg)
}

func TestMain(m *testing.M) {
	code := m.Run()
	if realSrv != nil {
		realSrv.stop()
		<-realSrv.done
		// The upload folder is gone with the server.
		if ents, _ := filepath.Glob(filepath.Join(realDir, "editaudit-serve-*")); len(ents) > 0 {
			fmt.Fprintf(os.Stderr, "upload folder left after Close: %v\n", ents)
			code = 1
		}
		os.RemoveAll(realDir)
	}
	os.Exit(code)
}

// part is one field of a multipart request: a file when file is set.
type part struct {
	name, file string
	data       []byte
}

func field(name, value string) part { return part{name: name, data: []byte(value)} }
func file(name, filename string, data []byte) part {
	return part{name: name, file: filename, data: data}
}

// post sends a multipart request and returns the answer with its body.
func post(t testing.TB, url, token string, parts ...part) (*http.Response, []byte) {
	t.Helper()
	var b bytes.Buffer
	mw := multipart.NewWriter(&b)
	for _, p := range parts {
		var w io.Writer
		var err error
		if p.file != "" {
			w, err = mw.CreateFormFile(p.name, p.file)
		} else {
			w, err = mw.CreateFormField(p.name)
		}
		if err != nil {
			t.Fatal(err)
		}
		w.Write(p.data)
	}
	mw.Close()
	req, _ := http.NewRequest(http.MethodPost, url, &b)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	return do(t, req)
}

func do(t testing.TB, req *http.Request) (*http.Response, []byte) {
	t.Helper()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, body
}

// wantError checks an error answer: status, JSON body with code and field.
func wantError(t *testing.T, what string, resp *http.Response, body []byte, status int, code, fld string) Error {
	t.Helper()
	var e Error
	if resp.StatusCode != status {
		t.Errorf("%s: status %d, want %d: %s", what, resp.StatusCode, status, body)
	}
	if ct := resp.Header.Get("Content-Type"); ct != "application/json" {
		t.Errorf("%s: Content-Type %q", what, ct)
	}
	if err := json.Unmarshal(body, &e); err != nil {
		t.Fatalf("%s: not JSON: %v: %s", what, err, body)
	}
	if e.Code != code || e.Field != fld || e.Message == "" || e.Status != status {
		t.Errorf("%s: got %+v, want code %q field %q", what, e, code, fld)
	}
	return e
}

// contractSpec is the bundled contract's spec (examples/specs/contract.json).
func contractSpec(t testing.TB) *synth.Spec {
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
	return spec
}

// contract is the bundled 3-page contract.
func contract(t testing.TB) []byte {
	t.Helper()
	b, err := synth.Synthesize(contractSpec(t))
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

// TestErrors: every refusal is JSON naming the problem and, when it is
// about a field, the field; none needs LibreOffice.
func TestErrors(t *testing.T) {
	r := start(t, Config{RenderMode: "off", Workers: 1})
	doc := contract(t)
	sha := strings.Repeat("ab", 32)
	// Wrong content type.
	req, _ := http.NewRequest(http.MethodPost, r.url+PathAudit, strings.NewReader(`{"original":"a"}`))
	req.Header.Set("Content-Type", "application/json")
	resp, body := do(t, req)
	wantError(t, "json body", resp, body, 400, "bad_content_type", "Content-Type")
	resp, body = post(t, r.url+PathAudit, "", file("original", "a.docx", doc))
	wantError(t, "no edited", resp, body, 400, "missing_field", "edited")
	resp, body = post(t, r.url+PathAudit, "", file("edited", "b.docx", doc))
	wantError(t, "no original", resp, body, 400, "missing_field", "original")
	resp, body = post(t, r.url+PathAudit, "", file("orignal", "a.docx", doc), file("edited", "b.docx", doc))
	wantError(t, "misspelt field", resp, body, 400, "bad_field", "orignal")
	resp, body = post(t, r.url+PathAudit, "", file("original", "a.docx", doc), file("original", "a.docx", doc))
	wantError(t, "field twice", resp, body, 400, "bad_field", "original")
	resp, body = post(t, r.url+PathAudit, "", file("original", "a.docx", doc), file("edited", "b.docx", doc), field("format", "pdf"))
	wantError(t, "bad format", resp, body, 400, "bad_field", "format")
	resp, body = post(t, r.url+PathAudit, "", file("original", "a.docx", doc), file("edited", "b.docx", doc), field("show", "-1"))
	wantError(t, "bad show", resp, body, 400, "bad_field", "show")
	resp, body = post(t, r.url+PathAudit, "", file("original", "a.docx", doc), file("edited", "b.docx", doc), field("content", "maybe"))
	wantError(t, "bad content", resp, body, 400, "bad_field", "content")
	resp, body = post(t, r.url+PathAudit, "", file("original", "a.docx", doc), file("edited", "b.docx", doc), field("render", "on"))
	wantError(t, "render on, server off", resp, body, 503, "renderer_unavailable", "render")
	resp, body = post(t, r.url+PathAudit, "", field("original_sha256", sha), file("edited", "b.docx", doc))
	wantError(t, "sha not stored", resp, body, 404, "not_in_store", "original_sha256")
	resp, body = post(t, r.url+PathAudit, "", field("original_sha256", "abc"), file("edited", "b.docx", doc))
	wantError(t, "bad sha", resp, body, 400, "bad_field", "original_sha256")
	resp, body = post(t, r.url+PathAudit, "", field("original_sha256", sha), file("original", "a.docx", doc), file("edited", "b.docx", doc))
	wantError(t, "sha and original", resp, body, 400, "bad_field", "original_sha256")
	resp, body = post(t, r.url+PathBaseline, "")
	wantError(t, "baseline without file", resp, body, 400, "missing_field", "file")
	resp, body = post(t, r.url+PathAudit, "", field("format", strings.Repeat("x", 2000)))
	wantError(t, "long field", resp, body, 400, "bad_field", "format")
	req, _ = http.NewRequest(http.MethodGet, r.url+PathAudit, nil)
	resp, body = do(t, req)
	wantError(t, "GET audit", resp, body, 405, "method_not_allowed", "")
	if resp.Header.Get("Allow") != "POST" {
		t.Errorf("405 without Allow: POST: %v", resp.Header)
	}
	req, _ = http.NewRequest(http.MethodGet, r.url+"/v1/../etc/passwd", nil)
	resp, body = do(t, req)
	if resp.StatusCode != 404 && resp.StatusCode != 301 {
		t.Errorf("path outside the API: %d %s", resp.StatusCode, body)
	}
	req, _ = http.NewRequest(http.MethodGet, r.url+"/v2/audit", nil)
	resp, body = do(t, req)
	wantError(t, "unknown path", resp, body, 404, "not_found", "")
	// A truncated multipart body.
	req, _ = http.NewRequest(http.MethodPost, r.url+PathAudit, strings.NewReader("--x\r\nContent-Disposition: form-data; name=\"original\"; filename=\"a.docx\"\r\n\r\nPK"))
	req.Header.Set("Content-Type", "multipart/form-data; boundary=x")
	resp, body = do(t, req)
	wantError(t, "truncated", resp, body, 400, "bad_upload", "original")
	assertNoUploads(t, r.Server)
}

// assertNoUploads: every request's upload folder is gone (waiting a moment
// for handlers of closed connections to return).
func assertNoUploads(t *testing.T, s *Server) {
	t.Helper()
	for i := 0; ; i++ {
		ents, err := os.ReadDir(s.tmp)
		if err != nil {
			t.Fatal(err)
		}
		var left []string
		for _, e := range ents {
			if strings.HasPrefix(e.Name(), "req-") {
				left = append(left, e.Name())
			}
		}
		if len(left) == 0 {
			return
		}
		if i == 100 {
			t.Fatalf("upload folders left: %v", left)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestUploadLimit: a body over --max-upload-mb is 413 with a JSON error,
// whether its length is announced or it is streamed (chunked), and never
// read whole; the upload folder is removed.
func TestUploadLimit(t *testing.T) {
	r := start(t, Config{RenderMode: "off", MaxUploadBytes: 1 << 20})
	big := bytes.Repeat([]byte("x"), 3<<20)
	resp, body := post(t, r.url+PathAudit, "", file("original", "a.docx", big), file("edited", "b.docx", big))
	e := wantError(t, "announced length", resp, body, 413, "too_large", "")
	if !strings.Contains(e.Message, "1 MiB") {
		t.Errorf("413 does not state the limit: %s", e.Message)
	}
	// Streamed: no Content-Length, so the limit is met while reading.
	pr, pw := io.Pipe()
	mw := multipart.NewWriter(pw)
	go func() {
		w, _ := mw.CreateFormFile("edited", "b.docx")
		for i := 0; i < 64; i++ {
			if _, err := w.Write(big[:64<<10]); err != nil {
				pw.CloseWithError(err)
				return
			}
		}
		pw.CloseWithError(mw.Close())
	}()
	req, _ := http.NewRequest(http.MethodPost, r.url+PathAudit, pr)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	resp, body = do(t, req)
	wantError(t, "streamed", resp, body, 413, "too_large", "edited")
	assertNoUploads(t, r.Server)
}

// TestToken: with a token every endpoint but /healthz needs it, compared
// in full.
func TestToken(t *testing.T) {
	r := start(t, Config{RenderMode: "off", Token: "s3cret-token"})
	for _, tok := range []string{"", "s3cret", "s3cret-token-and-more", "S3CRET-TOKEN"} {
		resp, body := post(t, r.url+PathAudit, tok)
		wantError(t, "token "+tok, resp, body, 401, "unauthorized", "")
		if !strings.HasPrefix(resp.Header.Get("WWW-Authenticate"), "Bearer") {
			t.Errorf("401 without WWW-Authenticate: %v", resp.Header)
		}
	}
	req, _ := http.NewRequest(http.MethodGet, r.url+PathMetrics, nil)
	resp, _ := do(t, req)
	if resp.StatusCode != 401 {
		t.Errorf("metrics without token: %d", resp.StatusCode)
	}
	req, _ = http.NewRequest(http.MethodGet, r.url+PathHealth, nil)
	if resp, body := do(t, req); resp.StatusCode != 200 {
		t.Errorf("healthz without token: %d %s", resp.StatusCode, body)
	}
	// The right token gets through to the form checks.
	resp, body := post(t, r.url+PathAudit, "s3cret-token")
	wantError(t, "right token", resp, body, 400, "missing_field", "edited")
}

// TestAuditOffAndBaseline: without rendering, an audit answers the report
// with the verdict header; a baseline's sha256 stands for the original.
func TestAuditOffAndBaseline(t *testing.T) {
	r := start(t, Config{RenderMode: "off"})
	orig := contract(t)
	bad := edit(t, "xml.illegal-char", orig)
	resp, body := post(t, r.url+PathBaseline, "", file("file", "contract.docx", orig))
	var bl baseline.Receipt
	if err := json.Unmarshal(body, &bl); resp.StatusCode != 200 || err != nil || len(bl.SHA256) != 64 || bl.Stored != "stored" || bl.Format != "docx" || bl.Pages.Status != "off" {
		t.Fatalf("baseline: %d %v %s", resp.StatusCode, err, body)
	}
	resp, bySHA := post(t, r.url+PathAudit, "", field("original_sha256", strings.ToUpper(bl.SHA256)), field("original_name", "contract.docx"),
		file("edited", "edit.docx", bad), field("format", "json"))
	if resp.StatusCode != 200 || resp.Header.Get("X-Editaudit-Blocked") != "true" {
		t.Fatalf("blocked edit: %d %v %s", resp.StatusCode, resp.Header, bySHA)
	}
	var res struct {
		Blocked  bool
		Original struct{ Path, SHA256 string }
		Pages    struct{ Status, Message string }
	}
	if err := json.Unmarshal(bySHA, &res); err != nil || !res.Blocked || res.Original.Path != "contract.docx" || res.Original.SHA256 != bl.SHA256 || res.Pages.Status != "off" {
		t.Errorf("report: %v %+v", err, res)
	}
	resp, byUpload := post(t, r.url+PathAudit, "", file("original", "contract.docx", orig), file("edited", "edit.docx", bad), field("format", "json"))
	if resp.StatusCode != 200 || !bytes.Equal(bySHA, byUpload) {
		t.Errorf("by upload: %d\n%s\nby sha256:\n%s", resp.StatusCode, byUpload, bySHA)
	}
	_, body = post(t, r.url+PathBaseline, "", file("file", "contract.docx", orig))
	if err := json.Unmarshal(body, &bl); err != nil || bl.Stored != "already stored" {
		t.Errorf("second baseline: %s", body)
	}
	assertNoUploads(t, r.Server)
}

// TestAuditRendered: with the real LibreOffice, a one-word edit is
// answered with the changed page; the same edit by original_sha256 after
// POST /v1/baseline gives the same bytes; /metrics counts it all.
func TestAuditRendered(t *testing.T) {
	if testing.Short() {
		t.Skip("LibreOffice")
	}
	r := realServer(t)
	orig := contract(t)
	edited := edit(t, "docx.word-replaced", orig)
	resp, body := post(t, r.url+PathAudit, "", file("original", "contract.docx", orig), file("edited", "edit.docx", edited), field("format", "json"))
	if resp.StatusCode != 200 || resp.Header.Get("X-Editaudit-Blocked") != "false" {
		t.Fatalf("%d %v %s", resp.StatusCode, resp.Header, body)
	}
	var res struct {
		Original struct{ SHA256 string }
		Pages    struct {
			Status  string
			Changed []struct{ After int }
		}
	}
	if err := json.Unmarshal(body, &res); err != nil || res.Pages.Status != "ok" || len(res.Pages.Changed) == 0 {
		t.Fatalf("pages not compared: %v %s", err, body)
	}
	resp, bl := post(t, r.url+PathBaseline, "", file("file", "contract.docx", orig))
	if resp.StatusCode != 200 || !strings.Contains(string(bl), res.Original.SHA256) || !strings.Contains(string(bl), `"status": "ok"`) {
		t.Fatalf("baseline: %d %s", resp.StatusCode, bl)
	}
	resp, body2 := post(t, r.url+PathAudit, "", field("original_sha256", res.Original.SHA256), field("original_name", "contract.docx"),
		file("edited", "edit.docx", edited), field("format", "json"))
	if resp.StatusCode != 200 || !bytes.Equal(body, body2) {
		t.Errorf("by original_sha256: %d\n%s\nwant\n%s", resp.StatusCode, body2, body)
	}
	resp, m := get(t, r.url+PathMetrics)
	if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/plain; version=0.0.4") {
		t.Fatalf("metrics: %d %v", resp.StatusCode, resp.Header)
	}
	checkExposition(t, string(m))
	for _, want := range []string{
		`editaudit_http_requests_total{endpoint="/v1/audit",code="200"} `,
		`editaudit_http_request_duration_seconds_bucket{endpoint="/v1/audit",le="+Inf"} `,
		`editaudit_verdicts_total{endpoint="/v1/audit",verdict="passed"} `,
		"editaudit_queue_depth 0", "editaudit_ready 1", "editaudit_libreoffice_restarts_total ",
		`editaudit_page_cache_lookups_total{result="hit"} `, "editaudit_page_cache_bytes ",
	} {
		if !strings.Contains(string(m), want) {
			t.Errorf("metrics lack %q:\n%s", want, m)
		}
	}
	if n := sample(t, string(m), `editaudit_conversions_total{result="ok"}`); n < 4 { // 3 warm-up documents + at least the edit
		t.Errorf("conversions ok = %v", n)
	}
	assertNoUploads(t, r.Server)
}

func get(t testing.TB, url string) (*http.Response, []byte) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, url, nil)
	return do(t, req)
}

var sampleLine = regexp.MustCompile(`^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{[a-z_]+="[^"\\]*"(,[a-z_]+="[^"\\]*")*\})? (-?[0-9.e+-]+|\+Inf|NaN)$`)

// checkExposition checks the text format 0.0.4: every sample line is
// well-formed and belongs to a family announced by HELP and TYPE before
// it; histogram buckets are cumulative and end with +Inf = _count.
func checkExposition(t *testing.T, text string) {
	t.Helper()
	types := map[string]string{}
	var lastBucket float64
	sc := bufio.NewScanner(strings.NewReader(text))
	for sc.Scan() {
		line := sc.Text()
		if f, ok := strings.CutPrefix(line, "# TYPE "); ok {
			name, typ, _ := strings.Cut(f, " ")
			types[name] = typ
			continue
		}
		if strings.HasPrefix(line, "# HELP ") {
			continue
		}
		m := sampleLine.FindStringSubmatch(line)
		if m == nil {
			t.Errorf("malformed line %q", line)
			continue
		}
		name := m[1]
		base := strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(name, "_bucket"), "_sum"), "_count")
		if types[name] == "" && types[base] != "histogram" {
			t.Errorf("sample %q before its TYPE", line)
		}
		v, _ := strconv.ParseFloat(m[4], 64)
		if strings.HasSuffix(name, "_bucket") {
			if strings.Contains(line, `le="0.05"`) {
				lastBucket = 0
			}
			if v < lastBucket {
				t.Errorf("bucket not cumulative: %q", line)
			}
			lastBucket = v
		}
	}
}

// sample is the value of the series named exactly (name with labels).
func sample(t *testing.T, text, series string) float64 {
	t.Helper()
	for _, line := range strings.Split(text, "\n") {
		if v, ok := strings.CutPrefix(line, series+" "); ok {
			f, err := strconv.ParseFloat(v, 64)
			if err != nil {
				t.Fatal(err)
			}
			return f
		}
	}
	t.Errorf("no series %s", series)
	return 0
}

// faultServer serves through the fault-injecting soffice stand-in of the
// render tests (a document holding HANG hangs LibreOffice) with a short
// deadline (a hanging LibreOffice is idle and killed at it; a busy one on a
// loaded machine gets more time). The stand-in wraps batch conversions (files on the command
// line), so this server runs the batch engine; the warm engine's own hang
// handling is tested in render with its fault-injecting bridge.
func faultServer(t *testing.T, workers, queue int) *running {
	t.Helper()
	real, err := exec.LookPath("soffice")
	if err != nil {
		testdoc.Missing(t, "LibreOffice (soffice)")
	}
	wrapper, err := filepath.Abs("../render/testdata/soffice-faults.sh")
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("EDITAUDIT_REAL_SOFFICE", real)
	return start(t, Config{Workers: workers, Queue: queue, RenderMode: "on",
		Render: render.Config{Engine: render.EngineBatch, Pool: render.PoolOptions{SofficePath: wrapper, Deadline: 8 * time.Second}}})
}

// stored rewrites a document with every part uncompressed and old replaced
// by new in word/document.xml, so the stand-in sees a marker.
func stored(t testing.TB, doc []byte, old, new string) []byte {
	t.Helper()
	parts := testdoc.Unzip(t, doc)
	var ps []testdoc.Part
	for _, n := range sortedNames(parts) {
		d := string(parts[n])
		if n == "word/document.xml" {
			if !strings.Contains(d, old) {
				t.Fatalf("%q not in the document", old)
			}
			d = strings.Replace(d, old, new, 1)
		}
		ps = append(ps, testdoc.Part{Name: n, Data: d, Store: true})
	}
	return testdoc.Zip(ps...)
}

func sortedNames(m map[string][]byte) []string {
	var ns []string
	for n := range m {
		if n == "[Content_Types].xml" {
			ns = append([]string{n}, ns...)
			continue
		}
		ns = append(ns, n)
	}
	return ns
}

// TestHangingDocumentAndQueue: a document that hangs LibreOffice gets
// pages.status failed with the reason, while an audit beside it is
// answered normally; requests beyond workers + queue are answered 503
// with Retry-After before their upload is read.
func TestHangingDocumentAndQueue(t *testing.T) {
	if testing.Short() {
		t.Skip("LibreOffice")
	}
	r := faultServer(t, 2, 1)
	orig := contract(t)
	fine := edit(t, "docx.word-replaced", orig)
	type result struct {
		resp *http.Response
		body []byte
	}
	results := make(chan result, 4)
	send := func(name string, doc []byte) {
		resp, body := post(t, r.url+PathAudit, "", file("original", "contract.docx", orig), file("edited", name, doc), field("format", "json"))
		results <- result{resp, body}
	}
	// check reads n answers: each a report whose pages failed with the
	// timeout for hang*.docx and are ok for fine.docx.
	check := func(n int) {
		for i := 0; i < n; i++ {
			res := <-results
			var rep struct {
				Edited struct{ Path string }
				Pages  struct{ Status, Message string }
			}
			if res.resp.StatusCode != 200 || json.Unmarshal(res.body, &rep) != nil {
				t.Fatalf("%d %s", res.resp.StatusCode, res.body)
			}
			if strings.HasPrefix(rep.Edited.Path, "hang") {
				if rep.Pages.Status != "failed" || !strings.Contains(rep.Pages.Message, "timeout") {
					t.Errorf("%s: pages %+v, want failed with the timeout", rep.Edited.Path, rep.Pages)
				}
			} else if rep.Pages.Status != "ok" {
				t.Errorf("%s beside a hanging document: pages %+v", rep.Edited.Path, rep.Pages)
			}
		}
	}
	// A hanging document and a healthy one at the same time.
	go send("hang1.docx", stored(t, orig, "Master", "HANG1"))
	waitFor(t, func() bool { return r.gate.running.Load() == 1 })
	go send("fine.docx", fine)
	check(2)
	// Both workers held by hanging documents, one request queued: the next
	// is refused at once.
	go send("hang2.docx", stored(t, orig, "Master", "HANG2"))
	go send("hang3.docx", stored(t, orig, "Master", "HANG3"))
	waitFor(t, func() bool { return r.gate.running.Load() == 2 })
	go send("hang4.docx", stored(t, orig, "Master", "HANG4"))
	waitFor(t, func() bool { return r.gate.waiting.Load() == 1 })
	resp, body := post(t, r.url+PathAudit, "", file("original", "contract.docx", orig), file("edited", "fine.docx", fine))
	wantError(t, "queue full", resp, body, 503, "busy", "")
	if ra, err := strconv.Atoi(resp.Header.Get("Retry-After")); err != nil || ra < 1 {
		t.Errorf("503 Retry-After %q", resp.Header.Get("Retry-After"))
	}
	check(3)
	_, m := get(t, r.url+PathMetrics)
	if n := sample(t, string(m), "editaudit_libreoffice_restarts_total"); n < 1 {
		t.Errorf("no restart counted after a hang:\n%s", m)
	}
	if n := sample(t, string(m), `editaudit_http_requests_total{endpoint="/v1/audit",code="503"}`); n != 1 {
		t.Errorf("503s counted %v", n)
	}
	assertNoUploads(t, r.Server)
}

func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("condition not reached")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestClientGoesAway: a client that disconnects mid-upload or while its
// audit runs leaves no upload behind, and the server goes on serving.
func TestClientGoesAway(t *testing.T) {
	r := start(t, Config{RenderMode: "off", Workers: 1})
	pr, pw := io.Pipe()
	mw := multipart.NewWriter(pw)
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, r.url+PathAudit, pr)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	errc := make(chan error, 1)
	go func() {
		resp, err := http.DefaultClient.Do(req)
		if err == nil {
			resp.Body.Close()
		}
		errc <- err
	}()
	w, _ := mw.CreateFormFile("original", "a.docx")
	w.Write(bytes.Repeat([]byte("y"), 200<<10))
	waitFor(t, func() bool {
		ents, _ := os.ReadDir(r.tmp)
		return len(ents) > 0
	})
	cancel()
	pw.CloseWithError(context.Canceled)
	<-errc
	assertNoUploads(t, r.Server)
	doc := contract(t)
	resp, body := post(t, r.url+PathAudit, "", file("original", "a.docx", doc), file("edited", "b.docx", doc))
	if resp.StatusCode != 200 {
		t.Errorf("after a client went away: %d %s", resp.StatusCode, body)
	}
}

// TestShutdown: when Serve's context ends, an in-flight request is still
// answered, new connections are refused, /healthz said 503 meanwhile, and
// the upload folder is removed.
func TestShutdown(t *testing.T) {
	cfg := Config{RenderMode: "off", StoreDir: t.TempDir(), TempDir: t.TempDir()}
	r := startServer(t, cfg)
	pr, pw := io.Pipe()
	mw := multipart.NewWriter(pw)
	req, _ := http.NewRequest(http.MethodPost, r.url+PathAudit, pr)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	type result struct {
		code int
		body []byte
		err  error
	}
	done := make(chan result, 1)
	go func() {
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			done <- result{err: err}
			return
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		done <- result{code: resp.StatusCode, body: b}
	}()
	doc := contract(t)
	w, _ := mw.CreateFormFile("original", "a.docx")
	w.Write(doc)
	waitFor(t, func() bool { return r.gate.admitted.Load() == 1 })
	r.stop() // SIGTERM
	waitFor(t, func() bool { return !r.Ready() })
	w, _ = mw.CreateFormFile("edited", "b.docx")
	w.Write(doc)
	mw.Close()
	pw.Close()
	res := <-done
	if res.err != nil || res.code != 200 {
		t.Errorf("in-flight request: %v %d %s", res.err, res.code, res.body)
	}
	if err := <-r.done; err != nil {
		t.Errorf("Serve after shutdown: %v", err)
	}
	if _, err := os.Stat(r.tmp); !os.IsNotExist(err) {
		t.Errorf("upload folder left: %v", err)
	}
	if _, err := http.Get(r.url + PathHealth); err == nil {
		t.Error("still accepting after shutdown")
	}
}

// TestClientName: an upload's file name is a label: base name only,
// no control characters, at most 255 bytes; only a plain extension is
// kept for the file the server writes.
func TestClientName(t *testing.T) {
	for in, want := range map[string]string{
		"contract.docx":          "contract.docx",
		"../../etc/passwd":       "passwd",
		`C:\Users\me\a.docx`:     "a.docx",
		"a\x00b\nc.docx":         "abc.docx",
		"..":                     "",
		"dir/":                   "",
		strings.Repeat("é", 200): strings.Repeat("é", 127),
	} {
		if got := clientName(in); got != want {
			t.Errorf("clientName(%q) = %q, want %q", in, got, want)
		}
	}
	for in, want := range map[string]string{"a.DOCX": ".docx", "a.tar.gz": ".gz", "a.d$cx": "", "a": "", "a.verylongext": ""} {
		if got := plainExt(in); got != want {
			t.Errorf("plainExt(%q) = %q, want %q", in, got, want)
		}
	}
}
