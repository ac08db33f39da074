package corpus

import (
	"errors"
	"io"
	"os"
	"path/filepath"

	"github.com/editaudit/editaudit/corpus/results"
	"github.com/editaudit/editaudit/internal/fsutil"
)

// compactResults rewrites results.jsonl to hold one valid line per id (the
// last one), dropping only a torn last line, invalid lines and superseded
// lines: the result of every id is kept, whether or not the current run
// selects it (a subset manifest, a mistaken shard must never delete
// results). It returns the resume keys of the kept lines that carry a
// result (not an error) and the ids of every kept line. The file is
// replaced atomically and durably, and only when something is dropped.
func compactResults(runDir string) (done map[string]results.Key, ids map[string]bool, err error) {
	path := filepath.Join(runDir, results.ResultsFile)
	done, ids = map[string]results.Key{}, map[string]bool{}
	total, err := results.Scan(path, func(l results.Line) error {
		ids[l.ID] = true
		if !l.Failed {
			done[l.ID] = l.Key
		}
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	torn, err := endsTorn(path)
	if err != nil {
		return nil, nil, err
	}
	if len(ids) == total && !torn {
		return done, ids, nil
	}
	err = fsutil.WriteAtomic(path, 0o644, func(w io.Writer) error {
		_, err := results.Scan(path, func(l results.Line) error {
			if _, err := w.Write(l.Raw); err != nil {
				return err
			}
			_, err := w.Write([]byte{'\n'})
			return err
		})
		return err
	})
	return done, ids, err
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
