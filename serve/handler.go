package serve

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/editaudit/editaudit/internal/httpauth"
)

// Endpoint paths (DESIGN.md "Service").
const (
	PathAudit    = "/v1/audit"
	PathCheck    = "/v1/check"
	PathBaseline = "/v1/baseline"
	PathHealth   = "/healthz"
	PathMetrics  = "/metrics"
)

// answer is a successful response: the report bytes and their type.
type answer struct {
	contentType string
	body        []byte
	// blocked, when not nil, is sent as X-Editaudit-Blocked.
	blocked *bool
	// note, when not empty, is sent as X-Editaudit-Note.
	note string
}

// work is what an upload endpoint does with a parsed request.
type work func(ctx context.Context, req *request) (*answer, error)

// Handler is the API: the endpoints of DESIGN.md "Service", each answer
// counted and logged.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.Handle(PathAudit, s.upload(PathAudit, auditForm, s.audit))
	mux.Handle(PathCheck, s.upload(PathCheck, checkForm, s.check))
	mux.Handle(PathBaseline, s.upload(PathBaseline, baselineForm, s.baseline))
	mux.Handle(PathHealth, s.simple(PathHealth, s.health))
	mux.Handle(PathMetrics, s.simple(PathMetrics, s.metricsText))
	mux.Handle("/", s.simple("other", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, &Error{Status: http.StatusNotFound, Code: "not_found",
			Message: fmt.Sprintf("no endpoint %s; the API is POST %s, %s, %s and GET %s, %s (api/openapi.yaml)", r.URL.Path, PathAudit, PathCheck, PathBaseline, PathHealth, PathMetrics)})
	}))
	return mux
}

// recorder keeps the status a handler wrote.
type recorder struct {
	http.ResponseWriter
	code int
}

func (r *recorder) WriteHeader(code int) {
	if r.code == 0 {
		r.code = code
	}
	r.ResponseWriter.WriteHeader(code)
}

func (r *recorder) Write(b []byte) (int, error) {
	if r.code == 0 {
		r.code = http.StatusOK
	}
	return r.ResponseWriter.Write(b)
}

// observe wraps a handler with the token check, the method check, the
// metrics and the log line.
func (s *Server) observe(endpoint, method string, auth bool, h http.HandlerFunc) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		rec := &recorder{ResponseWriter: w}
		switch {
		case auth && !httpauth.Authorized(r, s.cfg.Token):
			rec.Header().Set("WWW-Authenticate", httpauth.Challenge)
			writeError(rec, &Error{Status: http.StatusUnauthorized, Code: "unauthorized",
				Message: "missing or wrong bearer token: send the header Authorization: Bearer <token> (the server's --token-file)"})
		case method != "" && r.Method != method:
			rec.Header().Set("Allow", method)
			writeError(rec, &Error{Status: http.StatusMethodNotAllowed, Code: "method_not_allowed",
				Message: fmt.Sprintf("%s takes %s, not %s", r.URL.Path, method, r.Method)})
		default:
			h(rec, r)
		}
		code := rec.code
		if code == 0 {
			code = 499 // the client went away before an answer was written
		}
		d := time.Since(start)
		s.metrics.request(endpoint, code, d)
		if endpoint != PathHealth && endpoint != PathMetrics {
			s.log.Info("request", "method", r.Method, "endpoint", endpoint, "status", code,
				"ms", d.Milliseconds(), "bytes_in", r.ContentLength, "remote", r.RemoteAddr)
		}
	})
}

// simple is a GET endpoint without uploads.
func (s *Server) simple(endpoint string, h http.HandlerFunc) http.Handler {
	method := http.MethodGet
	if endpoint == "other" {
		method = ""
	}
	return s.observe(endpoint, method, endpoint != PathHealth, h)
}

