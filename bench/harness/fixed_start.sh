#!/usr/bin/env bash
# The fixed cost of `rigor run`: whole-process wall time of a one-run experiment of the null
# plugin (one window of one iteration), so what is measured is everything around the run:
# start-up, config, plugin load, identity and checks, the run's process, records and fsyncs.
# With a second build folder, the two builds alternate run by run and their ratio is printed.
# Usage: bench/harness/fixed_start.sh [BUILD_DIR] [BASELINE_BUILD_DIR] (RUNS=30)
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
build="${1:-$root/build}"
base="${2:-}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cat >"$work/one.yaml" <<'YAML'
schema: 1
name: fixed-start
plugin: null
timing: {warmup: 0, cycles: 1, iters: 1, agg: 1, check: 0}
order: {design: sequential, replicates: 1}
output: one.jsonl
YAML
cmd() { # BUILD OUT
  echo "$1/bin/rigor run $work/one.yaml --plugin-path $1/tests/plugins -o $2 --force --quiet"
}
# shellcheck disable=SC2046
if [ -n "$base" ]; then
  python3 "$root/bench/common/ab_wall.py" --runs "${RUNS:-30}" --vs "$(cmd "$base" "$work/b.jsonl")" \
    -- $(cmd "$build" "$work/a.jsonl")
else
  python3 "$root/bench/common/ab_wall.py" --runs "${RUNS:-30}" -- $(cmd "$build" "$work/a.jsonl")
fi
echo "target: A's median under 20 ms"
