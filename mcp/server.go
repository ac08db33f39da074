package mcp

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
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/editaudit/editaudit/audit"
	"github.com/editaudit/editaudit/baseline"
	"github.com/editaudit/editaudit/internal/httpauth"
	"github.com/editaudit/editaudit/render"
	"github.com/editaudit/editaudit/synth"
)

// Name is the server's name in the MCP handshake.
const Name = "editaudit"

// Path is where the streamable HTTP transport answers (`--http ADDR`).
const Path = "/mcp"

// DefaultWorkers is the default number of LibreOffice processes: an MCP
// server usually has one agent calling it, and an audit converts its
// original and its edit at once.
var DefaultWorkers = min(runtime.NumCPU(), 2)

// Config says how New builds a Server. The zero value reads and writes
// under the working directory, keeps snapshots in the user's cache folder
// and renders when LibreOffice is installed.
type Config struct {
	// Roots are the folders whose files the tools may read and write
	// (default: the working directory). Every path argument must resolve,
	// symbolic links followed, under one of them.
	Roots []string
	// StoreDir is the baseline store (default baseline.DefaultDir()).
	StoreDir string
	// RenderMode is audit.RenderAuto (default: render when LibreOffice is
	// installed), audit.RenderOn (a LibreOffice that cannot start makes
	// every tool that renders fail) or audit.RenderOff (never render).
	RenderMode string
	// Render builds the one Renderer every tool shares (render.New);
	// Render.Pool.Workers defaults to DefaultWorkers.
	Render render.Config
	// Artifacts resolves the "artifact:ID" images of synth specs; nil
	// refuses them (the spec error says so).
	Artifacts *synth.Artifacts
	// Logger receives one line per tool call (tool, outcome, seconds; no
	// document text) and the server's life events; nil discards them. Over
	// stdio it must not write to standard output.
	Logger *slog.Logger
	// Version is the version the handshake reports
	// (default baseline.EngineVersion()).
	Version string
}

// Server is editaudit's MCP server: the tools on one warm Renderer and
// one store. New starts it, Run serves one client over a transport
// (stdio), Handler serves streamable HTTP, Close stops LibreOffice.
type Server struct {
	cfg   Config
	roots *roots
	store *baseline.Store
	log   *slog.Logger
	srv   *sdk.Server

	// The renderer starts in the background (render.New takes seconds
	// and the handshake must not wait for it); a tool that renders waits.
	rendererDone chan struct{}
	renderer     *render.Renderer
	rendererErr  error
	startCtx     context.Context
	cancelStart  context.CancelFunc
	closeOnce    sync.Once

	// onDone, when set (tests), is called when a tool call ends.
	onDone func(tool string, err error)
}

