package audit_test

import (
	"archive/zip"
	"bytes"
	"io"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/editaudit/editaudit/audit"
	"github.com/editaudit/editaudit/internal/testdoc"
	"github.com/editaudit/editaudit/render"
)

// Hangul pages (docs/rendering.md, "Hangul (.hwpx) pages"): a real Hancom
// document is rendered through
// editaudit's HWPX converter, so its edits get before/after pages like the
// other formats, and the output says once that the layout is an
// approximation.

// bidNotice is a real procurement bid notice of the corpus: one section,
// 19 tables, template fields such as {{수요기관}} in table cells.
func bidNotice(t *testing.T) []byte {
	t.Helper()
	b, err := os.ReadFile(testdoc.CorpusFile(t, "hwpx/hwpxfill_bid_notice.hwpx"))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// rezipHWPX rewrites parts by edit (nil: unchanged) and appends extra
// parts, keeping the stored mimetype entry first, as Hancom writes it.
func rezipHWPX(t *testing.T, in []byte, edit map[string]func(string) string, extra ...testdoc.Part) []byte {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(in), int64(len(in)))
	if err != nil {
		t.Fatal(err)
	}
	var parts []testdoc.Part
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatal(err)
		}
		s := string(b)
		if fn := edit[f.Name]; fn != nil {
			ns := fn(s)
			if ns == s {
				t.Fatalf("edit of %s changed nothing", f.Name)
			}
			s = ns
		}
		parts = append(parts, testdoc.Part{Name: f.Name, Data: s, Store: f.Method == zip.Store})
	}
	return testdoc.Zip(append(parts, extra...)...)
}

