package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/urfave/cli/v2"

	"github.com/editaudit/editaudit/audit"
	"github.com/editaudit/editaudit/baseline"
	"github.com/editaudit/editaudit/internal/fsutil"
	"github.com/editaudit/editaudit/pixeldiff/render"
	"github.com/editaudit/editaudit/reports"
)

func renderFlag() cli.Flag {
	return &cli.StringFlag{Name: "render", Value: "auto", Usage: "auto: render when LibreOffice is installed; on: a missing renderer is an error (exit 3); off: never render"}
}

func storeFlag() cli.Flag {
	return &cli.StringFlag{Name: "store", Usage: "baseline store folder (default: the user cache folder, e.g. ~/.cache/editaudit)"}
}

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

func checkRenderMode(m string) error {
	switch m {
	case audit.RenderAuto, audit.RenderOn, audit.RenderOff:
		return nil
	}
	return usageErr("--render %q: use auto, on or off", m)
}

func auditCommand() *cli.Command {
	return &cli.Command{
		Name:      "audit",
		Usage:     "what did the edit break? compare an edited document with its original",
		ArgsUsage: "ORIGINAL EDITED",
		Description: `audit reports only what the edit introduced:
  1. new defects that keep the application from opening the file (graded fatal,
     error, warning, info, with part, line:column and a fix); problems the
     original already had are summarised in one line, never blamed on the edit;
  2. structure that shrank (tables, rows, cells, paragraphs, slides, runs,
     charts, images…), before → after and where;
  3. rendered pages that changed, aligned so an inserted page does not make
     every later page "changed"; the first --show pages as before/after images.

Only a new fatal defect blocks (exit 1). With --restore a blocked edit is
undone: the original's bytes are put back at EDITED atomically and the
rejected file is kept in --out as rejected.<ext>. Without --restore no input
is ever written.

Examples:
   editaudit audit contract.docx contract-edited.docx
   editaudit audit --format html --out report/ a.pptx b.pptx && open report/report.html
   editaudit audit --format model --show 2 a.docx b.docx | your-agent
   editaudit audit --restore --out rejected/ orig.xlsx edited.xlsx`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "format", Aliases: []string{"f"}, Value: "text", Usage: "output: text (model feedback), json, model (content blocks with images), html, sarif"},
			&cli.StringFlag{Name: "out", Aliases: []string{"o"}, Usage: "folder for page images, the HTML report and the rejected file"},
			storeFlag(),
			renderFlag(),
			&cli.IntFlag{Name: "show", Value: audit.DefaultShow, Usage: "changed pages shown as before/after images (0: none)"},
			&cli.BoolFlag{Name: "restore", Usage: "when blocked, put the original back at EDITED (atomically)"},
			modelBytesFlag(),
		},
		Action: runAudit,
	}
}

func runAudit(c *cli.Context) error {
	if c.NArg() != 2 {
		return usageErr("audit needs ORIGINAL and EDITED (see editaudit audit --help)")
	}
	format := c.String("format")
	switch format {
	case "text", "json", "model", "html", "sarif":
	default:
		return usageErr("--format %q: use text, json, model, html or sarif", format)
	}
	if err := checkRenderMode(c.String("render")); err != nil {
		return err
	}
	mopts, err := modelOptions(c)
	if err != nil {
		return err
	}
	orig, edited := c.Args().Get(0), c.Args().Get(1)
	for _, p := range []string{orig, edited} {
		if st, err := os.Stat(p); err != nil {
			return toolErr(err)
		} else if st.IsDir() {
			return usageErr("%s is a folder; audit compares two files (for folders use editaudit corpus run --originals DIR --edited DIR)", p)
		}
	}
	store, err := openStore(c)
	if err != nil {
		return toolErr(err)
	}
	show := c.Int("show")
	if show == 0 {
		show = -1
	}
	out := c.String("out")
	if err := writableDir(out); err != nil {
		return toolErr(err)
	}
	res, err := audit.Files(c.Context, orig, edited, audit.Options{
		Render: c.String("render"), Store: store, Show: show, OutDir: out, Restore: c.Bool("restore"),
	})
	if err != nil {
		if c.Context.Err() != nil {
			return c.Context.Err()
		}
		return toolErr(err)
	}
	if err := writeResult(c.App.Writer, format, res, out, mopts); err != nil {
		return toolErr(err)
	}
	if res.Blocked {
		return blocked
	}
	return nil
}

