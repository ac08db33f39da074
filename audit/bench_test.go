package audit_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/editaudit/editaudit/audit"
	"github.com/editaudit/editaudit/baseline"
	"github.com/editaudit/editaudit/internal/testdoc"
	"github.com/editaudit/editaudit/mutate"
	"github.com/editaudit/editaudit/synth"
)

// fivePages builds a 5-page contract: the 3-page example, a page break and
// the first 9/16 of its body again (LibreOffice renders 5 pages).
func fivePages(b *testing.B) []byte {
	f, err := os.Open("../examples/specs/contract.json")
	if err != nil {
		b.Fatal(err)
	}
	spec, err := synth.ParseSpec(f)
	f.Close()
	if err != nil {
		b.Fatal(err)
	}
	body := spec.Docx.Body
	spec.Docx.Body = append(append(append([]synth.Block(nil), body...), synth.Block{PageBreak: true}), body[:len(body)*9/16]...)
	out, err := synth.Synthesize(spec)
	if err != nil {
		b.Fatal(err)
	}
	return out
}

// BenchmarkAudit5PageDocx measures one audit of a one-word edit of a
// 5-page contract with rendering, cold (no baseline: the original is
// inspected and rendered too) and warm (its snapshot is in the store).
// LibreOffice runs as a warm pool in both cases (its start is not counted).
func BenchmarkAudit5PageDocx(b *testing.B) {
	if renderer == nil {
		testdoc.Missing(b, "LibreOffice (soffice)")
	}
	orig := fivePages(b)
	edited, err := mutate.Mutate("docx.word-replaced", orig)
	if err != nil {
		b.Fatal(err)
	}
	dir := b.TempDir()
	o, e := filepath.Join(dir, "o.docx"), filepath.Join(dir, "e.docx")
	os.WriteFile(o, orig, 0o644)
	os.WriteFile(e, edited, 0o644)
	ctx := context.Background()
	b.Run("cold", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			st, _ := baseline.OpenStore(filepath.Join(b.TempDir(), "s"))
			res, err := audit.Files(ctx, o, e, audit.Options{Render: audit.RenderOn, Renderer: renderer, Store: st})
			if err != nil || res.Pages.Status != audit.PagesOK {
				b.Fatal(err, res.Pages.Message)
			}
			b.ReportMetric(float64(res.Pages.Before), "pages")
		}
	})
	st, _ := baseline.OpenStore(filepath.Join(dir, "warm"))
	if _, err := audit.Files(ctx, o, e, audit.Options{Render: audit.RenderOn, Renderer: renderer, Store: st}); err != nil {
		b.Fatal(err)
	}
	b.Run("warm", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if _, err := audit.Files(ctx, o, e, audit.Options{Render: audit.RenderOn, Renderer: renderer, Store: st}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("no-render", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if _, err := audit.Files(ctx, o, e, audit.Options{Render: audit.RenderOff, Store: st}); err != nil {
				b.Fatal(err)
			}
		}
	})
}
