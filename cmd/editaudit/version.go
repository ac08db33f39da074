package main

import (
	"context"
	"fmt"
	"io"
	"runtime"

	"github.com/editaudit/editaudit/baseline"
	"github.com/editaudit/editaudit/render"
)

// printVersion is `editaudit --version`: the engine (the build's VCS
// revision, the version snapshots are keyed by), the Go toolchain, and
// the rendering toolchain's fingerprint when LibreOffice is found (its key
// is the one audits made here carry), or why there is none.
func printVersion(ctx context.Context, w io.Writer) error {
	fmt.Fprintf(w, "editaudit %s\n", baseline.EngineVersion())
	fmt.Fprintf(w, "go: %s %s/%s\n", runtime.Version(), runtime.GOOS, runtime.GOARCH)
	tc, err := render.InstalledToolchain(ctx, 0)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		_, err = fmt.Fprintf(w, "toolchain: none (%v)\n", err)
		return err
	}
	_, err = fmt.Fprintf(w, "toolchain %s: %s\n", tc.Key(), tc)
	return err
}
