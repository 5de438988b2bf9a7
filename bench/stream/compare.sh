#!/bin/sh
# Side-by-side, interleaved comparison of the stream plugin against McCalpin's reference stream.c.
#
#   bench/stream/compare.sh PATH/TO/stream.c [BUILD_DIR]
#
# Builds the reference with the compiler and C flags CMake uses for the plugin, the same array
# length and cycle count, then runs, in each round and for each thread count: the reference, the
# plugin with plain stores and the plugin with non-temporal stores (order reversed every other
# round). Prints, per thread count and kernel, the median over rounds of each round's best-rate
# ratio against the reference run next to it. Settings come from the environment:
#   ELEMENTS (16777216: 4 x 32 MiB of L3 in doubles), CYCLES (20), ROUNDS (5), THREADS ("1 2").
set -eu

if [ $# -lt 1 ] || [ ! -f "$1" ]; then
  echo "usage: $0 PATH/TO/stream.c [BUILD_DIR]" >&2
  exit 2
fi
ref_src=$1
build=${2:-build}
elements=${ELEMENTS:-16777216}
cycles=${CYCLES:-20}
rounds=${ROUNDS:-5}
threads=${THREADS:-1 2}
plugin=$build/lib/rigor/plugins/stream.so
driver=$build/bench/stream/stream_bench
flags_file=$build/plugins/stream/CMakeFiles/stream.dir/flags.make
for f in "$plugin" "$driver" "$flags_file"; do
  [ -e "$f" ] || { echo "$f missing: build the stream plugin and stream_bench first" >&2; exit 2; }
done

cc=$(sed -n 's/^CMAKE_C_COMPILER:[A-Z]*=//p' "$build/CMakeCache.txt")
# The plugin's optimisation, code-generation and OpenMP flags; warnings and defines dropped.
flags=$(sed -n 's/^C_FLAGS = //p' "$flags_file" | tr ' ' '\n' | grep -v '^-W' | grep -v '^-D' | tr '\n' ' ')
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# shellcheck disable=SC2086
"$cc" $flags -D_GNU_SOURCE -DSTREAM_ARRAY_SIZE="$elements" -DNTIMES="$cycles" "$ref_src" \
  -o "$work/stream_ref" -lm 2>"$work/ref_build.log" ||
  { cat "$work/ref_build.log" >&2; exit 1; }

echo "compiler: $cc"
echo "flags:    $flags"
echo "elements: $elements   cycles: $cycles   rounds: $rounds   threads: $threads"

# One "round threads program kernel MB/s" line per kernel of one run.
record() {
  awk -v r="$1" -v t="$2" -v p="$3" '/^(Copy|Scale|Add|Triad):/ {
    sub(":", "", $1); print r, t, p, $1, $2 }' "$4" >>"$work/rates"
}

run_one() { # round threads program
  out=$work/out
  case $3 in
  ref) OMP_NUM_THREADS=$2 "$work/stream_ref" >"$out" ;;
  plain) OMP_NUM_THREADS=$2 "$driver" "$plugin" "$elements" "$2" "$cycles" >"$out" ;;
  nt) OMP_NUM_THREADS=$2 "$driver" "$plugin" "$elements" "$2" "$cycles" nt >"$out" ;;
  esac
  grep -q "Solution Validates" "$out" || { echo "$3 at $2 threads did not validate" >&2; cat "$out" >&2; exit 3; }
  record "$1" "$2" "$3" "$out"
}

: >"$work/rates"
r=1
while [ "$r" -le "$rounds" ]; do
  for t in $threads; do
    if [ $((r % 2)) -eq 1 ]; then order="ref plain nt"; else order="nt plain ref"; fi
    for p in $order; do run_one "$r" "$t" "$p"; done
  done
  r=$((r + 1))
done

awk -v thread_list="$threads" '
  { rate[$1, $2, $3, $4] = $5; rounds[$1] = 1 }
  function median(v, n,    i, j, x) {
    for (i = 2; i <= n; i++) { x = v[i]; for (j = i - 1; j >= 1 && v[j] > x; j--) v[j + 1] = v[j]; v[j + 1] = x }
    return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
  }
  END {
    split("Copy Scale Add Triad", kernels, " ")
    printf "%-8s %-6s %12s %12s %12s %11s %11s\n", "threads", "kernel", "ref MB/s", "plain MB/s",
           "nt MB/s", "plain/ref", "nt/ref"
    nt_count = split(thread_list, tlist, " ")
    for (ti = 1; ti <= nt_count; ti++) for (k = 1; k <= 4; k++) {
      t = tlist[ti]
      n = 0
      for (r in rounds) {
        n++; ref[n] = rate[r, t, "ref", kernels[k]]; pl[n] = rate[r, t, "plain", kernels[k]]
        nt[n] = rate[r, t, "nt", kernels[k]]; rp[n] = pl[n] / ref[n]; rn[n] = nt[n] / ref[n]
      }
      printf "%-8s %-6s %12.1f %12.1f %12.1f %11.3f %11.3f\n", t, kernels[k], median(ref, n),
             median(pl, n), median(nt, n), median(rp, n), median(rn, n)
    }
    print "medians over rounds; ratios are taken within a round, then their median"
  }' "$work/rates"
