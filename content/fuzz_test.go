package content

import (
	"context"
	"testing"
)

// checkDiff diffs a against b and b against itself: never an error,
// never a panic, a status of ok or partial, and nothing changed between a
// file and itself.
func checkDiff(t *testing.T, a, b []byte) {
	r, err := Bytes(context.Background(), a, b, Options{MaxChanges: 20})
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != StatusOK && r.Status != StatusPartial {
		t.Fatalf("status %q", r.Status)
	}
	if len(r.Changes) > 20 {
		t.Fatalf("%d changes over the cap", len(r.Changes))
	}
	self, err := Bytes(context.Background(), b, b, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(self.Changes) != 0 || self.Truncated != 0 {
		t.Fatalf("a file differs from itself: %+v", self.Changes)
	}
}

// FuzzWordBody diffs a small document against one whose body is the
// fuzzer's (well-formed or not).
func FuzzWordBody(f *testing.F) {
	f.Add(`<w:p><w:r><w:t>Hello brave world</w:t></w:r></w:p>`)
	f.Add(`<w:tbl><w:tr><w:tc><w:p><w:r><w:rPr><w:b/><w:rStyle w:val="X"/></w:rPr><w:t>cell</w:t></w:r></w:p></w:tc></w:tr></w:tbl><w:p/>`)
	f.Add(`<w:p><w:r><mc:AlternateContent><mc:Choice Requires="wps"><w:txbxContent><w:p><w:r><w:t>box</w:t></w:r></w:p></w:txbxContent></mc:Choice><mc:Fallback><w:p/></mc:Fallback></mc:AlternateContent></w:r></w:p>`)
	f.Add(`<w:p><w:del><w:r><w:delText>gone</w:delText></w:r></w:del><w:ins><w:r><w:tab/><w:t>new</w:t><w:sym w:char="F0FC"/></w:r></w:ins></w:p>`)
	f.Add(`<w:p><w:r><w:t>unclosed`)
	orig := wordPackage(`<w:p><w:r><w:t>Hello world</w:t></w:r></w:p><w:p><w:pPr><w:pStyle w:val="Heading1"/></w:pPr><w:r><w:rPr><w:b/></w:rPr><w:t>Title</w:t></w:r></w:p>`)
	f.Fuzz(func(t *testing.T, body string) {
		checkDiff(t, orig, wordPackage(body))
	})
}

// FuzzSheetData diffs a small workbook against one whose sheetData is the
// fuzzer's.
func FuzzSheetData(f *testing.F) {
	f.Add(`<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1"><v>2</v></c></row>`)
	f.Add(`<row r="2"><c r="A2"><f t="shared" ref="A2:A3" si="0">B1*2</f></c></row><row r="3"><c r="A3"><f t="shared" si="0"/></c><c r="B3" t="inlineStr"><is><t>x_x000D_</t></is></c></row>`)
	f.Add(`<row><c t="b"><v>1</v></c><c t="e"><v>#N/A</v></c><c s="1"/><c r="XFD1048576"><v>1e308</v></c></row>`)
	f.Add(`<row r="1"><c r="A1" s="99"><v>7</v></c><c r="ZZZZ1"><v>x</v></c></row>`)
	orig := workbookPackage(`<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" s="1"><v>1</v></c><c r="C1"><f>SUM(B1:B1)</f><v>1</v></c></row>`, `<si><t>label</t></si>`)
	f.Fuzz(func(t *testing.T, data string) {
		checkDiff(t, orig, workbookPackage(data, `<si><t>label</t></si>`))
	})
}
