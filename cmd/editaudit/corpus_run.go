package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/editaudit/editaudit/audit"
	"github.com/editaudit/editaudit/corpus"
	"github.com/editaudit/editaudit/corpus/results"
	"github.com/editaudit/editaudit/internal/plural"
	"github.com/editaudit/editaudit/render"
	"github.com/editaudit/editaudit/reports"
)

func corpusRunCommand() *cli.Command {
	return &cli.Command{
		Name:      "run",
		Usage:     "audit every pair of a manifest (or two folders) into a run folder",
		ArgsUsage: "MANIFEST | --originals DIR --edited DIR",
		Description: `run audits each pair and appends its result to OUT/results.jsonl as soon as it
is done: one editaudit.audit/v1 object per line plus id, group, timings, the
resume key, and error for a pair the tool could not audit (a failing pair never
stops the run). Page images go to OUT/pairs/<id>/pages/, each pair's HTML report
to OUT/pairs/<id>/report.html; at the end OUT/summary.json and OUT/index.html
(a sortable table of pairs) are written.

MANIFEST is CSV, TSV or JSON lines with the columns/keys original and edited,
and optionally id (default: the row number) and group (the model, prompt or
workflow that produced the edit; metrics are also given per group). Relative
paths are relative to the manifest's folder. With --originals and --edited the
files are paired by their path relative to each folder (files found on one side
only are listed in run.json and the summary).

Resuming: run the same command again. Pairs whose result is already in
results.jsonl with the same input hashes, toolchain, build, --render and
--content are skipped; a killed run (even kill -9) loses only the pairs that
were in flight.

Sharding: --shard K/N audits the pairs whose id hashes to shard K of N; run
the N shards anywhere (one folder each) and combine them with corpus merge.

Progress goes to stderr: a live bar on a terminal, JSON lines otherwise.
Exit code 0 when every selected pair has a line (failed pairs included),
3 when the run itself cannot proceed, 130 when cancelled (resume later).

Examples:
   editaudit corpus run --out nightly/ pairs.csv
   editaudit corpus run --render off --jobs 8 --out quick/ pairs.jsonl
   editaudit corpus run --originals templates/ --edited model-out/ --out run/
   editaudit corpus run --shard 3/8 --out shard-3/ pairs.tsv`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "out", Aliases: []string{"o"}, Usage: "run folder (default: corpus-run, or corpus-run-K-of-N with --shard)"},
			storeFlag(),
			renderFlag(),
			contentFlag(),
			&cli.IntFlag{Name: "jobs", Aliases: []string{"j"}, Usage: "pairs audited at once (default: one per CPU; 4 per CPU, 8 to 32, when rendering)"},
			&cli.StringFlag{Name: "shard", Usage: "audit only shard K of N (K/N), chosen by a hash of the pair id"},
			&cli.IntFlag{Name: "show", Value: audit.DefaultShow, Usage: "changed pages drawn per pair (0: none)"},
			&cli.StringFlag{Name: "originals", Usage: "folder of originals (with --edited, instead of a MANIFEST)"},
			&cli.StringFlag{Name: "edited", Usage: "folder of edited files, paired with --originals by relative path"},
			&cli.StringFlag{Name: "progress", Value: "auto", Usage: "progress on stderr: auto (bar on a terminal, else JSON lines), bar, json, none"},
		},
		Action: runCorpusRun,
	}
}

