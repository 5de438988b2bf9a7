#!/usr/bin/env bash
# pto_vf end to end: whole-process wall time of `rigor run` of a one-run, one-parse experiment
# on a generated trace pair (156 MiB by default), page cache warm, and the rate that gives over
# the pair's bytes. With a second build folder, the two builds alternate run by run and their
# ratio is printed.
# Usage: bench/pto_vf/end_to_end.sh [BUILD_DIR] [BASELINE_BUILD_DIR]  (RUNS=15, BYTES=156M)
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
build="${1:-$root/build}"
base="${2:-}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
"$build/bin/vf_tracegen" "$work/traces" --bytes "${BYTES:-156M}" --seed 7 >"$work/truth.txt"
bytes=$(sed -n 's/^bytes=//p' "$work/truth.txt")
cat >"$work/e2e.yaml" <<YAML
schema: 1
name: pto-vf-end-to-end
plugin: pto_vf
params: {trace_dir: $work/traces, require_golden: false}
timing: {warmup: 0, cycles: 1, iters: 1, agg: 1}
order: {design: sequential, replicates: 1}
output: e2e.jsonl
YAML
cat "$work"/traces/* >/dev/null # warm page cache
cmd() { # BUILD OUT
  echo "$1/bin/rigor run $work/e2e.yaml -o $2 --force --quiet --plugin-path $1/lib/rigor/plugins"
}
out="$work/ab.txt"
# shellcheck disable=SC2046
if [ -n "$base" ]; then
  python3 "$root/bench/common/ab_wall.py" --runs "${RUNS:-15}" --vs "$(cmd "$base" "$work/b.jsonl")" \
    -- $(cmd "$build" "$work/a.jsonl") | tee "$out"
else
  python3 "$root/bench/common/ab_wall.py" --runs "${RUNS:-15}" -- $(cmd "$build" "$work/a.jsonl") |
    tee "$out"
fi
awk -v bytes="$bytes" '/^[AB]: / { for (i = 1; i <= NF; i++) if ($i == "median") m = $(i + 1)
  printf "%s end to end: %.2f GB/s over %d bytes (median wall %s ms)\n", substr($1, 1, 1),
         bytes / (m * 1e-3) * 1e-9, bytes, m }' "$out"
parse=$(python3 -c "import json,sys
for l in open(sys.argv[1]):
    r=json.loads(l)
    if r['type']=='sample': print(r['time_s'])" "$work/a.jsonl")
echo "A's parse window: $(python3 -c "print(f'{$parse*1e3:.1f} ms, {$bytes/$parse*1e-9:.2f} GB/s')")"
echo "target: A end to end >= 1 GB/s"
