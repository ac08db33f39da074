package audit_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/editaudit/editaudit/audit"
	"github.com/editaudit/editaudit/mutate"
	"github.com/editaudit/editaudit/synth"
)

// An editing service audits each edit before shipping it: only a new
// fatal finding blocks; lost structure is reported for the model to judge.
func ExampleFiles() {
	dir, _ := os.MkdirTemp("", "editaudit-example-")
	defer os.RemoveAll(dir)

	// A contract template and an edit that wiped the nested tables of a
	// cell, as python-docx's cell.text setter does.
	f, _ := os.Open("../examples/specs/contract.json")
	spec, _ := synth.ParseSpec(f)
	f.Close()
	original, _ := synth.Synthesize(spec)
	edited, _ := mutate.Mutate("docx.nested-tables-wiped", original)
	o, e := filepath.Join(dir, "contract.docx"), filepath.Join(dir, "edited.docx")
	os.WriteFile(o, original, 0o644)
	os.WriteFile(e, edited, 0o644)

	res, err := audit.Files(context.Background(), o, e, audit.Options{Render: audit.RenderOff})
	if err != nil {
		fmt.Println("audit failed:", err)
		return
	}
	fmt.Println("blocked:", res.Blocked)
	fmt.Println("new findings:", len(res.NewFindings))
	for _, s := range res.Structure.Shrunk {
		if s.Metric == "tables" {
			fmt.Printf("tables %d -> %d (%s)\n", s.Before, s.After, s.Where)
		}
	}
	// Output:
	// blocked: false
	// new findings: 0
	// tables 8 -> 6 (body table 3, row 2, cell 2: 2 tables removed)
}
