// Package deploy_test checks what deploy/ ships as a user would use it:
// the Dockerfile against scripts/setup.sh and a linter, the Kubernetes
// manifests against the Kubernetes schemas (OpenAPI, and strict decoding
// into the API's Go types), the Indexed Job's pod and merge scripts run
// as Kubernetes would run them (one process per index, with
// JOB_COMPLETION_INDEX), and the wait script against a stand-in kubectl.
package deploy_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/editaudit/editaudit/internal/testdoc"
	"github.com/editaudit/editaudit/mutate"
	"github.com/editaudit/editaudit/synth"
	"github.com/editaudit/editaudit/synth/synthtest"
)

// setupPackages reads the pkgs=( … ) array of scripts/setup.sh.
func setupPackages(t *testing.T) []string {
	t.Helper()
	b, err := os.ReadFile("../scripts/setup.sh")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?s)\npkgs=\((.*?)\)`).FindSubmatch(b)
	if m == nil {
		t.Fatal("no pkgs=( … ) in scripts/setup.sh")
	}
	var out []string
	for _, l := range strings.Split(string(m[1]), "\n") {
		l, _, _ = strings.Cut(l, "#")
		out = append(out, strings.Fields(l)...)
	}
	return out
}

// dockerStages reads deploy/Dockerfile: per stage (FROM), the packages of
// its apt-get install lines and its instructions, continuation lines
// joined.
type stage struct {
	from     string
	packages []string
	lines    []string
}

func dockerStages(t *testing.T) []stage {
	t.Helper()
	f, err := os.Open("Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var stages []stage
	var cur strings.Builder
	sc := bufio.NewScanner(f)
	flush := func() {
		line := strings.TrimSpace(cur.String())
		cur.Reset()
		if line == "" {
			return
		}
		if strings.HasPrefix(line, "FROM ") {
			stages = append(stages, stage{from: strings.Fields(line)[1]})
		}
		if len(stages) == 0 {
			t.Fatalf("instruction before FROM: %s", line)
		}
		s := &stages[len(stages)-1]
		s.lines = append(s.lines, line)
		for _, cmd := range strings.Split(line, "&&") {
			if _, rest, ok := strings.Cut(cmd, "apt-get install"); ok {
				for _, w := range strings.Fields(rest) {
					if !strings.HasPrefix(w, "-") {
						s.packages = append(s.packages, w)
					}
				}
			}
		}
	}
	for sc.Scan() {
		l := sc.Text()
		if strings.HasPrefix(strings.TrimSpace(l), "#") {
			continue
		}
		if strings.HasSuffix(l, "\\") {
			cur.WriteString(strings.TrimSuffix(l, "\\") + " ")
			continue
		}
		cur.WriteString(l)
		flush()
	}
	flush()
	return stages
}

// TestDockerfileMatchesSetup: the image installs what a developer machine
// has (scripts/setup.sh): every runtime package in the runtime stage, every
// -dev package in the build stage and its library at run time. The only
// extras are listed here with their reason.
func TestDockerfileMatchesSetup(t *testing.T) {
	setup := setupPackages(t)
	st := dockerStages(t)
	if len(st) != 2 {
		t.Fatalf("%d stages, want build and runtime", len(st))
	}
	build, run := st[0], st[1]
	runtimeOnly := map[string]string{
		"libjpeg62-turbo": "the library of libjpeg62-turbo-dev",
		"ca-certificates": "TLS roots for anything the image fetches",
	}
	for _, p := range setup {
		if lib, ok := strings.CutSuffix(p, "-dev"); ok {
			if !slices.Contains(build.packages, p) {
				t.Errorf("%s (setup.sh) not installed in the build stage", p)
			}
			if !slices.Contains(run.packages, lib) {
				t.Errorf("%s (the library of %s) not installed in the runtime stage", lib, p)
			}
			continue
		}
		if !slices.Contains(run.packages, p) {
			t.Errorf("%s (setup.sh) not installed in the runtime stage", p)
		}
	}
	for _, p := range run.packages {
		if !slices.Contains(setup, p) && runtimeOnly[p] == "" {
			t.Errorf("runtime package %s is not in scripts/setup.sh", p)
		}
	}
	for _, p := range build.packages {
		if !slices.Contains(setup, p) {
			t.Errorf("build package %s is not in scripts/setup.sh", p)
		}
	}
	if !strings.HasPrefix(run.from, "debian:bookworm-slim") || !strings.HasPrefix(build.from, "golang:1.26-bookworm") {
		t.Errorf("stages FROM %s, %s", build.from, run.from)
	}
}

// TestDockerfileLint: dockerfile-utils (every rule an error), and the
// hadolint rules that matter here checked directly (hadolint itself is
// not packaged for any registry this project reaches).
func TestDockerfileLint(t *testing.T) {
	for _, s := range dockerStages(t) {
		if !strings.Contains(s.from, ":") || strings.HasSuffix(s.from, ":latest") {
			t.Errorf("DL3006/DL3007: FROM %s without a pinned tag", s.from)
		}
		for _, l := range s.lines {
			if strings.Contains(l, "apt-get install") && !strings.Contains(l, "--no-install-recommends") {
				t.Errorf("DL3015: apt-get install without --no-install-recommends: %s", l)
			}
			if strings.Contains(l, "apt-get install") && !strings.Contains(l, "-y") {
				t.Errorf("DL3014: apt-get install without -y: %s", l)
			}
			if strings.Contains(l, "apt-get update") && !strings.Contains(l, "rm -rf /var/lib/apt/lists/*") {
				t.Errorf("DL3009: apt lists not removed in the same layer: %s", l)
			}
			if strings.HasPrefix(l, "RUN ") && regexp.MustCompile(`(^|&&|;)\s*cd `).MatchString(strings.TrimPrefix(l, "RUN ")) {
				t.Errorf("DL3003: cd in RUN, use WORKDIR: %s", l)
			}
		}
	}
	st := dockerStages(t)
	run := st[len(st)-1]
	var user, entry string
	for _, l := range run.lines {
		if u, ok := strings.CutPrefix(l, "USER "); ok {
			user = u
		}
		if e, ok := strings.CutPrefix(l, "ENTRYPOINT "); ok {
			entry = e
		}
	}
	if user == "" || strings.HasPrefix(user, "root") || strings.HasPrefix(user, "0") {
		t.Errorf("DL3002: the image runs as %q, want a non-root user", user)
	}
	if entry != `["editaudit"]` {
		t.Errorf("ENTRYPOINT %s, want the exec form [\"editaudit\"]", entry)
	}
	v := testdoc.Validators(t)
	out, err := exec.Command("node", filepath.Join(v, "dockerfile.mjs"), "Dockerfile").CombinedOutput()
	if err != nil {
		t.Errorf("dockerfile-utils: %v\n%s", err, out)
	}
}

// manifests are the Kubernetes manifests deploy/ ships.
var manifests = []string{"k8s-indexed-job.yaml", "k8s-local-volume.yaml", "k8s-serve.yaml"}

// extract reads YAML documents as JSON objects (through tools/validate).
func extract(t *testing.T, files ...string) []map[string]any {
	t.Helper()
	v := testdoc.Validators(t)
	out, err := exec.Command("node", append([]string{filepath.Join(v, "k8s.mjs"), "--extract"}, files...)...).Output()
	if err != nil {
		t.Fatalf("extract %v: %v", files, err)
	}
	var docs []map[string]any
	if err := json.Unmarshal(out, &docs); err != nil {
		t.Fatal(err)
	}
	return docs
}

// TestManifestsValidate checks every manifest against the Kubernetes
// OpenAPI schemas (kubernetes-models) and decodes it strictly into the
// API's Go types (deploy/k8scheck, k8s.io/api), and shows that both checks
// fail on a broken manifest.
func TestManifestsValidate(t *testing.T) {
	v := testdoc.Validators(t)
	testdoc.Tool(t, "go")
	if out, err := exec.Command("node", append([]string{filepath.Join(v, "k8s.mjs")}, manifests...)...).CombinedOutput(); err != nil {
		t.Errorf("OpenAPI schemas: %v\n%s", err, out)
	}
	abs := make([]string, len(manifests))
	for i, m := range manifests {
		abs[i], _ = filepath.Abs(m)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	defer cancel()
	strict := func(files ...string) ([]byte, error) {
		cmd := exec.CommandContext(ctx, "go", append([]string{"run", "."}, files...)...)
		cmd.Dir = "k8scheck"
		cmd.Env = append(os.Environ(), "GOTOOLCHAIN=local")
		return cmd.CombinedOutput()
	}
	if out, err := strict(abs...); err != nil {
		t.Errorf("strict decoding: %v\n%s", err, out)
	}
	// Both checks can fail: a misspelt field, a value outside its enum.
	job, err := os.ReadFile("k8s-indexed-job.yaml")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	typo := filepath.Join(dir, "typo.yaml")
	os.WriteFile(typo, bytes.Replace(job, []byte("backoffLimitPerIndex:"), []byte("backoffLimitPerIndx:"), 1), 0o644)
	if out, err := strict(typo); err == nil || !strings.Contains(string(out), "backoffLimitPerIndx") {
		t.Errorf("strict decoding passed a misspelt field: %v\n%s", err, out)
	}
	enum := filepath.Join(dir, "enum.yaml")
	os.WriteFile(enum, bytes.Replace(job, []byte("action: FailIndex"), []byte("action: FailShard"), 1), 0o644)
	if out, err := exec.Command("node", filepath.Join(v, "k8s.mjs"), enum).CombinedOutput(); err == nil {
		t.Errorf("OpenAPI schemas passed action FailShard:\n%s", out)
	}
}

// jobParts are the pieces of the shipped manifests the pods run.
type jobParts struct {
	config      map[string]string
	completions int
	shardScript string
	shardEnv    map[string]string
	mergeScript string
	pvPath      string
	kindMount   [2]string // host path, node path
}

func readJob(t *testing.T) jobParts {
	t.Helper()
	var p jobParts
	docs := extract(t, append(manifests, "kind-cluster.yaml")...)
	container := func(d map[string]any) map[string]any {
		spec := d["spec"].(map[string]any)["template"].(map[string]any)["spec"].(map[string]any)
		return spec["containers"].([]any)[0].(map[string]any)
	}
	for _, d := range docs {
		meta, _ := d["metadata"].(map[string]any)
		name, _ := meta["name"].(string)
		switch d["kind"] {
		case "ConfigMap":
			p.config = map[string]string{}
			for k, v := range d["data"].(map[string]any) {
				p.config[k] = v.(string)
			}
		case "Job":
			c := container(d)
			args := c["args"].([]any)
			if cmd := c["command"].([]any); len(cmd) != 2 || cmd[0] != "/bin/sh" || cmd[1] != "-c" || len(args) != 1 {
				t.Fatalf("job %s: command %v args %v, want /bin/sh -c SCRIPT", name, cmd, args)
			}
			if name == "editaudit-corpus" {
				p.shardScript = args[0].(string)
				p.completions = int(d["spec"].(map[string]any)["completions"].(float64))
				p.shardEnv = map[string]string{}
				for _, e := range c["env"].([]any) {
					e := e.(map[string]any)
					p.shardEnv[e["name"].(string)] = e["value"].(string)
				}
			} else {
				p.mergeScript = args[0].(string)
			}
		case "PersistentVolume":
			p.pvPath = d["spec"].(map[string]any)["hostPath"].(map[string]any)["path"].(string)
		case "Cluster":
			m := d["nodes"].([]any)[0].(map[string]any)["extraMounts"].([]any)[0].(map[string]any)
			p.kindMount = [2]string{m["hostPath"].(string), m["containerPath"].(string)}
		}
	}
	if p.shardScript == "" || p.mergeScript == "" || p.config == nil {
		t.Fatalf("manifests incomplete: %+v", p)
	}
	return p
}

// TestIndexedJobRunsAsWritten runs the Job as Kubernetes would, on this
// machine: the ConfigMap as environment, each index's pod script with its
// JOB_COMPLETION_INDEX (the shared volume /data a temporary folder), a
// pod that is replaced resuming its shard, then the merge Job's script.
func TestIndexedJobRunsAsWritten(t *testing.T) {
	p := readJob(t)
	if p.config["SHARDS"] != fmt.Sprint(p.completions) {
		t.Fatalf("ConfigMap SHARDS %s != Job completions %d", p.config["SHARDS"], p.completions)
	}
	if p.pvPath != p.kindMount[1] || p.config["MANIFEST"] != "/data/pairs.csv" {
		t.Errorf("the PV's path %s is not the kind node's mount %v", p.pvPath, p.kindMount)
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "bin")
	build := exec.Command("go", "build", "-o", filepath.Join(bin, "editaudit"), "../cmd/editaudit")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	data := filepath.Join(dir, "data")
	scratch := filepath.Join(dir, "scratch")
	writeCorpus(t, data, 7)

	env := func(extra ...string) []string {
		e := []string{"PATH=" + bin + string(os.PathListSeparator) + os.Getenv("PATH"), "TMPDIR=" + os.TempDir()}
		for k, v := range p.config {
			v = strings.ReplaceAll(v, "/data", data)
			if k == "RUN_FLAGS" {
				v = "--render off" // the pods render; this test does not need pages
			}
			e = append(e, k+"="+v)
		}
		for k, v := range p.shardEnv {
			e = append(e, k+"="+strings.ReplaceAll(v, "/scratch", scratch))
		}
		return append(e, extra...)
	}
	runPod := func(script string, extra ...string) (string, error) {
		cmd := exec.Command("/bin/sh", "-c", script)
		cmd.Env = env(extra...)
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	for i := range p.completions {
		if out, err := runPod(p.shardScript, fmt.Sprintf("JOB_COMPLETION_INDEX=%d", i)); err != nil {
			t.Fatalf("index %d: %v\n%s", i, err, out)
		}
	}
	// A replaced pod of index 1 finds its shard folder and audits nothing
	// again.
	out, err := runPod(p.shardScript, "JOB_COMPLETION_INDEX=1")
	if err != nil || !regexp.MustCompile(`\n0 audited, 0 failed, [0-9]+ kept from an earlier run`).MatchString(out) {
		t.Errorf("replaced pod of index 1: %v\n%s", err, out)
	}
	run := filepath.Join(data, "runs", "nightly")
	if out, err := runPod(p.mergeScript); err != nil {
		t.Fatalf("merge: %v\n%s", err, out)
	}
	lines, err := os.ReadFile(filepath.Join(run, "merged", "results.jsonl"))
	if err != nil || bytes.Count(lines, []byte("\n")) != 7 {
		t.Errorf("merged results: %v, %d lines", err, bytes.Count(lines, []byte("\n")))
	}
	junit, err := os.ReadFile(filepath.Join(run, "merged", "junit.xml"))
	if err != nil || strings.Count(string(junit), "<testcase ") != 7 {
		t.Errorf("merged junit.xml: %v\n%s", err, junit)
	}
}

// writeCorpus writes n edit pairs of a generated contract and pairs.csv.
func writeCorpus(t *testing.T, dir string, n int) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	orig, err := synth.Synthesize(synthtest.LoadSpec(t, "../examples/specs/contract.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "orig.docx"), orig, 0o644); err != nil {
		t.Fatal(err)
	}
	kinds := []string{"xml.illegal-char", "docx.row-deleted", "docx.word-replaced"}
	var csv strings.Builder
	csv.WriteString("id,group,original,edited\n")
	for i := range n {
		k := kinds[i%len(kinds)]
		b, err := mutate.Mutate(k, orig)
		if err != nil {
			t.Fatal(err)
		}
		name := fmt.Sprintf("e%d.docx", i+1)
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&csv, "%d,%s,orig.docx,%s\n", i+1, k, name)
	}
	if err := os.WriteFile(filepath.Join(dir, "pairs.csv"), []byte(csv.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestWaitJobScript runs scripts/k8s-wait-job.sh against a stand-in
// kubectl that reports a Job's conditions: Complete, Failed (with failed
// indexes), and a Job that never ends (timeout).
func TestWaitJobScript(t *testing.T) {
	script, _ := filepath.Abs("../scripts/k8s-wait-job.sh")
	for _, tc := range []struct {
		name    string
		conds   []string // what each poll sees
		timeout string
		code    int
		output  string
	}{
		{"complete", []string{"", "SuccessCriteriaMet=True", "SuccessCriteriaMet=True\nComplete=True"}, "5m", 0, "job/editaudit-corpus: Complete (4 pods succeeded)"},
		{"failed", []string{"", "FailureTarget=True", "FailureTarget=True\nFailed=True"}, "5m", 1, "job/editaudit-corpus: Failed (FailedIndexes: Job has failed indexes); failed indexes: 2; completed indexes: 0,1,3"},
		{"never", []string{""}, "1s", 2, "has not ended after 1s"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			for i, c := range tc.conds {
				os.WriteFile(filepath.Join(dir, fmt.Sprintf("conds.%d", i)), []byte(c), 0o644)
			}
			// The stand-in answers the jsonpath queries the script makes;
			// each conditions query moves to the next poll's answer.
			kubectl := `#!/bin/sh