// New builds a Server: it resolves the roots, opens the store and starts
// the Renderer (LibreOffice) in the background. Close it.
func New(ctx context.Context, cfg Config) (*Server, error) {
	switch cfg.RenderMode {
	case "":
		cfg.RenderMode = audit.RenderAuto
	case audit.RenderAuto, audit.RenderOn, audit.RenderOff:
	default:
		return nil, fmt.Errorf("mcp: render mode %q: use auto, on or off", cfg.RenderMode)
	}
	if cfg.Render.Pool.Workers <= 0 {
		cfg.Render.Pool.Workers = DefaultWorkers
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.Version == "" {
		cfg.Version = baseline.EngineVersion()
	}
	rs, err := newRoots(cfg.Roots)
	if err != nil {
		return nil, fmt.Errorf("mcp: %w", err)
	}
	if cfg.StoreDir == "" {
		if cfg.StoreDir, err = baseline.DefaultDir(); err != nil {
			return nil, err
		}
	}
	store, err := baseline.OpenStore(cfg.StoreDir)
	if err != nil {
		return nil, err
	}
	s := &Server{cfg: cfg, roots: rs, store: store, log: cfg.Logger, rendererDone: make(chan struct{})}
	s.startCtx, s.cancelStart = context.WithCancel(context.WithoutCancel(ctx))
	go s.startRenderer()
	s.srv = sdk.NewServer(&sdk.Implementation{Name: Name, Title: "editaudit", Version: cfg.Version}, &sdk.ServerOptions{
		Instructions: instructions,
		// The SDK's own lines (session start and end) only from warnings
		// up: one line per tool call is editaudit's.
		Logger: slog.New(minLevel{cfg.Logger.Handler(), slog.LevelWarn}),
	})
	s.addTools()
	return s, nil
}

// minLevel drops a handler's records below a level.
type minLevel struct {
	slog.Handler
	min slog.Level
}

func (h minLevel) Enabled(ctx context.Context, l slog.Level) bool {
	return l >= h.min && h.Handler.Enabled(ctx, l)
}

func (h minLevel) WithAttrs(as []slog.Attr) slog.Handler {
	return minLevel{h.Handler.WithAttrs(as), h.min}
}

func (h minLevel) WithGroup(name string) slog.Handler {
	return minLevel{h.Handler.WithGroup(name), h.min}
}

// instructions is what the handshake tells a client's model about the
// server as a whole.
const instructions = `editaudit checks documents (Word .docx, PowerPoint .pptx, Excel .xlsx, Hangul .hwpx) that you write or edit.
Before editing a file, call baseline with its path (or just keep the original file); after editing, call audit with original and edited: it reports only what your edit introduced — new defects that keep Office from opening the file (a new fatal finding blocks), structure that shrank, changed text as a redline, and changed pages as before/after images. With restore: true a blocked edit is undone. To write a new document, call synth with a spec (its input schema); errors come back all at once with their $. paths. check validates a file on its own; render shows its pages.
Paths are files under the server's allowed folders.`

func (s *Server) startRenderer() {
	defer close(s.rendererDone)
	start := time.Now()
	r, err := audit.StartRenderer(s.startCtx, s.cfg.RenderMode, s.cfg.Render)
	s.renderer, s.rendererErr = r, err
	switch {
	case err != nil:
		s.log.Error("LibreOffice did not start: tools render no pages", "err", err.Error())
	case r == nil && s.cfg.RenderMode == audit.RenderAuto:
		s.log.Warn("LibreOffice is not installed: pages are not rendered")
	case r != nil:
		s.log.Info("renderer started", "seconds", time.Since(start).Seconds(), "workers", s.cfg.Render.Pool.Workers)
	}
}

// WaitRenderer waits until the Renderer started (or failed to, or there
// is none to start) and returns the failure. `editaudit mcp --render on`
// calls it before serving, so a LibreOffice that cannot start is said at
// once.
func (s *Server) WaitRenderer(ctx context.Context) error {
	_, err := s.rendererFor(ctx)
	return err
}

// waitStep says, in the call's progress, that it waits for LibreOffice to
// start, when it does (the first call after the server started).
func (s *Server) waitStep(c *call) {
	select {
	case <-s.rendererDone:
	default:
		c.step("waiting for LibreOffice to start (the first call after the server started)")
	}
}

// rendererFor waits for the Renderer: nil without an error when pages are
// not rendered here (render off, or auto without LibreOffice).
func (s *Server) rendererFor(ctx context.Context) (*render.Renderer, error) {
	select {
	case <-s.rendererDone:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	if s.rendererErr != nil {
		return nil, s.rendererErr
	}
	return s.renderer, nil
}

// Run serves one client over t (stdio: &sdk.StdioTransport{}) until the
// client disconnects or ctx ends.
func (s *Server) Run(ctx context.Context, t sdk.Transport) error {
	err := s.srv.Run(ctx, t)
	if ctx.Err() != nil {
		return nil
	}
	return err
}

// Handler is the streamable HTTP transport at Path, each request checked
// for the bearer token when token is not empty (httpauth, as serve does).
// Idle sessions are closed after an hour.
func (s *Server) Handler(token string) http.Handler {
	h := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s.srv },
		&sdk.StreamableHTTPOptions{Logger: s.log, SessionTimeout: time.Hour})
	mux := http.NewServeMux()
	mux.Handle(Path, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !httpauth.Authorized(r, token) {
			w.Header().Set("WWW-Authenticate", httpauth.Challenge)
			http.Error(w, "missing or wrong bearer token: send the header Authorization: Bearer <token> (the server's --token-file)", http.StatusUnauthorized)
			return
		}
		h.ServeHTTP(w, r)
	}))
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, fmt.Sprintf("no endpoint %s: the MCP endpoint is %s (streamable HTTP)", r.URL.Path, Path), http.StatusNotFound)
	})
	return mux
}

// ServeHTTP serves Handler(token) on ln until ctx ends, then stops
// accepting, gives the calls in flight up to grace to finish, and closes
// the Server.
func (s *Server) ServeHTTP(ctx context.Context, ln net.Listener, token string, grace time.Duration) error {
	hs := &http.Server{
		Handler:           s.Handler(token),
		ReadHeaderTimeout: 10 * time.Second,
		ErrorLog:          slog.NewLogLogger(s.log.Handler(), slog.LevelWarn),
	}
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	s.log.Info("serving MCP over streamable HTTP", "url", "http://"+ln.Addr().String()+Path, "roots", s.roots.String(), "auth", token != "")
	select {
	case err := <-errc:
		s.Close()
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), grace)
	defer cancel()
	if err := hs.Shutdown(sctx); err != nil {
		_ = hs.Close()
	}
	<-errc
	return s.Close()
}

// Close stops the Renderer (LibreOffice). Calls still running fail.
func (s *Server) Close() error {
	var err error
	s.closeOnce.Do(func() {
		s.cancelStart()
		<-s.rendererDone
		err = s.renderer.Close()
	})
	return err
}

// errNoRenderer says why a tool that must render cannot.
func (s *Server) errNoRenderer() error {
	if s.cfg.RenderMode == audit.RenderOff {
		return errors.New("this server runs with --render off: it renders no pages")
	}
	return errors.New("LibreOffice is not installed on this server, so it renders no pages (apt-get install libreoffice-writer-nogui libreoffice-calc-nogui libreoffice-impress-nogui poppler-utils)")
}

// tempDir makes a private folder for one call (0700), removed by the
// returned func.
func tempDir() (string, func(), error) {
	d, err := os.MkdirTemp("", "editaudit-mcp-")
	if err != nil {
		return "", nil, err
	}
	return d, func() { os.RemoveAll(d) }, nil
}
