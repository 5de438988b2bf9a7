#!/usr/bin/env bash
# Runs every libFuzzer harness for a bounded time (default 60 s each) and prints, per harness,
# the executions and the findings. Seeds come from the tests; findings land in
# $RIGOR_FUZZ_BUILD_DIR/fuzz/findings/NAME/. FUZZ_ONLY="fuzz_config fuzz_results" picks harnesses.
# Exit status: 0 when nothing was found, 1 otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-60}"
build="${RIGOR_FUZZ_BUILD_DIR:-build-fuzz}"
all="fuzz_config fuzz_results fuzz_analysis fuzz_store_import fuzz_vf_line"
harnesses="${FUZZ_ONLY:-$all}"

cmake -S . -B "$build" -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ -DRIGOR_FUZZ=ON \
  "-DRIGOR_PLUGINS=pto_vf;stream;exec" \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
# shellcheck disable=SC2086
cmake --build "$build" -j"$(nproc)" --target $harnesses >/dev/null

existing() { for d in "$@"; do if [ -d "$d" ]; then echo "$d"; fi; done; }

seeds() {
  local dirs
  case "$1" in
  fuzz_config) dirs=$(existing configs tests/config) ;;
  fuzz_results | fuzz_analysis | fuzz_store_import) dirs=$(existing tests/badinput/results tests/golden) ;;
  fuzz_vf_line) dirs=$(existing plugins/pto_vf/tests/data tests/badinput/traces) ;;
  esac
  # shellcheck disable=SC2086
  find $dirs -type f \( -name '*.yaml' -o -name '*.jsonl' -o -name '*.dump' \)
}

found=0
for h in $harnesses; do
  corpus="$build/fuzz/corpus/$h"
  findings="$build/fuzz/findings/$h"
  mkdir -p "$corpus" "$findings"
  seeds "$h" | while read -r f; do cp -f "$f" "$corpus/seed-$(basename "$(dirname "$f")")-$(basename "$f")"; done
  log="$build/fuzz/$h.log"
  # Exit status is non-zero on a finding; the summary below reports it either way.
  "$build/fuzz/$h" "$corpus" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
    -artifact_prefix="$findings/" -print_final_stats=1 -close_fd_mask=1 >"$log" 2>&1 || true
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  n=$(find "$findings" -type f | wc -l)
  cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 || true)
  printf '%-14s %ss  executions %s  %s  corpus %s  findings %s\n' "$h" "$seconds" "${execs:-?}" \
    "${cov:-cov: ?}" "$(find "$corpus" -type f | wc -l)" "$n"
  if [ "$n" -gt 0 ]; then
    found=1
    find "$findings" -type f -printf '  %p\n'
  fi
done
exit "$found"
