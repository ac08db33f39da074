// Command hwpx2odt drives the HWPX converter on its own: it converts .hwpx
// files to OpenDocument Text and, with -pdf, has LibreOffice print each
// to PDF — the same two steps the renderer takes, without editaudit's
// pool. It prints one line per file: the sections, notes and timings.
//
//	go run ./formats/hwpx/convert/cmd/hwpx2odt -out DIR [-pdf] FILE.hwpx…
//
// It imports formats/hwpx/convert; it must not import the rest of the
// engine (baseline, audit, reports, corpus): it is the converter's own
// bench tool.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/editaudit/editaudit/formats/hwpx/convert"
)

func main() {
	out := flag.String("out", ".", "folder for the .odt (and .pdf) files")
	pdf := flag.Bool("pdf", false, "also convert each .odt to PDF with LibreOffice (soffice on PATH)")
	flag.Parse()
	if flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: hwpx2odt -out DIR [-pdf] FILE.hwpx…")
		os.Exit(2)
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(3)
	}
	ctx := context.Background()
	status := 0
	var odts []string
	for _, in := range flag.Args() {
		name := strings.TrimSuffix(filepath.Base(in), filepath.Ext(in)) + convert.Ext
		dst := filepath.Join(*out, name)
		t0, c0 := time.Now(), cpu()
		res, err := convert.ConvertFile(ctx, in, dst, convert.Options{})
		if err != nil {
			fmt.Printf("%s\terror\t%v\n", in, err)
			status = 1
			continue
		}
		fmt.Printf("%s\tok\tsections=%d bytes=%d wall=%s cpu=%s\tnotes=%q\n", in, res.Sections, res.Bytes,
			time.Since(t0).Round(time.Millisecond), (cpu() - c0).Round(time.Millisecond), res.Notes)
		odts = append(odts, dst)
	}
	if *pdf && len(odts) > 0 {
		prof, err := os.MkdirTemp("", "hwpx2odt-profile-")
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(3)
		}
		defer os.RemoveAll(prof)
		args := append([]string{"-env:UserInstallation=file://" + prof, "--headless", "--norestore", "--convert-to", "pdf", "--outdir", *out}, odts...)
		cmd := exec.CommandContext(ctx, "soffice", args...)
		cmd.Env = append(os.Environ(), "LC_ALL=C.UTF-8")
		cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
		t0, c0 := time.Now(), childCPU()
		if err := cmd.Run(); err != nil {
			fmt.Fprintln(os.Stderr, "soffice:", err)
			os.Exit(3)
		}
		c := childCPU() - c0
		fmt.Printf("soffice\t%d files\twall=%s cpu=%s\n", len(odts), time.Since(t0).Round(time.Millisecond), c.Round(time.Millisecond))
	}
	os.Exit(status)
}

// cpu is the process's CPU time so far (user + system).
func cpu() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// childCPU is the CPU time of the waited-for children (LibreOffice and the
// processes it started).
func childCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_CHILDREN, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
