package main

import (
	"context"
	"fmt"
	"io"

	"github.com/urfave/cli/v2"

	"github.com/editaudit/editaudit/audit"
	"github.com/editaudit/editaudit/formats"
	"github.com/editaudit/editaudit/formats/inspect"
	"github.com/editaudit/editaudit/render"
	"github.com/editaudit/editaudit/reports"
)

func checkCommand() *cli.Command {
	return &cli.Command{
		Name:      "check",
		Usage:     "validate documents on their own (no original to compare with)",
		ArgsUsage: "FILE...",
		Description: `check opens each file as the zip+XML package it is, runs every validator and
counts its structure. Each finding has a grade (fatal: the application refuses
or repairs the file; error: it opens but shows wrong things; warning; info),
the part, line and column, what is wrong and how to fix it.

Exit code 1 when any file has a fatal finding, 0 otherwise.

Examples:
   editaudit check contract.docx
   editaudit check --format json *.xlsx | jq '.[] | select(.fatal)'`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "format", Aliases: []string{"f"}, Value: "text", Usage: "output: text, json, model (content blocks with the first pages as images) or html"},
			renderFlag(),
			&cli.IntFlag{Name: "show", Value: reports.DefaultCheckPages, Usage: "most pages attached as images by --format model and html (then the --model-bytes budget decides)"},
			modelBytesFlag(),
			&cli.StringFlag{Name: "out", Aliases: []string{"o"}, Usage: "with --format html: write OUT/check.html instead of printing it"},
			&cli.BoolFlag{Name: "parts", Usage: "include the per-part structure breakdown (json) or print it (text)"},
		},
		Action: runCheck,
	}
}

func runCheck(c *cli.Context) error {
	if c.NArg() == 0 {
		return usageErr("check needs at least one FILE (see editaudit check --help)")
	}
	format, mode, show, mopts, err := outputOptions(c, reports.CheckFormats)
	if err != nil {
		return err
	}
	withPages := format == reports.FormatModel || format == reports.FormatHTML
	if withPages && c.NArg() != 1 {
		return usageErr("--format %s takes exactly one FILE", format)
	}
	var reps []*formats.Report
	anyFatal := false
	for _, path := range c.Args().Slice() {
		rep, err := inspect.Document(c.Context, path, inspect.Options{}) // a missing FILE is file.missing
		if err != nil {
			return toolErr(err)
		}
		anyFatal = anyFatal || rep.Fatal()
		reps = append(reps, rep)
	}
	opts := reports.CheckOptions{Parts: c.Bool("parts"), PageCap: show, Model: mopts}
	if withPages {
		opts.Pages, err = checkPages(c.Context, mode, reps[0], show, c.App.ErrWriter)
		if err != nil {
			return toolErr(err)
		}
	}
	write := func(w io.Writer) error { return reports.WriteCheck(w, reps, format, opts) }
	if out := c.String("out"); out != "" && format == reports.FormatHTML {
		err = writeReport(c.App.Writer, out, "check.html", write)
	} else {
		err = write(c.App.Writer)
	}
	if err != nil {
		return toolErr(err)
	}
	if anyFatal {
		return blocked
	}
	return nil
}

// checkPages renders the pages of a new file, up to n, for --format model
// and html (check renders only for the formats that show pages, DESIGN.md;
// unknown content is not rendered; HWPX goes through editaudit's converter). With --render auto a page
// that cannot be drawn is said on stderr and the report goes without it.
func checkPages(ctx context.Context, mode string, rep *formats.Report, n int, stderr io.Writer) ([]reports.CheckPage, error) {
	if n == 0 || mode == audit.RenderOff || rep.Format == formats.Unknown {
		return nil, nil
	}
	r, err := audit.StartRenderer(ctx, mode, render.Config{Pool: render.PoolOptions{Workers: 1}})
	if err != nil || r == nil {
		return nil, err
	}
	defer r.Close()
	pages, err := firstPages(ctx, r, rep.Path, n)
	if err != nil && mode == audit.RenderOn {
		return nil, err
	}
	if err != nil {
		fmt.Fprintf(stderr, "editaudit: pages not attached: %v\n", err)
	}
	return pages, nil
}

// firstPages renders a document and keeps its first n pages as JPEGs.
func firstPages(ctx context.Context, r *render.Renderer, path string, n int) ([]reports.CheckPage, error) {
	jpegs, total, err := r.FirstPagesJPEG(ctx, path, n)
	var pages []reports.CheckPage
	for _, p := range jpegs {
		pages = append(pages, reports.CheckPage{Page: p.Page, Total: total, JPEG: p.JPEG})
	}
	return pages, err
}
