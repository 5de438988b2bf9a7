#!/usr/bin/env bash
# Which gate statistic lets a steady stream triad row through and stops a noisy one: FILES files
# of three runs each, quiet and beside a same-core busy loop; each row's pooled cycle CV (seed
# 000) and robust spread (1.4826 MAD / median), within-run and run-to-run spread, against the
# 5% bound. Usage: bench/ab/gate_default.sh [FILES]
set -euo pipefail
source "$(dirname "$0")/common.sh"
files="${1:-10}"
machine
for i in $(seq 1 "$files"); do
  "$rigor" run "$here/triad3.yaml" -o "$work/quiet-$i.jsonl" --quiet --force
  busy_start
  "$rigor" run "$here/triad3.yaml" -o "$work/noisy-$i.jsonl" --quiet --force
  busy_stop
done
for f in "$work"/quiet-*.jsonl "$work"/noisy-*.jsonl; do
  "$rigor" report --format json "$f" >"${f%.jsonl}.json"
done
python3 - "$work" "$files" <<'PY'
import json, statistics, sys
work, files = sys.argv[1], int(sys.argv[2])
def rows(kind):
    out = []
    for i in range(1, files + 1):
        doc = json.load(open(f"{work}/{kind}-{i}.json"))
        out += [r["figure"] for e in doc["experiments"] for r in e["rows"]]
    return out
def pct(v):
    return "-" if v is None else f"{100 * v:.2f}%"
for kind in ("quiet", "noisy"):
    rs = rows(kind)
    for key in ("cv", "robust", "within_run", "between_run"):
        vals = [r[key] for r in rs if r[key] is not None]
        print(f"{kind:5} {key:11}: median {pct(statistics.median(vals))}, "
              f"range {pct(min(vals))} .. {pct(max(vals))}")
    for key in ("cv", "robust"):
        passed = sum(1 for r in rs if r[key] is not None and r[key] <= 0.05)
        print(f"{kind:5} {key:6} <= 5%: {passed} of {len(rs)} rows pass")
PY
