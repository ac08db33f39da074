package hwpx_test

import (
	"bytes"
	"context"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/editaudit/editaudit/formats"
	"github.com/editaudit/editaudit/formats/hwpx"
	"github.com/editaudit/editaudit/internal/testdoc"
)

const (
	xmlDecl = `<?xml version="1.0" encoding="UTF-8" standalone="yes" ?>`
	nsAll   = `xmlns:hp="http://www.hancom.co.kr/hwpml/2011/paragraph" xmlns:hs="http://www.hancom.co.kr/hwpml/2011/section" xmlns:hh="http://www.hancom.co.kr/hwpml/2011/head" xmlns:hc="http://www.hancom.co.kr/hwpml/2011/core" xmlns:opf="http://www.idpf.org/2007/opf/"`
)

func container(rootfile string) string {
	return xmlDecl + `<ocf:container xmlns:ocf="urn:oasis:names:tc:opendocument:xmlns:container" xmlns:hpf="http://www.hancom.co.kr/schema/2011/hpf"><ocf:rootfiles>` +
		rootfile + `<ocf:rootfile full-path="Preview/PrvText.txt" media-type="text/plain"/></ocf:rootfiles></ocf:container>`
}

const goodRootfile = `<ocf:rootfile full-path="Contents/content.hpf" media-type="application/hwpml-package+xml"/>`

// hpf builds content.hpf; items are id=href pairs, spine the idrefs. The
// OPF namespace has Hancom's trailing slash unless ns is given.
func hpf(ns string, items []string, spine ...string) string {
	if ns == "" {
		ns = "http://www.idpf.org/2007/opf/"
	}
	var b strings.Builder
	b.WriteString(xmlDecl + `<opf:package xmlns:opf="` + ns + `" version="" unique-identifier="" id=""><opf:metadata><opf:title/></opf:metadata><opf:manifest>`)
	for _, it := range items {
		id, href, _ := strings.Cut(it, "=")
		b.WriteString(`<opf:item id="` + id + `" href="` + href + `" media-type="application/xml"/>`)
	}
	b.WriteString(`</opf:manifest><opf:spine>`)
	for _, s := range spine {
		b.WriteString(`<opf:itemref idref="` + s + `" linear="yes"/>`)
	}
	b.WriteString(`</opf:spine></opf:package>`)
	return b.String()
}

// header defines charPr 0..1, paraPr 0..1, style 0, borderFill 1..2;
// secCnt is omitted when "". Its hh:paraHead uses the "none" reference
// and one style points at a paraPr that does not exist, as in Hancom's own
// files (hwpxlib_SimpleTable.hwpx): neither may be reported.
func header(secCnt string) string {
	attr := ""
	if secCnt != "" {
		attr = ` secCnt="` + secCnt + `"`
	}
	return xmlDecl + `<hh:head ` + nsAll + ` version="1.4"` + attr + `><hh:beginNum page="1"/><hh:refList>` +
		`<hh:borderFills itemCnt="2"><hh:borderFill id="1"/><hh:borderFill id="2"/></hh:borderFills>` +
		`<hh:charProperties itemCnt="2"><hh:charPr id="0" borderFillIDRef="2"/><hh:charPr id="1" borderFillIDRef="2"/></hh:charProperties>` +
		`<hh:numberings itemCnt="1"><hh:numbering id="1"><hh:paraHead level="1" charPrIDRef="4294967295"/></hh:numbering></hh:numberings>` +
		`<hh:paraProperties itemCnt="2"><hh:paraPr id="0"/><hh:paraPr id="1"/></hh:paraProperties>` +
		`<hh:styles itemCnt="2"><hh:style id="0" paraPrIDRef="0" charPrIDRef="0"/><hh:style id="1" paraPrIDRef="6750318" charPrIDRef="0"/></hh:styles>` +
		`</hh:refList></hh:head>`
}

func para(text string) string {
	return `<hp:p id="1" paraPrIDRef="0" styleIDRef="0" pageBreak="0"><hp:run charPrIDRef="0"><hp:t>` + text + `</hp:t></hp:run></hp:p>`
}

