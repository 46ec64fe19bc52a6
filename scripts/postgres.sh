#!/usr/bin/env bash
# A throwaway PostgreSQL server on loopback for dsh's tests, when DATABASE_URL names none.
#
#   source scripts/postgres.sh          → exports DATABASE_URL (+ DSH_REQUIRE_POSTGRES=1); the server
#                                         stops when the sourcing shell exits
#   bash scripts/postgres.sh CMD ARGS…  → runs CMD with DATABASE_URL set, then stops the server
#
# With DATABASE_URL already set it does nothing but run CMD. Otherwise: installs Debian's `postgresql`
# with apt when its binaries are missing, runs initdb + pg_ctl (as the `postgres` user when run as root)
# in a fresh temp dir listening on 127.0.0.1 only, creates the database `dsh_test` and exports its URL.

dsh_postgres_bindir() {
  local dir
  for dir in "$(pg_config --bindir 2>/dev/null || true)" /usr/lib/postgresql/*/bin; do
    if [ -n "$dir" ] && [ -x "$dir/pg_ctl" ] && [ -x "$dir/initdb" ]; then echo "$dir"; return 0; fi
  done
  return 1
}

dsh_postgres_install() {
  echo "› installing postgresql (apt)" >&2
  local sudo=""; [ "$(id -u)" = 0 ] || sudo="sudo"
  $sudo apt-get update -qq >/dev/null
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends postgresql >/dev/null
}

# Runs a server binary as `postgres` when we are root (initdb and postgres refuse to run as root).
dsh_postgres_as_owner() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

dsh_postgres_stop() {
  if [ -n "${DSH_POSTGRES_DIR:-}" ] && [ -d "$DSH_POSTGRES_DIR/data" ]; then
    dsh_postgres_as_owner "$DSH_POSTGRES_BIN/pg_ctl" -D "$DSH_POSTGRES_DIR/data" -m fast -w stop >/dev/null 2>&1 || true
    rm -rf "$DSH_POSTGRES_DIR"
  fi
  unset DSH_POSTGRES_DIR
}

dsh_postgres_start() {
  if [ -n "${DATABASE_URL:-}" ]; then return 0; fi
  DSH_POSTGRES_BIN="$(dsh_postgres_bindir)" || { dsh_postgres_install && DSH_POSTGRES_BIN="$(dsh_postgres_bindir)"; } || {
    echo "postgres.sh: no PostgreSQL binaries (initdb, pg_ctl) after installing postgresql" >&2
    return 1
  }
  DSH_POSTGRES_DIR="$(mktemp -d "${TMPDIR:-/tmp}/dsh-postgres.XXXXXX")"
  chmod 755 "$DSH_POSTGRES_DIR"
  if [ "$(id -u)" = 0 ]; then chown postgres: "$DSH_POSTGRES_DIR"; fi
  local port
  port="$(node -e "const s=require('node:net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")"
  echo "› postgresql on 127.0.0.1:$port ($DSH_POSTGRES_DIR)" >&2
  dsh_postgres_as_owner "$DSH_POSTGRES_BIN/initdb" -D "$DSH_POSTGRES_DIR/data" -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 >"$DSH_POSTGRES_DIR/initdb.log" 2>&1 &&
    dsh_postgres_as_owner "$DSH_POSTGRES_BIN/pg_ctl" -D "$DSH_POSTGRES_DIR/data" -l "$DSH_POSTGRES_DIR/log" -w \
      -o "-c listen_addresses=127.0.0.1 -p $port -k $DSH_POSTGRES_DIR -c max_connections=300 -c fsync=on" start >/dev/null &&
    "$DSH_POSTGRES_BIN/psql" -q -h 127.0.0.1 -p "$port" -U postgres -d postgres -c 'CREATE DATABASE dsh_test' >/dev/null || {
    echo "postgres.sh: could not start PostgreSQL; its logs:" >&2
    cat "$DSH_POSTGRES_DIR/initdb.log" "$DSH_POSTGRES_DIR/log" >&2 2>/dev/null || true
    dsh_postgres_stop
    return 1
  }
  export DATABASE_URL="postgres://postgres@127.0.0.1:$port/dsh_test"
  # A server was started for these tests: the PostgreSQL tests must run, not skip.
  export DSH_REQUIRE_POSTGRES=1
  export DSH_POSTGRES_DIR DSH_POSTGRES_BIN
}

if [ "${BASH_SOURCE[0]}" != "$0" ]; then
  # Sourced: start (if needed) and stop when the sourcing shell exits.
  if [ -z "${DATABASE_URL:-}" ]; then
    dsh_postgres_start || return 1
    # Keep any EXIT trap the sourcing script already set.
    dsh_postgres_previous_trap="$(trap -p EXIT | sed -E "s/^trap -- '(.*)' EXIT$/\1/")"
    trap "dsh_postgres_stop; ${dsh_postgres_previous_trap}" EXIT
  fi
else
  set -euo pipefail
  if [ "$#" = 0 ]; then echo "usage: source scripts/postgres.sh | bash scripts/postgres.sh CMD [ARGS…]" >&2; exit 2; fi
  dsh_postgres_start
  trap dsh_postgres_stop EXIT
  "$@"
fi
