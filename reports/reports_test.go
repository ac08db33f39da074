package reports

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"flag"
	"image/jpeg"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/editaudit/editaudit/audit"
	"github.com/editaudit/editaudit/content"
	"github.com/editaudit/editaudit/formats"
	"github.com/editaudit/editaudit/internal/testdoc"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden")

// golden compares got with testdata/golden/name, or rewrites it with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", "golden", name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./reports -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file (review the diff, then go test ./reports -update):\n--- got\n%s\n--- want\n%s", name, got, want)
	}
}

func TestGolden(t *testing.T) {
	writers := []struct {
		ext   string
		write func(*bytes.Buffer, *audit.Result) error
	}{
		{"txt", func(b *bytes.Buffer, r *audit.Result) error { return WriteText(b, r) }},
		{"json", func(b *bytes.Buffer, r *audit.Result) error { return WriteJSON(b, r) }},
		{"sarif", func(b *bytes.Buffer, r *audit.Result) error { return WriteSARIF(b, r) }},
	}
	for _, fx := range fixtures {
		for _, wr := range writers {
			t.Run(fx.name+"."+wr.ext, func(t *testing.T) {
				r := fx.result(t)
				before := snapshot(t, r)
				var b bytes.Buffer
				if err := wr.write(&b, r); err != nil {
					t.Fatal(err)
				}
				golden(t, fx.name+"."+wr.ext, b.Bytes())
				// Byte-stable: a second run gives the same bytes, and the
				// writer left the Result alone.
				var b2 bytes.Buffer
				if err := wr.write(&b2, fx.result(t)); err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(b.Bytes(), b2.Bytes()) {
					t.Error("two runs over the same Result differ")
				}
				if after := snapshot(t, r); !reflect.DeepEqual(before, after) {
					t.Error("the writer changed the Result")
				}
			})
		}
	}
}

// snapshot deep-copies r through JSON (JPEG bytes included by hand).
func snapshot(t *testing.T, r *audit.Result) *audit.Result {
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	var c audit.Result
	if err := json.Unmarshal(b, &c); err != nil {
		t.Fatal(err)
	}
	for i := range c.Pages.Shown {
		c.Pages.Shown[i].JPEG = r.Pages.Shown[i].JPEG
	}
	return &c
}

func TestJSONShape(t *testing.T) {
	// The zero Result: every list is [], never null, and the defaults are
	// filled in.
	var b bytes.Buffer
	if err := WriteJSON(&b, &audit.Result{}); err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b.Bytes(), &m); err != nil {
		t.Fatal(err)
	}
	if m["schema"] != "editaudit.audit/v1" {
		t.Errorf("schema = %v", m["schema"])
	}
	for _, path := range []string{"new_findings", "resolved", "structure.shrunk", "pages.changed", "pages.inserted", "pages.deleted", "pages.shown"} {
		v := lookup(m, path)
		if arr, ok := v.([]any); !ok || len(arr) != 0 {
			t.Errorf("%s = %#v, want []", path, v)
		}
	}
	for _, path := range []string{"structure.before", "structure.after"} {
		if _, ok := lookup(m, path).(map[string]any); !ok {
			t.Errorf("%s = %#v, want {}", path, lookup(m, path))
		}
	}
	if lookup(m, "pages.status") != "off" {
		t.Errorf("pages.status = %v", lookup(m, "pages.status"))
	}
	if fb, _ := m["feedback"].(string); !strings.HasPrefix(fb, "PASSED: nothing new at fatal.") {
		t.Errorf("feedback = %q", fb)
	}
	if strings.Contains(b.String(), "null") {
		t.Errorf("null in output:\n%s", b.String())
	}
	// DESIGN.md's field names, on the richest fixture.
	b.Reset()
	if err := WriteJSON(&b, passedShrunkPages(t)); err != nil {
		t.Fatal(err)
	}
	m = nil
	if err := json.Unmarshal(b.Bytes(), &m); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{"original.path", "original.sha256", "original.format", "original.pages",
		"edited.path", "blocked", "restored", "preexisting.total", "preexisting.fatal",
		"structure.before.tables", "pages.before", "pages.after", "feedback"} {
		if lookup(m, path) == nil {
			t.Errorf("%s missing", path)
		}
	}
	ch := lookup(m, "pages.changed").([]any)[0].(map[string]any)
	for _, k := range []string{"before", "after", "ratio", "boxes"} {
		if _, ok := ch[k]; !ok {
			t.Errorf("pages.changed[0].%s missing", k)
		}
	}
	sh := lookup(m, "pages.shown").([]any)[0].(map[string]any)
	if sh["image"] != "pages/p2.jpg" {
		t.Errorf("pages.shown[0].image = %v", sh["image"])
	}
	if _, ok := sh["JPEG"]; ok {
		t.Error("JPEG bytes serialised")
	}
}