// tbl is a rows×cols table whose cells hold cell.
func tbl(rows, cols int, cell string) string {
	var b strings.Builder
	b.WriteString(`<hp:p id="2" paraPrIDRef="1" styleIDRef="0"><hp:run charPrIDRef="1"><hp:tbl id="9" rowCnt="` + fmt.Sprint(rows) + `" colCnt="` + fmt.Sprint(cols) + `" borderFillIDRef="1">`)
	for r := 0; r < rows; r++ {
		b.WriteString(`<hp:tr>`)
		for c := 0; c < cols; c++ {
			b.WriteString(`<hp:tc borderFillIDRef="2"><hp:subList>` + cell + `</hp:subList></hp:tc>`)
		}
		b.WriteString(`</hp:tr>`)
	}
	b.WriteString(`</hp:tbl></hp:run></hp:p>`)
	return b.String()
}

func section(body string) string {
	return xmlDecl + `<hs:sec ` + nsAll + `>` + body + `</hs:sec>`
}

// doc is a healthy one-section document as Hancom lays it out.
func doc() map[string]string {
	return map[string]string{
		"mimetype":               formats.HWPXMimetype,
		"version.xml":            xmlDecl + `<hv:HCFVersion xmlns:hv="http://www.hancom.co.kr/hwpml/2011/version" tagetApplication="WORDPROCESSOR" major="5" minor="1" micro="0" buildNumber="1" os="1" xmlVersion="1.4"/>`,
		"Contents/header.xml":    header("1"),
		"Contents/section0.xml":  section(para("hello") + tbl(2, 2, para("cell"))),
		"settings.xml":           xmlDecl + `<ha:HWPApplicationSetting xmlns:ha="http://www.hancom.co.kr/hwpml/2011/app"/>`,
		"META-INF/container.xml": container(goodRootfile),
		"Contents/content.hpf":   hpf("", []string{"header=Contents/header.xml", "section0=Contents/section0.xml", "settings=settings.xml"}, "header", "section0"),
		"Preview/PrvText.txt":    "hello",
	}
}

// entryOrder is Hancom's zip order; other names follow sorted.
var entryOrder = []string{"mimetype", "version.xml", "Contents/header.xml", "Contents/section0.xml", "Contents/section1.xml", "Preview/PrvText.txt", "settings.xml", "META-INF/container.xml", "Contents/content.hpf"}

type zipOpts struct {
	mimetypeDeflated bool
	mimetypeLast     bool
	backslashes      bool
}

