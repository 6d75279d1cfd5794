#!/usr/bin/env bash
# Plays a Samurai game on kassen-server between two browsers that joined by invite links,
# while a third watches as spectator (tests/browser/test_online.py): builds kassen-server
# (debug), which the test starts on a free 127.0.0.1 port with a temp SQLite file and this
# checkout's web/. Screenshots go to $CARGO_TARGET_DIR/browser-artifacts (default target/).
#
# Installs Debian's chromium and chromium-driver with apt-get when they are missing. The test
# needs only pytest: it uses the venv of python/tests/run.sh (KASSEN_VENV, default .venv) when
# that has pytest, otherwise a small venv of its own in $CARGO_TARGET_DIR/browser-venv.
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
ensure_chromium online.sh

if ! "$VENV/bin/python" -c "import pytest" >/dev/null 2>&1; then
    VENV="$TARGET/browser-venv"
    if ! "$VENV/bin/python" -c "import pytest" >/dev/null 2>&1; then
        echo "browser/online.sh: creating $VENV with pytest"
        python3 -m venv "$VENV"
        "$VENV/bin/python" -m pip install -q --disable-pip-version-check pytest
    fi
fi

# The packages `make test` builds (KASSEN_RUST_PACKAGES, default: tests/rust-packages), with
# their tests: after `make test-rust` nothing compiles again.
echo "browser/online.sh: building kassen-server"
read -r -a packages <<<"${KASSEN_RUST_PACKAGES:-$(cat "$ROOT/tests/rust-packages")}"
(cd "$ROOT" && "${CARGO:-cargo}" build -q "${packages[@]}" --bins --tests)

export KASSEN_SERVER_BIN="$TARGET/debug/kassen-server"
export KASSEN_WEB="$ROOT/web"
run_pytest online.sh test_online.py "$@"
