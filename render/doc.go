// Package render turns documents into pages: a Converter makes a PDF (Pool
// supervises batch LibreOffice processes with their profiles, staging,
// deadlines and quarantine), a Rasterizer draws the PDF's pages as
// pixeldiff Rasters (poppler's pdftoppm by default, MuPDF's mutool without
// poppler; whole documents or page ranges), and the Renderer joins the
// two, signs each page (RenderSigs) and names the Toolchain that made the
// pixels. New is the one constructor the library and the command use.
// WriteFolder draws a document into a folder of page images with
// pages.json (the public schema editaudit.pages/v1, PagesFile).
//
// It imports pixeldiff for Raster and the signatures, and
// formats/hwpx/convert to lay out Hangul documents (LibreOffice has no
// HWPX filter); of formats nothing else: it must not import formats,
// formats/inspect, baseline, audit, reports or corpus (they import it).
package render
