package render

import (
	"archive/zip"
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/editaudit/editaudit/internal/testdoc"
)

func TestLockVolatileFields(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"complex DATE split over runs",
			`<w:p><w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText> DA</w:instrText></w:r><w:r><w:instrText>TE \@ "d MMMM"</w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>2 March</w:t></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r></w:p>`,
			`<w:p><w:r><w:fldChar w:fldLock="1" w:fldCharType="begin"/></w:r><w:r><w:instrText> DA</w:instrText></w:r><w:r><w:instrText>TE \@ "d MMMM"</w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>2 March</w:t></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r></w:p>`},
		{"simple TIME, lower case",
			`<w:fldSimple w:instr=" time \@ &quot;HH:mm&quot; "><w:r><w:t>09:15</w:t></w:r></w:fldSimple>`,
			`<w:fldSimple w:fldLock="1" w:instr=" time \@ &quot;HH:mm&quot; "><w:r><w:t>09:15</w:t></w:r></w:fldSimple>`},
		{"fldLock=0 is set, not duplicated",
			`<w:fldSimple w:instr="DATE" w:fldLock="0"/>`,
			`<w:fldSimple w:instr="DATE" w:fldLock="1"/>`},
		{"nested: PAGE inside IF stays, DATE inside is locked",
			`<w:fldChar w:fldCharType="begin"/><w:instrText>IF </w:instrText><w:fldChar w:fldCharType="begin"/><w:instrText>DATE</w:instrText><w:fldChar w:fldCharType="separate"/><w:fldChar w:fldCharType="end"/><w:instrText> = 1</w:instrText><w:fldChar w:fldCharType="separate"/><w:fldChar w:fldCharType="end"/><w:fldChar w:fldCharType="begin"/><w:instrText>PAGE</w:instrText><w:fldChar w:fldCharType="end"/>`,
			`<w:fldChar w:fldCharType="begin"/><w:instrText>IF </w:instrText><w:fldChar w:fldLock="1" w:fldCharType="begin"/><w:instrText>DATE</w:instrText><w:fldChar w:fldCharType="separate"/><w:fldChar w:fldCharType="end"/><w:instrText> = 1</w:instrText><w:fldChar w:fldCharType="separate"/><w:fldChar w:fldCharType="end"/><w:fldChar w:fldCharType="begin"/><w:instrText>PAGE</w:instrText><w:fldChar w:fldCharType="end"/>`},
		{"PAGE, SAVEDATE and DATEX untouched", `<w:fldSimple w:instr=" PAGE "/><w:fldSimple w:instr="SAVEDATE"/><w:fldSimple w:instr="DATEX"/>`, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := lockVolatileFields([]byte(tc.in))
			if tc.want == "" {
				if ok {
					t.Errorf("changed: %s", got)
				}
				return
			}
			if !ok || string(got) != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
}

// prepareStaged rewrites only the parts with a date field, keeps every
// other entry byte for byte, and leaves a package without one untouched.
func TestPrepareStaged(t *testing.T) {
	dir := t.TempDir()
	p := writeZip(t, filepath.Join(dir, "a.docx"), trackedDocx("Alice"), false)
	before, _ := os.ReadFile(p)
	if err := prepareStaged(p, ".docx"); err != nil {
		t.Fatal(err)
	}
	after, _ := os.ReadFile(p)
	got := testdoc.Unzip(t, after)
	if !bytes.Contains(got["word/document.xml"], []byte(`<w:fldChar w:fldLock="1" w:fldCharType="begin"/>`)) ||
		!bytes.Contains(got["word/document.xml"], []byte(`<w:fldSimple w:fldLock="1" w:instr=" TIME`)) ||
		bytes.Contains(got["word/document.xml"], []byte(`<w:fldSimple w:fldLock="1" w:instr=" PAGE`)) {
		t.Errorf("document.xml: %s", got["word/document.xml"])
	}
	if err := testdoc.WellFormed(got["word/document.xml"]); err != nil {
		t.Error(err)
	}
	orig := testdoc.Unzip(t, before)
	for name, b := range orig {
		if name != "word/document.xml" && !bytes.Equal(b, got[name]) {
			t.Errorf("%s changed", name)
		}
	}
	zr, _ := zip.NewReader(bytes.NewReader(after), int64(len(after)))
	if len(zr.File) != len(orig) {
		t.Errorf("%d entries, want %d", len(zr.File), len(orig))
	}
	// No field: the file is not rewritten.
	q := writeZip(t, filepath.Join(dir, "b.docx"), docxParts([]string{"plain"}), false)
	qb, _ := os.ReadFile(q)
	if err := prepareStaged(q, ".docx"); err != nil {
		t.Fatal(err)
	}
	if qa, _ := os.ReadFile(q); !bytes.Equal(qa, qb) {
		t.Error("a document without date fields was rewritten")
	}
	// Not a zip, or not Word: left alone, no error.
	junk := filepath.Join(dir, "c.docx")
	os.WriteFile(junk, []byte("not a zip"), 0o600)
	if err := prepareStaged(junk, ".docx"); err != nil {
		t.Error(err)
	}
}

