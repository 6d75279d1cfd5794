#!/usr/bin/env bash
# `make train-example`: a virtualenv with torch, stable-baselines3 and sb3-contrib (PyPI's
# Linux torch is the CUDA build, several GB: kept out of `make test`), a release wheel of
# kassen, SB3's check_env on every config, then examples/python/train_maskable_ppo.py "$@".
# KASSEN_TRAIN_VENV overrides the virtualenv (default .venv-train), CARGO_TARGET_DIR the build.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
VENV="${KASSEN_TRAIN_VENV:-$ROOT/.venv-train}"
TARGET="${CARGO_TARGET_DIR:-$ROOT/target}"
if [ ! -x "$VENV/bin/python" ]; then
    python3 -m venv "$VENV"
fi
PY="$VENV/bin/python"
"$PY" -m pip install -q --disable-pip-version-check maturin numpy gymnasium stable-baselines3 sb3-contrib torch
WHEELS="$TARGET/wheels/train-example"
rm -rf "$WHEELS"
"$VENV/bin/maturin" build --quiet --release -m python/Cargo.toml --target-dir "$TARGET" --interpreter "$PY" --out "$WHEELS"
"$PY" -m pip install -q --disable-pip-version-check --force-reinstall --no-deps "$WHEELS"/kassen-*.whl
cd "$ROOT/examples/python"
"$PY" check_sb3_env.py
"$PY" train_maskable_ppo.py "$@"
