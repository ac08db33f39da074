package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/editaudit/editaudit/synth"
)

// corpusSynthCommand is `editaudit corpus synth SPEC.json OUT`: render a
// JSON document spec as a docx, pptx, xlsx or hwpx file.
func corpusSynthCommand() *cli.Command {
	return &cli.Command{
		Name:      "synth",
		Usage:     "render a JSON document spec as a docx, pptx, xlsx or hwpx file",
		ArgsUsage: "SPEC.json OUT",
		Description: `synth reads a document spec (JSON, validated strictly: unknown keys and
values beyond the caps are errors naming the JSON path) and writes the document
with a deterministic writer: the same spec always gives the same bytes.
SPEC may be "-" for standard input. OUT is written atomically.

Examples:
   editaudit corpus synth examples/specs/contract.json contract.docx
   editaudit corpus synth examples/specs/workbook.json book.xlsx`,
		Action: runCorpusSynth,
	}
}

func runCorpusSynth(c *cli.Context) error {
	if c.NArg() != 2 {
		return usageErr("synth needs SPEC.json and OUT (see editaudit corpus synth --help)")
	}
	specPath, out := c.Args().Get(0), c.Args().Get(1)
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
	spec, err := synth.ParseSpec(r)
	if err != nil {
		var se synth.SpecErrors
		if errors.As(err, &se) || errors.Is(err, synth.ErrSpecTooLarge) {
			return usageErr("%s: %v", specPath, err)
		}
		return toolErr(err)
	}
	if ext := strings.ToLower(filepath.Ext(out)); ext != "" && ext != "."+spec.Format {
		fmt.Fprintf(c.App.ErrWriter, "editaudit: note: %s gets a %s document\n", out, spec.Format)
	}
	data, err := synth.Synthesize(spec)
	if err != nil {
		return toolErr(err)
	}
	if err := writeOutput(out, data, c.App.Writer); err != nil {
		return toolErr(err)
	}
	return nil
}
