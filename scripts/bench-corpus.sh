#!/usr/bin/env bash
# Benchmark of `editaudit corpus run` (docs/benchmarks.md, "Batch").
#
#   scripts/bench-corpus.sh [WORKDIR]
#
# 1. Builds editaudit and generates 20 edit pairs from examples/specs
#    (contract.docx, deck.pptx, workbook.xlsx and 20 injected edits:
#    damage, benign edits, defects).
# 2. Runs the naive pipeline (../shared/bench/naive-audit.sh: two
#    LibreOffice starts per pair, pdftoppm, ImageMagick compare per page)
#    over the 20 pairs, one after the other, with a fresh LibreOffice
#    profile (HOME).
# 3. Runs `editaudit corpus run --render on` over the same 20 pairs with an
#    empty baseline store (cold: every original inspected and rendered,
#    LibreOffice's profile made from scratch), then again into a new run
#    folder with the store now warm (originals loaded, only edits rendered).
# 4. Peak Go RSS of `corpus run --render off` over 100 and 1000 pairs (the
#    generated pairs repeated under new ids: every pair is audited).
#
# Prints one line per measurement. Wall-clock times; the machine's load
# average is printed with them because other work on the host skews them.
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
naive=${NAIVE:-$repo/../shared/bench/naive-audit.sh}
work=${1:-$(mktemp -d /tmp/bench-corpus.XXXXXX)}
mkdir -p "$work"
bin=$work/editaudit
(cd "$repo" && go build -o "$bin" ./cmd/editaudit)

now() { date +%s.%N; }
rate() { awk -v n="$1" -v s="$2" 'BEGIN { printf "%.1f", n / s * 60 }'; }
load() { cut -d' ' -f1-3 /proc/loadavg; }

# 1. The 20 pairs.
docs=$work/docs
rm -rf "$docs" && mkdir -p "$docs"
"$bin" synth --fixtures --render off "$repo/examples/specs/contract.json" "$docs/contract.docx" >/dev/null
"$bin" synth --fixtures --render off "$repo/examples/specs/deck.json" "$docs/deck.pptx" >/dev/null
"$bin" synth --fixtures --render off "$repo/examples/specs/workbook.json" "$docs/workbook.xlsx" >/dev/null
kinds_docx="docx.nested-tables-wiped docx.row-deleted docx.paragraph-appended docx.word-replaced docx.page-break-top zip.repacked xml.illegal-char rels.undefined-id"
kinds_pptx="pptx.slide-deleted pptx.runs-dropped pptx.word-replaced zip.repacked rels.target-missing ct.wrong-main-type"
kinds_xlsx="xlsx.openpyxl-resave xlsx.row-deleted xlsx.value-changed zip.repacked xml.not-well-formed rels.undefined-id"
manifest=$docs/pairs.csv
echo "id,original,edited" >"$manifest"
n=0
for spec in "contract.docx:$kinds_docx" "deck.pptx:$kinds_pptx" "workbook.xlsx:$kinds_xlsx"; do
	orig=${spec%%:*}
	for k in ${spec#*:}; do
		n=$((n + 1))
		ed="e$n-$k.${orig##*.}"
		"$bin" corpus mutate "$k" "$docs/$orig" "$docs/$ed" >/dev/null
		echo "$n,$orig,$ed" >>"$manifest"
	done
done
echo "pairs: $n (3 originals: docx, pptx, xlsx)"

# 2. Naive pipeline.
if [ -x "$naive" ] && command -v soffice >/dev/null; then
	nh=$work/naive-home
	rm -rf "$nh" "$work/naive" && mkdir -p "$nh" "$work/naive"
	l0=$(load)
	t0=$(now)
	tail -n +2 "$manifest" | while IFS=, read -r id o e; do
		HOME=$nh "$naive" "$docs/$o" "$docs/$e" "$work/naive/$id" >/dev/null 2>&1 || echo "naive: pair $id failed" >&2
	done
	t1=$(now)
	s=$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')
	echo "naive-audit.sh: $n pairs in ${s}s = $(rate "$n" "$s") pairs/min (load $l0)"
else
	echo "naive-audit.sh: skipped (no $naive or no soffice)"
	s=""
fi

# 3. corpus run, cold then warm store.
store=$work/store
rm -rf "$store" "$work/run-cold" "$work/run-warm"
for phase in cold warm; do
	l0=$(load)
	t0=$(now)
	"$bin" corpus run --render on --store "$store" --out "$work/run-$phase" --progress none "$manifest" >"$work/run-$phase.txt"
	t1=$(now)
	c=$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')
	line="corpus run ($phase store): $n pairs in ${c}s = $(rate "$n" "$c") pairs/min"
	if [ -n "$s" ]; then
		line="$line, $(awk -v a="$s" -v b="$c" 'BEGIN { printf "%.1f", a / b }')x the naive pipeline"
	fi
	echo "$line (load $l0)"
done

# 4. Peak RSS over 100 and 1000 pairs, no rendering.
for count in 100 1000; do
	m=$docs/pairs-$count.csv
	echo "id,original,edited" >"$m"
	tail -n +2 "$manifest" | awk -F, -v want="$count" '
		{ o[NR] = $2; e[NR] = $3; k = NR }
		END { for (i = 1; i <= want; i++) { j = (i - 1) % k + 1; print i "," o[j] "," e[j] } }' >>"$m"
	rm -rf "$work/rss-$count" "$work/rss-store-$count"
	/usr/bin/time -f "%M %e" -o "$work/rss-$count.time" \
		"$bin" corpus run --render off --store "$work/rss-store-$count" --out "$work/rss-$count" --progress none "$m" >/dev/null
	read -r kb secs <"$work/rss-$count.time"
	echo "corpus run --render off, $count pairs: peak RSS $((kb / 1024)) MiB, ${secs}s = $(rate "$count" "$secs") pairs/min"
done
echo "workdir: $work"
