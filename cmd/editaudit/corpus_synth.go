package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/editaudit/editaudit/internal/fsutil"
	"github.com/editaudit/editaudit/mutate"
	"github.com/editaudit/editaudit/synth"
	"github.com/urfave/cli/v2"
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
		if same, _ := sameFile(specPath, out); same {
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
	if err := corpusWriteFile(out, data, c.App.Writer); err != nil {
		return toolErr(err)
	}
	return nil
}

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
	if same, _ := sameFile(in, out); same {
		return usageErr("OUT %s is IN: mutate never touches its input", out)
	}
	data, err := os.ReadFile(in)
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
	if err := corpusWriteFile(out, a.Data, w); err != nil {
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

// sameFile reports whether a and b name the same existing file (or the
// same path).
func sameFile(a, b string) (bool, error) {
	if filepath.Clean(a) == filepath.Clean(b) {
		return true, nil
	}
	fa, err := os.Stat(a)
	if err != nil {
		return false, err
	}
	fb, err := os.Stat(b)
	if err != nil {
		return false, err
	}
	return os.SameFile(fa, fb), nil
}

// corpusWriteFile writes data to path atomically: a temporary file in the
// same folder, synced, then renamed over path. "-" writes to stdout.
func corpusWriteFile(path string, data []byte, stdout io.Writer) error {
	if path == "-" {
		_, err := stdout.Write(data)
		return err
	}
	return fsutil.WriteFileAtomic(path, data, 0o644)
}
