#!/usr/bin/env bash
# Builds the kassen wheel (debug profile; the same abi3 wheel kind users get, one wheel for
# every CPython >= 3.9), installs it into .venv at the repository root and runs the pytest
# suite against the installed package (stub check included). Then installs the same wheel into
# a second virtualenv of the oldest supported CPython (3.9, found on PATH or under pyenv) and
# runs there the part of the suite that depends on the interpreter and its packages (API,
# conversions and errors, pickling, the type stubs, the gymnasium/pettingzoo environments,
# README examples, golden replays); KASSEN_PYTHON2_TESTS=. runs all of it there too.
# Works from a clean checkout; exits non-zero on any failure, including "no tests ran".
# KASSEN_VENV overrides the virtualenv, KASSEN_VENV2 the second one (default .venv-py39),
# KASSEN_PYTHON2 the second interpreter, CARGO_TARGET_DIR the build directory, KASSEN_EXTRA_PIP
# names more packages to install (`make test-ray`: ray), KASSEN_PYTEST_WORKERS the number of
# pytest-xdist workers (default: one per core). Arguments go to pytest in both runs; without
# paths among them pytest collects this directory.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
# A relative KASSEN_VENV or KASSEN_VENV2 is the caller's (the script changes directory below).
CALLER="$PWD"
absolute() { case "$1" in /*) echo "$1" ;; *) echo "$CALLER/$1" ;; esac; }
VENV="$(absolute "${KASSEN_VENV:-$ROOT/.venv}")"
cd "$ROOT"

TARGET="${CARGO_TARGET_DIR:-$ROOT/target}"
if [ ! -x "$VENV/bin/python" ]; then
    echo "run.sh: creating $VENV"
    python3 -m venv "$VENV"
fi
PY="$VENV/bin/python"
# open_spiel: a manylinux wheel (about 16 MB) for the OpenSpiel adapter tests;
# resvg-py and pillow (about 8 MB): the rgb_array render mode. mcp and textarena (about 75-90 s on a
# clean venv, no torch): the MCP server and TextArena environment tests; both need CPython >= 3.10
# (on an older one those tests are skipped).
AGENT_PIP=""
if "$PY" -c 'import sys; sys.exit(sys.version_info < (3, 10))'; then AGENT_PIP="mcp textarena"; fi
"$PY" -m pip install -q --disable-pip-version-check maturin pytest pytest-xdist numpy mypy gymnasium pettingzoo hypothesis jsonschema open_spiel \
    resvg-py pillow $AGENT_PIP \
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
wheel="${wheels[0]}"
case "$(basename "$wheel")" in
    *-cp39-abi3-*) ;;
    *) echo "run.sh: $(basename "$wheel") is not an abi3 wheel for CPython >= 3.9" >&2; exit 1 ;;
esac
"$PY" -m pip install -q --disable-pip-version-check --force-reinstall --no-deps "$wheel"

# pytest-xdist's worker processes: one per core by default (the suite is a long tail of short
# tests, most of them on one core: 178 s on one worker, 94 s on two on a 2-core machine);
# KASSEN_PYTEST_WORKERS=0 runs every test in the pytest process itself.
WORKERS="${KASSEN_PYTEST_WORKERS:-auto}"

# Runs pytest with interpreter $1 from outside python/, so `import kassen` finds the installed
# package, not py_src/.
run_suite() {
    local py="$1"; shift
    echo "run.sh: pytest with $("$py" --version) in $(dirname "$(dirname "$py")")"
    local status=0
    (cd "$ROOT/python/tests" && "$py" -m pytest -q -p no:cacheprovider -n "$WORKERS" "$@") || status=$?
    if [ "$status" -eq 5 ]; then
        echo "run.sh: pytest collected no tests" >&2
        return 1
    fi
    return "$status"
}
run_suite "$PY" "$@"

# The same wheel on the oldest CPython it claims (abi3-py39).
PY2="${KASSEN_PYTHON2:-}"
if [ -z "$PY2" ]; then
    for candidate in python3.9 "$HOME"/.pyenv/versions/3.9*/bin/python3.9; do
        if "$candidate" --version >/dev/null 2>&1; then PY2="$candidate"; break; fi
    done
fi
if [ -z "$PY2" ]; then
    echo "run.sh: no CPython 3.9 found; the wheel was tested on $("$PY" --version) only" >&2
    exit 0
fi
VENV2="$(absolute "${KASSEN_VENV2:-$ROOT/.venv-py39}")"
if [ ! -x "$VENV2/bin/python" ]; then
    echo "run.sh: creating $VENV2 with $("$PY2" --version)"
    "$PY2" -m venv "$VENV2"
fi
"$VENV2/bin/python" -m pip install -q --disable-pip-version-check pytest pytest-xdist numpy mypy gymnasium pettingzoo hypothesis jsonschema
"$VENV2/bin/python" -m pip install -q --disable-pip-version-check --force-reinstall --no-deps "$wheel"
read -r -a second_tests <<<"${KASSEN_PYTHON2_TESTS:-test_api.py test_errors.py test_state.py test_stubs.py test_envs.py test_readme.py test_golden.py}"
run_suite "$VENV2/bin/python" "$@" "${second_tests[@]}"
