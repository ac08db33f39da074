#!/usr/bin/env bash
# Times `editaudit synth` end to end (wall, user+system CPU of the command
# and its LibreOffice children, peak memory) on a 50-page docx and a
# 10,000-row workbook: without rendering, with rendering to count pages,
# with --recalc and with --to pdf. Results go into docs/benchmarks.md by hand.
#   bash scripts/bench-synth.sh [OUT_DIR]
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$(mktemp -d)}
mkdir -p "$out"
export PATH=$PATH:/usr/local/go/bin
cd "$repo"
go build -o "$out/editaudit" ./cmd/editaudit
EDITAUDIT_BENCH_SPECS="$out" go test ./synth -run '^TestWriteBenchSpecs$' -count=1 >/dev/null
run() { # label, args…
  local label=$1; shift
  /usr/bin/time -f "$label: %e s wall, %U s user + %S s sys, %M KB max RSS" "$out/editaudit" synth --fixtures "$@" >/dev/null
}
run "docx 50 pages, --render off" --render off "$out/docx-50-pages.json" "$out/fifty.docx"
run "docx 50 pages, pages counted" "$out/docx-50-pages.json" "$out/fifty.docx"
run "docx 50 pages, --to pdf" --to pdf "$out/docx-50-pages.json" "$out/fifty.pdf"
run "xlsx 10,000 rows, --render off" --render off "$out/xlsx-10000-rows.json" "$out/rows.xlsx"
run "xlsx 10,000 rows, pages counted" "$out/xlsx-10000-rows.json" "$out/rows.xlsx"
run "xlsx 10,000 rows, --recalc, pages counted" --recalc "$out/xlsx-10000-rows.json" "$out/rows.xlsx"
"$out/editaudit" synth --fixtures --format json "$out/xlsx-10000-rows.json" "$out/rows.xlsx"
"$out/editaudit" synth --fixtures --format json "$out/docx-50-pages.json" "$out/fifty.docx"
