#!/usr/bin/env bash
# Interleaved arms against the design across processes, at equal machine time: STREAM triad,
# 1 thread, ELEMENTS doubles (default 16,777,216) against 1.05x as many, as two levels of
# `elements`. The same experiment runs in both designs, each stopped by the same deadline
# (SECONDS_EACH, default 60) with a precision it cannot reach, in the order across, interleaved,
# interleaved, across (ABBA, so a drift of the machine falls on both). Prints every
# experiment's runs, ratio and interval, and the ratio of the mean half-widths.
# Usage: bench/ab/interleave_vs_across.sh   (ELEMENTS=N SECONDS_EACH=S ROUNDS=R)
set -euo pipefail
source "$(dirname "$0")/common.sh"
elements="${ELEMENTS:-16777216}"
more=$(awk -v n="$elements" 'BEGIN { printf "%d", n * 1.05 }')
secs="${SECONDS_EACH:-60}"
rounds="${ROUNDS:-1}"
machine
for design in across interleaved; do
  if [ "$design" = across ]; then
    order="{design: williams, replicates: {min: 3, max: 1000, precision: 0.01%}}"
  else
    order="{interleave: elements, replicates: {min: 3, max: 1000, precision: 0.01%}}"
  fi
  cat >"$work/$design.yaml" <<YAML
schema: 1
name: triad-$design
plugin: stream
params: {kernels: triad, threads: 1, dtype: double}
matrix:
  elements: [{label: a, value: $elements}, {label: b, value: $more}]
order: $order
timing: {warmup: 1, cycles: 10, iters: 1}
deadline: ${secs}s
YAML
done
echo "stream triad, 1 thread, elements $elements against $more; ${secs} s each design, ABBA x $rounds"
: >"$work/widths.txt"
for r in $(seq 1 "$rounds"); do
  for design in across interleaved interleaved across; do
    out="$work/$design-$r-$RANDOM.jsonl"
    t0=$(date +%s.%N)
    "$rigor" run "$work/$design.yaml" -o "$out" --force --quiet --no-report >/dev/null 2>&1 || true
    secs_taken=$(seconds_since "$t0")
    runs=$(jq -s '[.[] | select(.type == "run" and .status == "ok")] | length' "$out")
    read -r verdict ratio lo hi pairs <<<"$(contrast "$out" elements)"
    half=$(awk -v l="$lo" -v h="$hi" 'BEGIN { printf "%.2f", 100 * (log(h) - log(l)) / 2 }')
    echo "$design $half" >>"$work/widths.txt"
    printf '%-11s %5.1f s, %3d ok runs, %3d pairs: b/a %.4f [%.4f, %.4f] half-width %s%% %s\n' \
      "$design" "$secs_taken" "$runs" "$pairs" "$ratio" "$lo" "$hi" "$half" "$verdict"
    stamp
  done
done
awk '{ s[$1] += $2; n[$1]++ }
  END { a = s["across"] / n["across"]; i = s["interleaved"] / n["interleaved"]
        printf "mean half-width: across processes %.2f%%, interleaved %.2f%%: %.1fx narrower;" \
               " %.0fx less machine time for the same width\n", a, i, a / i, (a / i) ^ 2 }' "$work/widths.txt"