func zipOf(t testing.TB, parts map[string]string, o zipOpts) []byte {
	t.Helper()
	var names []string
	seen := map[string]bool{}
	for _, n := range entryOrder {
		if _, ok := parts[n]; ok {
			names = append(names, n)
			seen[n] = true
		}
	}
	var rest []string
	for n := range parts {
		if !seen[n] {
			rest = append(rest, n)
		}
	}
	sort.Strings(rest)
	names = append(names, rest...)
	if o.mimetypeLast && len(names) > 0 && names[0] == "mimetype" {
		names = append(names[1:], "mimetype")
	}
	ps := make([]testdoc.Part, 0, len(names))
	for _, n := range names {
		name := n
		if o.backslashes && strings.HasPrefix(n, "Contents/") {
			name = strings.ReplaceAll(n, "/", `\`)
		}
		ps = append(ps, testdoc.Part{Name: name, Data: parts[n], Store: n == "mimetype" && !o.mimetypeDeflated})
	}
	return testdoc.Zip(ps...)
}

// inspectBytes runs what inspect.Reader runs for an hwpx: open, the Hangul
// inspector, the core's remaining checks; findings sorted.
func inspectBytes(t testing.TB, data []byte) *formats.Report {
	t.Helper()
	ctx := context.Background()
	p, err := formats.Open(ctx, bytes.NewReader(data), int64(len(data)), "test.hwpx", formats.DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	if p.Format != formats.HWPX {
		t.Fatalf("detected %s, findings %v", p.Format, p.Findings())
	}
	rep := &formats.Report{Format: p.Format}
	if err := hwpx.Inspect(ctx, p, rep); err != nil {
		t.Fatal(err)
	}
	if err := p.ScanRest(ctx); err != nil {
		t.Fatal(err)
	}
	rep.Findings = append(rep.Findings, p.Findings()...)
	formats.Sort(rep.Findings)
	return rep
}

func find(rep *formats.Report, code string) []formats.Finding {
	var out []formats.Finding
	for _, f := range rep.Findings {
		if f.Code == code {
			out = append(out, f)
		}
	}
	return out
}

func TestHealthyDocumentHasNoFindings(t *testing.T) {
	rep := inspectBytes(t, zipOf(t, doc(), zipOpts{}))
	if len(rep.Findings) != 0 {
		t.Errorf("healthy document has findings: %v", rep.Findings)
	}
	want := formats.Counts{"sections": 1, "paragraphs": 1 + 1 + 4, "tables": 1}
	for k, v := range want {
		if rep.Counts[k] != v {
			t.Errorf("%s = %d, want %d", k, rep.Counts[k], v)
		}
	}
}

// TestChecks: each check triggered, and a near miss that must not be.
func TestChecks(t *testing.T) {
	set := func(part, data string) func(map[string]string) {
		return func(m map[string]string) { m[part] = data }
	}
	del := func(part string) func(map[string]string) {
		return func(m map[string]string) { delete(m, part) }
	}
	twoSections := func(m map[string]string) {
		m["Contents/section1.xml"] = section(para("second"))
		m["Contents/content.hpf"] = hpf("", []string{"header=Contents/header.xml", "section0=Contents/section0.xml", "section1=Contents/section1.xml"}, "header", "section0", "section1")
	}
	tests := []struct {
		name   string
		mutate func(map[string]string)
		opts   zipOpts
		code   string
		grade  formats.Grade // "" = must be absent
	}{
		{"mimetype missing", del("mimetype"), zipOpts{}, hwpx.CodeMimetypeMissing, formats.Fatal},
		{"mimetype with a newline", set("mimetype", formats.HWPXMimetype+"\n"), zipOpts{}, hwpx.CodeMimetypeContent, formats.Warning},
		{"mimetype of another type", set("mimetype", "application/epub+zip"), zipOpts{}, hwpx.CodeMimetypeContent, formats.Fatal},
		{"mimetype compressed", nil, zipOpts{mimetypeDeflated: true}, hwpx.CodeMimetypeLayout, formats.Warning},
		{"mimetype not first", nil, zipOpts{mimetypeLast: true}, hwpx.CodeMimetypeLayout, formats.Warning},
		{"near miss: Hancom layout", nil, zipOpts{}, hwpx.CodeMimetypeLayout, ""},
		{"container missing", del("META-INF/container.xml"), zipOpts{}, hwpx.CodeContainerMissing, formats.Fatal},
		{"container without the package rootfile", set("META-INF/container.xml", container("")), zipOpts{}, hwpx.CodeRootfile, formats.Fatal},
		{"rootfile target missing", set("META-INF/container.xml", container(`<ocf:rootfile full-path="Contents/package.hpf" media-type="application/hwpml-package+xml"/>`)), zipOpts{}, hwpx.CodeRootfile, formats.Fatal},
		{"rootfile media type not Hancom's", set("META-INF/container.xml", container(`<ocf:rootfile full-path="Contents/content.hpf" media-type="application/hwp+xml"/>`)), zipOpts{}, hwpx.CodeRootfile, formats.Warning},
		{"manifest item missing", set("Contents/content.hpf", hpf("", []string{"header=Contents/header.xml", "section0=Contents/section0.xml", "image1=BinData/image1.png"}, "header", "section0")), zipOpts{}, hwpx.CodeManifestItemMissing, formats.Fatal},
		{"linked item on the author's disk", set("Contents/content.hpf", strings.Replace(hpf("", []string{"header=Contents/header.xml", "section0=Contents/section0.xml"}, "header", "section0"),
			`</opf:manifest>`, `<opf:item id="v1" href="C:\Users\me\clip.avi" media-type="video/avi" isEmbeded="0"/></opf:manifest>`, 1)), zipOpts{}, hwpx.CodeLinkedItem, formats.Info},
		{"near miss: isEmbeded=0 on a part in the package", func(m map[string]string) {
			m["BinData/ole1.ole"] = "x"
			m["Contents/content.hpf"] = strings.Replace(m["Contents/content.hpf"], `</opf:manifest>`, `<opf:item id="ole1" href="BinData/ole1.ole" media-type="application/ole" isEmbeded="0"/></opf:manifest>`, 1)
		}, zipOpts{}, hwpx.CodeLinkedItem, ""},
		{"near miss: OPF namespace without slash, hrefs relative to content.hpf", set("Contents/content.hpf", hpf("http://www.idpf.org/2007/opf", []string{"header=header.xml", "section0=section0.xml"}, "header", "section0")), zipOpts{}, hwpx.CodeManifestItemMissing, ""},
		{"spine itemref to no item", set("Contents/content.hpf", hpf("", []string{"header=Contents/header.xml", "section0=Contents/section0.xml"}, "header", "section0", "section7")), zipOpts{}, hwpx.CodeSpineRefUndefined, formats.Fatal},
		{"header missing", func(m map[string]string) {
			delete(m, "Contents/header.xml")
			m["Contents/content.hpf"] = hpf("", []string{"section0=Contents/section0.xml"}, "section0")
		}, zipOpts{}, hwpx.CodeHeaderMissing, formats.Fatal},
		{"secCnt above the sections", set("Contents/header.xml", header("2")), zipOpts{}, hwpx.CodeSecCnt, formats.Fatal},
		{"secCnt below the sections", twoSections, zipOpts{}, hwpx.CodeSecCnt, formats.Error},
		{"near miss: two sections, secCnt 2", func(m map[string]string) { twoSections(m); m["Contents/header.xml"] = header("2") }, zipOpts{}, hwpx.CodeSecCnt, ""},
		{"secCnt missing", set("Contents/header.xml", header("")), zipOpts{}, hwpx.CodeSecCnt, formats.Warning},
		{"undefined charPrIDRef", set("Contents/section0.xml", section(strings.Replace(para("x"), `charPrIDRef="0"`, `charPrIDRef="7"`, 1))), zipOpts{}, hwpx.CodeUndefinedIDRef, formats.Fatal},
		{"undefined paraPrIDRef", set("Contents/section0.xml", section(strings.Replace(para("x"), `paraPrIDRef="0"`, `paraPrIDRef="9"`, 1))), zipOpts{}, hwpx.CodeUndefinedIDRef, formats.Fatal},
		{"undefined styleIDRef", set("Contents/section0.xml", section(strings.Replace(para("x"), `styleIDRef="0"`, `styleIDRef="3"`, 1))), zipOpts{}, hwpx.CodeUndefinedIDRef, formats.Fatal},
		{"undefined borderFillIDRef", set("Contents/section0.xml", section(strings.Replace(tbl(1, 1, para("x")), `borderFillIDRef="1"`, `borderFillIDRef="5"`, 1))), zipOpts{}, hwpx.CodeUndefinedIDRef, formats.Warning},
		{"near miss: the none reference 4294967295", set("Contents/section0.xml", section(strings.Replace(para("x"), `charPrIDRef="0"`, `charPrIDRef="4294967295"`, 1))), zipOpts{}, hwpx.CodeUndefinedIDRef, ""},
		{"section part left out of the spine", func(m map[string]string) { m["Contents/section1.xml"] = section(para("hidden")) }, zipOpts{}, hwpx.CodeSectionNotInSpine, formats.Warning},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := doc()
			if tc.mutate != nil {
				tc.mutate(m)
			}
			rep := inspectBytes(t, zipOf(t, m, tc.opts))
			got := find(rep, tc.code)
			if tc.grade == "" {
				if len(got) > 0 {
					t.Fatalf("near miss reported %v", got)
				}
				for _, f := range rep.Findings {
					if f.Grade.Rank() <= formats.Warning.Rank() {
						t.Errorf("near miss has %s", f)
					}
				}
				return
			}
			if len(got) != 1 {
				t.Fatalf("want one %s, got %v (all: %v)", tc.code, got, rep.Findings)
			}
			f := got[0]
			if f.Grade != tc.grade {
				t.Errorf("grade %s, want %s: %s", f.Grade, tc.grade, f)
			}
			if f.Part == "" || f.Message == "" || f.Fix == "" || f.Anchor == "" || strings.Contains(f.Anchor, "[") {
				t.Errorf("finding lacks part/message/fix/anchor or has a positional anchor: %+v", f)
			}
		})
	}
}

// TestUndefinedRefsOncePerValue: one finding per distinct undefined value,
// with the count, located at the first use.
func TestUndefinedRefsOncePerValue(t *testing.T) {
	m := doc()
	bad := strings.Replace(para("x"), `charPrIDRef="0"`, `charPrIDRef="7"`, 1)
	m["Contents/section0.xml"] = section(para("ok") + bad + bad + "\n" + bad)
	rep := inspectBytes(t, zipOf(t, m, zipOpts{}))
	got := find(rep, hwpx.CodeUndefinedIDRef)
	if len(got) != 1 || !strings.Contains(got[0].Message, "3 times") || got[0].Anchor != "charPrIDRef=7" || got[0].Line != 1 {
		t.Fatalf("got %+v", got)
	}
}

// TestCounts: sections follow the spine, nested tables and paragraphs in
// cells count, the header is not a section, and a package whose entry names
// use backslashes is still counted (the core flags the names).
func TestCounts(t *testing.T) {
	m := doc()
	nested := tbl(1, 2, para("a")+tbl(2, 1, para("b")))
	m["Contents/section1.xml"] = section(para("first") + nested)
	m["Contents/header.xml"] = header("2")
	m["Contents/content.hpf"] = hpf("", []string{"header=Contents/header.xml", "section0=Contents/section0.xml", "section1=Contents/section1.xml"}, "header", "section1", "section0")
	for _, back := range []bool{false, true} {
		rep := inspectBytes(t, zipOf(t, m, zipOpts{backslashes: back}))
		// section1: "first" + the outer table's paragraph + 2 cells × ("a"
		// + the inner table's paragraph + its 2 cells) = 10 paragraphs, 1 +
		// 2 tables; section0: 6 paragraphs, 1 table.
		want := formats.Counts{"sections": 2, "tables": 4, "paragraphs": 10 + 6}
		for k, v := range want {
			if rep.Counts[k] != v {
				t.Errorf("backslashes=%v: %s = %d, want %d", back, k, rep.Counts[k], v)
			}
		}
		if len(rep.Sites) != 2 || rep.Sites[0].Part != "Contents/section1.xml" || rep.Sites[0].Where != "section 1" || rep.Sites[0].Counts["tables"] != 3 || rep.Sites[0].Counts["paragraphs"] != 10 {
			t.Errorf("backslashes=%v: sites %+v", back, rep.Sites)
		}
		if back && len(find(rep, formats.CodeZipEntryName)) == 0 {
			t.Errorf("backslash names not flagged by the core")
		}
		if len(find(rep, hwpx.CodeSecCnt)) != 0 {
			t.Errorf("backslashes=%v: %v", back, rep.Findings)
		}
	}
}

// TestFallbackWithoutSpine: no content.hpf → Contents/section*.xml in
// natural order.
func TestFallbackWithoutSpine(t *testing.T) {
	m := doc()
	delete(m, "Contents/content.hpf")
	m["Contents/section10.xml"] = section(para("ten"))
	m["Contents/section2.xml"] = section(para("two") + para("two"))
	m["Contents/header.xml"] = header("3")
	rep := inspectBytes(t, zipOf(t, m, zipOpts{}))
	if rep.Counts["sections"] != 3 || len(rep.Sites) != 3 || rep.Sites[1].Part != "Contents/section2.xml" || rep.Sites[2].Part != "Contents/section10.xml" {
		t.Fatalf("counts %v sites %+v", rep.Counts, rep.Sites)
	}
	if len(find(rep, hwpx.CodeRootfile)) != 1 {
		t.Errorf("missing content.hpf not reported: %v", rep.Findings)
	}
}
