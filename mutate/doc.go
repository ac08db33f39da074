// Package mutate edits a document the way a known tool or bug does and
// says what an audit must then report: injectors for edit damage that
// validators cannot see (a wiped nested table, a deleted slide, an
// openpyxl resave), benign edits, and defects with fixed finding codes,
// each with its Expectation (blocked or not, the code and grade, the
// structure metrics that shrink, whether the pages change). Every zip
// entry an injector does not change is copied byte for byte.
//
// mutate works on the package as zip entries and XML trees (etree) and
// reads relationships the way the validators do (formats.RelsPartOf,
// formats.ResolveTarget; namespace names from formats/docx, pptx, xlsx).
// It must not import audit, baseline, pixeldiff, render, reports, corpus or synth:
// it edits files and knows nothing of audits or of how a test document
// was made. `editaudit corpus mutate` is its command.
package mutate
