package corpus

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/editaudit/editaudit/audit"
	"github.com/editaudit/editaudit/formats"
)

// Files of a run folder.
const (
	ResultsFile = "results.jsonl"
	SummaryFile = "summary.json"
	IndexFile   = "index.html"
	RunFile     = "run.json"
	PairsDir    = "pairs"
)

// Record is one line of results.jsonl: the pair's audit (an
// editaudit.audit/v1 object, DESIGN.md "JSON") plus the pair's id and
// group, where its report is, how long it took, and what it was made with
// (the resume key). A pair the tool could not audit has Error set and the
// audit fields it could fill (schema, paths, hashes).
//
// Page images are files under the pair's folder; pages.shown[].image is
// relative to the run folder ("pairs/7/pages/p3.jpg"). No image bytes are
// ever in the JSON.
type Record struct {
	ID    string `json:"id"`
	Group string `json:"group,omitempty"`
	audit.Result
	// Error is why the pair could not be audited ("" when it was).
	Error string `json:"error,omitempty"`
	// Report is the pair's HTML report, relative to the run folder.
	Report string `json:"report,omitempty"`
	// Timings are wall-clock milliseconds.
	Timings Timings `json:"timings"`
	// ToolchainKey is the renderer's toolchain key ("norender" without
	// one), Render the --render mode and Engine the validators' build:
	// with the two hashes, the key under which a resumed run keeps the
	// result instead of auditing the pair again.
	ToolchainKey string `json:"toolchain_key"`
	Render       string `json:"render"`
	Engine       string `json:"engine"`
}

// Timings say where a pair's time went, in milliseconds.
type Timings struct {
	// Baseline is getting the original's snapshot: inspecting and
	// rendering it, or loading it from the store (or waiting for the pair
	// that is making it).
	Baseline int64 `json:"baseline_ms"`
	// Audit is the audit of the edited file against that snapshot:
	// inspecting and rendering the edited file, comparing, drawing.
	Audit int64 `json:"audit_ms"`
	// Total is the pair from start to its line being written, hashing
	// and the HTML report included.
	Total int64 `json:"total_ms"`
	// BaselineHit: the snapshot came from the store.
	BaselineHit bool `json:"baseline_hit"`
}

// Failed reports whether the tool could not audit the pair.
func (r *Record) Failed() bool { return r.Error != "" }

// resumeKey is what must match for a result to be kept on resume.
type resumeKey struct {
	origSHA, editSHA, toolchain, render, engine string
}

func (r *Record) key() resumeKey {
	return resumeKey{r.Original.SHA256, r.Edited.SHA256, r.ToolchainKey, r.Render, r.Engine}
}

// slimRecord decodes only what resuming needs from a line.
type slimRecord struct {
	ID       string `json:"id"`
	Error    string `json:"error"`
	Original struct {
		SHA256 string `json:"sha256"`
	} `json:"original"`
	Edited struct {
		SHA256 string `json:"sha256"`
	} `json:"edited"`
	ToolchainKey string `json:"toolchain_key"`
	Render       string `json:"render"`
	Engine       string `json:"engine"`
}

func (s *slimRecord) key() resumeKey {
	return resumeKey{s.Original.SHA256, s.Edited.SHA256, s.ToolchainKey, s.Render, s.Engine}
}

// maxLine bounds one results line when reading (a pair with thousands of
// findings is a few MB).
const maxLine = 256 << 20

// normalize gives a record the stable JSON shape: lists as [] never null.
func (r *Record) normalize() {
	if r.Schema == "" {
		r.Schema = audit.Schema
	}
	r.NewFindings = nonNilSlice(r.NewFindings)
	r.Resolved = nonNilSlice(r.Resolved)
	r.Structure.Shrunk = nonNilSlice(r.Structure.Shrunk)
	if r.Structure.Before == nil {
		r.Structure.Before = formats.Counts{}
	}
	if r.Structure.After == nil {
		r.Structure.After = formats.Counts{}
	}
	if r.Pages.Status == "" {
		r.Pages.Status = audit.PagesOff
	}
	r.Pages.Changed = nonNilSlice(r.Pages.Changed)
	for i := range r.Pages.Changed {
		r.Pages.Changed[i].Boxes = nonNilSlice(r.Pages.Changed[i].Boxes)
	}
	r.Pages.Inserted = nonNilSlice(r.Pages.Inserted)
	r.Pages.Deleted = nonNilSlice(r.Pages.Deleted)
	r.Pages.Shown = nonNilSlice(r.Pages.Shown)
}

