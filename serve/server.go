package serve

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/editaudit/editaudit/audit"
	"github.com/editaudit/editaudit/baseline"
	"github.com/editaudit/editaudit/render"
)

// Defaults of Config.
const (
	DefaultAddr            = "127.0.0.1:8787"
	DefaultMaxUploadMB     = 64
	DefaultShutdownTimeout = 60 * time.Second
)

// Config says how New builds a Server. The zero value serves on loopback
// with the user's cache folder as the store, no token, 64 MiB uploads and
// min(NumCPU, 4) workers.
type Config struct {
	// StoreDir is the baseline store (default: baseline.DefaultDir()).
	StoreDir string
	// Token, when not empty, is required as "Authorization: Bearer TOKEN"
	// on every endpoint but /healthz.
	Token string
	// MaxUploadBytes caps one request's body, all files together
	// (default DefaultMaxUploadMB MiB); a larger body is answered 413.
	MaxUploadBytes int64
	// Workers is the number of requests worked on at once (default
	// min(NumCPU, 4)); it is also the LibreOffice pool size unless
	// Render.Pool.Workers says otherwise.
	Workers int
	// Queue is the number of requests that may wait for a worker (default
	// 4×Workers); beyond it a request is answered 503 with Retry-After.
	Queue int
	// RenderMode is audit.RenderAuto (default: render when LibreOffice is
	// installed), audit.RenderOn (a missing LibreOffice fails New) or
	// audit.RenderOff (never render: findings and structure only; a request
	// asking for render=on is answered 503).
	RenderMode string
	// Render builds the server's one Renderer (render.New).
	Render render.Config
	// TempDir is where the private upload folder is made (default
	// os.TempDir()).
	TempDir string
	// ShutdownTimeout bounds how long Serve waits for in-flight requests
	// after its context ends (default DefaultShutdownTimeout); requests
	// still running then are cancelled.
	ShutdownTimeout time.Duration
	// Logger receives one line per request (no document text, no file
	// names) and the server's life events; nil discards them.
	Logger *slog.Logger
}

func (c *Config) fill() error {
	if c.MaxUploadBytes <= 0 {
		c.MaxUploadBytes = DefaultMaxUploadMB << 20
	}
	if c.Workers <= 0 {
		c.Workers = min(runtime.NumCPU(), 4)
	}
	if c.Queue <= 0 {
		c.Queue = 4 * c.Workers
	}
	if c.Render.Pool.Workers <= 0 {
		c.Render.Pool.Workers = c.Workers
	}
	switch c.RenderMode {
	case "":
		c.RenderMode = audit.RenderAuto
	case audit.RenderAuto, audit.RenderOn, audit.RenderOff:
	default:
		return fmt.Errorf("serve: render mode %q: use auto, on or off", c.RenderMode)
	}
	if c.ShutdownTimeout <= 0 {
		c.ShutdownTimeout = DefaultShutdownTimeout
	}
	if c.Logger == nil {
		c.Logger = slog.New(slog.DiscardHandler)
	}
	if c.StoreDir == "" {
		d, err := baseline.DefaultDir()
		if err != nil {
			return err
		}
		c.StoreDir = d
	}
	return nil
}

// Server is the editaudit HTTP service. New starts it (renderer, store,
// upload folder), Handler serves the API, Serve runs it on a listener until
// its context ends, Close releases what New started.
type Server struct {
	cfg      Config
	store    *baseline.Store
	renderer *render.Renderer // nil: LibreOffice not installed (RenderAuto)
	tmp      string           // private upload folder (0700)
	log      *slog.Logger
	metrics  *metrics
	gate     *gate

	ready    atomic.Bool // the renderer is warm (or there is none to warm)
	warmErr  atomic.Pointer[string]
	draining atomic.Bool

	// base is the context of every request: not the signal context, so a
	// SIGTERM lets in-flight requests finish; cancelled when the shutdown
	// timeout is over.
	base       context.Context
	cancelBase context.CancelFunc
	closeOnce  sync.Once
	warmDone   chan struct{}
}

