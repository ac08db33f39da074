package main

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/urfave/cli/v2"

	"github.com/editaudit/editaudit/audit"
	"github.com/editaudit/editaudit/mcp"
	"github.com/editaudit/editaudit/render"
	"github.com/editaudit/editaudit/synth"
)

func mcpCommand() *cli.Command {
	return &cli.Command{
		Name:  "mcp",
		Usage: "serve the tools to AI agents over the Model Context Protocol (stdio, or streamable HTTP)",
		Description: `mcp gives an agent editaudit's tools through the Model Context Protocol. An MCP
client (Claude Desktop, Claude Code, Cursor, an agent built on an MCP SDK…)
starts "editaudit mcp" and talks to it over standard input and output; with
--http ADDR it serves streamable HTTP at http://ADDR/mcp instead.

Tools (each returns text and images for the model, and structured JSON):
   check     path → findings with fixes, structure counts, the first pages
   audit     original (or original_sha256) + edited → what the edit broke:
             new defects (a new fatal one blocks), shrunk structure, the
             changed text as a redline, before/after images of changed pages;
             blocked and counts in the structured result; restore: true puts
             the original back atomically when blocked
   synth     a document spec (its JSON Schema is the input schema) + out →
             a written, checked document; every spec error at once, each
             with its $. path and cap
   render    path → the pages as images and pages.json
   baseline  path → the original's snapshot stored; returns its sha256

Files: only under --root folders (repeatable; default the working folder).
Every path is resolved, symbolic links included, before it is judged: a
path outside, a link leading outside, or a missing file is a tool error
that names the path, and nothing is read. synth's out and audit's restore
write there too, and nowhere else.

One LibreOffice pool (--workers processes) starts with the server and
serves every call; calls report progress when the client asks for it and
stop LibreOffice's work on a document when the client cancels them.

HTTP listens on loopback unless --http says otherwise; any other address
needs --token-file, and clients send Authorization: Bearer <token>.
Logs go to standard error (standard output is the protocol's over stdio).

Register it with a client (docs/mcp.md has more):
   {"mcpServers": {"editaudit": {"command": "editaudit",
      "args": ["mcp", "--root", "/home/me/documents"]}}}

Examples:
   editaudit mcp --root ~/documents
   editaudit mcp --http 127.0.0.1:8788 --root /srv/docs
   npx @modelcontextprotocol/inspector --cli editaudit mcp --method tools/list`,
		Flags: []cli.Flag{
			&cli.StringSliceFlag{Name: "root", Usage: "folder the tools may read and write (repeatable)", DefaultText: "the working folder"},
			&cli.StringFlag{Name: "http", Usage: "serve streamable HTTP on this address (host:port; the endpoint is /mcp) instead of stdio"},
			&cli.StringFlag{Name: "token-file", Usage: "file holding the bearer token HTTP clients must send (required off loopback)"},
			storeFlag(),
			renderFlag(),
			&cli.IntFlag{Name: "workers", Value: mcp.DefaultWorkers, Usage: "LibreOffice processes"},
			&cli.StringFlag{Name: "artifacts", Usage: "folder whose PNG and JPEG files synth specs may name as artifact:ID"},
		},
		Action: runMCP,
	}
}

// mcpGrace is how long HTTP calls in flight may take to finish after
// SIGTERM.
const mcpGrace = 30 * time.Second

func runMCP(c *cli.Context) error {
	if c.NArg() != 0 {
		return usageErr("mcp takes no arguments (see editaudit mcp --help)")
	}
	mode, err := renderMode(c)
	if err != nil {
		return err
	}
	if c.Int("workers") <= 0 {
		return usageErr("--workers must be at least 1")
	}
	addr := c.String("http")
	var token string
	if addr != "" {
		if token, err = listenToken(c, "http", addr, "127.0.0.1:8788"); err != nil {
			return err
		}
	} else if c.String("token-file") != "" {
		return usageErr("--token-file is for --http; over stdio the client that starts the server is the only one")
	}
	for _, r := range c.StringSlice("root") {
		if st, err := os.Stat(r); err != nil || !st.IsDir() {
			return usageErr("--root %s: not a folder", r)
		}
	}
	cfg := mcp.Config{Roots: c.StringSlice("root"), StoreDir: c.String("store"), RenderMode: mode,
		Render: render.Config{Pool: render.PoolOptions{Workers: c.Int("workers")}},
		Logger: slog.New(slog.NewTextHandler(c.App.ErrWriter, nil)),
	}
	if dir := c.String("artifacts"); dir != "" {
		art, err := synth.OpenArtifacts(dir)
		if err != nil {
			return usageErr("--artifacts %s: %v", dir, err)
		}
		defer art.Close()
		cfg.Artifacts = art
	}
	srv, err := mcp.New(c.Context, cfg)
	if err != nil {
		return toolErr(err)
	}
	defer srv.Close()
	if mode == audit.RenderOn {
		if err := srv.WaitRenderer(c.Context); err != nil {
			return toolErr(err)
		}
	}
	if addr != "" {
		ln, err := net.Listen("tcp", addr)
		if err != nil {
			return toolErr(fmt.Errorf("listening on %s: %w", addr, err))
		}
		if err := srv.ServeHTTP(c.Context, ln, token, mcpGrace); err != nil {
			return toolErr(err)
		}
		return nil
	}
	in := c.App.Reader
	if in == nil {
		in = os.Stdin
	}
	err = srv.Run(c.Context, &sdk.IOTransport{Reader: io.NopCloser(in), Writer: nopWriteCloser{c.App.Writer}})
	if err != nil && !errors.Is(err, io.EOF) {
		return toolErr(err)
	}
	return nil
}

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }
