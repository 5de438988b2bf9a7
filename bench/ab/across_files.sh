#!/usr/bin/env bash
# Across files, with the default allowance for the variation between sessions
# (--session-noise 5%): PAIRS A/A pairs of files (default 20) of triad3.yaml (STREAM triad, 4M
# doubles, pinned to CPU 0, three runs a file, defaults), run back to back and compared in pairs
# (every faster or slower is a false verdict); then TRIES times (default 3) a quiet file against
# one run beside a busy loop on the same core (about 2x slower), which should read `slower`,
# exit 4. Usage: bench/ab/across_files.sh [PAIRS] [TRIES]
set -euo pipefail
source "$(dirname "$0")/common.sh"
pairs="${1:-20}"
tries="${2:-3}"
machine
: >"$work/aa.txt"
for i in $(seq 1 "$pairs"); do
  "$rigor" run "$here/triad3.yaml" -o "$work/base-$i.jsonl" --quiet --force --no-report >/dev/null 2>&1
  "$rigor" run "$here/triad3.yaml" -o "$work/cand-$i.jsonl" --quiet --force --no-report >/dev/null 2>&1
  rc=0
  "$rigor" compare "$work/base-$i.jsonl" "$work/cand-$i.jsonl" --format json >"$work/c-$i.json" || rc=$?
  jq -r --arg rc "$rc" '.rows[0] | "\(.verdict) \(.median_ratio) \(.ci_low) \(.ci_high) \($rc)"' \
    "$work/c-$i.json" >>"$work/aa.txt"
done
"$rigor" compare "$work/base-1.jsonl" "$work/cand-1.jsonl" | head -n 3
stamp
awk '{ v[$1]++; if ($5 == 4) e++; r = $2 > 1 ? $2 : 1 / $2; if (r > m) m = r }
  END { printf "A/A across files, %d pairs:", NR; for (x in v) printf " %s %d", x, v[x]
        printf "; false faster/slower %d; exit 4: %d; largest gap between medians %.1f%%\n",
          v["faster"] + v["slower"], e, 100 * (m - 1) }' "$work/aa.txt"
for i in $(seq 1 "$tries"); do
  "$rigor" run "$here/triad3.yaml" -o "$work/quiet-$i.jsonl" --quiet --force --no-report >/dev/null 2>&1
  busy_start
  "$rigor" run "$here/triad3.yaml" -o "$work/noisy-$i.jsonl" --quiet --force --no-report >/dev/null 2>&1
  busy_stop
  rc=0
  "$rigor" compare "$work/quiet-$i.jsonl" "$work/noisy-$i.jsonl" --format json >"$work/n-$i.json" || rc=$?
  [ "$i" -gt 1 ] || "$rigor" compare "$work/quiet-$i.jsonl" "$work/noisy-$i.jsonl" | head -n 3 || true
  jq -r --arg rc "$rc" --arg i "$i" '.rows[0] |
    "busy loop beside the candidate, try \($i): \(.verdict), median ratio \(.median_ratio), 95% [\(.ci_low), \(.ci_high)], exit \($rc)"' \
    "$work/n-$i.json"
done
stamp