func TestFreezeDateFields(t *testing.T) {
	in := `<a:p><a:r><a:t>Dated </a:t></a:r><a:fld id="{B6}" type="datetime1"><a:rPr lang="en-US"/><a:pPr/><a:t>1/2/2003</a:t></a:fld><a:fld id="{B7}" type="slidenum"><a:rPr lang="en-US"/><a:t>9</a:t></a:fld></a:p>`
	want := `<a:p><a:r><a:t>Dated </a:t></a:r><a:r><a:rPr lang="en-US"/><a:t>1/2/2003</a:t></a:r><a:fld id="{B7}" type="slidenum"><a:rPr lang="en-US"/><a:t>9</a:t></a:fld></a:p>`
	got, ok := freezeDateFields([]byte(in))
	if !ok || string(got) != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if _, ok := freezeDateFields([]byte(`<a:fld type="slidenum"><a:t>1</a:t></a:fld>`)); ok {
		t.Error("a slide number field was frozen")
	}
}

func TestFreezeVolatileFormulas(t *testing.T) {
	in := `<sheetData><row r="1"><c r="A1" s="1"><f>NOW()</f><v>40000.5</v></c><c r="B1"><f>A1+1</f><v>40001.5</v></c><c r="C1"><f>RAND()</f></c>` +
		`<c r="D1"><f t="shared" ref="D1:D2" si="0">RAND()*2</f><v>1</v></c><c r="E1" t="str"><f>TEXT(today(),"yyyy")</f><v>2009</v></c></row></sheetData>`
	want := `<sheetData><row r="1"><c r="A1" s="1"><v>40000.5</v></c><c r="B1"><f>A1+1</f><v>40001.5</v></c><c r="C1"><f>RAND()</f></c>` +
		`<c r="D1"><f t="shared" ref="D1:D2" si="0">RAND()*2</f><v>1</v></c><c r="E1" t="str"><v>2009</v></c></row></sheetData>`
	got, ok := freezeVolatileFormulas([]byte(in))
	if !ok || string(got) != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

func TestStripCommentAnchors(t *testing.T) {
	in := `<w:p><w:commentRangeStart w:id="0"/><w:r><w:t>a comment here</w:t></w:r><w:commentRangeEnd w:id="0"></w:commentRangeEnd><w:r><w:rPr><w:rStyle w:val="CommentReference"/></w:rPr><w:commentReference w:id="0"/></w:r></w:p>`
	want := `<w:p><w:r><w:t>a comment here</w:t></w:r><w:r><w:rPr><w:rStyle w:val="CommentReference"/></w:rPr></w:r></w:p>`
	out, ok := stripCommentAnchors([]byte(in))
	if !ok || string(out) != want {
		t.Errorf("got %v %s\nwant %s", ok, out, want)
	}
	for _, s := range []string{`<w:p><w:r><w:t>no comment</w:t></w:r></w:p>`, `<w:p><w:r><w:t>commentReference in text</w:t></w:r></w:p>`} {
		if out, ok := stripCommentAnchors([]byte(s)); ok {
			t.Errorf("%s changed to %s", s, out)
		}
	}
}
