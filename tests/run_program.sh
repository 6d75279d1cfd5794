# Sourced by the test scripts (tests/c, tests/cpp, tests/csharp): finds the build directory,
# runs one test program and adds its closing "N passed, M failed" line to the totals.
#   target="$(build_dir "${1:-}" libkassen.a)" || exit 2   # absolute; default target/debug
#   link_flags "$target"   # sets static_link and shared_link, the linker arguments for each library
#   passed=0; failed=0; status=0
#   run_program NAME OUT_DIR COMMAND [ARGS...]   # prints its output; on a non-zero exit, its stderr
#   example_ok NAME  COMMAND [ARGS...]           # an example program counts as one test
#   finish                                        # prints the totals line, exits non-zero on failure

build_dir() {
    local dir="${1:-target/debug}"
    case "$dir" in /*) ;; *) dir="$root/$dir" ;; esac
    if [[ ! -f "$dir/$2" ]]; then
        echo "${0##*/}: $dir/$2 not found; run 'cargo build -p kassen-ffi' first" >&2
        return 2
    fi
    echo "$dir"
}

# The linker arguments for a program against the library in $1: static_link, the static
# library and the system libraries `cargo rustc -- --print native-static-libs` lists for this
# target (Linux); shared_link, the shared library, found at run time through the program's
# RUNPATH.
link_flags() {
    static_link=("$1/libkassen.a" -lgcc_s -lutil -lrt -lpthread -lm -ldl)
    shared_link=(-L"$1" -lkassen "-Wl,-rpath,$1")
}

run_program() {
    local name="$1" out="$2"; shift 2
    echo "== $name"
    local log="$out/$name.log" rc=0
    "$@" >"$log" 2>"$out/$name.stderr" || rc=$?
    cat "$log"
    if [[ "$(tail -n 1 "$log")" =~ ^([0-9]+)\ passed,\ ([0-9]+)\ failed$ ]]; then
        passed=$((passed + BASH_REMATCH[1]))
        failed=$((failed + BASH_REMATCH[2]))
    else
        failed=$((failed + 1))
    fi
    if [[ $rc -ne 0 ]]; then
        echo "$name exited with $rc; its stderr:" >&2
        tail -n 60 "$out/$name.stderr" >&2
        status=1
    fi
}

example_ok() {
    local name="$1"; shift
    echo "== $name"
    if "$@"; then
        passed=$((passed + 1))
    else
        echo "$name failed" >&2
        failed=$((failed + 1))
        status=1
    fi
}

finish() {
    echo "$passed passed, $failed failed"
    if [[ $failed -ne 0 ]]; then status=1; fi
    exit "$status"
}
