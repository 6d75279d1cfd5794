#!/usr/bin/env bash
# Installs the C library into a temporary prefix (ffi/install/install.sh, what `make install`
# runs) and builds and runs the C example and a header/library version check against the
# installed tree: with pkg-config (shared and --static) and with CMake's find_package(kassen)
# (kassen::kassen and kassen::kassen_static; there also the C++ example over kassen.hpp).
# Checks the SONAME, the symlinks and the CMake version rules.
# Installs cmake and pkg-config with apt-get if they are missing.
#
# Usage: bash tests/install/run.sh [BUILD_DIR]   (default target/debug, after
#        `cargo build -p kassen-ffi`). The last line is "N passed, M failed".
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
build="${1:-$root/target/debug}"
case "$build" in /*) ;; *) build="$root/$build" ;; esac

missing=()
command -v cmake >/dev/null || missing+=(cmake)
command -v pkg-config >/dev/null || missing+=(pkg-config)
if [[ ${#missing[@]} -gt 0 ]]; then
    echo "run.sh: installing ${missing[*]}"
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}") >/dev/null
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
prefix="$work/prefix"
bash "$root/ffi/install/install.sh" "$prefix" "$build"

passed=0
failed=0
check() { # name, command...
    local name="$1"; shift
    if "$@" >"$work/out.log" 2>&1; then
        passed=$((passed + 1)); echo "ok   $name"
    else
        failed=$((failed + 1)); echo "FAIL $name"; tail -n 30 "$work/out.log"
    fi
}

abi="$(sed -n 's/^pub const KASSEN_ABI_VERSION: u32 = \([0-9]*\);$/\1/p' "$root/ffi/src/version.rs")"
soname_is_abi() {
    readelf -d "$prefix/lib/libkassen.so" | grep -F "Library soname: [libkassen.so.$abi]"
    [[ "$(readlink "$prefix/lib/libkassen.so")" == "libkassen.so.$abi" ]]
    [[ -f "$(readlink -f "$prefix/lib/libkassen.so.$abi")" ]]
}
check "SONAME libkassen.so.$abi and its links" soname_is_abi

export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
cc="${CC:-cc}"
for prog in examples/c/play.c tests/install/check_version.c; do
    name="$(basename "$prog" .c)"
    # shellcheck disable=SC2046
    check "pkg-config shared: $name" bash -c "$cc -std=c11 -Wall -Wextra -Werror -o '$work/$name.so.bin' '$root/$prog' \
        \$(pkg-config --cflags --libs kassen) && LD_LIBRARY_PATH='$prefix/lib' '$work/$name.so.bin' \
        && LD_LIBRARY_PATH='$prefix/lib' ldd '$work/$name.so.bin' | grep -q 'libkassen.so.$abi => $prefix/lib/'"
    check "pkg-config static: $name" bash -c "$cc -std=c11 -Wall -Wextra -Werror -o '$work/$name.a.bin' '$root/$prog' \
        -I'$prefix/include' '$prefix/lib/libkassen.a' \$(pkg-config --libs-only-l --static kassen | sed 's/-lkassen//') \
        && '$work/$name.a.bin' && ! ldd '$work/$name.a.bin' | grep -q libkassen"
done

version_rules() { # what find_package(kassen X.Y) accepts: the same major (for 0.x, minor), not older
    local file="$prefix/lib/cmake/kassen/kassenConfigVersion.cmake" want expect got
    local major minor
    major="$(sed -n 's/^#define KASSEN_VERSION_MAJOR //p' "$prefix/include/kassen.h")"
    minor="$(sed -n 's/^#define KASSEN_VERSION_MINOR //p' "$prefix/include/kassen.h")"
    for want in "$major.$minor:compatible" "$major.$minor.0:compatible" "$major.$((minor + 1)):incompatible" \
                "$((major + 1)).0:incompatible"; do
        expect="${want#*:}"
        got="$(cmake -DVERSION_FILE="$file" -DWANT="${want%%:*}" -P "$root/tests/install/version_check.cmake" 2>&1)"
        echo "find_package(kassen ${want%%:*}): $got"
        [[ "$got" == "$expect" ]] || return 1
    done
}
check "kassenConfigVersion.cmake accepts only compatible versions" version_rules

cmake_build() {
    cmake -S "$root/tests/install" -B "$work/cmake" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_TYPE=Debug &&
        cmake --build "$work/cmake" -j 2
}
check "cmake find_package(kassen) configure and build" cmake_build
for kind in shared static; do
    for name in play play_cpp check_version; do
        check "cmake $kind: $name" "$work/cmake/${name}_$kind"
    done
done

echo "$passed passed, $failed failed"
[[ $failed -eq 0 ]]
