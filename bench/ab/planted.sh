#!/usr/bin/env bash
# How often a planted 5% slowdown inside one file is found: TRIES experiments of planted.yaml,
# each compared by axis (level b against a); and the same with the two levels equal (A/A), which
# must never give a direction. Usage: bench/ab/planted.sh [TRIES]
set -euo pipefail
source "$(dirname "$0")/common.sh"
tries="${1:-20}"
machine
sed -e 's/value: 4404019/value: 4194305/' "$here/planted.yaml" >"$work/aa.yaml"
for i in $(seq 1 "$tries"); do
  "$rigor" run "$here/planted.yaml" -o "$work/p-$i.jsonl" --quiet --force
  "$rigor" compare "$work/p-$i.jsonl" --axis elements --format json >"$work/p-$i.json" || true
  "$rigor" run "$work/aa.yaml" -o "$work/a-$i.jsonl" --quiet --force
  "$rigor" compare "$work/a-$i.jsonl" --axis elements --format json >"$work/a-$i.json" || true
done
"$rigor" compare "$work/p-1.jsonl" --axis elements || true
python3 - "$work" "$tries" <<'PY'
import collections, json, sys
work, tries = sys.argv[1], int(sys.argv[2])
for kind, what in (("p", "planted 5%"), ("a", "A/A (1 element more)")):
    v = collections.Counter()
    ratios = []
    for i in range(1, tries + 1):
        for c in json.load(open(f"{work}/{kind}-{i}.json"))["contrasts"]:
            v[c["verdict"]] += 1
            if c["ratio"] is not None:
                ratios.append(c["ratio"])
    ratios.sort()
    print(f"{what}: {tries} experiments: " + ", ".join(f"{k} {n}" for k, n in sorted(v.items()))
          + (f"; ratio median {ratios[len(ratios) // 2]:.4f}" if ratios else ""))
PY