// writeResult prints the result in the asked format; html also goes to
// OUT/report.html when --out is given (and its path to stderr).
func writeResult(w io.Writer, format string, res *audit.Result, out string, mopts reports.ModelOptions) error {
	switch format {
	case "json":
		return reports.WriteJSON(w, res)
	case "model":
		return reports.WriteModelWith(w, res, mopts)
	case "sarif":
		return reports.WriteSARIF(w, res)
	case "html":
		if out == "" {
			return reports.WriteHTML(w, res, reports.HTMLOptions{})
		}
		p := filepath.Join(out, "report.html")
		if err := writeFileAtomic(p, func(f io.Writer) error { return reports.WriteHTML(f, res, reports.HTMLOptions{}) }); err != nil {
			return err
		}
		fmt.Fprintln(w, p)
		return nil
	}
	return reports.WriteText(w, res)
}

// writeFileAtomic writes a report through a temp file and a rename, so a
// report is never left half-written.
func writeFileAtomic(path string, write func(io.Writer) error) error {
	return fsutil.WriteAtomic(path, 0o644, write)
}

func baselineCommand() *cli.Command {
	return &cli.Command{
		Name:      "baseline",
		Usage:     "snapshot originals ahead of time (findings, structure, rendered pages)",
		ArgsUsage: "FILE...",
		Description: `baseline inspects and renders each original once and keeps the snapshot in the
store, addressed by the file's sha256 and the renderer's toolchain, so every
later audit of an edit of that original skips that work.`,
		Flags: []cli.Flag{storeFlag(), renderFlag()},
		Action: func(c *cli.Context) error {
			if c.NArg() == 0 {
				return usageErr("baseline needs at least one FILE")
			}
			if err := checkRenderMode(c.String("render")); err != nil {
				return err
			}
			store, err := openStore(c)
			if err != nil {
				return toolErr(err)
			}
			r, err := audit.StartRenderer(c.Context, c.String("render"), render.Config{Pool: render.PoolOptions{Workers: 1}})
			if err != nil {
				return toolErr(err)
			}
			defer r.Close()
			for _, p := range c.Args().Slice() {
				sha, err := fileSHA(p)
				if err != nil {
					return toolErr(err)
				}
				snap, hit, err := store.Snapshot(c.Context, p, sha, baseline.Options{Renderer: r})
				if err != nil {
					if errors.Is(err, render.ErrNoRenderer) {
						return toolErr(err)
					}
					return toolErr(err)
				}
				state := "stored"
				if hit {
					state = "already stored"
				}
				fmt.Fprintf(c.App.Writer, "%s: %s (%s, %d findings, pages %s %d)\n", p, state, snap.Report.Format, len(snap.Report.Findings), snap.Pages.Status, len(snap.Pages.Sigs))
				snap.Close()
			}
			return nil
		},
	}
}

// modelBytesFlag is --model-bytes of audit and check.
func modelBytesFlag() cli.Flag {
	return &cli.IntFlag{Name: "model-bytes", Value: reports.DefaultModelBytes,
		Usage: "byte budget of --format model output (check: also html); images beyond it are downscaled, then dropped, and the text says so"}
}

// modelOptions reads --model-bytes.
func modelOptions(c *cli.Context) (reports.ModelOptions, error) {
	n := c.Int("model-bytes")
	if n < reports.MinModelBytes {
		return reports.ModelOptions{}, usageErr("--model-bytes %d: at least %d (64 KiB)", n, reports.MinModelBytes)
	}
	return reports.ModelOptions{MaxBytes: n}, nil
}

// writableDir makes sure --out exists and can be written, before any work
// is done, so a read-only or full folder is a clear error up front.
func writableDir(dir string) error {
	if dir == "" {
		return nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("--out %s: %w", dir, err)
	}
	f, err := os.CreateTemp(dir, ".editaudit-write-test-*")
	if err != nil {
		return fmt.Errorf("--out %s is not writable: %w", dir, err)
	}
	name := f.Name()
	f.Close()
	return os.Remove(name)
}
