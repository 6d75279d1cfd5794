#!/usr/bin/env bash
# Load benchmark of kassen-server (docs/server.md): server/benches/load.rs against a release
# server, first on a SQLite file, then on a throwaway PostgreSQL cluster
# (server/tests/pg_cluster.sh). Figures in bench-results/load.json, a table on stdout.
#
# Environment (see server/benches/load.rs): KASSEN_LOAD_GAMES (1000), KASSEN_LOAD_BOT_GAMES
# (100), KASSEN_LOAD_SECONDS (60), KASSEN_LOAD_THINK_MS (1000), KASSEN_LOAD_IDLE_GAMES (1000).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
OUT=$ROOT/bench-results
mkdir -p "$OUT"
export KASSEN_LOAD_BOT_GAMES=${KASSEN_LOAD_BOT_GAMES:-100}
# Two thousand clients and their server side: file descriptors for both.
ulimit -n 65536 2>/dev/null || ulimit -n "$(ulimit -Hn)"

run() {
    KASSEN_LOAD_LABEL=$1 KASSEN_LOAD_DATABASE=$2 KASSEN_LOAD_OUT="$OUT/load-$1.json" \
        cargo bench -q -p kassen-server --bench load
}

DB_DIR=$(mktemp -d /tmp/kassen-load.XXXXXX)
echo "== kassen-server on SQLite"
run sqlite "sqlite://$DB_DIR/load.db"
rm -rf "$DB_DIR"

echo "== kassen-server on PostgreSQL"
source server/tests/pg_cluster.sh
run postgres "$KASSEN_PG_URL"

python3 - "$OUT" <<'PY'
import json, sys
out = sys.argv[1]
rows = [json.load(open(f"{out}/load-{db}.json")) for db in ("sqlite", "postgres")]
json.dump({"runs": rows, "goals": {"games": 1000, "clients": 2000, "ack_ms_p99": 50, "errors": 0, "lost_moves": 0,
           "kb_per_idle_game": 64}}, open(f"{out}/load.json", "w"), indent=1)
cols = [("database", "{}"), ("games", "{}"), ("connections_peak", "{}"), ("moves_per_s", "{:.0f}"),
        ("ack_ms_p50", "{:.1f}"), ("ack_ms_p99", "{:.1f}"), ("event_ms_p50", "{:.1f}"), ("event_ms_p99", "{:.1f}"),
        ("rss_kb_per_idle_game", "{:.1f}"), ("errors", "{}"), ("lost_moves", "{}")]
print()
print(" | ".join(c for c, _ in cols))
for r in rows:
    print(" | ".join(f.format(r[c]) for c, f in cols))
print(f"\nwritten: {out}/load.json")
PY
