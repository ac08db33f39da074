package reports

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/editaudit/editaudit/formats"
)

// TestWriteAudit: WriteAudit is the format's own writer, byte for byte,
// for every format it names, and an unknown format is ErrUnknownFormat.
func TestWriteAudit(t *testing.T) {
	r := passedShrunkPages(t)
	own := map[string]func(*bytes.Buffer) error{
		FormatText:  func(b *bytes.Buffer) error { return WriteText(b, r) },
		FormatJSON:  func(b *bytes.Buffer) error { return WriteJSON(b, r) },
		FormatModel: func(b *bytes.Buffer) error { return WriteModel(b, r) },
		FormatHTML:  func(b *bytes.Buffer) error { return WriteHTML(b, r, HTMLOptions{}) },
		FormatSARIF: func(b *bytes.Buffer) error { return WriteSARIF(b, r) },
	}
	if len(own) != len(AuditFormats) {
		t.Fatalf("AuditFormats %v", AuditFormats)
	}
	for _, f := range AuditFormats {
		var got, want bytes.Buffer
		if err := WriteAudit(&got, r, f, AuditOptions{}); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if err := own[f](&want); err != nil {
			t.Fatal(err)
		}
		if got.Len() == 0 || !bytes.Equal(got.Bytes(), want.Bytes()) {
			t.Errorf("%s: WriteAudit differs from the format's writer", f)
		}
	}
	if err := WriteAudit(&bytes.Buffer{}, r, "yaml", AuditOptions{}); !errors.Is(err, ErrUnknownFormat) {
		t.Errorf("yaml: %v", err)
	}
}

// TestWriteCheck: json is one editaudit.check/v1 object for one report
// and an array for several; text separates files by a blank line and
// prints the parts only when asked; model and html take exactly one
// report.
func TestWriteCheck(t *testing.T) {
	rep, pages := checkFixture(t)
	rep.Parts = map[string]formats.Counts{"word/document.xml": {"tables": 1}}
	ok := &formats.Report{Path: "a.xlsx", Format: formats.XLSX, Flavor: "xlsm", SHA256: sha("a"), Counts: formats.Counts{"sheets": 2}}

	var b bytes.Buffer
	if err := WriteCheck(&b, []*formats.Report{rep}, FormatJSON, CheckOptions{}); err != nil {
		t.Fatal(err)
	}
	var one CheckJSON
	if err := json.Unmarshal(b.Bytes(), &one); err != nil || one.Schema != CheckSchema || !one.Fatal || one.Parts != nil || len(one.Findings) != 1 {
		t.Errorf("one report: %v\n%s", err, b.String())
	}
	b.Reset()
	if err := WriteCheck(&b, []*formats.Report{rep, ok}, FormatJSON, CheckOptions{Parts: true}); err != nil {
		t.Fatal(err)
	}
	var two []CheckJSON
	if err := json.Unmarshal(b.Bytes(), &two); err != nil || len(two) != 2 || two[0].Parts == nil || two[1].Fatal || two[1].Findings == nil {
		t.Errorf("two reports: %v\n%s", err, b.String())
	}
	if !strings.Contains(b.String(), `"findings": []`) {
		t.Error("a report without findings is not written as findings: []")
	}

	b.Reset()
	if err := WriteCheck(&b, []*formats.Report{rep, ok}, FormatText, CheckOptions{Parts: true}); err != nil {
		t.Fatal(err)
	}
	text := b.String()
	for _, want := range []string{"new/offer.docx (docx)\n", "      fix: End every w:tc", "FATAL: the application will refuse or repair this file",
		"structure: cells=12", "    word/document.xml: tables=1\n", "\n\na.xlsx (xlsm)\n", "ok: no fatal findings"} {
		if !strings.Contains(text, want) {
			t.Errorf("text lacks %q:\n%s", want, text)
		}
	}

	for _, f := range []string{FormatModel, FormatHTML} {
		b.Reset()
		if err := WriteCheck(&b, []*formats.Report{rep}, f, CheckOptions{Pages: pages}); err != nil || !strings.Contains(b.String(), "docx.tc-no-final-p") {
			t.Errorf("%s: %v", f, err)
		}
		if err := WriteCheck(&bytes.Buffer{}, []*formats.Report{rep, ok}, f, CheckOptions{}); err == nil {
			t.Errorf("%s of two reports: no error", f)
		}
	}
	if err := WriteCheck(&bytes.Buffer{}, []*formats.Report{ok}, FormatSARIF, CheckOptions{}); !errors.Is(err, ErrUnknownFormat) {
		t.Errorf("check sarif: %v", err)
	}
}
