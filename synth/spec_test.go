package synth_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/editaudit/editaudit/synth"
	"github.com/editaudit/editaudit/synth/synthtest"
)

func TestParseSpecErrors(t *testing.T) {
	rows := func(n int) string {
		var r []string
		for i := 0; i < n; i++ {
			r = append(r, `{"cells":[{"text":"x"}]}`)
		}
		return strings.Join(r, ",")
	}
	cells := func(n int) string {
		var c []string
		for i := 0; i < n; i++ {
			c = append(c, `{"text":"x"}`)
		}
		return strings.Join(c, ",")
	}
	nested := func(depth int) string {
		s := `{"paragraph":{"text":"leaf"}}`
		for i := 0; i < depth; i++ {
			s = `{"table":{"rows":[{"cells":[{"blocks":[` + s + `]}]}]}}`
		}
		return s
	}
	docx := func(body string) string { return `{"format":"docx","docx":{"body":[` + body + `]}}` }
	tests := []struct {
		name, spec string
		want       []string // substrings of the error
	}{
		{"unknown top key", `{"format":"docx","docx":{"body":[{"pageBreak":true}]},"author":"x"}`, []string{"$.author", `unknown key "author"`}},
		{"unknown nested key", docx(`{"paragraph":{"text":"a"}},{"table":{"rows":[{"cells":[{"text":"a"},{"txt":"b"}]}]}}`), []string{"$.docx.body[1].table.rows[0].cells[1].txt", `unknown key "txt"`}},
		{"wrong type", docx(`{"heading":{"level":"one","text":"a"}}`), []string{"$.docx.body[0].heading.level", "expected an integer"}},
		{"missing format", `{"docx":{"body":[]}}`, []string{"$.format", "missing"}},
		{"bad format", `{"format":"odt"}`, []string{"$.format", `"odt" is not one of`}},
		{"body of another format", `{"format":"docx","docx":{"body":[{"pageBreak":true}]},"pptx":{"slides":[]}}`, []string{"$.pptx", "cannot have"}},
		{"two things in a block", docx(`{"paragraph":{"text":"a"},"pageBreak":true}`), []string{"$.docx.body[0]", "exactly one"}},
		{"rows cap", docx(`{"table":{"rows":[` + rows(synth.MaxRows+1) + `]}}`), []string{"$.docx.body[0].table.rows", fmt.Sprintf("cap of %d", synth.MaxRows)}},
		{"cells cap", docx(`{"table":{"rows":[{"cells":[` + cells(synth.MaxCells+1) + `]}]}}`), []string{"$.docx.body[0].table.rows[0].cells", fmt.Sprintf("cap of %d", synth.MaxCells)}},
		{"nesting cap", docx(nested(synth.MaxNesting + 1)), []string{".blocks[0].table", fmt.Sprintf("cap of %d", synth.MaxNesting)}},
		{"text cap", docx(`{"paragraph":{"text":"` + strings.Repeat("a", synth.MaxTextLen+1) + `"}}`), []string{"$.docx.body[0].paragraph.text", fmt.Sprintf("cap of %d", synth.MaxTextLen)}},
		{"illegal char", docx(`{"paragraph":{"text":"a\u000bb"}}`), []string{"$.docx.body[0].paragraph.text", "U+000B"}},
		{"grid mismatch", docx(`{"table":{"rows":[{"cells":[{"text":"a"},{"text":"b"}]},{"cells":[{"text":"c"}]}]}}`), []string{"$.docx.body[0].table.rows[1]", "grid columns"}},
		{"vmerge without restart", docx(`{"table":{"rows":[{"cells":[{"text":"a"}]},{"cells":[{"vmerge":"continue"}]}]}}`), []string{"$.docx.body[0].table.rows[1].cells[0].vmerge", "restart"}},
		{"empty row", docx(`{"table":{"rows":[{"cells":[]}]}}`), []string{"$.docx.body[0].table.rows[0].cells", "w:tr without w:tc"}},
		{"image path", docx(`{"image":{"src":"/etc/passwd"}}`), []string{"$.docx.body[0].image.src", "is a path", "refused"}},
		{"image url", docx(`{"image":{"src":"https://example.com/a.png"}}`), []string{"$.docx.body[0].image.src", "is a URL"}},
		{"image data uri", docx(`{"image":{"src":"data:image/png;base64,AAAA"}}`), []string{"$.docx.body[0].image.src", "is a data: URI"}},
		{"image not png", docx(`{"image":{"data":"aGVsbG8="}}`), []string{"$.docx.body[0].image.data", "neither a PNG nor a JPEG"}},
		{"artifact without folder", docx(`{"image":{"src":"artifact:logo.png"}}`), []string{"$.docx.body[0].image.src", "no artifacts folder"}},
		{"page break in cell", docx(`{"table":{"rows":[{"cells":[{"blocks":[{"pageBreak":true}]}]}]}}`), []string{"cells[0].blocks[0].pageBreak", "top level"}},
		{"field outside docx", `{"format":"pptx","pptx":{"slides":[{"body":[{"runs":[{"field":"PAGE"}]}]}]}}`, []string{"$.pptx.slides[0].body[0].runs[0].field", "docx only"}},
		{"slides cap", `{"format":"pptx","pptx":{"slides":[` + strings.TrimSuffix(strings.Repeat(`{"title":"t"},`, synth.MaxSlides+1), ",") + `]}}`, []string{"$.pptx.slides", fmt.Sprintf("cap of %d", synth.MaxSlides)}},
		{"sheet name", `{"format":"xlsx","xlsx":{"sheets":[{"name":"a/b"}]}}`, []string{"$.xlsx.sheets[0].name", "contains one of"}},
		{"duplicate sheet", `{"format":"xlsx","xlsx":{"sheets":[{"name":"Data"},{"name":"DATA"}]}}`, []string{"$.xlsx.sheets[1].name", "case-insensitively"}},
		{"sheets cap", `{"format":"xlsx","xlsx":{"sheets":[` + strings.TrimSuffix(strings.Repeat(`{"name":"s"},`, synth.MaxSheets+1), ",") + `]}}`, []string{"$.xlsx.sheets", fmt.Sprintf("cap of %d", synth.MaxSheets)}},
		{"cell object key", `{"format":"xlsx","xlsx":{"sheets":[{"name":"S","rows":[[1,{"valeu":2}]]}]}}`, []string{"$.xlsx.sheets[0].rows[0][1].valeu", "unknown key"}},
		{"cell two values", `{"format":"xlsx","xlsx":{"sheets":[{"name":"S","rows":[[{"text":"a","number":2}]]}]}}`, []string{"$.xlsx.sheets[0].rows[0][0]", "one of text"}},
		{"bad formula", `{"format":"xlsx","xlsx":{"sheets":[{"name":"S","rows":[["=SUM(A1"]]}]}}`, []string{"$.xlsx.sheets[0].rows[0][0]", "unbalanced"}},
		{"overlapping merges", `{"format":"xlsx","xlsx":{"sheets":[{"name":"S","merges":["A1:B2","B2:C3"]}]}}`, []string{"$.xlsx.sheets[0].merges[1]", "overlaps"}},
		{"merge in table", `{"format":"xlsx","xlsx":{"sheets":[{"name":"S","rows":[["a","b"],[1,2]],"merges":["A2:B2"],"tables":[{"name":"T","ref":"A1:B2"}]}]}}`, []string{"$.xlsx.sheets[0].tables[0].ref", "merges inside tables"}},
		{"table header", `{"format":"xlsx","xlsx":{"sheets":[{"name":"S","rows":[["a",1],[1,2]],"tables":[{"name":"T","ref":"A1:B2"}]}]}}`, []string{"$.xlsx.sheets[0].tables[0].ref", "header cell B1"}},
		{"validation too long", `{"format":"xlsx","xlsx":{"sheets":[{"name":"S","validations":[{"ref":"A1","list":["` + strings.Repeat("x", 200) + `","` + strings.Repeat("y", 100) + `"]}]}]}}`, []string{"$.xlsx.sheets[0].validations[0].list", "cap is 255"}},
		{"spill over value", `{"format":"xlsx","xlsx":{"sheets":[{"name":"S","rows":[[{"formula":"SEQUENCE(2)","spill":"A1:A2"}],[5]]}]}}`, []string{"$.xlsx.sheets[0].rows[0][0].spill", "#SPILL!"}},
		{"hwpx list", `{"format":"hwpx","hwpx":{"sections":[{"blocks":[{"list":{"items":[{"text":"a"}]}}]}]}}`, []string{"$.hwpx.sections[0].blocks[0].list", "not supported"}},
		{"trailing data", `{"format":"docx","docx":{"body":[{"pageBreak":true}]}} {}`, []string{"$", "trailing data"}},
		{"not json", `{"format":`, []string{"$", "not valid JSON"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := synth.ParseSpec(strings.NewReader(tc.spec))
			if err == nil {
				t.Fatal("ParseSpec accepted an invalid spec")
			}
			var se *synth.SpecErrors
			if !errors.As(err, &se) {
				t.Fatalf("error %T is not synth.SpecErrors: %v", err, err)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not contain %q", err, w)
				}
			}
		})
	}
}

