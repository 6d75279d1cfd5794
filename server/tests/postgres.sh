#!/usr/bin/env bash
# The server's integration tests against a real PostgreSQL: a throwaway cluster
# (server/tests/pg_cluster.sh), the whole suite on it, the PostgreSQL-only tests (two server
# processes on one database) included.
#
# The test programs come from a cargo build of the packages `make test` selects
# (KASSEN_RUST_PACKAGES, default: tests/rust-packages), so after `make test-rust` nothing
# compiles again; every program of the kassen-server package runs.
set -euo pipefail
cd "$(dirname "$0")/../.."
CARGO=${CARGO:-cargo}
read -r -a packages <<<"${KASSEN_RUST_PACKAGES:-$(cat tests/rust-packages)}"
mapfile -t programs < <("$CARGO" test "${packages[@]}" --no-run --message-format=json-render-diagnostics |
    python3 -c '
import json, sys
programs = set()
for line in sys.stdin:
    m = json.loads(line)
    if m.get("reason") == "compiler-artifact" and m.get("executable") and m["profile"]["test"] \
            and m["manifest_path"].endswith("/server/Cargo.toml"):
        programs.add(m["executable"])
print("\n".join(sorted(programs)))
')
if [ "${#programs[@]}" -eq 0 ]; then
    echo "postgres.sh: cargo built no test program of kassen-server" >&2
    exit 1
fi
source server/tests/pg_cluster.sh
for program in "${programs[@]}"; do
    echo "postgres.sh: $(basename "$program") on PostgreSQL"
    # From the package's directory, as `cargo test` runs them.
    (cd server && KASSEN_TEST_POSTGRES="$KASSEN_PG_URL" "$program" --include-ignored "$@")
done
