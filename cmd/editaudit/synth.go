package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/editaudit/editaudit/render"
	"github.com/editaudit/editaudit/synth"
)

// synthCommand is `editaudit synth`: a JSON document spec (what a model
// emits as a tool call) → a checked document. `corpus synth` is the same
// command under corpus.
func synthCommand() *cli.Command {
	return &cli.Command{
		Name:      "synth",
		Usage:     "write a document from a JSON spec (docx, pptx, xlsx, hwpx, or its pages as PDF); --schema prints the spec's JSON Schema",
		ArgsUsage: "SPEC.json OUT | --schema",
		Description: `synth reads a document spec and writes the document with a deterministic writer:
the same spec always gives the same bytes. Every problem of the spec is reported
at once, each with its JSON path (and the cap it exceeds), so a model can fix
them all in one round. The written file is then checked by editaudit itself: a
fatal or error finding is reported as a spec error at the spec path that
produced it, never handed out. With LibreOffice installed (--render auto, the
default) the document is rendered to count its pages (at most ` + fmt.Sprint(synth.MaxPages) + `).

Images are "artifact:ID" handles: ID is the name of a PNG or JPEG file in
--artifacts DIR (nothing outside DIR is read; paths, URLs and data: URIs in a
spec are errors). --fixtures also allows the project's own test material
(builtin:NAME images, inline data, rawFormula cells), as the examples use.

--to pdf writes the rendered pages instead of the document; --recalc has
LibreOffice compute a workbook's formulas so the file carries their values.
SPEC may be "-" (standard input); OUT is written atomically ("-": standard
output, and the result goes to standard error).

--format json prints {"schema":"editaudit.synth/v1","status":"ok","path",
"sha256","format","pages"} (pages null when not rendered; "notes" when there
is something to know), or {"schema":"editaudit.synth/v1","status":"error",
"errors":[{"path","message","cap"}],"more":N}. Exit 0 written, 1 spec error
(including a file editaudit would not pass), 2 usage, 3 LibreOffice or I/O failed.

Examples:
   editaudit synth --schema > spec.schema.json
   editaudit synth --artifacts uploads/ --format json spec.json report.docx
   editaudit synth --fixtures examples/specs/contract.json contract.docx
   editaudit synth --fixtures --to pdf examples/specs/deck.json deck.pdf
   editaudit synth --fixtures --recalc examples/specs/workbook.json book.xlsx`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "format", Value: "text", Usage: "text or json"},
			&cli.StringFlag{Name: "artifacts", Usage: "folder whose PNG and JPEG files the spec names as artifact:ID"},
			&cli.StringFlag{Name: "to", Usage: "docx, pptx, xlsx, hwpx (the spec's format; the default) or pdf (default pdf when OUT ends in .pdf)"},
			&cli.BoolFlag{Name: "recalc", Usage: "xlsx: LibreOffice computes the formulas; the file carries their values"},
			&cli.BoolFlag{Name: "fixtures", Usage: "allow the project's test material: builtin:NAME images, inline image data, rawFormula cells"},
			&cli.BoolFlag{Name: "schema", Usage: "print the JSON Schema (2020-12) of a spec and exit"},
			renderFlag(),
		},
		Action: runSynth,
	}
}

