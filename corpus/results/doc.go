// Package results holds what a corpus run leaves behind, as data: the
// layout of a run folder, the Record of each pair (one results.jsonl line)
// and the reader that finds each pair's current line, run.json (RunInfo,
// sessions, throughput), and what is computed from them — the Summary of
// damage metrics overall and per group, and the Comparison of two runs.
//
// It imports audit (a Record embeds an audit.Result), content (its status
// values) and formats, and nothing else of editaudit. It must not import corpus (which writes run
// folders), reports (which draws these types as text and HTML), baseline,
// pixeldiff, render, synth or mutate: reading results needs none of them.
package results
