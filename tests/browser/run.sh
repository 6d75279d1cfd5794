#!/usr/bin/env bash
# Plays a whole game of every registered game by clicking in headless Chromium on the
# kassen.play page (tests/browser/test_play.py), checking that no hidden information reaches
# the page; screenshots go to $CARGO_TARGET_DIR/browser-artifacts (default target/).
#
# Installs Debian's chromium and chromium-driver with apt-get when they are missing. Needs the
# kassen wheel installed in the venv (KASSEN_VENV, default .venv) by python/tests/run.sh,
# which `make test` runs first; if kassen is not importable there, that script is run.
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
ensure_chromium run.sh

if ! "$VENV/bin/python" -c "import kassen.play" >/dev/null 2>&1; then
    echo "browser/run.sh: kassen is not installed in $VENV; building it"
    KASSEN_VENV="$VENV" bash "$ROOT/python/tests/run.sh" test_render.py
fi

# One pytest-xdist worker (its own Chromium) per core: the games wait on the page more than
# they compute (256 s on one worker, 110 s on two on a 2-core machine). The workers' metrics
# are merged into browser-metrics.json when they are done (conftest.py).
"$VENV/bin/python" -c "import xdist" >/dev/null 2>&1 ||
    "$VENV/bin/python" -m pip install -q --disable-pip-version-check pytest-xdist
run_pytest run.sh test_play.py -n "${KASSEN_PYTEST_WORKERS:-auto}" "$@"
