// Package baseline is the snapshot of an original document — its
// inspection report (findings, structure counts), one signature per
// rendered page with the running header/footer bands, the hash of its
// rendered PDF and the toolchain that made them — and the on-disk store of
// snapshots, addressed by the sha256 of the original's bytes and the
// renderer's toolchain key. A snapshot never holds rasters: the store
// keeps the PDF, and a page is re-drawn from it when it must be compared
// or shown.
//
// It imports formats, formats/inspect, pixeldiff and render; it
// must not import audit, reports or corpus (they import it).
package baseline
