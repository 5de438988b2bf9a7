#!/usr/bin/env bash
# Harness overhead: ns per measured-loop iteration (batch) and ms per isolated run. The loop is
# timed over the null plugin and over the empty one (run() returns at once), and call_floor takes
# the loop apart outside rigor: the loop alone, the call of an empty run, the null plugin's body.
# Usage: bench/harness/run.sh [BUILD_DIR]
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
build="${1:-$root/build}"
rigor="$build/bin/rigor"
plugins="$build/tests/plugins"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
cd "$out"
"$rigor" run "$root/bench/harness/loop.yaml" --plugin-path "$plugins" -o loop.jsonl --quiet
"$rigor" run "$root/bench/harness/loop_empty.yaml" --plugin-path "$plugins" -o empty.jsonl --quiet
start=$(date +%s.%N)
"$rigor" run "$root/bench/harness/isolation.yaml" --plugin-path "$plugins" -o iso.jsonl --quiet
end=$(date +%s.%N)
python3 - "$start" "$end" <<'PY'
import json, statistics, sys
start, end = float(sys.argv[1]), float(sys.argv[2])
for name, path in (("null", "loop.jsonl"), ("empty", "empty.jsonl")):
    loop = [json.loads(l) for l in open(path)]
    times = [r["time_s"] for r in loop if r["type"] == "sample" and r["status"] == "ok"]
    print(f"measured loop, batch, {name} plugin: median {statistics.median(times)*1e9:.2f} ns per "
          f"iteration (min {min(times)*1e9:.2f}, max {max(times)*1e9:.2f}, n={len(times)}); "
          f"target <= 2 ns")
iso = [json.loads(l) for l in open("iso.jsonl")]
runs = [r for r in iso if r["type"] == "run"]
el = sorted(r["elapsed_s"] for r in runs)
print(f"isolated run: median {statistics.median(el)*1e3:.2f} ms per run as the parent saw it "
      f"(p95 {el[int(0.95*len(el))-1]*1e3:.2f} ms); whole command {(end-start)/len(runs)*1e3:.2f} ms "
      f"per run over {len(runs)} runs; target <= 5 ms")
PY
"$build/bench/harness/call_floor" "$plugins/empty.so" "$plugins/null.so"
