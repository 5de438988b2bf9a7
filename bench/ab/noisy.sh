#!/usr/bin/env bash
# The same stream experiment (three runs a side), once quiet and once beside a busy loop on its
# own core: compare must call it slower, marked imprecise when a side is over its CV gate, and
# exit 4. Usage: bench/ab/noisy.sh
set -euo pipefail
source "$(dirname "$0")/common.sh"
machine
"$rigor" run "$here/triad3.yaml" -o "$work/quiet.jsonl" --quiet --force
busy_start
"$rigor" run "$here/triad3.yaml" -o "$work/noisy.jsonl" --quiet --force
busy_stop
rc=0
"$rigor" compare "$work/quiet.jsonl" "$work/noisy.jsonl" || rc=$?
echo "exit code: $rc"