// upload is a POST endpoint taking multipart uploads: admitted by the gate
// before its body is read (503 + Retry-After when full), its uploads
// streamed to a private folder removed after the answer, then worked on
// when a worker is free.
func (s *Server) upload(endpoint string, f form, do work) http.Handler {
	return s.observe(endpoint, http.MethodPost, true, func(w http.ResponseWriter, r *http.Request) {
		if s.draining.Load() {
			writeError(w, &Error{Status: http.StatusServiceUnavailable, Code: "shutting_down", Message: "the server is shutting down", RetryAfter: 5})
			return
		}
		if !s.gate.admit() {
			writeError(w, &Error{Status: http.StatusServiceUnavailable, Code: "busy",
				Message: fmt.Sprintf("all %d workers are busy and %d requests are queued; retry later", s.cfg.Workers, s.cfg.Queue), RetryAfter: s.gate.retryAfter()})
			return
		}
		defer s.gate.leave()
		req, err := readForm(w, r, s.tmp, s.cfg.MaxUploadBytes, f)
		if err != nil {
			s.fail(w, r, err)
			return
		}
		defer req.cleanup()
		release, err := s.gate.acquire(r.Context())
		if err != nil {
			return // the client went away while queued
		}
		ans, err := do(r.Context(), req)
		release()
		if err != nil {
			s.fail(w, r, err)
			return
		}
		h := w.Header()
		h.Set("Content-Type", ans.contentType)
		h.Set("Content-Length", strconv.Itoa(len(ans.body)))
		h.Set("X-Content-Type-Options", "nosniff")
		if ans.blocked != nil {
			h.Set("X-Editaudit-Blocked", strconv.FormatBool(*ans.blocked))
			s.metrics.verdict(endpoint, *ans.blocked)
		}
		if ans.note != "" {
			h.Set("X-Editaudit-Note", ans.note)
		}
		w.WriteHeader(http.StatusOK)
		_, _ = w.Write(ans.body)
	})
}

// fail answers err: an *Error as it is, a request whose client went
// away not at all, anything else 500 (logged).
func (s *Server) fail(w http.ResponseWriter, r *http.Request, err error) {
	var ae *Error
	switch {
	case errors.As(err, &ae):
		writeError(w, ae)
	case r.Context().Err() != nil:
		// The client is gone (or the shutdown timeout passed): nobody to answer.
	default:
		s.log.Error("request failed", "endpoint", r.URL.Path, "err", err.Error())
		writeError(w, &Error{Status: http.StatusInternalServerError, Code: "internal", Message: err.Error()})
	}
}

// writeError writes e as JSON with its status (and Retry-After).
func writeError(w http.ResponseWriter, e *Error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(e)
	b := buf.Bytes()
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Content-Length", strconv.Itoa(len(b)))
	h.Set("X-Content-Type-Options", "nosniff")
	if e.RetryAfter > 0 {
		h.Set("Retry-After", strconv.Itoa(e.RetryAfter))
	}
	w.WriteHeader(e.Status)
	_, _ = w.Write(b)
}

// health answers /healthz: 200 once the renderer is warm, 503 while it
// warms up, after a failed warm-up (with the reason) and while shutting
// down.
func (s *Server) health(w http.ResponseWriter, _ *http.Request) {
	type status struct {
		Status   string `json:"status"`
		Renderer string `json:"renderer"`
		Error    string `json:"error,omitempty"`
	}
	st := status{Status: "ok", Renderer: "warm"}
	code := http.StatusOK
	if s.renderer == nil {
		st.Renderer = s.noRendererReason()
	}
	switch {
	case s.draining.Load():
		st.Status, code = "shutting down", http.StatusServiceUnavailable
	case !s.ready.Load():
		st.Status, st.Renderer, code = "starting", "warming up", http.StatusServiceUnavailable
		if e := s.warmErr.Load(); e != nil {
			st.Status, st.Renderer, st.Error = "failing", "warm-up failed, retrying", *e
		}
	}
	var b bytes.Buffer
	_ = json.NewEncoder(&b).Encode(st)
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(code)
	_, _ = w.Write(b.Bytes())
}

// metricsText answers /metrics in the Prometheus text format.
func (s *Server) metricsText(w http.ResponseWriter, _ *http.Request) {
	g := gauges{queued: s.gate.waiting.Load(), running: s.gate.running.Load()}
	if s.Ready() {
		g.ready = 1
	}
	if s.renderer != nil {
		g.pool = poolStats(s.renderer.Converter)
		st := s.renderer.Pages.Stats()
		g.pages = &st
	}
	var b bytes.Buffer
	_ = s.metrics.write(&b, g)
	w.Header().Set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	_, _ = w.Write(b.Bytes())
}