func TestParseSpecTooLarge(t *testing.T) {
	big := strings.NewReader(`{"format":"docx","title":"` + strings.Repeat("a", synth.MaxSpecBytes) + `"}`)
	_, err := synth.ParseSpec(big)
	var se *synth.SpecErrors
	if !errors.As(err, &se) || len(se.Errors) != 1 || se.Errors[0].Cap != synth.MaxSpecBytes || se.Errors[0].Path != "$" {
		t.Fatalf("err = %v, want one spec error at $ with the cap %d", err, synth.MaxSpecBytes)
	}
}

// TestExampleSpecs: every shipped spec parses, and each format has one.
func TestExampleSpecs(t *testing.T) {
	seen := map[string]bool{}
	for _, name := range synthtest.ExampleSpecs(t) {
		s := synthtest.LoadSpec(t, name)
		seen[s.Format] = true
	}
	for _, f := range []string{"docx", "pptx", "xlsx", "hwpx"} {
		if !seen[f] {
			t.Errorf("examples/specs has no %s spec", f)
		}
	}
}

func TestXCellForms(t *testing.T) {
	var row []synth.XCell
	if err := json.Unmarshal([]byte(`["a","=SUM(A1:A2)",3.5,true,null,{"formula":"=LET(x,1,x)","bold":true},{"rawFormula":"LET(x,1,x)"}]`), &row); err != nil {
		t.Fatal(err)
	}
	want := []struct{ kind, text, formula string }{{"text", "a", ""}, {"formula", "", "SUM(A1:A2)"}, {"number", "", ""}, {"bool", "", ""}, {"", "", ""}, {"formula", "", "LET(x,1,x)"}, {"rawFormula", "", "LET(x,1,x)"}}
	for i, w := range want {
		if row[i].Kind != w.kind || row[i].Text != w.text || row[i].Formula != w.formula {
			t.Errorf("cell %d = %+v, want %+v", i, row[i], w)
		}
	}
	if row[2].Number != 3.5 || !row[3].Bool || !row[5].Bold {
		t.Errorf("values lost: %+v", row)
	}
	// The object form round-trips.
	b, err := json.Marshal(row)
	if err != nil {
		t.Fatal(err)
	}
	var again []synth.XCell
	if err := json.Unmarshal(b, &again); err != nil {
		t.Fatal(err)
	}
	for i := range row {
		if row[i] != again[i] {
			t.Errorf("cell %d: %+v after a round trip, want %+v", i, again[i], row[i])
		}
	}
}
