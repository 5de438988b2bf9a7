#!/bin/sh
# A planted slowdown within one results file: triad over 1.00x and (1 + PLANT)x the elements as a
# matrix axis (bench/ab/within/planted.yaml), N experiments (20), each replicated until the
# contrast's 95% interval is within 1%. Prints how many found the longer arrays `slower` and
# the blocks that took. A verdict needs the whole interval beyond the threshold, so a 2% plant
# is judged at 0.5% (THRESHOLD), a 5% one at the default 2%.
#
#   PLANT=5 bench/ab/within/planted.sh [BUILD_DIR]     env: PLANT (5), THRESHOLD, ELEMENTS, N (20),
#                                               WORK, QUIET (a load average to wait below)
BUILD=${1:-${BUILD:-build}}
. "$(dirname "$0")/common.sh"
n=${N:-20}
plant=${PLANT:-5}
threshold=${THRESHOLD:-$([ "$plant" -ge 5 ] && echo 2% || echo 0.5%)}
# The base length is STREAM's rule on this project's machine (each array 4 times its 32 MiB
# last-level cache, in doubles: the stream plugin's default there); ELEMENTS sets another.
base=${ELEMENTS:-16777216}
elements=$(awk -v b="$base" -v p="$plant" 'BEGIN { printf "%d", b * (1 + p / 100) + 0.5 }')
sed -e "s/@BASE@/$base/" -e "s/@ELEMENTS@/$elements/" "$here/planted.yaml" \
  >"$work/planted-$plant.yaml"
machine
echo "plant: +$plant% ($base -> $elements elements), threshold $threshold"
: >"$work/planted-$plant.txt"
for i in $(seq 1 "$n"); do
  out=$work/planted-$plant-$i.jsonl
  load=$(quiet)
  secs=$(run_one "$work/planted-$plant.yaml" "$out")
  judge "$out" elements "$threshold" "$secs" "$load" | tee -a "$work/planted-$plant.txt"
done
machine
echo "planted +$plant%, threshold $threshold: $(summary "$work/planted-$plant.txt")"
echo "results in $work"
