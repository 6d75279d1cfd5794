#!/usr/bin/env bash
# Compiles the C++ tests (tests/cpp/test_*.cpp) and the C++ example (examples/cpp/play.cpp)
# against include/kassen.hpp and the static library with -std=c++17 -Wall -Wextra -Werror
# -pedantic, AddressSanitizer and UBSan, and runs them; the tests also replay the golden
# playthroughs (tests/golden/*.json) and compare the final hashes.
#
# Usage: bash tests/cpp/run.sh [TARGET_DIR]   (default: target/debug; build it first with
#        `cargo build -p kassen-ffi`). The last line is "N passed, M failed".
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
source "$root/tests/run_program.sh"
target="$(build_dir "${1:-}" libkassen.a)" || exit 2
link_flags "$target"

cxx="${CXX:-c++}"
out="$target/cpp-tests"
mkdir -p "$out"
cxxflags=(-std=c++17 -Wall -Wextra -Werror -pedantic -g
          -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
          -I"$root/include" "-DKASSEN_REPO=\"$root\"")
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"

# The golden playthroughs as "game<TAB>config<TAB>seed<TAB>final hash<TAB>player actions".
golden="$out/golden.tsv"
python3 "$root/tests/cpp/golden_list.py" "$root/tests/golden" >"$golden"

passed=0
failed=0
status=0
for src in "$root"/tests/cpp/test_*.cpp; do
    name="$(basename "$src" .cpp)"
    "$cxx" "${cxxflags[@]}" -o "$out/$name" "$src" "${static_link[@]}"
    run_program "$name" "$out" "$out/$name" "$golden"
done

"$cxx" "${cxxflags[@]}" -o "$out/play" "$root/examples/cpp/play.cpp" "${static_link[@]}"
example_ok examples/cpp/play.cpp "$out/play"

# Every C++ file of the repository compiles with -Wall -Wextra -Werror -pedantic (C++17).
while IFS= read -r src; do
    example_ok "strict C++: ${src#"$root"/}" \
        "$cxx" -std=c++17 -Wall -Wextra -Werror -pedantic -fsyntax-only -I"$root/include" "$src"
done < <(find "$root/examples" "$root/bench" "$root/tests" \( -name '*.cpp' -o -name '*.cc' \) | sort)
finish
