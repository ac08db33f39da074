package corpus

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/editaudit/editaudit/audit"
	"github.com/editaudit/editaudit/baseline"
	"github.com/editaudit/editaudit/content"
	"github.com/editaudit/editaudit/corpus/results"
	"github.com/editaudit/editaudit/formats"
	"github.com/editaudit/editaudit/internal/testdoc"
	"github.com/editaudit/editaudit/mutate"
	"github.com/editaudit/editaudit/render"
	"github.com/editaudit/editaudit/synth"
	"github.com/editaudit/editaudit/synth/synthtest"
)

// labelled is a generated corpus: pairs and, per id, the outcome the
// injector promised. A pair without an expectation must fail (missing
// input).
type labelled struct {
	pairs     []Pair
	expect    map[string]mutate.Expectation
	originals map[string]bool // distinct originals that exist
}

// specOriginals synthesizes every examples/specs spec twice (as is, and
// with another title, so that two originals share their content but not
// their bytes) into dir.
func specOriginals(t testing.TB, dir string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	for _, sp := range synthtest.ExampleSpecs(t) {
		for v, suffix := range []string{"", " (v2)"} {
			spec := synthtest.LoadSpec(t, sp)
			spec.Title += suffix
			data, err := synth.Synthesize(spec)
			if err != nil {
				t.Fatalf("%s: %v", sp, err)
			}
			name := fmt.Sprintf("%s-v%d.%s", strings.TrimSuffix(filepath.Base(sp), ".json"), v+1, spec.Format)
			if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
				t.Fatal(err)
			}
			out[name] = data
		}
	}
	return out
}

