package formats

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
