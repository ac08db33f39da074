package docx_test

import (
	"testing"

	"github.com/editaudit/editaudit/formats"
)

// FuzzBody feeds arbitrary body markup through the whole inspection: the
// counter and the checks must never panic, and counts stay consistent.
func FuzzBody(f *testing.F) {
	for _, s := range []string{
		para, table(para + inner), table(""), textBox("1", inner+para) + picture("1"),
		`<w:p><w:tbl><w:tr/></w:tbl><w:br/></w:p>`,
		`<w:tbl><w:sdt><w:sdtContent><w:tr><w:sdt><w:sdtContent><w:tc><w:tbl/></w:tc></w:sdtContent></w:sdt></w:tr></w:sdtContent></w:sdt></w:tbl>`,
		`<mc:AlternateContent><mc:Choice><w:tbl/></mc:Choice><mc:Choice><w:p/></mc:Choice><mc:Fallback><w:tc/></mc:Fallback></mc:AlternateContent>`,
		`<w:tc><w:tr><w:p><w:pPr><w:pPr/><w:jc/><w:ind/></w:pPr></w:p></w:tr></w:tc>`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, body string) {
		rep := run(t, pkg{body: body, stories: []story{numbering(body)}}.build(t))
		c := rep.Counts
		if c["nested_tables"] > c["tables"] || c["tables"] < 0 {
			t.Errorf("inconsistent counts %v", c)
		}
		for _, s := range rep.Sites {
			if s.Counts["tables"] > c["tables"] {
				t.Errorf("site %v exceeds the totals %v", s, c)
			}
		}
		for _, fd := range rep.Findings {
			if !fd.Grade.Valid() || fd.Code == "" {
				t.Errorf("bad finding %+v", fd)
			}
		}
		_ = formats.DOCX
	})
}
