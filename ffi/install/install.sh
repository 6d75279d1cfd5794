#!/usr/bin/env bash
# Installs the C library into PREFIX: include/kassen.h (and kassen.hpp), lib/libkassen.a,
# lib/libkassen.so.<version> with its SONAME link libkassen.so.<ABI> and the link
# libkassen.so, lib/pkgconfig/kassen.pc and lib/cmake/kassen/kassen{Config,ConfigVersion}.cmake.
#
# Usage: bash ffi/install/install.sh PREFIX BUILD_DIR   (BUILD_DIR holds libkassen.a and
#        libkassen.so, e.g. target/release after `cargo build --release -p kassen-ffi`).
# `make install PREFIX=...` builds the release library and runs this. Linux (ELF) only.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
prefix="${1:?usage: install.sh PREFIX BUILD_DIR}"
build="${2:?usage: install.sh PREFIX BUILD_DIR}"
for f in libkassen.a libkassen.so; do
    [[ -f "$build/$f" ]] || { echo "install.sh: $build/$f not found; build kassen-ffi first" >&2; exit 2; }
done
mkdir -p "$prefix"
prefix="$(cd "$prefix" && pwd)"

version="$(sed -n 's/^version = "\(.*\)"$/\1/p' "$root/Cargo.toml" | head -n 1)"
major="${version%%.*}"
minor="${version#*.}"; minor="${minor%%.*}"
abi="$(sed -n 's/^pub const KASSEN_ABI_VERSION: u32 = \([0-9]*\);$/\1/p' "$root/ffi/src/version.rs")"
[[ -n "$version" && -n "$abi" ]] || { echo "install.sh: cannot read the version or ABI version" >&2; exit 2; }
# The system libraries the static library needs (`--print native-static-libs`, linux-gnu).
native_libs="-lgcc_s -lutil -lrt -lpthread -lm -ldl -lc"

subst() {
    sed -e "s|@PREFIX@|$prefix|g" -e "s|@VERSION@|$version|g" -e "s|@MAJOR@|$major|g" \
        -e "s|@MINOR@|$minor|g" -e "s|@ABI@|$abi|g" -e "s|@NATIVE_LIBS@|$native_libs|g" "$1"
}

install -d "$prefix/include" "$prefix/lib/pkgconfig" "$prefix/lib/cmake/kassen"
install -m 644 "$root/include/kassen.h" "$prefix/include/"
if [[ -f "$root/include/kassen.hpp" ]]; then install -m 644 "$root/include/kassen.hpp" "$prefix/include/"; fi
install -m 644 "$build/libkassen.a" "$prefix/lib/"
install -m 755 "$build/libkassen.so" "$prefix/lib/libkassen.so.$version"
ln -sfn "libkassen.so.$version" "$prefix/lib/libkassen.so.$abi"
ln -sfn "libkassen.so.$abi" "$prefix/lib/libkassen.so"
subst "$here/kassen.pc.in" >"$prefix/lib/pkgconfig/kassen.pc"
cmake_libs="$(echo "$native_libs" | sed -e 's/-l//g' -e 's/ /;/g')"
sed -e "s|@VERSION@|$version|g" -e "s|@ABI@|$abi|g" -e "s|@NATIVE_LIBS@|$cmake_libs|g" \
    "$here/kassenConfig.cmake.in" >"$prefix/lib/cmake/kassen/kassenConfig.cmake"
subst "$here/kassenConfigVersion.cmake.in" >"$prefix/lib/cmake/kassen/kassenConfigVersion.cmake"
echo "installed kassen $version (ABI $abi) into $prefix"
