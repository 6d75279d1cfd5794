#!/usr/bin/env bash
# Builds the kassen wheel (debug profile), installs it into .venv at the repository root and
# runs the pytest suite against the installed package (stub check included).
# Works from a clean checkout; exits non-zero on any failure, including "no tests ran".
# KASSEN_VENV overrides the virtualenv, CARGO_TARGET_DIR the build directory, KASSEN_EXTRA_PIP
# names more packages to install (`make test-ray`: ray). Arguments go to pytest.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"

VENV="${KASSEN_VENV:-$ROOT/.venv}"
TARGET="${CARGO_TARGET_DIR:-$ROOT/target}"
if [ ! -x "$VENV/bin/python" ]; then
    echo "run.sh: creating $VENV"
    python3 -m venv "$VENV"
fi
PY="$VENV/bin/python"
# open_spiel: a manylinux wheel (about 16 MB) for the OpenSpiel adapter tests.
"$PY" -m pip install -q --disable-pip-version-check maturin pytest numpy mypy gymnasium pettingzoo hypothesis open_spiel \
    ${KASSEN_EXTRA_PIP:-}

WHEELS="$TARGET/wheels/python-debug"
rm -rf "$WHEELS"
echo "run.sh: building the debug wheel"
"$VENV/bin/maturin" build --quiet -m python/Cargo.toml --target-dir "$TARGET" \
    --interpreter "$PY" --out "$WHEELS"
shopt -s nullglob
wheels=("$WHEELS"/kassen-*.whl)
if [ "${#wheels[@]}" -ne 1 ]; then
    echo "run.sh: expected one wheel in $WHEELS, found ${#wheels[@]}" >&2
    exit 1
fi
"$PY" -m pip install -q --disable-pip-version-check --force-reinstall --no-deps "${wheels[0]}"

# Run from outside python/ so `import kassen` finds the installed package, not py_src/.
cd "$ROOT/python/tests"
set +e
# Without paths among the arguments pytest collects this directory.
"$PY" -m pytest -q -p no:cacheprovider "$@"
status=$?
set -e
if [ "$status" -eq 5 ]; then
    echo "run.sh: pytest collected no tests" >&2
    exit 1
fi
exit "$status"
