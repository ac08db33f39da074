// Audit an edit with a running `editaudit serve` and hand the answer to a
// model. Node 20: the global fetch, FormData and Blob; no dependencies.
//
// The service's format=model answer is a list of content blocks (text, then
// a caption and a JPEG for each changed page); modelRequest puts them into
// the user turn of a model call (the Anthropic Messages API shape), after the
// instruction the agent was working on.
//
//   node dist/editaudit.js [--url URL] [--baseline] ORIGINAL EDITED
//
// prints that request as JSON (it calls no model) and exits 1 when the edit
// is blocked (a new fatal defect), like `editaudit audit`.
import { openAsBlob } from "node:fs";
import { readFile } from "node:fs/promises";
import { basename } from "node:path";

/** A content block of a model message, as the service writes them. */
export type ContentBlock =
  | { type: "text"; text: string }
  | { type: "image"; source: { type: "base64"; media_type: "image/jpeg"; data: string } };

/** An answer other than a report: the service's JSON error object. */
export class ServiceError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly field: string | undefined,
    message: string,
  ) {
    super(`${status} ${code}: ${message}`);
  }
}

export interface Options {
  url: string;
  token?: string;
  /** Changed pages sent as images (default 3). */
  show?: number;
}

async function post(opts: Options, path: string, form: FormData, retries = 3): Promise<Response> {
  const headers: Record<string, string> = {};
  if (opts.token) headers["Authorization"] = `Bearer ${opts.token}`;
  for (let attempt = 0; ; attempt++) {
    const resp = await fetch(opts.url.replace(/\/$/, "") + path, { method: "POST", body: form, headers });
    if (resp.ok) return resp;
    const text = await resp.text();
    let err: { code?: string; field?: string; error?: string } = {};
    try {
      err = JSON.parse(text);
    } catch {
      err = { code: "http", error: text };
    }
    // Busy: wait as long as the service says and try again.
    if (resp.status === 503 && err.code === "busy" && attempt < retries) {
      const wait = Number(resp.headers.get("Retry-After") ?? "1");
      await new Promise((r) => setTimeout(r, wait * 1000));
      continue;
    }
    throw new ServiceError(resp.status, err.code ?? "", err.field, err.error ?? text);
  }
}

async function fileField(form: FormData, name: string, path: string): Promise<void> {
  // openAsBlob streams the file instead of reading it into memory.
  form.append(name, await openAsBlob(path), basename(path));
}

/** Stores the original's snapshot on the service; returns its sha256. */
export async function baseline(opts: Options, original: string): Promise<string> {
  const form = new FormData();
  await fileField(form, "file", original);
  const resp = await post(opts, "/v1/baseline", form);
  return ((await resp.json()) as { sha256: string }).sha256;
}

/**
 * Audits the edit and returns the verdict and the content blocks. With
 * originalSHA256 (from baseline) only the edited file is sent; when the
 * service no longer has that snapshot (404 not_in_store) the original is sent.
 */
export async function auditBlocks(
  opts: Options,
  original: string,
  edited: string,
  originalSHA256?: string,
): Promise<{ blocked: boolean; content: ContentBlock[] }> {
  const form = async (bySHA: boolean): Promise<FormData> => {
    const f = new FormData();
    f.append("format", "model");
    f.append("show", String(opts.show ?? 3));
    if (bySHA && originalSHA256) {
      f.append("original_sha256", originalSHA256);
      f.append("original_name", basename(original));
    } else {
      await fileField(f, "original", original);
    }
    await fileField(f, "edited", edited);
    return f;
  };
  let resp: Response;
  try {
    resp = await post(opts, "/v1/audit", await form(true));
  } catch (e) {
    if (!(e instanceof ServiceError && e.code === "not_in_store")) throw e;
    resp = await post(opts, "/v1/audit", await form(false));
  }
  const body = (await resp.json()) as { content: ContentBlock[] };
  return { blocked: resp.headers.get("X-Editaudit-Blocked") === "true", content: body.content };
}

/** The model call that shows the audit to the agent that made the edit. */
export function modelRequest(instruction: string, blocks: ContentBlock[], model = "claude-sonnet-4-5", maxTokens = 2048) {
  const intro: ContentBlock = {
    type: "text",
    text:
      `You were asked: ${instruction}\n` +
      "Your edit was audited against the original document. Fix what the audit says the edit broke; leave the rest as it is.",
  };
  return { model, max_tokens: maxTokens, messages: [{ role: "user" as const, content: [intro, ...blocks] }] };
}

async function main(argv: string[]): Promise<number> {
  const opts: Options = { url: process.env.EDITAUDIT_SERVER ?? "http://127.0.0.1:8787" };
  let useBaseline = false;
  let instruction = "Edit the document as requested.";
  const files: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--url") opts.url = argv[++i];
    else if (a === "--token-file") opts.token = (await readFile(argv[++i], "utf8")).trim();
    else if (a === "--show") opts.show = Number(argv[++i]);
    else if (a === "--baseline") useBaseline = true;
    else if (a === "--instruction") instruction = argv[++i];
    else files.push(a);
  }
  if (files.length !== 2) {
    console.error("usage: editaudit.js [--url URL] [--token-file F] [--show N] [--baseline] [--instruction TEXT] ORIGINAL EDITED");
    return 2;
  }
  try {
    const sha = useBaseline ? await baseline(opts, files[0]) : undefined;
    const { blocked, content } = await auditBlocks(opts, files[0], files[1], sha);
    process.stdout.write(JSON.stringify(modelRequest(instruction, content)) + "\n");
    return blocked ? 1 : 0;
  } catch (e) {
    console.error(`editaudit service: ${e instanceof Error ? e.message : String(e)}`);
    return 3;
  }
}

process.exitCode = await main(process.argv.slice(2));
