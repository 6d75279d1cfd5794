#!/usr/bin/env bash
# Builds tests/c/test_search_race.c with ThreadSanitizer against the static library and runs
# it: the C side of the search API's threading contract (poll, stop and wait from several
# threads at once). The library itself is not instrumented: its side is sound by construction
# (every method of the search takes &self behind Mutex/Condvar/atomics, no unsafe), and
# `cargo test -p kassen-core --lib progress_and_wait` runs the same pattern in Rust.
#
# Usage: bash tests/c/tsan.sh [TARGET_DIR]   (default: target/debug, with libkassen.a built).
# Prints the program's "N passed, M failed" line; exits non-zero on a failure or a report.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
source "$root/tests/run_program.sh"
target="$(build_dir "${1:-}" libkassen.a)" || exit 2
link_flags "$target"

# A compiler that links -fsanitize=thread: $CC, cc (GCC with libtsan) or clang, installed
# when none is there.
tsan_ok() { echo 'int main(void){return 0;}' | "$1" -x c -fsanitize=thread -o /dev/null - 2>/dev/null; }
cc="${CC:-cc}"
if ! command -v "$cc" >/dev/null || ! tsan_ok "$cc"; then
    if ! command -v clang >/dev/null; then
        echo "tsan.sh: installing clang for ThreadSanitizer" >&2
        apt-get update -qq >&2 && apt-get install -y -qq clang >&2
    fi
    cc=clang
fi

out="$target/c-tests"
mkdir -p "$out"
"$cc" -std=c11 -Wall -Wextra -Werror -pedantic -g -O1 -fsanitize=thread -fno-omit-frame-pointer \
    -I"$root/include" -o "$out/test_search_race-tsan" "$root/tests/c/test_search_race.c" \
    "${static_link[@]}"
# halt_on_error: the first report fails the run (exit code 66).
TSAN_OPTIONS="${TSAN_OPTIONS:-halt_on_error=1:second_deadlock_stack=1:suppressions=$root/tests/c/tsan.supp}" "$out/test_search_race-tsan"
