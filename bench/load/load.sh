#!/usr/bin/env bash
# 10,000 short runs of the null plugin: every run must be recorded, and the rigor parent's
# resident size must stay flat. Prints VmRSS near the start and at the end, and the duration.
# usage: bench/load/load.sh [BUILD_DIR]   (a built tree; defaults to build)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/rigor-load.XXXXXX")
trap 'rm -rf "$work"' EXIT
cp "$root/bench/load/load.yaml" "$work/"
cd "$work"
start=$(date +%s.%N)
"$build/bin/rigor" run load.yaml --plugin-path "$build/tests/plugins" --quiet --no-report &
pid=$!
rss() { sed -n 's/^VmRSS:[[:space:]]*//p' "/proc/$pid/status" 2>/dev/null; }
first="" last=""
# Sample after the first runs are in (the experiment record and identity are built by then).
while kill -0 "$pid" 2>/dev/null; do
  now=$(rss)
  if [ -n "$now" ]; then
    if [ -z "$first" ] && [ -s load.jsonl ] && [ "$(grep -c '"type":"run"' load.jsonl)" -ge 10 ]; then
      first=$now
    fi
    last=$now
  fi
  sleep 0.5
done
wait "$pid"
end=$(date +%s.%N)
runs=$(grep -c '"type":"run"' load.jsonl)
ok=$(grep '"type":"run"' load.jsonl | grep -c '"status":"ok"' || true)
printf 'runs recorded %s (ok %s) of 10000\nparent VmRSS after 10 runs %s, at the end %s\nduration %.1f s\n' \
  "$runs" "$ok" "$first" "$last" "$(echo "$end - $start" | bc)"
[ "$runs" -eq 10000 ]
