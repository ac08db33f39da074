package audit_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/editaudit/editaudit/audit"
	"github.com/editaudit/editaudit/baseline"
	"github.com/editaudit/editaudit/formats"
	"github.com/editaudit/editaudit/internal/testdoc"
	"github.com/editaudit/editaudit/render"
)

// A one-character XML break in a real document.xml: the part does not
// parse, so its counts are unknown — never reported as tables and
// paragraphs lost (before: "tables 9 → 1, paragraphs 724 → 48").
func TestBrokenPartNotCounted(t *testing.T) {
	orig, err := os.ReadFile(testdoc.CorpusFile(t, "docx/oxsdk_table-2007.docx"))
	if err != nil {
		t.Fatal(err)
	}
	edited := rewrite(t, orig, "word/document.xml", func(s string) string {
		i := strings.Index(s[len(s)/20:], "<w:p ") + len(s)/20
		return s[:i] + s[i+1:] // "<w:p …" → "w:p …": the markup no longer parses
	})
	res, _, _ := run(t, orig, edited, ".docx", audit.Options{})
	st := res.Structure
	if len(st.Shrunk) != 0 {
		t.Errorf("shrunk = %+v, want nothing: the counts of a part that did not parse are unknown", st.Shrunk)
	}
	if !st.Incomplete || !slices.Equal(st.NotCounted, []string{"word/document.xml"}) {
		t.Errorf("incomplete %v, not_counted %v; want true, [word/document.xml]", st.Incomplete, st.NotCounted)
	}
	for _, m := range []string{"tables", "paragraphs", "rows", "cells"} {
		if !slices.Contains(st.Unknown, m) {
			t.Errorf("unknown = %v, want %s in it", st.Unknown, m)
		}
	}
	if len(res.Original.NotCounted) != 0 || !slices.Equal(res.Edited.NotCounted, []string{"word/document.xml"}) {
		t.Errorf("original not_counted %v, edited %v", res.Original.NotCounted, res.Edited.NotCounted)
	}
	want := "Structure: not counted: word/document.xml did not parse (edited file), so cells, nested_tables, paragraphs, rows, tables are unknown and not compared."
	if !strings.Contains(res.Feedback, want) {
		t.Errorf("feedback lacks %q:\n%s", want, res.Feedback)
	}
	if strings.Contains(res.Feedback, "shrank") || strings.Contains(res.Feedback, "→") {
		t.Errorf("feedback reports a loss:\n%s", res.Feedback)
	}

	t.Run("swapped sides", func(t *testing.T) {
		res, _, _ := run(t, edited, orig, ".docx", audit.Options{})
		if len(res.Structure.Shrunk) != 0 || !slices.Equal(res.Original.NotCounted, []string{"word/document.xml"}) {
			t.Errorf("shrunk %+v, original not_counted %v", res.Structure.Shrunk, res.Original.NotCounted)
		}
		if !strings.Contains(res.Feedback, "word/document.xml did not parse (original)") {
			t.Errorf("feedback:\n%s", res.Feedback)
		}
	})
}

// A broken slide makes its own metrics unknown (paragraphs, runs,
// tables) but not the slide count: a slide deleted beside it is still
// reported lost.
func TestBrokenSlideKeepsOtherMetrics(t *testing.T) {
	orig, err := os.ReadFile(testdoc.CorpusFile(t, "pptx/oxsdk_typical-deck.pptx"))
	if err != nil {
		t.Fatal(err)
	}
	edited := rewrite(t, orig, "ppt/slides/slide2.xml", func(s string) string {
		return strings.Replace(s, "<a:t>", "<a:t", 1)
	})
	// Delete the last slide from the slide list.
	edited = rewrite(t, edited, "ppt/presentation.xml", func(s string) string {
		i := strings.LastIndex(s, "<p:sldId ")
		j := strings.Index(s[i:], "/>") + i + 2
		return s[:i] + s[j:]
	})
	res, _, _ := run(t, orig, edited, ".pptx", audit.Options{})
	st := res.Structure
	if !slices.Equal(st.NotCounted, []string{"ppt/slides/slide2.xml"}) {
		t.Fatalf("not_counted = %v", st.NotCounted)
	}
	if !slices.Equal(st.Unknown, []string{"paragraphs", "runs", "tables"}) {
		t.Errorf("unknown = %v, want [paragraphs runs tables]", st.Unknown)
	}
	// The deleted slide had speaker notes: notes and slides went down.
	var got []string
	for _, sh := range st.Shrunk {
		got = append(got, sh.Metric)
	}
	if !slices.Equal(got, []string{"notes", "slides"}) {
		t.Errorf("shrunk = %+v, want notes and slides", st.Shrunk)
	}
	for _, w := range []string{"ppt/slides/slide2.xml did not parse (edited file), so paragraphs, runs, tables are unknown", "- slides 15 → 14"} {
		if !strings.Contains(res.Feedback, w) {
			t.Errorf("feedback lacks %q:\n%s", w, res.Feedback)
		}
	}
}

