#!/usr/bin/env bash
# Compiles and runs the C tests (tests/c/test_*.c) against include/kassen.h and the shared
# library, and the C example (examples/c/play.c) against the static one, with AddressSanitizer
# and UBSan; then test_search_race.c under ThreadSanitizer (tsan.sh, static) and
# refused_threads.c in a process whose thread starts the system refuses.
#
# Usage: bash tests/c/run.sh [TARGET_DIR]   (default: target/debug; build it first with
#        `cargo build -p kassen-ffi`). Exits non-zero if anything fails; the last line is
#        "N passed, M failed" over all test programs.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
source "$root/tests/run_program.sh"
target="$(build_dir "${1:-}" libkassen.a)" || exit 2
build_dir "$target" libkassen.so >/dev/null || exit 2
link_flags "$target"

cc="${CC:-cc}"
out="$target/c-tests"
mkdir -p "$out"
cflags=(-std=c11 -Wall -Wextra -Werror -pedantic -g
        -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
        -I"$root/include" "-DKASSEN_REPO=\"$root\"")
# Leak detection stays on: the library frees everything it hands out, and its only
# long-lived allocation (the thread-local last-error string) is reachable from TLS, which
# LeakSanitizer scans. Any reported leak is a real one.
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0:strict_string_checks=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"

passed=0
failed=0
status=0

# The test programs link the shared library (found at run time through their RUNPATH): a
# program linked with the static one carries the whole library and its line tables, about 33 MB
# each in a debug build, where the shared one is linked once; the sanitizers instrument the C
# side and intercept the allocator either way. The static library is linked by the example
# below, by tsan.sh and by the install tests (pkg-config and CMake, static and shared).
for src in "$root"/tests/c/test_*.c; do
    name="$(basename "$src" .c)"
    "$cc" "${cflags[@]}" -o "$out/$name" "$src" "${shared_link[@]}"
    run_program "$name" "$out" "$out/$name"
done

# The search API from several threads at once, under ThreadSanitizer (tsan.sh).
run_program "test_search_race under ThreadSanitizer" "$out" bash "$root/tests/c/tsan.sh" "$target"

# Thread starts the system refuses: every thread the library starts asks for a 64 GiB stack
# (RUST_MIN_STACK) in a process limited to 16 GiB of address space. A search is
# KASSEN_STATUS_THREADS_UNAVAILABLE and nothing reaches stderr (no panic message, no
# backtrace). Without sanitizers: they need more address space than the limit.
"$cc" -std=c11 -Wall -Wextra -Werror -pedantic -g -I"$root/include" -o "$out/refused_threads" \
    "$root/tests/c/refused_threads.c" "${shared_link[@]}"
run_program refused_threads "$out" bash -c 'ulimit -v 16777216 && RUST_MIN_STACK=68719476736 RUST_BACKTRACE=1 exec "$0"' \
    "$out/refused_threads"
if [[ -s "$out/refused_threads.stderr" ]]; then
    echo "refused_threads wrote to stderr:" >&2
    head -c 2000 "$out/refused_threads.stderr" >&2
    failed=$((failed + 1))
fi

"$cc" "${cflags[@]}" -o "$out/play" "$root/examples/c/play.c" "${static_link[@]}"
example_ok examples/c/play.c "$out/play"

# The plain shared-library recipe of the README: `-L <target dir> -lkassen`, run with
# LD_LIBRARY_PATH. The program records the SONAME (libkassen.so.<ABI>), so it starts only if
# the build left that link beside libkassen.so.
if [[ -f "$target/libkassen.so" ]]; then
    "$cc" -std=c11 -Wall -Wextra -Werror -pedantic -I"$root/include" -o "$out/play-shared" \
        "$root/examples/c/play.c" -L"$target" -lkassen
    example_ok "examples/c/play.c linked with -L $target -lkassen" \
        env LD_LIBRARY_PATH="$target" "$out/play-shared"
fi

# Every C file of the repository compiles with -Wall -Wextra -Werror -pedantic (C11), so a
# new compiler's stricter defaults (GCC 14 makes incompatible pointer types an error) never
# break a build.
while IFS= read -r src; do
    example_ok "strict C: ${src#"$root"/}" \
        "$cc" -std=c11 -Wall -Wextra -Werror -pedantic -fsyntax-only -I"$root/include" "$src"
done < <(find "$root/examples" "$root/bench" "$root/tests" -name '*.c' | sort)
finish
