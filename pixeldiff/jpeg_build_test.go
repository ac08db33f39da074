package pixeldiff

import (
	"context"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/editaudit/editaudit/internal/testdoc"
)

// TestJPEGBuilds checks that the package builds and vets both ways: with
// cgo (go-libjpeg) and without (CGO_ENABLED=0, or the purego tag), where
// EncodeJPEG falls back to image/jpeg.
func TestJPEGBuilds(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go tool")
	}
	gobin := testdoc.Tool(t, "go")
	for _, tc := range []struct {
		name string
		env  []string
		args []string
	}{
		{"cgo", []string{"CGO_ENABLED=1"}, []string{"vet", "."}},
		{"CGO_ENABLED=0", []string{"CGO_ENABLED=0"}, []string{"vet", "."}},
		{"purego tag", nil, []string{"vet", "-tags", "purego", "."}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
			defer cancel()
			cmd := exec.CommandContext(ctx, gobin, tc.args...)
			cmd.Env = append(os.Environ(), tc.env...)
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("go %v: %v\n%s", tc.args, err, out)
			}
		})
	}
}
