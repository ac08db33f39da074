// Lints Dockerfiles with dockerfile-utils (the validator behind the VS
// Code Docker extension: instruction syntax, flags, arguments, JSON forms),
// every optional rule raised to an error.
//   node dockerfile.mjs FILE...   exit 0 when no diagnostic
import { readFileSync } from "node:fs";
import { validate, ValidationSeverity } from "dockerfile-utils";

const E = ValidationSeverity.ERROR;
const settings = {
  deprecatedMaintainer: E, directiveCasing: E, emptyContinuationLine: E, instructionCasing: E,
  instructionCmdMultiple: E, instructionEntrypointMultiple: E, instructionHealthcheckMultiple: E,
  instructionJSONInSingleQuotes: E, instructionWorkdirRelative: E,
};
let bad = 0;
for (const f of process.argv.slice(2)) {
  const ds = validate(readFileSync(f, "utf8"), settings);
  for (const d of ds) console.log(`${f}:${d.range.start.line + 1}:${d.range.start.character + 1}: ${d.message}`);
  bad += ds.length;
  if (!ds.length) console.log(`${f}: no diagnostics`);
}
process.exit(bad ? 1 : 0);
