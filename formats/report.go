package formats

import "strings"

// Report is what inspecting one document gives: its identity, every
// finding, and its structure counts.
type Report struct {
	// Path is the document's path as given by the caller.
	Path string `json:"path"`
	// Format is the detected format; Flavor the exact kind ("dotx").
	Format Format `json:"format"`
	Flavor string `json:"flavor,omitempty"`
	// SHA256 of the input bytes, and their number.
	SHA256 string `json:"sha256"`
	Size   int64  `json:"size"`
	// Findings, sorted in the fixed order of Less.
	Findings []Finding `json:"findings"`
	// Counts are the document's structure totals (keys per format in
	// DESIGN.md).
	Counts Counts `json:"counts"`
	// Parts breaks Counts down by part (body, each header, each slide…).
	Parts map[string]Counts `json:"parts,omitempty"`
	// Sites are the places the audit compares to say where structure was
	// lost (tables and cells in Word, slides, sheets).
	Sites []Site `json:"sites,omitempty"`
	// MainPart is the package's main part ("word/document.xml"; "" when
	// none was found).
	MainPart string `json:"main_part,omitempty"`
	// NotCounted lists the counted parts that did not parse to the end (or
	// could not be read): their counts are unknown, not zero, and Counts
	// holds only what was read before the error. NotCountedPackage stands
	// for the whole file when no zip entry could be read. Empty when every
	// count is complete.
	NotCounted []string `json:"not_counted,omitempty"`
}

// NotCountedPackage is the NotCounted entry of a file whose zip could not
// be read at all: nothing in it was counted.
const NotCountedPackage = "the package"

// UnknownMetrics returns the metrics whose totals are unknown because a
// part in NotCounted contributes to them: the metrics of that part's
// breakdown, or every metric (all) when the whole package, the main part
// (it lists the slides, sheets or stories the rest hangs from) or a part
// without a breakdown was not counted.
func (r *Report) UnknownMetrics() (metrics map[string]bool, all bool) {
	metrics = map[string]bool{}
	for _, part := range r.NotCounted {
		pc, ok := r.Parts[part]
		if part == NotCountedPackage || !ok || (r.MainPart != "" && strings.EqualFold(part, r.MainPart)) {
			all = true
		}
		for k := range pc {
			metrics[k] = true
		}
	}
	return metrics, all
}

// Fatal reports whether any finding is fatal.
func (r *Report) Fatal() bool { return HasFatal(r.Findings) }

// AddCounts adds c to the totals and to the breakdown of part.
func (r *Report) AddCounts(part string, c Counts) {
	if r.Counts == nil {
		r.Counts = Counts{}
	}
	r.Counts.Add(c)
	if part == "" {
		return
	}
	if r.Parts == nil {
		r.Parts = map[string]Counts{}
	}
	pc := r.Parts[part]
	if pc == nil {
		pc = Counts{}
		r.Parts[part] = pc
	}
	pc.Add(c)
}
