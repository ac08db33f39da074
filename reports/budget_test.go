package reports

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"image"
	"image/jpeg"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/editaudit/editaudit/audit"
	"github.com/editaudit/editaudit/formats"
)

// noisyJPEG is a w×h JPEG that looks like a page of text: lines of
// "words" (dark boxes with speckles), about 150–300 KB at 1568 px.
func noisyJPEG(t testing.TB, seed uint64, w, h int) []byte {
	t.Helper()
	img := image.NewGray(image.Rect(0, 0, w, h))
	for i := range img.Pix {
		img.Pix[i] = 255
	}
	r := rand.New(rand.NewPCG(seed, 7))
	for y := 40; y+14 < h-40; y += 22 {
		for x := 40; x < w-80; {
			ww := 20 + r.IntN(70)
			for yy := y; yy < y+14; yy++ {
				for xx := x; xx < min(x+ww, w-40); xx++ {
					img.Pix[yy*img.Stride+xx] = uint8(40 + (xx*7+yy*3)%50)
				}
			}
			x += ww + 8 + r.IntN(10)
		}
	}
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, img, &jpeg.Options{Quality: 85}); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

type modelOut struct {
	Content []struct {
		Type   string `json:"type"`
		Text   string `json:"text"`
		Source *struct {
			Data string `json:"data"`
		} `json:"source"`
	} `json:"content"`
}

func decodeBudgeted(t *testing.T, b []byte) (texts []string, images [][]byte) {
	t.Helper()
	var m modelOut
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	for _, c := range m.Content {
		if c.Type == "text" {
			texts = append(texts, c.Text)
			continue
		}
		img, err := base64.StdEncoding.DecodeString(c.Source.Data)
		if err != nil {
			t.Fatal(err)
		}
		images = append(images, img)
	}
	return texts, images
}

func shownResult(t *testing.T, n int) *audit.Result {
	r := &audit.Result{Schema: audit.Schema}
	r.Pages.Status = audit.PagesOK
	for i := 1; i <= n; i++ {
		r.Pages.Changed = append(r.Pages.Changed, audit.ChangedPage{Before: i, After: i, Ratio: 0.02})
		r.Pages.Shown = append(r.Pages.Shown, audit.ShownPage{Before: i, After: i, JPEG: noisyJPEG(t, uint64(i), 1400, 1000)})
	}
	r.Feedback = audit.Feedback(r, audit.FeedbackOptions{})
	return r
}

func TestModelBudget(t *testing.T) {
	r := shownResult(t, 6)
	size := len(r.Pages.Shown[0].JPEG)
	if size < 200<<10 {
		t.Fatalf("test images too small (%d bytes) to exercise the budget", size)
	}
	// The default budget holds all six.
	var b bytes.Buffer
	if err := WriteModel(&b, r); err != nil {
		t.Fatal(err)
	}
	texts, imgs := decodeBudgeted(t, b.Bytes())
	if b.Len() > 6*b64Len(size)+8<<10 {
		t.Fatalf("test images too large (%d bytes) to fit the default budget whole", size)
	}
	if len(imgs) != 6 || strings.Contains(strings.Join(texts, "\n"), "Limits:") || b.Len() > DefaultModelBytes {
		t.Errorf("default budget: %d images, %d bytes, texts %q", len(imgs), b.Len(), texts)
	}
	// Budgets of about 2.5 images and of about 1: images downscaled or
	// dropped, the output within the budget, the text says what was cut.
	for _, budget := range []int{b64Len(size)*5/2 + 8<<10, b64Len(size) + 8<<10} {
		b.Reset()
		if err := WriteModelWith(&b, r, ModelOptions{MaxBytes: budget}); err != nil {
			t.Fatal(err)
		}
		if b.Len() > budget {
			t.Errorf("output %d bytes over the budget %d", b.Len(), budget)
		}
		texts, imgs = decodeBudgeted(t, b.Bytes())
		note := texts[len(texts)-1]
		dropped := 0
		if i := strings.Index(note, " did not fit"); i > 0 {
			fmt.Sscanf(note[strings.Index(note, "; ")+2:], "%d", &dropped)
		}
		if !strings.HasPrefix(note, "Limits: ") || len(imgs) == 0 || len(imgs)+dropped != 6 || (dropped > 0 && !strings.Contains(note, "6)")) {
			t.Errorf("budget %d: %d images, %d dropped, note %q", budget, len(imgs), dropped, note)
		}
		if budget < 2*b64Len(size) && dropped == 0 {
			t.Errorf("budget %d: nothing dropped, note %q", budget, note)
		}
		for i, img := range imgs {
			cfg, err := jpeg.DecodeConfig(bytes.NewReader(img))
			if err != nil || max(cfg.Width, cfg.Height) < minImageSide {
				t.Errorf("image %d: %v %dx%d", i, err, cfg.Width, cfg.Height)
			}
		}
	}
	budget := b64Len(size)*5/2 + 8<<10
	b.Reset()
	if err := WriteModelWith(&b, r, ModelOptions{MaxBytes: budget}); err != nil {
		t.Fatal(err)
	}
	texts, imgs = decodeBudgeted(t, b.Bytes())
	// Every attached image has its caption before it: captions count
	// equals images.
	captions := 0
	for _, s := range texts {
		if strings.HasPrefix(s, "Page ") {
			captions++
		}
	}
	if captions != len(imgs) {
		t.Errorf("%d captions for %d images", captions, len(imgs))
	}
	// Same input, same bytes.
	var again bytes.Buffer
	if err := WriteModelWith(&again, r, ModelOptions{MaxBytes: budget}); err != nil || !bytes.Equal(again.Bytes(), b.Bytes()) {
		t.Errorf("not deterministic: %v", err)
	}
	// The input is not changed.
	if len(r.Pages.Shown[0].JPEG) != size {
		t.Error("WriteModelWith changed the result's images")
	}
}

