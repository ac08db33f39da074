#!/bin/bash
# Renders the corpus's hwpx files with candidates (b) and (c) into OUT/b and
# OUT/c for the fidelity evaluation (docs/rendering.md, "Hangul pages").
#   bash run.sh CORPUS/hwpx OUT
# Needs node/npm and chromium. The HTTP server listens on 127.0.0.1 only.
set -euo pipefail
src=$(cd "$1" && pwd); out=$(mkdir -p "$2" && cd "$2" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d); trap 'kill $srv 2>/dev/null; rm -rf "$work"' EXIT
cp "$here/package.json" "$here/hwpxjs.mjs" "$here/rhwp.html" "$work/"
(cd "$work" && npm install --no-audit --no-fund >/dev/null)
cp "$work/node_modules/@rhwp/core/rhwp.js" "$work/node_modules/@rhwp/core/rhwp_bg.wasm" "$work/"
ln -s "$src" "$work/doc"
(cd "$work" && exec python3 -m http.server 8765 --bind 127.0.0.1 >/dev/null 2>&1) & srv=$!
sleep 1
chrome=(chromium --headless --no-sandbox --disable-gpu --disable-background-networking --disable-component-update --disable-sync --no-first-run --no-pdf-header-footer)
mkdir -p "$out/b" "$out/c"
for f in "$src"/*.hwpx; do
  n=$(basename "$f" .hwpx)
  (cd "$work" && node hwpxjs.mjs "$f" "$out/b/$n.html")
  "${chrome[@]}" --print-to-pdf="$out/b/$n.pdf" "file://$out/b/$n.html" >/dev/null 2>&1
  "${chrome[@]}" --virtual-time-budget=60000 --print-to-pdf="$out/c/$n.pdf" "http://127.0.0.1:8765/rhwp.html?f=$n.hwpx" >/dev/null 2>&1
  echo "$n b=$(pdfinfo "$out/b/$n.pdf" | awk '/^Pages/{print $2}') c=$(pdfinfo "$out/c/$n.pdf" | awk '/^Pages/{print $2}')"
done
