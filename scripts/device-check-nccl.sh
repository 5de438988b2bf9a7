#!/usr/bin/env bash
# Device check for the nccl plugin, on a machine with one or more NVIDIA GPUs.
#
#   scripts/device-check-nccl.sh [--dry-run] [NCCL_TESTS_BUILD_DIR]
#
# Builds rigor (or takes RIGOR) and writes one file of tables (TABLES, default OUT_DIR/tables.md):
#   1. parity: per collective, rigor and the matching nccl-tests *_perf binary (from
#      NCCL_TESTS_BUILD_DIR, else found on PATH, else rigor alone) with the same semantics,
#      interleaved ABBA, over MIN..MAX doubling (so both warm every power of two the same way);
#      one row per REPORT_SIZES size and placement: median time on each side, their ratio with a
#      95% bootstrap interval, rigor's #wrong and nccl-tests' #wrong;
#   2. the cost of one check on the device against one on the host (check_on), all_reduce at
#      COST_BYTES, from the plugin's check_s metric;
#   3. the warmup and iterations matrices of the nccl-tests methodology study's chapter 9 (configs/nccl/ch09.yaml, with
#      gpus_per_process GPUS), as rigor report prints them.
# The defaults (nine collectives, 1 MiB to 1 GiB, REPEATS 2, one GPU) are sized for about five
# minutes of device time (an estimate); each stage's seconds go into the file.
#
# --dry-run writes the experiment files and prints every command instead of running it.
#
# Environment:
#   RIGOR         a built rigor binary (default: build one in BUILD_DIR)
#   BUILD_DIR     where to build rigor (default build-device-check)
#   CUDA_ARCHS    CMAKE_CUDA_ARCHITECTURES of that build (default native)
#   COLLECTIVES   default: all nine (all_reduce all_gather reduce_scatter broadcast reduce
#                 alltoall sendrecv gather scatter)
#   MIN MAX       the parity sweep, as nccl-tests -b -e with -f 2 (default 1M 1G)
#   REPORT_SIZES  the sizes the parity table shows (default "1M 64M 1G")
#   COST_BYTES    the size of the check-cost comparison (default 128M)
#   GPUS          GPUs driven by the process, as nccl-tests -g (default 1)
#   REPEATS       rounds of the ABBA interleave (default 2)
#   PIN_CPU       run both tools on this CPU (rigor's affinity, taskset for nccl-tests)
#   STAGES        which stages run (default "parity cost ch09")
#   OUT_DIR       keep the raw files there (default: a new temporary folder)
#   TABLES        the tables file (default OUT_DIR/tables.md)
set -euo pipefail

dry_run=0
if [ "${1:-}" = "--dry-run" ]; then
  dry_run=1
  shift
fi
root=$(cd "$(dirname "$0")/.." && pwd)
nccl_tests=${1:-}
if [ -z "$nccl_tests" ] && command -v all_reduce_perf >/dev/null; then
  nccl_tests=$(dirname "$(command -v all_reduce_perf)")
fi
collectives=${COLLECTIVES:-all_reduce all_gather reduce_scatter broadcast reduce alltoall sendrecv gather scatter}
min=${MIN:-1M} max=${MAX:-1G} gpus=${GPUS:-1} repeats=${REPEATS:-2}
report_sizes=${REPORT_SIZES:-1M 64M 1G} cost_bytes=${COST_BYTES:-128M}
stages=${STAGES:-parity cost ch09}
pin=${PIN_CPU:-}
out=${OUT_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/rigor-nccl-check.XXXXXX")}
mkdir -p "$out"
tables=${TABLES:-$out/tables.md}

# Runs a command with its output in a log, or prints it under --dry-run. Returns its status.
run_logged() {
  local log=$1
  shift
  if [ "$dry_run" = 1 ]; then
    printf '%q ' "$@"
    printf '> %q\n' "$log"
    return 0
  fi
  "$@" >"$log" 2>&1
}

rigor=${RIGOR:-}
if [ -z "$rigor" ]; then
  build=${BUILD_DIR:-$root/build-device-check}
  run_logged "$out/cmake.log" cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release \
    -DRIGOR_BUILD_TESTS=OFF -DCMAKE_CUDA_ARCHITECTURES="${CUDA_ARCHS:-native}"
  run_logged "$out/build.log" cmake --build "$build" -j"$(nproc)" --target rigor nccl
  rigor="$build/bin/rigor"
fi

to_bytes() { # 1K, 1M, 1G or plain bytes, as nccl-tests reads them
  case $1 in
    *K) echo $((${1%K} * 1024)) ;;
    *M) echo $((${1%M} * 1024 * 1024)) ;;
    *G) echo $((${1%G} * 1024 * 1024 * 1024)) ;;
    *) echo "$1" ;;
  esac
}
sizes=() s=$(to_bytes "$min") e=$(to_bytes "$max")
while [ "$s" -le "$e" ]; do sizes+=("$s"); s=$((s * 2)); done
size_list=$(IFS=,; echo "${sizes[*]}")
report_list=""
for size in $report_sizes; do report_list="$report_list $(to_bytes "$size")"; done
affinity=""
[ -z "$pin" ] || affinity="environment: {affinity: {cpus: [$pin]}}"

