#!/usr/bin/env bash
# Builds what `make wheel` ships into OUT (default dist/): the release abi3 wheel (one wheel
# for every CPython >= 3.9) for manylinux2014 (glibc 2.17) with maturin --zig, and the sdist.
# Checks the wheel's tags with `auditwheel show`, then installs it into fresh virtualenvs
# outside the repository with two CPythons (default: 3.9, the oldest the wheel claims, and
# 3.12; KASSEN_INSTALL_PYTHONS overrides them) and runs the version-independent part of the
# pytest suite against each. maturin, ziglang and auditwheel come from PyPI into the
# virtualenv KASSEN_VENV (default .venv).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
out="${1:-dist}"
case "$out" in /*) ;; *) out="$root/$out" ;; esac
venv="${KASSEN_VENV:-$root/.venv}"
if [[ ! -x "$venv/bin/python" ]]; then python3 -m venv "$venv"; fi
py="$venv/bin/python"
"$py" -m pip install -q --disable-pip-version-check maturin ziglang auditwheel
# maturin finds zig as `python3 -m ziglang`: the virtualenv's python3 comes first.
export PATH="$venv/bin:$PATH"

mkdir -p "$out"
rm -f "$out"/kassen-*.whl "$out"/kassen-*.tar.gz
cd "$root"
"$venv/bin/maturin" build --release --zig --compatibility manylinux2014 -m python/Cargo.toml \
    --interpreter "$py" --out "$out"
"$venv/bin/maturin" sdist -m python/Cargo.toml --out "$out"

shopt -s nullglob
wheels=("$out"/kassen-*-cp39-abi3-manylinux*2_17*x86_64*.whl)
sdists=("$out"/kassen-*.tar.gz)
if [[ ${#wheels[@]} -ne 1 || ${#sdists[@]} -ne 1 ]]; then
    echo "wheel.sh: expected one cp39-abi3 manylinux_2_17 wheel and one sdist in $out:" >&2
    ls "$out" >&2
    exit 1
fi
report="$("$venv/bin/auditwheel" show "${wheels[0]}")"
echo "$report"
if ! grep -q 'manylinux_2_17_x86_64' <<<"$report"; then
    echo "wheel.sh: auditwheel does not find the wheel consistent with manylinux_2_17" >&2
    exit 1
fi
source "$root/tests/install/pythons.sh"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
read -r -a pythons <<<"${KASSEN_INSTALL_PYTHONS:-$(find_python 3.9) $(find_python 3.12)}"
for python in "${pythons[@]}"; do
    echo "== the wheel in a fresh virtualenv with $("$python" --version)"
    rm -rf "$work/venv"
    "$python" -m venv "$work/venv"
    "$work/venv/bin/python" -m pip install -q --disable-pip-version-check "${wheels[0]}[gymnasium,pettingzoo]"
    run_installed_suite "$root" "$work/venv"
done
echo "wheel.sh: wrote $(basename "${wheels[0]}") and $(basename "${sdists[0]}") to $out"
