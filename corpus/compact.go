package corpus

import (
	"errors"
	"io"
	"os"
	"path/filepath"

	"github.com/editaudit/editaudit/corpus/results"
	"github.com/editaudit/editaudit/internal/fsutil"
)

// compactResults rewrites results.jsonl to hold one valid line per id that
// keep accepts (the last one), dropping a torn last line, invalid lines,
// superseded lines and ids keep refuses. It returns the resume keys of the
// kept lines that carry a result (not an error). The file is replaced
// atomically and durably, and only when something is dropped.
func compactResults(runDir string, keep func(id string) bool) (map[string]results.Key, error) {
	path := filepath.Join(runDir, results.ResultsFile)
	done := map[string]results.Key{}
	kept := 0
	total, err := results.Scan(path, func(l results.Line) error {
		if !keep(l.ID) {
			return nil
		}
		kept++
		if !l.Failed {
			done[l.ID] = l.Key
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	torn, err := endsTorn(path)
	if err != nil {
		return nil, err
	}
	if kept == total && !torn {
		return done, nil
	}
	err = fsutil.WriteAtomic(path, 0o644, func(w io.Writer) error {
		_, err := results.Scan(path, func(l results.Line) error {
			if !keep(l.ID) {
				return nil
			}
			if _, err := w.Write(l.Raw); err != nil {
				return err
			}
			_, err := w.Write([]byte{'\n'})
			return err
		})
		return err
	})
	return done, err
}

// endsTorn reports whether a non-empty file lacks a final newline.
func endsTorn(path string) (bool, error) {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil || st.Size() == 0 {
		return false, err
	}
	b := make([]byte, 1)
	if _, err := f.ReadAt(b, st.Size()-1); err != nil {
		return false, err
	}
	return b[0] != '\n', nil
}
