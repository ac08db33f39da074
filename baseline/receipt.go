package baseline

import (
	"context"

	"github.com/editaudit/editaudit/render"
)

// ReceiptSchema names a Receipt: the answer of the service's POST
// /v1/baseline (api/openapi.yaml) and the structured result of editaudit
// mcp's baseline tool.
const ReceiptSchema = "editaudit.baseline/v1"

// Receipt says what Keep stored: the document's sha256 (what an audit
// names the original by), its format and findings, and its pages.
type Receipt struct {
	Schema string `json:"schema"`
	SHA256 string `json:"sha256"`
	Name   string `json:"name"`
	Format string `json:"format"`
	// Stored is "stored" (made now) or "already stored".
	Stored   string `json:"stored"`
	Findings int    `json:"findings"`
	Pages    struct {
		Status  string `json:"status"`
		Message string `json:"message,omitempty"`
		Count   int    `json:"count"`
	} `json:"pages"`
}

// Keep stores the snapshot of the document at path (its bytes data, their
// sha256 sha; name is what the receipt calls it) without pages, and with
// r also with its rendered pages, so that an audit in any render mode
// finds the original by its sha256 alone. The receipt describes the last
// snapshot made.
func (s *Store) Keep(ctx context.Context, path, name, sha string, data []byte, r *render.Renderer) (Receipt, error) {
	out := Receipt{Schema: ReceiptSchema, SHA256: sha, Name: name}
	rs := []*render.Renderer{nil}
	if r != nil {
		rs = append(rs, r)
	}
	for _, r := range rs {
		snap, hit, err := s.Snapshot(ctx, path, sha, Options{Renderer: r, Data: data})
		if err != nil {
			return Receipt{}, err
		}
		out.Format, out.Findings = string(snap.Report.Format), len(snap.Report.Findings)
		out.Pages.Status, out.Pages.Message, out.Pages.Count = snap.Pages.Status, snap.Pages.Message, len(snap.Pages.Sigs)
		out.Stored = "stored"
		if hit {
			out.Stored = "already stored"
		}
		snap.Close()
	}
	return out, nil
}
