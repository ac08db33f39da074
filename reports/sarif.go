package reports

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"path/filepath"
	"sort"
	"strconv"
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
	Tool              sarifTool       `json:"tool"`
	Artifacts         []sarifArtifact `json:"artifacts,omitempty"`
	Results           []sarifResult   `json:"results"`
	AutomationDetails sarifAutomation `json:"automationDetails"`
	ColumnKind        string          `json:"columnKind"`
	Properties        sarifRunProps   `json:"properties"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name  string      `json:"name"`
	Rules []sarifRule `json:"rules"`
}

type sarifRule struct {
	ID               string        `json:"id"`
	ShortDescription sarifMessage  `json:"shortDescription"`
	Help             *sarifHelp    `json:"help,omitempty"`
	HelpURI          string        `json:"helpUri,omitempty"`
	Properties       *sarifRuleTag `json:"properties,omitempty"`
}

// sarifHelp is a rule's help (§3.49.13): plain text and Markdown.
type sarifHelp struct {
	Text     string `json:"text"`
	Markdown string `json:"markdown,omitempty"`
}

// sarifRuleTag tags a rule (§3.8.2 "tags"): "finding", "structure" or
// "pages", so a code-scanning view can filter by what kind of result.
type sarifRuleTag struct {
	Tags []string `json:"tags"`
}

type sarifAutomation struct {
	ID string `json:"id"`
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
	Properties          sarifResultProps  `json:"properties"`
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
	// Grade is the finding's grade; "" for a structure or page note.
	Grade   formats.Grade `json:"grade,omitempty"`
	Part    string        `json:"part,omitempty"`
	Line    int           `json:"line,omitempty"`
	Column  int           `json:"column,omitempty"`
	Locator string        `json:"locator,omitempty"`
	Fix     string        `json:"fix,omitempty"`
	// Metric, Before and After describe a structure loss; Page a page
	// note (the edited page, or the original's for a deletion).
	Metric string `json:"metric,omitempty"`
	Before *int   `json:"before,omitempty"`
	After  *int   `json:"after,omitempty"`
	Page   int    `json:"page,omitempty"`
	// Kind, Count and Listed describe a content note: the kind of change,
	// how many the summary counts, how many the audit lists;
	// FormattingLost the format changes that lost emphasis.
	Kind           content.Kind `json:"kind,omitempty"`
	Count          int          `json:"count,omitempty"`
	Listed         *int         `json:"listed,omitempty"`
	FormattingLost int          `json:"formattingLost,omitempty"`
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

// WriteSARIF writes the whole audit r as a SARIF 2.1.0 log for CI code
// scanning: one run of the tool "editaudit" with
//   - a result per new finding (rule id = the finding's code, level from
//     the grade: fatal and error → error, warning → warning, info →
//     note; the grade itself in properties);
//   - a note per structure metric that shrank (rule structure.shrunk), per
//     kind of content change (rules content.*: how many, and where the
//     first ones are) and per page that changed, was inserted, deleted or
//     reflowed (rules pages.*), and one when the pages could not be
//     compared, so that a code-scanning view shows everything the audit
//     says.
//
// Rules carry help text and a helpUri: a finding code's help is its rows
// of docs/validation.md's grading tables, its helpUri the section that
// grades it (SARIFDocsBase + validationDoc + "#anchor").
//
// Each result's physical location is the edited file (a zip, so the
// region's line and column are those of the finding inside its part), and
// its logical location is the part and the locator ({"name": part,
// "fullyQualifiedName": part+locator, "kind": "element"}), the place of a
// structure loss, or the page; message.text names them too, so that a
// code-scanning view shows them. partialFingerprints["editauditKey/v1"] is
// a hash of the result's position-free identity (for a finding: stable
// across edits elsewhere in the part). automationDetails.id is
// "editaudit/audit/<edited path>/<edited sha256, 12 digits>": the category
// (up to the last slash) is the edited file, so two audits of the same
// file compare as one series. Pre-existing findings are not results (they
// are not the edit's); the run properties count them and carry the
// verdict.
func WriteSARIF(w io.Writer, r *audit.Result) error {
	rs := &sarifRules{index: map[string]int{}}
	uri := fileURI(r.Edited.Path)
	var artifacts []sarifArtifact
	if uri != "" {
		a := sarifArtifact{Location: sarifArtifactLocation{URI: uri}}
		if r.Edited.SHA256 != "" {
			a.Hashes = map[string]string{"sha-256": r.Edited.SHA256}
		}
		artifacts = []sarifArtifact{a}
	}
	results := sarifFindingResults(rs, uri, r)
	results = append(results, sarifStructureResults(rs, uri, r)...)
	results = append(results, sarifContentResults(rs, uri, r)...)
	results = append(results, sarifPageResults(rs, uri, r)...)
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
		Tool:              sarifTool{Driver: sarifDriver{Name: "editaudit", Rules: rs.list}},
		Artifacts:         artifacts,
		Results:           results,
		AutomationDetails: sarifAutomation{ID: sarifAutomationID(r)},
		ColumnKind:        "unicodeCodePoints",
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

// SARIFDocsBase is where the rules' helpUri point: the repository's
// documents (docs/validation.md, docs/rendering.md, docs/json.md,
// docs/content.md) on its main branch.
const SARIFDocsBase = "https://github.com/editaudit/editaudit/blob/main/"

// validationDoc is the page whose grading tables give the finding rules'
// help (reports/sarif_rules_gen.go is generated from it).
const validationDoc = "docs/validation.md"

// sarifRules collects the rules the results use, in order of first use.
type sarifRules struct {
	list  []sarifRule
	index map[string]int
}

// use returns the index of rule id, adding it (made by def) the first
// time.
func (rs *sarifRules) use(id string, def func() sarifRule) int {
	if i, ok := rs.index[id]; ok {
		return i
	}
	rs.index[id] = len(rs.list)
	rs.list = append(rs.list, def())
	return len(rs.list) - 1
}

// findingRule is the rule of a finding code: help from docs/validation.md.
func findingRule(code string) sarifRule {
	anchor, help := ruleHelp(code)
	text := "How editaudit grades " + code + " and why: see " + validationDoc + "."
	md := text
	if help != "" {
		text = help
		md = "- " + strings.ReplaceAll(help, "\n", "\n- ") + "\n\n[" + validationDoc + "](" + SARIFDocsBase + validationDoc + "#" + anchor + ")"
	}
	return sarifRule{ID: code, ShortDescription: sarifMessage{Text: describeCode(code)},
		Help: &sarifHelp{Text: text, Markdown: md}, HelpURI: SARIFDocsBase + validationDoc + "#" + anchor,
		Properties: &sarifRuleTag{Tags: []string{"finding"}}}
}

// noteRule is a rule of the structure and page notes.
func noteRule(id, short, help, doc, tag string) func() sarifRule {
	return func() sarifRule {
		return sarifRule{ID: id, ShortDescription: sarifMessage{Text: short}, Help: &sarifHelp{Text: help},
			HelpURI: SARIFDocsBase + doc, Properties: &sarifRuleTag{Tags: []string{tag}}}
	}
}

// location is the edited file with an optional region and logical place.
func sarifLoc(uri string, line, col int, logical []sarifLogical) []sarifLocation {
	var loc sarifLocation
	if uri != "" {
		zero := 0
		loc.PhysicalLocation = &sarifPhysical{ArtifactLocation: sarifArtifactLocation{URI: uri, Index: &zero}}
		if line > 0 {
			loc.PhysicalLocation.Region = &sarifRegion{StartLine: line, StartColumn: col}
		}
	}
	loc.LogicalLocations = logical
	if loc.PhysicalLocation == nil && loc.LogicalLocations == nil {
		return []sarifLocation{}
	}
	return []sarifLocation{loc}
}

// sarifFindingResults are the new findings, sorted.
func sarifFindingResults(rs *sarifRules, uri string, r *audit.Result) []sarifResult {
	fs := append([]formats.Finding(nil), r.NewFindings...)
	formats.Sort(fs)
	out := make([]sarifResult, 0, len(fs))
	for _, f := range fs {
		var logical []sarifLogical
		if f.Part != "" {
			kind := "resource"
			if f.Locator != "" {
				kind = "element"
			}
			logical = []sarifLogical{{Name: f.Part, FullyQualifiedName: f.Part + f.Locator, Kind: kind}}
		}
		out = append(out, sarifResult{
			RuleID:    f.Code,
			RuleIndex: rs.use(f.Code, func() sarifRule { return findingRule(f.Code) }),
			Level:     sarifLevel(f.Grade),
			Message:   sarifMessage{Text: sarifText(f)},
			Locations: sarifLoc(uri, f.Line, f.Column, logical),
			Properties: sarifResultProps{Grade: f.Grade, Part: f.Part, Line: f.Line, Column: f.Column,
				Locator: f.Locator, Fix: f.Fix},
			PartialFingerprints: map[string]string{"editauditKey/v1": keyHash(f)},
		})
	}
	return out
}

// sarifStructureResults are notes for the structure metrics that shrank.
func sarifStructureResults(rs *sarifRules, uri string, r *audit.Result) []sarifResult {
	var out []sarifResult
	for _, s := range r.Structure.Shrunk {
		where := s.Where
		msg := fmt.Sprintf("Structure shrank: %s %d → %d", s.Metric, s.Before, s.After)
		if where != "" {
			msg += " (" + where + ")"
		} else {
			where = s.Metric
		}
		msg += ". Not a defect by itself: check that the edit meant to remove it."
		before, after := s.Before, s.After
		out = append(out, sarifResult{
			RuleID: "structure.shrunk",
			RuleIndex: rs.use("structure.shrunk", noteRule("structure.shrunk", "structure: a count (tables, rows, cells, paragraphs, slides, charts, images…) went down",
				"The edited file has fewer of a structure metric than the original: before → after, and where. editaudit reports it so that a deletion the edit did not mean is seen; it never blocks.",
				"docs/json.md#structure", "structure")),
			Level:               "note",
			Message:             sarifMessage{Text: msg},
			Locations:           sarifLoc(uri, 0, 0, []sarifLogical{{Name: where, FullyQualifiedName: s.Metric + ": " + where, Kind: "element"}}),
			Properties:          sarifResultProps{Metric: s.Metric, Before: &before, After: &after},
			PartialFingerprints: map[string]string{"editauditKey/v1": hashOf("structure.shrunk", s.Metric, s.Where)},
		})
	}
	return out
}

// sarifPageResults are notes for the pages: changed (content, bands
// only, moved), inserted, deleted, reflowed, or why they were not
// compared.
func sarifPageResults(rs *sarifRules, uri string, r *audit.Result) []sarifResult {
	p := &r.Pages
	var out []sarifResult
	add := func(id, short, help string, page int, msg string) {
		out = append(out, sarifResult{
			RuleID:              id,
			RuleIndex:           rs.use(id, noteRule(id, short, help, "docs/rendering.md", "pages")),
			Level:               "note",
			Message:             sarifMessage{Text: msg},
			Locations:           sarifLoc(uri, 0, 0, []sarifLogical{{Name: "page " + strconv.Itoa(page), FullyQualifiedName: "page " + strconv.Itoa(page), Kind: "page"}}),
			Properties:          sarifResultProps{Page: page},
			PartialFingerprints: map[string]string{"editauditKey/v1": hashOf(id, strconv.Itoa(page))},
		})
	}
	switch p.Status {
	case audit.PagesOK:
	case audit.PagesFailed:
		out = append(out, sarifResult{
			RuleID: "pages.not-compared",
			RuleIndex: rs.use("pages.not-compared", noteRule("pages.not-compared", "pages: the rendered pages could not be compared",
				"LibreOffice could not render one of the files, so no page was compared; the findings and structure still stand.", "docs/rendering.md", "pages")),
			Level:               "note",
			Message:             sarifMessage{Text: "Pages not compared: " + strings.TrimSpace(p.Message)},
			Locations:           sarifLoc(uri, 0, 0, nil),
			PartialFingerprints: map[string]string{"editauditKey/v1": hashOf("pages.not-compared")},
		})
		return out
	default:
		return nil
	}
	for _, c := range p.Changed {
		msg := fmt.Sprintf("Page %d (edited) differs from page %d (original)", c.After, c.Before)
		switch {
		case c.Moved:
			msg = fmt.Sprintf("Page %d (edited) is page %d of the original, unchanged but out of order", c.After, c.Before)
		case c.MarginsOnly:
			msg += ": only the header/footer bands changed"
		case c.Ratio > 0:
			msg += fmt.Sprintf(": %s of the page changed", pct1(c.Ratio))
		}
		add("pages.changed", "pages: a rendered page changed", "Both files were rendered with LibreOffice and their pages aligned by content; this page differs from its original page (moved pages and header/footer-only changes say so).", c.After, msg+".")
	}
	for _, n := range p.Inserted {
		add("pages.inserted", "pages: a page was inserted", "The edited file has a page with no counterpart in the original.", n, fmt.Sprintf("Page %d (edited) is new: it has no original page.", n))
	}
	for _, n := range p.Deleted {
		add("pages.deleted", "pages: a page was deleted", "A page of the original has no counterpart in the edited file.", n, fmt.Sprintf("Page %d of the original is not in the edited file.", n))
	}
	for _, rf := range p.Reflowed {
		add("pages.reflowed", "pages: a run of pages reflowed", "Pages after a change moved their content along (text pushed down); said once for the run instead of listing each page as changed.", rf.From,
			fmt.Sprintf("Pages %d–%d (edited) reflowed after the change on page %d.", rf.From, rf.To, rf.Cause))
	}
	return out
}

// pct1 formats a 0..1 ratio as "1.3%" ("<0.1%" below a thousandth).
func pct1(f float64) string {
	if f < 0.001 {
		return "<0.1%"
	}
	return strconv.FormatFloat(f*100, 'f', 1, 64) + "%"
}

// sarifAutomationID is "editaudit/audit/<edited path>/<sha256[:12]>".
func sarifAutomationID(r *audit.Result) string {
	id := "editaudit/audit/"
	if r.Edited.Path != "" {
		id += strings.TrimPrefix(filepath.ToSlash(r.Edited.Path), "/") + "/"
	}
	if len(r.Edited.SHA256) >= 12 {
		id += r.Edited.SHA256[:12]
	}
	return id
}

// ruleHelp finds a code's docs/validation.md section anchor and help; a code
// the tables do not grade gets its format's section and no help.
func ruleHelp(code string) (anchor, help string) {
	i := sort.Search(len(validationRules), func(i int) bool { return validationRules[i].Code >= code })
	if i < len(validationRules) && validationRules[i].Code == code {
		return validationRules[i].Anchor, validationRules[i].Help
	}
	area, _, _ := strings.Cut(code, ".")
	switch area {
	case "docx":
		return "word", ""
	case "pptx":
		return "powerpoint", ""
	case "xlsx":
		return "excel", ""
	case "hwpx":
		return "hangul", ""
	}
	return "package-level-every-format", ""
}

// ruleDoc is one code's documentation, generated from docs/validation.md.
type ruleDoc struct {
	Code, Anchor, Help string
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

// hashOf is the hex SHA-256 of the parts, NUL-separated.
func hashOf(parts ...string) string {
	h := sha256.Sum256([]byte(strings.Join(parts, "\x00")))
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
