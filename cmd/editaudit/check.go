package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/editaudit/editaudit/audit"
	"github.com/editaudit/editaudit/formats"
	"github.com/editaudit/editaudit/formats/inspect"
	"github.com/editaudit/editaudit/pixeldiff"
	"github.com/editaudit/editaudit/pixeldiff/render"
	"github.com/editaudit/editaudit/reports"
)

// checkJSON is one file's object of `check --format json` (DESIGN.md:
// schema editaudit.check/v1).
type checkJSON struct {
	Schema   string                    `json:"schema"`
	Path     string                    `json:"path"`
	Format   formats.Format            `json:"format"`
	Flavor   string                    `json:"flavor,omitempty"`
	SHA256   string                    `json:"sha256"`
	Fatal    bool                      `json:"fatal"`
	Findings []formats.Finding         `json:"findings"`
	Counts   formats.Counts            `json:"counts"`
	Parts    map[string]formats.Counts `json:"parts,omitempty"`
	// NotCounted: parts that did not parse; their counts are partial.
	NotCounted []string `json:"not_counted,omitempty"`
}

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
			&cli.IntFlag{Name: "show", Value: 3, Usage: "pages attached as images by --format model and html"},
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
	format := c.String("format")
	switch format {
	case "text", "json", "model", "html":
	default:
		return usageErr("--format %q: use text, json, model or html", format)
	}
	if err := checkRenderMode(c.String("render")); err != nil {
		return err
	}
	if (format == "model" || format == "html") && c.NArg() != 1 {
		return usageErr("--format %s takes exactly one FILE", format)
	}
	var out []checkJSON
	anyFatal := false
	for _, path := range c.Args().Slice() {
		rep, err := inspect.File(c.Context, path, inspect.Options{})
		if err != nil {
			if c.Context.Err() != nil {
				return c.Context.Err()
			}
			return toolErr(err)
		}
		j := checkJSON{Schema: "editaudit.check/v1", Path: rep.Path, Format: rep.Format, Flavor: rep.Flavor,
			SHA256: rep.SHA256, Fatal: rep.Fatal(), Findings: rep.Findings, Counts: rep.Counts, NotCounted: rep.NotCounted}
		if c.Bool("parts") {
			j.Parts = rep.Parts
		}
		anyFatal = anyFatal || j.Fatal
		out = append(out, j)
	}
	w := c.App.Writer
	var err error
	if format == "model" || format == "html" {
		return checkWithPages(c, format, out[0])
	}
	if format == "json" {
		err = writeCheckJSON(w, out)
	} else {
		for i, j := range out {
			if i > 0 {
				fmt.Fprintln(w)
			}
			writeCheckText(w, j, c.Bool("parts"))
		}
	}
	if err != nil {
		return toolErr(err)
	}
	if anyFatal {
		return blocked
	}
	return nil
}

func writeCheckJSON(w io.Writer, out []checkJSON) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if len(out) == 1 {
		return enc.Encode(out[0])
	}
	return enc.Encode(out)
}

// writeCheckText: one line per finding, then the verdict and the counts.
func writeCheckText(w io.Writer, j checkJSON, parts bool) {
	fmt.Fprintf(w, "%s (%s)\n", j.Path, j.Flavor+orFormat(j))
	for _, f := range j.Findings {
		fmt.Fprintf(w, "  %s\n", f.String())
		if f.Fix != "" {
			fmt.Fprintf(w, "      fix: %s\n", f.Fix)
		}
	}
	t := formats.TallyOf(j.Findings)
	verdict := "ok: no fatal findings"
	if j.Fatal {
		verdict = "FATAL: the application will refuse or repair this file"
	}
	fmt.Fprintf(w, "  %s (%d findings: %d fatal, %d error, %d warning, %d info)\n", verdict, t.Total, t.Fatal, t.Error, t.Warning, t.Info)
	if len(j.Counts) > 0 {
		var kv []string
		for _, k := range j.Counts.Keys() {
			kv = append(kv, fmt.Sprintf("%s=%d", k, j.Counts[k]))
		}
		fmt.Fprintf(w, "  structure: %s\n", strings.Join(kv, " "))
	}
	if len(j.NotCounted) > 0 {
		fmt.Fprintf(w, "  not counted: %s did not parse (the structure counts above are partial)\n", strings.Join(j.NotCounted, ", "))
	}
	if parts {
		for _, p := range sortedKeys(j.Parts) {
			var kv []string
			for _, k := range j.Parts[p].Keys() {
				kv = append(kv, fmt.Sprintf("%s=%d", k, j.Parts[p][k]))
			}
			fmt.Fprintf(w, "    %s: %s\n", p, strings.Join(kv, " "))
		}
	}
}

func orFormat(j checkJSON) string {
	if j.Flavor == "" {
		return string(j.Format)
	}
	return ""
}

func sortedKeys(m map[string]formats.Counts) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sortStrings(ks)
	return ks
}

// checkWithPages renders the first --show pages of a new file (check
// renders only for the formats that show pages, DESIGN.md) and writes the
// model content blocks or the HTML page.
func checkWithPages(c *cli.Context, format string, j checkJSON) error {
	rep, err := inspect.File(c.Context, j.Path, inspect.Options{})
	if err != nil {
		return toolErr(err)
	}
	var pages []reports.CheckPage
	mode := c.String("render")
	if mode != audit.RenderOff && rep.Format != formats.HWPX && rep.Format != formats.Unknown {
		r, err := audit.StartRenderer(c.Context, mode, render.Config{Pool: render.PoolOptions{Workers: 1}})
		if err != nil {
			return toolErr(err)
		}
		defer r.Close()
		if r != nil {
			pages, err = firstPages(c, r, j.Path, c.Int("show"))
			if err != nil && mode == audit.RenderOn {
				return toolErr(err)
			}
			if err != nil {
				fmt.Fprintf(c.App.ErrWriter, "editaudit: pages not attached: %v\n", err)
			}
		}
	}
	write := func(w io.Writer) error {
		if format == "model" {
			return reports.WriteCheckModel(w, rep, pages)
		}
		return reports.WriteCheckHTML(w, rep, pages)
	}
	if out := c.String("out"); out != "" && format == "html" {
		if err := os.MkdirAll(out, 0o755); err != nil {
			return toolErr(err)
		}
		p := filepath.Join(out, "check.html")
		if err := writeFileAtomic(p, write); err != nil {
			return toolErr(err)
		}
		fmt.Fprintln(c.App.Writer, p)
	} else if err := write(c.App.Writer); err != nil {
		return toolErr(err)
	}
	if rep.Fatal() {
		return blocked
	}
	return nil
}

// firstPages renders a document and keeps its first n pages as JPEGs.
func firstPages(c *cli.Context, r *render.Renderer, path string, n int) ([]reports.CheckPage, error) {
	var pages []reports.CheckPage
	total, err := r.Render(c.Context, path, func(page int, ra *pixeldiff.Raster, _, _ float64) error {
		if page > n {
			return nil
		}
		var buf bytes.Buffer
		if err := pixeldiff.EncodeJPEG(&buf, pixeldiff.Fit(ra, 0), 85); err != nil {
			return err
		}
		pages = append(pages, reports.CheckPage{Page: page, JPEG: buf.Bytes()})
		return nil
	})
	for i := range pages {
		pages[i].Total = total
	}
	return pages, err
}
