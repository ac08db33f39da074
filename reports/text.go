package reports

import (
	"io"

	"github.com/editaudit/editaudit/audit"
)

// WriteText writes the model feedback of r (`--format text`): r.Feedback,
// or audit.Feedback with the default caps when r.Feedback is empty, followed
// by a newline.
func WriteText(w io.Writer, r *audit.Result) error {
	_, err := io.WriteString(w, feedbackOf(r)+"\n")
	return err
}

// feedbackOf is the feedback stored in r, computed when absent.
func feedbackOf(r *audit.Result) string {
	if r.Feedback != "" {
		return r.Feedback
	}
	return audit.Feedback(r, audit.FeedbackOptions{})
}
