#!/usr/bin/env bash
# A/A across files: 2 x PAIRS independent runs of the same stream experiment, compared in pairs
# with default settings. With one run a side (triad.yaml, the default order) every row must come
# out undetermined; with three (triad3.yaml) a faster or slower row is a false verdict.
# Usage: bench/ab/aa_files.sh [PAIRS]
set -euo pipefail
source "$(dirname "$0")/common.sh"
pairs="${1:-20}"
machine
for cfg in triad triad3; do
  for i in $(seq 1 $((2 * pairs))); do
    "$rigor" run "$here/$cfg.yaml" -o "$work/$cfg-$i.jsonl" --quiet --force
  done
  fails=0
  for i in $(seq 1 "$pairs"); do
    rc=0
    "$rigor" compare "$work/$cfg-$((2 * i - 1)).jsonl" "$work/$cfg-$((2 * i)).jsonl" \
      --format json >"$work/c-$cfg-$i.json" || rc=$?
    [ "$rc" -eq 0 ] || fails=$((fails + 1))
  done
  python3 - "$work" "$cfg" "$pairs" "$fails" <<'PY'
import collections, json, sys
work, cfg, pairs, fails = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
verdicts = collections.Counter()
for i in range(1, pairs + 1):
    for row in json.load(open(f"{work}/c-{cfg}-{i}.json"))["rows"]:
        verdicts[row["verdict"]] += 1
print(f"{cfg}: {pairs} A/A comparisons: " + ", ".join(f"{k} {v}" for k, v in sorted(verdicts.items()))
      + f"; false faster/slower: {verdicts['faster'] + verdicts['slower']}; non-zero exits: {fails}")
PY
done
