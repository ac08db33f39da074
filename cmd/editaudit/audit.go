package main

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/editaudit/editaudit/audit"
	"github.com/editaudit/editaudit/reports"
	"github.com/editaudit/editaudit/serve"
)

func auditCommand() *cli.Command {
	return &cli.Command{
		Name:      "audit",
		Usage:     "what did the edit break? compare an edited document with its original",
		ArgsUsage: "ORIGINAL EDITED",
		Description: `audit reports only what the edit introduced:
  1. new defects that keep the application from opening the file (graded fatal,
     error, warning, info, with part, line:column and a fix); problems the
     original already had are summarised in one line, never blamed on the edit;
  2. structure that shrank (tables, rows, cells, paragraphs, slides, runs,
     charts, images…), before → after and where;
  3. content that changed (--content on, the default; no renderer needed):
     each text edit as a redline ([-old-]{+new+}), formatting lost or changed,
     cells, paragraphs inserted, deleted or moved, each with where it is
     ("body paragraph 12", "slide 4, shape 'Title 1'", "Sheet1!B4");
  4. rendered pages that changed, aligned so an inserted page does not make
     every later page "changed"; the first --show pages as before/after images.

Only a new fatal defect blocks (exit 1). With --restore a blocked edit is
undone: the original's bytes are put back at EDITED atomically and the
rejected file is kept in --out as rejected.<ext>. Without --restore no input
is ever written.

Examples:
   editaudit audit contract.docx contract-edited.docx
   editaudit audit --format html --out report/ a.pptx b.pptx && open report/report.html
   editaudit audit --format model --show 2 a.docx b.docx | your-agent
   editaudit audit --restore --out rejected/ orig.xlsx edited.xlsx`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "format", Aliases: []string{"f"}, Value: "text", Usage: "output: text (model feedback), json, model (content blocks with images), html, sarif"},
			&cli.StringFlag{Name: "out", Aliases: []string{"o"}, Usage: "folder for page images, the HTML report and the rejected file"},
			storeFlag(),
			renderFlag(),
			contentFlag(),
			&cli.IntFlag{Name: "show", Value: audit.DefaultShow, Usage: "changed pages shown as before/after images (0: none)"},
			&cli.BoolFlag{Name: "restore", Usage: "when blocked, put the original back at EDITED (atomically)"},
			modelBytesFlag(),
			&cli.StringFlag{Name: "server", EnvVars: []string{"EDITAUDIT_SERVER"}, Usage: "audit through a running `editaudit serve` at this URL (its warm LibreOffice and store); the output is the same. Unreachable or busy: audited here. Not with --out or --restore"},
			&cli.StringFlag{Name: "server-token-file", EnvVars: []string{"EDITAUDIT_SERVER_TOKEN_FILE"}, Usage: "file holding the bearer token of --server"},
		},
		Action: runAudit,
	}
}

func runAudit(c *cli.Context) error {
	if c.NArg() != 2 {
		return usageErr("audit needs ORIGINAL and EDITED (see editaudit audit --help)")
	}
	format, mode, show, mopts, err := outputOptions(c, reports.AuditFormats)
	if err != nil {
		return err
	}
	content, err := contentMode(c)
	if err != nil {
		return err
	}
	// The original must be a file (exit 2 otherwise); a missing edited
	// file is the audit's finding file.missing.
	orig, edited := c.Args().Get(0), c.Args().Get(1)
	if err := inputFile("ORIGINAL", orig); err != nil {
		if st, serr := os.Stat(orig); serr == nil && st.IsDir() {
			return usageErr("%s is a folder; audit compares two files (for folders use editaudit corpus run --originals DIR --edited DIR)", orig)
		}
		return err
	}
	store, err := openStore(c)
	if err != nil {
		return toolErr(err)
	}
	out := c.String("out")
	if err := writableDir(out); err != nil {
		return toolErr(err)
	}
	if done, err := auditByServer(c, format, mode, mopts.MaxBytes, orig, edited); done || err != nil {
		return err
	}
	res, err := audit.Files(c.Context, orig, edited, audit.Options{
		Render: mode, Content: content, Store: store, Show: libraryShow(show), OutDir: out, Restore: c.Bool("restore"),
	})
	if err != nil {
		return toolErr(err)
	}
	write := func(w io.Writer) error { return reports.WriteAudit(w, res, format, reports.AuditOptions{Model: mopts}) }
	if format == reports.FormatHTML && out != "" {
		err = writeReport(c.App.Writer, out, "report.html", write)
	} else {
		err = write(c.App.Writer)
	}
	if err != nil {
		return toolErr(err)
	}
	if res.Blocked {
		return blocked
	}
	return nil
}

// auditByServer audits through the service named by --server (or
// EDITAUDIT_SERVER) and prints its answer, which is what this command
// prints. done is false when the audit is to be made here: no server, --out
// or --restore asked for (the service returns no files), or a service that
// cannot be reached, is busy or takes smaller files (said on stderr).
func auditByServer(c *cli.Context, format, mode string, modelBytes int, orig, edited string) (done bool, err error) {
	url := c.String("server")
	if url == "" {
		return false, nil
	}
	if c.String("out") != "" || c.Bool("restore") {
		fmt.Fprintf(c.App.ErrWriter, "editaudit: --out and --restore write files here: auditing locally, not through %s\n", url)
		return false, nil
	}
	cl := &serve.Client{URL: url}
	if f := c.String("server-token-file"); f != "" {
		b, err := os.ReadFile(f)
		if err != nil {
			return true, usageErr("--server-token-file: %v", err)
		}
		cl.Token = strings.TrimSpace(string(b))
	}
	ans, err := cl.Audit(c.Context, serve.AuditRequest{Original: orig, Edited: edited, Format: format, Render: mode,
		Show: c.Int("show"), ShowSet: true, ModelBytes: modelBytes})
	var e *serve.Error
	switch {
	case err == nil:
	case c.Context.Err() != nil:
		return true, c.Context.Err()
	case !errors.As(err, &e) || e.Status == http.StatusServiceUnavailable && e.Code != "renderer_unavailable" ||
		e.Status == http.StatusRequestEntityTooLarge:
		fmt.Fprintf(c.App.ErrWriter, "editaudit: the service at %s did not take the audit (%v): auditing locally\n", url, err)
		return false, nil
	default:
		return true, toolErr(fmt.Errorf("the service at %s: %w", url, err))
	}
	if ans.Note != "" {
		fmt.Fprintf(c.App.ErrWriter, "editaudit: %s\n", ans.Note)
	}
	if _, err := c.App.Writer.Write(ans.Body); err != nil {
		return true, toolErr(err)
	}
	if ans.Blocked {
		return true, blocked
	}
	return true, nil
}
