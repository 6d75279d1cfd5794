#!/usr/bin/env bash
# Plays a whole game of every registered game by clicking in headless Chromium on the
# kassen.play page (tests/browser/test_play.py), checking that no hidden information reaches
# the page; screenshots go to $CARGO_TARGET_DIR/browser-artifacts (default target/).
#
# Installs Debian's chromium and chromium-driver with apt-get when they are missing. Needs the
# kassen wheel installed in the venv (KASSEN_VENV, default .venv) by python/tests/run.sh,
# which `make test` runs first; if kassen is not importable there, that script is run.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
VENV="${KASSEN_VENV:-$ROOT/.venv}"
TARGET="${CARGO_TARGET_DIR:-$ROOT/target}"

if ! command -v chromium >/dev/null 2>&1 || ! command -v chromedriver >/dev/null 2>&1; then
    echo "browser/run.sh: installing chromium and chromium-driver"
    SUDO=""
    if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends \
        chromium chromium-driver fonts-noto-cjk >/dev/null
fi

if ! "$VENV/bin/python" -c "import kassen.play" >/dev/null 2>&1; then
    echo "browser/run.sh: kassen is not installed in $VENV; building it"
    KASSEN_VENV="$VENV" bash "$ROOT/python/tests/run.sh" test_render.py
fi

export KASSEN_BROWSER_ARTIFACTS="$TARGET/browser-artifacts"
cd "$ROOT/tests/browser"
set +e
"$VENV/bin/python" -m pytest -q -p no:cacheprovider -s "$@" test_play.py
status=$?
set -e
if [ "$status" -eq 5 ]; then
    echo "browser/run.sh: pytest collected no tests" >&2
    exit 1
fi
echo "browser/run.sh: screenshots in $KASSEN_BROWSER_ARTIFACTS"
exit "$status"
