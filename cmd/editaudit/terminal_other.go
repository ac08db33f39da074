//go:build !unix

package main

import "os"

// windowColumns is unknown (0) where TIOCGWINSZ does not exist.
func windowColumns(*os.File) int { return 0 }
