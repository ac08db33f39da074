#!/usr/bin/env python3
"""How far off the corpus run ETA was, from a `--progress json` log.

Usage: editaudit corpus run --progress json ... 2> progress.jsonl
       scripts/eta-accuracy.py progress.jsonl

Reads the JSON progress lines (one every 2 s), takes the run's real end
(the "done" line) and, at every line where at least 15% of the pairs are
left, compares the time actually left with the ETA of two estimators
replayed from the done counts (completion times are known to the line's
2 s):
  whole-run  pairs done / time since the start (the estimator before the
             windowed one);
  windowed   corpus.Progress: the last 24 completions, at least 6, the
             window ending at its last completion or later on a stall.
Prints, per estimator, the median, 90th percentile and worst factor off
(max(eta/actual, actual/eta)).
"""
import json
import statistics
import sys

WINDOW, MIN = 24, 6


def main(path):
    ev = [json.loads(l) for l in open(path) if l.startswith("{")]
    end, total = ev[-1]["elapsed_s"], ev[-1]["total"]
    ends, prev = [], 0
    for e in ev:
        worked = e["audited"] + e["failed"]
        while prev < worked:
            ends.append(e["elapsed_s"])
            prev += 1

    def whole(t):
        n = sum(1 for x in ends if x <= t)
        return n / t if n and t > 0 else None

    def windowed(t):
        es = [x for x in ends if x <= t][-WINDOW:]
        if len(es) < MIN or es[-1] == es[0]:
            return None
        gap = (es[-1] - es[0]) / (len(es) - 1)
        stop = max(es[-1], t - gap)
        return (len(es) - 1) / (stop - es[0])

    print(f"{path}: {total} pairs in {end:.0f} s")
    for name, rate in (("whole-run", whole), ("windowed", windowed)):
        off = []
        for e in ev:
            left = total - e["done"]
            if e["done"] < 1 or left < 0.15 * total:
                continue
            r = rate(e["elapsed_s"])
            if r:
                eta, actual = left / r, end - e["elapsed_s"]
                off.append(max(eta / actual, actual / eta))
        off.sort()
        print(f"  {name:9}  median {statistics.median(off):.2f}x  p90 {off[int(len(off) * .9)]:.2f}x"
              f"  worst {off[-1]:.2f}x  ({len(off)} lines)")


if __name__ == "__main__":
    for p in sys.argv[1:]:
        main(p)