func TestHWPXPages(t *testing.T) {
	r := needRenderer(t)
	orig := bidNotice(t)
	opts := audit.Options{Render: audit.RenderOn, Renderer: r}

	t.Run("identical", func(t *testing.T) {
		// Byte-identical: nothing rendered (the short-circuit).
		if res, _, _ := run(t, orig, orig, ".hwpx", opts); !res.Pages.Identical || len(res.Pages.Changed) != 0 {
			t.Errorf("byte-identical pages %+v", res.Pages)
		}
		// The same content in other bytes (a newline after the root): both
		// rendered, no page differs.
		same := rezipHWPX(t, orig, map[string]func(string) string{
			"Contents/section0.xml": func(s string) string { return s + "\n" },
		})
		res, _, _ := run(t, orig, same, ".hwpx", opts)
		p := res.Pages
		if p.Status != audit.PagesOK || p.Before == 0 || p.Before != p.After || len(p.Changed)+len(p.Inserted)+len(p.Deleted)+len(p.Reflowed) != 0 {
			t.Fatalf("pages %+v", p)
		}
		if p.Notice != render.HWPXNotice || !strings.Contains(res.Feedback, render.HWPXNotice) {
			t.Errorf("notice %q; feedback:\n%s", p.Notice, res.Feedback)
		}
	})

	t.Run("table cell filled", func(t *testing.T) {
		// A template field in a table cell filled in, as a form-filling
		// script does: one page changes, nothing else.
		edited := rezipHWPX(t, orig, map[string]func(string) string{
			"Contents/section0.xml": func(s string) string {
				return strings.Replace(s, "<hp:t>{{수요기관}}</hp:t>", "<hp:t>서울특별시교육청 교육연구정보원</hp:t>", 1)
			},
		})
		res, _, _ := run(t, orig, edited, ".hwpx", opts)
		p := res.Pages
		if p.Status != audit.PagesOK || len(p.Changed) != 1 || len(p.Inserted) != 0 || len(p.Deleted) != 0 {
			t.Fatalf("pages %+v\n%s", p, res.Feedback)
		}
		if c := p.Changed[0]; c.Before != c.After || len(c.Boxes) == 0 || c.MarginsOnly {
			t.Errorf("changed %+v", c)
		}
		if len(p.Shown) != 1 || len(p.Shown[0].JPEG) == 0 && p.Shown[0].Image == "" {
			t.Errorf("shown %+v", p.Shown)
		}
		if p.Notice != render.HWPXNotice || !strings.Contains(res.Feedback, render.HWPXNotice) {
			t.Errorf("notice %q; feedback:\n%s", p.Notice, res.Feedback)
		}
		t.Logf("feedback:\n%s", res.Feedback)
	})

	t.Run("section inserted", func(t *testing.T) {
		// A second section appended (it starts on a new page): its pages are
		// inserted after the original's, the original's pages unchanged.
		sec := string(readPart(t, orig, "Contents/section0.xml"))
		head := sec[:strings.Index(sec, "<hp:p ")]
		secPr := regexp.MustCompile(`(?s)<hp:secPr\b.*?</hp:secPr>`).FindString(sec)
		if secPr == "" {
			t.Fatal("no secPr in section0")
		}
		var b strings.Builder
		b.WriteString(head)
		b.WriteString(`<hp:p id="0" paraPrIDRef="0" styleIDRef="0" pageBreak="0" columnBreak="0" merged="0"><hp:run charPrIDRef="0">` + secPr + `<hp:t>부록: 새로 추가된 절</hp:t></hp:run></hp:p>`)
		for i := 0; i < 12; i++ {
			b.WriteString(`<hp:p id="0" paraPrIDRef="0" styleIDRef="0" pageBreak="0" columnBreak="0" merged="0"><hp:run charPrIDRef="0"><hp:t>이 절은 편집으로 새로 추가되었습니다. 원래 문서의 쪽은 그대로입니다.</hp:t></hp:run></hp:p>`)
		}
		b.WriteString(`</hs:sec>`)
		edited := rezipHWPX(t, orig, map[string]func(string) string{
			"Contents/content.hpf": func(s string) string {
				s = strings.Replace(s, `<opf:item id="section0" href="Contents/section0.xml" media-type="application/xml"/>`,
					`<opf:item id="section0" href="Contents/section0.xml" media-type="application/xml"/><opf:item id="section1" href="Contents/section1.xml" media-type="application/xml"/>`, 1)
				return strings.Replace(s, `<opf:itemref idref="section0" linear="yes"/>`, `<opf:itemref idref="section0" linear="yes"/><opf:itemref idref="section1" linear="yes"/>`, 1)
			},
			"Contents/header.xml": func(s string) string { return strings.Replace(s, `secCnt="1"`, `secCnt="2"`, 1) },
		}, testdoc.Part{Name: "Contents/section1.xml", Data: b.String()})
		res, _, _ := run(t, orig, edited, ".hwpx", opts)
		if len(res.NewFindings) != 0 {
			t.Errorf("new findings: %v", res.NewFindings)
		}
		p := res.Pages
		if p.Status != audit.PagesOK || p.After <= p.Before || len(p.Deleted) != 0 {
			t.Fatalf("pages %+v\n%s", p, res.Feedback)
		}
		want := map[int]bool{}
		for n := p.Before + 1; n <= p.After; n++ {
			want[n] = true
		}
		if len(p.Inserted) != len(want) {
			t.Errorf("inserted %v, want pages %d–%d", p.Inserted, p.Before+1, p.After)
		}
		for _, n := range p.Inserted {
			if !want[n] {
				t.Errorf("inserted %v, want pages %d–%d", p.Inserted, p.Before+1, p.After)
			}
		}
		for _, c := range p.Changed {
			if !c.MarginsOnly {
				t.Errorf("original page changed: %+v", c)
			}
		}
		t.Logf("feedback:\n%s", res.Feedback)
	})
}

func readPart(t *testing.T, in []byte, name string) []byte {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(in), int64(len(in)))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range zr.File {
		if f.Name == name {
			rc, err := f.Open()
			if err != nil {
				t.Fatal(err)
			}
			defer rc.Close()
			b, err := io.ReadAll(rc)
			if err != nil {
				t.Fatal(err)
			}
			return b
		}
	}
	t.Fatalf("no part %s", name)
	return nil
}
