#!/usr/bin/env bash
# Runs every fuzz target of the module (go test -fuzz) for FUZZTIME each.
#
#   scripts/fuzz.sh [FUZZTIME] [PACKAGE-PATTERN]      e.g. scripts/fuzz.sh 10m ./formats/...
#
# FUZZTIME is a go test -fuzztime value (default 1m). Targets are found with
# `go test -list '^Fuzz'`, so new ones are picked up without editing this
# script. Each target runs with one worker (FUZZ_PARALLEL, default 1) so that
# fuzzing shares a small machine. Minimizing each new input is capped at
# FUZZ_MINIMIZE executions (default 100x): with whole documents as seeds,
# time-based minimization (Go's default 60s) takes most of the run. A crasher is written by Go to the package's
# testdata/fuzz/<Target>/ folder: fix the bug, keep the file (it then runs as
# a regular test in `make test`), and record it in docs/operations.md.
# The exit status is 1 when any target found a failure.
set -u -o pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/go/bin"

fuzztime=${1:-1m}
pattern=${2:-./...}
parallel=${FUZZ_PARALLEL:-1}
minimize=${FUZZ_MINIMIZE:-100x}
logdir=$(mktemp -d "${TMPDIR:-/tmp}/editaudit-fuzz.XXXXXX")
trap 'rm -rf "$logdir"' EXIT

targets=()
for pkg in $(go list "$pattern"); do
	for name in $(go test -list '^Fuzz' "$pkg" 2>/dev/null | grep '^Fuzz'); do
		targets+=("$pkg $name")
	done
done
if [ ${#targets[@]} -eq 0 ]; then
	echo "fuzz.sh: no fuzz targets found in $pattern" >&2
	exit 1
fi
echo "fuzz.sh: ${#targets[@]} targets, $fuzztime each, $parallel worker(s)"

failed=0
summary=()
for t in "${targets[@]}"; do
	pkg=${t% *}
	name=${t#* }
	log="$logdir/$name.log"
	echo "== $pkg $name"
	status=ok
	if ! go test -run '^$' -fuzz "^${name}\$" -fuzztime "$fuzztime" -fuzzminimizetime "$minimize" \
		-parallel "$parallel" -timeout 0 "$pkg" >"$log" 2>&1; then
		status=FAILED
		failed=1
		grep -v '^fuzz: elapsed' "$log" | tail -n 30
	fi
	last=$(grep '^fuzz: elapsed' "$log" | tail -n 1)
	execs=$(sed -n 's/.*execs: \([0-9]*\).*/\1/p' <<<"$last")
	summary+=("$(printf '%-8s %-28s %-12s %s' "$status" "$name" "${execs:-?}" "$pkg")")
done

echo
printf '%-8s %-28s %-12s %s\n' status target execs package
printf '%s\n' "${summary[@]}"
exit $failed