// Snapshots are stored by content, but package.extension-mismatch depends
// on the name: the same bytes snapshotted as x.dotx and audited as x.docx
// must carry the mismatch on the original side too (it is not the edit's).
func TestCachedSnapshotFollowsName(t *testing.T) {
	src := testdoc.CorpusFile(t, "docx/oxsdk_EquityFax.dotx")
	orig, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	st, err := baseline.OpenStore(filepath.Join(dir, "store"))
	if err != nil {
		t.Fatal(err)
	}
	asTemplate := write(t, dir, "x.dotx", orig)
	snap, _, err := st.Snapshot(context.Background(), asTemplate, formatsSHA(orig), baseline.Options{Data: orig})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range snap.Report.Findings {
		if f.Code == formats.CodeExtensionMismatch {
			t.Fatalf("a .dotx named .dotx has %s", f.Code)
		}
	}
	edited := rewrite(t, orig, "word/document.xml", func(s string) string {
		return strings.Replace(s, "<w:t>", "<w:t>Edited ", 1)
	})
	o := write(t, dir, "x.docx", orig)
	e := write(t, dir, "y.docx", edited)
	res, err := audit.Files(context.Background(), o, e, audit.Options{Store: st})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range res.NewFindings {
		if f.Code == formats.CodeExtensionMismatch {
			t.Errorf("the mismatch of the original's own name is reported as new: %s", f)
		}
	}
	if res.Blocked || res.Preexisting.Fatal != 1 {
		t.Errorf("blocked %v, preexisting %+v: want not blocked, the mismatch counted as the original's", res.Blocked, res.Preexisting)
	}
	if !strings.HasSuffix(res.Original.Path, "x.docx") {
		t.Errorf("original path %s", res.Original.Path)
	}
}

// convCounter is a Converter that counts conversions and delegates them.
type convCounter struct {
	render.Converter
	n atomic.Int64
}

func (c *convCounter) ConvertPDF(ctx context.Context, doc string) (string, error) {
	c.n.Add(1)
	return c.Converter.ConvertPDF(ctx, doc)
}

// A byte-identical edit is not rendered or compared: pages ok, nothing
// changed, "identical to the original" — and with the original's pages in
// the store, their count is known.
func TestIdenticalShortCircuit(t *testing.T) {
	r := needRenderer(t)
	orig := synthDoc(t, "contract.json")
	cc := &convCounter{Converter: r.Converter}
	rr := &render.Renderer{Converter: cc, Raster: r.Raster}
	dir := t.TempDir()
	st, err := baseline.OpenStore(filepath.Join(dir, "store"))
	if err != nil {
		t.Fatal(err)
	}
	o := write(t, dir, "o.docx", orig)
	e := write(t, dir, "e.docx", orig)
	res, err := audit.Files(context.Background(), o, e, audit.Options{Render: audit.RenderAuto, Renderer: rr, Store: st})
	if err != nil {
		t.Fatal(err)
	}
	p := res.Pages
	if cc.n.Load() != 0 {
		t.Errorf("%d conversions for an identical file, want 0", cc.n.Load())
	}
	if p.Status != audit.PagesOK || !p.Identical || len(p.Changed)+len(p.Inserted)+len(p.Deleted)+len(p.Reflowed) != 0 {
		t.Errorf("pages = %+v", p)
	}
	want := "Pages: identical to the original (the edited file is byte-identical): nothing was rendered or compared, no page changed."
	if !strings.Contains(res.Feedback, want) || res.Blocked || len(res.NewFindings) != 0 {
		t.Errorf("feedback:\n%s", res.Feedback)
	}
	// Once the original is in the store (an audit of a real edit put it
	// there), an identical edit reports its page count, still without a
	// conversion.
	if _, err := audit.Files(context.Background(), o, write(t, dir, "e2.docx", mutateDoc(t, "docx.word-replaced", orig)), audit.Options{Render: audit.RenderAuto, Renderer: rr, Store: st}); err != nil {
		t.Fatal(err)
	}
	before := cc.n.Load()
	res, err = audit.Files(context.Background(), o, e, audit.Options{Render: audit.RenderAuto, Renderer: rr, Store: st})
	if err != nil {
		t.Fatal(err)
	}
	if cc.n.Load() != before || !res.Pages.Identical || res.Pages.Before == 0 || res.Pages.Before != res.Pages.After || res.Original.Pages != res.Pages.Before {
		t.Errorf("conversions %d → %d, pages %+v", before, cc.n.Load(), res.Pages)
	}
}

