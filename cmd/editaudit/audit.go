package main

import (
	"io"
	"os"

	"github.com/urfave/cli/v2"

	"github.com/editaudit/editaudit/audit"
	"github.com/editaudit/editaudit/reports"
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
