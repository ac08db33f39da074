#!/bin/bash
# audit-cpu.sh N ORIGINAL EDITED [editaudit flags...]: the mean process CPU
# (user + system, ms) of N runs of `editaudit audit --render off`, with
# --content on and with --content off (docs/benchmarks.md, "Content diff in the
# audit"). Needs /usr/bin/time and editaudit on PATH (or $EDITAUDIT).
set -euo pipefail
n=$1 orig=$2 edited=$3
shift 3
bin=${EDITAUDIT:-editaudit}
out=$(mktemp)
trap 'rm -f "$out"' EXIT
for mode in on off; do
	total=0
	for _ in $(seq "$n"); do
		/usr/bin/time -f "%U %S" -o "$out" "$bin" audit --render off --content "$mode" "$@" "$orig" "$edited" >/dev/null || true
		read -r u s <"$out"
		total=$(awk -v t="$total" -v u="$u" -v s="$s" 'BEGIN { print t + (u + s) * 1000 }')
	done
	awk -v t="$total" -v n="$n" -v m="$mode" 'BEGIN { printf "--content %s: %.0f ms CPU per audit (mean of %d)\n", m, t / n, n }'
done
