package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/urfave/cli/v2"

	"github.com/editaudit/editaudit/formats"
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
		Flags: []cli.Flag{&cli.StringFlag{Name: "format", Aliases: []string{"f"}, Value: "text", Usage: "text or json"}},
		Action: func(c *cli.Context) error {
			if c.NArg() != 2 {
				return usageErr("sanitize needs IN and OUT")
			}
			in, out := c.Args().Get(0), c.Args().Get(1)
			if abs(in) == abs(out) {
				return usageErr("OUT must differ from IN: sanitize never modifies its input")
			}
			data, err := os.ReadFile(in)
			if err != nil {
				return toolErr(err)
			}
			var buf bytes.Buffer
			rs, err := formats.Sanitize(c.Context, bytes.NewReader(data), int64(len(data)), &buf, formats.DefaultLimits())
			if err != nil {
				return toolErr(err)
			}
			if err := writeFileAtomic(out, func(w io.Writer) error { _, err := w.Write(buf.Bytes()); return err }); err != nil {
				return toolErr(err)
			}
			if c.String("format") == "json" {
				if rs == nil {
					rs = []formats.Removal{}
				}
				enc := json.NewEncoder(c.App.Writer)
				enc.SetIndent("", "  ")
				return enc.Encode(map[string]any{"in": in, "out": out, "removed": rs})
			}
			for _, r := range rs {
				fmt.Fprintf(c.App.Writer, "removed %s at %s:%d:%d\n", r.CodePoint, r.Part, r.Line, r.Column)
			}
			fmt.Fprintf(c.App.Writer, "%d characters removed; wrote %s\n", len(rs), out)
			return nil
		},
	}
}

func abs(p string) string {
	a, err := filepath.Abs(p)
	if err != nil {
		return p
	}
	return a
}
