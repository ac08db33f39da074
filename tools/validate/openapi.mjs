// Validates an OpenAPI document against the OpenAPI 3.0 schema and its
// $refs (@apidevtools/swagger-parser), then prints the dereferenced
// document as JSON on stdout, so that serve's TestOpenAPI can compare the
// form fields it describes with the ones the server takes.
// Usage: node openapi.mjs api/openapi.yaml
import SwaggerParser from "@apidevtools/swagger-parser";

const file = process.argv[2] ?? "../../api/openapi.yaml";
try {
  await SwaggerParser.validate(file);
  const api = await SwaggerParser.dereference(file);
  process.stdout.write(JSON.stringify(api));
} catch (err) {
  console.error(`${file}: ${err.message}`);
  process.exit(1);
}
