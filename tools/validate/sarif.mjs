// Validates SARIF logs against the SARIF 2.1.0 JSON schema (OASIS
// sarif-2.1.0-rtm.5, draft-04, as shipped by @microsoft/jest-sarif).
//   node sarif.mjs FILE...   exit 0 when every file is valid, 1 otherwise
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import Ajv from "ajv-draft-04";
import addFormats from "ajv-formats";

const require = createRequire(import.meta.url);
const schema = JSON.parse(readFileSync(require.resolve("@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json"), "utf8"));
// unicodeRegExp off: the published schema's language pattern
// ("^[a-zA-Z]{2}|^[a-zA-Z]{2}-[a-zA-Z]{2}]?$") is not a valid /u regexp.
const ajv = new Ajv({ allErrors: true, strict: false, unicodeRegExp: false });
addFormats(ajv);
const validate = ajv.compile(schema);
let bad = 0;
for (const f of process.argv.slice(2)) {
  const log = JSON.parse(readFileSync(f, "utf8"));
  if (validate(log)) {
    console.log(`${f}: valid SARIF 2.1.0`);
    continue;
  }
  bad++;
  for (const e of validate.errors) console.log(`${f}: ${e.instancePath || "/"} ${e.message} ${JSON.stringify(e.params)}`);
}
process.exit(bad ? 1 : 0);
