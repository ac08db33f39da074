package audit

import (
	"github.com/editaudit/editaudit/baseline"
	"github.com/editaudit/editaudit/content"
	"github.com/editaudit/editaudit/formats"
)

// Schema is the JSON schema name of a Result (DESIGN.md).
const Schema = "editaudit.audit/v1"

// FileInfo identifies one side of an audit.
type FileInfo struct {
	Path   string         `json:"path"`
	SHA256 string         `json:"sha256"`
	Format formats.Format `json:"format"`
	// Pages is the rendered page count (0 when not rendered).
	Pages int `json:"pages"`
	// NotCounted are this file's counted parts that did not parse
	// (formats.Report.NotCounted): their structure counts are unknown.
	NotCounted []string `json:"not_counted,omitempty"`
}

// Shrink is one structure metric that went down.
type Shrink struct {
	Metric string `json:"metric"`
	Before int    `json:"before"`
	After  int    `json:"after"`
	// Where says where the loss happened, for people and models:
	// "body table 3, row 2, cell 2: 2 nested tables removed"; "" when the
	// loss cannot be placed.
	Where string `json:"where,omitempty"`
}

// Structure is the before/after structure of the two files.
type Structure struct {
	Before formats.Counts `json:"before"`
	After  formats.Counts `json:"after"`
	// Shrunk lists the metrics that went down, among those counted
	// completely on both sides.
	Shrunk []Shrink `json:"shrunk"`
	// Incomplete is true when a counted part of either file did not parse:
	// NotCounted names those parts and Unknown the metrics they make
	// unknown; no shrink is reported for those metrics. (Absent from the
	// JSON when every count is exact.)
	Incomplete bool `json:"incomplete,omitempty"`
	// NotCounted are the parts, of either file, that did not parse
	// ("word/document.xml"; formats.NotCountedPackage for a file whose zip
	// could not be read). Original.NotCounted and Edited.NotCounted say
	// which side.
	NotCounted []string `json:"not_counted,omitempty"`
	// Unknown are the metrics not compared because a part in NotCounted
	// contributes to them.
	Unknown []string `json:"unknown,omitempty"`
}

// ChangedPage is a page present in both files whose pixels differ.
type ChangedPage struct {
	Before int      `json:"before"`
	After  int      `json:"after"`
	Ratio  float64  `json:"ratio"`
	Boxes  [][4]int `json:"boxes"`
	// MarginsOnly: only the header/footer bands changed (page numbers).
	MarginsOnly bool `json:"margins_only"`
	// Moved: the page is out of its old order; unchanged when Boxes is
	// empty, else its content changed too.
	Moved bool `json:"moved,omitempty"`
}

// Reflow says once that a run of pages reflowed after a change, instead of
// listing each as changed.
type Reflow struct {
	// From and To are the edited file's pages that reflowed (1-based).
	From int `json:"from"`
	To   int `json:"to"`
	// Cause is the edited page where the change that pushed them started.
	Cause int `json:"cause"`
	// BeforeFrom and BeforeTo are the original's pages whose content the
	// run holds (0 when unknown): a run of 2–3 holding original pages 2–4
	// says where the missing page went.
	BeforeFrom int `json:"before_from,omitempty"`
	BeforeTo   int `json:"before_to,omitempty"`
}

// ShownPage is a changed, inserted or deleted page given as an image.
type ShownPage struct {
	Before int `json:"before"`
	After  int `json:"after"`
	// Image is the composite's path relative to the output folder
	// ("pages/p3.jpg"); "" when images are not written to disk.
	Image string `json:"image,omitempty"`
	// JPEG holds the composite's bytes for in-memory writers (model and
	// HTML reports); never serialised.
	JPEG []byte `json:"-"`
}

// Page statuses (DESIGN.md pages.status): the snapshot's statuses, which
// an audit passes on unchanged when a side could not be rendered.
const (
	PagesOK          = baseline.PagesOK
	PagesOff         = baseline.PagesOff
	PagesUnsupported = baseline.PagesUnsupported
	PagesFailed      = baseline.PagesFailed
)

