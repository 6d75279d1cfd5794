#!/usr/bin/env bash
# Compiles the C# binding (bindings/csharp/Runtime) with Mono's mcs at C# 7.2 (below Unity's
# C# 9 limit) together with tests/csharp/TestKassen.cs, examples/csharp/Play.cs and the C#
# program of bindings/csharp/README.md (as printed there), and runs them under mono against
# the shared library libkassen.so. The tests replay the golden playthroughs
# (tests/golden/*.json) and compare the final hashes.
# Installs mono-mcs and mono-runtime with apt-get if they are missing.
#
# Usage: bash tests/csharp/run.sh [TARGET_DIR]   (default: target/debug; build it first with
#        `cargo build -p kassen-ffi`). The last line is "N passed, M failed".
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
source "$root/tests/run_program.sh"
target="$(build_dir "${1:-}" libkassen.so)" || exit 2
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
# The binding README's C# program, exactly as printed there, built as its console recipe says.
python3 - "$root/bindings/csharp/README.md" >"$out/ReadmeProgram.cs" <<'PY'
import re, sys
blocks = re.findall(r"```csharp\n(.*?)```", open(sys.argv[1], encoding="utf-8").read(), re.S)
if len(blocks) != 1:
    sys.exit(f"expected one csharp block in {sys.argv[1]}, found {len(blocks)}")
sys.stdout.write(blocks[0])
PY
mcs "${mcsflags[@]}" -out:"$out/ReadmeProgram.exe" "${runtime[@]}" "$out/ReadmeProgram.cs"
export LD_LIBRARY_PATH="$target${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"

passed=0
failed=0
status=0
run_program TestKassen "$out" mono --debug "$out/TestKassen.exe" "$out/golden.tsv" "$root/bindings/csharp/package.json"
example_ok examples/csharp/Play.cs mono "$out/Play.exe"
example_ok "bindings/csharp/README.md's program" mono "$out/ReadmeProgram.exe"
finish