# nccl-tests: 5 warmup over every doubling of -b to -e, 20 iterations of 1 op, non-blocking,
# 10 cycles, one check, critical rank, wall time. The rigor experiment has the same semantics.
nt_flags=(-b "$min" -e "$max" -f 2 -g "$gpus" -w 5 -n 20 -m 1 -z 0 -N 10 -c 1
  -d float -o sum -a 3 -C 0)

write_parity_config() {
  cat >"$out/parity-$1.yaml" <<EOF
schema: 1
name: parity-$1
plugin: nccl
params: {collective: $1, dtype: float, op: sum, gpus_per_process: $gpus}
sweep: {bytes: [$size_list], placement: [out, in]}
timing: {warmup: 5, warmup_sizes: powers_of_two, cycles: 10, iters: 20, agg: 1, blocking: batch,
         per_iteration: false, aggregate: max, check: 1, report: wall, timeout: 600s}
$affinity
output: parity-$1.jsonl
EOF
}
write_cost_config() {
  cat >"$out/cost.yaml" <<EOF
schema: 1
name: check-cost
plugin: nccl
params: {collective: all_reduce, dtype: float, op: sum, gpus_per_process: $gpus, bytes: $cost_bytes}
sweep: {check_on: [device, host]}
timing: {warmup: 5, cycles: 5, iters: 20, agg: 1, blocking: batch, check: 1, timeout: 600s}
$affinity
output: cost.jsonl
EOF
}
write_ch09_config() {
  cat >"$out/ch09.yaml" <<EOF
extends: $root/configs/nccl/ch09.yaml
defaults:
  params: {gpus_per_process: $gpus}
output: ch09.jsonl
EOF
}
run_rigor() { # config results [rigor run options...]
  local cfg=$1 results=$2
  shift 2
  run_logged "${results%.jsonl}.txt" "$rigor" run "$cfg" -o "$results" --force --quiet "$@"
}
run_nccl_tests() { # collective round
  local pinned=()
  [ -z "$pin" ] || pinned=(taskset -c "$pin")
  run_logged "$out/nccl-tests-$1-$2.txt" "${pinned[@]}" "$nccl_tests/$1_perf" "${nt_flags[@]}"
}

failed=0
stage_times=()
started=$SECONDS
if [ "$dry_run" = 0 ] && command -v nvidia-smi >/dev/null; then
  nvidia-smi -L >"$out/gpus.txt" 2>&1 || true
fi

for stage in $stages; do
  t0=$SECONDS
  case $stage in
    parity)
      for coll in $collectives; do
        write_parity_config "$coll"
        for rep in $(seq 1 "$repeats"); do
          if [ -n "$nccl_tests" ] && [ $((rep % 2)) -eq 0 ]; then
            run_nccl_tests "$coll" "$rep" || failed=1
            run_rigor "$out/parity-$coll.yaml" "$out/rigor-$coll-$rep.jsonl" || failed=1
          else
            run_rigor "$out/parity-$coll.yaml" "$out/rigor-$coll-$rep.jsonl" || failed=1
            [ -z "$nccl_tests" ] || run_nccl_tests "$coll" "$rep" || failed=1
          fi
        done
      done
      ;;
    cost)
      write_cost_config
      run_rigor "$out/cost.yaml" "$out/cost.jsonl" || failed=1
      ;;
    ch09)
      write_ch09_config
      for experiment in warmup iterations; do
        run_rigor "$out/ch09.yaml" "$out/ch09-$experiment.jsonl" --only "$experiment" \
          --allow-external-extends || failed=1
        run_logged "$out/ch09-$experiment.md" "$rigor" report "$out/ch09-$experiment.jsonl" \
          --format md || failed=1
      done
      ;;
    *)
      echo "device-check-nccl: unknown stage '$stage' (parity, cost, ch09)" >&2
      exit 2
      ;;
  esac
  stage_times+=("$stage=$((SECONDS - t0))")
done

if [ "$dry_run" = 1 ]; then
  echo "dry run: experiment files in $out, nothing ran"
  exit 0
fi

python3 - "$out" "$tables" "$collectives" "$report_list" "$stages" "${stage_times[*]}" \
  "$((SECONDS - started))" <<'PY'
import glob, json, os, random, statistics, sys
out, tables, collectives, report, stages, stage_times, total = sys.argv[1:8]
collectives, stages = collectives.split(), stages.split()
report = {int(b) for b in report.split()}
w = open(tables, "w")

def records(path):
    for line in open(path):
        try:
            yield json.loads(line)
        except ValueError:
            continue  # a cut last line