// Pages is the rendered-page side of an audit.
type Pages struct {
	Status   string        `json:"status"`
	Message  string        `json:"message,omitempty"`
	Before   int           `json:"before"`
	After    int           `json:"after"`
	Changed  []ChangedPage `json:"changed"`
	Inserted []int         `json:"inserted"`
	Deleted  []int         `json:"deleted"`
	Reflowed []Reflow      `json:"reflowed,omitempty"`
	// Identical: the edited file is byte-identical to the original, so
	// nothing was rendered or compared and no page changed (Before and
	// After are the stored snapshot's page count, 0 when it has none).
	Identical bool        `json:"identical,omitempty"`
	Shown     []ShownPage `json:"shown"`
	// NotShown lists the edited pages (or original pages, for deletions)
	// that changed but were cut by the --show budget.
	NotShown []int `json:"not_shown,omitempty"`
	// Toolchain identifies the renderer (LibreOffice version, rasterizer,
	// dpi, fonts) the pages were made with.
	Toolchain string `json:"toolchain,omitempty"`
	// Notice says once that the pages are an approximation: a Hangul
	// document is laid out by editaudit's HWPX converter, not Hancom
	// Office (render.HWPXNotice). Notes list what that conversion of the
	// edited file could not draw (lines, OLE objects…).
	Notice string   `json:"notice,omitempty"`
	Notes  []string `json:"notes,omitempty"`
}

// Result is the outcome of one audit: the JSON object of
// `editaudit audit --format json` (schema editaudit.audit/v1).
type Result struct {
	Schema   string   `json:"schema"`
	Original FileInfo `json:"original"`
	Edited   FileInfo `json:"edited"`
	// Blocked is true if and only if the edit introduced a fatal finding.
	Blocked bool `json:"blocked"`
	// Restored: the original bytes were put back at the edited path.
	Restored bool `json:"restored"`
	// RejectedCopy is where the rejected edited file was kept (with
	// --restore), relative to the output folder.
	RejectedCopy string `json:"rejected,omitempty"`
	// RestoreNote says what a restore could not do as asked, or did
	// differently: a symbolic link followed to its target, other hard
	// links still holding the rejected bytes, an owner not kept.
	RestoreNote string `json:"restore_note,omitempty"`
	// NewFindings are the findings the edit introduced, sorted.
	NewFindings []formats.Finding `json:"new_findings"`
	// Preexisting counts the original's findings by grade; they are never
	// listed (they are not the edit's).
	Preexisting formats.Tally `json:"preexisting"`
	// Resolved are the original's findings the edit removed.
	Resolved []formats.Finding `json:"resolved"`
	// Structure compares structure counts.
	Structure Structure `json:"structure"`
	// Pages compares rendered pages.
	Pages Pages `json:"pages"`
	// Content is the content diff (DESIGN.md "Content diff"): the text,
	// cells and formatting the edit changed, located. Files and Reader
	// always set it (status "off" with --content off); Normalized gives a
	// Result built without it the status "off".
	Content *content.Result `json:"content"`
	// Feedback is the model-facing text: Feedback(r, FeedbackOptions{}),
	// filled in by Files and Reader.
	Feedback string `json:"feedback"`
}

// ChangeKinds splits the changed pages the way every report groups them:
// content changes, changes confined to the header/footer bands, and pages
// that moved unchanged. A moved page counts as moved even when its bands
// differ too; one whose content differs (changed regions) is a content
// change, named with its old number.
func (p Pages) ChangeKinds() (content, margins, moved []ChangedPage) {
	for _, c := range p.Changed {
		switch {
		case c.Moved && len(c.Boxes) == 0:
			moved = append(moved, c)
		case c.MarginsOnly:
			margins = append(margins, c)
		default:
			content = append(content, c)
		}
	}
	return content, margins, moved
}

// ChangedOf finds the changed-page entry a shown page illustrates (false
// for an inserted or deleted page).
func (p Pages) ChangedOf(s ShownPage) (ChangedPage, bool) {
	for _, c := range p.Changed {
		if c.Before == s.Before && c.After == s.After {
			return c, true
		}
	}
	return ChangedPage{}, false
}