// insertAt inserts ins into part at the start of the paragraph holding
// anchor (its <w:p …> start tag end, after its properties when asked).
func paragraphStart(t *testing.T, s, anchor string) int {
	t.Helper()
	k := strings.Index(s, anchor)
	if k < 0 {
		t.Fatalf("anchor %q not found", anchor)
	}
	p := strings.LastIndex(s[:k], "<w:p ")
	if q := strings.LastIndex(s[:k], "<w:p>"); q > p {
		p = q
	}
	if p < 0 {
		t.Fatalf("no paragraph before %q", anchor)
	}
	return p
}

// paragraphEnd is the index just past the paragraph that starts at p.
func paragraphEnd(t *testing.T, s string, p int) int {
	t.Helper()
	depth := 0
	for i := p; i < len(s); {
		switch {
		case strings.HasPrefix(s[i:], "<w:p>") || strings.HasPrefix(s[i:], "<w:p "):
			depth++
			i += 4
		case strings.HasPrefix(s[i:], "</w:p>"):
			depth--
			i += 6
			if depth == 0 {
				return i
			}
		default:
			i++
		}
	}
	t.Fatalf("paragraph at %d does not end", p)
	return 0
}

const pageBreakPara = `<w:p><w:r><w:br w:type="page"/></w:r></w:p>`

type storyCase struct {
	name, src string
	edit      func(t *testing.T, orig []byte) []byte
	// inserted and deleted are the pages the story must name, exactly.
	inserted, deleted []int
	check             func(t *testing.T, res *audit.Result)
	// pixelNoise: check depends on how the rasterizer draws glyphs, and
	// is only run with the default one (pdftoppm).
	pixelNoise bool
}

