#!/usr/bin/env bash
# Installs what editaudit needs on a Debian machine, only what is missing:
# LibreOffice (Writer, Calc, Impress, no GUI), poppler-utils (pdftoppm,
# pdfinfo, pdftotext), mupdf-tools (mutool: the faster rasterizer over the
# real corpus, see docs/benchmarks.md), python3-uno (LibreOffice's Python UNO
# bridge, for /usr/bin/python3: the warm converter keeps LibreOffice running
# behind it; without it editaudit falls back to batch conversion), fonts
# (emoji: Noto Color Emoji for the browser; Symbola, an outline emoji font,
# for LibreOffice 7.4, which leaves colour glyphs out of a PDF —
# docs/rendering.md), the libjpeg headers for go-libjpeg, and the Go modules.
# Idempotent: a second run installs nothing. Runs as root (or with sudo
# available); set EDITAUDIT_SKIP_APT=1 to skip system packages.
set -euo pipefail

# deploy/Dockerfile installs the same list (deploy/deploy_test.go compares
# them): keep the two in step.
pkgs=(
  libreoffice-writer-nogui libreoffice-calc-nogui libreoffice-impress-nogui
  python3-uno
  poppler-utils mupdf-tools
  fonts-dejavu-core fonts-liberation2 fonts-noto-cjk fonts-noto-color-emoji fonts-symbola
  libjpeg62-turbo-dev
)
# Optional helpers for tests that look at the HTML report and the naive
# benchmark pipeline, and xmllint for the JUnit schema check; installed
# too, but their absence only skips tests (outside CI).
optional=(chromium imagemagick libxml2-utils)

missing=()
for p in "${pkgs[@]}" "${optional[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ "${EDITAUDIT_SKIP_APT:-}" != "1" ] && [ ${#missing[@]} -gt 0 ]; then
  SUDO=""
  if [ "$(id -u)" != "0" ]; then SUDO="sudo"; fi
  echo "setup: installing ${missing[*]}" >&2
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
else
  echo "setup: system packages present" >&2
fi

if ! command -v go >/dev/null 2>&1 && [ -x /usr/local/go/bin/go ]; then
  export PATH=$PATH:/usr/local/go/bin
fi
go mod download
# The node packages the tests use, each pinned by its lock file and
# installed again only when the lock file changed: tools/validate (SARIF
# and Kubernetes schemas, the JUnit XSD, the Dockerfile linter, the OpenAPI
# check, playwright-core for the corpus index page), the TypeScript
# compiler of the client example (examples/clients/typescript) and the
# official MCP TypeScript SDK that drives `editaudit mcp` in its tests
# (tools/mcpclient).
if command -v npm >/dev/null 2>&1; then
  root="$(cd "$(dirname "$0")/.." && pwd)"
  for v in "$root/tools/validate" "$root/examples/clients/typescript" "$root/tools/mcpclient"; do
    if ! cmp -s "$v/package-lock.json" "$v/node_modules/.package-lock.json.installed" 2>/dev/null; then
      echo "setup: npm ci in $v" >&2
      (cd "$v" && npm ci --no-audit --no-fund >/dev/null && cp package-lock.json node_modules/.package-lock.json.installed)
    fi
  done
else
  echo "setup: npm missing: the schema checks of tools/validate and the TypeScript and MCP client tests will be skipped (failed under CI)" >&2
fi
# staticcheck (run by `make test` through `make lint`), from the Go module
# proxy, pinned; installed only when that version is missing.
STATICCHECK_VERSION=v0.8.2
gobin=$(go env GOPATH)/bin
if ! "$gobin/staticcheck" -version 2>/dev/null | grep -q "${STATICCHECK_VERSION#v}"; then
  echo "setup: installing staticcheck $STATICCHECK_VERSION" >&2
  go install "honnef.co/go/tools/cmd/staticcheck@$STATICCHECK_VERSION"
fi
echo "setup: ok ($(soffice --version 2>/dev/null | head -1 || echo 'soffice missing'); $(pdftoppm -v 2>&1 | head -1))" >&2
