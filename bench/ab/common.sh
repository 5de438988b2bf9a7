# Shared by the bench/ab scripts: the rigor binary (BUILD, default build/), a scratch folder
# (kept and named when KEEP=1), and a same-core busy loop that is always stopped.
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
build="${BUILD:-$root/build}"
rigor="$build/bin/rigor"
here="$root/bench/ab"
plugins="$build/lib/rigor/plugins"
work="${WORK:-$(mktemp -d)}"
mkdir -p "$work"
busy_pid=""
cleanup() {
  if [ -n "$busy_pid" ]; then kill "$busy_pid" 2>/dev/null || true; fi
  if [ "${KEEP:-0}" = 1 ]; then echo "results kept in $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT
busy_start() {
  taskset -c 0 sh -c 'while :; do :; done' &
  busy_pid=$!
}
busy_stop() {
  kill "$busy_pid" 2>/dev/null || true
  wait "$busy_pid" 2>/dev/null || true
  busy_pid=""
}
machine() {
  echo "cpu: $(lscpu | sed -n 's/^Model name: *//p') ($(nproc) CPUs); load: $(cut -d' ' -f1-3 /proc/loadavg)"
}
# stamp: the time and the load average, a line to print beside every figure.
stamp() {
  echo "  [$(date -u +%H:%M:%S) UTC, load $(cut -d' ' -f1-3 /proc/loadavg)]"
}
# contrast FILE AXIS: "verdict ratio ci_low ci_high pairs" of the first contrast of AXIS in FILE.
contrast() {
  "$rigor" compare "$1" --axis "$2" --format json >"$work/contrast.json" 2>/dev/null || true
  jq -r '.contrasts[0] | "\(.verdict) \(.ratio // 0) \(.ci_low // 0) \(.ci_high // 0) \(.pairs // 0)"' \
    "$work/contrast.json" 2>/dev/null || echo "none 0 0 0 0"
}
# seconds_since T0: wall seconds since T0 (from date +%s.%N), one decimal.
seconds_since() {
  awk -v t0="$1" -v t1="$(date +%s.%N)" 'BEGIN { printf "%.1f", t1 - t0 }'
}
