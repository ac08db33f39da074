package reports

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/editaudit/editaudit/formats"
	"github.com/editaudit/editaudit/internal/plural"
)

// CheckSchema names one file's object of `check --format json` (DESIGN.md
// "JSON").
const CheckSchema = "editaudit.check/v1"

// CheckJSON is one file's object of `check --format json`: the public
// schema editaudit.check/v1.
type CheckJSON struct {
	Schema   string                    `json:"schema"`
	Path     string                    `json:"path"`
	Format   formats.Format            `json:"format"`
	Flavor   string                    `json:"flavor,omitempty"`
	SHA256   string                    `json:"sha256"`
	Fatal    bool                      `json:"fatal"`
	Findings []formats.Finding         `json:"findings"`
	Counts   formats.Counts            `json:"counts"`
	Parts    map[string]formats.Counts `json:"parts,omitempty"`
	// NotCounted: parts that did not parse; their counts are partial.
	NotCounted []string `json:"not_counted,omitempty"`
}

// CheckJSONOf is rep as a CheckJSON; parts keeps the per-part breakdown.
func CheckJSONOf(rep *formats.Report, parts bool) CheckJSON {
	j := CheckJSON{Schema: CheckSchema, Path: rep.Path, Format: rep.Format, Flavor: rep.Flavor,
		SHA256: rep.SHA256, Fatal: rep.Fatal(), Findings: nonNil(rep.Findings), Counts: rep.Counts, NotCounted: rep.NotCounted}
	if parts {
		j.Parts = rep.Parts
	}
	return j
}

// CheckOptions tune WriteCheck. The zero value is fine.
type CheckOptions struct {
	// Parts adds the per-part structure breakdown (json) or prints it
	// (text).
	Parts bool
	// Pages are the rendered pages attached by the model and html formats.
	Pages []CheckPage
	// PageCap is the page cap the pages were rendered up to (0: none), and
	// Model the byte budget: both bound the model and html formats, which
	// state what they cut (FitCheckPages).
	PageCap int
	Model   ModelOptions
}

// WriteCheck writes the check of reps in format (`editaudit check --format
// F`): text (per file: one line per finding with its fix, the verdict, the
// counts; files separated by a blank line), json (one CheckJSON, or an
// array of them for several files), model or html (exactly one report, with
// opts.Pages). It is what the command prints, byte for byte.
func WriteCheck(w io.Writer, reps []*formats.Report, format string, opts CheckOptions) error {
	if (format == FormatModel || format == FormatHTML) && len(reps) != 1 {
		return fmt.Errorf("reports: --format %s takes exactly one report, got %d", format, len(reps))
	}
	switch format {
	case FormatText:
		for i, rep := range reps {
			if i > 0 {
				if _, err := io.WriteString(w, "\n"); err != nil {
					return err
				}
			}
			if err := writeCheckText(w, CheckJSONOf(rep, opts.Parts), opts.Parts); err != nil {
				return err
			}
		}
		return nil
	case FormatJSON:
		out := make([]CheckJSON, len(reps))
		for i, rep := range reps {
			out[i] = CheckJSONOf(rep, opts.Parts)
		}
		if len(out) == 1 {
			return writeIndentedJSON(w, out[0])
		}
		return writeIndentedJSON(w, out)
	case FormatModel:
		return WriteCheckModelWith(w, reps[0], opts.Pages, opts.PageCap, opts.Model)
	case FormatHTML:
		return WriteCheckHTMLWith(w, reps[0], opts.Pages, opts.PageCap, opts.Model)
	}
	return unknownFormat(format, CheckFormats)
}

// writeCheckText: one line per finding, then the verdict and the counts.
func writeCheckText(w io.Writer, j CheckJSON, parts bool) error {
	var b strings.Builder
	name := j.Flavor
	if name == "" {
		name = string(j.Format)
	}
	fmt.Fprintf(&b, "%s (%s)\n", j.Path, name)
	for _, f := range j.Findings {
		fmt.Fprintf(&b, "  %s\n", f.String())
		if f.Fix != "" {
			fmt.Fprintf(&b, "      fix: %s\n", f.Fix)
		}
	}
	t := formats.TallyOf(j.Findings)
	verdict := "ok: no fatal findings"
	switch {
	case formats.FileMissing(j.Findings):
		verdict = "FATAL: the file is not there to open"
	case j.Fatal:
		verdict = "FATAL: the application will refuse or repair this file"
	}
	fmt.Fprintf(&b, "  %s (%s: %d fatal, %d error, %d warning, %d info)\n", verdict, plural.Of(t.Total, "finding", "findings"), t.Fatal, t.Error, t.Warning, t.Info)
	if len(j.Counts) > 0 {
		fmt.Fprintf(&b, "  structure: %s\n", countsText(j.Counts))
	}
	if len(j.NotCounted) > 0 {
		fmt.Fprintf(&b, "  not counted: %s did not parse (the structure counts above are partial)\n", strings.Join(j.NotCounted, ", "))
	}
	if parts {
		names := make([]string, 0, len(j.Parts))
		for p := range j.Parts {
			names = append(names, p)
		}
		sort.Strings(names)
		for _, p := range names {
			fmt.Fprintf(&b, "    %s: %s\n", p, countsText(j.Parts[p]))
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// countsText is "k=v k=v" in the counts' key order.
func countsText(c formats.Counts) string {
	kv := make([]string, 0, len(c))
	for _, k := range c.Keys() {
		kv = append(kv, fmt.Sprintf("%s=%d", k, c[k]))
	}
	return strings.Join(kv, " ")
}
