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
	"github.com/editaudit/editaudit/pixeldiff/render"
	"github.com/editaudit/editaudit/reports"
)

// corpusCommand is `editaudit corpus`: batch runs over many edit pairs and
// the generator of labelled test documents.
func corpusCommand() *cli.Command {
	return &cli.Command{
		Name:  "corpus",
		Usage: "audit many edit pairs (resumable, sharded, with damage metrics); generate test documents",
		Description: `corpus run audits every pair of a manifest (or of two folders) into a run
folder; corpus summary, merge and compare read run folders; corpus synth and
mutate make labelled test documents.`,
		Subcommands: []*cli.Command{
			corpusRunCommand(),
			corpusSummaryCommand(),
			corpusMergeCommand(),
			corpusCompareCommand(),
			corpusSynthCommand(),
			corpusMutateCommand(),
		},
	}
}

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
results.jsonl with the same input hashes, toolchain and build are skipped; a
killed run (even kill -9) loses only the pairs that were in flight.

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
	if err := checkRenderMode(c.String("render")); err != nil {
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
		var un results.Unpaired
		pairs, un, err = corpus.PairDirs(origDir, editDir)
		if err != nil {
			return toolErr(err)
		}
		source = origDir + " | " + editDir
		if len(un.OriginalsOnly)+len(un.EditedOnly) > 0 {
			unpaired = &un
			fmt.Fprintf(c.App.ErrWriter, "editaudit: %d files only in %s, %d only in %s (listed in run.json)\n", len(un.OriginalsOnly), origDir, len(un.EditedOnly), editDir)
		}
	case c.NArg() == 1:
		source = c.Args().First()
		pairs, err = corpus.ReadManifestContext(c.Context, source)
		if c.Context.Err() != nil {
			return c.Context.Err()
		}
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
	mode := c.String("render")
	renderer, closeR, err := corpus.NewRenderer(c.Context, mode)
	if err != nil {
		if c.Context.Err() != nil {
			return c.Context.Err()
		}
		if errors.Is(err, render.ErrNoRenderer) {
			return toolErr(fmt.Errorf("%w (install LibreOffice and poppler-utils, or use --render off)", err))
		}
		return toolErr(err)
	}
	defer closeR()
	show := c.Int("show")
	if show == 0 {
		show = -1
	}
	selected := len(shard.Select(pairs))
	prog := corpus.NewProgress(selected)
	stop := corpus.StartProgress(prog, c.App.ErrWriter, style, progressInterval(style))
	stats, err := corpus.RunPairs(c.Context, pairs, corpus.RunOptions{
		Out: out, Store: store, Render: mode, Renderer: renderer, Jobs: c.Int("jobs"),
		Shard: shard, Show: show, Source: source, Unpaired: unpaired, Progress: prog,
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
		fmt.Fprintf(c.App.ErrWriter, "editaudit: cancelled with %d of %d pairs done; run the same command again to resume\n", stats.Audited+stats.Failed+stats.Skipped, stats.Selected)
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
	return 0, usageErr("--progress %q: use auto, bar, json or none", s)
}

func progressInterval(style corpus.ProgressStyle) time.Duration {
	if style == corpus.ProgressBar {
		return 250 * time.Millisecond
	}
	return 2 * time.Second
}

func corpusSummaryCommand() *cli.Command {
	return &cli.Command{
		Name:      "summary",
		Usage:     "metrics over a run folder (text, JSON or HTML)",
		ArgsUsage: "RUN_DIR",
		Description: `summary computes, from RUN_DIR/results.jsonl (so it also works on a run that is
still going or was interrupted), overall and per group: pairs, audited, failed;
blocked rate (a new fatal finding); new error and warning rates and the top
finding codes; structure-loss rate per metric and the mean loss; pages changed
per pair (mean, p50, p95), inserted, deleted, reflowed; render failures;
throughput. --format json prints the summary.json object.

Examples:
   editaudit corpus summary nightly/
   editaudit corpus summary --format json nightly/ | jq .overall.blocked_rate`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "format", Aliases: []string{"f"}, Value: "text", Usage: "text, json or html"},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return usageErr("corpus summary needs RUN_DIR")
			}
			format := c.String("format")
			switch format {
			case "text", "json", "html":
			default:
				return usageErr("--format %q: use text, json or html", format)
			}
			dir := c.Args().First()
			if err := requireRunDir(dir); err != nil {
				return err
			}
			s, err := results.Summarize(dir, nil)
			if err != nil {
				return toolErr(err)
			}
			switch format {
			case "json":
				err = reports.WriteSummaryJSON(c.App.Writer, s)
			case "html":
				err = reports.WriteSummaryHTML(c.App.Writer, s)
			default:
				err = reports.WriteSummaryText(c.App.Writer, s)
			}
			if err != nil {
				return toolErr(err)
			}
			return nil
		},
	}
}

