#!/usr/bin/env bash
# A real history: 30 "commits" of bench/history/stream.yaml on this machine, the last ten with 5%
# more elements (a planted 5% slowdown from commit 20), imported into SQLite and into a
# throwaway PostgreSQL cluster; prints what `rigor history` finds in each, and the gate's verdict
# at commits 19, 20 and 29. Usage: bench/history/stream_history.sh [BUILD_DIR] [WORK_DIR]
# On a shared machine, QUIET_LOAD=1.0 waits before each commit until the 1-minute load average is
# below 1.0 (at most QUIET_WAIT seconds, default 600), as a nightly job runs when the host is idle.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
build="${1:-$root/build}"
work="${2:-$(mktemp -d)}"
rigor="$build/bin/rigor"
mkdir -p "$work"
pg_state="$work/pg"
"$root/tests/history/pg_cluster.sh" start "$pg_state" >/dev/null
trap '"$root/tests/history/pg_cluster.sh" stop "$pg_state"' EXIT
[ -f "$pg_state/url" ] || { cat "$pg_state/missing" >&2; exit 1; }
pg="$(cat "$pg_state/url")"
sqlite="$work/history.db"
rm -f "$sqlite"
echo "CPU: $(lscpu | sed -n 's/^Model name: *//p' | head -1), $(nproc) CPUs"
quiet() {
  [ -n "${QUIET_LOAD:-}" ] || return 0
  local waited=0
  while awk -v max="$QUIET_LOAD" '{ exit !($1 >= max) }' /proc/loadavg &&
    [ "$waited" -lt "${QUIET_WAIT:-600}" ]; do
    sleep 5
    waited=$((waited + 5))
  done
  echo "$1: load $(cut -d' ' -f1 /proc/loadavg) after waiting ${waited} s"
}
for i in $(seq 0 29); do
  c=$(printf 'c%02d' "$i")
  quiet "$c"
  elements=4194304
  [ "$i" -ge 20 ] && elements=4404019 # 4194304 x 1.05
  sed "s/elements: 4194304/elements: $elements/" "$root/bench/history/stream.yaml" >"$work/$c.yaml"
  rm -f "$work/$c.jsonl"
  "$rigor" run "$work/$c.yaml" -o "$work/$c.jsonl" --quiet --no-report
  date=$(printf '2024-01-01T00:%02d:00Z' "$i")
  "$rigor" store add "$work/$c.jsonl" --db "$sqlite" --commit "$c" --date "$date" --quiet
  "$rigor" store add "$work/$c.jsonl" --db "$pg" --commit "$c" --date "$date" --quiet
done
for db in "$sqlite" "$pg"; do
  case $db in postgresql*) name=PostgreSQL ;; *) name=SQLite ;; esac
  echo "== $name"
  "$rigor" history --db "$db" --series time
  "$rigor" history --db "$db" --format json -o "$work/$name.json"
  "$rigor" history --db "$db" --format html -o "$work/$name.html"
  for c in c19 c20 c29; do
    set +e
    "$rigor" history check --db "$db" --commit "$c"
    echo "exit $?"
    set -e
  done
done
python3 - "$work/SQLite.json" "$work/PostgreSQL.json" <<'PY'
import json, sys
docs = [json.load(open(p)) for p in sys.argv[1:]]
def cps(doc):
    return [(s["name"], c["commit"], round(c["change"], 6), c["p"])
            for s in doc["series"] for c in s["change_points"]]
a, b = cps(docs[0]), cps(docs[1])
print("change points, SQLite:", a)
print("change points, PostgreSQL:", b)
print("the same in both:", a == b)
PY
echo "results and reports in $work"
