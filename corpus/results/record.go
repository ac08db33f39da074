package results

import (
	"bytes"
	"encoding/json"

	"github.com/editaudit/editaudit/audit"
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
	// ContentMode is the --content mode ("on" or "off"; "" in a line
	// written before the content diff existed), part of the resume key.
	ContentMode string `json:"content_mode,omitempty"`
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

// Key is what must match for a result to be kept when a run resumes: the
// two inputs' hashes, the toolchain key, the render mode, the engine and
// the content mode.
type Key struct {
	Original, Edited, Toolchain, Render, Engine, Content string
}

// Key returns the record's resume key.
func (r *Record) Key() Key {
	return Key{r.Original.SHA256, r.Edited.SHA256, r.ToolchainKey, r.Render, r.Engine, r.ContentMode}
}

// MarshalLine encodes the record as one results.jsonl line: the audit in
// its stable JSON shape (audit.Result.Normalized: lists as [], never
// null), HTML characters unescaped, newline-terminated. r is not changed.
func (r *Record) MarshalLine() ([]byte, error) {
	c := *r
	c.Result = *r.Result.Normalized()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(&c); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
