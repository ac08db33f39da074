package reports

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"

	"github.com/editaudit/editaudit/audit"
	"github.com/editaudit/editaudit/formats"
)

// contentBlock is one block of a model message (`--format model`, DESIGN.md
// "Model feedback"): {"type":"text","text":…} or
// {"type":"image","source":{"type":"base64","media_type":"image/jpeg","data":…}}.
type contentBlock struct {
	Type   string       `json:"type"`
	Text   string       `json:"text,omitempty"`
	Source *imageSource `json:"source,omitempty"`
}

type imageSource struct {
	Type      string `json:"type"`
	MediaType string `json:"media_type"`
	Data      string `json:"data"`
}

type modelMessage struct {
	Content []contentBlock `json:"content"`
}

func textBlock(s string) contentBlock { return contentBlock{Type: "text", Text: s} }

func jpegBlock(b []byte) contentBlock {
	return contentBlock{Type: "image", Source: &imageSource{
		Type: "base64", MediaType: "image/jpeg", Data: base64.StdEncoding.EncodeToString(b)}}
}

// Block is one block of model content, as values: a text, or a JPEG
// image when JPEG is set. `--format model` writes them as content blocks;
// editaudit mcp sends them as MCP text and image content.
type Block struct {
	Text string
	JPEG []byte
}

func textOf(s string) Block { return Block{Text: s} }

func jpegOf(b []byte) Block { return Block{JPEG: b} }