func lookup(m map[string]any, path string) any {
	var v any = m
	for _, k := range strings.Split(path, ".") {
		mm, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = mm[k]
	}
	return v
}

func TestModel(t *testing.T) {
	r := passedShrunkPages(t)
	var b bytes.Buffer
	if err := WriteModel(&b, r); err != nil {
		t.Fatal(err)
	}
	if n := bytes.Count(b.Bytes(), []byte("\n")); n != 1 {
		t.Errorf("%d lines, want one line of JSON", n)
	}
	blocks := decodeModel(t, b.Bytes())
	// feedback, then (caption, image) per shown page.
	if want := 1 + 2*len(r.Pages.Shown); len(blocks) != want {
		t.Fatalf("%d blocks, want %d", len(blocks), want)
	}
	if blocks[0].Type != "text" || !strings.Contains(blocks[0].Text, "tables 5 → 1") ||
		!strings.Contains(blocks[0].Text, "nested tables removed") {
		t.Errorf("first block does not name what shrank: %+v", blocks[0])
	}
	wantCaptions := []string{
		"Page 2 (edited) vs page 2 (original): before | after, changed regions outlined; 1.3% of the page changed.",
		"Page 3 (edited), inserted: it has no original page.",
		"Page 6 (edited) vs page 5 (original): before | after, changed regions outlined; 0.4% of the page changed.",
	}
	for i, s := range r.Pages.Shown {
		capt, img := blocks[1+2*i], blocks[2+2*i]
		if capt.Type != "text" || capt.Text != wantCaptions[i] {
			t.Errorf("caption %d = %+v, want %q", i, capt, wantCaptions[i])
		}
		if img.Type != "image" || img.Source == nil || img.Source.Type != "base64" || img.Source.MediaType != "image/jpeg" {
			t.Fatalf("block %d is not a base64 JPEG image: %+v", 2+2*i, img)
		}
		raw, err := base64.StdEncoding.DecodeString(img.Source.Data)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(raw, s.JPEG) {
			t.Errorf("image %d is not the shown page's JPEG", i)
		}
		if _, err := jpeg.DecodeConfig(bytes.NewReader(raw)); err != nil {
			t.Errorf("image %d: %v", i, err)
		}
	}

	// Without any shown page: one text block.
	b.Reset()
	if err := WriteModel(&b, blockedRestored(t)); err != nil {
		t.Fatal(err)
	}
	if blocks := decodeModel(t, b.Bytes()); len(blocks) != 1 || !strings.HasPrefix(blocks[0].Text, "BLOCKED:") {
		t.Errorf("blocks = %+v", blocks)
	}

	// A shown page whose JPEG was never loaded is an error, not a silent
	// gap.
	r.Pages.Shown[1].JPEG = nil
	if err := WriteModel(&bytes.Buffer{}, r); err == nil || !strings.Contains(err.Error(), "pages/p3.jpg") {
		t.Errorf("err = %v", err)
	}
}

