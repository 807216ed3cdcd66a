#!/usr/bin/env bash
# A throwaway PostgreSQL 15 server for tests and the local cluster (issue 12).
#
#   .ci/postgres.sh start DIR [PORT]   initdb into DIR/data, start on 127.0.0.1:PORT (default
#                                      25432), print the server's URL on stdout
#   .ci/postgres.sh stop DIR           stop it (fast shutdown) and remove DIR
#
# Debian's `postgresql` package (installed when missing); PostgreSQL refuses to run as root,
# so initdb and pg_ctl run as the `postgres` user. Trust authentication on loopback only:
# the server listens on 127.0.0.1 and a Unix socket inside DIR, nowhere else.
# PG_FSYNC=on for a server whose data should survive a crash (tests need not).
# Callers stop it by trap, e.g.  trap '.ci/postgres.sh stop "$dir"' EXIT
set -euo pipefail

PG_BIN=${PG_BIN:-/usr/lib/postgresql/15/bin}
cmd=${1:?usage: postgres.sh start|stop DIR [PORT]}
dir=${2:?usage: postgres.sh start|stop DIR [PORT]}
dir=$(realpath -m -- "$dir")
# Below Linux's ephemeral range (32768-60999), so no client socket can hold the port.
port=${3:-25432}

as_postgres() {
  if [ "$(id -u)" = 0 ]; then
    # From the cluster's folder: the postgres user may not enter the caller's working folder
    # (initdb and pg_ctl would warn "could not change directory").
    (cd "$dir" && runuser -u postgres -- "$@")
  else
    "$@"
  fi
}

case "$cmd" in
  start)
    if [ ! -x "$PG_BIN/initdb" ]; then
      echo "postgres.sh: installing postgresql" >&2
      apt-get update -qq >&2
      DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
    fi
    mkdir -p "$dir"
    if [ "$(id -u)" = 0 ]; then chown postgres: "$dir"; fi
    # C collation: text orders by bytes, as in SQLite (RFC 3339 stamps, ORDER BY name).
    as_postgres "$PG_BIN/initdb" -D "$dir/data" -U postgres --auth=trust -E UTF8 --locale=C >"$dir/initdb.log" 2>&1 \
      || { cat "$dir/initdb.log" >&2; exit 1; }
    as_postgres "$PG_BIN/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 30 \
      -o "-c listen_addresses=127.0.0.1 -p $port -k $dir -c max_connections=300 -c fsync=${PG_FSYNC:-off}" start >&2 \
      || { cat "$dir/server.log" >&2; exit 1; }
    echo "postgres://postgres@127.0.0.1:$port/postgres"
    ;;
  stop)
    if [ -f "$dir/data/postmaster.pid" ]; then
      as_postgres "$PG_BIN/pg_ctl" -D "$dir/data" -m fast -w -t 30 stop >&2 || true
    fi
    rm -rf "$dir"
    ;;
  *)
    echo "usage: postgres.sh start|stop DIR [PORT]" >&2
    exit 2
    ;;
esac
