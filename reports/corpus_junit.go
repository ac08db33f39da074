package reports

import (
	"encoding/xml"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/editaudit/editaudit/audit"
	"github.com/editaudit/editaudit/corpus/results"
	"github.com/editaudit/editaudit/formats"
	"github.com/editaudit/editaudit/internal/plural"
)

// JUnit XML for CI dashboards (`corpus summary --junit FILE`): the
// element and attribute set of the JUnit schema Jenkins' xunit plugin
// publishes (junit-4.xsd: testsuites > testsuite > testcase with
// error, failure, system-out), which GitLab's test report reads too.
// One testsuite per group (one named after the run when no pair has a
// group), one testcase per pair:
//   - blocked → <failure type="blocked"> listing the new fatal findings;
//   - failed (the tool could not audit it) → <error type="audit-failed">;
//   - passed → no child, except <system-out> saying what structure it
//     lost, which pages changed and the other new findings (also on a
//     blocked pair), so a dashboard shows them without failing the case.

type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Time     string       `xml:"time,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Errors   int         `xml:"errors,attr"`
	Skipped  int         `xml:"skipped,attr"`
	Time     string      `xml:"time,attr"`
	Cases    []junitCase `xml:"testcase"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	ClassName string        `xml:"classname,attr"`
	Time      string        `xml:"time,attr"`
	Error     *junitProblem `xml:"error,omitempty"`
	Failure   *junitProblem `xml:"failure,omitempty"`
	SystemOut string        `xml:"system-out,omitempty"`

	group string
	ms    int64
}

type junitProblem struct {
	Type    string `xml:"type,attr"`
	Message string `xml:"message,attr"`
	Text    string `xml:",chardata"`
}

// JUnitCase is one pair as a JUnit testcase; build it with JUnitCaseOf
// while reading results.jsonl (it holds no more of the record than it
// draws).
type JUnitCase struct{ c junitCase }

// JUnitCaseOf makes the testcase of one result line.
func JUnitCaseOf(r *results.Record) JUnitCase {
	class := "editaudit.corpus"
	if r.Group != "" {
		class += "." + r.Group
	}
	c := junitCase{Name: r.ID, ClassName: class, Time: junitSeconds(r.Timings.Total), group: r.Group, ms: r.Timings.Total}
	if r.Failed() {
		msg, _, _ := strings.Cut(r.Error, "\n")
		c.Error = &junitProblem{Type: "audit-failed", Message: msg, Text: r.Error + "\n" + junitFiles(r)}
		return JUnitCase{c}
	}
	fs := append([]formats.Finding(nil), r.NewFindings...)
	formats.Sort(fs)
	var fatal, other []formats.Finding
	for _, f := range fs {
		if f.Grade == formats.Fatal {
			fatal = append(fatal, f)
		} else {
			other = append(other, f)
		}
	}
	if r.Blocked {
		var b strings.Builder
		for _, f := range fatal {
			b.WriteString(junitFinding(f))
		}
		b.WriteString(junitFiles(r))
		c.Failure = &junitProblem{Type: "blocked",
			Message: fmt.Sprintf("blocked: %d new fatal %s (%s)", len(fatal), plural.Word(len(fatal), "finding", "findings"), junitCodes(fatal)),
			Text:    b.String()}
	}
	var out strings.Builder
	if len(other) > 0 {
		fmt.Fprintf(&out, "new findings not at fatal: %d\n", len(other))
		for _, f := range other {
			out.WriteString(junitFinding(f))
		}
	}
	for _, s := range r.Structure.Shrunk {
		fmt.Fprintf(&out, "structure lost: %s %d → %d", s.Metric, s.Before, s.After)
		if s.Where != "" {
			out.WriteString(" (" + s.Where + ")")
		}
		out.WriteString("\n")
	}
	if l := junitPages(&r.Pages); l != "" {
		out.WriteString(l + "\n")
	}
	if out.Len() > 0 {
		if r.Report != "" {
			out.WriteString("report: " + r.Report + "\n")
		}
		c.SystemOut = out.String()
	}
	return JUnitCase{c}
}

