package main

import (
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/editaudit/editaudit/audit"
	"github.com/editaudit/editaudit/baseline"
)

// The flags and flag checks several commands share.

func renderFlag() cli.Flag {
	return &cli.StringFlag{Name: "render", Value: "auto", Usage: "auto: render when LibreOffice is installed; on: a missing renderer is an error (exit 3); off: never render"}
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

// show is --show as the library wants it: 0 (none) becomes -1, since 0
// means the default there.
func show(c *cli.Context) int {
	if n := c.Int("show"); n != 0 {
		return n
	}
	return -1
}
