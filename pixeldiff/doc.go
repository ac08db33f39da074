// Package pixeldiff holds pages as pixels and compares them: Raster (8-bit
// RGB without padding, read from a rasterizer's PPM stream and never
// PNG-encoded just to be compared), the tolerant per-pixel comparison with
// its changed regions, running header/footer bands, page signatures,
// page alignment and reflow detection, the --show budget, before/after
// composites and JPEG encoding.
//
// It owns no process and no document format: turning a document into
// Rasters is render's job. It imports only the standard library
// and image libraries; it must not import render, formats,
// baseline, audit or reports (they import it).
package pixeldiff
