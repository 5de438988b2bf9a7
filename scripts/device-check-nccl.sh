#!/usr/bin/env bash
# Device check for the nccl plugin, on a machine with one or more NVIDIA GPUs.
#
#   scripts/device-check-nccl.sh [NCCL_TESTS_BUILD_DIR]
#
# Builds rigor, runs configs/nccl/quick.yaml and, given an nccl-tests build (the folder holding
# all_reduce_perf), runs all_reduce_perf with the same flags, the two interleaved ABBA, then
# prints both tables and the ratio of their median out-of-place times per size.
# BUILD_DIR (default build-device-check) and REPEATS (default 2) may be set in the environment.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
nccl_tests=${1:-}
build=${BUILD_DIR:-$root/build-device-check}
repeats=${REPEATS:-2}
out=$(mktemp -d "${TMPDIR:-/tmp}/rigor-nccl-check.XXXXXX")

cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DRIGOR_BUILD_TESTS=OFF >"$out/cmake.log"
cmake --build "$build" -j"$(nproc)" --target rigor nccl >"$out/build.log"
rigor="$build/bin/rigor"
command -v nvidia-smi >/dev/null && nvidia-smi -L

# Same semantics as configs/nccl/quick.yaml: 1 MiB and 64 MiB, float sum, 5 warmup, 20 iterations,
# 1 op each, batch blocking, 10 cycles, one check, critical rank, wall time.
nt_flags=(-b 1M -e 64M -f 64 -g 1 -w 5 -n 20 -m 1 -z 0 -N 10 -c 1 -d float -o sum -a 3 -C 0)

run_rigor() {
  "$rigor" run "$root/configs/nccl/quick.yaml" -o "$out/rigor-$1.jsonl" --force >"$out/rigor-$1.txt" 2>&1 ||
    { cat "$out/rigor-$1.txt"; exit 1; }
}
run_nccl_tests() {
  "$nccl_tests/all_reduce_perf" "${nt_flags[@]}" >"$out/nccl-tests-$1.txt" 2>&1 ||
    { cat "$out/nccl-tests-$1.txt"; exit 1; }
}

for rep in $(seq 1 "$repeats"); do
  if [ -n "$nccl_tests" ] && [ $((rep % 2)) -eq 0 ]; then
    run_nccl_tests "$rep"; run_rigor "$rep"
  else
    run_rigor "$rep"; [ -z "$nccl_tests" ] || run_nccl_tests "$rep"
  fi
done

echo "== rigor"
"$rigor" report "$out"/rigor-*.jsonl
if [ -n "$nccl_tests" ]; then
  echo "== nccl-tests all_reduce_perf ${nt_flags[*]}"
  cat "$out/nccl-tests-1.txt"
fi

python3 - "$out" "$nccl_tests" <<'PY'
import glob, json, statistics, sys
out, nccl_tests = sys.argv[1], sys.argv[2]
rigor = {}
for path in glob.glob(out + "/rigor-*.jsonl"):
    for line in open(path):
        try:
            rec = json.loads(line)
        except ValueError:
            continue
        if rec.get("type") != "sample" or rec.get("status") != "ok":
            continue
        params = rec.get("point_params") or {}
        if params.get("placement", "out") != "out":
            continue
        rigor.setdefault(rec["bytes"], []).append(rec["time_s"] * 1e6)
nt = {}
for path in glob.glob(out + "/nccl-tests-*.txt"):
    for line in open(path):
        f = line.split()
        if len(f) >= 13 and f[0].isdigit() and f[2] == "float":
            nt.setdefault(int(f[0]), []).append(float(f[5]))
print("\n%12s %8s %14s %8s %16s %8s" % ("bytes", "n", "rigor us", "n", "nccl-tests us", "ratio"))
for size in sorted(set(rigor) | set(nt)):
    r, t = rigor.get(size, []), nt.get(size, [])
    rm = statistics.median(r) if r else float("nan")
    tm = statistics.median(t) if t else float("nan")
    print("%12d %8d %14.3f %8d %16.3f %8.4f" % (size, len(r), rm, len(t), tm, rm / tm if t else float("nan")))
PY
echo "raw files: $out"
