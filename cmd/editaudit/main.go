// Command editaudit audits edits of Word, PowerPoint, Excel and Hangul
// documents: new defects that stop the application opening the file,
// structure that shrank, and rendered pages that changed.
//
// It is wiring only: one file per command turns flags into library calls
// (audit, baseline, formats/inspect, render, reports, corpus,
// synth, mutate) and maps their errors to the exit codes of DESIGN.md in
// one place (exitCode). It owns no schema and no output format; the
// writers are in reports, pages.json in render.
//
// It may import every package of the engine and must not import the test
// helpers internal/testdoc and synth/synthtest; nothing imports it.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/urfave/cli/v2"
)

// Exit codes: the public contract of DESIGN.md.
const (
	exitOK      = 0 // passed: nothing new at fatal
	exitBlocked = 1 // a new fatal finding (check: any fatal)
	exitUsage   = 2 // usage error
	exitTool    = 3 // the tool could not do its job (renderer missing, I/O)
	exitCancel  = 130
)

// exitError carries an exit code out of a command's action.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string {
	if e.err == nil {
		return fmt.Sprintf("exit %d", e.code)
	}
	return e.err.Error()
}
func (e *exitError) Unwrap() error { return e.err }

// usageErr marks err as a usage error (exit 2).
func usageErr(format string, a ...any) error {
	return &exitError{code: exitUsage, err: fmt.Errorf(format, a...)}
}

// toolErr marks err as "the tool could not do its job" (exit 3).
func toolErr(err error) error { return &exitError{code: exitTool, err: err} }

// blocked is returned by an action whose verdict is "blocked" (exit 1);
// it prints nothing more.
var blocked = &exitError{code: exitBlocked}

const exitHelp = `EXIT CODES:
   0  passed: nothing new at fatal
   1  blocked: a new fatal finding (for check: any fatal finding)
   2  usage error
   3  the tool could not do its job (renderer missing or crashed beyond retries, I/O error)
   130 cancelled (SIGINT/SIGTERM)
   An unreadable or corrupt input document is a finding, not exit 3: a document
   being judged (check FILE, audit EDITED) that is missing, a folder or not a
   regular file is the fatal finding file.missing, with the normal output. Any
   other path that names nothing usable (audit ORIGINAL, a render or baseline
   FILE, a manifest, a run folder) is a usage error, exit 2.`

func newApp(stdout, stderr io.Writer) *cli.App {
	app := &cli.App{
		Name:  "editaudit",
		Usage: "audit edits of Word, PowerPoint, Excel and Hangul documents",
		Description: `editaudit judges an edited document against its original: it reports only what
the edit introduced — new defects that keep Word, Excel, PowerPoint or Hangul
from opening the file, structure that shrank (tables, rows, slides, charts…),
and rendered pages that changed. Only a new fatal defect blocks.

Typical use:
   editaudit check contract.docx              validate a file on its own
   editaudit audit original.docx edited.docx  what did the edit break?
   editaudit audit --restore --out rej/ original.docx edited.docx
                                              put the original back if blocked
   editaudit help audit                       what a command does, its flags

` + exitHelp,
		Writer:                 stdout,
		ErrWriter:              stderr,
		HideHelpCommand:        true, // help is helpCommand: every command, nested too
		HideVersion:            true, // --version is runApp's
		UseShortOptionHandling: true,
		Flags: []cli.Flag{
			cli.HelpFlag, // not added by urfave/cli when a command is named help
			&cli.BoolFlag{Name: "version", Usage: "print the engine version and the rendering toolchain, then exit"},
		},
		Action:         runApp,
		Commands:       append(commands(), helpCommand()),
		ExitErrHandler: func(*cli.Context, error) {}, // Run maps errors to codes
		OnUsageError:   onUsageError,
	}
	for _, c := range app.Commands {
		setUsageErrors(c)
	}
	return app
}

// onUsageError makes a flag that does not parse ("--show abc") a usage
// error on stderr (exit 2) instead of urfave/cli's help on stdout.
func onUsageError(_ *cli.Context, err error, _ bool) error {
	return usageErr("%v", err)
}

func setUsageErrors(c *cli.Command) {
	c.OnUsageError = onUsageError
	for _, s := range c.Subcommands {
		setUsageErrors(s)
	}
}

// runApp is `editaudit` without a command: --version, or the help.
func runApp(c *cli.Context) error {
	switch {
	case c.NArg() > 0:
		return usageErr("no command %q (see editaudit --help)", c.Args().First())
	case c.Bool("version"):
		return printVersion(c.Context, c.App.Writer)
	}
	return cli.ShowAppHelp(c)
}

// commands lists every subcommand; each lives in its own file.
func commands() []*cli.Command {
	return []*cli.Command{
		checkCommand(),
		renderCommand(),
		auditCommand(),
		baselineCommand(),
		sanitizeCommand(),
		synthCommand(),
		corpusCommand(),
		serveCommand(),
		mcpCommand(),
	}
}

// Run executes the CLI with args (args[0] is the program name) and returns
// the exit code. It is the whole program, testable without a subprocess.
func Run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	err := newApp(stdout, stderr).RunContext(ctx, args)
	return exitCode(ctx, err, stderr)
}

// exitCode is the one mapping from a command's error to the exit code,
// saying on stderr why. Cancellation comes first: a command interrupted
// mid-way fails with whatever its last call returned (a killed process,
// a wrapped context error), and that is exit 130, never 3.
func exitCode(ctx context.Context, err error, stderr io.Writer) int {
	var ee *exitError
	switch {
	case err == nil:
		return exitOK
	case errors.Is(err, context.Canceled) || ctx.Err() != nil:
		fmt.Fprintln(stderr, "editaudit: cancelled")
		return exitCancel
	case errors.As(err, &ee):
		if ee.err != nil {
			fmt.Fprintln(stderr, "editaudit:", ee.err)
		}
		return ee.code
	default:
		// urfave/cli reports unknown flags and commands as plain errors.
		fmt.Fprintln(stderr, "editaudit:", err)
		return exitUsage
	}
}

// stopGrace is how long the program may take to stop cleanly after
// SIGINT/SIGTERM (a corpus run gives its pairs in flight 5 s, then writes
// its summary) before it exits anyway; a second signal exits at once.
// Either way exit code 130; LibreOffice dies with it (parent-death
// signal) and temp folders left are swept by the next start.
const stopGrace = 30 * time.Second

func main() {
	ctx, cancel := context.WithCancel(context.Background())
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	go watchSignals(sigs, cancel, stopGrace, os.Stderr, os.Exit)
	code := Run(ctx, os.Args, os.Stdout, os.Stderr)
	os.Exit(code)
}

// watchSignals cancels the command at the first signal, and exits (130)
// at a second one or when grace has passed since the first.
func watchSignals(sigs <-chan os.Signal, cancel context.CancelFunc, grace time.Duration, stderr io.Writer, exit func(int)) {
	<-sigs
	cancel()
	select {
	case <-sigs:
	case <-time.After(grace):
	}
	fmt.Fprintln(stderr, "editaudit: stopped without finishing its clean-up (signalled twice, or blocked past the grace period)")
	exit(exitCancel)
}
