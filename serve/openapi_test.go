package serve

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/editaudit/editaudit/internal/testdoc"
)

// TestOpenAPI validates api/openapi.yaml against the OpenAPI 3.0 schema
// (tools/validate/openapi.mjs: @apidevtools/swagger-parser) and checks
// that it describes this server: its paths, each upload endpoint's fields
// exactly, and every error code the server answers.
func TestOpenAPI(t *testing.T) {
	v := testdoc.Validators(t)
	spec, err := filepath.Abs("../api/openapi.yaml")
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("node", filepath.Join(v, "openapi.mjs"), spec).Output()
	if err != nil {
		msg := ""
		if ee, ok := err.(*exec.ExitError); ok {
			msg = string(ee.Stderr)
		}
		t.Fatalf("api/openapi.yaml is not valid: %v\n%.3000s", err, msg)
	}
	var api struct {
		Paths map[string]map[string]struct {
			RequestBody struct {
				Content map[string]struct {
					Schema struct {
						Required   []string
						Properties map[string]any
					}
				}
			}
			Responses map[string]any
		}
		Components struct {
			Schemas map[string]struct {
				Properties map[string]struct{ Enum []string }
			}
		}
	}
	if err := json.Unmarshal(out, &api); err != nil {
		t.Fatal(err)
	}
	for path, method := range map[string]string{PathAudit: "post", PathCheck: "post", PathBaseline: "post", PathHealth: "get", PathMetrics: "get"} {
		if _, ok := api.Paths[path][method]; !ok {
			t.Errorf("openapi.yaml lacks %s %s", method, path)
		}
	}
	if len(api.Paths) != 5 {
		t.Errorf("openapi.yaml has %d paths, the server 5", len(api.Paths))
	}
	for path, f := range map[string]form{PathAudit: auditForm, PathCheck: checkForm, PathBaseline: baselineForm} {
		schema := api.Paths[path]["post"].RequestBody.Content["multipart/form-data"].Schema
		var described []string
		for k := range schema.Properties {
			described = append(described, k)
		}
		taken := append(append([]string(nil), f.files...), f.fields...)
		sort.Strings(described)
		sort.Strings(taken)
		if strings.Join(described, " ") != strings.Join(taken, " ") {
			t.Errorf("%s: openapi.yaml describes fields %v, the server takes %v", path, described, taken)
		}
	}
	// Every code the server answers is in the Error schema's enum.
	codes := map[string]bool{}
	for _, c := range api.Components.Schemas["Error"].Properties["code"].Enum {
		codes[c] = true
	}
	srcs, _ := filepath.Glob("*.go")
	re := regexp.MustCompile(`Code: +"([a-z_]+)"`)
	for _, src := range srcs {
		if strings.HasSuffix(src, "_test.go") {
			continue
		}
		b, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range re.FindAllStringSubmatch(string(b), -1) {
			if !codes[m[1]] && m[1] != "http" {
				t.Errorf("%s answers code %q, not in openapi.yaml's Error.code", src, m[1])
			}
		}
	}
}