func requireRunDir(dir string) error {
	if _, err := os.Stat(filepath.Join(dir, results.ResultsFile)); err != nil {
		return usageErr("%s is not a run folder (no %s)", dir, results.ResultsFile)
	}
	return nil
}

func corpusMergeCommand() *cli.Command {
	return &cli.Command{
		Name:      "merge",
		Usage:     "combine run folders (shards) into one run with one summary",
		ArgsUsage: "RUN_DIR...",
		Description: `merge writes to --out one results.jsonl (sorted by id, lines copied byte for
byte), every pair's folder, run.json with every session, summary.json and
index.html. A pair found in two folders is kept once if both results were made
from the same inputs, toolchain and build; otherwise merge refuses (exit 2).

The folders must be one whole set: every shard 1/N … N/N of one manifest,
exactly once, each finished (its run.json says how many pairs it selected).
A missing, unfinished or duplicated shard is refused (exit 2) with what is
wrong named, and nothing written; --allow-partial merges such a set anyway
and prints what it lacks. Inputs are never written (pair files are hard links
or copies renamed into --out); a merge that was interrupted is run again as is.

Example:
   editaudit corpus merge --out nightly/ shard-1/ shard-2/ shard-3/`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "out", Aliases: []string{"o"}, Required: true, Usage: "the merged run folder (must not hold results yet)"},
			&cli.BoolFlag{Name: "allow-partial", Usage: "merge a set of shards that is incomplete or overlaps, saying what it lacks"},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() == 0 {
				return usageErr("corpus merge needs at least one RUN_DIR")
			}
			for _, d := range c.Args().Slice() {
				if err := requireRunDir(d); err != nil {
					return err
				}
			}
			st, err := corpus.Merge(c.String("out"), c.Args().Slice(), corpus.MergeOptions{AllowPartial: c.Bool("allow-partial")})
			if errors.Is(err, corpus.ErrMergeConflict) || errors.Is(err, corpus.ErrMergeIncomplete) || errors.Is(err, corpus.ErrRunBusy) {
				return usageErr("%v", err)
			}
			if err != nil {
				return toolErr(err)
			}
			for _, g := range st.Gaps {
				fmt.Fprintf(c.App.ErrWriter, "editaudit: partial merge: %s\n", g)
			}
			fmt.Fprintf(c.App.Writer, "%d pairs from %d run folders (%d duplicates dropped) → %s\n", st.Pairs, st.Runs, st.Duplicates, filepath.Join(c.String("out"), results.IndexFile))
			return nil
		},
	}
}

func corpusCompareCommand() *cli.Command {
	return &cli.Command{
		Name:      "compare",
		Usage:     "which pairs got better or worse between two runs, and how the rates moved",
		ArgsUsage: "RUN_A RUN_B",
		Description: `compare matches the pairs of two run folders by id (two nights, two models over
the same manifest) and judges each on the gate (blocked ↔ passed), the new
findings (fatal, error, warning) and the structure lost: worse, better, mixed
or unchanged. It prints the counts, the overall and per-group rates in both
runs with their change, and the pairs that moved (worst first).

Examples:
   editaudit corpus compare monday/ tuesday/
   editaudit corpus compare --format json model-a/ model-b/ | jq '.pairs[] | select(.verdict=="worse")'`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "format", Aliases: []string{"f"}, Value: "text", Usage: "text or json"},
			&cli.IntFlag{Name: "max", Value: 50, Usage: "pairs listed per verdict in text (0: all)"},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() != 2 {
				return usageErr("corpus compare needs RUN_A and RUN_B")
			}
			format := c.String("format")
			if format != "text" && format != "json" {
				return usageErr("--format %q: use text or json", format)
			}
			a, b := c.Args().Get(0), c.Args().Get(1)
			for _, d := range []string{a, b} {
				if err := requireRunDir(d); err != nil {
					return err
				}
			}
			cmp, err := results.Compare(a, b)
			if err != nil {
				return toolErr(err)
			}
			if format == "json" {
				err = reports.WriteCompareJSON(c.App.Writer, cmp)
			} else {
				err = reports.WriteCompareText(c.App.Writer, cmp, c.Int("max"))
			}
			if err != nil {
				return toolErr(err)
			}
			return nil
		},
	}
}
