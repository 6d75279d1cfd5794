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
# are merged into browser-metrics.json when they are done.
"$VENV/bin/python" -c "import xdist" >/dev/null 2>&1 ||
    "$VENV/bin/python" -m pip install -q --disable-pip-version-check pytest-xdist
rm -f "$KASSEN_BROWSER_ARTIFACTS"/browser-metrics*.json
merge_metrics() {
    "$VENV/bin/python" - "$KASSEN_BROWSER_ARTIFACTS" <<'PY'
import json, pathlib, sys
d = pathlib.Path(sys.argv[1])
parts = sorted(d.glob("browser-metrics.*.json"))
if parts:
    merged = {}
    for p in parts:
        merged.update(json.loads(p.read_text()))
        p.unlink()
    (d / "browser-metrics.json").write_text(json.dumps(merged, indent=1, sort_keys=True))
    print(f"browser/run.sh: metrics of {len(merged)} games in {d / 'browser-metrics.json'}")
PY
}
trap merge_metrics EXIT
run_pytest run.sh test_play.py -n "${KASSEN_PYTEST_WORKERS:-auto}" "$@"