func writeModel(w io.Writer, blocks []Block) error {
	out := make([]contentBlock, len(blocks))
	for i, b := range blocks {
		if b.JPEG != nil {
			out[i] = jpegBlock(b.JPEG)
		} else {
			out[i] = textBlock(b.Text)
		}
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc.Encode(modelMessage{Content: out})
}

// WriteModel writes r as model content blocks (`--format model`) within
// the default byte budget: WriteModelWith with ModelOptions{}.
func WriteModel(w io.Writer, r *audit.Result) error {
	return WriteModelWith(w, r, ModelOptions{})
}

// WriteModelWith writes r as model content blocks: one text block with
// the feedback, then for each shown page a short text block saying what
// the image is ("Page 3 (edited) vs page 2 (original): before | after,
// changed regions outlined.") followed by the image as base64 JPEG. The
// whole output stays within opts.MaxBytes: images that do not fit are
// downscaled (not below 640 px on the long side), then dropped from the
// last, and a last text block says so ("Limits: …"). The images come from
// ShownPage.JPEG; a shown page without JPEG bytes is an error (call
// LoadImages first when the composites are only on disk). The output is
// one line of JSON.
func WriteModelWith(w io.Writer, r *audit.Result, opts ModelOptions) error {
	blocks, err := AuditBlocks(r, opts)
	if err != nil {
		return err
	}
	return writeModel(w, blocks)
}

// AuditBlocks returns the blocks WriteModelWith writes for r, as values:
// the feedback, a caption and an image for each shown page that fits the
// budget of opts, and the "Limits: …" note when something was cut.
func AuditBlocks(r *audit.Result, opts ModelOptions) ([]Block, error) {
	text := []contentBlock{textBlock(feedbackOf(r))}
	shown, captions, note, err := fitShown(r, text, opts)
	if err != nil {
		return nil, err
	}
	blocks := []Block{textOf(text[0].Text)}
	for i, s := range shown {
		blocks = append(blocks, textOf(captions[i]), jpegOf(s.JPEG))
	}
	if note != "" {
		blocks = append(blocks, textOf(note))
	}
	return blocks, nil
}

// LoadImages fills in ShownPage.JPEG of r's shown pages that have none from
// their Image file under outDir. Image must be a local relative path
// ("pages/p3.jpg"); anything that would leave outDir is an error.
func LoadImages(ctx context.Context, r *audit.Result, outDir string) error {
	for i := range r.Pages.Shown {
		s := &r.Pages.Shown[i]
		if len(s.JPEG) > 0 || s.Image == "" {
			continue
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		rel := filepath.FromSlash(s.Image)
		if !filepath.IsLocal(rel) {
			return fmt.Errorf("reports: shown page %s: image path %q is not inside the output folder", shownName(*s), s.Image)
		}
		b, err := os.ReadFile(filepath.Join(outDir, rel))
		if err != nil {
			return fmt.Errorf("reports: shown page %s: %w", shownName(*s), err)
		}
		s.JPEG = b
	}
	return nil
}

// shownName names a shown page in error messages: "3", "original 4".
func shownName(s audit.ShownPage) string {
	if s.After == 0 {
		return "original " + strconv.Itoa(s.Before)
	}
	return strconv.Itoa(s.After)
}

// CheckPage is one rendered page of a new file (`editaudit check --format
// model|html`): the first pages are attached so that a model that just wrote
// a file sees it.
type CheckPage struct {
	// Page is the 1-based page number.
	Page int
	// Total is the document's rendered page count (0: unknown); it lets the
	// report state that later pages were left out.
	Total int
	// JPEG is the page image.
	JPEG []byte
}

// WriteCheckModel writes the check of a new file as model content blocks
// within the default byte budget and no page cap of its own (the caller
// rendered the pages it wants attached): WriteCheckModelWith(w, rep,
// pages, 0, ModelOptions{}).
func WriteCheckModel(w io.Writer, rep *formats.Report, pages []CheckPage) error {
	return WriteCheckModelWith(w, rep, pages, 0, ModelOptions{})
}

// WriteCheckModelWith writes the check of a new file as model content
// blocks: one text block (verdict, findings with locations and fixes —
// capped and the cap stated — structure counts, which pages follow), then
// for each attached page a caption block and its JPEG, then, when the page
// cap (pageCap: the pages were rendered up to it) or the byte budget cut
// something, a "Limits: …" block saying what (FitCheckPages).
func WriteCheckModelWith(w io.Writer, rep *formats.Report, pages []CheckPage, pageCap int, opts ModelOptions) error {
	blocks, err := CheckBlocks(rep, pages, pageCap, opts)
	if err != nil {
		return err
	}
	return writeModel(w, blocks)
}

// CheckBlocks returns the blocks WriteCheckModelWith writes, as values.
func CheckBlocks(rep *formats.Report, pages []CheckPage, pageCap int, opts ModelOptions) ([]Block, error) {
	kept, note, err := FitCheckPages(rep, pages, pageCap, opts)
	if err != nil {
		return nil, err
	}
	return pageBlocks(checkFeedbackOf(rep, kept, pagesTotal(pages)), kept, note), nil
}

// PageBlocks is text followed by the pages of a document, each with its
// caption ("Page 3 of 12, as rendered."), fitted into the budget of opts
// and the page cap (pageCap, 0: none) as a check's pages are, and the
// "Limits: …" note when something was cut: what editaudit mcp's render
// tool returns.
func PageBlocks(text string, pages []CheckPage, pageCap int, opts ModelOptions) ([]Block, error) {
	kept, note, err := fitPages(blockBytes(textBlock(text)), pages, pageCap, opts)
	if err != nil {
		return nil, err
	}
	return pageBlocks(text, kept, note), nil
}

func pageBlocks(text string, kept []CheckPage, note string) []Block {
	blocks := []Block{textOf(text)}
	for _, p := range kept {
		blocks = append(blocks, textOf(audit.CheckPageCaption(p.Page, p.Total)), jpegOf(p.JPEG))
	}
	if note != "" {
		blocks = append(blocks, textOf(note))
	}
	return blocks
}

// checkFeedback is audit.CheckFeedback for the attached pages.
func checkFeedback(rep *formats.Report, pages []CheckPage) string {
	return checkFeedbackOf(rep, pages, pagesTotal(pages))
}

// checkFeedbackOf is audit.CheckFeedback for the attached pages of a
// document of total pages (0: unknown).
func checkFeedbackOf(rep *formats.Report, pages []CheckPage, total int) string {
	nums := make([]int, len(pages))
	for i, p := range pages {
		nums[i] = p.Page
	}
	return audit.CheckFeedback(rep, nums, total, audit.FeedbackOptions{})
}

// pagesTotal is the document's page count the pages carry (0: unknown).
func pagesTotal(pages []CheckPage) int {
	for _, p := range pages {
		if p.Total > 0 {
			return p.Total
		}
	}
	return 0
}
