package corpus

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/editaudit/editaudit/audit"
	"github.com/editaudit/editaudit/corpus/results"
	"github.com/editaudit/editaudit/formats"
	"github.com/editaudit/editaudit/internal/fsutil"
	"github.com/editaudit/editaudit/internal/testdoc"
)

// tinyDocx is a minimal valid Word document holding text (raw: a control
// character in it is an XML-illegal character, a new fatal finding).
func tinyDocx(text string) []byte {
	return testdoc.ZipMap(map[string]string{
		"[Content_Types].xml": `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>`,
		"_rels/.rels":         `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`,
		"word/document.xml":   `<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>` + text + `</w:t></w:r></w:p></w:body></w:document>`,
	})
}

// tinyPairs writes n pairs (one original, n edits, every fifth blocked)
// into dir.
func tinyPairs(t *testing.T, dir string, n int) []Pair {
	t.Helper()
	orig := filepath.Join(dir, "orig.docx")
	if err := os.WriteFile(orig, tinyDocx("Hello"), 0o644); err != nil {
		t.Fatal(err)
	}
	var pairs []Pair
	for i := 1; i <= n; i++ {
		text := fmt.Sprintf("Hello %d", i)
		if i%5 == 0 {
			text += "\x01"
		}
		e := filepath.Join(dir, fmt.Sprintf("e%d.docx", i))
		if err := os.WriteFile(e, tinyDocx(text), 0o644); err != nil {
			t.Fatal(err)
		}
		pairs = append(pairs, Pair{ID: fmt.Sprintf("p%d", i), Original: orig, Edited: e})
	}
	return pairs
}

