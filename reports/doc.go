// Package reports writes audit and check results: text (the model
// feedback), JSON, model content blocks, HTML, SARIF; and a corpus run's
// summary (text, JSON, HTML, JUnit XML), index.html and run comparison
// with its gates, drawn from the corpus/results data types (corpus_*.go). WriteAudit and WriteCheck
// are exactly what `editaudit audit|check --format F` print, so the CLI
// and an HTTP service give the same bytes; the check's public schema
// (editaudit.check/v1, CheckJSON) is defined here.
//
// Every writer is byte-stable: the same Result gives the same bytes (no
// timestamps, no map order, no paths other than the ones in the Result).
// The writers never change the Result they are given; the one exception is
// LoadImages, whose purpose is to fill in the shown pages' JPEG bytes.
//
// The model output keeps within a byte budget (budget.go): page images
// are downscaled, then dropped, and audit's ImageBudgetNote says so.
//
// The sentences a model reads (the audit's feedback, the check's, the
// captions of page images, the budget note) are built by audit; reports
// lays them out and builds none of its own. The people-facing sentences of
// SARIF notes and JUnit cases are written here. It imports audit, content
// (the kinds of change it lays out), formats and pixeldiff (to scale page
// images); it must not import
// render, baseline, the corpus runner or cmd.
package reports
