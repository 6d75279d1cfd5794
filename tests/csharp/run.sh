#!/usr/bin/env bash
# Compiles the C# binding (bindings/csharp/Runtime) with Mono's mcs at C# 7.2 (below Unity's
# C# 9 limit) together with tests/csharp/TestKassen.cs and examples/csharp/Play.cs, and runs
# them under mono against the shared library libkassen.so. The tests replay the golden
# playthroughs (tests/golden/*.json) and compare the final hashes.
# Installs mono-mcs and mono-runtime with apt-get if they are missing.
#
# Usage: bash tests/csharp/run.sh [TARGET_DIR]   (default: target/debug; build it first with
#        `cargo build -p kassen-ffi`). The last line is "N passed, M failed".
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
target="${1:-target/debug}"
case "$target" in /*) ;; *) target="$root/$target" ;; esac
if [[ ! -f "$target/libkassen.so" ]]; then
    echo "run.sh: $target/libkassen.so not found; run 'cargo build -p kassen-ffi' first" >&2
    exit 2
fi
if ! command -v mcs >/dev/null || ! command -v mono >/dev/null; then
    echo "run.sh: installing mono-mcs and mono-runtime"
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
        mono-mcs mono-runtime) >/dev/null
fi

out="$target/csharp-tests"
mkdir -p "$out"
python3 "$root/tests/cpp/golden_list.py" "$root/tests/golden" >"$out/golden.tsv"
runtime=("$root"/bindings/csharp/Runtime/*.cs)
mcsflags=(-langversion:7.2 -warnaserror -nologo -r:System.Core.dll)
mcs "${mcsflags[@]}" -out:"$out/TestKassen.exe" "${runtime[@]}" "$root/tests/csharp/TestKassen.cs"
mcs "${mcsflags[@]}" -out:"$out/Play.exe" "${runtime[@]}" "$root/examples/csharp/Play.cs"
export LD_LIBRARY_PATH="$target${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"

passed=0
failed=0
status=0
echo "== TestKassen"
if mono --debug "$out/TestKassen.exe" "$out/golden.tsv" "$root/bindings/csharp/package.json" >"$out/test.log" 2>"$out/test.stderr"; then rc=0; else rc=$?; fi
cat "$out/test.log"
if [[ "$(tail -n 1 "$out/test.log")" =~ ^([0-9]+)\ passed,\ ([0-9]+)\ failed$ ]]; then
    passed=${BASH_REMATCH[1]}
    failed=${BASH_REMATCH[2]}
else
    failed=1
fi
if [[ $rc -ne 0 ]]; then
    echo "TestKassen exited with $rc; its stderr:" >&2
    tail -n 60 "$out/test.stderr" >&2
    status=1
fi
echo "== examples/csharp/Play.cs"
if mono "$out/Play.exe"; then passed=$((passed + 1)); else failed=$((failed + 1)); status=1; fi

echo "$passed passed, $failed failed"
if [[ $failed -ne 0 ]]; then status=1; fi
exit $status
