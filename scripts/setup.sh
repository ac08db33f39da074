#!/usr/bin/env bash
# Installs what editaudit needs on a Debian machine, only what is missing:
# LibreOffice (Writer, Calc, Impress, no GUI), poppler-utils (pdftoppm,
# pdfinfo, pdftotext), mupdf-tools (mutool: the faster rasterizer over the
# real corpus, see BENCHMARKS.md), python3-uno (LibreOffice's Python UNO
# bridge, for /usr/bin/python3: the warm converter keeps LibreOffice running
# behind it; without it editaudit falls back to batch conversion), fonts, the
# libjpeg headers for go-libjpeg, and the Go modules. Idempotent: a second
# run installs nothing. Runs as root (or with sudo available); set
# EDITAUDIT_SKIP_APT=1 to skip system packages.
set -euo pipefail

pkgs=(
  libreoffice-writer-nogui libreoffice-calc-nogui libreoffice-impress-nogui
  poppler-utils mupdf-tools python3-uno
  fonts-dejavu-core fonts-liberation2 fonts-noto-cjk
  libjpeg62-turbo-dev
)
# Optional helpers for tests that look at the HTML report and the naive
# benchmark pipeline; installed too, but their absence only skips tests.
optional=(chromium imagemagick)

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
# staticcheck (run by `make test` through `make lint`), from the Go module
# proxy, pinned; installed only when that version is missing.
STATICCHECK_VERSION=v0.8.2
gobin=$(go env GOPATH)/bin
if ! "$gobin/staticcheck" -version 2>/dev/null | grep -q "${STATICCHECK_VERSION#v}"; then
  echo "setup: installing staticcheck $STATICCHECK_VERSION" >&2
  go install "honnef.co/go/tools/cmd/staticcheck@$STATICCHECK_VERSION"
fi
# The Node packages of the OpenAPI check (api/) and of the TypeScript client
# example (examples/clients/typescript), from their lock files, when npm is
# installed and they are missing; their tests are skipped without them
# (failed under CI).
if command -v npm >/dev/null 2>&1; then
  for d in api examples/clients/typescript; do
    if [ ! -d "$d/node_modules" ]; then
      echo "setup: npm ci in $d" >&2
      (cd "$d" && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
    fi
  done
fi
echo "setup: ok ($(soffice --version 2>/dev/null | head -1 || echo 'soffice missing'); $(pdftoppm -v 2>&1 | head -1))" >&2
