# Sourced by tests/browser/run.sh and online.sh: what both browser suites need.
# Sets ROOT, VENV (KASSEN_VENV, default .venv) and TARGET ($CARGO_TARGET_DIR, default target/).

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
VENV="${KASSEN_VENV:-$ROOT/.venv}"
TARGET="${CARGO_TARGET_DIR:-$ROOT/target}"
export KASSEN_BROWSER_ARTIFACTS="$TARGET/browser-artifacts"

# Installs Debian's chromium, chromium-driver and the CJK fonts when chromium is missing.
ensure_chromium() {
    if command -v chromium >/dev/null 2>&1 && command -v chromedriver >/dev/null 2>&1; then
        return
    fi
    echo "browser/$1: installing chromium and chromium-driver"
    local sudo=""
    if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends \
        chromium chromium-driver fonts-noto-cjk >/dev/null
}

# run_pytest NAME TEST_FILE [pytest args...]: runs one browser test file with $VENV's pytest;
# a run that collects no test fails.
run_pytest() {
    local name="$1" file="$2"
    shift 2
    cd "$ROOT/tests/browser"
    local status=0
    "$VENV/bin/python" -m pytest -q -p no:cacheprovider -s "$@" "$file" || status=$?
    if [ "$status" -eq 5 ]; then
        echo "browser/$name: pytest collected no tests" >&2
        exit 1
    fi
    echo "browser/$name: screenshots in $KASSEN_BROWSER_ARTIFACTS"
    exit "$status"
}