// junitFinding is one finding as two lines: where and what, then the fix.
func junitFinding(f formats.Finding) string {
	where := audit.Location(f)
	if f.Locator != "" {
		where += " (" + f.Locator + ")"
	}
	s := fmt.Sprintf("%s %s at %s: %s\n", f.Grade, f.Code, where, strings.TrimSpace(f.Message))
	if f.Fix != "" {
		s += "  fix: " + strings.TrimSpace(f.Fix) + "\n"
	}
	return s
}

func junitCodes(fs []formats.Finding) string {
	var codes []string
	seen := map[string]bool{}
	for _, f := range fs {
		if !seen[f.Code] {
			seen[f.Code] = true
			codes = append(codes, f.Code)
		}
	}
	return strings.Join(codes, ", ")
}

func junitFiles(r *results.Record) string {
	s := fmt.Sprintf("original: %s\nedited: %s\n", r.Original.Path, r.Edited.Path)
	if r.Report != "" {
		s += "report: " + r.Report + "\n"
	}
	return s
}

// junitPages says which pages changed, or "" when none did.
func junitPages(p *audit.Pages) string {
	if p.Status != audit.PagesOK {
		if p.Status == audit.PagesFailed {
			return "pages: not compared (render failed: " + p.Message + ")"
		}
		return ""
	}
	var parts []string
	if len(p.Changed) > 0 {
		var ns []string
		for _, c := range p.Changed {
			ns = append(ns, strconv.Itoa(c.After))
		}
		parts = append(parts, "changed "+strings.Join(ns, ", "))
	}
	if len(p.Inserted) > 0 {
		parts = append(parts, "inserted "+joinInts(p.Inserted))
	}
	if len(p.Deleted) > 0 {
		parts = append(parts, "deleted (original pages) "+joinInts(p.Deleted))
	}
	for _, rf := range p.Reflowed {
		parts = append(parts, fmt.Sprintf("reflowed %d–%d after page %d", rf.From, rf.To, rf.Cause))
	}
	if len(parts) == 0 {
		return ""
	}
	return "pages: " + strings.Join(parts, "; ")
}

func joinInts(ns []int) string {
	s := make([]string, len(ns))
	for i, n := range ns {
		s[i] = strconv.Itoa(n)
	}
	return strings.Join(s, ", ")
}

// junitSeconds writes milliseconds as JUnit's seconds: "1.234".
func junitSeconds(ms int64) string {
	return strconv.FormatFloat(float64(ms)/1000, 'f', 3, 64)
}

// WriteJUnit writes the pairs of a run as JUnit XML: one testsuite per
// group (sorted by name; pairs without a group in a suite named name),
// testcases in the order given. cases is not changed.
func WriteJUnit(w io.Writer, name string, cases []JUnitCase) error {
	bySuite := map[string]*junitSuite{}
	var names []string
	root := junitSuites{Name: name}
	var total int64
	for _, jc := range cases {
		c := jc.c
		sn := name
		if c.group != "" {
			sn = c.group
		}
		s := bySuite[sn]
		if s == nil {
			s = &junitSuite{Name: sn}
			bySuite[sn] = s
			names = append(names, sn)
		}
		s.Cases = append(s.Cases, c)
		s.Tests++
		if c.Failure != nil {
			s.Failures++
		}
		if c.Error != nil {
			s.Errors++
		}
		total += c.ms
	}
	sort.Strings(names)
	for _, n := range names {
		s := bySuite[n]
		var ms int64
		for _, c := range s.Cases {
			ms += c.ms
		}
		s.Time = junitSeconds(ms)
		root.Suites = append(root.Suites, *s)
		root.Tests += s.Tests
		root.Failures += s.Failures
		root.Errors += s.Errors
	}
	root.Time = junitSeconds(total)
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(root); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}
