package content

import (
	"bytes"
	"encoding/json"
	"math/rand"
	"reflect"
	"strings"
	"testing"

	"github.com/editaudit/editaudit/formats"
)

func TestCommonSubsequenceIsValid(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for n := 0; n < 500; n++ {
		a := make([]uint64, rng.Intn(40))
		b := make([]uint64, rng.Intn(40))
		alphabet := 1 + rng.Intn(12)
		for i := range a {
			a[i] = uint64(rng.Intn(alphabet))
		}
		for i := range b {
			b[i] = uint64(rng.Intn(alphabet))
		}
		ms := commonSubsequence(a, b)
		pi, pj := -1, -1
		for _, m := range ms {
			if m.i <= pi || m.j <= pj || a[m.i] != b[m.j] {
				t.Fatalf("a=%v b=%v: invalid matches %v", a, b, ms)
			}
			pi, pj = m.i, m.j
		}
		// Small inputs get an exact LCS.
		if lcs := lcsLength(a, b); len(ms) != lcs {
			t.Errorf("a=%v b=%v: %d matches, LCS %d", a, b, len(ms), lcs)
		}
	}
	// Identical, then one element replaced, inserted and deleted.
	a := []uint64{1, 2, 3, 4, 5, 6}
	for _, c := range []struct {
		b    []uint64
		want int
	}{{[]uint64{1, 2, 3, 4, 5, 6}, 6}, {[]uint64{1, 2, 9, 4, 5, 6}, 5}, {[]uint64{1, 2, 3, 9, 4, 5, 6}, 6}, {[]uint64{1, 2, 4, 5, 6}, 5}, {[]uint64{6, 1, 2, 3, 4, 5}, 5}} {
		if got := len(commonSubsequence(a, c.b)); got != c.want {
			t.Errorf("%v: %d matches, want %d", c.b, got, c.want)
		}
	}
}

// Large inputs (past the exact LCS's table) go through the patience split.
func TestCommonSubsequenceLarge(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	a := make([]uint64, 5000)
	for i := range a {
		a[i] = uint64(rng.Int63())
	}
	a[100], a[4000] = 7, 7 // repeated elements too
	var b []uint64
	for i, x := range a {
		switch {
		case i%500 == 3:
			continue // deleted
		case i%500 == 250:
			b = append(b, 1e9+uint64(i)) // replaced
			continue
		case i%500 == 400:
			b = append(b, 2e9+uint64(i)) // inserted
		}
		b = append(b, x)
	}
	if got := len(commonSubsequence(a, b)); got != 5000-20 {
		t.Errorf("%d matches, want %d", got, 5000-20)
	}
}

func lcsLength(a, b []uint64) int {
	prev := make([]int, len(b)+1)
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		for j := 1; j <= len(b); j++ {
			switch {
			case a[i-1] == b[j-1]:
				cur[j] = prev[j-1] + 1
			case prev[j] >= cur[j-1]:
				cur[j] = prev[j]
			default:
				cur[j] = cur[j-1]
			}
		}
		prev = cur
	}
	return prev[len(b)]
}

func TestHashNorm(t *testing.T) {
	for _, s := range []string{"", "a", " a ", "a  b", "a\tb\n", "\u00a0x\u00a0 y\u3000", "e\u0301 café", "한국어  문장", "\xff\xfe x"} {
		if hashNorm(s) != hashString(normalize(s)) {
			t.Errorf("hashNorm(%q) differs from hashing %q", s, normalize(s))
		}
	}
	if hashNorm("e\u0301") != hashNorm("\u00e9") || hashNorm(" a  b ") != hashNorm("a b") {
		t.Error("NFC or whitespace variants hash differently")
	}
}