func storyCases() []storyCase {
	docx := func(fn func(t *testing.T, s string) string) func(*testing.T, []byte) []byte {
		return func(t *testing.T, b []byte) []byte {
			return rewrite(t, b, "word/document.xml", func(s string) string { return fn(t, s) })
		}
	}
	return []storyCase{
		{name: "page break before page 2", src: "docx/poi_stress023.docx",
			// Page 2 starts inside the paragraph holding this text: the
			// break before it moves that paragraph's head from page 1.
			edit: docx(func(t *testing.T, s string) string {
				p := paragraphStart(t, s, "existing unit or structure by more than ten percent")
				return s[:p] + pageBreakPara + s[p:]
			}),
			check: storyCheck([]string{"1"}, nil, nil, 1, "- changed: 1.\n- reflowed: 1–10 (pushed by the change on page 1)."),
		},
		{name: "cover page before a ruled form", src: "docx/oxsdk_consumer-confidence-report.docx",
			edit: docx(func(t *testing.T, s string) string {
				k := strings.Index(s, "<w:body>") + len("<w:body>")
				cover := `<w:p><w:pPr><w:jc w:val="center"/></w:pPr><w:r><w:rPr><w:sz w:val="56"/></w:rPr><w:t>Lake Berryessa Water Quality</w:t></w:r></w:p>` +
					`<w:p><w:pPr><w:jc w:val="center"/></w:pPr><w:r><w:t>Prepared for the customers of the marina, June 2004</w:t></w:r></w:p>`
				return s[:k] + cover + pageBreakPara + s[k:]
			}), inserted: []int{1},
			// The form's old first page gets the running header of the
			// later pages and pushes its content down until a page break
			// of the form catches it up; the pages after it are renumbered.
			check: storyCheck(nil, []string{"5 (was 4)", "6 (was 5)", "7 (was 6)"}, nil, 1,
				"- inserted: 1.\n- reflowed: 2–4 (original pages 1–3; pushed by the page inserted at 1)."),
		},
		{name: "deleted paragraph", src: "docx/poi_stress023.docx",
			edit: docx(func(t *testing.T, s string) string {
				// Item A of 18.33.010, three lines on page 1.
				p := paragraphStart(t, s, "Increase the supply of smaller units")
				return s[:p] + s[paragraphEnd(t, s, p):]
			}),
			check: storyCheck([]string{"1"}, nil, nil, 1, "- changed: 1.\n- reflowed: 1–9 (pushed by the change on page 1)."),
		},
		{name: "removed image", src: "docx/docx4j_sample-docx.docx",
			edit: docx(func(t *testing.T, s string) string {
				k := strings.Index(s, "<w:drawing")
				r := strings.LastIndex(s[:k], "<w:r>")
				if r2 := strings.LastIndex(s[:k], "<w:r "); r2 > r {
					r = r2
				}
				e := strings.Index(s[k:], "</w:r>") + k + len("</w:r>")
				return s[:r] + s[e:]
			}),
			// One page fewer: the content of original pages 2–4 now fits
			// on pages 2–3; none of it is deleted.
			check: storyCheck([]string{"2"}, nil, nil, 1, "Pages: 5 before, 4 after:\n- changed: 2.\n- reflowed: 2–3 (original pages 2–4; pushed by the change on page 2)."),
		},
		// The slide titles of this deck sit in the same place on every
		// slide, and the pixel rule takes them for a running header (a
		// 93-row top band); their words differ from slide to slide, so
		// the band is refused and a title edit is a content change.
		{name: "slide title edited", src: "pptx/poi_real-deck-HowWeRefactor.pptx",
			edit: func(t *testing.T, b []byte) []byte {
				return rewrite(t, b, "ppt/slides/slide3.xml", func(s string) string {
					return strings.Replace(s, "Introduction to Refactoring", "Refactoring in Practice", 1)
				})
			},
			check: storyCheck([]string{"3"}, nil, nil, 0, "Pages: 28 before, 28 after:\n- changed: 3."),
		},
		{name: "running header edited", src: "docx/poi_stress023.docx",
			edit: func(t *testing.T, b []byte) []byte {
				// The header on every page: "ATTACHMENT 2 / EXHIBIT A".
				return rewrite(t, b, "word/header2.xml", func(s string) string { return strings.Replace(s, "EXHIBIT", "SCHEDULE", 1) })
			},
			check: func(t *testing.T, res *audit.Result) {
				content, margins, moved := res.Pages.ChangeKinds()
				if len(content)+len(moved) != 0 || len(margins) != 16 {
					t.Errorf("content %v, margins-only %d, moved %v: want every page header-only", content, len(margins), moved)
				}
			},
		},
		{name: "swapped slides", src: "pptx/oxsdk_typical-deck.pptx",
			edit: func(t *testing.T, b []byte) []byte {
				return rewrite(t, b, "ppt/presentation.xml", func(s string) string {
					return strings.Replace(s, `<p:sldId id="261" r:id="rId3"/><p:sldId id="257" r:id="rId4"/>`, `<p:sldId id="257" r:id="rId4"/><p:sldId id="261" r:id="rId3"/>`, 1)
				})
			},
			check: storyCheck(nil, nil, []string{"2 (was 3)", "3 (was 2)"}, 0, "- moved, unchanged: 2 (was 3), 3 (was 2)."),
		},
		// A page break at the very top of a ruled form with a different
		// first page: a blank first page, the old first page moved under
		// the running header (with mutool's quarter-pixel glyphs its
		// pixel lines no longer match, docs/rendering.md: its text does).
		{name: "page break at the top of a ruled form", src: "docx/oxsdk_consumer-confidence-report.docx",
			edit: docx(func(t *testing.T, s string) string {
				k := strings.Index(s, "<w:body>") + len("<w:body>")
				return s[:k] + pageBreakPara + s[k:]
			}), inserted: []int{1},
			check: storyCheck(nil, []string{"5 (was 4)", "6 (was 5)", "7 (was 6)"}, nil, 1,
				"- inserted: 1.\n- reflowed: 2–4 (original pages 1–3; pushed by the page inserted at 1)."),
		},
		// A table row deleted (the corpus mutation). MuPDF places a few
		// glyphs of untouched pages a fraction of a pixel apart: with
		// mutool pages 9 and 16 come out changed (the alignment is the
		// same; the pixel comparison of the paired pages is not).
		{name: "table row deleted", src: "docx/oxsdk_table-2007.docx",
			edit:       func(t *testing.T, b []byte) []byte { return mutateDoc(t, "docx.row-deleted", b) },
			pixelNoise: true,
			check:      storyCheck([]string{"2"}, nil, nil, 1, "- changed: 2.\n- reflowed: 2–4 (pushed by the change on page 2)."),
		},
		{name: "slide deleted", src: "pptx/oxsdk_typical-deck.pptx",
			edit: func(t *testing.T, b []byte) []byte {
				return rewrite(t, b, "ppt/presentation.xml", func(s string) string {
					return strings.Replace(s, `<p:sldId id="261" r:id="rId3"/>`, ``, 1)
				})
			},
			deleted: []int{2},
			check:   storyCheck(nil, nil, nil, 0, "- deleted (original numbering): 2."),
		},
	}
}

