package main

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/editaudit/editaudit/formats"
	"github.com/editaudit/editaudit/internal/fsutil"
	"github.com/editaudit/editaudit/internal/plural"
)

func sanitizeCommand() *cli.Command {
	return &cli.Command{
		Name:      "sanitize",
		Usage:     "remove XML-illegal characters from every XML part; write a new file",
		ArgsUsage: "IN OUT",
		Description: `sanitize copies IN to OUT with every character XML 1.0 forbids (U+0000–U+0008,
U+000B, U+000C, U+000E–U+001F, U+FFFE, U+FFFF, raw or as &#…; references)
removed from every XML part, and lists each removal (part, line, column, code
point). Other parts are copied byte for byte. IN is never touched; OUT is
written atomically.`,
		Flags:  []cli.Flag{&cli.StringFlag{Name: "format", Aliases: []string{"f"}, Value: "text", Usage: "text or json"}},
		Action: runSanitize,
	}
}

// sanitizeJSON is what `sanitize --format json` prints.
type sanitizeJSON struct {
	In      string            `json:"in"`
	Out     string            `json:"out"`
	Removed []formats.Removal `json:"removed"`
}

func runSanitize(c *cli.Context) error {
	if c.NArg() != 2 {
		return usageErr("sanitize needs IN and OUT")
	}
	in, out := c.Args().Get(0), c.Args().Get(1)
	format := c.String("format")
	if err := oneOf("format", format, "text", "json"); err != nil {
		return err
	}
	if err := inputFile("IN", in); err != nil {
		return err
	}
	if sameFile(in, out) {
		return usageErr("OUT must differ from IN: sanitize never modifies its input")
	}
	data, err := fsutil.ReadRegular(in, formats.DefaultLimits().MaxFileSize) // no FIFO, no file larger than memory
	if err != nil {
		return toolErr(err)
	}
	var buf bytes.Buffer
	rs, err := formats.Sanitize(c.Context, bytes.NewReader(data), int64(len(data)), &buf, formats.DefaultLimits())
	if err != nil {
		return toolErr(err)
	}
	if err := fsutil.WriteFileAtomic(out, buf.Bytes(), 0o644); err != nil {
		return toolErr(err)
	}
	w := c.App.Writer
	if format == "json" {
		if rs == nil {
			rs = []formats.Removal{}
		}
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(sanitizeJSON{In: in, Out: out, Removed: rs})
	}
	for _, r := range rs {
		fmt.Fprintf(w, "removed %s at %s:%d:%d\n", r.CodePoint, r.Part, r.Line, r.Column)
	}
	fmt.Fprintf(w, "%s removed; wrote %s\n", plural.Of(len(rs), "character", "characters"), out)
	return nil
}
