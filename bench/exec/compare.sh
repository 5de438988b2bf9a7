#!/usr/bin/env bash
# rigor's exec plugin side by side with hyperfine (Debian's `hyperfine`), same commands, on the
# same CPU, the two tools alternating round by round:
#   1. the median time per execution of a 10 ms and a 100 ms command, one that sleeps (its time
#      does not depend on the machine's load) and one of fixed work;
#   2. the per-execution overhead: an empty program through each tool's exec path;
#   3. an A/B of two commands (B does 10% more work) under a planted drift: a background load on
#      the same CPU that ramps from 0 to RAMP_MAX of each 10 ms slice while a tool runs. hyperfine
#      runs A's executions, then B's, so B meets the heavier load; rigor interleaves A and B in a
#      mirrored order, and its contrast is the paired per-block ratio of run medians, computed
#      here from the results file.
# The machine may be shared: both tools (and the commands they start) run under SCHED_FIFO
# priority 10 where chrt allows it, so other users' processes cannot preempt a measurement, and
# the planted load runs at priority 20 and preempts the commands for its share of each slice.
# Prints the figures and leaves every raw file in the work folder it names.
#
# usage: bench/exec/compare.sh [BUILD_DIR] [ROUNDS]    (defaults: build, 10)
# needs: hyperfine and jq (scripts/install-deps.sh --bench), a C compiler, taskset
# env:   CPU (default: the last CPU), RAMP_MAX (default 0.6), RAMP_REPEATS (default 3)
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
rounds=${2:-10}
rigor=$build/bin/rigor
cpu=${CPU:-$(($(nproc) - 1))}
ramp_max=${RAMP_MAX:-0.6}
ramp_repeats=${RAMP_REPEATS:-3}
for tool in hyperfine jq cc taskset; do
  command -v "$tool" >/dev/null || { echo "compare.sh: needs $tool" >&2; exit 2; }
done
[ -x "$rigor" ] || { echo "compare.sh: $rigor is not built" >&2; exit 2; }

rt=() ramp_rt=()
if chrt -f 10 true 2>/dev/null; then
  rt=(chrt -f 10) ramp_rt=(chrt -f 20)
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/rigor-bench-exec-XXXXXX")
cc -O2 -o "$work/spin" "$root/bench/exec/spin.c"
cc -O2 -D_GNU_SOURCE -o "$work/ramp" "$root/bench/exec/ramp.c"
spin=$work/spin
cd "$work"

echo "CPU: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) CPUs; commands pinned to CPU $cpu"
echo "tools: $(hyperfine --version), $("$rigor" --version | head -1)"
echo "work folder: $work"
echo "scheduling: ${rt[*]:-the default (chrt -f refused: expect noise from other processes)}"

# rigor_config NAME OUT CYCLES REPLICATES DESIGN MATRIX_YAML COMMAND...
rigor_config() {
  local name=$1 out=$2 cycles=$3 replicates=$4 design=$5 matrix=$6
  shift 6
  local argv
  argv=$(printf '"%s", ' "$@")
  cat >"$name.yaml" <<EOF
schema: 1
name: $name
plugin: exec
params:
  command: [${argv%, }]
  vars: {work: "0"}
$matrix
timing: {warmup: 1, cycles: $cycles, iters: 1}
environment: {affinity: {cpus: [$cpu]}}
order: {design: $design, replicates: $replicates}
gate: {cv_max: 50%}
output: $out
EOF
  echo "$name.yaml"
}

