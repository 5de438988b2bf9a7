#!/bin/sh
# A/A within one results file: the same stream .so given as two builds, N experiments (20)
# of bench/ab/within/aa.yaml, each replicated until the build contrast's 95% interval is within
# 1%. Every `faster` or `slower` is a false verdict. Judged at the default threshold (2%) and
# at 0.5%, the threshold bench/ab/within/planted.sh uses for its 2% plant.
#
#   bench/ab/within/aa.sh [BUILD_DIR]        env: N (20), WORK (a scratch folder), QUIET
BUILD=${1:-${BUILD:-build}}
. "$(dirname "$0")/common.sh"
n=${N:-20}
machine
: >"$work/aa-2.txt"
: >"$work/aa-0.5.txt"
for i in $(seq 1 "$n"); do
  out=$work/aa-$i.jsonl
  load=$(quiet)
  secs=$(run_one "$here/aa.yaml" "$out" --build "a=$plugins" --build "b=$plugins")
  judge "$out" build 2% "$secs" "$load" | tee -a "$work/aa-2.txt"
  judge "$out" build 0.5% "$secs" "$load" >>"$work/aa-0.5.txt"
done
machine
echo "A/A, threshold 2%:   $(summary "$work/aa-2.txt")"
echo "A/A, threshold 0.5%: $(summary "$work/aa-0.5.txt")"
echo "results in $work"