func runCorpusRun(c *cli.Context) error {
	mode, err := renderMode(c)
	if err != nil {
		return err
	}
	content, err := contentMode(c)
	if err != nil {
		return err
	}
	shard, err := corpus.ParseShard(c.String("shard"))
	if err != nil {
		return usageErr("--shard: %v", err)
	}
	style, err := progressStyle(c.String("progress"), c.App.ErrWriter)
	if err != nil {
		return err
	}
	show, err := showCount(c)
	if err != nil {
		return err
	}
	if c.Int("jobs") < 0 {
		return usageErr("--jobs must be positive")
	}
	var pairs []corpus.Pair
	var source string
	var unpaired *results.Unpaired
	origDir, editDir := c.String("originals"), c.String("edited")
	switch {
	case origDir != "" || editDir != "":
		if origDir == "" || editDir == "" || c.NArg() != 0 {
			return usageErr("--originals and --edited go together, without a MANIFEST")
		}
		for flag, d := range map[string]string{"--originals": origDir, "--edited": editDir} {
			if st, err := os.Stat(d); err != nil || !st.IsDir() {
				return usageErr("%s %s is not a folder", flag, d)
			}
		}
		var un results.Unpaired
		pairs, un, err = corpus.PairDirs(origDir, editDir)
		if err != nil {
			return toolErr(err)
		}
		source = origDir + " | " + editDir
		if len(un.OriginalsOnly)+len(un.EditedOnly) > 0 {
			unpaired = &un
			fmt.Fprintf(c.App.ErrWriter, "editaudit: %s only in %s, %d only in %s (listed in run.json)\n", plural.Of(len(un.OriginalsOnly), "file", "files"), origDir, len(un.EditedOnly), editDir)
		}
	case c.NArg() == 1:
		source = c.Args().First()
		if err := inputFile("MANIFEST", source); err != nil {
			return err
		}
		pairs, err = corpus.ReadManifest(source)
		if errors.Is(err, corpus.ErrManifest) {
			return usageErr("%s: %v", source, err)
		}
		if err != nil {
			return toolErr(err)
		}
	default:
		return usageErr("corpus run needs a MANIFEST, or --originals DIR --edited DIR (see editaudit corpus run --help)")
	}
	out := c.String("out")
	if out == "" {
		out = "corpus-run"
		if shard.N > 1 {
			out = fmt.Sprintf("corpus-run-%d-of-%d", shard.K, shard.N)
		}
	}
	store, err := openStore(c)
	if err != nil {
		return toolErr(err)
	}
	renderer, closeR, err := corpus.NewRenderer(c.Context, mode)
	if err != nil {
		if errors.Is(err, render.ErrNoRenderer) {
			return toolErr(fmt.Errorf("%w (install LibreOffice and poppler-utils, or use --render off)", err))
		}
		return toolErr(err)
	}
	defer closeR()
	selected := len(shard.Select(pairs))
	prog := corpus.NewProgress(selected)
	stop := corpus.StartProgress(prog, c.App.ErrWriter, corpus.ProgressOptions{
		Style: style, Interval: progressInterval(style), Columns: terminalColumns(c.App.ErrWriter)})
	stats, err := corpus.RunPairs(c.Context, pairs, corpus.RunOptions{
		Out: out, Store: store, Render: mode, Content: content, Renderer: renderer, Jobs: c.Int("jobs"),
		Shard: shard, Show: libraryShow(show), Source: source, Unpaired: unpaired, Progress: prog,
	})
	stop()
	if errors.Is(err, corpus.ErrShardMismatch) || errors.Is(err, corpus.ErrRunBusy) || errors.Is(err, corpus.ErrRunInfoDamaged) {
		return usageErr("%v", err)
	}
	if err != nil {
		return toolErr(err)
	}
	if stats.Outside > 0 {
		fmt.Fprintf(c.App.ErrWriter, "editaudit: %s also holds %d results of pairs this run did not select (an earlier manifest or selection); they are kept and counted in the summary\n", out, stats.Outside)
	}
	if stats.Cancelled {
		fmt.Fprintf(c.App.ErrWriter, "editaudit: cancelled with %d of %s done; run the same command again to resume\n", stats.Audited+stats.Failed+stats.Skipped, plural.Of(stats.Selected, "pair", "pairs"))
		return context.Canceled
	}
	s, err := results.Summarize(out, nil)
	if err != nil {
		return toolErr(err)
	}
	if err := reports.WriteSummaryText(c.App.Writer, s); err != nil {
		return toolErr(err)
	}
	fmt.Fprintf(c.App.Writer, "\n%d audited, %d failed, %d kept from an earlier run → %s\n", stats.Audited, stats.Failed, stats.Skipped, filepath.Join(out, results.IndexFile))
	return nil
}

// progressStyle resolves --progress: auto is a bar when stderr is a
// terminal (a character device) and JSON lines otherwise.
func progressStyle(s string, stderr io.Writer) (corpus.ProgressStyle, error) {
	switch s {
	case "none":
		return corpus.ProgressNone, nil
	case "bar":
		return corpus.ProgressBar, nil
	case "json":
		return corpus.ProgressJSON, nil
	case "auto":
		if f, ok := stderr.(*os.File); ok {
			if st, err := f.Stat(); err == nil && st.Mode()&os.ModeCharDevice != 0 {
				return corpus.ProgressBar, nil
			}
		}
		return corpus.ProgressJSON, nil
	}
	return 0, oneOf("progress", s, "auto", "bar", "json", "none")
}

func progressInterval(style corpus.ProgressStyle) time.Duration {
	if style == corpus.ProgressBar {
		return 250 * time.Millisecond
	}
	return 2 * time.Second
}
