package main

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
	"os"
	"sort"
)

func sortStrings(s []string) { sort.Strings(s) }

func fileSHA(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
