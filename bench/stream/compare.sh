#!/bin/sh
# Side-by-side, interleaved comparison of the stream plugin against McCalpin's reference stream.c
# and, when asked, BabelStream's OpenMP version.
#
#   bench/stream/compare.sh PATH/TO/stream.c [BUILD_DIR]
#   BABELSTREAM=PATH/TO/BabelStream bench/stream/compare.sh PATH/TO/stream.c [BUILD_DIR]
#
# Neither reference is part of this repository: point the script at checkouts of your own
# (github.com/jeffhammond/STREAM holds stream.c 5.10, github.com/UoB-HPC/BabelStream BabelStream).
# Both are built in a temporary folder with the compiler and flags CMake uses for the plugin (for
# BabelStream the C++ compiler, the same optimisation and OpenMP flags, -std=c++17), the same
# array length and cycle count. Each round then runs, for each thread count: the references, the
# plugin with plain stores and the plugin with non-temporal stores (order reversed every other
# round). Prints, per thread count and kernel, the median over rounds of each round's best-rate
# ratio against the reference run beside it: STREAM's four kernels against stream.c, and with
# BabelStream all six (dot and nstream too) against BabelStream. Settings come from the
# environment: ELEMENTS (16777216: 4 x 32 MiB of L3 in doubles), CYCLES (20), ROUNDS (5),
# THREADS ("1 2"), BABELSTREAM (unset: stream.c only), RATES (unset: a file to keep every
# round's rates in, "round threads program kernel MB/s" a line, to see the rounds' spread),
# PLUGIN_PARAMS (unset: PARAM=VALUE words passed to the plugin's runs, e.g. "proc_bind=none").
set -eu

if [ $# -lt 1 ] || [ ! -f "$1" ]; then
  echo "usage: [BABELSTREAM=DIR] $0 PATH/TO/stream.c [BUILD_DIR]" >&2
  exit 2
fi
ref_src=$1
build=${2:-build}
elements=${ELEMENTS:-16777216}
cycles=${CYCLES:-20}
rounds=${ROUNDS:-5}
threads=${THREADS:-1 2}
babel_dir=${BABELSTREAM:-}
plugin=$build/lib/rigor/plugins/stream.so
driver=$build/bench/stream/stream_bench
flags_file=$build/plugins/stream/CMakeFiles/stream.dir/flags.make
for f in "$plugin" "$driver" "$flags_file"; do
  [ -e "$f" ] || { echo "$f missing: build the stream plugin and stream_bench first" >&2; exit 2; }
done
if [ -n "$babel_dir" ] && [ ! -f "$babel_dir/src/main.cpp" ]; then
  echo "BABELSTREAM=$babel_dir: no src/main.cpp there; point it at a BabelStream checkout" >&2
  exit 2
fi

cc=$(sed -n 's/^CMAKE_C_COMPILER:[A-Z]*=//p' "$build/CMakeCache.txt")
# The plugin's optimisation, code-generation and OpenMP flags; warnings and defines dropped.
flags=$(sed -n 's/^C_FLAGS = //p' "$flags_file" | tr ' ' '\n' | grep -v '^-W' | grep -v '^-D' | tr '\n' ' ')
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# shellcheck disable=SC2086
"$cc" $flags -D_GNU_SOURCE -DSTREAM_ARRAY_SIZE="$elements" -DNTIMES="$cycles" "$ref_src" \
  -o "$work/stream_ref" -lm 2>"$work/ref_build.log" ||
  { cat "$work/ref_build.log" >&2; exit 1; }
programs="ref plain nt"
plugin_kernels=
if [ -n "$babel_dir" ]; then
  cxx=$(sed -n 's/^CMAKE_CXX_COMPILER:[A-Z]*=//p' "$build/CMakeCache.txt")
  [ -n "$cxx" ] || cxx=c++
  cxx_flags=$(echo "$flags" | tr ' ' '\n' | grep -v '^-std=' | tr '\n' ' ')
  # shellcheck disable=SC2086
  "$cxx" $cxx_flags -std=c++17 -DOMP -I"$babel_dir/src" -I"$babel_dir/src/omp" \
    "$babel_dir/src/main.cpp" "$babel_dir/src/omp/OMPStream.cpp" -o "$work/babelstream" \
    2>"$work/babel_build.log" || { cat "$work/babel_build.log" >&2; exit 1; }
  programs="ref babel plain nt"
  plugin_kernels=all
fi

echo "compiler: $cc${babel_dir:+ (BabelStream: $cxx)}"
echo "flags:    $flags"
echo "elements: $elements   cycles: $cycles   rounds: $rounds   threads: $threads${PLUGIN_PARAMS:+   plugin params: $PLUGIN_PARAMS}"

# One "round threads program kernel MB/s" line per kernel of one run.
record() {
  awk -v r="$1" -v t="$2" -v p="$3" -v ntfile="$work/nt_$2" '
    /^(Copy|Scale|Add|Triad|Dot|Nstream):/ { sub(":", "", $1); print r, t, p, $1, $2 }
    /^Store path:/ { print p ": " tolower($0) > ntfile "_" p }
    /^Pages:/ { sub("^Pages: ", ""); print p ": " $0 > ntfile "_" p "_pages" }' "$4" >>"$work/rates"
}

# BabelStream's CSV rows (function,num_times,n_elements,sizeof,max_MB_per_sec,...), its Mul
# being STREAM's Scale.
record_babel() {
  awk -F, -v r="$1" -v t="$2" '
    $1 ~ /^(Copy|Mul|Add|Triad|Dot|Nstream)$/ { k = $1 == "Mul" ? "Scale" : $1; print r, t, "babel", k, $5 }' \
    "$3" >>"$work/rates"
}

run_one() { # round threads program
  out=$work/out
  # shellcheck disable=SC2086 # PLUGIN_PARAMS is words
  case $3 in
  ref) OMP_NUM_THREADS=$2 "$work/stream_ref" >"$out" ;;
  babel)
    OMP_NUM_THREADS=$2 "$work/babelstream" -s "$elements" -n "$cycles" --only All --csv >"$out" ||
      { echo "BabelStream at $2 threads failed its check" >&2; cat "$out" >&2; exit 3; }
    record_babel "$1" "$2" "$out"
    return ;;
  plain) OMP_NUM_THREADS=$2 "$driver" "$plugin" "$elements" "$2" "$cycles" $plugin_kernels ${PLUGIN_PARAMS:-} >"$out" ;;
  nt) OMP_NUM_THREADS=$2 "$driver" "$plugin" "$elements" "$2" "$cycles" nt $plugin_kernels ${PLUGIN_PARAMS:-} >"$out" ;;
  esac
  grep -q "Solution Validates" "$out" || { echo "$3 at $2 threads did not validate" >&2; cat "$out" >&2; exit 3; }
  record "$1" "$2" "$3" "$out"
}

