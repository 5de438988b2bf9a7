#!/usr/bin/env bash
# Import speed of `rigor store add`, SQLite against PostgreSQL side by side: one synthetic
# results file of SAMPLES samples (runs of 100 cycles), imported into a fresh store of each kind,
# alternating, REPEAT times; prints samples per second per import and the median of each.
# PostgreSQL runs a throwaway cluster on a Unix socket with fsync on, as SQLite syncs its commit.
# Usage: bench/history/import_speed.sh [BUILD_DIR] [SAMPLES] [REPEAT]
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
build="${1:-$root/build}"
samples="${2:-100000}"
repeat="${3:-5}"
rigor="$build/bin/rigor"
work="$(mktemp -d)"
pg_state="$work/pg"
RIGOR_PG_DURABLE=1 "$root/tests/history/pg_cluster.sh" start "$pg_state" >/dev/null
trap '"$root/tests/history/pg_cluster.sh" stop "$pg_state"; rm -rf "$work"' EXIT
[ -f "$pg_state/url" ] || { cat "$pg_state/missing" >&2; exit 1; }
admin="$(cat "$pg_state/url")"
python3 - "$work/big.jsonl" "$samples" <<'PY'
import json, random, sys
path, n = sys.argv[1], int(sys.argv[2])
cycles = 100
runs = max(1, n // cycles)
rnd = random.Random(1)
with open(path, "w") as f:
    f.write(json.dumps({"schema": "rigor.result/1", "type": "experiment", "experiment": "big",
                        "name": "big", "hash": "b" * 64, "created": "2024-01-01T00:00:00.000Z",
                        "config": {"gate": {"cv_max": 0.05}}, "variants": [], "schedule": {},
                        "plugin": {"name": "null"}, "identity": {}}) + "\n")
    for r in range(runs):
        for c in range(cycles):
            t = 1e-3 * (1 + 0.01 * rnd.gauss(0, 1))
            f.write(json.dumps({"schema": "rigor.result/1", "type": "sample", "experiment": "big",
                                "run": r, "attempt": 1, "variant": 0, "cycle": c, "point": 0,
                                "point_label": "bytes=1048576", "point_params": {"bytes": 1048576},
                                "status": "ok", "window": "wall", "time_s": t, "wall_s": t,
                                "cputime_s": t, "iters": 20, "agg": 1, "bytes": 1048576,
                                "flops": 0, "bus_factor": 1,
                                "rates": {"bytes_per_s": 1048576 / t, "flops_per_s": None,
                                          "busbw_bytes_per_s": 1048576 / t},
                                "check": {"checked": 1, "wrong": 0}}) + "\n")
        f.write(json.dumps({"schema": "rigor.result/1", "type": "run", "experiment": "big",
                            "run": r, "attempt": 1, "block": r, "position": 0, "variant": 0,
                            "label": "v0", "status": "ok", "reason": None,
                            "start": "2024-01-01T00:00:%02d.000Z" % (r % 60), "end": "x",
                            "elapsed_s": 1.0}) + "\n")
PY
n=$(grep -c '"type": "sample"' "$work/big.jsonl")
echo "CPU: $(lscpu | sed -n 's/^Model name: *//p' | head -1), $(nproc) CPUs"
echo "file: $n samples, $(du -h "$work/big.jsonl" | cut -f1)"
now() { date +%s.%N; }
for k in $(seq 1 "$repeat"); do
  rm -f "$work/s.db"
  t0=$(now)
  "$rigor" store add "$work/big.jsonl" --db "$work/s.db" --commit x --quiet
  t1=$(now)
  db="rigor_import_$k"
  PGOPTIONS='-c client_min_messages=warning' psql -q "$admin" -c "DROP DATABASE IF EXISTS $db" \
    -c "CREATE DATABASE $db" >/dev/null
  url="${admin/\/postgres\?//$db?}"
  t2=$(now)
  "$rigor" store add "$work/big.jsonl" --db "$url" --commit x --quiet
  t3=$(now)
  echo "$k $t0 $t1 $t2 $t3"
done | python3 -c '
import statistics, sys
n = int(sys.argv[1])
s, p = [], []
for line in sys.stdin:
    k, t0, t1, t2, t3 = line.split()
    s.append(n / (float(t1) - float(t0)))
    p.append(n / (float(t3) - float(t2)))
    print("import %s: SQLite %.0f samples/s, PostgreSQL %.0f samples/s" % (k, s[-1], p[-1]))
ms, mp = statistics.median(s), statistics.median(p)
print("median: SQLite %.0f samples/s, PostgreSQL %.0f samples/s; SQLite / PostgreSQL %.2f"
      % (ms, mp, ms / mp))
' "$n"
