#!/bin/sh
# Scale check: `rigor validate` and `rigor plan` on experiments of 100,000 runs, side by side.
# usage: bench/plan/run.sh [BUILD_DIR]   (the null fixture plugin lives in BUILD/tests/plugins)
set -eu
build=${1:-build}
rigor=$build/bin/rigor
plugins=$build/tests/plugins
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# 100,000 variants, one block: the matrix expansion dominates.
cat > "$work/variants.yaml" <<'YAML'
schema: 1
name: scale-variants
plugin: null
matrix:
  bytes: {from: 1, to: 1000, step: 1}
  spin_ns: {from: 0, to: 99, step: 1}
order: {design: random, seed: 1}
YAML

# 100 variants x 1,000 blocks: the schedule dominates.
cat > "$work/blocks.yaml" <<'YAML'
schema: 1
name: scale-blocks
plugin: null
matrix:
  bytes: {from: 1KiB, to: 100KiB, step: 1KiB}
order: {design: williams, replicates: 1000, seed: 1, randomize: true}
YAML

seconds() {
  start=$(date +%s.%N)
  "$@" >/dev/null
  end=$(date +%s.%N)
  echo "$start $end" | awk '{printf "%.3f", $2 - $1}'
}

printf '%-26s %10s %10s\n' config "validate_s" "plan_s"
for f in variants blocks; do
  v=$(seconds "$rigor" validate --plugin-path "$plugins" "$work/$f.yaml")
  p=$(seconds "$rigor" plan --plugin-path "$plugins" "$work/$f.yaml")
  printf '%-26s %10s %10s\n' "$f.yaml (100000 runs)" "$v" "$p"
done
