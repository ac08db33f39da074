#!/usr/bin/env bash
# Nothing left on any exit path (docs/benchmarks.md "Batch at the floor"):
#
#   scripts/check-kill.sh EDITAUDIT_BINARY PAIRS.csv
#
# Starts `editaudit corpus run --render on` over PAIRS.csv (scripts/bench-floor.sh
# leaves one in WORKDIR/docs/pairs.csv) in a TMPDIR of its own, waits until its
# LibreOffice runs, kills it with SIGTERM, then (in a second TMPDIR) with SIGKILL,
# and prints what is left: processes naming that TMPDIR, files in it, UNO sockets
# of the killed process. After SIGKILL it runs again in the same TMPDIR, whose
# pool must sweep the dead one's folder.
set -u
bin=$1 manifest=$2
base=$(mktemp -d /tmp/editaudit-kill.XXXXXX)
for sig in TERM KILL; do
	t=$base/tmp-$sig
	mkdir -p "$t"
	TMPDIR=$t "$bin" corpus run --render on --store "$base/store-$sig" --out "$base/run-$sig" "$manifest" >"$base/out-$sig" 2>&1 &
	pid=$!
	for i in $(seq 1 600); do
		if ps -eo args | grep -v grep | grep -q "soffice.bin.*$t"; then break; fi
		sleep 0.1
	done
	sleep 3
	n=$(ps -eo args | grep -v grep | grep -c "$t")
	kill -$sig $pid
	wait $pid
	rc=$?
	sleep 2
	left=$(ps -eo pid,args | grep -v grep | grep "$t")
	echo "SIG$sig: exit $rc; $n processes under its TMPDIR before the kill; after: ${left:-none}"
	echo "  left in its TMPDIR: $(ls -A "$t" | tr '\n' ' ')"
	echo "  UNO sockets of pid $pid left: $(ls /tmp/OSL_PIPE_*editaudit-$pid-* 2>/dev/null | wc -l)"
	if [ "$sig" = KILL ]; then
		# The next pool in the same TMPDIR sweeps the dead one's folder.
		TMPDIR=$t "$bin" corpus run --render on --store "$base/store-$sig" --out "$base/run-$sig-2" "$manifest" >/dev/null 2>&1
		echo "  after the next run in the same TMPDIR: $(ls -A "$t" | tr '\n' ' ')"
		echo "  processes: $(ps -eo pid,args | grep -v grep | grep -c "$t")"
	fi
done
echo "work: $base"
