#!/usr/bin/env bash
# A/A with interleaved arms: N experiments (default 20) of one plugin `.so` given as two builds,
# `rigor ab CONFIG --build a=DIR --build b=DIR`, each arm a private copy of the same file.
# PLUGIN=stream (default: triad, 1 thread, ELEMENTS doubles, 4,194,304) or PLUGIN=null (spin_ns
# 20000, a busy wait on the clock). Each experiment is adaptive to 1% and stopped by DEADLINE
# (default 15s). Counts faster/slower (a false verdict each), same, inconclusive, the intervals
# that contain 1, and the pooled bias (the mean log ratio over the N experiments, with its 95%
# interval). Usage: bench/ab/aa_builds.sh [N]   (PLUGIN=stream|null ELEMENTS=N DEADLINE=15s)
set -euo pipefail
source "$(dirname "$0")/common.sh"
n="${1:-20}"
plugin="${PLUGIN:-stream}"
if [ "$plugin" = null ]; then
  params="{spin_ns: 20000}"
else
  params="{kernels: triad, threads: 1, dtype: double, elements: ${ELEMENTS:-4194304}}"
fi
cat >"$work/aa.yaml" <<YAML
schema: 1
name: aa-$plugin
plugin: $plugin
params: $params
order: {replicates: {min: 4, max: 200, precision: 1%}}
timing: {warmup: 1, cycles: 10, iters: auto, min_window: 5ms}
deadline: ${DEADLINE:-15s}
YAML
machine
echo "A/A: $plugin $params, the same .so as builds a and b, $n experiments, adaptive to 1%, deadline ${DEADLINE:-15s}"
: >"$work/aa.txt"
for i in $(seq 1 "$n"); do
  out="$work/aa-$i.jsonl"
  t0=$(date +%s.%N)
  rc=0
  "$rigor" ab "$work/aa.yaml" --build "a=$plugins" --build "b=$plugins" -o "$out" -q \
    --precision 1% --deadline "${DEADLINE:-15s}" \
    >"$work/aa-$i.txt" 2>&1 || rc=$?
  secs=$(seconds_since "$t0")
  read -r verdict ratio lo hi pairs <<<"$(contrast "$out" build)"
  echo "$verdict $ratio $lo $hi $pairs $secs $rc" >>"$work/aa.txt"
  printf '%2d: %-12s b/a %.4f [%.4f, %.4f] %3d runs %5.1f s exit %d  %s\n' "$i" "$verdict" \
    "$ratio" "$lo" "$hi" "$pairs" "$secs" "$rc" "$(sed -n 1p "$work/aa-$i.txt")"
done
stamp
awk '{ v[$1]++; if ($3 <= 1 && $4 >= 1) c++; l = log($2); s += l; ss += l * l; k++
       t += $6; if ($7 == 4) e4++ }
  END { printf "verdicts:"; for (x in v) printf " %s %d", x, v[x]
        printf "; false faster/slower %d; exit 4: %d\n", v["faster"] + v["slower"], e4
        m = s / k; sd = sqrt((ss - k * m * m) / (k - 1))
        printf "intervals containing 1: %d of %d (%.0f%%)\n", c, k, 100 * c / k
        printf "pooled bias: %+.3f%% [%+.3f%%, %+.3f%%] (sd of the estimates %.2f%%); mean %.1f s each\n",
          100 * (exp(m) - 1), 100 * (exp(m - (1.96 + 2.4 / (k - 1)) * sd / sqrt(k)) - 1),
          100 * (exp(m + (1.96 + 2.4 / (k - 1)) * sd / sqrt(k)) - 1), 100 * sd, t / k }' "$work/aa.txt"
