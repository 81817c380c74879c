#!/usr/bin/env bash
# Starts (or stops) a throwaway PostgreSQL 15 on 127.0.0.1:${PGPORT:-55432} for the integration
# tests (ARCHITECTURE §3). Usage: scripts/pg-throwaway.sh start|stop. Prints the DATABASE_URL.
set -euo pipefail
PGPORT="${PGPORT:-55432}"
PGROOT="${PGROOT:-/tmp/radflow-pg-$PGPORT}"
PGDATA="$PGROOT/data"
BIN=/usr/lib/postgresql/15/bin
case "${1:-start}" in
  start)
    if "$BIN/pg_isready" -q -h 127.0.0.1 -p "$PGPORT"; then
      echo "postgres://postgres@127.0.0.1:$PGPORT/postgres"; exit 0
    fi
    rm -rf "$PGROOT"
    install -d -o postgres -g postgres "$PGROOT" "$PGDATA"
    runuser -u postgres -- "$BIN/initdb" -D "$PGDATA" -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 >/dev/null
    runuser -u postgres -- "$BIN/pg_ctl" -D "$PGDATA" \
      -o "-p $PGPORT -k /tmp -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off" \
      -l "$PGROOT/pg.log" -w start >/dev/null
    echo "postgres://postgres@127.0.0.1:$PGPORT/postgres"
    ;;
  stop)
    if [ -d "$PGDATA" ]; then runuser -u postgres -- "$BIN/pg_ctl" -D "$PGDATA" -m fast -w stop >/dev/null || true; fi
    ;;
  *) echo "usage: $0 start|stop" >&2; exit 2 ;;
esac
