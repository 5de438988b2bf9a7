# Shared by the bench/ab/within scripts: the binary, the plugin folder, a scratch folder, and
# one line per experiment from its results file: blocks, stop reason, verdict, ratio, interval,
# seconds, load.
set -eu
build=${BUILD:-build}
rigor=$build/bin/rigor
plugins=$build/lib/rigor/plugins
[ -x "$rigor" ] && [ -e "$plugins/stream.so" ] || {
  echo "$rigor or $plugins/stream.so missing: build rigor with the stream plugin first" >&2
  exit 2
}
command -v jq >/dev/null || { echo "jq is needed" >&2; exit 2; }
work=${WORK:-$(mktemp -d)}
mkdir -p "$work"
here=$(dirname "$0")

machine() {
  echo "cpu: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) CPUs;" \
    "load: $(cut -d' ' -f1-3 /proc/loadavg)"
}

# quiet: with QUIET=L, waits (at most QUIET_WAIT seconds, 900) until the 1-minute load
# average is below L, so that other tenants of a shared machine disturb the next experiment
# less; prints the load it starts at.
quiet() {
  if [ -n "${QUIET:-}" ]; then
    waited=0
    while awk -v l="$QUIET" '{ exit !($1 >= l) }' /proc/loadavg &&
      [ "$waited" -lt "${QUIET_WAIT:-900}" ]; do
      sleep 10
      waited=$((waited + 10))
    done
  fi
  cut -d' ' -f1 /proc/loadavg
}

# judge FILE AXIS THRESHOLD SECONDS LOAD: "blocks reason verdict ratio lo hi seconds load" of
# the one contrast of FILE's AXIS at THRESHOLD.
judge() {
  stop=$(jq -r 'select(.type == "stop") | "\(.blocks) \(.reason)"' "$1" | tail -n 1)
  "$rigor" compare "$1" --axis "$2" --threshold "$3" --format json >"$work/judge.json" || true
  verdict=$(jq -r '.contrasts[0] | "\(.verdict) \(.ratio) \(.ci_low) \(.ci_high)"' \
    "$work/judge.json")
  echo "$stop $verdict $4 ${5:-}"
}

# run_one CONFIG OUT [ARGS...]: runs one experiment quietly and prints its wall seconds.
run_one() {
  cfg=$1 out=$2
  shift 2
  t0=$(date +%s.%N)
  "$rigor" run "$cfg" -o "$out" --force --quiet "$@" || true
  t1=$(date +%s.%N)
  echo "$t0 $t1" | awk '{printf "%.1f", $2 - $1}'
}

# median_of COLUMN FILE: "median (min-max)" of a numeric column.
median_of() {
  cut -d' ' -f"$1" "$2" | sort -g | awk '{x[NR] = $1}
    END { m = NR % 2 ? x[(NR + 1) / 2] : (x[NR / 2] + x[NR / 2 + 1]) / 2
          printf "%s (%s-%s)", m, x[1], x[NR] }'
}

# summary FILE: counts of verdicts, and the blocks and seconds it took.
summary() {
  counts=$(cut -d' ' -f3 "$1" | sort | uniq -c | awk '{printf " %s %d;", $2, $1}')
  echo "experiments $(wc -l <"$1");$counts blocks median $(median_of 1 "$1");" \
    "seconds median $(median_of 7 "$1")"
}