func TestDiffWords(t *testing.T) {
	for _, c := range []struct {
		a, b   string
		ops    []Op
		detail string
	}{
		{"the quick brown fox", "the slow red fox", []Op{{"=", "the "}, {"-", "quick brown"}, {"+", "slow red"}, {"=", " fox"}}, `replaced "quick brown" with "slow red"`},
		{"Pay 100 dollars.", "Pay 150 dollars.", []Op{{"=", "Pay "}, {"-", "100"}, {"+", "150"}, {"=", " dollars."}}, `replaced "100" with "150"`},
		{"a b", "a b c", []Op{{"=", "a b"}, {"+", " c"}}, `inserted "c"`},
		{"価格は100円です", "価格は200円です", []Op{{"=", "価格は"}, {"-", "100"}, {"+", "200"}, {"=", "円です"}}, `replaced "100" with "200"`},
		{"계약 기간은 1년", "계약 기간은 2년", []Op{{"=", "계약 기간은 "}, {"-", "1년"}, {"+", "2년"}}, `replaced "1년" with "2년"`},
	} {
		wd := diffWords(c.a, c.b)
		if !reflect.DeepEqual(wd.ops, c.ops) {
			t.Errorf("%q → %q: ops %v, want %v", c.a, c.b, wd.ops, c.ops)
		}
		if d := describeOps(wd.ops); d != c.detail {
			t.Errorf("%q → %q: detail %q, want %q", c.a, c.b, d, c.detail)
		}
		if sideText(wd.ops, "-") != c.a || sideText(wd.ops, "+") != c.b {
			t.Errorf("%q → %q: sides %q %q", c.a, c.b, sideText(wd.ops, "-"), sideText(wd.ops, "+"))
		}
	}
	// A long paragraph is shown around the change.
	long := strings.Repeat("word ", 200)
	wd := diffWords(long+"old tail", long+"new tail")
	if b := sideText(wd.ops, "-"); len([]rune(b)) > 60 || !strings.HasPrefix(b, "…") || !strings.HasSuffix(b, "old tail") {
		t.Errorf("long before: %q", b)
	}
	if ops := clipOps(wd.ops); len(ops) != 4 || ops[1] != (Op{"-", "old"}) || ops[2] != (Op{"+", "new"}) ||
		len([]rune(ops[0].Text)) > contextRunes || ops[3].Text != " tail" {
		t.Errorf("clipped ops %q", ops)
	}
}

func TestFormulaReferences(t *testing.T) {
	for _, c := range []struct {
		f      string
		dr, dc int
		want   string
	}{
		{"B4*2", 0, 2, "D4*2"},
		{"$A$1+A1", 1, 1, "$A$1+B2"},
		{"SUM(A1:B3)", 2, 0, "SUM(A3:B5)"},
		{"SUM(A:A)+SUM($B:B)", 0, 1, "SUM(B:B)+SUM($B:C)"},
		{"SUM(1:3)", 1, 0, "SUM(2:4)"},
		{"Sheet1!A1+'My Sheet'!$B2", 1, 0, "Sheet1!A2+'My Sheet'!$B3"},
		{`IF(A1="A1",LOG10(A1),0)`, 0, 1, `IF(B1="A1",LOG10(B1),0)`},
		{"Table1[Col]+A1", 1, 0, "Table1[Col]+A2"},
		{"_xlfn.XLOOKUP(A1,B:B,C:C)", 0, 1, "_xlfn.XLOOKUP(B1,C:C,D:D)"},
		{"A1*1.5E+3", 0, 0, "A1*1.5E+3"},
		{"A1", -1, 0, "#REF!"},
	} {
		if got := translateFormula(c.f, c.dr, c.dc); got != c.want {
			t.Errorf("translate(%q, %d, %d) = %q, want %q", c.f, c.dr, c.dc, got, c.want)
		}
	}
	if canonicalFormula("B4*2", 7, 2) != canonicalFormula("D4*2", 7, 4) {
		t.Error("a shared formula's copies do not compare equal")
	}
	if canonicalFormula("B4*2", 7, 2) == canonicalFormula("B4*2", 7, 4) {
		t.Error("the same text in another column compares equal")
	}
	for s, want := range map[string]string{"Sheet1": "Sheet1", "Simple Monthly Budget": "'Simple Monthly Budget'", "A1": "'A1'", "O'Neil": "'O''Neil'", "2024": "'2024'"} {
		if got := sheetRef(s); got != want {
			t.Errorf("sheetRef(%q) = %q, want %q", s, got, want)
		}
	}
}

func TestNumbers(t *testing.T) {
	for v, want := range map[string]string{"1": "1", "1.0": "1", "1E0": "1", "1234567": "1234567", "-0": "0", "0.5": "0.5",
		"123456789012345": "123456789012345", "1e20": "1e+20", "0.00001": "1e-05", " 42 ": "42", "abc": "abc"} {
		if got := normNumber(v); got != want {
			t.Errorf("normNumber(%q) = %q, want %q", v, got, want)
		}
		if plainInteger([]byte(v)) && normNumber(v) != v {
			t.Errorf("%q is taken as written but normalises to %q", v, normNumber(v))
		}
	}
}

func TestNumberFormatsAndColours(t *testing.T) {
	for _, c := range [][2]string{{`"$"#,##0.00`, `\$#,##0.00`}, {`$#,##0`, `"$"#,##0`}, {`[Red]-0.0 "kg"`, `[Red]\-0.0\ \k\g`}, {`yyyy/mm/dd`, `yyyy"/"mm"/"dd`}} {
		if canonicalNumFmt(c[0]) != canonicalNumFmt(c[1]) {
			t.Errorf("%q and %q: %q ≠ %q", c[0], c[1], canonicalNumFmt(c[0]), canonicalNumFmt(c[1]))
		}
	}
	if canonicalNumFmt("0.00") == canonicalNumFmt("0.0") {
		t.Error("different formats compare equal")
	}
	// The lt2 colour of the budget workbook's theme, 10% darker: what
	// LibreOffice writes out for theme="2" tint="-0.0999…".
	if got := applyTint("D6ECFF", -9.9978637043366805e-2); got != "A7D6FF" {
		t.Errorf("tint: %s", got)
	}
	// §18.8.19: tint -1 is black, +1 white.
	if applyTint("4E5B6F", -1) != "000000" || applyTint("4E5B6F", 1) != "FFFFFF" {
		t.Errorf("tint ±1: %s %s", applyTint("4E5B6F", -1), applyTint("4E5B6F", 1))
	}
}

