// Checks the JSON Schema of editaudit synth specs (`editaudit synth
// --schema`) with ajv in strict mode for draft 2020-12, then validates spec
// files against it.
//   node synth-schema.mjs SCHEMA.json [SPEC.json...] [--invalid SPEC.json...]
// Prints one line per spec; exit 0 when the schema compiles, every spec
// before --invalid is valid and every spec after it is not, 1 otherwise.
import { readFileSync } from "node:fs";
import Ajv2020 from "ajv/dist/2020.js";

const [schemaFile, ...rest] = process.argv.slice(2);
const cut = rest.indexOf("--invalid");
const specs = cut < 0 ? rest : rest.slice(0, cut);
const invalid = cut < 0 ? [] : rest.slice(cut + 1);
const schema = JSON.parse(readFileSync(schemaFile, "utf8"));
// strict: unknown keywords, ignored keywords ("items" beside a tuple),
// missing "type" beside type-specific keywords are errors. (strictRequired
// stays off: a oneOf branch {"required":["text"]} names a property defined
// beside the oneOf, as JSON Schema intends.)
const ajv = new Ajv2020({ allErrors: true, strict: true, strictRequired: false });
let validate;
try {
  validate = ajv.compile(schema);
} catch (e) {
  console.log(`${schemaFile}: schema does not compile: ${e.message}`);
  process.exit(1);
}
console.log(`${schemaFile}: compiles (draft 2020-12, strict)`);
let bad = 0;
for (const f of specs) {
  const spec = JSON.parse(readFileSync(f, "utf8"));
  if (validate(spec)) {
    console.log(`${f}: valid`);
    continue;
  }
  bad++;
  for (const e of validate.errors.slice(0, 20)) console.log(`${f}: ${e.instancePath || "/"} ${e.message} ${JSON.stringify(e.params)}`);
}
for (const f of invalid) {
  if (validate(JSON.parse(readFileSync(f, "utf8")))) {
    bad++;
    console.log(`${f}: valid, but should not be`);
    continue;
  }
  console.log(`${f}: invalid as expected: ${validate.errors[0].instancePath || "/"} ${validate.errors[0].message}`);
}
process.exit(bad ? 1 : 0);
