// Validates Kubernetes manifests against the Kubernetes OpenAPI schemas,
// compiled by kubernetes-models (types, enums, required fields, formats of
// every API object; its version follows a recent Kubernetes release).
// deploy/k8scheck adds the strict decoding (unknown fields) with the
// API's own Go types.
//   node k8s.mjs FILE...            exit 0 when every document validates
//   node k8s.mjs --extract FILE...  print the documents as one JSON array
//                                   (for tests that run what they say)
import { readFileSync } from "node:fs";
import { parseAllDocuments } from "yaml";

const args = process.argv.slice(2);
if (args[0] === "--extract") {
  const out = [];
  for (const f of args.slice(1)) {
    for (const doc of parseAllDocuments(readFileSync(f, "utf8"))) {
      if (doc.errors.length) { console.error(`${f}: ${doc.errors.join("; ")}`); process.exit(1); }
      const obj = doc.toJS();
      if (obj) out.push(obj);
    }
  }
  console.log(JSON.stringify(out));
  process.exit(0);
}
let bad = 0;
for (const f of args) {
  for (const doc of parseAllDocuments(readFileSync(f, "utf8"))) {
    if (doc.errors.length) { bad++; console.log(`${f}: ${doc.errors.join("; ")}`); continue; }
    const obj = doc.toJS();
    if (!obj) continue;
    const { apiVersion, kind } = obj;
    const name = obj.metadata && obj.metadata.name;
    const path = `kubernetes-models/${apiVersion}/${kind}`; // core: v1/ConfigMap; groups: batch/v1/Job
    let Model;
    try {
      Model = (await import(path))[kind];
    } catch (e) {
      bad++; console.log(`${f}: ${apiVersion} ${kind}: no schema (${e.message})`); continue;
    }
    try {
      new Model(obj).validate();
      console.log(`${f}: ${kind} ${name}: valid`);
    } catch (e) {
      bad++; console.log(`${f}: ${kind} ${name}: ${e.message}`);
    }
  }
}
process.exit(bad ? 1 : 0);
