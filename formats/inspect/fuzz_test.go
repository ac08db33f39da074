package inspect_test

// FuzzInspect runs the whole inspection (package reader, the format's
// validators and counters, the package-level checks) on arbitrary bytes.
// Seeds: the example documents generated from examples/specs, each with
// every defect the corpus generator injects, and (when EDITAUDIT_CORPUS is
// set) a few small real files, read at run time and never copied.

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/editaudit/editaudit/formats"
	"github.com/editaudit/editaudit/formats/inspect"
	"github.com/editaudit/editaudit/mutate"
	"github.com/editaudit/editaudit/synth"
)

// specSeeds generates the example documents of examples/specs.
func specSeeds(tb testing.TB) map[formats.Format][]byte {
	tb.Helper()
	out := map[formats.Format][]byte{}
	specs, _ := filepath.Glob(filepath.Join("..", "..", "examples", "specs", "*.json"))
	for _, p := range specs {
		f, err := os.Open(p)
		if err != nil {
			tb.Fatal(err)
		}
		s, err := synth.ParseSpec(f)
		f.Close()
		if err != nil {
			tb.Fatalf("%s: %v", p, err)
		}
		b, err := synth.Synthesize(s)
		if err != nil {
			tb.Fatalf("%s: %v", p, err)
		}
		out[s.FormatOf()] = b
	}
	if len(out) == 0 {
		tb.Fatal("no example specs found")
	}
	return out
}

// realSeeds returns up to n real files of at most max bytes per format
// folder of $EDITAUDIT_CORPUS (none without it).
func realSeeds(n int, max int64) [][]byte {
	dir := os.Getenv("EDITAUDIT_CORPUS")
	if dir == "" {
		return nil
	}
	var out [][]byte
	for _, sub := range []string{"docx", "pptx", "xlsx", "hwpx", "broken"} {
		files, _ := filepath.Glob(filepath.Join(dir, sub, "*"))
		sort.Strings(files)
		k := 0
		for _, f := range files {
			if st, err := os.Stat(f); err != nil || st.IsDir() || st.Size() > max {
				continue
			}
			if b, err := os.ReadFile(f); err == nil && k < n {
				out = append(out, b)
				k++
			}
		}
	}
	return out
}

func FuzzInspect(f *testing.F) {
	for format, b := range specSeeds(f) {
		f.Add(b)
		for _, m := range mutate.Mutations() {
			for _, mf := range m.Formats {
				if mf != format {
					continue
				}
				if mb, err := mutate.Mutate(m.Kind, b); err == nil {
					f.Add(mb)
				}
			}
		}
	}
	for _, b := range realSeeds(3, 64<<10) {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		run := func() ([]byte, *formats.Report) {
			rep, err := inspect.Bytes(context.Background(), data, "fuzz", inspect.Options{})
			if err != nil {
				t.Fatalf("inspect: %v (a document in memory is findings, never an error)", err)
			}
			j, err := json.Marshal(rep)
			if err != nil {
				t.Fatalf("report does not marshal: %v", err)
			}
			return j, rep
		}
		j, rep := run()
		for i, fd := range rep.Findings {
			if !fd.Grade.Valid() || fd.Code == "" || fd.Message == "" || fd.Line < 0 || fd.Column < 0 {
				t.Fatalf("malformed finding %+v", fd)
			}
			if i > 0 && formats.Less(fd, rep.Findings[i-1]) {
				t.Fatalf("findings not sorted at %d: %v before %v", i, rep.Findings[i-1], fd)
			}
		}
		for k, v := range rep.Counts {
			if v < 0 {
				t.Fatalf("count %s = %d", k, v)
			}
		}
		for part, c := range rep.Parts {
			for k, v := range c {
				if v < 0 || v > rep.Counts[k] {
					t.Fatalf("part %s: %s = %d of %d in all", part, k, v, rep.Counts[k])
				}
			}
		}
		if j2, _ := run(); !bytes.Equal(j, j2) {
			t.Fatalf("not deterministic:\n%s\n%s", j, j2)
		}
	})
}
