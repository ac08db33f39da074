// Package mcp serves editaudit's tools over the Model Context Protocol
// (`editaudit mcp`, docs/mcp.md), with the official Go SDK
// (github.com/modelcontextprotocol/go-sdk): over stdio, or streamable HTTP
// behind the access rule of internal/httpauth (loopback, or a bearer
// token). It is a driver beside serve: it turns tool calls into calls of
// the engine and the engine's answers into MCP content.
//
// The tools: check (a new file's findings and first pages), audit (an
// edit against its original, or against an original stored by its
// sha256: the model feedback, before/after page images within the byte
// budget of reports, blocked and counts as structured content, and the
// original put back when blocked if asked), synth (the spec's JSON Schema
// is the input schema; editaudit's own validation answers, every error at
// once with its $. path and cap), render (pages as images and the
// pages.json description) and baseline (an original stored for later
// audits). Every path is resolved, symbolic links included, and must lie
// under one of the server's roots; a path that does not, or names no
// file, is a tool error that reads nothing. One warm Renderer
// (LibreOffice) and one baseline store serve every call; long calls send
// progress notifications when the client asked for them, and a cancelled
// call cancels its LibreOffice work.
//
// It imports audit, baseline, formats, formats/inspect, render, reports,
// synth and internal packages. It must not import serve, corpus, mutate
// or cmd, and nothing imports it but cmd/editaudit.
package mcp
