// Package synth writes labelled test documents from a JSON spec: the spec
// types, their strict parsing and validation (every error names its JSON
// path), and four deterministic writers — docx, pptx and hwpx as XML, xlsx
// through excelize and re-packed — so that the same spec always gives the
// same bytes. It also paints the builtin images a spec may use.
//
// synth imports only formats (the format names and the one relationship
// resolver) among editaudit's packages. It must not import audit,
// baseline, pixeldiff, reports, corpus or mutate: it writes documents and
// knows nothing of audits. `editaudit corpus synth` is its command.
package synth
