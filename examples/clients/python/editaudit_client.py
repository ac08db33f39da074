#!/usr/bin/env python3
"""Audit an edit with a running `editaudit serve` and hand the answer to a model.

Standard library only (urllib). The service's `format=model` answer is a list
of content blocks (text, then a caption and a JPEG for each changed page);
`model_request` puts them into the user turn of a model call (the Anthropic
Messages API shape: {"model", "max_tokens", "messages": [{"role": "user",
"content": [...]}]}), after the instruction the agent was working on.

    python3 editaudit_client.py --url http://127.0.0.1:8787 original.docx edited.docx

prints that request as JSON (it does not call any model) and exits 1 when the
edit is blocked (a new fatal defect), like `editaudit audit`.
"""

import argparse
import json
import os
import sys
import time
import urllib.error
import urllib.request
import uuid


class ServiceError(Exception):
    """An answer other than a report: the service's JSON error object."""

    def __init__(self, status, body):
        try:
            err = json.loads(body)
        except ValueError:
            err = {"code": "http", "error": body.decode("utf-8", "replace")}
        self.status = status
        self.code = err.get("code", "")
        self.field = err.get("field", "")
        super().__init__(f"{status} {self.code}: {err.get('error', '')}")


def _multipart(fields, files):
    """Encodes fields ({name: value}) and files ({name: path}) as multipart/form-data."""
    boundary = uuid.uuid4().hex
    out = []
    for name, value in fields.items():
        if value is None:
            continue
        out.append(f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'.encode())
    for name, path in files.items():
        filename = os.path.basename(path).replace('"', "_")
        out.append(
            f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"; filename="{filename}"\r\n'
            f"Content-Type: application/octet-stream\r\n\r\n".encode()
        )
        with open(path, "rb") as f:
            out.append(f.read())
        out.append(b"\r\n")
    out.append(f"--{boundary}--\r\n".encode())
    return b"".join(out), f"multipart/form-data; boundary={boundary}"


def _post(url, path, fields, files, token=None, retries=3):
    """POSTs the form; waits Retry-After and tries again while the service is busy."""
    body, content_type = _multipart(fields, files)
    headers = {"Content-Type": content_type}
    if token:
        headers["Authorization"] = "Bearer " + token
    for attempt in range(retries + 1):
        req = urllib.request.Request(url.rstrip("/") + path, data=body, headers=headers, method="POST")
        try:
            with urllib.request.urlopen(req, timeout=300) as resp:
                return resp.read(), resp.headers
        except urllib.error.HTTPError as e:
            err = ServiceError(e.code, e.read())
            if e.code == 503 and err.code == "busy" and attempt < retries:
                time.sleep(int(e.headers.get("Retry-After", "1")))
                continue
            raise err from None


def baseline(url, original, token=None):
    """Stores the original's snapshot on the service; returns its sha256."""
    body, _ = _post(url, "/v1/baseline", {}, {"file": original}, token)
    return json.loads(body)["sha256"]


def audit_blocks(url, original, edited, original_sha256=None, show=3, token=None):
    """Audits the edit; returns (blocked, content blocks).

    With original_sha256 (from baseline) only the edited file is sent; when the
    service no longer has that snapshot (404 not_in_store) the original is sent.
    """
    fields = {"format": "model", "show": str(show)}
    if original_sha256:
        try:
            body, headers = _post(url, "/v1/audit", dict(fields, original_sha256=original_sha256,
                                                         original_name=os.path.basename(original)),
                                  {"edited": edited}, token)
        except ServiceError as e:
            if e.code != "not_in_store":
                raise
            body, headers = _post(url, "/v1/audit", fields, {"original": original, "edited": edited}, token)
    else:
        body, headers = _post(url, "/v1/audit", fields, {"original": original, "edited": edited}, token)
    return headers.get("X-Editaudit-Blocked") == "true", json.loads(body)["content"]


def model_request(instruction, blocks, model="claude-sonnet-4-5", max_tokens=2048):
    """The model call that shows the audit to the agent that made the edit."""
    intro = {
        "type": "text",
        "text": f"You were asked: {instruction}\n"
        "Your edit was audited against the original document. Fix what the audit says the edit broke; "
        "leave the rest as it is.",
    }
    return {
        "model": model,
        "max_tokens": max_tokens,
        "messages": [{"role": "user", "content": [intro] + blocks}],
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--url", default=os.environ.get("EDITAUDIT_SERVER", "http://127.0.0.1:8787"))
    ap.add_argument("--token-file", help="file holding the service's bearer token")
    ap.add_argument("--show", type=int, default=3, help="changed pages sent as images")
    ap.add_argument("--baseline", action="store_true", help="store the original first, then send only the edit")
    ap.add_argument("--instruction", default="Edit the document as requested.")
    ap.add_argument("original")
    ap.add_argument("edited")
    a = ap.parse_args()
    token = None
    if a.token_file:
        with open(a.token_file) as f:
            token = f.read().strip()
    try:
        sha = baseline(a.url, a.original, token) if a.baseline else None
        blocked, blocks = audit_blocks(a.url, a.original, a.edited, sha, a.show, token)
    except (ServiceError, urllib.error.URLError) as e:
        print(f"editaudit service: {e}", file=sys.stderr)
        return 3
    json.dump(model_request(a.instruction, blocks), sys.stdout)
    sys.stdout.write("\n")
    return 1 if blocked else 0


if __name__ == "__main__":
    sys.exit(main())
