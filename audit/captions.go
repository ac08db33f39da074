package audit

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/editaudit/editaudit/internal/plural"
)

// ShownCaption says what the image of a shown page is, for people and
// models: "Page 3 (edited) vs page 2 (original): before | after, changed
// regions outlined; 1.3% of the page changed." Inserted and deleted pages
// say so. It describes the composite drawn by the audit (drawShown).
func ShownCaption(r *Result, s ShownPage) string {
	switch {
	case s.Before == 0:
		return fmt.Sprintf("Page %d (edited), inserted: it has no original page.", s.After)
	case s.After == 0:
		return fmt.Sprintf("Page %d (original), deleted: it is not in the edited file.", s.Before)
	}
	c := fmt.Sprintf("Page %d (edited) vs page %d (original): before | after, changed regions outlined", s.After, s.Before)
	if ch, ok := r.Pages.ChangedOf(s); ok {
		if ch.MarginsOnly {
			c += "; only the header/footer bands changed"
		}
		if ch.Ratio > 0 {
			c += "; " + percent(ch.Ratio) + " of the page changed"
		}
	}
	return c + "."
}

// CheckPageCaption says what an attached page of a check is: "Page 2 of
// 12, as rendered." (total 0: unknown).
func CheckPageCaption(page, total int) string {
	if total > 0 {
		return fmt.Sprintf("Page %d of %d, as rendered.", page, total)
	}
	return fmt.Sprintf("Page %d, as rendered.", page)
}

// percent formats a 0..1 ratio: "1.3%", "<0.1%".
func percent(r float64) string {
	if r < 0.001 {
		return "<0.1%"
	}
	return strconv.FormatFloat(r*100, 'f', 1, 64) + "%"
}

// ImageBudget is how the page images of a model message were fitted into
// its byte budget (`--format model`, `check --format model|html`).
type ImageBudget struct {
	// MaxBytes is the budget of the whole output; PageCap the page cap of
	// a check (0: none).
	MaxBytes int
	PageCap  int
	// Offered is the number of images there were to attach (for a check:
	// within the page cap); Attached how many are attached, Downscaled how
	// many of those were made smaller to fit.
	Offered, Attached, Downscaled int
	// Dropped names the images left out by the budget ("page 7",
	// "original page 4"), in order.
	Dropped []string
	// Uncapped are the pages of a check beyond the page cap (0: none).
	Uncapped int
}

// ImageBudgetNote states what the budget cut, for the model: "Limits:
// 4.0 MB of output; 2 page images did not fit and are not attached (page
// 7, page 9); 1 was downscaled to fit." It is "" when nothing was cut or
// downscaled.
func ImageBudgetNote(b ImageBudget) string {
	if len(b.Dropped) == 0 && b.Downscaled == 0 && b.Uncapped == 0 {
		return ""
	}
	var parts []string
	if b.Uncapped > 0 {
		parts = append(parts, fmt.Sprintf("the page cap (%d) left out the last %d %s", b.PageCap, b.Uncapped, plural.Word(b.Uncapped, "page", "pages")))
	}
	if n := len(b.Dropped); n > 0 {
		parts = append(parts, fmt.Sprintf("%d page %s did not fit and %s not attached (%s)", n, plural.Word(n, "image", "images"), plural.Word(n, "is", "are"), joinPageNames(b.Dropped)))
	}
	if b.Downscaled > 0 {
		parts = append(parts, fmt.Sprintf("%d %s downscaled to fit", b.Downscaled, plural.Word(b.Downscaled, "image was", "images were")))
	}
	return fmt.Sprintf("Limits: %s of output for text and images; %s.", megabytes(b.MaxBytes), strings.Join(parts, "; "))
}

// megabytes formats a byte count: "4.0 MB", "512 KB" (powers of 1024).
func megabytes(n int) string {
	if n >= 1<<20 {
		return strconv.FormatFloat(float64(n)/(1<<20), 'f', 1, 64) + " MB"
	}
	return strconv.Itoa(n>>10) + " KB"
}

// joinPageNames lists image names, runs of consecutive "page N" written
// as one range: "page 7, pages 9–30, original page 4".
func joinPageNames(names []string) string {
	var out []string
	for i := 0; i < len(names); {
		n, ok := pageNumber(names[i])
		j := i + 1
		for ok && j < len(names) {
			m, ok2 := pageNumber(names[j])
			if !ok2 || m != n+(j-i) {
				break
			}
			j++
		}
		if ok && j-i > 1 {
			out = append(out, fmt.Sprintf("pages %d–%d", n, n+j-i-1))
		} else {
			out = append(out, names[i])
			j = i + 1
		}
		i = j
	}
	return strings.Join(out, ", ")
}

// pageNumber reads "page N".
func pageNumber(name string) (int, bool) {
	rest, ok := strings.CutPrefix(name, "page ")
	if !ok {
		return 0, false
	}
	n, err := strconv.Atoi(rest)
	return n, err == nil
}
