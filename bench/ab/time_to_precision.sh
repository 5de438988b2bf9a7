#!/usr/bin/env bash
# Time to a precise answer with interleaved arms: an A/A of one `.so` given as two builds
# (`rigor ab CONFIG --build a=DIR --build b=DIR`), adaptive until the interval's half-width is
# the target, TRIES times each (default 10): STREAM triad, 1 thread, 16,777,216 doubles
# (STREAM_ELEMENTS), to +-1% within STREAM_DEADLINE (default 10m); the null plugin's spin
# (spin_ns 100000, a CPU-bound busy wait) to +-0.5% within SPIN_DEADLINE (default 2m). Prints
# each try's seconds, runs and half-width (a try that hit its deadline says so), and the median.
# Usage: bench/ab/time_to_precision.sh [TRIES]   (WHICH="stream spin")
set -euo pipefail
source "$(dirname "$0")/common.sh"
tries="${1:-10}"
machine
for which in ${WHICH:-stream spin}; do
  if [ "$which" = stream ]; then
    plugin=stream precision=1% deadline="${STREAM_DEADLINE:-10m}"
    params="{kernels: triad, threads: 1, dtype: double, elements: ${STREAM_ELEMENTS:-16777216}}"
    timing="{warmup: 1, cycles: 10, iters: 1}"
  else
    plugin=null precision=0.5% deadline="${SPIN_DEADLINE:-2m}"
    params="{spin_ns: 100000}"
    timing="{warmup: 1, cycles: 10, iters: auto, min_window: 5ms}"
  fi
  cat >"$work/$which.yaml" <<YAML
schema: 1
name: precision-$which
plugin: $plugin
params: $params
order: {replicates: {min: 4, max: 1000, precision: $precision}}
timing: $timing
deadline: $deadline
YAML
  echo "$which: $params, A/A builds, to +-$precision, deadline $deadline, $tries tries"
  : >"$work/$which.txt"
  for i in $(seq 1 "$tries"); do
    out="$work/$which-$i.jsonl"
    t0=$(date +%s.%N)
    "$rigor" ab "$work/$which.yaml" --build "a=$plugins" --build "b=$plugins" -o "$out" -q \
      --precision "$precision" --deadline "$deadline" --max-runs 1000 --precise \
      >"$work/$which-$i.txt" 2>&1 || true
    secs=$(seconds_since "$t0")
    reason=$(jq -r 'select(.type == "stop") | .reason' "$out" | tail -n 1)
    read -r verdict ratio lo hi pairs <<<"$(contrast "$out" build)"
    half=$(awk -v l="$lo" -v h="$hi" 'BEGIN { printf "%.2f", 100 * (log(h) - log(l)) / 2 }')
    echo "$secs $pairs $half $reason $verdict" >>"$work/$which.txt"
    printf '  try %2d: %6.1f s, %3d runs, half-width %s%%, stopped by %s, %s\n' "$i" "$secs" \
      "$pairs" "$half" "$reason" "$verdict"
    stamp
  done
  sort -g "$work/$which.txt" | awk -v w="$which" '{ x[NR] = $1; if ($4 == "precision") ok++ }
    END { m = NR % 2 ? x[(NR + 1) / 2] : (x[NR / 2] + x[NR / 2 + 1]) / 2
          printf "%s: median %.0f s (%.0f-%.0f s), %d of %d reached the precision\n", w, m, x[1], x[NR], ok, NR }'
done
