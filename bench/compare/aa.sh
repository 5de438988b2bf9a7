#!/usr/bin/env bash
# A/A test of `rigor compare`: 2 x N independent runs of one stream experiment, compared in
# pairs. With no real difference, every row should come out `same` or `unstable`; each `faster`
# or `slower` is a false positive. Usage: bench/compare/aa.sh [BUILD_DIR] [PAIRS] [THRESHOLD]
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
build="${1:-$root/build}"
pairs="${2:-20}"
threshold="${3:-2%}"
rigor="$build/bin/rigor"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
for i in $(seq 1 $((2 * pairs))); do
  "$rigor" run "$root/bench/compare/aa.yaml" -o "$work/r$i.jsonl" --quiet
done
for i in $(seq 1 "$pairs"); do
  "$rigor" compare "$work/r$((2 * i - 1)).jsonl" "$work/r$((2 * i)).jsonl" --threshold "$threshold" \
    --format json >"$work/c$i.json" || true
done
python3 - "$work" "$pairs" <<'PY'
import collections, json, sys
work, pairs = sys.argv[1], int(sys.argv[2])
verdicts = collections.Counter()
for i in range(1, pairs + 1):
    doc = json.load(open(f"{work}/c{i}.json"))
    rows = doc["rows"] if isinstance(doc, dict) and "rows" in doc else doc
    for row in rows:
        verdicts[row["verdict"]] += 1
total = sum(verdicts.values())
false_pos = verdicts["faster"] + verdicts["slower"]
print(f"A/A: {pairs} comparisons, {total} rows: " +
      ", ".join(f"{k} {v}" for k, v in sorted(verdicts.items())))
print(f"false positives (faster or slower): {false_pos} of {total} rows")
PY