def interval(a, b, reps=2000):
    if len(a) < 2 or len(b) < 2:
        return float("nan"), float("nan")
    rng = random.Random(7)
    ratios = sorted(statistics.median(rng.choices(a, k=len(a))) /
                    statistics.median(rng.choices(b, k=len(b))) for _ in range(reps))
    return ratios[int(0.025 * reps)], ratios[int(0.975 * reps) - 1]

w.write("# nccl device check\n\n")
if os.path.exists(os.path.join(out, "gpus.txt")):
    w.write("```\n%s```\n\n" % open(os.path.join(out, "gpus.txt")).read())
w.write("Device time per stage (s): %s; total %s s.\n" % (stage_times, total))

if "parity" in stages:
    w.write("\n## Parity with nccl-tests (median time per operation)\n\n")
    w.write("| collective | bytes | placement | rigor n | rigor us | nccl-tests n | nccl-tests us "
            "| ratio | 95% interval | rigor #wrong | nccl-tests #wrong |\n")
    w.write("|---|---|---|---|---|---|---|---|---|---|---|\n")
    run_lines = []
    for coll in collectives:
        rigor, rigor_wrong, nt, nt_wrong, runs = {}, {}, {}, {}, {}
        for path in sorted(glob.glob("%s/rigor-%s-*.jsonl" % (out, coll))):
            for rec in records(path):
                if rec.get("type") == "run":
                    key = rec.get("status")
                    runs[key] = runs.get(key, 0) + 1
                if rec.get("type") != "sample":
                    continue
                key = (rec["bytes"], (rec.get("point_params") or {}).get("placement", "out"))
                check = rec.get("check") or {}
                rigor_wrong[key] = rigor_wrong.get(key, 0) + int(check.get("wrong") or 0)
                if rec.get("status") == "ok":
                    rigor.setdefault(key, []).append(rec["time_s"] * 1e6)
        for path in sorted(glob.glob("%s/nccl-tests-%s-*.txt" % (out, coll))):
            for line in open(path):
                f = line.split()
                if len(f) >= 13 and f[0].isdigit() and f[2] == "float":
                    for placement, col in (("out", 5), ("in", 9)):
                        key = (int(f[0]), placement)
                        nt.setdefault(key, []).append(float(f[col]))
                        if f[col + 3] != "N/A":
                            nt_wrong[key] = nt_wrong.get(key, 0) + int(float(f[col + 3]))
        keys = {k for k in set(rigor) | set(nt) | set(rigor_wrong) if k[0] in report}
        for key in sorted(keys, key=lambda k: (k[0], k[1] != "out")):
            r, t = rigor.get(key, []), nt.get(key, [])
            rm = statistics.median(r) if r else float("nan")
            tm = statistics.median(t) if t else float("nan")
            ratio = rm / tm if r and t and tm > 0 else float("nan")
            lo, hi = interval(r, t)
            w.write("| %s | %d | %s | %d | %.3f | %d | %.3f | %.4f | %.3f - %.3f | %d | %s |\n" % (
                coll, key[0], key[1], len(r), rm, len(t), tm, ratio, lo, hi,
                rigor_wrong.get(key, 0), nt_wrong.get(key, "-") if t else "-"))
        run_lines.append("- %s: rigor runs %s\n" % (coll, ", ".join(
            "%d %s" % (n, s) for s, n in sorted(runs.items(), key=str)) or "none"))
    w.write("\n" + "".join(run_lines))

if "cost" in stages:
    w.write("\n## Cost of one check (check_s), all_reduce float\n\n")
    w.write("| check_on | bytes | samples | median check_s | min check_s | #wrong | detail |\n")
    w.write("|---|---|---|---|---|---|---|\n")
    cost, wrong, detail, size = {}, {}, {}, {}
    path = os.path.join(out, "cost.jsonl")
    for rec in records(path) if os.path.exists(path) else []:
        if rec.get("type") != "sample":
            continue
        where = (rec.get("point_params") or {}).get("check_on", "?")
        value = (rec.get("metrics") or {}).get("check_s")
        if value is not None:
            cost.setdefault(where, []).append(value)
        check = rec.get("check") or {}
        wrong[where] = wrong.get(where, 0) + int(check.get("wrong") or 0)
        detail[where] = check.get("detail") or ""
        size[where] = rec.get("bytes")
    for where in sorted(cost):
        v = cost[where]
        w.write("| %s | %s | %d | %.6f s | %.6f s | %d | %s |\n" % (
            where, size[where], len(v), statistics.median(v), min(v), wrong[where], detail[where]))
    if cost.get("device") and cost.get("host"):
        w.write("\nhost / device: %.1fx\n" % (
            statistics.median(cost["host"]) / statistics.median(cost["device"])))

if "ch09" in stages:
    for experiment in ("warmup", "iterations"):
        path = os.path.join(out, "ch09-%s.md" % experiment)
        w.write("\n## The nccl-tests methodology study, chapter 9: %s matrix (rigor report)\n\n" % experiment)
        w.write(open(path).read() if os.path.exists(path) else "(no report)\n")
w.close()
PY
echo "tables: $tables"
echo "raw files: $out"
exit "$failed"
