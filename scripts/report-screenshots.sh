#!/bin/sh
# Renders the HTML pages docs/reports.md shows, each kind at 1400 px wide, into docs/img/:
# the report of a STREAM thread-scaling experiment (docs/reports/stream-threads.yaml, about a
# minute a run on two cores), the comparison of two of its runs, the contrasts of its threads
# axis, the history of its runs stored as commits, and the report of an nccl-tests style size
# sweep of the null plugin (docs/reports/size-sweep.yaml). Every run is made afresh, then each
# page is screenshotted by headless Chromium.
# Usage: scripts/report-screenshots.sh [BUILD_DIR] (default build); RUNS=N runs STREAM N times
# for the history (default 4, at least 2).
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
rigor=$build/bin/rigor
runs=${RUNS:-4}
[ "$runs" -ge 2 ] || { echo "report-screenshots: RUNS must be at least 2" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
command -v chromium >/dev/null || { echo "report-screenshots: chromium is not installed" >&2; exit 2; }
mkdir -p "$root/docs/img" "$work/results"
# Paths relative to a checkout, so that the pages name docs/... and results/...
ln -s "$root/configs" "$root/docs" "$work/"

measure() { # NAME CONFIG
  (cd "$work" && "$rigor" run "$2" -o "results/$1.jsonl" --force --quiet --no-report)
}
# Runs a rigor command that writes a page; exit 4 (something slower) is what a page may show.
page() { # RIGOR ARGS...
  rc=0
  (cd "$work" && "$rigor" "$@") || rc=$?
  [ "$rc" -eq 0 ] || [ "$rc" -eq 4 ] || { echo "report-screenshots: rigor $* exited $rc" >&2; exit 1; }
}
shot() { # NAME HEIGHT
  chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1400,"$2" \
    --screenshot="$root/docs/img/$1.png" "file://$work/$1.html" >/dev/null 2>&1
  echo "docs/img/$1.png"
}

i=1
while [ "$i" -le "$runs" ]; do
  measure "stream-threads-$i" docs/reports/stream-threads.yaml
  (cd "$work" && "$rigor" store add "results/stream-threads-$i.jsonl" --db history.db \
    --commit "run$i" --date "2026-01-0${i}T12:00:00Z" --quiet)
  i=$((i + 1))
done
measure size-sweep docs/reports/size-sweep.yaml

page report --format html -o report-stream-threads.html results/stream-threads-1.jsonl
shot report-stream-threads 1600
# A guest whose memory balloons reports its NUMA node at another size from one run to the next,
# which makes every row incomparable; the picture is of the verdicts.
page compare --format html -o compare-stream-threads.html --ignore-identity identity.numa \
  results/stream-threads-1.jsonl results/stream-threads-2.jsonl
shot compare-stream-threads 1400
page compare --format html -o contrasts-stream-threads.html results/stream-threads-1.jsonl \
  --axis threads
shot contrasts-stream-threads 1200
page history --db history.db --format html -o history-stream-threads.html
shot history-stream-threads 1600
page report --format html -o report-size-sweep.html results/size-sweep.jsonl
shot report-size-sweep 1250
