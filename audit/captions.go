package audit

import (
	"fmt"
	"strconv"
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
