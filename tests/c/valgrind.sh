#!/usr/bin/env bash
# Runs the C test programs (tests/c/test_*.c) under valgrind's memcheck, built without the
# sanitizers (they do not mix with valgrind), against the shared library (as tests/c/run.sh
# links them: one copy of the library on disk, not one per program). Fails on any
# definite, indirect or possible leak and on any invalid read or write.
#
# Usage: bash tests/c/valgrind.sh [TARGET_DIR]   (default: target/debug; build it first with
#        `cargo build -p kassen-ffi`). Installs valgrind from Debian's packages if it is missing.
# KASSEN_C_SEEDS (default 1 here) sets how many games per player count test_play plays,
# KASSEN_C_FUZZ (default 3000 here) how many calls test_fuzz makes.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
source "$root/tests/run_program.sh"
target="$(build_dir "${1:-}" libkassen.so)" || exit 2
link_flags "$target"
if ! command -v valgrind >/dev/null 2>&1; then
    echo "valgrind.sh: installing valgrind"
    (apt-get update -qq && apt-get install -y -qq valgrind) >/dev/null
fi

out="$target/c-valgrind"
mkdir -p "$out"
cc="${CC:-cc}"
export KASSEN_C_SEEDS="${KASSEN_C_SEEDS:-1}"
export KASSEN_C_FUZZ="${KASSEN_C_FUZZ:-3000}"
# Every program is compiled first, then they run under valgrind on every core at once (each
# is single-threaded and valgrind slows it down tens of times); the reports come in order.
names=()
for src in "$root"/tests/c/test_*.c; do
    name="$(basename "$src" .c)"
    "$cc" -std=c11 -Wall -Wextra -Werror -pedantic -g -O1 -I"$root/include" "-DKASSEN_REPO=\"$root\"" -o "$out/$name" "$src" \
        "${shared_link[@]}"
    names+=("$name")
done
memcheck() {
    local name="$1" code=0
    valgrind -q --error-exitcode=99 --suppressions="$root/tests/c/valgrind.supp" --leak-check=full --show-leak-kinds=definite,indirect,possible \
        --errors-for-leak-kinds=definite,indirect,possible --track-origins=no \
        "$out/$name" >"$out/$name.log" 2>"$out/$name.valgrind" || code=$?
    echo "$code" >"$out/$name.exit"
}
cores="$(nproc 2>/dev/null || echo 2)"
for name in "${names[@]}"; do
    rm -f "$out/$name.exit"
    while [ "$(jobs -rp | wc -l)" -ge "$cores" ]; do wait -n || true; done
    memcheck "$name" &
done
wait
status=0
passed=0
failed=0
for name in "${names[@]}"; do
    echo "== valgrind $name"
    code="$(cat "$out/$name.exit" 2>/dev/null || echo "none")"
    if [ "$code" = 0 ]; then
        passed=$((passed + 1))
        tail -n 1 "$out/$name.log"
    else
        failed=$((failed + 1))
        status=1
        echo "valgrind: $name failed (exit $code); its report:" >&2
        grep -v "^[a-z_]*: .* player actions$" "$out/$name.valgrind" | tail -n 60 >&2
    fi
done
echo "valgrind: $passed passed, $failed failed"
exit $status
