#!/usr/bin/env bash
# Peak memory of `rigor store add` against `rigor report` on the same synthetic results file
# (about MB megabytes: one experiment, runs of 100 cycles), each run REPEAT times, as peak
# resident set size from /usr/bin/time -v. store add goes into a fresh SQLite store each time.
# Prints the file size, the load average and the CPU with the figures.
# Usage: bench/history/store_memory.sh [BUILD_DIR] [MB] [REPEAT]
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
build="${1:-$root/build}"
mb="${2:-50}"
repeat="${3:-3}"
rigor="$build/bin/rigor"
[ -x /usr/bin/time ] || { echo "store_memory.sh: /usr/bin/time (GNU time) is needed" >&2; exit 1; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
python3 - "$work/big.jsonl" "$mb" <<'PY'
import json, random, sys
path, limit = sys.argv[1], int(sys.argv[2]) * 1000 * 1000
rnd = random.Random(7)
head = {"schema": "rigor.result/1", "type": "experiment", "experiment": "mem", "name": "mem",
        "hash": "m" * 64, "created": "2024-01-01T00:00:00.000Z",
        "config": {"gate": {"cv_max": 0.05}}, "variants": [], "schedule": {},
        "plugin": {"name": "null"}, "identity": {}}
size = 0
with open(path, "w") as f:
    size += f.write(json.dumps(head) + "\n")
    r = 0
    while size < limit:
        for c in range(100):
            t = 2e-3 * (1 + 0.01 * rnd.gauss(0, 1))
            size += f.write(json.dumps({
                "schema": "rigor.result/1", "type": "sample", "experiment": "mem", "run": r,
                "attempt": 1, "variant": 0, "cycle": c, "point": 0,
                "point_label": "bytes=4194304", "point_params": {"bytes": 4194304},
                "status": "ok", "window": "wall", "time_s": t, "wall_s": t, "cputime_s": t,
                "iters": 20, "agg": 1, "bytes": 4194304, "rates": {"bytes_per_s": 4194304 / t},
                "check": {"checked": 1, "wrong": 0}}) + "\n")
        size += f.write(json.dumps({
            "schema": "rigor.result/1", "type": "run", "experiment": "mem", "run": r,
            "attempt": 1, "block": r, "position": 0, "variant": 0, "label": "v0",
            "status": "ok", "reason": None, "start": "2024-01-01T00:00:00.000Z",
            "end": "2024-01-01T00:00:01.000Z", "elapsed_s": 1.0}) + "\n")
        r += 1
PY
echo "CPU: $(lscpu | sed -n 's/^Model name: *//p' | head -1), $(nproc) CPUs"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "file: $(grep -c '"type": "sample"' "$work/big.jsonl") samples, $(du -h "$work/big.jsonl" | cut -f1)"
peak() { # command... -> "PEAK_KB SECONDS"
  /usr/bin/time -v "$@" >/dev/null 2>"$work/time.txt" || {
    echo "store_memory.sh: failed: $*" >&2
    sed -n '1,5p' "$work/time.txt" >&2
    exit 1
  }
  awk -F': ' '/Maximum resident set size/ {kb = $2} /Elapsed \(wall clock\)/ {w = $2}
              END {print kb, w}' "$work/time.txt"
}
for k in $(seq 1 "$repeat"); do
  rm -f "$work/s.db"
  read -r skb sw < <(peak "$rigor" store add "$work/big.jsonl" --db "$work/s.db" --commit x --quiet)
  read -r rkb rw < <(peak "$rigor" report "$work/big.jsonl")
  printf 'round %s: store add %6.1f MiB (%s), report %6.1f MiB (%s), store add / report %.1f\n' \
    "$k" "$(echo "$skb / 1024" | bc -l)" "$sw" "$(echo "$rkb / 1024" | bc -l)" "$rw" \
    "$(echo "$skb / $rkb" | bc -l)"
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
