#!/usr/bin/env bash
# Which gate statistic lets a steady stream triad row through and stops a noisy one: FILES files
# of three runs each, quiet and beside a same-core busy loop; each row's pooled cycle CV (seed
# 000) and robust spread (1.4826 MAD / median), within-run and run-to-run spread, against the
# 5% bound. ELEMENTS (default 4194304) sets the array length, so the window's length against
# the scheduler's time slice can be varied. Usage: bench/ab/gate_default.sh [FILES]
set -euo pipefail
source "$(dirname "$0")/common.sh"
files="${1:-10}"
elements="${ELEMENTS:-4194304}"
machine
echo "stream triad, $elements elements, 1 thread on CPU 0, 3 runs x 15 cycles per file"
sed -e "s/elements: 4194304/elements: $elements/" "$here/triad.yaml" >"$work/triad.yaml"
printf 'schema: 1\nextends: triad.yaml\norder: {replicates: 3}\n' >"$work/triad3.yaml"
for i in $(seq 1 "$files"); do
  "$rigor" run "$work/triad3.yaml" -o "$work/quiet-$i.jsonl" --quiet --force
  busy_start
  "$rigor" run "$work/triad3.yaml" -o "$work/noisy-$i.jsonl" --quiet --force
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
    med = [r["median"] for r in rs if r["median"] is not None]
    print(f"{kind:5} median time: {1e3 * statistics.median(med):.3f} ms")
    for key in ("cv", "robust", "within_run", "between_run"):
        vals = [r[key] for r in rs if r[key] is not None]
        print(f"{kind:5} {key:11}: median {pct(statistics.median(vals))}, "
              f"range {pct(min(vals))} .. {pct(max(vals))}")
    for key in ("cv", "robust"):
        passed = sum(1 for r in rs if r[key] is not None and r[key] <= 0.05)
        print(f"{kind:5} {key:6} <= 5%: {passed} of {len(rs)} rows pass")
PY
