package synth

import (
	"errors"
	"fmt"
)

// Synthesize renders a spec of the project's own fixtures as a document
// (Options{Fixtures: true}, no self-check): docx, pptx and hwpx written
// directly as XML, xlsx through excelize and re-packed. The output is
// deterministic: the same spec gives the same bytes (fixed zip timestamps,
// fixed entry order, fixed document-property dates). The spec is validated
// first, so a spec built in code gets the same checks as one from JSON.
// Build is the entry point for specs from outside.
func Synthesize(spec *Spec) ([]byte, error) {
	data, _, err := write(spec, Options{Fixtures: true})
	return data, err
}

// write checks s under o and renders it, returning where each part of the
// output came from in the spec.
func write(s *Spec, o Options) ([]byte, *origins, error) {
	if s == nil {
		return nil, nil, errors.New("synth: nil spec")
	}
	if err := s.Check(o); err != nil {
		return nil, nil, err
	}
	e := newEnv(o)
	var data []byte
	var err error
	switch s.Format {
	case "docx":
		data, err = writeDocx(s, e)
	case "pptx":
		data, err = writePptx(s, e)
	case "xlsx":
		data, err = writeXlsx(s, e)
	case "hwpx":
		data, err = writeHwpx(s, e)
	default:
		err = fmt.Errorf("synth: unknown format %q", s.Format)
	}
	return data, e.origins, err
}

// env is what the writers of one synthesis share: the images, and the
// record of which spec path produced which part of the output.
type env struct {
	images  imageCache
	origins *origins
}

func newEnv(o Options) *env {
	return &env{images: newImageCache(o.Artifacts), origins: newOrigins()}
}