// hashTree maps every regular file under dir to its sha256 (and catches
// one truncated to 0 bytes).
func hashTree(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() || d.Name() == "run.lock" {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(b)
		out[p] = hex.EncodeToString(sum[:])
		if len(b) == 0 {
			out[p] = "EMPTY"
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestResumeKeepsResultsOutsideTheSelection: a subset manifest resumed on
// the folder of a full run keeps every result (it used to remove all but
// the subset's: 990 of 1,000), counts them in run.json and the stats, and
// the summary still covers every pair with nothing pending.
func TestResumeKeepsResultsOutsideTheSelection(t *testing.T) {
	dir := t.TempDir()
	pairs := tinyPairs(t, dir, 40)
	out := filepath.Join(dir, "run")
	ctx := context.Background()
	store := openTestStore(t)
	if _, err := RunPairs(ctx, pairs, RunOptions{Out: out, Store: store, Render: audit.RenderOff, Jobs: 2}); err != nil {
		t.Fatal(err)
	}
	before := readAll(t, out)
	st, err := RunPairs(ctx, pairs[:4], RunOptions{Out: out, Store: store, Render: audit.RenderOff, Jobs: 2})
	if err != nil {
		t.Fatal(err)
	}
	if st.Outside != 36 || st.Skipped != 4 || st.Audited != 0 {
		t.Errorf("stats %+v, want 36 outside, 4 skipped", st)
	}
	after := readAll(t, out)
	if len(after) != len(before) {
		t.Fatalf("%d results after resuming a subset, %d before", len(after), len(before))
	}
	ri, err := results.ReadRunInfo(out)
	if err != nil || ri.OutsideSelection != 36 || ri.Selected != 40 {
		t.Errorf("run.json %+v %v", ri, err)
	}
	s, err := results.Summarize(out, nil)
	if err != nil || s.Overall.Pairs != 40 || s.Pending != 0 {
		t.Errorf("summary: %d pairs, %d pending, %v", s.Overall.Pairs, s.Pending, err)
	}
}

// TestResumeDetectsDamagedRunInfo: a damaged run.json of a shard folder is
// reported (ErrRunInfoDamaged) and nothing changes; it used to be taken for
// a new folder, the shard guard was bypassed and the other shard's results
// dropped. With run.json gone, a wrong shard still drops nothing.
func TestResumeDetectsDamagedRunInfo(t *testing.T) {
	dir := t.TempDir()
	pairs := tinyPairs(t, dir, 30)
	out := filepath.Join(dir, "shard-1")
	ctx := context.Background()
	store := openTestStore(t)
	one := Shard{K: 1, N: 3}
	if _, err := RunPairs(ctx, pairs, RunOptions{Out: out, Store: store, Render: audit.RenderOff, Shard: one}); err != nil {
		t.Fatal(err)
	}
	before := hashTree(t, out)
	n := len(readAll(t, out))
	runJSON := filepath.Join(out, results.RunFile)
	b, _ := os.ReadFile(runJSON)
	for name, damaged := range map[string][]byte{"truncated": b[:len(b)/2], "empty": nil, "other schema": []byte(`{"schema":"x"}`)} {
		if err := os.WriteFile(runJSON, damaged, 0o644); err != nil {
			t.Fatal(err)
		}
		before[runJSON] = hashTree(t, out)[runJSON]
		_, err := RunPairs(ctx, pairs, RunOptions{Out: out, Store: store, Render: audit.RenderOff, Shard: Shard{K: 2, N: 3}})
		if !errors.Is(err, ErrRunInfoDamaged) || !strings.Contains(err.Error(), "run.json") {
			t.Errorf("%s run.json: %v, want ErrRunInfoDamaged", name, err)
		}
		if after := hashTree(t, out); fmt.Sprint(after) != fmt.Sprint(before) {
			t.Errorf("%s run.json: the folder changed", name)
		}
	}
	os.Remove(runJSON)
	if _, err := RunPairs(ctx, pairs, RunOptions{Out: out, Store: store, Render: audit.RenderOff, Shard: Shard{K: 2, N: 3}}); err != nil {
		t.Fatal(err)
	}
	got := readAll(t, out)
	kept := 0
	for id := range got {
		if one.Has(id) {
			kept++
		}
	}
	if kept != n {
		t.Errorf("shard 1/3 had %d results; %d left after shard 2/3 ran in its folder without run.json", n, kept)
	}
}

// TestNonUTF8NamesKept: a file name that is not UTF-8 (paired from two
// folders) gets an escaped id that survives JSON byte for byte: its line
// is written, kept, found by a resume (not audited again), and its paths
// are printed escaped. It used to be reported audited and never written.
func TestNonUTF8NamesKept(t *testing.T) {
	dir := t.TempDir()
	od, ed := filepath.Join(dir, "o"), filepath.Join(dir, "e")
	for _, d := range []string{od, ed} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	names := []string{"caf\xe9.docx", "caf\xe8.docx", "plain.docx"}
	for _, n := range names {
		if err := os.WriteFile(filepath.Join(od, n), tinyDocx("Hello"), 0o644); err != nil {
			t.Skipf("this file system refuses non-UTF-8 names: %v", err)
		}
		if err := os.WriteFile(filepath.Join(ed, n), tinyDocx("Hello\x01"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	pairs, _, err := PairDirs(od, ed)
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "run")
	ctx := context.Background()
	store := openTestStore(t)
	st, err := RunPairs(ctx, pairs, RunOptions{Out: out, Store: store, Render: audit.RenderOff})
	if err != nil || st.Audited != 3 {
		t.Fatalf("%+v %v", st, err)
	}
	got := readAll(t, out)
	for _, n := range names {
		rec := got[formats.EscapeName(n)]
		if rec == nil {
			t.Errorf("%q: no line (ids %v)", n, keys(got))
			continue
		}
		if want := formats.EscapeName(filepath.Join(ed, n)); rec.Edited.Path != want {
			t.Errorf("%q: edited path %q, want %q", n, rec.Edited.Path, want)
		}
	}
	st, err = RunPairs(ctx, pairs, RunOptions{Out: out, Store: store, Render: audit.RenderOff})
	if err != nil || st.Skipped != 3 || st.Audited != 0 {
		t.Errorf("resume: %+v %v, want 3 skipped", st, err)
	}
}

func keys(m map[string]*results.Record) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// shardRuns runs pairs as n shards, returning the folders.
func shardRuns(t *testing.T, dir string, pairs []Pair, n int) []string {
	t.Helper()
	store := openTestStore(t)
	var dirs []string
	for k := 1; k <= n; k++ {
		d := filepath.Join(dir, fmt.Sprintf("shard-%d", k))
		if _, err := RunPairs(context.Background(), pairs, RunOptions{Out: d, Store: store, Render: audit.RenderOff, Shard: Shard{K: k, N: n}, Source: "pairs.csv"}); err != nil {
			t.Fatal(err)
		}
		dirs = append(dirs, d)
	}
	return dirs
}

// TestMergeNeverWritesThroughLinks: a merge interrupted after it linked
// the pairs' files (simulated: every output file but the pairs removed,
// then the merge run again) leaves every file of the input shards as it
// was. It used to reopen the hard-linked report.html with create/truncate
// and leave it 0 bytes inside the input shard. Merging again gives the
// same output as an uninterrupted merge.
func TestMergeNeverWritesThroughLinks(t *testing.T) {
	dir := t.TempDir()
	shards := shardRuns(t, dir, tinyPairs(t, dir, 12), 2)
	before := map[string]string{}
	for _, d := range shards {
		for p, h := range hashTree(t, d) {
			before[p] = h
		}
	}
	ref := filepath.Join(dir, "ref")
	if _, err := Merge(ref, shards, MergeOptions{}); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "merged")
	if _, err := Merge(out, shards, MergeOptions{}); err != nil {
		t.Fatal(err)
	}
	// An interruption before the results were written: pairs linked, the
	// rest missing (what the old Merge left; the new one leaves its marker
	// too, but must cope without it).
	for _, f := range []string{results.ResultsFile, results.SummaryFile, results.IndexFile, results.RunFile} {
		os.Remove(filepath.Join(out, f))
	}
	if _, err := Merge(out, shards, MergeOptions{}); err != nil {
		t.Fatalf("merge again after an interruption: %v", err)
	}
	for _, d := range shards {
		for p, h := range hashTree(t, d) {
			if before[p] != h {
				t.Errorf("input %s changed (%s → %s)", p, before[p], h)
			}
		}
	}
	a, _ := os.ReadFile(filepath.Join(ref, results.ResultsFile))
	b, _ := os.ReadFile(filepath.Join(out, results.ResultsFile))
	if !bytes.Equal(a, b) || len(a) == 0 {
		t.Error("the merge run again differs from an uninterrupted one")
	}
	for p := range hashTree(t, filepath.Join(out, results.PairsDir)) {
		if strings.Contains(filepath.Base(p), ".merge-") {
			t.Errorf("temp file %s left", p)
		}
	}
	if _, err := os.Stat(filepath.Join(out, mergeMarker)); err == nil {
		t.Error("the merge marker is left after a whole merge")
	}
	// A finished merge is not merged into again.
	if _, err := Merge(out, shards, MergeOptions{}); err == nil {
		t.Error("merge into a finished merge: no error")
	}
}

// TestMergeRefusesIncompleteSets: 2 of 3 shards, a shard given twice, an
// unfinished shard and a whole run beside shards are refused (nothing
// written) with what is missing named; --allow-partial merges them and
// says what they lack. 2 of 3 shards used to merge with exit 0 and no
// warning.
func TestMergeRefusesIncompleteSets(t *testing.T) {
	dir := t.TempDir()
	pairs := tinyPairs(t, dir, 15)
	shards := shardRuns(t, dir, pairs, 3)
	whole := filepath.Join(dir, "whole")
	if _, err := RunPairs(context.Background(), pairs, RunOptions{Out: whole, Store: openTestStore(t), Render: audit.RenderOff, Source: "pairs.csv"}); err != nil {
		t.Fatal(err)
	}
	// An unfinished copy of shard 3: its last line gone, as if cancelled.
	unfinished := filepath.Join(dir, "shard-3-unfinished")
	if err := os.CopyFS(unfinished, os.DirFS(shards[2])); err != nil {
		t.Fatal(err)
	}
	rp := filepath.Join(unfinished, results.ResultsFile)
	b, _ := os.ReadFile(rp)
	lines := bytes.SplitAfter(b, []byte("\n"))
	if err := os.WriteFile(rp, bytes.Join(lines[:len(lines)-2], nil), 0o644); err != nil {
		t.Fatal(err)
	}
	for i, tc := range []struct {
		name string
		dirs []string
		want string
	}{
		{"2 of 3", shards[:2], "shard 3/3 is missing"},
		{"1 of 3", shards[:1], "shards 2/3, 3/3 are missing"},
		{"a shard twice", []string{shards[0], shards[1], shards[2], shards[0]}, "shard 1/3 is in both"},
		{"unfinished", []string{shards[0], shards[1], unfinished}, "pairs its run selected (unfinished"},
		{"whole and shards", []string{whole, shards[0]}, "holds every pair, which overlaps"},
	} {
		out := filepath.Join(dir, fmt.Sprintf("m%d", i))
		_, err := Merge(out, tc.dirs, MergeOptions{})
		if !errors.Is(err, ErrMergeIncomplete) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want ErrMergeIncomplete naming %q", tc.name, err, tc.want)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%s: the refused merge wrote %s", tc.name, out)
		}
		st, err := Merge(out, tc.dirs, MergeOptions{AllowPartial: true})
		if tc.name == "whole and shards" {
			continue // the same pairs from two runs: kept once or a conflict
		}
		if err != nil || len(st.Gaps) == 0 || !strings.Contains(strings.Join(st.Gaps, "\n"), tc.want) {
			t.Errorf("%s with AllowPartial: %+v %v", tc.name, st, err)
		}
	}
	all := filepath.Join(dir, "all")
	if st, err := Merge(all, shards, MergeOptions{}); err != nil || len(st.Gaps) != 0 || st.Pairs != 15 {
		t.Errorf("the whole set: %+v %v", st, err)
	}
	// A finished merge is never merged over, nor is an input the output.
	for _, out := range []string{all, shards[0]} {
		if _, err := Merge(out, shards, MergeOptions{}); !errors.Is(err, ErrMergeFolders) {
			t.Errorf("merge into %s: %v, want ErrMergeFolders", out, err)
		}
	}
}

// TestReadersSeeOneState: while a writer compacts results.jsonl over and
// over (a new file renamed over it, as a resume does), Summarize and Merge
// always see every pair. They used to open the file once per pass and
// could read the pass-1 offsets in the new file ("EOF", "0 pairs").
func TestReadersSeeOneState(t *testing.T) {
	dir := t.TempDir()
	shards := shardRuns(t, dir, tinyPairs(t, dir, 20), 1)
	run := shards[0]
	rp := filepath.Join(run, results.ResultsFile)
	clean, _ := os.ReadFile(rp)
	lines := bytes.SplitAfter(clean, []byte("\n"))
	// The uncompacted form: every line twice, the older copies first.
	dirty := append(bytes.Join(lines, nil), clean...)
	var stop atomic.Bool
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 0; !stop.Load(); i++ {
			data := clean
			if i%2 == 0 {
				data = dirty
			}
			if err := fsutil.WriteFileAtomic(rp, data, 0o644); err != nil {
				t.Error(err)
				return
			}
		}
	}()
	for i := 0; i < 15; i++ {
		s, err := results.Summarize(run, nil)
		if err != nil || s.Overall.Pairs != 20 {
			t.Errorf("summary %d while compacting: %v pairs, %v", i, s.Overall.Pairs, err)
		}
		st, err := Merge(filepath.Join(dir, fmt.Sprintf("m%d", i)), []string{run}, MergeOptions{})
		if err != nil || st.Pairs != 20 {
			t.Errorf("merge %d while compacting: %+v %v", i, st, err)
		}
	}
	stop.Store(true)
	wg.Wait()
}
