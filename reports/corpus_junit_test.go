package reports

import (
	"bytes"
	"encoding/xml"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/editaudit/editaudit/audit"
	"github.com/editaudit/editaudit/corpus/results"
	"github.com/editaudit/editaudit/formats"
	"github.com/editaudit/editaudit/internal/testdoc"
)

func junitRecords() []*results.Record {
	blocked := &results.Record{ID: "c-1", Group: "model-a", Report: "pairs/c-1/report.html", Timings: results.Timings{Total: 1234}}
	blocked.Blocked = true
	blocked.Original.Path, blocked.Edited.Path = "t/contract.docx", "out/a/contract-1.docx"
	blocked.NewFindings = []formats.Finding{
		{Code: "xml.illegal-char", Grade: formats.Fatal, Part: "word/document.xml", Line: 2, Column: 17, Message: "U+0001 is not allowed in XML 1.0 <here>", Fix: "remove the character"},
		{Code: "docx.tc-no-p", Grade: formats.Error, Part: "word/document.xml", Line: 2, Column: 90, Message: "a cell without a paragraph"},
	}
	blocked.Structure.Shrunk = []audit.Shrink{{Metric: "tables", Before: 3, After: 2, Where: "body table 3"}}
	failed := &results.Record{ID: "c-2", Group: "model-a", Error: "open out/a/contract-2.docx: no such file\nmore detail \x01"}
	passed := &results.Record{ID: "c-3", Group: "model-b", Timings: results.Timings{Total: 800}}
	passed.Pages.Status = audit.PagesOK
	passed.Pages.Changed = []audit.ChangedPage{{Before: 2, After: 2}}
	passed.Pages.Inserted = []int{3}
	clean := &results.Record{ID: "c-4", Timings: results.Timings{Total: 5}}
	return []*results.Record{blocked, failed, passed, clean}
}

func TestWriteJUnit(t *testing.T) {
	var cases []JUnitCase
	for _, r := range junitRecords() {
		cases = append(cases, JUnitCaseOf(r))
	}
	var buf bytes.Buffer
	if err := WriteJUnit(&buf, "nightly", cases); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	var doc struct {
		Tests    int `xml:"tests,attr"`
		Failures int `xml:"failures,attr"`
		Errors   int `xml:"errors,attr"`
		Suites   []struct {
			Name  string `xml:"name,attr"`
			Tests int    `xml:"tests,attr"`
			Cases []struct {
				Name    string `xml:"name,attr"`
				Class   string `xml:"classname,attr"`
				Time    string `xml:"time,attr"`
				Failure *struct {
					Type    string `xml:"type,attr"`
					Message string `xml:"message,attr"`
					Text    string `xml:",chardata"`
				} `xml:"failure"`
				Error *struct {
					Message string `xml:"message,attr"`
				} `xml:"error"`
				Out string `xml:"system-out"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if doc.Tests != 4 || doc.Failures != 1 || doc.Errors != 1 || len(doc.Suites) != 3 {
		t.Fatalf("totals %+v\n%s", doc, out)
	}
	// Suites by name: model-a, model-b, then the run's own name.
	if doc.Suites[0].Name != "model-a" || doc.Suites[1].Name != "model-b" || doc.Suites[2].Name != "nightly" {
		t.Errorf("suites %s %s %s", doc.Suites[0].Name, doc.Suites[1].Name, doc.Suites[2].Name)
	}
	b := doc.Suites[0].Cases[0]
	if b.Name != "c-1" || b.Class != "editaudit.corpus.model-a" || b.Time != "1.234" || b.Failure == nil || b.Failure.Type != "blocked" ||
		b.Failure.Message != "blocked: 1 new fatal finding (xml.illegal-char)" ||
		!strings.Contains(b.Failure.Text, "fatal xml.illegal-char at word/document.xml:2:17: U+0001 is not allowed in XML 1.0 <here>") ||
		!strings.Contains(b.Failure.Text, "fix: remove the character") || strings.Contains(b.Failure.Text, "docx.tc-no-p") {
		t.Errorf("blocked case %+v %+v", b, b.Failure)
	}
	if !strings.Contains(b.Out, "error docx.tc-no-p") || !strings.Contains(b.Out, "structure lost: tables 3 → 2 (body table 3)") {
		t.Errorf("blocked system-out %q", b.Out)
	}
	if f := doc.Suites[0].Cases[1]; f.Error == nil || f.Error.Message != "open out/a/contract-2.docx: no such file" || f.Failure != nil {
		t.Errorf("failed case %+v", f)
	}
	if p := doc.Suites[1].Cases[0]; p.Failure != nil || p.Error != nil || !strings.Contains(p.Out, "pages: changed 2; inserted 3") {
		t.Errorf("passed case %+v", p)
	}
	if c := doc.Suites[2].Cases[0]; c.Out != "" || c.Failure != nil {
		t.Errorf("clean case %+v", c)
	}
	validateJUnit(t, buf.Bytes())
}

// validateJUnit checks the XML against the Jenkins junit-4 XSD.
func validateJUnit(t *testing.T, b []byte) {
	t.Helper()
	v := testdoc.Validators(t)
	testdoc.Tool(t, "xmllint")
	p := filepath.Join(t.TempDir(), "junit.xml")
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("sh", filepath.Join(v, "junit.sh"), p).CombinedOutput()
	if err != nil {
		t.Fatalf("JUnit XML does not validate: %v\n%s\n%s", err, out, b)
	}
	// The check can fail: a testcase without its required name does not
	// validate.
	bad := bytes.Replace(b, []byte(`<testcase name="c-1"`), []byte(`<testcase`), 1)
	if err := os.WriteFile(p, bad, 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("sh", filepath.Join(v, "junit.sh"), p).CombinedOutput(); err == nil {
		t.Errorf("a testcase without name validated:\n%s", out)
	}
}
