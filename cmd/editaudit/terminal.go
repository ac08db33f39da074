package main

import (
	"io"
	"os"
	"strconv"
)

// terminalColumns returns the width of the terminal w writes to, asked
// anew at each call (a resized terminal is followed): COLUMNS when set to
// a number, else the terminal's own size (TIOCGWINSZ), else 0 (unknown).
func terminalColumns(w io.Writer) func() int {
	return func() int {
		if n, err := strconv.Atoi(os.Getenv("COLUMNS")); err == nil && n > 0 {
			return n
		}
		if f, ok := w.(*os.File); ok {
			return windowColumns(f)
		}
		return 0
	}
}
