// Package corpus runs audits in bulk over many edit pairs (a manifest or two
// folders): resumable, sharded, with summary metrics. It also generates
// labelled test documents: specs rendered by deterministic writers, and
// injectors that apply one known defect or edit to a file.
package corpus
