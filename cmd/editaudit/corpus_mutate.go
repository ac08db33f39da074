package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/urfave/cli/v2"

	"github.com/editaudit/editaudit/formats"
	"github.com/editaudit/editaudit/internal/fsutil"
	"github.com/editaudit/editaudit/mutate"
)

// corpusMutateCommand is `editaudit corpus mutate KIND IN OUT` and
// `editaudit corpus mutate --list`.
func corpusMutateCommand() *cli.Command {
	return &cli.Command{
		Name:      "mutate",
		Usage:     "apply one known defect or edit to a document; --list shows the kinds",
		ArgsUsage: "KIND IN OUT | --list",
		Description: `mutate applies one injector to IN and writes OUT (atomically; IN is never
touched). Every zip entry the injector does not change is copied byte for byte.
Each kind states the audit outcome it expects for OUT against IN: blocked or
not, the finding code and grade, the structure metrics that shrink, whether the
rendered pages change. --list prints one kind per line with its formats and
expected outcome; --json prints the list, or the applied edit, as JSON.

Exit code 2 when the kind is unknown or does not fit IN (another format, or IN
lacks what it needs, such as a nested table or a picture).

Examples:
   editaudit corpus mutate --list
   editaudit corpus mutate docx.nested-tables-wiped contract.docx wiped.docx
   editaudit corpus mutate --json xml.illegal-char deck.pptx broken.pptx`,
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "list", Usage: "print every kind with its expected outcome"},
			&cli.BoolFlag{Name: "json", Usage: "print JSON: the kinds (with --list) or what was applied"},
		},
		Action: runCorpusMutate,
	}
}

// mutateJSON is what `mutate --json KIND IN OUT` prints.
type mutateJSON struct {
	Kind   string             `json:"kind"`
	In     string             `json:"in"`
	Out    string             `json:"out"`
	SHA256 string             `json:"sha256"`
	Note   string             `json:"note"`
	Expect mutate.Expectation `json:"expect"`
}

func runCorpusMutate(c *cli.Context) error {
	w := c.App.Writer
	if c.Bool("list") {
		if c.NArg() != 0 {
			return usageErr("--list takes no arguments")
		}
		ms := mutate.Mutations()
		if c.Bool("json") {
			enc := json.NewEncoder(w)
			enc.SetIndent("", "  ")
			return enc.Encode(ms)
		}
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		for _, m := range ms {
			var fs []string
			for _, f := range m.Formats {
				fs = append(fs, string(f))
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\n", m.Kind, strings.Join(fs, ","), m.Expect)
		}
		return tw.Flush()
	}
	if c.NArg() != 3 {
		return usageErr("mutate needs KIND IN OUT, or --list (see editaudit corpus mutate --help)")
	}
	kind, in, out := c.Args().Get(0), c.Args().Get(1), c.Args().Get(2)
	if sameFile(in, out) {
		return usageErr("OUT %s is IN: mutate never touches its input", out)
	}
	data, err := fsutil.ReadRegular(in, formats.DefaultLimits().MaxFileSize) // no FIFO, no file larger than memory
	if err != nil {
		return usageErr("%v", err)
	}
	a, err := mutate.Apply(kind, data)
	switch {
	case errors.Is(err, mutate.ErrUnknownKind), errors.Is(err, mutate.ErrNotApplicable), errors.Is(err, mutate.ErrNotZip):
		return usageErr("%s: %v", in, err)
	case err != nil:
		return toolErr(fmt.Errorf("%s: %w", in, err))
	}
	if out == "-" && c.Bool("json") {
		return usageErr("--json prints to standard output; OUT cannot be - too")
	}
	if err := writeOutput(out, a.Data, w); err != nil {
		return toolErr(err)
	}
	if c.Bool("json") {
		sum := sha256.Sum256(a.Data)
		enc := json.NewEncoder(w)
		return enc.Encode(mutateJSON{Kind: kind, In: in, Out: out, SHA256: hex.EncodeToString(sum[:]), Note: a.Note, Expect: a.Expect})
	}
	fmt.Fprintf(w, "%s: %s\nexpect: %s\n", kind, a.Note, a.Expect)
	return nil
}
