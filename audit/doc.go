// Package audit compares an edited document against the snapshot of its
// original: new findings only, structure that shrank, content that changed
// (the content package's diff), pages that changed; it applies the gate
// (block only on a new fatal finding) and can restore the original
// atomically. Reader audits documents given by their contents
// (an upload); Files is the path convenience over it and the only form that
// restores. StartRenderer turns a --render mode into a Renderer.
//
// It owns every sentence a model reads: the audit's Feedback (the JSON
// "feedback" field, filled in by Files and Reader), CheckFeedback for a new
// file, and the captions of page images. The text lives here, not in
// reports, because Result.Feedback is part of the result the engine returns
// (corpus records and the service carry it without any writer) and reports
// imports audit.
//
// It imports formats, formats/inspect, content (the content diff it runs
// beside the rest), pixeldiff, render and baseline; it must not
// import reports, corpus or cmd (they import it).
package audit
