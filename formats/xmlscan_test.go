package formats

import (
	"strings"
	"testing"
)

type recHandler struct {
	NopHandler
	starts []string
}

func (h *recHandler) Start(e *Element) { h.starts = append(h.starts, e.Locator()) }

func TestScanXML(t *testing.T) {
	const w = `xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"`
	tests := []struct {
		name     string
		in       string
		codes    []string
		complete bool
		line     int
		col      int
		msgHas   string
	}{
		{"ok", `<?xml version="1.0"?><w:document ` + w + `><w:body><w:p/></w:body></w:document>`, nil, true, 0, 0, ""},
		{"illegal char", "<w:document " + w + "><w:body><w:p><w:r><w:t>Hel\x0blo</w:t></w:r></w:p></w:body></w:document>", []string{CodeXMLIllegalChar}, true, 1, 110, "U+000B"},
		{"two illegal chars go on", "<a>\x01x\n\x1fy</a>", []string{CodeXMLIllegalChar, CodeXMLIllegalChar}, true, 1, 4, "U+0001"},
		{"fffe", "<a>x\xef\xbf\xbey</a>", []string{CodeXMLIllegalChar}, true, 1, 5, "U+FFFE"},
		{"char ref", "<a>x&#1;y</a>", []string{CodeXMLIllegalChar}, false, 1, 0, "U+0001"},
		{"unescaped amp", "<a>fish & chips</a>", []string{CodeXMLNotWellFormed}, false, 1, 0, "not well-formed"},
		{"mismatch", "<a><b></a>", []string{CodeXMLNotWellFormed}, false, 1, 0, "does not match"},
		{"unclosed", "<a><b></b>", []string{CodeXMLNotWellFormed}, false, 1, 0, "ends inside <a>"},
		{"doctype", `<?xml version="1.0"?><!DOCTYPE a [<!ENTITY x SYSTEM "file:///etc/passwd">]><a>&x;</a>`, []string{CodeXMLDoctype}, false, 1, 22, "DOCTYPE"},
		{"unbound prefix", `<w:a/>`, []string{CodeXMLNotWellFormed}, true, 1, 1, "not bound"},
		{"unbound attribute prefix", `<a><b w14:paraId="1"/></a>`, []string{CodeXMLNotWellFormed}, true, 1, 4, "attribute w14:paraId"},
		{"near miss: bound attribute prefix", `<a xmlns:w14="u"><b w14:paraId="1"/></a>`, nil, true, 0, 0, ""},
		{"decl after a newline", "\n<?xml version=\"1.0\"?><a/>", []string{CodeXMLNotWellFormed}, true, 2, 1, "not at the very start"},
		{"near miss: decl after a BOM", "\xef\xbb\xbf<?xml version=\"1.0\"?><a/>", nil, true, 0, 0, ""},
		{"mc:Ignorable undeclared", `<a xmlns:mc="` + NSMarkupCompat + `" xmlns:w14="u" mc:Ignorable="w14 wp14"/>`, []string{CodeXMLMCPrefix}, true, 1, 1, `"wp14"`},
		{"near miss: mc:Ignorable declared", `<a xmlns:mc="` + NSMarkupCompat + `" xmlns:w14="u" xmlns:wp14="v" mc:Ignorable="w14 wp14"/>`, nil, true, 0, 0, ""},
		{"mc:Choice Requires undeclared", `<a xmlns:mc="` + NSMarkupCompat + `"><mc:AlternateContent><mc:Choice Requires="wps"><b/></mc:Choice></mc:AlternateContent></a>`, []string{CodeXMLMCPrefix}, true, 1, 96, "Requires"},
		{"near miss: Requires declared on the Choice", `<a xmlns:mc="` + NSMarkupCompat + `"><mc:AlternateContent><mc:Choice xmlns:wps="u" Requires="wps"><b/></mc:Choice></mc:AlternateContent></a>`, nil, true, 0, 0, ""},
		{"empty", ``, []string{CodeXMLNotWellFormed}, false, 1, 0, "no root"},
		{"bom", "\xef\xbb\xbf<a/>", nil, true, 0, 0, ""},
		{"xlsx escape is legal", `<t>_x0001_</t>`, nil, true, 0, 0, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := ScanXML("p.xml", strings.NewReader(tc.in), DefaultLimits(), nil)
			var codes []string
			for _, f := range res.Findings {
				codes = append(codes, f.Code)
			}
			if strings.Join(codes, ",") != strings.Join(tc.codes, ",") {
				t.Fatalf("codes %v, want %v (%+v)", codes, tc.codes, res.Findings)
			}
			if res.Complete != tc.complete {
				t.Errorf("complete %v, want %v", res.Complete, tc.complete)
			}
			if len(res.Findings) > 0 {
				f := res.Findings[0]
				if tc.line != 0 && f.Line != tc.line {
					t.Errorf("line %d, want %d", f.Line, tc.line)
				}
				if tc.col != 0 && f.Column != tc.col {
					t.Errorf("column %d, want %d", f.Column, tc.col)
				}
				if !strings.Contains(f.Message, tc.msgHas) {
					t.Errorf("message %q lacks %q", f.Message, tc.msgHas)
				}
				if f.Part != "p.xml" || f.Grade != Fatal {
					t.Errorf("part/grade %q %q", f.Part, f.Grade)
				}
			}
		})
	}
}

