// Package pixeldiff holds pages as pixels: rendering documents with a
// supervised LibreOffice into PDF, rasterizing PDF pages into Rasters, and
// comparing Rasters (exact fast path, tolerant per-pixel diff, changed
// regions, page alignment, before/after composites, JPEG encoding).
//
// Rendering and comparison share one type, Raster: 8-bit RGB without
// padding, read from the rasterizer's PPM output and never PNG-encoded just
// to be compared.
package pixeldiff
