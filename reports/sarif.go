package reports

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/url"
	"path/filepath"
	"sort"
	"strings"

	"github.com/editaudit/editaudit/audit"
	"github.com/editaudit/editaudit/content"
	"github.com/editaudit/editaudit/formats"
)

// SARIF 2.1.0 (OASIS, sarif-v2.1.0-os): the subset editaudit writes. Field
// order follows the specification's examples; every required property is
// present: sarifLog.version and runs (§3.13), run.tool (§3.14),
// tool.driver (§3.18), toolComponent.name (§3.19.8), result.message
// (§3.27.11), message.text (§3.11.8), reportingDescriptor.id (§3.49.3).
const (
	sarifSchema  = "https://json.schemastore.org/sarif-2.1.0.json"
	sarifVersion = "2.1.0"
)

type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool       sarifTool       `json:"tool"`
	Artifacts  []sarifArtifact `json:"artifacts,omitempty"`
	Results    []sarifResult   `json:"results"`
	ColumnKind string          `json:"columnKind"`
	Properties sarifRunProps   `json:"properties"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name  string      `json:"name"`
	Rules []sarifRule `json:"rules"`
}

type sarifRule struct {
	ID               string       `json:"id"`
	ShortDescription sarifMessage `json:"shortDescription"`
}

type sarifMessage struct {
	Text string `json:"text"`
}

type sarifArtifact struct {
	Location sarifArtifactLocation `json:"location"`
	Hashes   map[string]string     `json:"hashes,omitempty"`
}

type sarifArtifactLocation struct {
	URI   string `json:"uri"`
	Index *int   `json:"index,omitempty"`
}

type sarifResult struct {
	RuleID              string            `json:"ruleId"`
	RuleIndex           int               `json:"ruleIndex"`
	Level               string            `json:"level"`
	Message             sarifMessage      `json:"message"`
	Locations           []sarifLocation   `json:"locations"`
	PartialFingerprints map[string]string `json:"partialFingerprints"`
	// Properties is a sarifResultProps (a finding) or a
	// sarifContentProps (a content change kind).
	Properties any `json:"properties"`
}

type sarifLocation struct {
	PhysicalLocation *sarifPhysical `json:"physicalLocation,omitempty"`
	LogicalLocations []sarifLogical `json:"logicalLocations,omitempty"`
}

type sarifPhysical struct {
	ArtifactLocation sarifArtifactLocation `json:"artifactLocation"`
	Region           *sarifRegion          `json:"region,omitempty"`
}

type sarifRegion struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn,omitempty"`
}

type sarifLogical struct {
	Name               string `json:"name"`
	FullyQualifiedName string `json:"fullyQualifiedName"`
	Kind               string `json:"kind"`
}

// sarifResultProps is the result's property bag (§3.8): the editaudit
// fields SARIF has no place for. Line and column repeat the region because
// the region is relative to the zip, the part is where they apply.
type sarifResultProps struct {
	Grade   formats.Grade `json:"grade"`
	Part    string        `json:"part,omitempty"`
	Line    int           `json:"line,omitempty"`
	Column  int           `json:"column,omitempty"`
	Locator string        `json:"locator,omitempty"`
	Fix     string        `json:"fix,omitempty"`
}

// sarifRunProps is the run's property bag: the verdict of the audit.
type sarifRunProps struct {
	Schema      string         `json:"schema"`
	Blocked     bool           `json:"blocked"`
	Restored    bool           `json:"restored"`
	Original    audit.FileInfo `json:"original"`
	Edited      audit.FileInfo `json:"edited"`
	Preexisting formats.Tally  `json:"preexisting"`
	Resolved    int            `json:"resolved"`
	Shrunk      []audit.Shrink `json:"shrunk"`
	PagesStatus string         `json:"pagesStatus"`
	Changed     []int          `json:"changedPages"`
	// ContentStatus is content.status ("off" when not compared) and
	// ContentSummary content.summary (absent when off).
	ContentStatus  string           `json:"contentStatus"`
	ContentSummary *content.Summary `json:"contentSummary,omitempty"`
}

// sarifLevel maps a grade to a SARIF result level (§3.27.10): fatal and
// error are "error", warning "warning", info "note".
func sarifLevel(g formats.Grade) string {
	switch g {
	case formats.Fatal, formats.Error:
		return "error"
	case formats.Warning:
		return "warning"
	case formats.Info:
		return "note"
	}
	return "none"
}

