// Package baseline is the snapshot of an original document — its findings,
// structure counts, page signatures and rasters, and the toolchain that made
// them — and the on-disk store of snapshots, addressed by the sha256 of the
// original's bytes.
package baseline
