// Package synth writes documents from a JSON spec — what a model emits as
// a tool call — with deterministic writers: the spec types, their strict
// decoding and validation (every problem at once, each with its JSON path
// and the cap it breaks), the four writers (docx, pptx and hwpx as XML,
// xlsx through excelize and re-packed; native charts in all but hwpx), the
// images a spec may name (artifact handles resolved in one folder; the
// project's builtin test images), the JSON Schema of a spec, and Build,
// which checks what was written with formats/inspect (a fatal or error
// finding becomes a spec error at the spec path behind it), counts pages,
// recalculates workbooks and makes PDFs through a render
// Converter and Exporter.
//
// It imports formats (and formats/inspect, formats/xlsx for the
// dynamic-array functions) and render. It must not import audit,
// baseline, reports, corpus, mutate or pixeldiff (rasters and their
// comparison): it writes documents and knows nothing of audits. `editaudit synth` is its command (docs/synth.md).
package synth