// WriteSARIF writes r's new findings as a SARIF 2.1.0 log for CI code
// scanning: one run of the tool "editaudit" whose rules are the finding
// codes used (id = code). Each result's physical location is the edited
// file (a zip, so the region's line and column are those of the finding
// inside its part), and its logical location is the part and the locator
// ({"name": part, "fullyQualifiedName": part+locator, "kind": "element"});
// message.text names the part, line and column too, so that a code-scanning
// view shows them. properties carry grade, part, line, column, locator and
// fix. partialFingerprints["editauditKey/v1"] is a hash of the finding's
// position-free identity, stable across edits elsewhere in the part.
// Pre-existing findings are not results (they are not the edit's); the run
// properties count them and carry the verdict. The content diff adds one
// note per kind of change (sarifContent) and its status and summary to the
// run properties.
func WriteSARIF(w io.Writer, r *audit.Result) error {
	fs := append([]formats.Finding(nil), r.NewFindings...)
	formats.Sort(fs)

	codes := map[string]bool{}
	for _, f := range fs {
		codes[f.Code] = true
	}
	ids := make([]string, 0, len(codes))
	for c := range codes {
		ids = append(ids, c)
	}
	sort.Strings(ids)
	index := map[string]int{}
	rules := make([]sarifRule, len(ids))
	for i, id := range ids {
		index[id] = i
		rules[i] = sarifRule{ID: id, ShortDescription: sarifMessage{Text: describeCode(id)}}
	}

	uri := fileURI(r.Edited.Path)
	var artifacts []sarifArtifact
	var artIndex *int
	if uri != "" {
		zero := 0
		artIndex = &zero
		a := sarifArtifact{Location: sarifArtifactLocation{URI: uri}}
		if r.Edited.SHA256 != "" {
			a.Hashes = map[string]string{"sha-256": r.Edited.SHA256}
		}
		artifacts = []sarifArtifact{a}
	}

	results := make([]sarifResult, 0, len(fs))
	for _, f := range fs {
		res := sarifResult{
			RuleID:    f.Code,
			RuleIndex: index[f.Code],
			Level:     sarifLevel(f.Grade),
			Message:   sarifMessage{Text: sarifText(f)},
			Properties: sarifResultProps{Grade: f.Grade, Part: f.Part, Line: f.Line, Column: f.Column,
				Locator: f.Locator, Fix: f.Fix},
			PartialFingerprints: map[string]string{"editauditKey/v1": keyHash(f)},
		}
		var loc sarifLocation
		if uri != "" {
			loc.PhysicalLocation = &sarifPhysical{ArtifactLocation: sarifArtifactLocation{URI: uri, Index: artIndex}}
			if f.Line > 0 {
				loc.PhysicalLocation.Region = &sarifRegion{StartLine: f.Line, StartColumn: f.Column}
			}
		}
		if f.Part != "" {
			kind := "resource"
			if f.Locator != "" {
				kind = "element"
			}
			loc.LogicalLocations = []sarifLogical{{Name: f.Part, FullyQualifiedName: f.Part + f.Locator, Kind: kind}}
		}
		if loc.PhysicalLocation != nil || loc.LogicalLocations != nil {
			res.Locations = []sarifLocation{loc}
		} else {
			res.Locations = []sarifLocation{}
		}
		results = append(results, res)
	}

	cRules, cResults := sarifContent(r, len(rules), func() sarifLocation {
		var l sarifLocation
		if uri != "" {
			l.PhysicalLocation = &sarifPhysical{ArtifactLocation: sarifArtifactLocation{URI: uri, Index: artIndex}}
		}
		return l
	})
	rules = append(rules, cRules...)
	results = append(results, cResults...)
	cStatus, cSummary := sarifContentRun(r)

	var changed []int
	for _, c := range r.Pages.Changed {
		changed = append(changed, c.After)
	}
	status := r.Pages.Status
	if status == "" {
		status = audit.PagesOff
	}
	schema := r.Schema
	if schema == "" {
		schema = audit.Schema
	}
	log := sarifLog{Schema: sarifSchema, Version: sarifVersion, Runs: []sarifRun{{
		Tool:       sarifTool{Driver: sarifDriver{Name: "editaudit", Rules: rules}},
		Artifacts:  artifacts,
		Results:    results,
		ColumnKind: "unicodeCodePoints",
		Properties: sarifRunProps{Schema: schema, Blocked: r.Blocked, Restored: r.Restored,
			Original: r.Original, Edited: r.Edited, Preexisting: r.Preexisting, Resolved: len(r.Resolved),
			Shrunk: nonNil(r.Structure.Shrunk), PagesStatus: status, Changed: nonNil(changed),
			ContentStatus: cStatus, ContentSummary: cSummary},
	}}}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(log)
}

// sarifText is the message of a result: where in the package, what is
// wrong, how to fix it.
func sarifText(f formats.Finding) string {
	s := audit.Location(f) + ": " + strings.TrimSpace(f.Message)
	if f.Fix != "" {
		s += " Fix: " + strings.TrimSpace(f.Fix)
	}
	return s
}

// keyHash is the hex SHA-256 of the finding's position-free identity.
func keyHash(f formats.Finding) string {
	h := sha256.Sum256([]byte(f.Key()))
	return hex.EncodeToString(h[:])
}

// describeCode makes a rule's short description from its dotted code:
// "xml.illegal-char" → "xml: illegal char".
func describeCode(code string) string {
	area, rest, ok := strings.Cut(code, ".")
	if !ok {
		return strings.ReplaceAll(code, "-", " ")
	}
	return area + ": " + strings.ReplaceAll(strings.ReplaceAll(rest, "-", " "), ".", " ")
}

// fileURI turns a path into a URI reference (SARIF §3.4.3): a relative path
// stays relative (slashes, percent-escaped), an absolute one becomes a
// file:// URI.
func fileURI(p string) string {
	if p == "" {
		return ""
	}
	s := filepath.ToSlash(p)
	u := url.URL{Path: s}
	if filepath.IsAbs(p) {
		u.Scheme = "file"
		if !strings.HasPrefix(s, "/") {
			u.Path = "/" + s
		}
	}
	return u.String()
}
