# Shared by the bench/ab scripts: the rigor binary (BUILD, default build/), a scratch folder
# (kept and named when KEEP=1), and a same-core busy loop that is always stopped.
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
build="${BUILD:-$root/build}"
rigor="$build/bin/rigor"
here="$root/bench/ab"
work="$(mktemp -d)"
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
