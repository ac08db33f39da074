package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/urfave/cli/v2"

	"github.com/editaudit/editaudit/corpus"
	"github.com/editaudit/editaudit/corpus/results"
	"github.com/editaudit/editaudit/internal/plural"
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

--junit FILE also writes JUnit XML for CI dashboards (Jenkins, GitLab): one
testsuite per group, one testcase per pair — a blocked pair is a failure
listing its new fatal findings, a pair the tool could not audit an error, and
lost structure, changed pages and non-fatal findings go to system-out.

Examples:
   editaudit corpus summary nightly/
   editaudit corpus summary --format json nightly/ | jq .overall.blocked_rate
   editaudit corpus summary --junit nightly/junit.xml nightly/`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "format", Aliases: []string{"f"}, Value: "text", Usage: "text, json or html"},
			&cli.StringFlag{Name: "junit", Usage: "also write JUnit XML (one testcase per pair) to this file"},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return usageErr("corpus summary needs RUN_DIR")
			}
			format := c.String("format")
			if err := oneOf("format", format, "text", "json", "html"); err != nil {
				return err
			}
			dir := c.Args().First()
			if err := requireRunDir(dir); err != nil {
				return err
			}
			var cases []reports.JUnitCase
			var each func(*results.Record)
			junit := c.String("junit")
			if junit != "" {
				each = func(r *results.Record) { cases = append(cases, reports.JUnitCaseOf(r)) }
			}
			s, err := results.Summarize(dir, each)
			if err != nil {
				return toolErr(err)
			}
			if junit != "" {
				name := "editaudit corpus " + filepath.Base(filepath.Clean(dir))
				var buf bytes.Buffer
				if err := reports.WriteJUnit(&buf, name, cases); err != nil {
					return toolErr(err)
				}
				if err := writeOutput(junit, buf.Bytes(), c.App.Writer); err != nil {
					return toolErr(err)
				}
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
			if errors.Is(err, corpus.ErrMergeConflict) || errors.Is(err, corpus.ErrMergeIncomplete) || errors.Is(err, corpus.ErrMergeFolders) || errors.Is(err, corpus.ErrRunBusy) {
				return usageErr("%v", err)
			}
			if err != nil {
				return toolErr(err)
			}
			for _, g := range st.Gaps {
				fmt.Fprintf(c.App.ErrWriter, "editaudit: partial merge: %s\n", g)
			}
			fmt.Fprintf(c.App.Writer, "%s from %s (%s dropped) → %s\n", plural.Of(st.Pairs, "pair", "pairs"), plural.Of(st.Runs, "run folder", "run folders"), plural.Of(st.Duplicates, "duplicate", "duplicates"), filepath.Join(c.String("out"), results.IndexFile))
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

--fail-on makes compare a CI gate: a comma-separated list of
METRIC[GROUP] OP THRESHOLD; when any trips, compare prints one line per
tripped gate on stderr and exits 1. A signed threshold is a change from A to
B — pp (percentage points, rates only), % (relative to A) or the metric's own
unit — and an unsigned one is B's value. [GROUP] limits a gate to one group,
[*] applies it to every group in both runs. Metrics (the "_rate" suffix may
be left out): pairs, failed_rate, blocked_rate, new_error_rate,
new_warning_rate, structure_loss_rate, loss_rate.<metric> (tables, rows…),
pages_changed_rate, pages_changed_mean, pages_changed_p95,
render_failure_rate, time_p95_ms. docs/operations.md has the details.

Examples:
   editaudit corpus compare monday/ tuesday/
   editaudit corpus compare --format json model-a/ model-b/ | jq '.pairs[] | select(.verdict=="worse")'
   editaudit corpus compare --fail-on 'blocked_rate>+0.5pp,structure_loss>+1pp,new_error_rate[*]>+2pp' last/ tonight/`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "format", Aliases: []string{"f"}, Value: "text", Usage: "text or json"},
			&cli.IntFlag{Name: "max", Value: 50, Usage: "pairs listed per verdict in text (0: all)"},
			&cli.StringFlag{Name: "fail-on", Usage: "exit 1 when a gate trips: 'blocked_rate>+0.5pp,structure_loss>+1pp,…'"},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() != 2 {
				return usageErr("corpus compare needs RUN_A and RUN_B")
			}
			format := c.String("format")
			if err := oneOf("format", format, "text", "json"); err != nil {
				return err
			}
			gates, err := results.ParseGates(c.String("fail-on"))
			if err != nil {
				return usageErr("--fail-on: %v", err)
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
			tripped := cmp.Evaluate(gates)
			if format == "json" {
				err = reports.WriteCompareJSON(c.App.Writer, cmp)
			} else {
				err = reports.WriteCompareText(c.App.Writer, cmp, c.Int("max"))
			}
			if err != nil {
				return toolErr(err)
			}
			for _, r := range tripped {
				fmt.Fprintf(c.App.ErrWriter, "editaudit: gate %s tripped: %s\n", r.Gate, r.Message)
			}
			if len(tripped) > 0 {
				fmt.Fprintf(c.App.ErrWriter, "editaudit: %d of %d gate results tripped\n", len(tripped), len(cmp.Gates))
				return blocked
			}
			return nil
		},
	}
}
