package main

import (
	"sort"

	"github.com/editaudit/editaudit/internal/fsutil"
)

func sortStrings(s []string) { sort.Strings(s) }

func fileSHA(path string) (string, error) { return fsutil.SHA256File(path) }
