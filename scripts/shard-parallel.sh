#!/usr/bin/env bash
# Run `editaudit corpus run` as N shards on one host, then merge them.
#
#   scripts/shard-parallel.sh [-n SHARDS] [-j JOBS_PER_SHARD] [-s STORE] [-b EDITAUDIT] OUT MANIFEST [-- RUN FLAGS...]
#
# Each shard K of N audits the pairs whose id hashes to K (editaudit
# corpus run --shard K/N) into OUT/shard-K, with its own progress log
# OUT/shard-K.log (JSON lines). All shards share one baseline store, so an
# original used by pairs in several shards is still inspected and rendered
# once per toolchain (the store is safe for concurrent processes). When
# every shard is done, OUT/merged is rebuilt from them: one results.jsonl,
# one summary.json, one index.html.
#
# Re-running the same command resumes: each shard skips the pairs it
# already has, and only the merge is redone. A shard that fails (exit code
# other than 0) is reported and the merge is skipped; re-run to retry.
#
# GNU parallel runs the shards when it is installed, xargs -P otherwise.
# Defaults: SHARDS = number of CPUs; JOBS_PER_SHARD = CPUs / SHARDS
# (at least 1); STORE = OUT/store; EDITAUDIT = editaudit from PATH.
#
# Note that every shard started with rendering starts its own LibreOffice
# pool (min(CPUs, 4) processes): on one host, few shards with more jobs
# each render faster than many small ones. Sharding on one host is mostly
# about isolation (a shard that crashes or is killed costs only its pairs
# in flight) and about trying the multi-machine setup locally.
set -euo pipefail

usage() {
	sed -n '2,4p' "$0" | sed 's/^# \{0,1\}//' >&2
	exit 2
}

cpus=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)
shards=$cpus jobs="" store="" bin=editaudit
while getopts "n:j:s:b:h" opt; do
	case $opt in
	n) shards=$OPTARG ;;
	j) jobs=$OPTARG ;;
	s) store=$OPTARG ;;
	b) bin=$OPTARG ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[ $# -ge 2 ] || usage
out=$1 manifest=$2
shift 2
if [ $# -gt 0 ]; then
	[ "$1" = "--" ] || usage
	shift
fi
case $shards in '' | *[!0-9]* | 0) echo "shard-parallel: -n must be a positive number" >&2; exit 2 ;; esac
[ -n "$jobs" ] || jobs=$((cpus / shards > 0 ? cpus / shards : 1))
[ -n "$store" ] || store=$out/store
command -v "$bin" >/dev/null 2>&1 || { echo "shard-parallel: $bin not found (use -b PATH)" >&2; exit 2; }
[ -f "$manifest" ] || { echo "shard-parallel: no manifest $manifest" >&2; exit 2; }
mkdir -p "$out"

# One shard: its own folder and log; the exit code is kept for the report.
run_shard() {
	local k=$1
	"$bin" corpus run --shard "$k/$shards" --jobs "$jobs" --store "$store" \
		--out "$out/shard-$k" --progress json "${@:2}" "$manifest" \
		>"$out/shard-$k.out" 2>"$out/shard-$k.log"
	local rc=$?
	echo "$rc" >"$out/shard-$k.rc"
	return "$rc"
}
export -f run_shard
export bin shards jobs store out manifest

rm -f "$out"/shard-*.rc
echo "shard-parallel: $shards shards of $manifest, $jobs jobs each, store $store" >&2
if command -v parallel >/dev/null 2>&1; then
	seq 1 "$shards" | parallel --will-cite --halt never -j "$shards" run_shard {} "$@" || true
else
	seq 1 "$shards" | xargs -P "$shards" -I{} bash -c 'run_shard "$@"' _ {} "$@" || true
fi

failed=0
for k in $(seq 1 "$shards"); do
	rc=$(cat "$out/shard-$k.rc" 2>/dev/null || echo "?")
	last=$(tail -n 1 "$out/shard-$k.log" 2>/dev/null || true)
	echo "shard $k/$shards: exit $rc $last" >&2
	[ "$rc" = 0 ] || failed=1
done
if [ "$failed" != 0 ]; then
	echo "shard-parallel: some shards did not finish; run the same command again to resume them" >&2
	exit 1
fi

rm -rf "$out/merged"
dirs=()
for k in $(seq 1 "$shards"); do dirs+=("$out/shard-$k"); done
"$bin" corpus merge --out "$out/merged" "${dirs[@]}"
"$bin" corpus summary "$out/merged"