d=` + dir + `
case "$*" in
*"range .status.conditions"*)
  n=$(cat "$d/n" 2>/dev/null || echo 0)
  f="$d/conds.$n"; [ -e "$f" ] || f=$(ls "$d"/conds.* | sort -t. -k2 -n | tail -1)
  cat "$f"; echo $((n + 1)) > "$d/n" ;;
*".status.succeeded"*) printf 4 ;;
*'@.type=="Failed"'*) printf 'FailedIndexes: Job has failed indexes' ;;
*".status.failedIndexes"*) printf 2 ;;
*".status.completedIndexes"*) printf 0,1,3 ;;
*) echo "unexpected kubectl $*" >&2; exit 9 ;;
esac
`
			os.WriteFile(filepath.Join(dir, "kubectl"), []byte(kubectl), 0o755)
			cmd := exec.Command("/bin/sh", script, "editaudit-corpus", tc.timeout)
			cmd.Env = append(os.Environ(), "PATH="+dir+string(os.PathListSeparator)+os.Getenv("PATH"), "INTERVAL=0.2")
			out, err := cmd.CombinedOutput()
			code := 0
			if ee, ok := err.(*exec.ExitError); ok {
				code = ee.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			if code != tc.code || !strings.Contains(string(out), tc.output) {
				t.Errorf("exit %d, want %d; output:\n%s", code, tc.code, out)
			}
		})
	}
}