: >"$work/rates"
r=1
while [ "$r" -le "$rounds" ]; do
  for t in $threads; do
    order=$programs
    if [ $((r % 2)) -eq 0 ]; then order=$(echo "$programs" | tr ' ' '\n' | sed '1!G;h;$!d' | tr '\n' ' '); fi
    for p in $order; do run_one "$r" "$t" "$p"; done
  done
  r=$((r + 1))
done

# Which stores each kernel used: the plugin's own record, and for stream.c its copy's memcpy.
for t in $threads; do
  for p in plain nt; do
    echo "plugin at $t threads, $(cat "$work/nt_${t}_$p")"
    echo "plugin at $t threads, $(cat "$work/nt_${t}_${p}_pages")"
  done
done
echo "stream.c: copy compiles to memcpy (the C library picks its stores: $(command -v ld.so >/dev/null 2>&1 && ld.so --list-tunables 2>/dev/null | grep x86_non_temporal_threshold || echo "threshold unknown")), the rest plain stores; static arrays, which get huge pages only under THP mode always (here: $(sed -n 's/.*\[\(.*\)\].*/\1/p' /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null || echo unknown))"

# table REFERENCE KERNELS...: one row per thread count and kernel.
table() {
  awk -v thread_list="$threads" -v base="$1" -v kernel_list="$2" '
    { rate[$1, $2, $3, $4] = $5; rounds[$1] = 1 }
    function median(v, n,    i, j, x) {
      for (i = 2; i <= n; i++) { x = v[i]; for (j = i - 1; j >= 1 && v[j] > x; j--) v[j + 1] = v[j]; v[j + 1] = x }
      return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
    }
    END {
      nk = split(kernel_list, kernels, " ")
      printf "%-8s %-8s %12s %12s %12s %11s %11s\n", "threads", "kernel", base " MB/s", "plain MB/s",
             "nt MB/s", "plain/" base, "nt/" base
      nt_count = split(thread_list, tlist, " ")
      for (ti = 1; ti <= nt_count; ti++) for (k = 1; k <= nk; k++) {
        t = tlist[ti]
        n = 0
        for (r in rounds) {
          n++; ref[n] = rate[r, t, base, kernels[k]]; pl[n] = rate[r, t, "plain", kernels[k]]
          nt[n] = rate[r, t, "nt", kernels[k]]; rp[n] = pl[n] / ref[n]; rn[n] = nt[n] / ref[n]
        }
        printf "%-8s %-8s %12.1f %12.1f %12.1f %11.3f %11.3f\n", t, kernels[k], median(ref, n),
               median(pl, n), median(nt, n), median(rp, n), median(rn, n)
      }
    }' "$work/rates"
}

echo
echo "against stream.c"
table ref "Copy Scale Add Triad"
if [ -n "$babel_dir" ]; then
  echo
  echo "against BabelStream"
  table babel "Copy Scale Add Triad Dot Nstream"
fi
echo "medians over rounds; ratios are taken within a round, then their median"
if [ -n "${RATES:-}" ]; then cp "$work/rates" "$RATES" && echo "every round's rates: $RATES"; fi
