// Package reports writes audit and check results: text (the model
// feedback), JSON, model content blocks, HTML, SARIF; and a corpus run's
// summary (text, JSON, HTML), index.html and run comparison, drawn from
// the corpus/results data types (corpus_*.go). WriteAudit and WriteCheck
// are exactly what `editaudit audit|check --format F` print, so the CLI
// and an HTTP service give the same bytes; the check's public schema
// (editaudit.check/v1, CheckJSON) is defined here.
//
// Every writer is byte-stable: the same Result gives the same bytes (no
// timestamps, no map order, no paths other than the ones in the Result).
// The writers never change the Result they are given; the one exception is
// LoadImages, whose purpose is to fill in the shown pages' JPEG bytes.
//
// The sentences a model reads (the audit's feedback, the check's, the
// captions of page images) are built by audit; reports lays them out and
// builds none of its own. It imports audit and formats; it must not import
// pixeldiff/render, baseline, the corpus runner or cmd.
package reports
