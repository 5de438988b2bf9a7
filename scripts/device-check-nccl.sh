#!/usr/bin/env bash
# Device check for the nccl plugin, on a machine with one or more NVIDIA GPUs.
#
#   scripts/device-check-nccl.sh [NCCL_TESTS_BUILD_DIR]
#
# Builds rigor, then for each collective runs rigor and (given an nccl-tests build, the folder
# holding all_reduce_perf and friends) the matching *_perf binary with the same semantics, the
# two interleaved ABBA, and prints one table per collective with the median time per size and
# placement on each side, their ratio and both correctness counts. The defaults are
# configs/nccl/quick.yaml's: all_reduce at 1 MiB and 64 MiB.
#
# Environment:
#   RIGOR        a built rigor binary to use (default: build one in BUILD_DIR)
#   BUILD_DIR    where to build rigor (default build-device-check)
#   COLLECTIVES  default "all_reduce"; all seven nccl-tests ones: all_reduce all_gather
#                reduce_scatter broadcast reduce alltoall sendrecv
#   MIN MAX FACTOR  the size sweep as nccl-tests -b -e -f (default 1M 64M 64)
#   GPUS         GPUs driven by the process, as nccl-tests -g (default 1)
#   REPEATS      rounds of the ABBA interleave (default 2)
#   PIN_CPU      run both on this CPU (rigor's affinity, taskset for nccl-tests); default unpinned
#   OUT_DIR      keep the raw files there (default: a new temporary folder)
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
nccl_tests=${1:-}
collectives=${COLLECTIVES:-all_reduce}
min=${MIN:-1M} max=${MAX:-64M} factor=${FACTOR:-64} gpus=${GPUS:-1} repeats=${REPEATS:-2}
pin=${PIN_CPU:-}
out=${OUT_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/rigor-nccl-check.XXXXXX")}
mkdir -p "$out"

rigor=${RIGOR:-}
if [ -z "$rigor" ]; then
  build=${BUILD_DIR:-$root/build-device-check}
  cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DRIGOR_BUILD_TESTS=OFF >"$out/cmake.log"
  cmake --build "$build" -j"$(nproc)" --target rigor nccl >"$out/build.log"
  rigor="$build/bin/rigor"
fi
command -v nvidia-smi >/dev/null && nvidia-smi -L

to_bytes() { # 1K, 1M, 1G or plain bytes, as nccl-tests reads them
  case $1 in
    *K) echo $((${1%K} * 1024)) ;;
    *M) echo $((${1%M} * 1024 * 1024)) ;;
    *G) echo $((${1%G} * 1024 * 1024 * 1024)) ;;
    *) echo "$1" ;;
  esac
}
sizes=() s=$(to_bytes "$min") e=$(to_bytes "$max")
while [ "$s" -le "$e" ]; do sizes+=("$s"); s=$((s * factor)); done
size_list=$(IFS=,; echo "${sizes[*]}")

# nccl-tests: 5 warmup, 20 iterations, 1 op each, non-blocking, 10 cycles, one check,
# critical rank, wall time. The rigor experiment below has the same semantics.
nt_flags=(-b "$min" -e "$max" -f "$factor" -g "$gpus" -w 5 -n 20 -m 1 -z 0 -N 10 -c 1
  -d float -o sum -a 3 -C 0)

