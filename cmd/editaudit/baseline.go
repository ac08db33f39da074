package main

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/editaudit/editaudit/audit"
	"github.com/editaudit/editaudit/baseline"
	"github.com/editaudit/editaudit/internal/fsutil"
	"github.com/editaudit/editaudit/internal/plural"
	"github.com/editaudit/editaudit/render"
)

func baselineCommand() *cli.Command {
	return &cli.Command{
		Name:      "baseline",
		Usage:     "snapshot originals ahead of time (findings, structure, rendered pages)",
		ArgsUsage: "FILE...",
		Description: `baseline inspects and renders each original once and keeps the snapshot in the
store, addressed by the file's sha256 and the renderer's toolchain, so every
later audit of an edit of that original skips that work.`,
		Flags:  []cli.Flag{storeFlag(), renderFlag()},
		Action: runBaseline,
	}
}

func runBaseline(c *cli.Context) error {
	if c.NArg() == 0 {
		return usageErr("baseline needs at least one FILE")
	}
	mode, err := renderMode(c)
	if err != nil {
		return err
	}
	for _, p := range c.Args().Slice() {
		if err := inputFile("FILE", p); err != nil {
			return err
		}
	}
	store, err := openStore(c)
	if err != nil {
		return toolErr(err)
	}
	r, err := audit.StartRenderer(c.Context, mode, render.Config{Pool: render.PoolOptions{Workers: 1}})
	if err != nil {
		return toolErr(err)
	}
	defer r.Close()
	for _, p := range c.Args().Slice() {
		sha, err := fsutil.SHA256File(p)
		if err != nil {
			return toolErr(err)
		}
		snap, hit, err := store.Snapshot(c.Context, p, sha, baseline.Options{Renderer: r})
		if err != nil {
			return toolErr(err)
		}
		state := "stored"
		if hit {
			state = "already stored"
		}
		fmt.Fprintf(c.App.Writer, "%s: %s (%s, %s, pages %s %d)\n", p, state, snap.Report.Format, plural.Of(len(snap.Report.Findings), "finding", "findings"), snap.Pages.Status, len(snap.Pages.Sigs))
		snap.Close()
	}
	return nil
}
