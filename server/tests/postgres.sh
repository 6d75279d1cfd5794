#!/usr/bin/env bash
# The server's integration tests against a real PostgreSQL: a throwaway cluster
# (server/tests/pg_cluster.sh), the whole suite on it, the PostgreSQL-only tests (two server
# processes on one database) included.
set -euo pipefail
cd "$(dirname "$0")/../.."
CARGO=${CARGO:-cargo}
source server/tests/pg_cluster.sh
KASSEN_TEST_POSTGRES="$KASSEN_PG_URL" "$CARGO" test -p kassen-server --tests -- --include-ignored "$@"
