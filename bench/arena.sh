#!/usr/bin/env bash
# `make arena`: the round robins of bench/arena.py with a release wheel and OpenSpiel in the
# venv (.venv, or KASSEN_VENV), every core. Arguments go to arena.py (--minutes, --games,
# --quick, --game ID, --out FILE). Writes bench-results/arena.json and prints the table.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
TARGET=${CARGO_TARGET_DIR:-$ROOT/target}
VENV=${KASSEN_VENV:-.venv}
case "$VENV" in /*) ;; *) VENV=$ROOT/$VENV ;; esac
[ -x "$VENV/bin/python" ] || python3 -m venv "$VENV"
"$VENV/bin/python" -m pip install -q --disable-pip-version-check maturin numpy open_spiel
WHEELS=$TARGET/wheels/arena
rm -rf "$WHEELS"
"$VENV/bin/maturin" build --quiet --release -m python/Cargo.toml --target-dir "$TARGET" \
    --interpreter "$VENV/bin/python" --out "$WHEELS"
"$VENV/bin/python" -m pip install --quiet --disable-pip-version-check --force-reinstall --no-deps "$WHEELS"/kassen-*.whl
mkdir -p bench-results
exec "$VENV/bin/python" bench/arena.py "$@"