write_config() {
  cat >"$out/$1.yaml" <<EOF
schema: 1
name: device-check-$1
plugin: nccl
params: {collective: $1, dtype: float, op: sum, gpus_per_process: $gpus}
sweep: {bytes: [$size_list], placement: [out, in]}
timing: {warmup: 5, cycles: 10, iters: 20, agg: 1, blocking: batch, per_iteration: false,
         aggregate: max, check: 1, report: wall, timeout: 600s}
output: $1.jsonl
EOF
  [ -z "$pin" ] || echo "environment: {affinity: {cpus: [$pin]}}" >>"$out/$1.yaml"
}
run_rigor() {
  "$rigor" run "$out/$1.yaml" -o "$out/rigor-$1-$2.jsonl" --force --quiet >"$out/rigor-$1-$2.txt" 2>&1 ||
    { cat "$out/rigor-$1-$2.txt"; return 1; }
}
run_nccl_tests() {
  local pinned=()
  [ -z "$pin" ] || pinned=(taskset -c "$pin")
  "${pinned[@]}" "$nccl_tests/$1_perf" "${nt_flags[@]}" >"$out/nccl-tests-$1-$2.txt" 2>&1 ||
    { cat "$out/nccl-tests-$1-$2.txt"; return 1; }
}

failed=0
for coll in $collectives; do
  write_config "$coll"
  for rep in $(seq 1 "$repeats"); do
    if [ -n "$nccl_tests" ] && [ $((rep % 2)) -eq 0 ]; then
      run_nccl_tests "$coll" "$rep" || failed=1
      run_rigor "$coll" "$rep" || failed=1
    else
      run_rigor "$coll" "$rep" || failed=1
      [ -z "$nccl_tests" ] || run_nccl_tests "$coll" "$rep" || failed=1
    fi
  done
done

python3 - "$out" "$collectives" <<'PY'
import glob, json, statistics, sys
out, collectives = sys.argv[1], sys.argv[2].split()
worst = 0.0
for coll in collectives:
    rigor, rigor_bad, nt, nt_wrong, runs = {}, {}, {}, {}, {}
    for path in glob.glob("%s/rigor-%s-*.jsonl" % (out, coll)):
        for line in open(path):
            try:
                rec = json.loads(line)
            except ValueError:
                continue
            if rec.get("type") == "run":
                key = (rec.get("status"), rec.get("reason"))
                runs[key] = runs.get(key, 0) + 1
            if rec.get("type") != "sample":
                continue
            key = (rec["bytes"], (rec.get("point_params") or {}).get("placement", "out"))
            if rec.get("status") == "ok":
                rigor.setdefault(key, []).append(rec["time_s"] * 1e6)
            else:
                rigor_bad[key] = rigor_bad.get(key, 0) + 1
    for path in glob.glob("%s/nccl-tests-%s-*.txt" % (out, coll)):
        for line in open(path):
            f = line.split()
            if len(f) >= 13 and f[0].isdigit() and f[2] == "float":
                for placement, col in (("out", 5), ("in", 9)):
                    nt.setdefault((int(f[0]), placement), []).append(float(f[col]))
                    wrong = f[col + 3]
                    if wrong not in ("0", "N/A"):
                        nt_wrong[(int(f[0]), placement)] = wrong
    print("\n== %s (rigor runs: %s)" % (coll, ", ".join(
        "%d %s%s" % (n, s, " (%s)" % r if r else "") for (s, r), n in sorted(runs.items(), key=str))))
    print("%12s %5s %6s %12s %6s %14s %8s %10s %10s" % (
        "bytes", "place", "n", "rigor us", "n", "nccl-tests us", "ratio", "rigor bad", "nt #wrong"))
    for key in sorted(set(rigor) | set(nt) | set(rigor_bad)):
        r, t = rigor.get(key, []), nt.get(key, [])
        rm = statistics.median(r) if r else float("nan")
        tm = statistics.median(t) if t else float("nan")
        ratio = rm / tm if r and t and tm > 0 else float("nan")
        if ratio == ratio:
            worst = max(worst, abs(ratio - 1))
        print("%12d %5s %6d %12.3f %6d %14.3f %8.4f %10d %10s" % (
            key[0], key[1], len(r), rm, len(t), tm, ratio, rigor_bad.get(key, 0), nt_wrong.get(key, "0")))
print("\nlargest |ratio - 1| over all rows: %.4f" % worst)
PY
echo "raw files: $out"
exit "$failed"
