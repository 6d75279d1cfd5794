#!/usr/bin/env bash
# Random-playout benchmarks of kassen through every surface, on one core:
#   Rust   core/benches/playouts.rs       -> bench-results/rust.json
#   Rust   core/benches/views.rs          -> bench-results/views.json (view and event JSON per call)
#   Rust   core/benches/text.rs           -> bench-results/text.json (text observations per decision)
#   C      bench/c/bench.c + libkassen.a  -> bench-results/c.json
#   Python python/bench/bench_python.py   -> bench-results/python.json (RELEASE wheel in .venv)
#   Python RL  python/bench/bench_rl.py   -> bench-results/python_rl.json (batch, vector env, both cores)
# then bench/summarize.py merges them into bench-results/summary.json and prints one table.
#
# Environment: KASSEN_BENCH_SECONDS (seconds per configuration, default 1), CC (default cc),
# KASSEN_VENV (default .venv), KASSEN_BENCH_PY_ARGS (extra arguments, e.g. --quick).
# The virtualenv is created or repaired (numpy, gymnasium, maturin) before the Python part. A
# surface that cannot be built here (no header yet, no script) is skipped with a message; the
# others still run.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
OUT=$ROOT/bench-results
TARGET=${CARGO_TARGET_DIR:-$ROOT/target}
VENV=${KASSEN_VENV:-.venv}
case "$VENV" in /*) ;; *) VENV=$ROOT/$VENV ;; esac
CC=${CC:-cc}
mkdir -p "$OUT"
rm -f "$OUT/rust.json" "$OUT/views.json" "$OUT/text.json" "$OUT/search.json" "$OUT/batch.json" "$OUT/c.json" "$OUT/python.json" "$OUT/python_rl.json" "$OUT/summary.json"

echo "== Rust: cargo bench -p kassen-core --bench playouts"
KASSEN_BENCH_OUT="$OUT/rust.json" cargo bench -p kassen-core --bench playouts

echo
echo "== Rust: cargo bench -p kassen-core --bench views (view_json and events_json per call)"
KASSEN_BENCH_VIEWS_OUT="$OUT/views.json" cargo bench -p kassen-core --bench views

echo
echo "== Rust: cargo bench -p kassen-core --bench batch (batched stepping, 1 and 2 threads)"
KASSEN_BENCH_BATCH_OUT="$OUT/batch.json" cargo bench -p kassen-core --bench batch

echo
echo "== Rust: cargo bench -p kassen-core --bench search (IS-MCTS iterations per second)"
KASSEN_BENCH_SEARCH_OUT="$OUT/search.json" cargo bench -p kassen-core --bench search

echo
echo "== Rust: cargo bench -p kassen-core --bench text (text observations: tokens and time per decision)"
KASSEN_BENCH_TEXT_OUT="$OUT/text.json" cargo bench -p kassen-core --bench text

echo
echo "== C: the C ABI (include/kassen.h, the release libkassen.a)"
if [ -f include/kassen.h ] && [ -f ffi/Cargo.toml ]; then
    cargo build --release -p kassen-ffi
    case "$(uname -s)" in
        Darwin) LIBS="-lSystem" ;;
        *) LIBS="-lpthread -ldl -lm" ;;
    esac
    "$CC" -O2 -std=c11 -Wall -Wextra -pedantic -Iinclude bench/c/bench.c "$TARGET/release/libkassen.a" $LIBS \
        -o "$TARGET/release/kassen-bench-c"
    "$TARGET/release/kassen-bench-c" >"$OUT/c.json"
else
    echo "SKIPPED: include/kassen.h is not on this branch yet (it comes with the ffi crate)"
fi

echo
echo "== Python: python/bench/bench_python.py with a release wheel"
# The virtualenv is created if missing and repaired if a package the benchmarks need (numpy,
# gymnasium for the vector env, maturin for the wheel) is missing, e.g. in one made by
# `make wheel`.
if [ ! -f python/bench/bench_python.py ]; then
    echo "SKIPPED: python/bench/bench_python.py is not on this branch yet"
else
    if [ ! -x "$VENV/bin/python" ]; then
        echo "creating the virtualenv $VENV"
        python3 -m venv "$VENV"
    fi
    if ! "$VENV/bin/python" -c "import numpy, gymnasium" 2>/dev/null || [ ! -x "$VENV/bin/maturin" ]; then
        echo "installing numpy, gymnasium and maturin into $VENV"
        "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check numpy gymnasium maturin
    fi
    WHEELS=$TARGET/wheels/bench
    rm -rf "$WHEELS"
    "$VENV/bin/maturin" build --quiet --release -m python/Cargo.toml --target-dir "$TARGET" \
        --interpreter "$VENV/bin/python" --out "$WHEELS"
    shopt -s nullglob
    wheels=("$WHEELS"/kassen-*.whl)
    if [ "${#wheels[@]}" -ne 1 ]; then
        echo "expected one wheel in $WHEELS, found ${#wheels[@]}" >&2
        exit 1
    fi
    "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check --force-reinstall --no-deps "${wheels[0]}"
    # shellcheck disable=SC2086
    "$VENV/bin/python" python/bench/bench_python.py "$OUT/python.json" ${KASSEN_BENCH_PY_ARGS:-}
    echo
    echo "== Python RL: python/bench/bench_rl.py (every core)"
    "$VENV/bin/python" python/bench/bench_rl.py "$OUT/python_rl.json"
fi

echo
echo "== Summary"
python3 bench/summarize.py "$OUT"
