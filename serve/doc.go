// Package serve owns the HTTP API of editaudit (`editaudit serve`,
// DESIGN.md "Service"; described in api/openapi.yaml): POST /v1/audit,
// /v1/check and /v1/baseline over multipart uploads, GET /healthz and the
// Prometheus text of GET /metrics. It keeps one warm Renderer and one
// baseline store for every request, admits at most Workers requests at once
// behind a bounded queue (503 + Retry-After beyond it), streams uploads
// under a size limit into a private temporary folder under names it chooses
// (removed after the response, also when the client goes away), checks the
// Bearer token when one is configured, and drains in-flight requests on
// shutdown. Every report body is what the CLI prints for the same files and
// format, written by reports. Client is the Go client `editaudit audit
// --server` uses.
//
// It imports audit, baseline, formats/inspect, render and reports
// (and synth for the warm-up documents); it must not import cmd or corpus.
package serve
