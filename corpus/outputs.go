package corpus

import (
	"encoding/json"
	"io"
	"path/filepath"

	"github.com/editaudit/editaudit/corpus/results"
	"github.com/editaudit/editaudit/internal/fsutil"
	"github.com/editaudit/editaudit/reports"
)

// WriteOutputs (re)writes summary.json and index.html of a run folder from
// its results.jsonl and run.json, in one pass over the results. The
// summary is written durably; index.html, which can always be rebuilt, is
// only replaced atomically.
func WriteOutputs(runDir string) error {
	var rows []reports.IndexRow
	s, err := results.Summarize(runDir, func(r *results.Record) { rows = append(rows, reports.IndexRowOf(r)) })
	if err != nil {
		return err
	}
	if err := fsutil.WriteAtomic(filepath.Join(runDir, results.SummaryFile), 0o644, func(w io.Writer) error { return reports.WriteSummaryJSON(w, s) }); err != nil {
		return err
	}
	return fsutil.ReplaceAtomic(filepath.Join(runDir, results.IndexFile), 0o644, func(w io.Writer) error { return reports.WriteIndexHTML(w, s, rows) })
}

// writeRunInfo writes run.json (indented JSON), atomically and durably.
func writeRunInfo(runDir string, ri *results.RunInfo) error {
	return fsutil.WriteAtomic(filepath.Join(runDir, results.RunFile), 0o644, func(w io.Writer) error {
		enc := json.NewEncoder(w)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		return enc.Encode(ri)
	})
}
