package results

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/editaudit/editaudit/content"
)

// changed gives a record a content diff over units paragraphs of which
// touched changed and lost lost their formatting.
func changed(units, touched, lost int) recOpt {
	return func(r *Record) {
		c := &content.Result{Status: content.StatusOK, Changes: []content.Change{}}
		for i := range touched {
			c.Changes = append(c.Changes, content.Change{Kind: content.KindText, Where: "body paragraph " + string(rune('1'+i))})
		}
		c.Summary = content.Summary{UnitsBefore: units, UnitsAfter: units, Unchanged: units - touched, Changed: touched,
			Text: touched - lost, Format: lost, FormattingLost: lost}
		if units > 0 {
			c.Summary.ChangedShare = float64(touched) / float64(units)
		}
		r.Content = c
	}
}

func contentStatus(s string) recOpt {
	return func(r *Record) { r.Content = &content.Result{Status: s, Changes: []content.Change{}} }
}

func TestSummarizeContent(t *testing.T) {
	dir := t.TempDir()
	writeRun(t, dir,
		mkRec("1", "a", changed(100, 1, 0)),
		mkRec("2", "a", changed(50, 10, 3)),
		mkRec("3", "b", changed(20, 0, 0)),
		mkRec("4", "b", contentStatus(content.StatusOff)),
		mkRec("5", "b", changed(10, 5, 1), func(r *Record) { r.Content.Status = content.StatusPartial }),
		mkRec("6", "b", failed("boom"), changed(10, 10, 10)), // failed: not counted
		mkRec("7", "b"), // a record from before the content diff
	)
	s, err := Summarize(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := ContentMetrics{Compared: 4, Partial: 1, NotCompared: 2, ChangedPairs: 3, ChangedRate: 0.75,
		UnitsBefore: 180, Changed: 16, Text: 12, Format: 4, FormattingLost: 4, FormattingLostPairs: 2, FormattingLostRate: 0.5,
		ChangedShare: Dist{N: 4, Mean: 0.1775, P50: 0.01, P95: 0.5, Max: 0.5}} // shares 0.01, 0.2, 0, 0.5
	if got := s.Overall.Content; got != want {
		t.Errorf("overall\n got %+v\nwant %+v", got, want)
	}
	if g := s.Groups[0].Content; g.Compared != 2 || g.ChangedPairs != 2 || g.FormattingLostRate != 0.5 || g.ChangedShare.Max != 0.2 {
		t.Errorf("group a %+v", g)
	}
	if g := s.Groups[1].Content; g.Compared != 2 || g.NotCompared != 2 || g.Partial != 1 || g.ChangedRate != 0.5 {
		t.Errorf("group b %+v", g)
	}
}

// compare: more formatting lost is worse, less is better; content rates
// are listed under the names the gates use.
func TestCompareContent(t *testing.T) {
	a, b := filepath.Join(t.TempDir(), "a"), filepath.Join(t.TempDir(), "b")
	writeRun(t, a,
		mkRec("1", "", changed(100, 2, 0)),
		mkRec("2", "", changed(100, 2, 2)),
		mkRec("3", "", changed(100, 2, 0)),
		mkRec("4", "", contentStatus(content.StatusOff)),
	)
	writeRun(t, b,
		mkRec("1", "", changed(100, 2, 1)),  // lost formatting: worse
		mkRec("2", "", changed(100, 2, 0)),  // none lost now: better
		mkRec("3", "", changed(100, 40, 0)), // more touched, nothing lost: unchanged verdict
		mkRec("4", "", changed(100, 9, 9)),  // not compared in A: no verdict from content
	)
	c, err := Compare(a, b)
	if err != nil {
		t.Fatal(err)
	}
	if c.Worse != 1 || c.Better != 1 || c.Unchanged != 2 {
		t.Errorf("worse %d better %d unchanged %d: %+v", c.Worse, c.Better, c.Unchanged, c.Pairs)
	}
	if got := strings.Join(c.Pairs[0].Changes, "; "); c.Pairs[0].ID != "1" || got != "formatting lost 0 → 1" {
		t.Errorf("pair 1: %s", got)
	}
	rates := map[string]RateChange{}
	for _, r := range c.Rates {
		rates[r.Metric] = r
	}
	for name, want := range map[string][2]float64{
		"content.changed_rate":         {1, 1},
		"content.changed_share.mean":   {0.02, 0.1325}, // (2+2+40+9)/4 %
		"content.changed_share.p95":    {0.02, 0.4},
		"content.formatting_lost_rate": {RoundRate(1.0 / 3), 0.5},
	} {
		if r, ok := rates[name]; !ok || r.A != want[0] || r.B != want[1] {
			t.Errorf("%s = %+v, want %v", name, r, want)
		}
	}
}
