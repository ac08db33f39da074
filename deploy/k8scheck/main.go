// Command k8scheck decodes Kubernetes manifests strictly into the
// Kubernetes API's own Go types (k8s.io/api): a field the API does not
// have (a typo such as backoffLimitPerIndx), a duplicate key, or a value of
// the wrong type is an error, as it is for the API server's strict field
// validation. It complements tools/validate/k8s.mjs, which checks the
// documents against the OpenAPI schemas (types, enums, required fields).
//
//	go run . FILE...   exit 0 when every document decodes strictly
//
// A separate module, so that the editaudit module does not depend on the
// Kubernetes API.
package main

import (
	"bytes"
	"fmt"
	"os"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/yaml"
)

// typed returns an empty object of the Go type the API decodes
// apiVersion/kind into, or nil for a kind this checker does not know.
func typed(apiVersion, kind string) any {
	switch apiVersion + "/" + kind {
	case "v1/ConfigMap":
		return &corev1.ConfigMap{}
	case "v1/PersistentVolume":
		return &corev1.PersistentVolume{}
	case "v1/PersistentVolumeClaim":
		return &corev1.PersistentVolumeClaim{}
	case "v1/Namespace":
		return &corev1.Namespace{}
	case "v1/Pod":
		return &corev1.Pod{}
	case "batch/v1/Job":
		return &batchv1.Job{}
	case "apps/v1/Deployment":
		return &appsv1.Deployment{}
	case "v1/Service":
		return &corev1.Service{}
	}
	return nil
}

func main() {
	bad := 0
	for _, f := range os.Args[1:] {
		b, err := os.ReadFile(f)
		if err != nil {
			fmt.Println(err)
			bad++
			continue
		}
		for i, doc := range splitDocs(b) {
			var head struct {
				APIVersion string `json:"apiVersion"`
				Kind       string `json:"kind"`
				Metadata   struct {
					Name string `json:"name"`
				} `json:"metadata"`
			}
			if err := yaml.Unmarshal(doc, &head); err != nil {
				fmt.Printf("%s: document %d: %v\n", f, i+1, err)
				bad++
				continue
			}
			obj := typed(head.APIVersion, head.Kind)
			if obj == nil {
				fmt.Printf("%s: document %d: %s %s: kind not known to this checker\n", f, i+1, head.APIVersion, head.Kind)
				bad++
				continue
			}
			if err := yaml.UnmarshalStrict(doc, obj); err != nil {
				fmt.Printf("%s: %s %s: %v\n", f, head.Kind, head.Metadata.Name, err)
				bad++
				continue
			}
			fmt.Printf("%s: %s %s: decodes strictly into %T\n", f, head.Kind, head.Metadata.Name, obj)
		}
	}
	if bad > 0 {
		os.Exit(1)
	}
}

// splitDocs splits a YAML stream at "---" lines, dropping documents that
// hold only comments or nothing.
func splitDocs(b []byte) [][]byte {
	var docs [][]byte
	var cur bytes.Buffer
	flush := func() {
		keep := false
		for _, l := range strings.Split(cur.String(), "\n") {
			if t := strings.TrimSpace(l); t != "" && !strings.HasPrefix(t, "#") {
				keep = true
				break
			}
		}
		if keep {
			docs = append(docs, append([]byte(nil), cur.Bytes()...))
		}
		cur.Reset()
	}
	for _, l := range strings.SplitAfter(string(b), "\n") {
		if strings.TrimRight(l, "\r\n") == "---" {
			flush()
			continue
		}
		cur.WriteString(l)
	}
	flush()
	return docs
}