// New starts a Server: it opens the store, makes the private upload
// folder, starts the Renderer (LibreOffice) and warms it in the
// background (/healthz answers 200 once that is done). Close it.
func New(ctx context.Context, cfg Config) (*Server, error) {
	if err := cfg.fill(); err != nil {
		return nil, err
	}
	store, err := baseline.OpenStore(cfg.StoreDir)
	if err != nil {
		return nil, err
	}
	tmp, err := os.MkdirTemp(cfg.TempDir, "editaudit-serve-")
	if err != nil {
		return nil, err
	}
	if err := os.Chmod(tmp, 0o700); err != nil {
		os.RemoveAll(tmp)
		return nil, err
	}
	r, err := audit.StartRenderer(ctx, cfg.RenderMode, cfg.Render)
	if err != nil {
		os.RemoveAll(tmp)
		return nil, err
	}
	s := &Server{cfg: cfg, store: store, renderer: r, tmp: tmp, log: cfg.Logger, warmDone: make(chan struct{})}
	s.metrics = newMetrics()
	s.gate = newGate(cfg.Workers, cfg.Queue)
	s.base, s.cancelBase = context.WithCancel(context.Background())
	go s.warm()
	return s, nil
}

// Ready reports whether the renderer is warm (or absent) and the server is
// not shutting down: what /healthz answers.
func (s *Server) Ready() bool { return s.ready.Load() && !s.draining.Load() }

// WaitReady blocks until the warm-up is over or ctx ends; it returns the
// warm-up's error, if any.
func (s *Server) WaitReady(ctx context.Context) error {
	select {
	case <-s.warmDone:
	case <-ctx.Done():
		return ctx.Err()
	}
	if e := s.warmErr.Load(); e != nil {
		return errors.New(*e)
	}
	return nil
}

// Serve serves the API on ln until ctx ends, then stops accepting, lets
// in-flight requests finish (at most ShutdownTimeout, then cancels them),
// and closes the Server (LibreOffice stopped, upload folder removed). It
// returns nil after a clean shutdown.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	hs := &http.Server{
		Handler:           s.Handler(),
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       2 * time.Minute,
		BaseContext:       func(net.Listener) context.Context { return s.base },
		ErrorLog:          slog.NewLogLogger(s.log.Handler(), slog.LevelWarn),
	}
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	s.log.Info("serving", "addr", ln.Addr().String(), "workers", s.cfg.Workers, "queue", s.cfg.Queue,
		"max_upload_bytes", s.cfg.MaxUploadBytes, "renderer", s.rendererName(), "auth", s.cfg.Token != "")
	select {
	case err := <-errc:
		s.Close()
		return err
	case <-ctx.Done():
	}
	s.draining.Store(true)
	s.log.Info("shutting down: no new connections, waiting for in-flight requests", "timeout", s.cfg.ShutdownTimeout.String())
	sctx, cancel := context.WithTimeout(context.Background(), s.cfg.ShutdownTimeout)
	defer cancel()
	err := hs.Shutdown(sctx)
	if err != nil {
		s.log.Warn("in-flight requests cancelled at the shutdown timeout", "err", err.Error())
		s.cancelBase()
		_ = hs.Close()
	}
	<-errc
	s.Close()
	s.log.Info("stopped")
	return nil
}

// Close stops the renderer (LibreOffice) and removes the upload folder.
// Requests still running are cancelled.
func (s *Server) Close() error {
	var err error
	s.closeOnce.Do(func() {
		s.draining.Store(true)
		s.cancelBase()
		<-s.warmDone
		err = s.renderer.Close()
		if e := os.RemoveAll(s.tmp); err == nil {
			err = e
		}
	})
	return err
}

func (s *Server) rendererName() string {
	if s.renderer == nil {
		return s.noRendererReason()
	}
	return fmt.Sprintf("%T", s.renderer.Converter)
}

// noRendererReason says why the server has no renderer.
func (s *Server) noRendererReason() string {
	if s.cfg.RenderMode == audit.RenderOff {
		return "off (the server's --render off): pages are not rendered"
	}
	return "none: LibreOffice is not installed, pages are not rendered"
}