// The JSON of a Result is the DESIGN.md contract.
func TestResultJSON(t *testing.T) {
	r := &Result{Status: StatusOK, Changes: []Change{{Kind: KindText, Part: "word/document.xml", Where: "body paragraph 12", Before: "a", After: "b"}}}
	data, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"status", "changes", "summary", "truncated"} {
		if _, ok := m[k]; !ok {
			t.Errorf("no %q in %s", k, data)
		}
	}
	ch := m["changes"].([]any)[0].(map[string]any)
	for _, k := range []string{"kind", "part", "where", "before", "after"} {
		if _, ok := ch[k]; !ok {
			t.Errorf("no %q in a change: %s", k, data)
		}
	}
	s := m["summary"].(map[string]any)
	for _, k := range []string{"units_before", "units_after", "changed", "inserted", "deleted", "moved", "formatting_lost", "changed_share"} {
		if _, ok := s[k]; !ok {
			t.Errorf("no %q in the summary: %s", k, data)
		}
	}
	if off, _ := json.Marshal(Off()); !strings.Contains(string(off), `"status":"off"`) || !strings.Contains(string(off), `"changes":[]`) {
		t.Errorf("off: %s", off)
	}
}

func TestMaxUnits(t *testing.T) {
	a := corpusBytes(t, sampleDocx)
	r, err := Bytes(t.Context(), a, a, Options{MaxUnits: 10})
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != StatusPartial || len(r.Changes) != 0 || r.Summary.UnitsBefore != 0 || !strings.Contains(r.Message, "more than 10 paragraphs") {
		t.Errorf("got %s %q %+v", r.Status, r.Message, r.Summary)
	}
}

// units extracts the units of a package (all stories in order).
func units(t *testing.T, data []byte) []*unit {
	t.Helper()
	p, err := formats.Open(t.Context(), bytes.NewReader(data), int64(len(data)), "test", formats.DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	x, err := extract(t.Context(), p, newExtraction(1000), false)
	if err != nil {
		t.Fatal(err)
	}
	if len(x.failed) > 0 {
		t.Fatalf("failed: %v", x.failed)
	}
	var out []*unit
	for _, s := range x.stories {
		out = append(out, s.units...)
	}
	return out
}

// A text box is read once (its mc:Choice, not the VML Fallback that
// repeats it), deleted text is not text, and locations follow DESIGN.md.
func TestWordUnits(t *testing.T) {
	doc := wordPackage(`<w:p><w:r><w:t xml:space="preserve">Before </w:t></w:r><w:r><mc:AlternateContent><mc:Choice Requires="wps"><w:drawing><w:txbxContent><w:p><w:r><w:t>In the box</w:t></w:r></w:p></w:txbxContent></w:drawing></mc:Choice><mc:Fallback><w:pict><w:txbxContent><w:p><w:r><w:t>In the box</w:t></w:r></w:p></w:txbxContent></w:pict></mc:Fallback></mc:AlternateContent></w:r><w:r><w:t>after</w:t></w:r></w:p>` +
		`<w:p><w:del><w:r><w:delText>gone </w:delText></w:r></w:del><w:ins><w:r><w:t>kept</w:t></w:r></w:ins><w:r><w:tab/><w:t>x</w:t></w:r></w:p>` +
		`<w:tbl><w:tr><w:tc><w:p><w:r><w:t>a</w:t></w:r></w:p><w:p><w:r><w:t>b</w:t></w:r></w:p></w:tc><w:tc><w:tbl><w:tr><w:tc><w:p><w:r><w:t>nested</w:t></w:r></w:p></w:tc></w:tr></w:tbl><w:p/></w:tc></w:tr></w:tbl>`)
	var got []string
	for _, u := range units(t, doc) {
		got = append(got, u.where+"="+u.text)
	}
	want := []string{
		"body paragraph 1=Before after",
		"body text box 1, paragraph 1=In the box",
		"body paragraph 2=kept\tx",
		"body table 1, row 1, cell 1=a",
		"body table 1, row 1, cell 1, paragraph 2=b",
		"body table 1, row 1, cell 2, table 1, row 1, cell 1=nested",
		"body table 1, row 1, cell 2=",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