// Stories of real edits of real documents, rendered with LibreOffice: the
// pages named inserted and deleted are exactly those, the rest is
// reflow, and the feedback says so.
//
// EDITAUDIT_STORY_RASTERIZER=mutool runs them with MuPDF drawing the pages
// instead of poppler (the measurement in docs/rendering.md "Which rasterizer").
func TestPageStories(t *testing.T) {
	r := needRenderer(t)
	mutool := os.Getenv("EDITAUDIT_STORY_RASTERIZER") == "mutool"
	if mutool {
		r = &render.Renderer{Converter: r.Converter, Raster: render.NewMutool()}
	}
	for _, tc := range storyCases() {
		t.Run(tc.name, func(t *testing.T) {
			orig, err := os.ReadFile(testdoc.CorpusFile(t, tc.src))
			if err != nil {
				t.Fatal(err)
			}
			edited := tc.edit(t, orig)
			res, _, _ := run(t, orig, edited, filepath.Ext(tc.src), audit.Options{Render: audit.RenderOn, Renderer: r, Show: -1})
			p := res.Pages
			t.Logf("%s\n%s", tc.name, res.Feedback)
			t.Logf("pages %+v", p)
			if p.Status != audit.PagesOK {
				t.Fatalf("pages %s: %s", p.Status, p.Message)
			}
			if !slices.Equal(p.Inserted, nonNilInts(tc.inserted)) || !slices.Equal(p.Deleted, nonNilInts(tc.deleted)) {
				t.Errorf("inserted %v deleted %v, want %v %v", p.Inserted, p.Deleted, tc.inserted, tc.deleted)
			}
			if tc.check != nil && !(mutool && tc.pixelNoise) {
				tc.check(t, res)
			}
		})
	}
}

func nonNilInts(s []int) []int {
	if s == nil {
		return []int{}
	}
	return s
}

// storyCheck checks a story beyond its inserted and deleted pages: the
// content-changed, header-only and moved pages (named as the feedback
// names them, "3 (was 2)"), the number of reflow runs, and a passage of the
// feedback.
func storyCheck(content, margins, moved []string, runs int, feedback string) func(*testing.T, *audit.Result) {
	return func(t *testing.T, res *audit.Result) {
		t.Helper()
		name := func(cs []audit.ChangedPage) []string {
			out := []string{}
			for _, c := range cs {
				if c.Before == c.After {
					out = append(out, strconv.Itoa(c.After))
				} else {
					out = append(out, fmt.Sprintf("%d (was %d)", c.After, c.Before))
				}
			}
			return out
		}
		c, m, mv := res.Pages.ChangeKinds()
		if !slices.Equal(name(c), nonNilStrings(content)) || !slices.Equal(name(m), nonNilStrings(margins)) || !slices.Equal(name(mv), nonNilStrings(moved)) {
			t.Errorf("changed %v, header-only %v, moved %v; want %v, %v, %v", name(c), name(m), name(mv), content, margins, moved)
		}
		if len(res.Pages.Reflowed) != runs {
			t.Errorf("reflow runs %+v, want %d", res.Pages.Reflowed, runs)
		}
		if !strings.Contains(res.Feedback, feedback) {
			t.Errorf("feedback lacks %q", feedback)
		}
	}
}

func nonNilStrings(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