run_rigor() { "${rt[@]}" "$rigor" run "$1" --allow-commands --force --quiet >/dev/null; }
run_hf() { # run_hf OUT_JSON RUNS WARMUP COMMAND...
  local out=$1 runs=$2 warmup=$3
  shift 3
  "${rt[@]}" taskset -c "$cpu" hyperfine -N --style none --runs "$runs" --warmup "$warmup" \
    --export-json "$out" "$@" >/dev/null 2>&1
}
median_rigor() { # the median time_s of the ok samples (of one variant label, if given)
  jq -s --arg want "${2:-}" '
    (map(select(.type == "run")) | map({key: (.run | tostring), value: .label}) | from_entries)
      as $labels
    | [.[] | select(.type == "sample" and .status == "ok")
       | select($want == "" or $labels[.run | tostring] == $want) | .time_s]
    | sort | .[length / 2 | floor]' "$1"
}
median_hf() { jq ".results[${2:-0}].median" "$1"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.4f", a / b }'; }
ms() { awk -v s="$1" 'BEGIN { printf "%.3f ms", s * 1e3 }'; }
median_of() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

n10=$("${rt[@]}" taskset -c "$cpu" "$spin" --calibrate 10)
n100=$("${rt[@]}" taskset -c "$cpu" "$spin" --calibrate 100)
n20=$("${rt[@]}" taskset -c "$cpu" "$spin" --calibrate 20)
n22=$(awk -v n="$n20" 'BEGIN { printf "%d", n * 1.1 }')

echo
echo "== 1. median time per execution ($rounds rounds of 10 executions per tool, alternating"
echo "      ABBA; medians over all executions of each tool)"
pooled_hf() { jq -s '[.[] | .results[0].times[]] | sort | .[length / 2 | floor]' "$@"; }
pooled_rigor() {
  cat "$@" | jq -s '[.[] | select(.type == "sample" and .status == "ok") | .time_s]
                    | sort | .[length / 2 | floor]'
}
for kind in sleep work; do
  for len in 10 100; do
    if [ "$kind" = sleep ]; then
      args=(--sleep "$len")
    else
      args=("$([ "$len" = 10 ] && echo "$n10" || echo "$n100")")
    fi
    tag=$kind$len
    cfg=$(rigor_config "$tag" "$tag.jsonl" 10 1 sequential "" "$spin" "${args[@]}")
    hfs=() rgs=()
    for r in $(seq 1 "$rounds"); do
      if [ $((r % 2)) = 1 ]; then
        run_hf "hf-$tag-$r.json" 10 2 "$spin ${args[*]}"
        run_rigor "$cfg"
      else
        run_rigor "$cfg"
        run_hf "hf-$tag-$r.json" 10 2 "$spin ${args[*]}"
      fi
      mv "$tag.jsonl" "$tag-$r.jsonl"
      hfs+=("hf-$tag-$r.json") rgs+=("$tag-$r.jsonl")
    done
    h=$(pooled_hf "${hfs[@]}")
    g=$(pooled_rigor "${rgs[@]}")
    echo "  $len ms ($kind): hyperfine $(ms "$h"), rigor $(ms "$g"), rigor/hyperfine $(ratio "$g" "$h")"
  done
done

echo
echo "== 2. per-execution overhead (an empty program; $rounds rounds of 100 executions per tool,"
echo "      alternating ABBA; medians over all executions of each tool)"
cfg=$(rigor_config empty empty.jsonl 50 2 sequential "" "$spin" --empty)
hfs=() rgs=()
for r in $(seq 1 "$rounds"); do
  if [ $((r % 2)) = 1 ]; then
    run_hf "hf-empty-$r.json" 100 10 "$spin --empty"
    run_rigor "$cfg"
  else
    run_rigor "$cfg"
    run_hf "hf-empty-$r.json" 100 10 "$spin --empty"
  fi
  mv empty.jsonl "empty-$r.jsonl"
  hfs+=("hf-empty-$r.json") rgs+=("empty-$r.jsonl")
done
h=$(pooled_hf "${hfs[@]}")
g=$(pooled_rigor "${rgs[@]}")
spawn=$(cat "${rgs[@]}" | jq -s '[.[] | select(.type == "sample") | .metrics.spawn_s]
                                 | sort | .[length / 2 | floor]')
echo "  empty program: hyperfine $(ms "$h"), rigor $(ms "$g"), rigor/hyperfine $(ratio "$g" "$h")"
echo "  rigor's own spawn_s (true through the same path, once per run): $(ms "$spawn")"

echo
echo "== 3. A/B under a planted drift (B does 10% more work than A; ramp to ${ramp_max} of CPU $cpu)"
matrix='matrix:
  vars.work:
    - {label: A, value: "'$n20'"}
    - {label: B, value: "'$n22'"}'
cfg=$(rigor_config ab ab.jsonl 5 30 mirrored "$matrix" "$spin" "{work}")
# rigor's contrast: per block, the median of B's run over the median of A's run; the geometric
# mean of those paired ratios, with a 95% interval from their spread (normal approximation).
contrast() {
  jq -s '
    (map(select(.type == "run")) | map({key: (.run | tostring), value: {label: .label, block: .block}})
      | from_entries) as $runs
    | [.[] | select(.type == "sample" and .status == "ok")
       | {run: (.run | tostring), t: .time_s}]
    | group_by(.run)
    | map({block: $runs[.[0].run].block, label: $runs[.[0].run].label,
           med: (map(.t) | sort | .[length / 2 | floor])})
    | group_by(.block)
    | map(select(length == 2) | (map(select(.label == "work=B"))[0].med)
                              / (map(select(.label == "work=A"))[0].med) | log)
    | length as $n | (add / $n) as $m
    | ((map(. - $m | . * .) | add) / ($n - 1) | sqrt) as $sd
    | ($m | exp * 10000 | round / 10000 | tostring) + " (95% CI "
      + (($m - 1.96 * $sd / ($n | sqrt)) | exp * 1000 | round / 1000 | tostring) + "-"
      + (($m + 1.96 * $sd / ($n | sqrt)) | exp * 1000 | round / 1000 | tostring) + ", "
      + ($n | tostring) + " blocks)"' -r "$1"
}
hf_ratio() { awk -v a="$(median_hf "$1" 1)" -v b="$(median_hf "$1" 0)" 'BEGIN { printf "%.4f", a / b }'; }

t0=$(date +%s.%N)
run_hf hf-ab-quiet.json 60 2 "$spin $n20" "$spin $n22"
t_hf=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { print b - a }')
t0=$(date +%s.%N)
run_rigor "$cfg"
t_rigor=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { print b - a }')
cp ab.jsonl ab-quiet.jsonl
echo "  no load: hyperfine B/A $(hf_ratio hf-ab-quiet.json), rigor B/A $(contrast ab-quiet.jsonl) (expected: 1.10 of the work, about 1.095 with the spawn)"
# The ramp spans the tool's unloaded duration times 1.4 (the load slows it down) and is stopped
# when the tool is done, so each tool meets the same rising load over its own run.
with_ramp() { # with_ramp SECONDS COMMAND...
  local seconds
  seconds=$(awk -v s="$1" 'BEGIN { print s * 1.4 }')
  shift
  "${ramp_rt[@]}" "$work/ramp" "$seconds" "$ramp_max" "$cpu" &
  local ramp=$!
  "$@"
  kill "$ramp" 2>/dev/null || true
  wait "$ramp" 2>/dev/null || true
}
for r in $(seq 1 "$ramp_repeats"); do
  with_ramp "$t_hf" run_hf "hf-ab-ramp-$r.json" 60 2 "$spin $n20" "$spin $n22"
  with_ramp "$t_rigor" run_rigor "$cfg"
  cp ab.jsonl "ab-ramp-$r.jsonl"
  echo "  ramp $r: hyperfine B/A $(hf_ratio "hf-ab-ramp-$r.json"), rigor B/A $(contrast "ab-ramp-$r.jsonl")"
done