// add writes data as the edited file of pair id (under dir/edited) and
// records the pair and, when exp is not nil, its promised outcome.
func (l *labelled) add(t testing.TB, dir, id, group, orig string, data []byte, exp *mutate.Expectation) {
	t.Helper()
	ed := filepath.Join(dir, "edited", id+filepath.Ext(orig))
	if err := os.MkdirAll(filepath.Dir(ed), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(ed, data, 0o644); err != nil {
		t.Fatal(err)
	}
	l.pairs = append(l.pairs, Pair{ID: id, Group: group, Original: orig, Edited: ed})
	if exp != nil {
		l.expect[id] = *exp
		l.originals[orig] = true
	}
}

func newLabelled() *labelled {
	return &labelled{expect: map[string]mutate.Expectation{}, originals: map[string]bool{}}
}

// buildLabelled makes the pairs: every mutation kind applicable to each
// generated original, an unchanged copy of each, and one pair whose
// original is missing.
func buildLabelled(t testing.TB, dir string) *labelled {
	t.Helper()
	l := newLabelled()
	origs := specOriginals(t, dir)
	names := make([]string, 0, len(origs))
	for n := range origs {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, name := range names {
		orig := filepath.Join(dir, name)
		format := strings.TrimPrefix(filepath.Ext(name), ".")
		l.add(t, dir, strings.TrimSuffix(name, filepath.Ext(name))+"~same", format, orig, origs[name], &mutate.Expectation{})
		for _, m := range mutate.Mutations() {
			a, err := mutate.Apply(m.Kind, origs[name])
			if errors.Is(err, mutate.ErrNotApplicable) {
				continue
			}
			if err != nil {
				t.Fatalf("%s on %s: %v", m.Kind, name, err)
			}
			l.add(t, dir, strings.TrimSuffix(name, filepath.Ext(name))+"~"+m.Kind, format, orig, a.Data, &a.Expect)
		}
	}
	l.pairs = append(l.pairs, Pair{ID: "missing-original", Group: "docx", Original: filepath.Join(dir, "no-such.docx"), Edited: l.pairs[0].Edited})
	return l
}

// realLabelled makes pairs of real corpus files (under root) with known
// damage injected.
func realLabelled(t testing.TB, dir, root string) *labelled {
	t.Helper()
	l := newLabelled()
	real := []struct {
		file  string
		kinds []string
	}{
		{"docx/docxtemplater_table-in-table-corruption.docx", []string{"docx.nested-tables-wiped", "docx.row-deleted"}},
		{"docx/docx4j_tables.docx", []string{"docx.row-deleted", "xml.illegal-char"}},
		{"docx/oxsdk_complex-table-nested8.docx", []string{"docx.nested-tables-wiped"}},
		{"pptx/oxsdk_typical-deck.pptx", []string{"pptx.slide-deleted", "pptx.runs-dropped", "rels.target-missing"}},
		{"xlsx/openpyxl_charts.xlsx", []string{"xlsx.openpyxl-resave"}},
		{"xlsx/onlyoffice_sample.xlsx", []string{"xlsx.value-changed", "ct.no-type", "xlsx.openpyxl-resave"}},
	}
	for _, r := range real {
		orig := filepath.Join(root, filepath.FromSlash(r.file))
		data, err := os.ReadFile(orig)
		if err != nil {
			t.Fatalf("EDITAUDIT_CORPUS: %v", err)
		}
		for _, k := range r.kinds {
			a, err := mutate.Apply(k, data)
			if err != nil {
				t.Fatalf("%s on %s: %v", k, r.file, err)
			}
			l.add(t, dir, "real~"+strings.TrimSuffix(filepath.Base(r.file), filepath.Ext(r.file))+"~"+k, "real", orig, a.Data, &a.Expect)
		}
	}
	return l
}

// TestRunRealPairs runs real corpus files with injected damage (the real
// corpus is required: a skip outside CI, a failure under CI) and checks
// each pair's promised outcome.
func TestRunRealPairs(t *testing.T) {
	root := testdoc.Corpus(t)
	dir := t.TempDir()
	l := realLabelled(t, dir, root)
	out := filepath.Join(dir, "run")
	st, err := RunPairs(context.Background(), l.pairs, RunOptions{Out: out, Store: openTestStore(t), Render: audit.RenderOff, Jobs: 2, Source: "real"})
	if err != nil {
		t.Fatal(err)
	}
	if st.Audited != len(l.pairs) || st.Failed != 0 {
		t.Fatalf("stats %+v for %d pairs", st, len(l.pairs))
	}
	recs := readAll(t, out)
	for _, p := range l.pairs {
		if rec := recs[p.ID]; rec == nil {
			t.Errorf("%s: no line", p.ID)
		} else {
			checkOutcome(t, rec, l.expect[p.ID], false)
		}
	}
}

// TestRunContentMode: the content diff is in every line and in the
// summary; the content mode is part of the resume key (a run resumed with
// --content off audits every pair again, and keeps them the next time).
func TestRunContentMode(t *testing.T) {
	a, err := os.ReadFile(testdoc.CorpusFile(t, "docx/docx4j_sample-docx.docx"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	l := newLabelled()
	orig := filepath.Join(dir, "orig.docx")
	if err := os.WriteFile(orig, a, 0o644); err != nil {
		t.Fatal(err)
	}
	l.add(t, dir, "same", "g", orig, a, nil)
	l.add(t, dir, "word", "g", orig, testdoc.Edit(t, a, map[string]func(string) string{
		"word/document.xml": testdoc.Replacer(t, "<w:t>Some text.</w:t>", "<w:t>Some words.</w:t>")}), nil)
	out := filepath.Join(dir, "run")
	opts := RunOptions{Out: out, Store: openTestStore(t), Render: audit.RenderOff, Jobs: 1}
	if _, err := RunPairs(context.Background(), l.pairs, opts); err != nil {
		t.Fatal(err)
	}
	recs := readAll(t, out)
	if c := recs["word"].Content; c == nil || c.Status != content.StatusOK || len(c.Changes) != 1 || c.Changes[0].Where != "body paragraph 5" || recs["word"].ContentMode != "on" {
		t.Errorf("word: %+v", recs["word"].Content)
	}
	if c := recs["same"].Content; c == nil || c.Status != content.StatusOK || len(c.Changes) != 0 {
		t.Errorf("same: %+v", recs["same"].Content)
	}
	s, err := results.ReadSummary(out)
	if err != nil {
		t.Fatal(err)
	}
	if c := s.Overall.Content; c.Compared != 2 || c.ChangedPairs != 1 || c.ChangedRate != 0.5 || c.Changed != 1 || len(s.Groups) != 1 || s.Groups[0].Content.Compared != 2 {
		t.Errorf("summary content %+v", c)
	}
	opts.Content = audit.ContentOff
	st, err := RunPairs(context.Background(), l.pairs, opts)
	if err != nil || st.Skipped != 0 || st.Audited != 2 {
		t.Fatalf("resumed with content off: %+v %v", st, err)
	}
	recs = readAll(t, out)
	if c := recs["word"].Content; c == nil || c.Status != content.StatusOff || recs["word"].ContentMode != "off" {
		t.Errorf("word with content off: %+v", c)
	}
	if st, err := RunPairs(context.Background(), l.pairs, opts); err != nil || st.Skipped != 2 {
		t.Errorf("resumed again: %+v %v", st, err)
	}
	opts.Content = "yes"
	if _, err := RunPairs(context.Background(), l.pairs, opts); !errors.Is(err, audit.ErrContentMode) {
		t.Errorf("content yes: %v", err)
	}
}

// checkOutcome asserts the injector's promise on one result line.
func checkOutcome(t *testing.T, rec *results.Record, exp mutate.Expectation, rendered bool) {
	t.Helper()
	if rec.Failed() {
		t.Errorf("%s: failed: %s", rec.ID, rec.Error)
		return
	}
	if rec.Blocked != exp.Blocked {
		t.Errorf("%s: blocked=%v, want %v (new findings %v)", rec.ID, rec.Blocked, exp.Blocked, codesOf(rec.NewFindings))
	}
	if exp.Code != "" {
		found := false
		for _, f := range rec.NewFindings {
			found = found || f.Code == exp.Code && f.Grade == exp.Grade
		}
		if !found {
			t.Errorf("%s: no new %s %s among %v", rec.ID, exp.Grade, exp.Code, codesOf(rec.NewFindings))
		}
	}
	if !exp.Blocked && formats.HasFatal(rec.NewFindings) {
		t.Errorf("%s: a new fatal finding on an edit that must pass: %v", rec.ID, codesOf(rec.NewFindings))
	}
	// The content diff ran; an edit promised to change neither pages nor
	// structure (an unchanged copy, a repacked zip, a library resave)
	// changes no content either.
	if c := rec.Content; c == nil || (c.Status != content.StatusOK && c.Status != content.StatusPartial) {
		t.Errorf("%s: content %+v", rec.ID, c)
	} else if !exp.Blocked && !exp.PagesChange && len(exp.Shrinks) == 0 && len(c.Changes)+c.Truncated > 0 {
		t.Errorf("%s: %d content changes on an edit that changes nothing, first %+v", rec.ID, len(c.Changes)+c.Truncated, c.Changes[0])
	}
	var shrunk []string
	for _, s := range rec.Structure.Shrunk {
		shrunk = append(shrunk, s.Metric)
	}
	sort.Strings(shrunk)
	want := append([]string(nil), exp.Shrinks...)
	sort.Strings(want)
	if exp.Blocked {
		// A part that no longer parses counts as empty, so a blocked file
		// may show more loss; the promised metrics must be there.
		for _, m := range want {
			if !containsStr(shrunk, m) {
				t.Errorf("%s: %s did not shrink (shrunk: %v)", rec.ID, m, shrunk)
			}
		}
	} else if strings.Join(shrunk, ",") != strings.Join(want, ",") {
		t.Errorf("%s: shrunk %v, want exactly %v", rec.ID, shrunk, want)
	}
	if !rendered {
		if rec.Pages.Status != audit.PagesOff {
			t.Errorf("%s: pages.status %q, want off", rec.ID, rec.Pages.Status)
		}
		return
	}
	if exp.Blocked {
		return // the renderer shows what it salvages; not promised
	}
	if rec.Pages.Status != audit.PagesOK {
		t.Errorf("%s: pages.status %q (%s)", rec.ID, rec.Pages.Status, rec.Pages.Message)
		return
	}
	changed := len(rec.Pages.Changed)+len(rec.Pages.Inserted)+len(rec.Pages.Deleted)+len(rec.Pages.Reflowed) > 0
	if changed != exp.PagesChange {
		t.Errorf("%s: pages changed=%v, want %v (%+v)", rec.ID, changed, exp.PagesChange, rec.Pages)
	}
}

func codesOf(fs []formats.Finding) []string {
	var out []string
	for _, f := range fs {
		out = append(out, string(f.Grade)+" "+f.Code)
	}
	return out
}

func containsStr(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

// readAll reads every record of a run folder by id, failing on a torn or
// duplicated line (results.jsonl must be clean after a run).
func readAll(t *testing.T, runDir string) map[string]*results.Record {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(runDir, results.ResultsFile))
	if err != nil {
		t.Fatal(err)
	}
	if len(b) > 0 && b[len(b)-1] != '\n' {
		t.Fatalf("%s ends with a torn line", results.ResultsFile)
	}
	out := map[string]*results.Record{}
	for i, line := range bytes.Split(bytes.TrimSuffix(b, []byte("\n")), []byte("\n")) {
		if len(line) == 0 {
			continue
		}
		var r results.Record
		if err := json.Unmarshal(line, &r); err != nil {
			t.Fatalf("line %d: %v", i+1, err)
		}
		if _, dup := out[r.ID]; dup {
			t.Fatalf("id %q twice in %s", r.ID, results.ResultsFile)
		}
		out[r.ID] = &r
	}
	return out
}

func openTestStore(t *testing.T) *baseline.Store {
	t.Helper()
	s, err := baseline.OpenStore(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestRunLabelledCorpus runs the generated pairs without rendering and checks each pair's known outcome, the
// outputs, the shared baseline, resuming, and three shards merged.
func TestRunLabelledCorpus(t *testing.T) {
	dir := t.TempDir()
	l := buildLabelled(t, dir)
	if len(l.pairs) < 40 {
		t.Fatalf("only %d pairs", len(l.pairs))
	}
	ctx := context.Background()
	store := openTestStore(t)
	out := filepath.Join(dir, "run")
	opts := RunOptions{Out: out, Store: store, Render: audit.RenderOff, Jobs: 3, Source: "test"}
	st, err := RunPairs(ctx, l.pairs, opts)
	if err != nil {
		t.Fatal(err)
	}
	if st.Selected != len(l.pairs) || st.Audited != len(l.pairs)-1 || st.Failed != 1 || st.Skipped != 0 || st.Cancelled {
		t.Fatalf("stats %+v for %d pairs", st, len(l.pairs))
	}
	recs := readAll(t, out)
	if len(recs) != len(l.pairs) {
		t.Fatalf("%d lines for %d pairs", len(recs), len(l.pairs))
	}
	made := 0
	blocked := 0
	for _, p := range l.pairs {
		rec := recs[p.ID]
		if rec == nil {
			t.Errorf("%s: no line", p.ID)
			continue
		}
		if rec.Group != p.Group || rec.Schema != audit.Schema || rec.ToolchainKey != "norender" || rec.Render != audit.RenderOff || rec.Engine == "" {
			t.Errorf("%s: id fields %q %q %q %q %q", p.ID, rec.Group, rec.Schema, rec.ToolchainKey, rec.Render, rec.Engine)
		}
		exp, ok := l.expect[p.ID]
		if !ok {
			if !rec.Failed() || !strings.Contains(rec.Error, "no-such.docx") {
				t.Errorf("%s: want a failure naming the missing file, got %q", p.ID, rec.Error)
			}
			continue
		}
		checkOutcome(t, rec, exp, false)
		if exp.Blocked {
			blocked++
		}
		if !rec.Timings.BaselineHit {
			made++
		}
		if rec.Report != PairDir(p.ID)+"/report.html" {
			t.Errorf("%s: report %q", p.ID, rec.Report)
		} else if b, err := os.ReadFile(filepath.Join(out, filepath.FromSlash(rec.Report))); err != nil || !bytes.Contains(b, []byte("<!DOCTYPE html>")) {
			t.Errorf("%s: report: %v", p.ID, err)
		}
	}
	// Every original was inspected once, however many pairs share it.
	if made != len(l.originals) {
		t.Errorf("%d baselines made for %d distinct originals", made, len(l.originals))
	}

	s, err := results.ReadSummary(out)
	if err != nil {
		t.Fatal(err)
	}
	if s.Overall.Pairs != len(l.pairs) || s.Overall.Failed != 1 || s.Overall.Blocked != blocked || s.Pending != 0 || s.Selected != len(l.pairs) {
		t.Errorf("summary overall %+v (selected %d pending %d), want %d pairs, 1 failed, %d blocked", s.Overall, s.Selected, s.Pending, len(l.pairs), blocked)
	}
	if want := results.RoundRate(float64(blocked) / float64(len(l.pairs)-1)); s.Overall.BlockedRate != want {
		t.Errorf("blocked rate %v, want %v", s.Overall.BlockedRate, want)
	}
	if len(s.Groups) < 4 {
		t.Errorf("groups %d", len(s.Groups))
	}
	idx, err := os.ReadFile(filepath.Join(out, results.IndexFile))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range l.pairs[:5] {
		if !bytes.Contains(idx, []byte(`href="`+PairDir(p.ID)+`/report.html"`)) {
			t.Errorf("index.html lacks a link to %s", p.ID)
		}
	}
	if bytes.Contains(idx, []byte("http://")) || bytes.Contains(idx, []byte("https://")) || bytes.Contains(idx, []byte(" src=")) {
		t.Error("index.html loads something from outside")
	}

	t.Run("resume skips what is done", func(t *testing.T) {
		st, err := RunPairs(ctx, l.pairs, opts)
		if err != nil {
			t.Fatal(err)
		}
		if st.Skipped != len(l.pairs)-1 || st.Audited != 0 || st.Failed != 1 {
			t.Errorf("stats %+v", st)
		}
		if n := len(readAll(t, out)); n != len(l.pairs) {
			t.Errorf("%d lines after resume", n)
		}
	})

	t.Run("a changed input is audited again and replaces its line", func(t *testing.T) {
		p := l.pairs[1]
		data, err := os.ReadFile(p.Original)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p.Edited, data, 0o644); err != nil {
			t.Fatal(err)
		}
		defer func() {
			// Restore the labelled edit for the subtests that follow.
			exp := l.expect[p.ID]
			kind := strings.SplitN(p.ID, "~", 2)[1]
			a, err := mutate.Apply(kind, data)
			if err != nil {
				t.Fatal(err)
			}
			_ = os.WriteFile(p.Edited, a.Data, 0o644)
			if !reflect.DeepEqual(a.Expect, exp) {
				t.Fatalf("expectation changed")
			}
		}()
		st, err := RunPairs(ctx, l.pairs, opts)
		if err != nil {
			t.Fatal(err)
		}
		if st.Audited != 1 || st.Skipped != len(l.pairs)-2 {
			t.Errorf("stats %+v", st)
		}
		recs := readAll(t, out)
		if r := recs[p.ID]; r == nil || r.Blocked || len(r.NewFindings) != 0 || len(r.Structure.Shrunk) != 0 {
			t.Errorf("%s after the edit was undone: %+v", p.ID, r)
		}
	})

	t.Run("a torn last line is dropped", func(t *testing.T) {
		f, err := os.OpenFile(filepath.Join(out, results.ResultsFile), os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.WriteString(`{"id":"` + l.pairs[2].ID + `","schema":"editaudit.au`); err != nil {
			t.Fatal(err)
		}
		f.Close()
		// Readers ignore it already.
		n := 0
		if err := results.ReadResults(out, func(*results.Record) error { n++; return nil }); err != nil || n != len(l.pairs) {
			t.Errorf("results.ReadResults: %d records, %v", n, err)
		}
		st, err := RunPairs(ctx, l.pairs, opts)
		if err != nil {
			t.Fatal(err)
		}
		if st.Skipped < len(l.pairs)-2 {
			t.Errorf("stats %+v", st)
		}
		readAll(t, out) // fails on a torn line or a duplicate
	})

	t.Run("shards 1/3 2/3 3/3 merged equal the whole run", func(t *testing.T) {
		// The whole run again, cleanly, as the reference.
		whole := filepath.Join(dir, "whole")
		if _, err := RunPairs(ctx, l.pairs, RunOptions{Out: whole, Store: store, Render: audit.RenderOff, Jobs: 2, Source: "test"}); err != nil {
			t.Fatal(err)
		}
		var shardDirs []string
		total := 0
		for k := 1; k <= 3; k++ {
			d := filepath.Join(dir, fmt.Sprintf("shard-%d", k))
			st, err := RunPairs(ctx, l.pairs, RunOptions{Out: d, Store: store, Render: audit.RenderOff, Jobs: 2, Shard: Shard{K: k, N: 3}, Source: "test"})
			if err != nil {
				t.Fatal(err)
			}
			if st.Selected == 0 || st.Selected == len(l.pairs) {
				t.Errorf("shard %d/3 selected %d of %d", k, st.Selected, len(l.pairs))
			}
			total += st.Selected
			shardDirs = append(shardDirs, d)
		}
		if total != len(l.pairs) {
			t.Errorf("shards hold %d pairs, want %d", total, len(l.pairs))
		}
		merged := filepath.Join(dir, "merged")
		ms, err := Merge(merged, shardDirs, MergeOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if ms.Pairs != len(l.pairs) || ms.Duplicates != 0 {
			t.Errorf("merge %+v", ms)
		}
		a, b := readAll(t, whole), readAll(t, merged)
		if len(a) != len(b) {
			t.Fatalf("%d results merged, %d whole", len(b), len(a))
		}
		for id, ra := range a {
			rb := b[id]
			if rb == nil {
				t.Errorf("%s missing from the merge", id)
				continue
			}
			ra.Timings, rb.Timings = results.Timings{}, results.Timings{}
			ja, _ := json.Marshal(ra)
			jb, _ := json.Marshal(rb)
			if !bytes.Equal(ja, jb) {
				t.Errorf("%s differs:\n whole  %s\n merged %s", id, ja, jb)
			}
			if _, err := os.Stat(filepath.Join(merged, filepath.FromSlash(rb.Report))); rb.Report != "" && err != nil {
				t.Errorf("%s: merged report: %v", id, err)
			}
		}
		sa, err := results.ReadSummary(whole)
		if err != nil {
			t.Fatal(err)
		}
		sb, err := results.ReadSummary(merged)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range []*results.Summary{sa, sb} {
			s.Throughput = results.Throughput{}
			s.Overall.Timing = results.Dist{}
			for i := range s.Groups {
				s.Groups[i].Timing = results.Dist{}
			}
		}
		if !reflect.DeepEqual(sa, sb) {
			ja, _ := json.MarshalIndent(sa, "", " ")
			jb, _ := json.MarshalIndent(sb, "", " ")
			t.Errorf("summaries differ:\nwhole  %s\nmerged %s", ja, jb)
		}
		if ri, err := results.ReadRunInfo(merged); err != nil || len(ri.Sessions) != 3 || ri.Selected != len(l.pairs) {
			t.Errorf("merged run.json %+v %v", ri, err)
		}
		// A folder belongs to its shard, and to one run at a time.
		if _, err := RunPairs(ctx, l.pairs, RunOptions{Out: shardDirs[0], Store: store, Render: audit.RenderOff, Shard: Shard{K: 2, N: 3}}); !errors.Is(err, ErrShardMismatch) {
			t.Errorf("shard 2/3 into the folder of 1/3: %v", err)
		}
		if _, err := RunPairs(ctx, l.pairs, RunOptions{Out: shardDirs[0], Store: store, Render: audit.RenderOff}); !errors.Is(err, ErrShardMismatch) {
			t.Errorf("all pairs into the folder of 1/3: %v", err)
		}
		unlock, err := lockRun(shardDirs[1])
		if err != nil {
			t.Fatal(err)
		}
		if _, err := RunPairs(ctx, l.pairs, RunOptions{Out: shardDirs[1], Store: store, Render: audit.RenderOff, Shard: Shard{K: 2, N: 3}}); !errors.Is(err, ErrRunBusy) && runtime.GOOS == "linux" {
			t.Errorf("a locked folder: %v", err)
		}
		unlock()
		if n := len(readAll(t, shardDirs[1])); n == 0 {
			t.Error("the refused runs emptied the shard")
		}
		// Merging into a folder that holds results is refused; so is a
		// conflicting result for one id.
		if _, err := Merge(merged, shardDirs, MergeOptions{}); err == nil {
			t.Error("merge into a run folder: no error")
		}
		if _, err := Merge(filepath.Join(dir, "m2"), []string{whole, out}, MergeOptions{}); !errors.Is(err, ErrMergeConflict) && !errors.Is(err, ErrMergeIncomplete) {
			t.Errorf("merge of two whole runs: %v", err)
		}
	})
}

// TestRunCancelled: a cancelled run writes only whole lines, marks its
// session cancelled, and a resume finishes without duplicates.
func TestRunCancelled(t *testing.T) {
	dir := t.TempDir()
	l := buildLabelled(t, dir)
	store := openTestStore(t)
	out := filepath.Join(dir, "run")
	ctx, cancel := context.WithCancel(context.Background())
	prog := NewProgress(len(l.pairs))
	go func() {
		for e := prog.Snapshot(); e.Done < 5 || e.Blocked == 0; e = prog.Snapshot() {
			time.Sleep(time.Millisecond)
		}
		cancel()
	}()
	st, err := RunPairs(ctx, l.pairs, RunOptions{Out: out, Store: store, Render: audit.RenderOff, Jobs: 1, Progress: prog})
	if err != nil {
		t.Fatal(err)
	}
	if !st.Cancelled || st.Audited+st.Failed >= len(l.pairs) {
		t.Fatalf("stats %+v: not cancelled mid-run", st)
	}
	done := readAll(t, out)
	ri, err := results.ReadRunInfo(out)
	if err != nil || len(ri.Sessions) != 1 || !ri.Sessions[0].Cancelled || ri.Sessions[0].Finished {
		t.Errorf("run.json after cancel: %+v %v", ri, err)
	}
	prog = NewProgress(len(l.pairs))
	st, err = RunPairs(context.Background(), l.pairs, RunOptions{Out: out, Store: store, Render: audit.RenderOff, Jobs: 2, Progress: prog})
	if err != nil {
		t.Fatal(err)
	}
	if st.Skipped != len(done)-1 && st.Skipped != len(done) { // the failed pair is retried
		t.Errorf("resume skipped %d, %d were done", st.Skipped, len(done))
	}
	all := readAll(t, out)
	if n := len(all); n != len(l.pairs) {
		t.Errorf("%d lines after resume, want %d", n, len(l.pairs))
	}
	// The resumed run's progress counts the kept pairs' verdicts too.
	blocked, keptBlocked := 0, 0
	for id, r := range all {
		if r.Blocked {
			blocked++
			if done[id] != nil && done[id].Blocked {
				keptBlocked++
			}
		}
	}
	if e := prog.Snapshot(); e.Blocked != int64(blocked) || keptBlocked == 0 {
		t.Errorf("resumed progress: %d blocked, the run has %d (%d of them kept from the first session)", e.Blocked, blocked, keptBlocked)
	}
}

// TestRunRendered renders a handful of pairs through one shared pool and
// checks the pages outcome, the images on disk and that nothing is left
// behind.
func TestRunRendered(t *testing.T) {
	testdoc.Tool(t, "soffice")
	if testing.Short() {
		t.Skip("renders documents")
	}
	dir := t.TempDir()
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	origs := specOriginals(t, dir)
	want := map[string][]string{
		"contract-v1.docx": {"docx.word-replaced", "docx.page-break-top", "zip.repacked"},
		"deck-v1.pptx":     {"pptx.slide-deleted"},
	}
	var pairs []Pair
	expect := map[string]mutate.Expectation{}
	for name, kinds := range want {
		for _, k := range kinds {
			a, err := mutate.Apply(k, origs[name])
			if err != nil {
				t.Fatal(err)
			}
			id := strings.TrimSuffix(name, filepath.Ext(name)) + "~" + k
			ed := filepath.Join(dir, id+filepath.Ext(name))
			if err := os.WriteFile(ed, a.Data, 0o644); err != nil {
				t.Fatal(err)
			}
			pairs = append(pairs, Pair{ID: id, Original: filepath.Join(dir, name), Edited: ed})
			expect[id] = a.Expect
		}
	}
	ctx := context.Background()
	t0 := time.Now()
	r, closeR, err := NewRenderer(ctx, audit.RenderOn)
	if err != nil {
		t.Fatal(err)
	}
	t1 := time.Now()
	out := filepath.Join(dir, "run")
	st, err := RunPairs(ctx, pairs, RunOptions{Out: out, Store: openTestStore(t), Render: audit.RenderOn, Renderer: r})
	t.Logf("pool start %v, run %v, pool %+v", t1.Sub(t0), time.Since(t1), r.Converter.(*render.Pool).Stats())
	closeR()
	if err != nil {
		t.Fatal(err)
	}
	if st.Audited != len(pairs) {
		t.Fatalf("stats %+v", st)
	}
	raw, err := os.ReadFile(filepath.Join(out, results.ResultsFile))
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(raw, []byte("/9j/")) || bytes.Contains(raw, []byte("base64")) {
		t.Error("results.jsonl holds image bytes")
	}
	recs := readAll(t, out)
	shown := 0
	for id, exp := range expect {
		rec := recs[id]
		if rec == nil {
			t.Errorf("%s: no line", id)
			continue
		}
		checkOutcome(t, rec, exp, true)
		if rec.ToolchainKey == "norender" || rec.Pages.Toolchain == "" {
			t.Errorf("%s: toolchain %q / %q", id, rec.ToolchainKey, rec.Pages.Toolchain)
		}
		for _, s := range rec.Pages.Shown {
			shown++
			if !strings.HasPrefix(s.Image, PairDir(id)+"/pages/") {
				t.Errorf("%s: image %q not under its pair folder", id, s.Image)
			}
			if b, err := os.ReadFile(filepath.Join(out, filepath.FromSlash(s.Image))); err != nil || len(b) < 100 || b[0] != 0xFF || b[1] != 0xD8 {
				t.Errorf("%s: image %s: %v", id, s.Image, err)
			}
		}
	}
	if shown == 0 {
		t.Error("no page shown in any pair")
	}
	s, err := results.ReadSummary(out)
	if err != nil {
		t.Fatal(err)
	}
	if s.Overall.Pages.Rendered != len(pairs) || s.Overall.Pages.ChangedPairs != len(pairs)-1 || s.Overall.Pages.Changed.N != len(pairs) {
		t.Errorf("pages metrics %+v", s.Overall.Pages)
	}
	// The pool's working folder is gone.
	if left := leftBehind(t, tmp); len(left) > 0 {
		t.Errorf("left behind: %v", left)
	}

	// Cancelled while LibreOffice renders (a cold store): the run returns,
	// its results file is clean, and closing the pool leaves no process
	// and no temp folder.
	r, closeR, err = NewRenderer(ctx, audit.RenderOn)
	if err != nil {
		t.Fatal(err)
	}
	cctx, cancel := context.WithCancel(ctx)
	time.AfterFunc(1500*time.Millisecond, cancel)
	out2 := filepath.Join(dir, "cancelled")
	st, err = RunPairs(cctx, pairs, RunOptions{Out: out2, Store: openTestStore(t), Render: audit.RenderOn, Renderer: r})
	closeR()
	cancel()
	if err != nil {
		t.Fatal(err)
	}
	if !st.Cancelled {
		t.Errorf("not cancelled: %+v", st)
	}
	readAll(t, out2)
	if left := leftBehind(t, tmp); len(left) > 0 {
		t.Errorf("left behind after cancelling: %v", left)
	}
	if out, _ := exec.Command("pgrep", "-f", tmp).Output(); len(bytes.TrimSpace(out)) > 0 {
		t.Errorf("processes still running on %s: %s", tmp, out)
	}
}

// leftBehind lists what is left in the temp folder, except LibreOffice's
// own lu*.tmp files: soffice writes them to $TMPDIR and does not remove
// them when it is killed (the pool does not yet give soffice a TMPDIR of
// its own); they are logged.
func leftBehind(t *testing.T, tmp string) []string {
	t.Helper()
	all, _ := filepath.Glob(filepath.Join(tmp, "*"))
	var out, lo []string
	for _, p := range all {
		if b := filepath.Base(p); strings.HasPrefix(b, "lu") && strings.HasSuffix(b, ".tmp") {
			lo = append(lo, b)
			continue
		}
		out = append(out, p)
	}
	if len(lo) > 0 {
		t.Logf("LibreOffice left %d temp files in $TMPDIR: %v", len(lo), lo)
	}
	return out
}
