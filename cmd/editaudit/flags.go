package main

import (
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/editaudit/editaudit/audit"
	"github.com/editaudit/editaudit/baseline"
	"github.com/editaudit/editaudit/reports"
)

// The flags and flag checks several commands share.

func renderFlag() cli.Flag {
	return &cli.StringFlag{Name: "render", Value: "auto", Usage: "auto: render when LibreOffice is installed; on: a missing renderer is an error (exit 3); off: never render"}
}

func contentFlag() cli.Flag {
	return &cli.StringFlag{Name: "content", Value: "on", Usage: "on: compare text, cells and formatting (what changed, where; no renderer needed); off: leave them out"}
}

// contentMode is --content, checked.
func contentMode(c *cli.Context) (string, error) {
	m := c.String("content")
	return m, oneOf("content", m, audit.ContentOn, audit.ContentOff)
}

func storeFlag() cli.Flag {
	return &cli.StringFlag{Name: "store", Usage: "baseline store folder (default: the user cache folder, e.g. ~/.cache/editaudit)"}
}

// openStore opens --store, or the default store folder.
func openStore(c *cli.Context) (*baseline.Store, error) {
	dir := c.String("store")
	if dir == "" {
		d, err := baseline.DefaultDir()
		if err != nil {
			return nil, err
		}
		dir = d
	}
	return baseline.OpenStore(dir)
}

// renderMode is --render, checked.
func renderMode(c *cli.Context) (string, error) {
	m := c.String("render")
	return m, oneOf("render", m, audit.RenderAuto, audit.RenderOn, audit.RenderOff)
}

// oneOf is a usage error unless value is one of allowed: "--flag "x": use
// a, b or c".
func oneOf(flag, value string, allowed ...string) error {
	for _, a := range allowed {
		if value == a {
			return nil
		}
	}
	list := allowed[0]
	if n := len(allowed); n > 1 {
		list = strings.Join(allowed[:n-1], ", ") + " or " + allowed[n-1]
	}
	return usageErr("--%s %q: use %s", flag, value, list)
}

// showCount is --show, a number of pages: 0 or more.
func showCount(c *cli.Context) (int, error) {
	n := c.Int("show")
	if n < 0 {
		return 0, usageErr("--show %d: use 0 (no pages) or more", n)
	}
	return n, nil
}

// libraryShow is a --show count as audit.Options.Show and
// corpus.RunOptions.Show take it: there 0 means the default, -1 none.
func libraryShow(n int) int {
	if n == 0 {
		return -1
	}
	return n
}

// modelBytesFlag is --model-bytes of audit and check.
func modelBytesFlag() cli.Flag {
	return &cli.IntFlag{Name: "model-bytes", Value: reports.DefaultModelBytes,
		Usage: "byte budget of the --format model output (check: also html); images beyond it are downscaled, then dropped, and the text says so"}
}

// modelOptions reads --model-bytes.
func modelOptions(c *cli.Context) (reports.ModelOptions, error) {
	n := c.Int("model-bytes")
	if n < reports.MinModelBytes {
		return reports.ModelOptions{}, usageErr("--model-bytes %d: at least %d (64 KiB)", n, reports.MinModelBytes)
	}
	return reports.ModelOptions{MaxBytes: n}, nil
}

// outputOptions reads what audit and check share: --format (one of
// formats), --render, --show and --model-bytes, checked.
func outputOptions(c *cli.Context, formats []string) (format, mode string, show int, mopts reports.ModelOptions, err error) {
	format = c.String("format")
	if err = oneOf("format", format, formats...); err != nil {
		return
	}
	if mode, err = renderMode(c); err != nil {
		return
	}
	if show, err = showCount(c); err != nil {
		return
	}
	mopts, err = modelOptions(c)
	return
}
