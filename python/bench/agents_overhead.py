#!/usr/bin/env python3
"""The benchmark harness's overhead per decision (docs/agents.md).

    python python/bench/agents_overhead.py [--games N] [OUT.json]

Per game, the agent plays seat 0 against the ``random`` bot for N games (default 3), answering
with random legal move numbers, twice: as a Python callable (no transport: what remains is the
harness itself with the engine's text observation, move reading, the bots' random moves and
the transcript) and through ``ChatEndpoint`` against the local chat-completions stub of the
tests (python/tests/chat_stub.py: HTTP on 127.0.0.1 added). Prints microseconds per decision:
the whole decision, the agent call, and the rest (the harness). Numbers depend on the wheel's
build profile (a debug build is flagged)."""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

import kassen  # noqa: E402
from chat_stub import ChatStub  # noqa: E402
from kassen import _kassen  # noqa: E402
from kassen.agents import ChatEndpoint, GameSpec, run  # noqa: E402

MOVES = re.compile(r"^## Your legal moves \((\d+)\)", re.M)


def measure(agent, game: str, n: int) -> dict[str, float]:
    specs = [GameSpec(game, 0, "random", i, i) for i in range(n)]
    with tempfile.TemporaryDirectory() as out:
        t0 = time.perf_counter()
        summary = run(agent, specs, out)
        wall = time.perf_counter() - t0
    [g] = summary["groups"]
    decisions = g["decisions"]
    return {
        "decisions": decisions,
        "us_per_decision": 1e6 * wall / decisions,
        "agent_us_per_decision": 1e6 * g["agent_seconds_per_decision"],
        "harness_us_per_decision": 1e6 * (wall / decisions - g["agent_seconds_per_decision"]),
    }


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=3)
    ap.add_argument("out", nargs="?")
    args = ap.parse_args()
    rng = random.Random(0)

    def callable_agent(messages):
        return str(rng.randint(1, int(MOVES.search(messages[1]["content"]).group(1))))

    rows = {}
    with ChatStub(seed=0) as stub:
        endpoint = ChatEndpoint(stub.base_url, "random", "key")
        for game in sorted(kassen.games()):
            rows[game] = {"callable": measure(callable_agent, game, args.games), "stub": measure(endpoint, game, args.games)}
    print(f"{'game':24} {'agent':9} {'decisions':>9} {'us/decision':>12} {'agent us':>10} {'harness us':>11}")
    for game, kinds in rows.items():
        for kind, r in kinds.items():
            print(f"{game:24} {kind:9} {r['decisions']:>9} {r['us_per_decision']:>12.0f} "
                  f"{r['agent_us_per_decision']:>10.0f} {r['harness_us_per_decision']:>11.0f}")
    if getattr(_kassen, "_debug_build", False):
        print("(debug build of the wheel: the engine's share is slower than a release wheel's)")
    if args.out:
        Path(args.out).write_text(json.dumps({"debug_build": bool(getattr(_kassen, "_debug_build", False)), "games": rows}, indent=1))


if __name__ == "__main__":
    main()
