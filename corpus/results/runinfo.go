package results

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"time"
)

// RunSchema names run.json.
const RunSchema = "editaudit.corpus-run/v1"

// RunInfo is run.json: what a run folder was asked to do and the sessions
// (invocations, resumes, shards merged in) that worked on it. Throughput is
// computed from the sessions.
type RunInfo struct {
	Schema string `json:"schema"`
	// Source is the manifest, or "ORIGINALS | EDITED" for two folders.
	Source string `json:"source,omitempty"`
	// Shards lists the shards ("K/N") this folder holds; empty: all pairs.
	Shards []string `json:"shards,omitempty"`
	// Selected is the number of pairs the run (all its shards) covers: the
	// pairs selected by the last session, plus the results of pairs
	// outside that selection the folder keeps (OutsideSelection).
	Selected int `json:"selected"`
	// OutsideSelection counts the results kept of pairs the last session
	// did not select (an earlier, larger manifest): a resume never drops
	// a result.
	OutsideSelection int `json:"outside_selection,omitempty"`
	// Unpaired lists files found in only one of two folders.
	Unpaired *Unpaired `json:"unpaired,omitempty"`
	// Sessions are the invocations that worked on this folder.
	Sessions []Session `json:"sessions"`
}

// Unpaired lists the files found on only one side of a directory pairing.
type Unpaired struct {
	OriginalsOnly []string `json:"originals_only,omitempty"`
	EditedOnly    []string `json:"edited_only,omitempty"`
}

// Session is one invocation of `corpus run` on a folder.
type Session struct {
	Shard  string `json:"shard,omitempty"`
	Host   string `json:"host,omitempty"`
	Jobs   int    `json:"jobs"`
	Render string `json:"render"`
	// Toolchain is the renderer this session used, in words: LibreOffice,
	// the rasterizer, the DPI, the fonts, and which converter drove
	// LibreOffice ("warm converter": kept running behind a UNO listener;
	// "batch converter": one run per batch); "" without rendering.
	Toolchain string    `json:"toolchain,omitempty"`
	Started   time.Time `json:"started"`
	// Updated is when the session last wrote its progress (its end when
	// Finished or Cancelled).
	Updated time.Time `json:"updated"`
	// Audited, Failed and Skipped count the pairs of this session: audited
	// (a result line), failed (an error line), skipped (a valid result
	// from an earlier session kept).
	Audited   int  `json:"audited"`
	Failed    int  `json:"failed"`
	Skipped   int  `json:"skipped"`
	Finished  bool `json:"finished"`
	Cancelled bool `json:"cancelled,omitempty"`
}

// ErrRunInfoDamaged is returned by ReadRunInfo for a run.json that is not
// a run record (unparsable, truncated, another schema).
var ErrRunInfoDamaged = errors.New("results: run.json is damaged")

// ReadRunInfo reads run.json of a run folder (nil, nil when absent). A
// file that is not a run record is ErrRunInfoDamaged, never taken for an
// empty history: the shard a folder belongs to is in it.
func ReadRunInfo(runDir string) (*RunInfo, error) {
	b, err := os.ReadFile(filepath.Join(runDir, RunFile))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var ri RunInfo
	if err := json.Unmarshal(b, &ri); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrRunInfoDamaged, err)
	}
	if ri.Schema != RunSchema {
		return nil, fmt.Errorf("%w: schema %q, want %q", ErrRunInfoDamaged, ri.Schema, RunSchema)
	}
	return &ri, nil
}

// Throughput is the pairs a run's sessions processed per minute of wall
// clock: sessions that overlap (shards on several machines) count their
// overlap once.
type Throughput struct {
	// Pairs audited or failed by the sessions (skipped ones not counted).
	Pairs int `json:"pairs"`
	// Seconds of wall clock covered by at least one session.
	Seconds float64 `json:"seconds"`
	// PairsPerMin is Pairs / Seconds × 60 (0 without time).
	PairsPerMin float64 `json:"pairs_per_min"`
}

// ThroughputOf computes the throughput of sessions.
func ThroughputOf(sessions []Session) Throughput {
	type span struct{ a, b time.Time }
	var spans []span
	t := Throughput{}
	for _, s := range sessions {
		t.Pairs += s.Audited + s.Failed
		if s.Updated.After(s.Started) {
			spans = append(spans, span{s.Started, s.Updated})
		}
	}
	sort.Slice(spans, func(i, j int) bool { return spans[i].a.Before(spans[j].a) })
	var total time.Duration
	var cur span
	for i, s := range spans {
		switch {
		case i == 0:
			cur = s
		case !s.a.After(cur.b):
			if s.b.After(cur.b) {
				cur.b = s.b
			}
		default:
			total += cur.b.Sub(cur.a)
			cur = s
		}
	}
	if len(spans) > 0 {
		total += cur.b.Sub(cur.a)
	}
	t.Seconds = RoundRate(total.Seconds())
	if total > 0 {
		t.PairsPerMin = RoundRate(float64(t.Pairs) / total.Minutes())
	}
	return t
}

// RoundRate rounds to 4 decimals, half away from zero: how every rate and
// figure of a summary, a comparison and a progress line is given.
func RoundRate(f float64) float64 {
	if f < 0 {
		return -RoundRate(-f)
	}
	return float64(int64(f*10000+0.5)) / 10000
}