func nonNilSlice[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// marshalLine encodes a record as one line (HTML characters unescaped,
// newline-terminated).
func marshalLine(r *Record) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(r); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// ReadResults calls fn for every complete, valid record of the run
// folder's results.jsonl, in file order. A torn last line (a run killed
// while writing) and lines that are not a record are skipped; so are
// earlier lines for an id that appears again (the later line is the newer
// result). A missing file is no records.
func ReadResults(runDir string, fn func(*Record) error) error {
	path := filepath.Join(runDir, ResultsFile)
	last, err := lastLines(path)
	if err != nil {
		return err
	}
	return scanLines(path, func(n int, _ int64, line []byte) error {
		var s slimRecord
		if json.Unmarshal(line, &s) != nil || s.ID == "" || last[s.ID] != n {
			return nil
		}
		var r Record
		if err := json.Unmarshal(line, &r); err != nil {
			return nil
		}
		return fn(&r)
	})
}

// lastLines maps each id to the number of the last valid line holding it.
func lastLines(path string) (map[string]int, error) {
	last := map[string]int{}
	err := scanLines(path, func(n int, _ int64, line []byte) error {
		var s slimRecord
		if json.Unmarshal(line, &s) == nil && s.ID != "" {
			last[s.ID] = n
		}
		return nil
	})
	return last, err
}

// scanLines calls fn with every newline-terminated line of path (1-based
// numbers, the line's byte offset); an unterminated last line is torn and
// skipped. The line is valid only during the call.
func scanLines(path string, fn func(n int, off int64, line []byte) error) error {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, 1<<20)
	n := 0
	var off int64
	for {
		line, err := readLine(br)
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("corpus: %s: %w", path, err)
		}
		n++
		at := off
		off += int64(len(line)) + 1
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		if err := fn(n, at, line); err != nil {
			return err
		}
	}
}

// readLine returns the next newline-terminated line without its newline;
// io.EOF at the end or before an unterminated (torn) line.
func readLine(br *bufio.Reader) ([]byte, error) {
	var out []byte
	for {
		chunk, err := br.ReadSlice('\n')
		if len(out)+len(chunk) > maxLine {
			return nil, fmt.Errorf("a line longer than %d bytes", maxLine)
		}
		switch {
		case err == nil:
			if out == nil {
				return chunk[:len(chunk)-1], nil
			}
			return append(out, chunk[:len(chunk)-1]...), nil
		case errors.Is(err, bufio.ErrBufferFull):
			out = append(out, chunk...)
		case err == io.EOF:
			return nil, io.EOF // whatever is left is torn
		default:
			return nil, err
		}
	}
}

// compactResults rewrites results.jsonl to hold one valid line per id that
// keep accepts (the last one), dropping a torn last line, invalid lines,
// superseded lines and ids keep refuses. It returns the resume keys of the
// kept lines that carry a result (not an error). The file is replaced
// atomically, and only when something is dropped.
func compactResults(runDir string, keep func(id string) bool) (map[string]resumeKey, error) {
	path := filepath.Join(runDir, ResultsFile)
	last, err := lastLines(path)
	if err != nil {
		return nil, err
	}
	done := map[string]resumeKey{}
	total, kept := 0, 0
	err = scanLines(path, func(n int, _ int64, line []byte) error {
		total++
		var s slimRecord
		if json.Unmarshal(line, &s) != nil || s.ID == "" || last[s.ID] != n || !keep(s.ID) {
			return nil
		}
		kept++
		if s.Error == "" {
			done[s.ID] = s.key()
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
	err = rewriteAtomic(path, func(w io.Writer) error {
		return scanLines(path, func(n int, _ int64, line []byte) error {
			var s slimRecord
			if json.Unmarshal(line, &s) != nil || s.ID == "" || last[s.ID] != n || !keep(s.ID) {
				return nil
			}
			if _, err := w.Write(line); err != nil {
				return err
			}
			_, err := w.Write([]byte{'\n'})
			return err
		})
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

// rewriteAtomic replaces path with what write produces: a temp file in the
// same folder, fsync, rename, fsync of the folder.
func rewriteAtomic(path string, write func(io.Writer) error) error {
	return replaceFile(path, true, write)
}

// replaceFile writes path through a temp file and a rename, so a reader
// never sees half a file; durable syncs the file and its folder (a report
// that can be rebuilt from results.jsonl need not be).
func replaceFile(path string, durable bool, write func(io.Writer) error) error {
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	ok := false
	defer func() {
		if !ok {
			f.Close()
			os.Remove(tmp)
		}
	}()
	bw := bufio.NewWriterSize(f, 1<<20)
	if err := write(bw); err != nil {
		return err
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	if err := f.Chmod(0o644); err != nil {
		return err
	}
	if durable {
		if err := f.Sync(); err != nil {
			return err
		}
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		return err
	}
	ok = true
	if !durable {
		return nil
	}
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		d.Close()
	}
	return nil
}

// writeJSONAtomic writes v as indented JSON to path, atomically.
func writeJSONAtomic(path string, v any) error {
	return rewriteAtomic(path, func(w io.Writer) error {
		enc := json.NewEncoder(w)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		return enc.Encode(v)
	})
}
