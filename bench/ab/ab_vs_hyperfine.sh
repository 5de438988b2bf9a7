#!/usr/bin/env bash
# `rigor ab` beside hyperfine on the same two commands, TRIES times each (default 10), the two
# tools alternating: gzip -1 against gzip -6 on a generated 4 MB text file, and sleep 0.010
# against sleep 0.011. The truth for each pair is measured first, independently of both tools:
# TRUTH_PAIRS (default 300) executions of each command alternating in a bash loop, timed with
# EPOCHREALTIME, the geometric mean of the paired ratios. Per try: seconds to the answer, the
# ratio B/A, the interval (rigor: its 95% interval; hyperfine: the ratio +- the sigma it
# prints), whether the direction is right (rigor: `slower`; hyperfine: B's mean above A's) and
# whether the interval holds the truth. rigor ab runs with its defaults but a deadline of
# AB_DEADLINE (default 40s); hyperfine with its defaults and -N (no shell: rigor's exec arms run
# `sh -c CMD`, which execs a simple command, so both time fork, exec and the command).
# Usage: bench/ab/ab_vs_hyperfine.sh [TRIES]   (AB_DEADLINE=40s TRUTH_PAIRS=300)
set -euo pipefail
source "$(dirname "$0")/common.sh"
tries="${1:-10}"
command -v hyperfine >/dev/null || { echo "hyperfine is needed (apt-get install hyperfine)" >&2; exit 2; }
machine
echo "hyperfine: $(hyperfine --version)"
python3 - "$work/text.txt" <<'PY'
import random, sys
random.seed(27)
words = [''.join(random.choice('abcdefghijklmnopqrstuvwxyz') for _ in range(random.randint(2, 9)))
         for _ in range(5000)]
with open(sys.argv[1], 'w') as f:
    n = 0
    while n < 4 << 20:
        line = ' '.join(random.choice(words) for _ in range(12)) + '\n'
        f.write(line)
        n += len(line)
PY
# truth A B: the geometric mean of TRUTH_PAIRS paired ratios B/A, alternating the order.
truth() {
  local a=$1 b=$2 i t0 t1 t2
  : >"$work/truth.txt"
  for i in $(seq 1 "${TRUTH_PAIRS:-300}"); do
    if [ $((i % 2)) = 0 ]; then
      t0=$EPOCHREALTIME; $a >/dev/null; t1=$EPOCHREALTIME; $b >/dev/null; t2=$EPOCHREALTIME
      echo "$t0 $t1 $t2 ab" >>"$work/truth.txt"
    else
      t0=$EPOCHREALTIME; $b >/dev/null; t1=$EPOCHREALTIME; $a >/dev/null; t2=$EPOCHREALTIME
      echo "$t0 $t1 $t2 ba" >>"$work/truth.txt"
    fi
  done
  awk '{ x = $2 - $1; y = $3 - $2; r = ($4 == "ab") ? y / x : x / y; s += log(r); ss += log(r) ^ 2; n++ }
    END { m = s / n; se = sqrt((ss - n * m * m) / (n - 1) / n)
          printf "%.4f %.4f %.4f\n", exp(m), exp(m - 1.96 * se), exp(m + 1.96 * se) }' "$work/truth.txt"
}
for pair in gzip sleep; do
  if [ "$pair" = gzip ]; then
    a="gzip -1 -c $work/text.txt" b="gzip -6 -c $work/text.txt"
  else
    a="sleep 0.010" b="sleep 0.011"
  fi
  read -r tr tlo thi <<<"$(truth "$a" "$b")"
  echo "$pair: A = $a, B = $b; truth B/A $tr [$tlo, $thi] (${TRUTH_PAIRS:-300} alternating pairs)"
  stamp
  : >"$work/$pair.txt"
  for i in $(seq 1 "$tries"); do
    out="$work/$pair-ab-$i.jsonl"
    t0=$(date +%s.%N)
    rc=0
    "$rigor" ab "$a" "$b" -q --deadline "${AB_DEADLINE:-40s}" -o "$out" >"$work/$pair-ab-$i.txt" 2>&1 || rc=$?
    secs=$(seconds_since "$t0")
    read -r verdict ratio lo hi pairs <<<"$(contrast "$out" command)"
    dir=$([ "$verdict" = slower ] && echo 1 || echo 0)
    est=$(awk -v q="$ratio" 'BEGIN { print (q > 1) ? 1 : 0 }')
    in=$(awk -v l="$lo" -v h="$hi" -v t="$tr" 'BEGIN { print (l <= t && t <= h) ? 1 : 0 }')
    echo "rigor $secs $ratio $lo $hi $dir $in $est $verdict" >>"$work/$pair.txt"
    printf '  try %2d rigor ab : %5.1f s, B/A %.4f [%.4f, %.4f] %-12s verdict slower %s, holds truth %s, exit %s\n' \
      "$i" "$secs" "$ratio" "$lo" "$hi" "$verdict" "$dir" "$in" "$rc"
    t0=$(date +%s.%N)
    hyperfine -N --style none --export-json "$work/$pair-hf-$i.json" "$a" "$b" >/dev/null 2>&1
    secs=$(seconds_since "$t0")
    read -r ratio lo hi <<<"$(jq -r '.results as $r | ($r[0].mean) as $ma | ($r[1].mean) as $mb |
      ($mb / $ma) as $q | ($q * ((($r[0].stddev / $ma) | . * .) + (($r[1].stddev / $mb) | . * .)
      | sqrt)) as $s | "\($q) \($q - $s) \($q + $s)"' "$work/$pair-hf-$i.json")"
    dir=$(awk -v q="$ratio" 'BEGIN { print (q > 1) ? 1 : 0 }')
    in=$(awk -v l="$lo" -v h="$hi" -v t="$tr" 'BEGIN { print (l <= t && t <= h) ? 1 : 0 }')
    echo "hyperfine $secs $ratio $lo $hi $dir $in $dir" >>"$work/$pair.txt"
    printf '  try %2d hyperfine: %5.1f s, B/A %.4f [%.4f, %.4f] (+-sigma)       direction %s, holds truth %s\n' \
      "$i" "$secs" "$ratio" "$lo" "$hi" "$dir" "$in"
  done
  stamp
  for tool in rigor hyperfine; do
    grep "^$tool " "$work/$pair.txt" | sort -k2 -g | awk -v t="$tool" -v p="$pair" '
      { x[NR] = $2; d += $6; c += $7; e += $8; if ($9 != "") v[$9]++ }
      END { m = NR % 2 ? x[(NR + 1) / 2] : (x[NR / 2] + x[NR / 2 + 1]) / 2
            printf "%s %s: median %.1f s to an answer; direction right %d of %d (estimate above 1: %d); interval holds the truth %d of %d",
              p, t, m, d, NR, e, c, NR
            if (length(v)) { printf ";"; for (k in v) printf " %s %d", k, v[k] }
            printf "\n" }'
  done
done
