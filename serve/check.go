package serve

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
)

// The form of POST /v1/check.
var checkForm = form{files: []string{"file"}, fields: []string{"format", "render", "show", "parts", "name"}}

// check answers POST /v1/check. Until the check writers move out of the
// command into reports it answers 501.
func (s *Server) check(ctx context.Context, req *request) (*answer, error) {
	return nil, &apiError{Status: http.StatusNotImplemented, Code: "not_implemented", Message: "check is not wired yet"}
}

// writeJSON writes v as the CLI's JSON writers do: indented by two spaces,
// HTML characters unescaped, newline-terminated.
func writeJSON(b *bytes.Buffer, v any) error {
	enc := json.NewEncoder(b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
