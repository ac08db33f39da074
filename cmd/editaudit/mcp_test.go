package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMCPCommand: the flags' refusals are usage errors (exit 2) naming the
// flag, HTTP off loopback needs a token as serve's does, and over stdio
// the server ends with its client (standard input closed: exit 0).
func TestMCPCommand(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	os.WriteFile(file, []byte("x"), 0o600)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"mcp", "--http", "0.0.0.0:0"}, "--http 0.0.0.0:0 is not a loopback address: give --token-file"},
		{[]string{"mcp", "--http", ":8788"}, "not a loopback address"},
		{[]string{"mcp", "--http", "nohost"}, "--http \"nohost\""},
		{[]string{"mcp", "--token-file", file}, "--token-file is for --http"},
		{[]string{"mcp", "--root", filepath.Join(dir, "none")}, "--root " + filepath.Join(dir, "none") + ": not a folder"},
		{[]string{"mcp", "--root", file}, "not a folder"},
		{[]string{"mcp", "--render", "sometimes"}, "--render"},
		{[]string{"mcp", "--workers", "0"}, "--workers"},
		{[]string{"mcp", "extra"}, "mcp takes no arguments"},
	} {
		if code, _, stderr := cliRun(t, tc.args...); code != exitUsage || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want %q", tc.args, code, stderr, tc.want)
		}
	}
	// go test's standard input is empty: the client is gone at once.
	if code, stdout, stderr := cliRun(t, "mcp", "--render", "off", "--root", dir, "--store", filepath.Join(dir, "store")); code != exitOK || stdout != "" {
		t.Errorf("stdio with no client: exit %d, stdout %q, stderr %s", code, stdout, stderr)
	}
	if code, stdout, _ := cliRun(t, "mcp", "--help"); code != exitOK || !strings.Contains(stdout, `"mcpServers"`) || !strings.Contains(stdout, "original_sha256") {
		t.Errorf("--help: exit %d\n%s", code, stdout)
	}
}
