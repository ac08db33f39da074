package main

import (
	"fmt"
	"log/slog"
	"net"
	"os"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/editaudit/editaudit/internal/httpauth"
	"github.com/editaudit/editaudit/serve"
)

func serveCommand() *cli.Command {
	return &cli.Command{
		Name:  "serve",
		Usage: "the HTTP service: audits, checks and baselines with a warm LibreOffice",
		Description: `serve answers POST /v1/audit (multipart files original and edited; fields
format, render, show, content, original_sha256), POST /v1/check (file),
POST /v1/baseline (file → its sha256), GET /healthz (200 once LibreOffice is
warm) and GET /metrics (Prometheus). A report's body is what the CLI prints
for the same files and format; X-Editaudit-Blocked says the verdict (the
status is 200 also when blocked). The API is described in api/openapi.yaml.

It listens on loopback unless --addr says otherwise; any other address needs
--token-file (clients send Authorization: Bearer <token>). SIGTERM or SIGINT
stop it: no new requests, in-flight ones finish (at most
--shutdown-timeout), LibreOffice is stopped, exit 0.

Examples:
   editaudit serve
   curl -sF original=@contract.docx -F edited=@edited.docx -F format=json \
        http://127.0.0.1:8787/v1/audit`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "addr", Value: serve.DefaultAddr, Usage: "listen address (host:port); a non-loopback host requires --token-file"},
			storeFlag(),
			&cli.StringFlag{Name: "token-file", Usage: "file holding the bearer token clients must send (required off loopback)"},
			&cli.IntFlag{Name: "max-upload-mb", Value: serve.DefaultMaxUploadMB, Usage: "largest request body, all files together, in MiB (413 beyond)"},
			&cli.IntFlag{Name: "workers", Usage: "requests worked on at once, and LibreOffice processes", DefaultText: "min(CPUs, 4)"},
			&cli.IntFlag{Name: "queue", Usage: "requests that may wait for a worker before 503 + Retry-After", DefaultText: "4 × workers"},
			&cli.StringFlag{Name: "render", Value: "auto", Usage: "auto: render when LibreOffice is installed; on: refuse to start without it; off: never render (findings and structure only)"},
			&cli.DurationFlag{Name: "shutdown-timeout", Value: serve.DefaultShutdownTimeout, Usage: "how long in-flight requests may take to finish after SIGTERM"},
		},
		Action: runServe,
	}
}

func runServe(c *cli.Context) error {
	if c.NArg() != 0 {
		return usageErr("serve takes no arguments (see editaudit serve --help)")
	}
	addr := c.String("addr")
	token, err := listenToken(c, "addr", addr, "127.0.0.1:8787")
	if err != nil {
		return err
	}
	if c.Int("max-upload-mb") <= 0 || c.Int("workers") < 0 || c.Int("queue") < 0 {
		return usageErr("--max-upload-mb must be positive, --workers and --queue not negative")
	}
	mode, err := renderMode(c)
	if err != nil {
		return err
	}
	log := slog.New(slog.NewTextHandler(c.App.ErrWriter, nil))
	srv, err := serve.New(c.Context, serve.Config{
		StoreDir: c.String("store"), Token: token, MaxUploadBytes: int64(c.Int("max-upload-mb")) << 20,
		Workers: c.Int("workers"), Queue: c.Int("queue"), RenderMode: mode,
		ShutdownTimeout: c.Duration("shutdown-timeout"), Logger: log,
	})
	if err != nil {
		return toolErr(err)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		srv.Close()
		return toolErr(fmt.Errorf("listening on %s: %w", addr, err))
	}
	if err := srv.Serve(c.Context, ln); err != nil {
		return toolErr(err)
	}
	return nil
}

// listenToken applies the access rule of editaudit's HTTP servers
// (httpauth) to the listen address of flag: the bearer token read from
// --token-file, and without one an address off loopback is a usage error.
// example is a listen address for the error message.
func listenToken(c *cli.Context, flag, addr, example string) (string, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return "", usageErr("--%s %q: %v (use host:port, e.g. %s)", flag, addr, err, example)
	}
	f := c.String("token-file")
	if f == "" {
		if !httpauth.Loopback(host) {
			return "", usageErr("--%s %s is not a loopback address: give --token-file so that only clients with the token are served", flag, addr)
		}
		return "", nil
	}
	b, err := os.ReadFile(f)
	if err != nil {
		return "", usageErr("--token-file: %v", err)
	}
	token := strings.TrimSpace(string(b))
	if token == "" {
		return "", usageErr("--token-file %s is empty", f)
	}
	return token, nil
}
