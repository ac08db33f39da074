#!/bin/sh
# Waits until a Kubernetes Job has ended, Complete OR Failed, and says which.
#
#   scripts/k8s-wait-job.sh [-n NAMESPACE] JOB [TIMEOUT]
#
# TIMEOUT is like kubectl's: 90s, 30m, 12h (default 12h). Exit 0 when the
# Job is Complete; 1 when it Failed (its reason, message and failed
# indexes are printed); 2 on timeout or a usage error; 3 when kubectl
# fails (no cluster, no such Job).
#
# `kubectl wait --for=condition=complete` alone is not enough: a Job whose
# index failed ends with the condition Failed, never Complete, and such a
# wait only returns when its whole timeout has run out. This polls the
# Job's final conditions (Complete, Failed: set once its pods are gone;
# SuccessCriteriaMet and FailureTarget come earlier) every INTERVAL seconds
# (default 10).
set -eu

usage() { sed -n '4p' "$0" | sed 's/^# *//' >&2; exit 2; }
ns=""
while getopts "n:h" opt; do
	case $opt in
	n) ns=$OPTARG ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[ $# -ge 1 ] || usage
job=$1
timeout=${2:-12h}
case $timeout in
*h) secs=$((${timeout%h} * 3600)) ;;
*m) secs=$((${timeout%m} * 60)) ;;
*s) secs=${timeout%s} ;;
*[!0-9]* | '') usage ;;
*) secs=$timeout ;;
esac
interval=${INTERVAL:-10}

kc() {
	if [ -n "$ns" ]; then kubectl -n "$ns" "$@"; else kubectl "$@"; fi
}

start=$(date +%s)
while :; do
	if ! conds=$(kc get job "$job" -o jsonpath='{range .status.conditions[*]}{.type}={.status}{"\n"}{end}'); then
		echo "k8s-wait-job: kubectl get job $job failed" >&2
		exit 3
	fi
	case $conds in
	*Complete=True*)
		echo "job/$job: Complete ($(kc get job "$job" -o jsonpath='{.status.succeeded}') pods succeeded)"
		exit 0
		;;
	*Failed=True*)
		reason=$(kc get job "$job" -o jsonpath='{.status.conditions[?(@.type=="Failed")].reason}: {.status.conditions[?(@.type=="Failed")].message}')
		failed=$(kc get job "$job" -o jsonpath='{.status.failedIndexes}')
		done=$(kc get job "$job" -o jsonpath='{.status.completedIndexes}')
		echo "job/$job: Failed ($reason); failed indexes: ${failed:-none}; completed indexes: ${done:-none}"
		exit 1
		;;
	esac
	now=$(date +%s)
	if [ $((now - start)) -ge "$secs" ]; then
		echo "k8s-wait-job: job/$job has not ended after $timeout" >&2
		exit 2
	fi
	sleep "$interval"
done
