#!/bin/sh
# Renders the HTML reports that docs/reports.md shows: a STREAM thread-scaling experiment
# (configs/stream/threads.yaml) and an nccl-tests style size sweep of the null plugin
# (docs/reports/size-sweep.yaml), each run afresh, then screenshotted by headless Chromium into
# docs/img/. Usage: scripts/report-screenshots.sh [BUILD_DIR] (default build).
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
rigor=$build/bin/rigor
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
command -v chromium >/dev/null || { echo "report-screenshots: chromium is not installed" >&2; exit 2; }
mkdir -p "$root/docs/img" "$work/results"
# Paths relative to a checkout, so that the pictures name configs/... and results/...
ln -s "$root/configs" "$root/docs" "$work/"
shot() { # NAME CONFIG HEIGHT
  (cd "$work" && "$rigor" run "$2" -o "results/$1.jsonl" --force --quiet --no-report &&
    "$rigor" report --format html -o "$1.html" "results/$1.jsonl")
  chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1400,"$3" \
    --screenshot="$root/docs/img/$1.png" "file://$work/$1.html" >/dev/null 2>&1
  echo "docs/img/$1.png"
}
shot report-stream-threads configs/stream/threads.yaml 1150
shot report-size-sweep docs/reports/size-sweep.yaml 1250
