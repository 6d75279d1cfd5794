#!/usr/bin/env bash
# The two ways to install kassen from source, each into a fresh virtualenv outside the
# repository with a CPython other than the one `make test-python` uses:
#   1. `pip install ./python` from the checkout;
#   2. `maturin sdist`, then `pip wheel` from the sdist (which must carry the whole
#      workspace it needs), then `pip install` of that wheel;
# and runs the version-independent part of the pytest suite (API, errors, README examples,
# golden playthroughs) against each. Builds use the debug profile and CARGO_TARGET_DIR, so
# they reuse `make test`'s build; `make wheel` builds the release wheel.
# KASSEN_INSTALL_PYTHONS overrides the two interpreters (default: python3.12 and python3.13
# from PATH or pyenv, falling back to python3).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
export MATURIN_PEP517_ARGS="--profile dev"
export PIP_DISABLE_PIP_VERSION_CHECK=1

source "$root/tests/install/pythons.sh"
read -r -a pythons <<<"${KASSEN_INSTALL_PYTHONS:-$(find_python 3.12) $(find_python 3.13)}"

echo "== pip install ./python with $("${pythons[0]}" --version)"
"${pythons[0]}" -m venv "$work/checkout"
(cd "$root" && "$work/checkout/bin/python" -m pip install -q "./python[gymnasium]")
run_installed_suite "$root" "$work/checkout"

echo "== sdist, pip wheel from it, install with $("${pythons[1]}" --version)"
"${pythons[1]}" -m venv "$work/sdist"
"$work/sdist/bin/python" -m pip install -q maturin
(cd "$root" && "$work/sdist/bin/maturin" sdist -m python/Cargo.toml --out "$work/dist")
sdist=("$work"/dist/kassen-*.tar.gz)
listing="$(tar tzf "${sdist[0]}")"
for member in Cargo.toml Cargo.lock core/Cargo.toml core/src/lib.rs python/Cargo.toml python/src/lib.rs \
              pyproject.toml py_src/kassen/__init__.py; do
    if ! grep -qx "kassen-[^/]*/$member" <<<"$listing"; then
        echo "python.sh: the sdist lacks $member" >&2
        exit 1
    fi
done
"$work/sdist/bin/python" -m pip wheel -q --no-deps "${sdist[0]}" -w "$work/wheel"
wheel=("$work"/wheel/kassen-*.whl)
case "$(basename "${wheel[0]}")" in
    *-cp39-abi3-*) ;;
    *) echo "python.sh: $(basename "${wheel[0]}") from the sdist is not abi3" >&2; exit 1 ;;
esac
"$work/sdist/bin/python" -m pip install -q "${wheel[0]}[gymnasium]"
run_installed_suite "$root" "$work/sdist"
echo "python.sh: pip install ./python and the sdist build work"
