# Sourced by server/tests/postgres.sh and bench/load.sh: starts a throwaway PostgreSQL cluster
# (Debian's postgresql, installed with apt-get only when initdb is missing) in a temporary
# directory, as an unprivileged user, on a free port with its socket in that directory; sets
# KASSEN_PG_URL; removes it all on exit.

find_initdb() { ls /usr/lib/postgresql/*/bin/initdb 2>/dev/null | sort -V | tail -n 1; }
INITDB=$(find_initdb || true)
if [ -z "$INITDB" ]; then
    echo "installing postgresql with apt-get" >&2
    SUDO=(); [ "$(id -u)" = 0 ] || SUDO=(sudo)
    "${SUDO[@]}" apt-get update -qq
    DEBIAN_FRONTEND=noninteractive "${SUDO[@]}" apt-get install -y -qq postgresql >/dev/null
    INITDB=$(find_initdb)
fi
PG_BIN=$(dirname "$INITDB")
PG_TMP=$(mktemp -d /tmp/kassen-pg.XXXXXX)
PG_AS=()
if [ "$(id -u)" = 0 ]; then
    # PostgreSQL refuses to run as root.
    chown nobody "$PG_TMP"
    PG_AS=(runuser -u nobody --)
fi
PG_PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
pg_cleanup() {
    (cd "$PG_TMP" && "${PG_AS[@]}" "$PG_BIN/pg_ctl" -D "$PG_TMP/data" -m immediate stop >/dev/null 2>&1) || true
    rm -rf "$PG_TMP"
}
trap pg_cleanup EXIT
(cd "$PG_TMP" && "${PG_AS[@]}" "$PG_BIN/initdb" -D "$PG_TMP/data" -U kassen --auth=trust -E UTF8 >/dev/null)
(cd "$PG_TMP" && "${PG_AS[@]}" "$PG_BIN/pg_ctl" -D "$PG_TMP/data" -l "$PG_TMP/log" -w \
    -o "-p $PG_PORT -k $PG_TMP -c listen_addresses=127.0.0.1 -c max_connections=400" start >/dev/null)
export KASSEN_PG_URL="postgres://kassen@127.0.0.1:$PG_PORT/postgres"
