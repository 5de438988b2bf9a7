#!/usr/bin/env bash
# Runs bench/stream/pinning.yaml and prints, per thread count and kernel, the cycle CV and the
# median with the team pinned (spread) and unpinned (none), side by side.
# Usage: bench/stream/pinning.sh [BUILD_DIR] [RESULTS]
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
build="${1:-$root/build}"
out="${2:-$(mktemp -d)/pinning.jsonl}"
"$build/bin/rigor" run "$root/bench/stream/pinning.yaml" -o "$out" --force --quiet --no-report
"$build/bin/rigor" report "$out" --format json >"$out.report.json"
python3 - "$out.report.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
rows = {}
for exp in doc["experiments"]:
    axes = {v["index"]: v.get("axes") or {} for v in exp["variants"]}
    for r in exp["rows"]:
        a = axes.get(r["variant"], {})
        rows.setdefault((str(a.get("threads")), r["point"], r.get("point_label")), {})[
            str(a.get("proc_bind"))] = r
print(f"{'threads':8} {'kernel':14} {'CV none':>9} {'CV spread':>10} {'median none':>12} "
      f"{'median spread':>14}")
for (t, _, k), v in sorted(rows.items()):
    n, s = v.get("none"), v.get("spread")
    if not n or not s:
        continue
    cv = lambda r: r["time_s"]["cv"] * 100
    med = lambda r: r["time_s"]["median"] * 1e3
    print(f"{t:8} {k:14} {cv(n):8.2f}% {cv(s):9.2f}% {med(n):9.3f} ms {med(s):11.3f} ms")
PY
