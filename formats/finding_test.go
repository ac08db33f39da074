package formats

import "testing"

func TestKeySurvivesRenumbering(t *testing.T) {
	a := Finding{Code: "xlsx.sst-index", Part: "xl/worksheets/sheet3.xml", Line: 2, Column: 40, Anchor: "'Data'!B3"}
	b := Finding{Code: "xlsx.sst-index", Part: "xl/worksheets/sheet2.xml", Line: 9, Column: 7, Anchor: "'Data'!B3"}
	if a.Key() != b.Key() {
		t.Errorf("keys differ: %q %q", a.Key(), b.Key())
	}
	c := b
	c.Anchor = "'Data'!B4"
	if c.Key() == b.Key() {
		t.Error("different anchors give one key")
	}
	if got := normalizePart("ppt/slides/slide12.xml"); got != "ppt/slides/slide#.xml" {
		t.Errorf("normalizePart = %q", got)
	}
	if got := normalizePart("word2/document.xml"); got != "word2/document.xml" {
		t.Errorf("folder digits changed: %q", got)
	}
}
