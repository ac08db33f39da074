package baseline

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/editaudit/editaudit/formats"
)

const sha = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"

func snapWithPDF(t *testing.T, dir string) *Snapshot {
	t.Helper()
	pdf := filepath.Join(dir, "x.pdf")
	if err := os.WriteFile(pdf, []byte("%PDF-1.4 fake"), 0o644); err != nil {
		t.Fatal(err)
	}
	sum, _ := fileSHA256(pdf)
	return &Snapshot{Schema: Schema, Engine: EngineVersion(), Key: sha + "-abc123",
		Report: &formats.Report{SHA256: sha, Format: formats.DOCX, Counts: formats.Counts{"tables": 2}},
		Pages:  Pages{Status: PagesOK, Sigs: make([]pixeldiffSig, 1), PDFSHA256: sum},
		pdf:    pdf, tmp: true}
}

func TestStoreRoundTripAndCorruption(t *testing.T) {
	dir := t.TempDir()
	st, err := OpenStore(filepath.Join(dir, "store"))
	if err != nil {
		t.Fatal(err)
	}
	s := snapWithPDF(t, dir)
	if err := st.Put(s); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(s.PDF(), st.Dir) {
		t.Errorf("PDF not moved into the store: %s", s.PDF())
	}
	got, err := st.Get(s.Key)
	if err != nil {
		t.Fatal(err)
	}
	if got.Report.Counts["tables"] != 2 || got.PDF() == "" {
		t.Errorf("round trip: %+v", got)
	}
	// A tampered PDF is detected, the entry discarded.
	if err := os.WriteFile(got.PDF(), []byte("garbage"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Get(s.Key); err != ErrNotFound {
		t.Errorf("tampered PDF: %v", err)
	}
	if _, err := os.Stat(st.entryDir(s.Key)); !os.IsNotExist(err) {
		t.Errorf("corrupt entry left in place: %v", err)
	}
	// Half-written JSON, and a snapshot of another engine build.
	for name, body := range map[string]string{
		"torn":   `{"schema":"editaudit.baseline/v1","key":"`,
		"engine": `{"schema":"editaudit.baseline/v1","engine":"other","key":"` + sha + `-abc123","report":{},"pages":{"status":"off"}}`,
	} {
		d := st.entryDir(s.Key)
		os.MkdirAll(d, 0o755)
		os.WriteFile(filepath.Join(d, "snapshot.json"), []byte(body), 0o644)
		if _, err := st.Get(s.Key); err != ErrNotFound {
			t.Errorf("%s: %v", name, err)
		}
	}
	if _, err := st.Get("../../etc/passwd"); err == nil || err == ErrNotFound {
		t.Errorf("bad key accepted: %v", err)
	}
}

// Concurrent writers of one key: one wins, every reader sees a whole entry.
func TestStoreConcurrentPut(t *testing.T) {
	dir := t.TempDir()
	st, _ := OpenStore(filepath.Join(dir, "store"))
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			d := filepath.Join(dir, string(rune('a'+i)))
			os.MkdirAll(d, 0o755)
			s := snapWithPDF(t, d)
			if err := st.Put(s); err != nil {
				t.Error(err)
			}
		}(i)
	}
	wg.Wait()
	if _, err := st.Get(sha + "-abc123"); err != nil {
		t.Fatal(err)
	}
	left, _ := os.ReadDir(filepath.Join(st.Dir, "v1", "tmp"))
	if len(left) != 0 {
		t.Errorf("temp entries left: %d", len(left))
	}
}

// TestStoreChecksum: an entry whose snapshot.json was changed after it was
// stored (still valid JSON, a finding removed) or lost its checksum is
// discarded, never trusted.
func TestStoreChecksum(t *testing.T) {
	dir := t.TempDir()
	st, err := OpenStore(filepath.Join(dir, "store"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tamper := range []func(d string) error{
		func(d string) error {
			p := filepath.Join(d, "snapshot.json")
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			return os.WriteFile(p, []byte(strings.Replace(string(b), `"tables":2`, `"tables":3`, 1)), 0o644)
		},
		func(d string) error { return os.Remove(filepath.Join(d, checksumFile)) },
	} {
		s := snapWithPDF(t, t.TempDir())
		if err := st.Put(s); err != nil {
			t.Fatal(err)
		}
		if _, err := st.Get(s.Key); err != nil {
			t.Fatalf("fresh entry: %v", err)
		}
		if err := tamper(st.entryDir(s.Key)); err != nil {
			t.Fatal(err)
		}
		if _, err := st.Get(s.Key); err != ErrNotFound {
			t.Errorf("tampered entry: %v, want ErrNotFound", err)
		}
		if _, err := os.Stat(st.entryDir(s.Key)); !os.IsNotExist(err) {
			t.Errorf("tampered entry left in place: %v", err)
		}
	}
}
