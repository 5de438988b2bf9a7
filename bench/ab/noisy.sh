#!/usr/bin/env bash
# The same stream experiment (three runs a side), once quiet and once beside a busy loop on its
# own core, TRIES times: compare should call it slower, marked imprecise when a side is over its
# CV gate, and exit 4. Usage: bench/ab/noisy.sh [TRIES]
set -euo pipefail
source "$(dirname "$0")/common.sh"
tries="${1:-1}"
machine
for i in $(seq 1 "$tries"); do
  "$rigor" run "$here/triad3.yaml" -o "$work/quiet-$i.jsonl" --quiet --force
  busy_start
  "$rigor" run "$here/triad3.yaml" -o "$work/noisy-$i.jsonl" --quiet --force
  busy_stop
  rc=0
  "$rigor" compare "$work/quiet-$i.jsonl" "$work/noisy-$i.jsonl" --format json >"$work/c-$i.json" || rc=$?
  [ "$i" -gt 1 ] || "$rigor" compare "$work/quiet-$i.jsonl" "$work/noisy-$i.jsonl" || true
  python3 - "$work/c-$i.json" "$i" "$rc" <<'PY'
import json, sys
row = json.load(open(sys.argv[1]))["rows"][0]
print(f"try {sys.argv[2]}: {row['verdict']}{' (imprecise)' if row['imprecise'] else ''}, "
      f"95% CI [{100 * (row['ci_low'] - 1):+.1f}%, {100 * (row['ci_high'] - 1):+.1f}%], "
      f"CV {100 * row['base_cv']:.1f}% / {100 * row['cand_cv']:.1f}%, exit {sys.argv[3]}")
PY
done