func TestCheckPagesBudget(t *testing.T) {
	rep := &formats.Report{Path: "new.docx", Format: formats.DOCX, Counts: formats.Counts{"paragraphs": 90}}
	var pages []CheckPage
	for i := 1; i <= 4; i++ {
		pages = append(pages, CheckPage{Page: i, Total: 30, JPEG: noisyJPEG(t, uint64(i), 1100, 1500)})
	}
	// Rendered up to a cap of 4 pages of 30, budget for about one.
	budget := b64Len(len(pages[0].JPEG)) + 16<<10
	var b bytes.Buffer
	if err := WriteCheckModelWith(&b, rep, pages, 4, ModelOptions{MaxBytes: budget}); err != nil {
		t.Fatal(err)
	}
	texts, imgs := decodeBudgeted(t, b.Bytes())
	note := texts[len(texts)-1]
	if b.Len() > budget || len(imgs) < 1 || len(imgs) > 3 ||
		!strings.Contains(note, "the page cap (4) left out the last 26 pages") || !strings.Contains(note, "did not fit") ||
		!strings.Contains(texts[0], fmt.Sprintf("Pages: 1–%d of 30 attached below", len(imgs))) && !strings.Contains(texts[0], "Pages: 1 of 30 attached below") {
		t.Errorf("%d bytes (budget %d), %d images\nfeedback %q\nnote %q", b.Len(), budget, len(imgs), texts[0], note)
	}
	// HTML: the same fitting, and a notice saying so.
	b.Reset()
	if err := WriteCheckHTMLWith(&b, rep, pages, 4, ModelOptions{MaxBytes: budget}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "pages shown. Limits: ") || strings.Count(b.String(), "data:image/jpeg;base64,") != len(imgs) {
		t.Errorf("html: %d images, notice missing", strings.Count(b.String(), "data:image/jpeg;base64,"))
	}
	// All pages of a short file fit: no note.
	b.Reset()
	short := []CheckPage{{Page: 1, Total: 2, JPEG: pageImage(t, 1)}, {Page: 2, Total: 2, JPEG: pageImage(t, 2)}}
	if err := WriteCheckModelWith(&b, rep, short, DefaultCheckPages, ModelOptions{}); err != nil {
		t.Fatal(err)
	}
	texts, imgs = decodeBudgeted(t, b.Bytes())
	if len(imgs) != 2 || strings.Contains(b.String(), "Limits:") || !strings.Contains(texts[0], "Pages: all 2 attached") {
		t.Errorf("short file: %d images, %q", len(imgs), texts[0])
	}
}

// TestPageBlocks: the pages of a rendering as values, fitted like a
// check's: captions before images, the cap and the budget stated, and the
// whole as JSON within the budget; the blocks of an audit and a check are
// what their model writers write.
func TestPageBlocks(t *testing.T) {
	var pages []CheckPage
	for i := 1; i <= 3; i++ {
		pages = append(pages, CheckPage{Page: i, Total: 9, JPEG: noisyJPEG(t, uint64(i), 1100, 1500)})
	}
	budget := b64Len(len(pages[0].JPEG)) + 16<<10
	blocks, err := PageBlocks("deck.pptx: 9 pages.", pages, 3, ModelOptions{MaxBytes: budget})
	if err != nil {
		t.Fatal(err)
	}
	var images, size int
	for i, b := range blocks {
		if b.JPEG != nil {
			images++
			size += b64Len(len(b.JPEG))
			if blocks[i-1].Text != fmt.Sprintf("Page %d of 9, as rendered.", images) {
				t.Errorf("image %d follows %q", images, blocks[i-1].Text)
			}
		} else {
			size += len(b.Text)
		}
	}
	note := blocks[len(blocks)-1].Text
	if blocks[0].Text != "deck.pptx: 9 pages." || images < 1 || images > 2 || size > budget ||
		!strings.Contains(note, "the page cap (3) left out the last 6 pages") || !strings.Contains(note, "did not fit") {
		t.Errorf("%d images, %d bytes (budget %d), note %q", images, size, budget, note)
	}
	// An audit's blocks are what WriteModelWith writes.
	r := shownResult(t, 2)
	blocks, err = AuditBlocks(r, ModelOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := WriteModelWith(&b, r, ModelOptions{}); err != nil {
		t.Fatal(err)
	}
	texts, imgs := decodeBudgeted(t, b.Bytes())
	if len(blocks) != len(texts)+len(imgs) || blocks[0].Text != texts[0] || len(imgs) != 2 || !bytes.Equal(blocks[2].JPEG, imgs[0]) {
		t.Errorf("AuditBlocks: %d blocks, the writer %d texts and %d images", len(blocks), len(texts), len(imgs))
	}
}