func runSynth(c *cli.Context) error {
	w := c.App.Writer
	if c.Bool("schema") {
		if c.NArg() != 0 {
			return usageErr("--schema takes no arguments")
		}
		_, err := w.Write(synth.SchemaFor(synth.Options{Fixtures: c.Bool("fixtures")}))
		return err
	}
	format := c.String("format")
	if err := oneOf("format", format, "text", "json"); err != nil {
		return err
	}
	mode, err := renderMode(c)
	if err != nil {
		return err
	}
	if c.NArg() != 2 {
		return usageErr("synth needs SPEC.json and OUT, or --schema (see editaudit synth --help)")
	}
	specPath, out := c.Args().Get(0), c.Args().Get(1)
	to := c.String("to")
	if to != "" {
		if err := oneOf("to", to, "docx", "pptx", "xlsx", "hwpx", "pdf"); err != nil {
			return err
		}
	} else if strings.EqualFold(filepath.Ext(out), ".pdf") {
		to = "pdf"
	}
	if (to == "pdf" || c.Bool("recalc")) && mode == "off" {
		return usageErr("--render off: --to pdf and --recalc need LibreOffice")
	}
	var r io.Reader = c.App.Reader
	if specPath != "-" {
		f, err := os.Open(specPath)
		if err != nil {
			return usageErr("%v", err)
		}
		defer f.Close()
		r = f
		if sameFile(specPath, out) {
			return usageErr("OUT %s is the spec itself", out)
		}
	}
	if r == nil {
		r = os.Stdin
	}
	opts := synth.BuildOptions{To: to, Recalc: c.Bool("recalc")}
	opts.Fixtures = c.Bool("fixtures")
	if dir := c.String("artifacts"); dir != "" {
		art, err := synth.OpenArtifacts(dir)
		if err != nil {
			return usageErr("--artifacts %s: %v", dir, err)
		}
		defer art.Close()
		opts.Artifacts = art
	}
	// The result goes where the document does not.
	resOut := w
	if out == "-" {
		resOut = c.App.ErrWriter
	}
	spec, err := synth.Parse(r, opts.Options)
	if err != nil {
		return synthFailure(resOut, format, specPath, err)
	}
	if to != "" && to != "pdf" && to != spec.Format {
		return usageErr("--to %s: %s is a %s spec; write it as %s or pdf", to, specPath, spec.Format, spec.Format)
	}
	if opts.Recalc && spec.Format != "xlsx" {
		return usageErr("--recalc: %s is a %s spec; only workbooks (xlsx) have formulas to compute", specPath, spec.Format)
	}
	if to != "pdf" && filepath.Ext(out) != "" && !strings.EqualFold(filepath.Ext(out), "."+spec.Format) {
		fmt.Fprintf(c.App.ErrWriter, "editaudit: note: %s gets a %s document\n", out, spec.Format)
	}
	if mode != "off" {
		r, err := startSynthRenderer(c.Context, mode, to == "pdf" || opts.Recalc)
		if err != nil {
			return err
		}
		if r != nil {
			defer r.Close()
			opts.Converter = r
			opts.Exporter, _ = r.Converter.(render.Exporter)
		}
	}
	res, err := synth.Build(c.Context, spec, opts)
	if err != nil {
		return synthFailure(resOut, format, specPath, err)
	}
	if err := writeOutput(out, res.Data, w); err != nil {
		return toolErr(err)
	}
	j := res.WrittenAs(out)
	if format == "json" {
		return writeJSONLine(resOut, j)
	}
	pages := "pages not counted (not rendered)"
	if j.Pages != nil {
		pages = fmt.Sprintf("%d pages", *j.Pages)
	}
	fmt.Fprintf(resOut, "%s: %s, %s, sha256 %s\n", out, res.Format, pages, j.SHA256)
	for _, n := range res.Notes {
		fmt.Fprintf(resOut, "note: %s\n", n)
	}
	return nil
}

// startSynthRenderer starts LibreOffice for counting pages (auto: when it
// is installed), or because the output needs it (need: a missing
// LibreOffice is exit 3 then). One worker: synth converts one document.
func startSynthRenderer(ctx context.Context, mode string, need bool) (*render.Renderer, error) {
	r, err := render.New(ctx, render.Config{Pool: render.PoolOptions{Workers: 1}})
	switch {
	case err == nil:
		return r, nil
	case errors.Is(err, render.ErrNoRenderer) && mode == "auto" && !need:
		return nil, nil
	}
	return nil, toolErr(err)
}

// synthFailure reports a spec error (exit 1, in the result format) or
// passes any other error on (exit 3).
func synthFailure(w io.Writer, format, specPath string, err error) error {
	var se *synth.SpecErrors
	if !errors.As(err, &se) {
		if errors.Is(err, synth.ErrNeedsRenderer) || errors.Is(err, render.ErrNoRenderer) {
			return toolErr(err)
		}
		return toolErr(fmt.Errorf("%s: %w", specPath, err))
	}
	if format == "json" {
		if err := writeJSONLine(w, se.Refused()); err != nil {
			return toolErr(err)
		}
		return blocked
	}
	fmt.Fprint(w, se.Text(specPath))
	return blocked
}

// writeJSONLine prints v as one line of JSON.
func writeJSONLine(w io.Writer, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s\n", b)
	return err
}
