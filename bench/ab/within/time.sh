#!/bin/sh
# How long a 1% answer takes for stream triad at one thread: TRIES (10) A/A experiments of
# bench/ab/within/aa.yaml (the same .so as two builds, replicated until the contrast's 95%
# interval is within 1%, at most 30 blocks); the median wall time from `rigor run` to its stop,
# and the blocks it took.
#
#   bench/ab/within/time.sh [BUILD_DIR]      env: TRIES (10), WORK, QUIET
BUILD=${1:-${BUILD:-build}}
. "$(dirname "$0")/common.sh"
tries=${TRIES:-10}
machine
: >"$work/time.txt"
for i in $(seq 1 "$tries"); do
  out=$work/time-$i.jsonl
  load=$(quiet)
  secs=$(run_one "$here/aa.yaml" "$out" --build "a=$plugins" --build "b=$plugins")
  judge "$out" build 2% "$secs" "$load" | tee -a "$work/time.txt"
done
machine
echo "1% answer, triad at 1 thread: $(summary "$work/time.txt")"
echo "results in $work"
