package synth

import (
	"errors"
	"fmt"
)

// Synthesize renders a spec as a document: docx, pptx and hwpx written
// directly as XML, xlsx through excelize and re-packed. The output is
// deterministic: the same spec gives the same bytes (fixed zip timestamps,
// fixed entry order, fixed document-property dates). The spec is validated
// first, so a spec built in code gets the same checks as one from JSON.
func Synthesize(spec *Spec) ([]byte, error) {
	if spec == nil {
		return nil, errors.New("synth: nil spec")
	}
	if err := spec.Validate(); err != nil {
		return nil, err
	}
	switch spec.Format {
	case "docx":
		return writeDocx(spec)
	case "pptx":
		return writePptx(spec)
	case "xlsx":
		return writeXlsx(spec)
	case "hwpx":
		return writeHwpx(spec)
	}
	return nil, fmt.Errorf("synth: unknown format %q", spec.Format)
}
