#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for the store tests: initdb and pg_ctl in a temporary folder,
# listening on a Unix socket only (no TCP port), as the postgres user when run as root (the
# server refuses root). Usage: pg_cluster.sh start STATE_DIR | stop STATE_DIR
# start writes STATE_DIR/url (a libpq URI of the cluster's postgres database), or, where the
# server binaries are not installed, STATE_DIR/missing with the reason; the tests read them.
# The tests' cluster does not sync to disk; RIGOR_PG_DURABLE=1 keeps the server's defaults (the
# import speed benchmark uses it).
set -euo pipefail
action=${1:?start or stop}
state=${2:?state folder}
port=54329

bindir() {
  local d
  if command -v pg_config >/dev/null 2>&1; then
    d=$(pg_config --bindir)
    [ -x "$d/initdb" ] && { echo "$d"; return; }
  fi
  for d in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r); do
    [ -x "$d/initdb" ] && { echo "$d"; return; }
  done
  command -v initdb >/dev/null 2>&1 && dirname "$(command -v initdb)"
}

as_server() {
  if [ "$(id -u)" -eq 0 ]; then
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

stop() {
  [ -f "$state/dir" ] || return 0
  local dir bin
  dir=$(cat "$state/dir")
  bin=$(cat "$state/bin")
  if [ -d "$dir/data" ]; then
    as_server "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null 2>&1 || true
  fi
  rm -rf "$dir"
  rm -f "$state/dir" "$state/bin" "$state/url"
}

case "$action" in
start)
  mkdir -p "$state"
  stop
  rm -f "$state/missing"
  bin=$(bindir || true)
  if [ -z "$bin" ]; then
    echo "PostgreSQL server binaries (initdb, pg_ctl) are not installed: install Debian's" \
      "postgresql package (scripts/install-deps.sh --test)" >"$state/missing"
    cat "$state/missing"
    exit 0
  fi
  if [ "$(id -u)" -eq 0 ] && ! id postgres >/dev/null 2>&1; then
    echo "running as root and there is no postgres user to run the server as" >&2
    exit 1
  fi
  dir=$(mktemp -d /tmp/rigor-pg.XXXXXX)
  echo "$dir" >"$state/dir"
  echo "$bin" >"$state/bin"
  [ "$(id -u)" -eq 0 ] && chown postgres "$dir"
  chmod 755 "$dir"
  if ! as_server "$bin/initdb" -D "$dir/data" -U postgres -A trust -E UTF8 --locale=C --no-sync \
    >"$dir/initdb.log" 2>&1; then
    cat "$dir/initdb.log" >&2
    exit 1
  fi
  options="-c listen_addresses='' -k $dir -p $port"
  [ "${RIGOR_PG_DURABLE:-0}" = 1 ] || options+=" -c fsync=off -c full_page_writes=off"
  if ! as_server "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 -o "$options" \
    start >/dev/null; then
    cat "$dir/server.log" >&2
    exit 1
  fi
  echo "postgresql:///postgres?host=$dir&port=$port&user=postgres" >"$state/url"
  echo "PostgreSQL $("$bin/postgres" --version | awk '{print $3}') on $dir (socket, port $port)"
  ;;
stop)
  stop
  ;;
*)
  echo "usage: $0 start|stop STATE_DIR" >&2
  exit 2
  ;;
esac
