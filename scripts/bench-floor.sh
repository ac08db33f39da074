#!/usr/bin/env bash
# Batch at LibreOffice's floor (docs/benchmarks.md "Batch at the floor").
#
#   EDITAUDIT_CORPUS=../shared/corpus/real scripts/bench-floor.sh [WORKDIR]
#
# On 8 pairs of real corpus documents and `corpus mutate` edits it measures,
# side by side, CPU (user+system of the whole process tree, from the
# kernel's accounting of waited-for children: /usr/bin/time) and wall time:
#
#   floor   one `soffice --convert-to pdf` of all 16 files (an initialised
#           profile, as the pool's cached one) + one pdftoppm pass over
#           every PDF at 100 dpi: the least work that renders them;
#   cold    `editaudit corpus run --render on` with an empty baseline store
#           (the initialised profile and the probed versions come from the
#           cache folder, as on every run after the first);
#   first   the same with an empty cache folder too (the very first run);
#   warm    again into a new run folder with the store now warm;
#   naive   ../shared/bench/naive-audit.sh per pair (two LibreOffice starts
#           per pair, pdftoppm, ImageMagick compare), one after the other.
#
# The converter is the default one (warm when python3-uno is installed;
# `editaudit corpus run` says which in run.json's toolchain). Prints one
# line per measurement, with the load average (other work on the host stretches wall time; CPU is the
# stable figure).
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
corpus=${EDITAUDIT_CORPUS:-$repo/../shared/corpus/real}
naive=${NAIVE:-$repo/../shared/bench/naive-audit.sh}
work=${1:-$(mktemp -d /tmp/bench-floor.XXXXXX)}
mkdir -p "$work"
bin=$work/editaudit
(cd "$repo" && go build -o "$bin" ./cmd/editaudit)

load() { cut -d' ' -f1-3 /proc/loadavg; }
# timed NAME CMD...: runs CMD under /usr/bin/time, prints NAME, wall, CPU.
timed() {
	local name=$1
	shift
	local l0
	l0=$(load)
	/usr/bin/time -f "%e %U %S" -o "$work/time.$name" "$@" >"$work/out.$name" 2>"$work/err.$name" || {
		echo "$name: failed (see $work/err.$name)" >&2
		return 1
	}
	read -r wall user sys <"$work/time.$name"
	cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }')
	echo "$name: wall ${wall}s, cpu ${cpu}s (load $l0)"
	eval "wall_$name=$wall cpu_$name=$cpu"
}

# 1. The pairs: each original with the first edit that applies to it.
docs=$work/docs
rm -rf "$docs" && mkdir -p "$docs"
manifest=$docs/pairs.csv
echo "id,original,edited" >"$manifest"
n=0
while read -r rel kinds; do
	n=$((n + 1))
	ext=${rel##*.}
	cp "$corpus/$rel" "$docs/o$n.$ext"
	for k in $kinds; do
		if "$bin" corpus mutate "$k" "$docs/o$n.$ext" "$docs/e$n.$ext" >/dev/null 2>&1; then
			echo "$n,o$n.$ext,e$n.$ext" >>"$manifest"
			echo "pair $n: $rel, $k"
			break
		fi
	done
done <<'EOF'
docx/docx4j_sample-docx.docx docx.word-replaced
docx/oxsdk_table-2007.docx docx.row-deleted docx.word-replaced
docx/poi_stress023.docx docx.paragraph-appended
docx/onlyoffice_sample.docx docx.word-replaced docx.paragraph-appended
pptx/oxsdk_typical-deck.pptx pptx.word-replaced pptx.runs-dropped
pptx/onlyoffice_sample.pptx pptx.slide-deleted pptx.word-replaced
xlsx/onlyoffice_sample.xlsx xlsx.value-changed xlsx.row-deleted
xlsx/poi_simple-monthly-budget.xlsx xlsx.row-deleted xlsx.value-changed
EOF
pairs=$(($(wc -l <"$manifest") - 1))
files=("$docs"/o*.* "$docs"/e*.*)
echo "pairs: $pairs, files: ${#files[@]}"

# 2. The floor: one LibreOffice batch, one rasterizer pass.
prof=$work/floor-profile
rm -rf "$prof" "$work/floor" && mkdir -p "$work/floor"
soffice -env:UserInstallation=file://"$prof" --headless --terminate_after_init >/dev/null 2>&1 || true
timed floor_soffice env LC_ALL=C.UTF-8 soffice -env:UserInstallation=file://"$prof" --headless --norestore \
	--convert-to pdf --outdir "$work/floor" "${files[@]}"
cat >"$work/raster.sh" <<'EOF'
for f in "$@"; do pdftoppm -r 100 "$f" >/dev/null; done
EOF
timed floor_raster bash "$work/raster.sh" "$work"/floor/*.pdf
pages=0
for f in "$work"/floor/*.pdf; do
	pages=$((pages + $(pdfinfo "$f" | awk '/^Pages:/ { print $2 }')))
done
cpu_floor=$(awk -v a="$cpu_floor_soffice" -v b="$cpu_floor_raster" 'BEGIN { printf "%.2f", a + b }')
wall_floor=$(awk -v a="$wall_floor_soffice" -v b="$wall_floor_raster" 'BEGIN { printf "%.2f", a + b }')
echo "floor: $pages pages; wall ${wall_floor}s, cpu ${cpu_floor}s"

# 3. corpus run: cold store (cached profile), very first run, warm store.
run() { # NAME STORE CACHE
	rm -rf "$work/run-$1"
	timed "$1" env XDG_CACHE_HOME="$3" "$bin" corpus run --render on --store "$2" --out "$work/run-$1" "$manifest"
}
rm -rf "$work/cache" "$work/store-first" "$work/store"
mkdir -p "$work/cache"
run first "$work/store-first" "$work/cache"
run cold "$work/store" "$work/cache"
run warm "$work/store" "$work/cache"
for r in first cold warm; do
	echo "$r: $(grep -c '"pages":{"status":"ok"' "$work/run-$r/results.jsonl") of $pairs pairs with pages compared"
done

# 4. Naive.
if [ -x "$naive" ] && command -v compare >/dev/null; then
	cat >"$work/naive.sh" <<EOF
tail -n +2 "$manifest" | while IFS=, read -r id o e; do
	HOME=$work/naive-home "$naive" "$docs/\$o" "$docs/\$e" "$work/naive/\$id" >/dev/null 2>&1 || echo "naive: pair \$id failed" >&2
done
EOF
	rm -rf "$work/naive" "$work/naive-home" && mkdir -p "$work/naive" "$work/naive-home"
	timed naive bash "$work/naive.sh"
else
	echo "naive: skipped (no $naive or no ImageMagick compare)"
	wall_naive=""
fi

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
echo "cold/floor CPU: $(ratio "$cpu_cold" "$cpu_floor")x (want <= 1.3); first/floor CPU: $(ratio "$cpu_first" "$cpu_floor")x"
if [ -n "$wall_naive" ]; then
	echo "naive/cold wall: $(ratio "$wall_naive" "$wall_cold")x (want >= 5); naive/warm wall: $(ratio "$wall_naive" "$wall_warm")x (want >= 10)"
fi
