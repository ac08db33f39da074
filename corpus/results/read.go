package results

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// maxLine bounds one results line when reading (a pair with thousands of
// findings is a few MB).
const maxLine = 256 << 20

// slimRecord decodes only what finding the current lines needs.
type slimRecord struct {
	ID       string `json:"id"`
	Error    string `json:"error"`
	Blocked  bool   `json:"blocked"`
	Original struct {
		SHA256 string `json:"sha256"`
	} `json:"original"`
	Edited struct {
		SHA256 string `json:"sha256"`
	} `json:"edited"`
	ToolchainKey string `json:"toolchain_key"`
	Render       string `json:"render"`
	Engine       string `json:"engine"`
	ContentMode  string `json:"content_mode"`
}

// Line is a current line of a results file: a valid line (a JSON object
// with an id) that is the last such line for its id.
type Line struct {
	// N is the 1-based line number and Off the line's byte offset.
	N   int
	Off int64
	// Raw is the line without its newline; valid only during the call.
	Raw []byte
	ID  string
	// Failed: an error line (the pair could not be audited).
	Failed bool
	// Blocked: the pair's audit blocked the edit.
	Blocked bool
	// Key is the line's resume key.
	Key Key
}

// ReadResults calls fn for every complete, valid record of the run
// folder's results.jsonl, in file order. A torn last line (a run killed
// while writing) and lines that are not a record are skipped; so are
// earlier lines for an id that appears again (the later line is the newer
// result). A missing file is no records.
func ReadResults(runDir string, fn func(*Record) error) error {
	_, err := Scan(filepath.Join(runDir, ResultsFile), func(l Line) error {
		var r Record
		if err := json.Unmarshal(l.Raw, &r); err != nil {
			return nil
		}
		return fn(&r)
	})
	return err
}

// Scan calls fn for every current line of the results file at path, in
// file order, and returns how many non-blank complete lines the file holds
// (current or not). An unterminated last line is torn: neither passed nor
// counted. A missing file has no lines.
//
// The file is opened once and read as it was when the first pass ended:
// a run compacting it meanwhile (a new file renamed over it) or appending
// to it cannot make the two passes disagree, so a reader of a live run
// folder sees one consistent state.
func Scan(path string, fn func(Line) error) (lines int, err error) {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	defer f.Close()
	return ScanFile(f, path, fn)
}

// ScanFile is Scan over an open results file (name is for messages); fn's
// Line.Off are offsets in f. Only the bytes before the end of the first
// pass are read, so appends made meanwhile are not seen.
func ScanFile(f io.ReaderAt, name string, fn func(Line) error) (lines int, err error) {
	last := map[string]int{} // id → number of its last valid line
	end, err := scanLines(io.NewSectionReader(f, 0, 1<<62), name, func(n int, _ int64, line []byte) error {
		var s slimRecord
		if json.Unmarshal(line, &s) == nil && s.ID != "" {
			last[s.ID] = n
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	_, err = scanLines(io.NewSectionReader(f, 0, end), name, func(n int, off int64, line []byte) error {
		lines++
		var s slimRecord
		if json.Unmarshal(line, &s) != nil || s.ID == "" || last[s.ID] != n {
			return nil
		}
		key := Key{s.Original.SHA256, s.Edited.SHA256, s.ToolchainKey, s.Render, s.Engine, s.ContentMode}
		return fn(Line{N: n, Off: off, Raw: line, ID: s.ID, Failed: s.Error != "", Blocked: s.Blocked, Key: key})
	})
	return lines, err
}

// scanLines calls fn with every newline-terminated line of r (1-based
// numbers, the line's byte offset); an unterminated last line is torn and
// skipped. The line is valid only during the call. It returns the offset
// just past the last complete line.
func scanLines(r io.Reader, name string, fn func(n int, off int64, line []byte) error) (int64, error) {
	br := bufio.NewReaderSize(r, 1<<20)
	n := 0
	var off int64
	for {
		line, err := readLine(br)
		if err == io.EOF {
			return off, nil
		}
		if err != nil {
			return off, fmt.Errorf("results: %s: %w", name, err)
		}
		n++
		at := off
		off += int64(len(line)) + 1
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		if err := fn(n, at, line); err != nil {
			return off, err
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
