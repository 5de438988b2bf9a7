#!/usr/bin/env bash
# A planted slowdown found by interleaved arms: STREAM triad, 1 thread, ELEMENTS doubles
# (default 4,194,304) in arm a and (1 + PLANT) times as many in arm b, `order: {interleave:
# elements}`, through `rigor ab CONFIG --axis elements`, adaptive to 1% and stopped by DEADLINE
# (default 20s). N experiments (default 20) for each planted size in PLANTS (default "5 2",
# percent). Counts each verdict: `slower` is the right answer, `faster` a wrong one.
# Usage: bench/ab/planted_ab.sh [N]   (PLANTS="5 2" ELEMENTS=N DEADLINE=20s)
set -euo pipefail
source "$(dirname "$0")/common.sh"
n="${1:-20}"
elements="${ELEMENTS:-4194304}"
machine
for plant in ${PLANTS:-5 2}; do
  more=$(awk -v n="$elements" -v p="$plant" 'BEGIN { printf "%d", n * (1 + p / 100) }')
  cat >"$work/planted-$plant.yaml" <<YAML
schema: 1
name: planted-$plant
plugin: stream
params: {kernels: triad, threads: 1, dtype: double}
matrix:
  elements: [{label: a, value: $elements}, {label: b, value: $more}]
order: {interleave: elements, replicates: {min: 4, max: 200, precision: 1%}}
timing: {warmup: 1, cycles: 10, iters: auto, min_window: 5ms}
deadline: ${DEADLINE:-20s}
YAML
  echo "planted +$plant%: triad elements $elements against $more, $n experiments, deadline ${DEADLINE:-20s}"
  : >"$work/p-$plant.txt"
  for i in $(seq 1 "$n"); do
    out="$work/p-$plant-$i.jsonl"
    t0=$(date +%s.%N)
    rc=0
    "$rigor" ab "$work/planted-$plant.yaml" --axis elements -o "$out" -q --precision 1% \
      --deadline "${DEADLINE:-20s}" >"$work/p-$plant-$i.txt" 2>&1 || rc=$?
    secs=$(seconds_since "$t0")
    read -r verdict ratio lo hi pairs <<<"$(contrast "$out" elements)"
    echo "$verdict $ratio $lo $hi $pairs $secs $rc" >>"$work/p-$plant.txt"
    printf '%2d: %-12s b/a %.4f [%.4f, %.4f] %3d runs %5.1f s exit %d\n' "$i" "$verdict" "$ratio" \
      "$lo" "$hi" "$pairs" "$secs" "$rc"
  done
  stamp
  awk -v p="$plant" '{ v[$1]++; if ($3 <= 1 + p / 100 && $4 >= 1 + p / 100) c++; t += $6; k++ }
    END { printf "planted +%s%%:", p; for (x in v) printf " %s %d", x, v[x]
          printf " (of %d); intervals containing 1+%s%%: %d; mean %.1f s each\n", k, p, c, t / k }' \
    "$work/p-$plant.txt"
done
