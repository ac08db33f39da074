// A real MCP client, not written here: the official TypeScript SDK
// (@modelcontextprotocol/sdk, pinned in package.json) drives `editaudit
// mcp` for the Go tests (mcp/client_test.go).
//
//   node run.mjs --stdio COMMAND ARG... < calls.json
//   node run.mjs --http URL [--token TOKEN] < calls.json
//
// calls.json is {"calls":[{"name":"audit","arguments":{…}}, …]}. It
// connects, lists the tools, makes each call in order (asking for
// progress notifications), and prints one JSON object: the server's name,
// the tools with their schemas, and for each call the result as the SDK
// returned it (or the error it threw) with the progress notifications
// received. A structuredContent that does not match the tool's
// outputSchema is such an error: the SDK checks it.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { readFileSync } from "node:fs";

const argv = process.argv.slice(2);
let transport;
if (argv[0] === "--stdio") {
  transport = new StdioClientTransport({ command: argv[1], args: argv.slice(2), stderr: "inherit" });
} else if (argv[0] === "--http") {
  const headers = {};
  const t = argv.indexOf("--token");
  if (t > 0) headers.Authorization = `Bearer ${argv[t + 1]}`;
  transport = new StreamableHTTPClientTransport(new URL(argv[1]), { requestInit: { headers } });
} else {
  console.error("usage: node run.mjs --stdio COMMAND ARG... | --http URL [--token TOKEN]  < calls.json");
  process.exit(2);
}

const { calls } = JSON.parse(readFileSync(0, "utf8"));
const client = new Client({ name: "editaudit-test-client", version: "1.0.0" });
const out = { results: [] };
try {
  await client.connect(transport);
  out.server = client.getServerVersion();
  out.instructions = client.getInstructions();
  out.tools = (await client.listTools()).tools;
  for (const call of calls) {
    const progress = [];
    const entry = { name: call.name, progress };
    try {
      entry.result = await client.callTool({ name: call.name, arguments: call.arguments }, undefined, {
        onprogress: (p) => progress.push(p),
        timeout: 120000,
        resetTimeoutOnProgress: true,
        maxTotalTimeout: 900000,
      });
    } catch (e) {
      entry.error = String(e && e.message ? e.message : e);
    }
    out.results.push(entry);
  }
} catch (e) {
  out.fatal = String(e && e.stack ? e.stack : e);
} finally {
  await client.close().catch(() => {});
}
// Not process.exit: it would cut a large answer written to a pipe.
process.stdout.write(JSON.stringify(out) + "\n");
process.exitCode = out.fatal ? 1 : 0;