func decodeModel(t *testing.T, b []byte) []contentBlock {
	t.Helper()
	var m struct {
		Content []contentBlock `json:"content"`
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&m); err != nil {
		t.Fatal(err)
	}
	for i, c := range m.Content {
		switch c.Type {
		case "text":
			if c.Text == "" || c.Source != nil {
				t.Errorf("block %d: bad text block %+v", i, c)
			}
		case "image":
			if c.Text != "" || c.Source == nil {
				t.Errorf("block %d: bad image block", i)
			}
		default:
			t.Errorf("block %d: type %q", i, c.Type)
		}
	}
	return m.Content
}

func TestLoadImages(t *testing.T) {
	dir := t.TempDir()
	r := passedShrunkPages(t)
	want := r.Pages.Shown[0].JPEG
	if err := os.MkdirAll(filepath.Join(dir, "pages"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, s := range r.Pages.Shown {
		if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(s.Image)), s.JPEG, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for i := range r.Pages.Shown {
		r.Pages.Shown[i].JPEG = nil
	}
	if err := LoadImages(context.Background(), r, dir); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(r.Pages.Shown[0].JPEG, want) {
		t.Error("page 2's JPEG not loaded")
	}
	if err := WriteModel(&bytes.Buffer{}, r); err != nil {
		t.Error(err)
	}

	for _, bad := range []string{"../secret.jpg", "/etc/passwd", "pages/missing.jpg"} {
		r.Pages.Shown[0].JPEG, r.Pages.Shown[0].Image = nil, bad
		if err := LoadImages(context.Background(), r, dir); err == nil {
			t.Errorf("image %q: no error", bad)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r.Pages.Shown[0].Image = "pages/p2.jpg"
	if err := LoadImages(ctx, r, dir); err == nil {
		t.Error("cancelled context: no error")
	}
}

func TestSARIF(t *testing.T) {
	for _, fx := range fixtures {
		t.Run(fx.name, func(t *testing.T) {
			r := fx.result(t)
			var b bytes.Buffer
			if err := WriteSARIF(&b, r); err != nil {
				t.Fatal(err)
			}
			checkSARIF(t, b.Bytes(), r)
		})
	}
	// An absolute path becomes a file:// URI; spaces are escaped.
	r := blockedRestored(t)
	r.Edited.Path = "/tmp/my docs/contract.docx"
	var b bytes.Buffer
	if err := WriteSARIF(&b, r); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), `"uri": "file:///tmp/my%20docs/contract.docx"`) {
		t.Errorf("absolute path not a file URI:\n%s", b.String())
	}
}

// checkSARIF checks the properties SARIF 2.1.0 requires, and the ones
// GitHub code scanning relies on, reading the log as a consumer would.
func checkSARIF(t *testing.T, data []byte, r *audit.Result) {
	t.Helper()
	var log map[string]any
	if err := json.Unmarshal(data, &log); err != nil {
		t.Fatal(err)
	}
	if log["$schema"] != "https://json.schemastore.org/sarif-2.1.0.json" || log["version"] != "2.1.0" {
		t.Errorf("$schema/version = %v/%v", log["$schema"], log["version"])
	}
	// Every object holds only properties its SARIF 2.1.0 schema definition
	// allows (most are "additionalProperties": false).
	onlyKeys(t, "sarifLog", log, "$schema", "version", "runs", "inlineExternalProperties", "properties")
	runs, _ := log["runs"].([]any)
	if len(runs) != 1 {
		t.Fatalf("runs = %v", log["runs"])
	}
	run := runs[0].(map[string]any)
	onlyKeys(t, "run", run, "tool", "invocations", "conversion", "language", "versionControlProvenance",
		"originalUriBaseIds", "artifacts", "logicalLocations", "graphs", "results", "automationDetails",
		"runAggregates", "baselineGuid", "redactionTokens", "defaultEncoding", "defaultSourceLanguage",
		"newlineSequences", "columnKind", "externalPropertyFileReferences", "threadFlowLocations", "taxonomies",
		"addresses", "translations", "policies", "webRequests", "webResponses", "specialLocations", "properties")
	if ck, ok := run["columnKind"]; ok && ck != "utf16CodeUnits" && ck != "unicodeCodePoints" {
		t.Errorf("columnKind %v", ck)
	}
	onlyKeys(t, "tool", run["tool"].(map[string]any), "driver", "extensions", "properties")
	for _, a := range asList(run["artifacts"]) {
		onlyKeys(t, "artifact", a, "description", "location", "parentIndex", "offset", "length", "roles",
			"mimeType", "contents", "encoding", "sourceLanguage", "hashes", "lastModifiedTimeUtc", "properties")
		onlyKeys(t, "artifactLocation", a["location"].(map[string]any), "uri", "uriBaseId", "index", "description", "properties")
	}
	driver, _ := lookup(run, "tool.driver").(map[string]any)
	if driver == nil || driver["name"] != "editaudit" {
		t.Fatalf("tool.driver = %v", lookup(run, "tool.driver"))
	}
	rules, _ := driver["rules"].([]any)
	ruleIDs := map[string]int{}
	for i, x := range rules {
		rule := x.(map[string]any)
		onlyKeys(t, "reportingDescriptor", rule, "id", "deprecatedIds", "guid", "deprecatedGuids", "name",
			"deprecatedNames", "shortDescription", "fullDescription", "messageStrings", "defaultConfiguration",
			"helpUri", "help", "relationships", "properties")
		onlyKeys(t, "multiformatMessageString", rule["shortDescription"].(map[string]any), "text", "markdown", "properties")
		id, _ := rule["id"].(string)
		if id == "" || lookup(rule, "shortDescription.text") == "" {
			t.Errorf("rule %d: %v", i, rule)
		}
		if _, dup := ruleIDs[id]; dup {
			t.Errorf("rule %s twice", id)
		}
		ruleIDs[id] = i
	}
	results, ok := run["results"].([]any)
	if !ok {
		t.Fatalf("results = %v, want an array", run["results"])
	}
	// One result per new finding, then notes: per structure loss, per
	// kind of content change, per page.
	notes := len(r.Structure.Shrunk)
	switch r.Pages.Status {
	case audit.PagesOK:
		notes += len(r.Pages.Changed) + len(r.Pages.Inserted) + len(r.Pages.Deleted) + len(r.Pages.Reflowed)
	case audit.PagesFailed:
		notes++
	}
	if c := r.Content; c != nil && c.Status != content.StatusOff {
		s := c.Summary
		for _, n := range []int{s.Text, s.Format, s.Cells, s.Inserted, s.Deleted, s.Moved} {
			if n > 0 {
				notes++
			}
		}
	}
	if len(results) != len(r.NewFindings)+notes {
		t.Errorf("%d results for %d new findings and %d structure/content/page notes", len(results), len(r.NewFindings), notes)
	}
	if id, _ := lookup(run, "automationDetails.id").(string); !strings.HasPrefix(id, "editaudit/audit/") {
		t.Errorf("automationDetails.id %q", id)
	}
	usedRules := map[string]bool{}
	levels := map[string]bool{"none": true, "note": true, "warning": true, "error": true}
	for i, x := range results {
		res := x.(map[string]any)
		onlyKeys(t, "result", res, "ruleId", "ruleIndex", "rule", "kind", "level", "message", "analysisTarget",
			"locations", "guid", "correlationGuid", "occurrenceCount", "partialFingerprints", "fingerprints",
			"stacks", "codeFlows", "graphs", "graphTraversals", "relatedLocations", "suppressions", "baselineState",
			"rank", "attachments", "hostedViewerUri", "workItemUris", "provenance", "fixes", "taxa", "webRequest",
			"webResponse", "properties")
		onlyKeys(t, "message", res["message"].(map[string]any), "text", "markdown", "id", "arguments", "properties")
		id, _ := res["ruleId"].(string)
		idx, ok := ruleIDs[id]
		if !ok {
			t.Errorf("result %d: ruleId %q not among the rules", i, id)
		}
		usedRules[id] = true
		if ri, _ := res["ruleIndex"].(float64); int(ri) != idx {
			t.Errorf("result %d: ruleIndex %v, want %d", i, res["ruleIndex"], idx)
		}
		if !levels[res["level"].(string)] {
			t.Errorf("result %d: level %v", i, res["level"])
		}
		if s, _ := lookup(res, "message.text").(string); s == "" {
			t.Errorf("result %d: no message.text", i)
		}
		if strings.HasPrefix(id, "content.") {
			// A content note: after the findings, level note, the kind
			// and its count in the properties.
			if i < len(r.NewFindings) || res["level"] != "note" || lookup(res, "properties.kind") != strings.TrimPrefix(id, "content.") {
				t.Errorf("result %d: content result %v", i, res)
			}
			if n, _ := lookup(res, "properties.count").(float64); n < 1 {
				t.Errorf("result %d: count %v", i, lookup(res, "properties.count"))
			}
		}
		grade, _ := lookup(res, "properties.grade").(string)
		wantLevel := map[string]string{"fatal": "error", "error": "error", "warning": "warning", "info": "note", "": "note"}[grade]
		if (grade == "") != (i >= len(r.NewFindings)) {
			t.Errorf("result %d: grade %q: findings come first, notes after", i, grade)
		}
		rule := rules[ruleIDs[id]].(map[string]any)
		if u, _ := rule["helpUri"].(string); !strings.HasPrefix(u, SARIFDocsBase) || !strings.Contains(u, ".md") {
			t.Errorf("rule %s: helpUri %q", id, u)
		}
		if h, _ := lookup(rule, "help.text").(string); h == "" {
			t.Errorf("rule %s: no help text", id)
		}
		if res["level"] != wantLevel {
			t.Errorf("result %d: grade %s → level %v, want %s", i, grade, res["level"], wantLevel)
		}
		locs, _ := res["locations"].([]any)
		if len(locs) != 1 {
			t.Fatalf("result %d: locations %v", i, res["locations"])
		}
		loc := locs[0].(map[string]any)
		onlyKeys(t, "location", loc, "id", "physicalLocation", "logicalLocations", "message", "annotations", "relationships", "properties")
		if pl, ok := loc["physicalLocation"].(map[string]any); ok {
			onlyKeys(t, "physicalLocation", pl, "address", "artifactLocation", "region", "contextRegion", "properties")
			onlyKeys(t, "artifactLocation", pl["artifactLocation"].(map[string]any), "uri", "uriBaseId", "index", "description", "properties")
			if reg, ok := pl["region"].(map[string]any); ok {
				onlyKeys(t, "region", reg, "startLine", "startColumn", "endLine", "endColumn", "charOffset", "charLength",
					"byteOffset", "byteLength", "snippet", "message", "sourceLanguage", "properties")
			}
		}
		for _, ll := range asList(loc["logicalLocations"]) {
			onlyKeys(t, "logicalLocation", ll, "name", "index", "fullyQualifiedName", "decoratedName", "parentIndex", "kind", "properties")
		}
		uri, _ := lookup(loc, "physicalLocation.artifactLocation.uri").(string)
		if uri == "" {
			t.Errorf("result %d: no artifact uri", i)
		}
		if reg, ok := lookup(loc, "physicalLocation.region").(map[string]any); ok {
			if l, _ := reg["startLine"].(float64); l < 1 {
				t.Errorf("result %d: startLine %v", i, reg["startLine"])
			}
			if c, ok := reg["startColumn"]; ok && c.(float64) < 1 {
				t.Errorf("result %d: startColumn %v", i, c)
			}
		}
		if part, _ := lookup(res, "properties.part").(string); part != "" {
			ll, _ := loc["logicalLocations"].([]any)
			if len(ll) != 1 || ll[0].(map[string]any)["name"] != part {
				t.Errorf("result %d: logicalLocations %v, want part %s", i, ll, part)
			}
		}
		if fp, _ := lookup(res, "partialFingerprints.editauditKey/v1").(string); len(fp) != 64 {
			t.Errorf("result %d: fingerprint %q", i, fp)
		}
	}
	if len(usedRules) != len(ruleIDs) {
		t.Errorf("rules %v, used %v: every rule must be used", ruleIDs, usedRules)
	}
	if lookup(run, "properties.blocked") != r.Blocked {
		t.Errorf("properties.blocked = %v", lookup(run, "properties.blocked"))
	}
	validateSARIF(t, data)
}

// validateSARIF checks the log against the SARIF 2.1.0 JSON schema with
// ajv (tools/validate/sarif.mjs).
func validateSARIF(t *testing.T, data []byte) {
	t.Helper()
	v := testdoc.Validators(t)
	p := filepath.Join(t.TempDir(), "log.sarif")
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("node", filepath.Join(v, "sarif.mjs"), p).CombinedOutput(); err != nil {
		t.Errorf("not valid SARIF 2.1.0: %v\n%s", err, out)
	}
}

func checkFixture(t testing.TB) (*formats.Report, []CheckPage) {
	rep := &formats.Report{Path: "new/offer.docx", Format: formats.DOCX, SHA256: sha("new"),
		Findings: []formats.Finding{
			{Code: "docx.tc-no-final-p", Grade: formats.Fatal, Part: "word/document.xml", Line: 2, Column: 5120,
				Locator: "/w:document/w:body/w:tbl[1]/w:tr[2]/w:tc[3]", Message: "Table cell without a final paragraph: Word reports the file as corrupt.",
				Fix: "End every w:tc with a w:p (an empty <w:p/> is enough)."},
		},
		Counts: formats.Counts{"tables": 1, "rows": 4, "cells": 12, "paragraphs": 30}}
	pages := []CheckPage{{Page: 1, Total: 4, JPEG: pageImage(t, 1)}, {Page: 2, Total: 4, JPEG: pageImage(t, 2)}}

	return rep, pages
}

// onlyKeys fails when obj has a property the SARIF schema's definition of
// what does not list.
func onlyKeys(t *testing.T, what string, obj map[string]any, allowed ...string) {
	t.Helper()
	ok := map[string]bool{}
	for _, k := range allowed {
		ok[k] = true
	}
	for k := range obj {
		if !ok[k] {
			t.Errorf("%s: property %q not allowed by SARIF 2.1.0", what, k)
		}
	}
}

// asList reads a JSON array of objects (nil when v is not an array).
func asList(v any) []map[string]any {
	l, _ := v.([]any)
	var out []map[string]any
	for _, x := range l {
		out = append(out, x.(map[string]any))
	}
	return out
}

func TestCheckReports(t *testing.T) {
	rep, pages := checkFixture(t)
	// The text itself is audit.CheckFeedback's (tested there); the
	// writers carry it with the pages attached.
	fb := audit.CheckFeedback(rep, []int{1, 2}, 4, audit.FeedbackOptions{})
	if !strings.Contains(fb, "Pages: 1–2 of 4 attached below") {
		t.Errorf("check feedback does not name the attached pages:\n%s", fb)
	}

	var b bytes.Buffer
	if err := WriteCheckModel(&b, rep, pages); err != nil {
		t.Fatal(err)
	}
	blocks := decodeModel(t, b.Bytes())
	if len(blocks) != 5 || blocks[0].Text != fb || blocks[1].Text != "Page 1 of 4, as rendered." || blocks[4].Type != "image" {
		t.Errorf("check model blocks: %d, %+v", len(blocks), blocks[:2])
	}

	b.Reset()
	if err := WriteCheckHTML(&b, rep, pages); err != nil {
		t.Fatal(err)
	}
	html := b.String()
	for _, want := range []string{"offer.docx", "docx.tc-no-final-p", "Page 1 of 4", "as rendered", "data:image/jpeg;base64,", "The file has 1 fatal defect."} {
		if !strings.Contains(html, want) {
			t.Errorf("check HTML lacks %q", want)
		}
	}
	selfContained(t, html)

	// Nothing rendered, nothing wrong.
	ok := &formats.Report{Path: "a.xlsx", Format: formats.XLSX, Counts: formats.Counts{"sheets": 2}}
	if err := WriteCheckModel(&bytes.Buffer{}, ok, []CheckPage{{Page: 1}}); err == nil {
		t.Error("page without JPEG: no error")
	}
}

func TestHTMLDocument(t *testing.T) {
	for _, fx := range fixtures {
		t.Run(fx.name, func(t *testing.T) {
			r := fx.result(t)
			var a, b bytes.Buffer
			if err := WriteHTML(&a, r, HTMLOptions{}); err != nil {
				t.Fatal(err)
			}
			if err := WriteHTML(&b, fx.result(t), HTMLOptions{}); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(a.Bytes(), b.Bytes()) {
				t.Error("HTML is not byte-stable")
			}
			html := a.String()
			selfContained(t, html)
			wantClass := `class="verdict passed"`
			if r.Blocked {
				wantClass = `class="verdict blocked"`
			}
			if !strings.Contains(html, wantClass) {
				t.Errorf("no %s", wantClass)
			}
			for _, f := range r.NewFindings[:min(len(r.NewFindings), 3)] {
				if !strings.Contains(html, f.Code) {
					t.Errorf("finding %s missing", f.Code)
				}
			}
			if got := strings.Count(html, "data:image/jpeg;base64,"); got != len(r.Pages.Shown) {
				t.Errorf("%d embedded images, want %d", got, len(r.Pages.Shown))
			}
			for _, s := range r.Structure.Shrunk {
				if s.Where != "" && !strings.Contains(html, s.Where) {
					t.Errorf("shrink of %s: where missing", s.Metric)
				}
			}
		})
	}
	// LinkImages: a composite written beside the report is linked, not
	// embedded a second time; one without a file is still embedded.
	for _, fx := range fixtures {
		r := fx.result(t)
		if len(r.Pages.Shown) == 0 {
			continue
		}
		r.Pages.Shown[0].Image = "pages/p1.jpg"
		var b bytes.Buffer
		if err := WriteHTML(&b, r, HTMLOptions{LinkImages: true}); err != nil {
			t.Fatal(err)
		}
		html := b.String()
		embedded := 0
		for _, s := range r.Pages.Shown {
			if s.Image == "" && len(s.JPEG) > 0 {
				embedded++
			}
		}
		if !strings.Contains(html, `src="pages/p1.jpg"`) || strings.Count(html, "data:image/jpeg;base64,") != embedded {
			t.Errorf("%s with LinkImages: %d embedded images, want %d (the shown pages without a file); link present %v", fx.name,
				strings.Count(html, "data:image/jpeg;base64,"), embedded, strings.Contains(html, `src="pages/p1.jpg"`))
		}
	}
	// Markup in findings is escaped.
	r := blockedRestored(t)
	r.NewFindings[0].Message = `<script>alert(1)</script>`
	var b bytes.Buffer
	if err := WriteHTML(&b, r, HTMLOptions{}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "<script>alert") {
		t.Error("finding message not escaped")
	}
	// The findings cap is stated.
	b.Reset()
	if err := WriteHTML(&b, manyFindings(t), HTMLOptions{MaxFindings: 10}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "… and 17 more not listed (cap 10).") {
		t.Error("HTML findings cap not stated")
	}
}

// The content card: a redline per location (deletions struck, insertions
// underlined, markup in the text escaped), lost formatting marked, the
// cap stated; a diff that was off or partial says so.
func TestHTMLContent(t *testing.T) {
	var b bytes.Buffer
	if err := WriteHTML(&b, passedShrunkPages(t), HTMLOptions{}); err != nil {
		t.Fatal(err)
	}
	html := b.String()
	for _, want := range []string{
		`<section class="card" id="content">`,
		`…Supplier shall deliver the goods within <del>30</del><ins>45</ins> days of the order<ins> &lt;b&gt;</ins>.`,
		`<tr class="lost">`, `<span class="badge k-format">formatting lost</span>`,
		`<del>bold; font Comic Sans MS</del><span class="arrow">→</span><ins>not bold; font Times New Roman</ins>`,
		`<span class="where">body paragraph 3</span><span class="from">from body paragraph 40</span>`,
		`<td><div class="rl"><del>This clause survives termination.</del></div></td>`,
		`<dt>Touched</dt><dd>5 of the original&#39;s paragraphs (6.2%)</dd>`,
		"… and 6 more changes not drawn (the audit lists 6; --format json has the same list); the counts above include them.",
		`<div class="t-label">Content changed</div><div class="t-value">12</div><div class="t-note">1 lost formatting</div>`,
	} {
		if !strings.Contains(html, want) {
			t.Errorf("HTML lacks %s", want)
		}
	}
	if i, j, k := strings.Index(html, `id="structure"`), strings.Index(html, `id="content"`), strings.Index(html, `id="pages"`); i > j || j > k {
		t.Error("the content card is not between structure and pages")
	}
	b.Reset()
	if err := WriteHTML(&b, passedShrunkPages(t), HTMLOptions{MaxContentChanges: 2}); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(b.String(), `<td><span class="badge k-`); n != 2 || !strings.Contains(b.String(), "… and 10 more changes not drawn (cap 2)") {
		t.Errorf("%d rows; cap not stated", n)
	}
	for _, c := range []struct {
		fx   func(testing.TB) *audit.Result
		want string
	}{
		{blockedRestored, `<p class="notice off">Content was not compared: the content diff was not asked for (--content off).</p>`},
		{manyFindings, `<p class="notice failed">Content was compared only in part: Contents/section2.xml did not parse in the edited file`},
		{pagesFailed, `<td class="loc"><span class="where">&#39;Price list&#39;!C14</span>`},
	} {
		b.Reset()
		if err := WriteHTML(&b, c.fx(t), HTMLOptions{}); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(b.String(), c.want) {
			t.Errorf("HTML lacks %s", c.want)
		}
	}
}

// selfContained fails when the HTML would fetch anything.
func selfContained(t *testing.T, html string) {
	t.Helper()
	for _, bad := range []string{"<script", "<link", "@import", `src="http`, `href="http`, "url(http"} {
		if strings.Contains(html, bad) {
			t.Errorf("HTML is not self-contained: %q", bad)
		}
	}
}

// TestSARIFSchemaCheckCanFail: the schema check rejects a log with a
// level SARIF does not define.
func TestSARIFSchemaCheckCanFail(t *testing.T) {
	v := testdoc.Validators(t)
	var b bytes.Buffer
	if err := WriteSARIF(&b, blockedRestored(t)); err != nil {
		t.Fatal(err)
	}
	bad := strings.Replace(b.String(), `"level": "error"`, `"level": "fatal"`, 1)
	p := filepath.Join(t.TempDir(), "bad.sarif")
	if err := os.WriteFile(p, []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("node", filepath.Join(v, "sarif.mjs"), p).CombinedOutput(); err == nil {
		t.Errorf("level fatal validated:\n%s", out)
	}
}
