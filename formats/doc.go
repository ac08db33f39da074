// Package formats reads Office packages safely and speaks the vocabulary
// every other package uses.
//
// It holds the shared package reader (zip under explicit limits, content
// types, relationships, an XML scanner that reports part, line and column),
// the Finding/Grade/Counts/Site types, the package-level checks (content
// types, relationships and their types, type agreement of content and file
// extension, reachability), and one sub-package per format: docx,
// pptx, xlsx and hwpx, each with its validators and structure counter.
// formats/inspect wires the four together behind one call.
//
// It is the bottom of the import graph: of editaudit it imports only
// internal/ctxio, and it must not import formats/inspect, content,
// pixeldiff, render, baseline, audit, reports, corpus, synth, mutate or cmd
// (they all import it, directly or through formats/inspect).
package formats