func TestScanLocatorAndExcerpt(t *testing.T) {
	in := `<w:document xmlns:w="urn:w"><w:body><w:tbl/><w:tbl><w:tr/><w:tr><w:tc/><w:tc><w:p><w:r><w:t>before` + "\x0c" + `after</w:t></w:r></w:p></w:tc></w:tr></w:tbl></w:body></w:document>`
	h := &recHandler{}
	res := ScanXML("word/document.xml", strings.NewReader(in), DefaultLimits(), h)
	if len(res.Findings) != 1 {
		t.Fatalf("findings %+v", res.Findings)
	}
	f := res.Findings[0]
	if want := "/w:document/w:body[1]/w:tbl[2]/w:tr[2]/w:tc[2]/w:p[1]/w:r[1]/w:t[1]"; f.Locator != want {
		t.Errorf("locator %q, want %q", f.Locator, want)
	}
	if !strings.Contains(f.Message, `<w:t>before\u000Cafter</w:t>`) {
		t.Errorf("excerpt missing in %q", f.Message)
	}
	if len(h.starts) != 11 {
		t.Errorf("handler saw %d starts", len(h.starts))
	}
}

func TestScanLimits(t *testing.T) {
	lim := DefaultLimits()
	lim.MaxDepth = 50
	deep := strings.Repeat("<a>", 100) + strings.Repeat("</a>", 100)
	res := ScanXML("d.xml", strings.NewReader(deep), lim, nil)
	if len(res.Findings) != 1 || res.Findings[0].Code != CodeXMLTooDeep {
		t.Fatalf("depth: %+v", res.Findings)
	}
	lim = DefaultLimits()
	lim.MaxTokenSize = 1000
	big := `<a b="` + strings.Repeat("x", 5000) + `"/>`
	res = ScanXML("t.xml", strings.NewReader(big), lim, nil)
	if len(res.Findings) != 1 || res.Findings[0].Code != CodeXMLTokenTooLarge {
		t.Fatalf("token: %+v", res.Findings)
	}
	many := "<a>" + strings.Repeat("\x01", 200) + "</a>"
	res = ScanXML("m.xml", strings.NewReader(many), DefaultLimits(), nil)
	if n := len(res.Findings); n != DefaultLimits().MaxFindingsPerCode+1 || res.Findings[n-1].Code != CodeXMLTooManyFindings {
		t.Fatalf("cap: %d findings, last %+v", n, res.Findings[n-1])
	}
}
