#!/usr/bin/env python3
"""Benchmark of the kassen Python bindings: random playouts and the cost of single calls.

    python python/bench/bench_python.py [OUT.json] [--quick]

Prints a table and, given a path, writes the numbers as JSON. Meant for a RELEASE wheel
(`make bench` installs one); a debug build is flagged in the output.

- playouts: complete games of every configuration in CONFIGS (Samurai with 2, 3, 4 players,
  Sekigahara) with uniformly random legal actions chosen in Python (steps/s counts player
  actions; chance is resolved inside the engine).
- per-call cost (ns): a tight loop over a bound method on a prepared mid-game state, so the
  numbers include the Python call overhead a user pays, plus the loop's own overhead
  (reported separately as `loop_overhead_ns`). `apply_action` is timed in place along
  pre-recorded random games, so choosing the action is not part of it.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import sys
import time
from typing import Callable, Dict, List

import kassen
from kassen import _kassen

#: (game id, config) of the playout rows.
CONFIGS = tuple(
    (gid, {k: v for k, v in config.items() if k != "explicit_chance"})
    for gid in sorted(kassen.games())
    for config in kassen.covered_configs(gid)
    if not config.get("explicit_chance")
)
#: Games per playout row, relative to the --quick / full count (longer games get fewer).
GAMES_SCALE = {"sekigahara": 0.25, "three_kingdoms_redux": 0.1, "sekigahara_daisakusen": 0.25}


def best_of(repeats: int, f: Callable[[], float]) -> float:
    return min(f() for _ in range(repeats))


def per_call_ns(fn: Callable[[], object], calls: int, repeats: int) -> float:
    def once() -> float:
        rng = range(calls)
        t = time.perf_counter_ns()
        for _ in rng:
            fn()
        return (time.perf_counter_ns() - t) / calls

    return best_of(repeats, once)


def loop_overhead_ns(calls: int, repeats: int) -> float:
    def once() -> float:
        rng = range(calls)
        t = time.perf_counter_ns()
        for _ in rng:
            pass
        return (time.perf_counter_ns() - t) / calls

    return best_of(repeats, once)


def playouts(gid: str, config: Dict[str, object], games: int) -> Dict[str, object]:
    game = kassen.load_game(gid, config)
    players = game.num_players()
    r = random.Random(players)
    steps = 0
    t = time.perf_counter()
    for seed in range(games):
        s = game.new_initial_state(seed)
        while not s.is_terminal():
            legal = s.legal_actions()
            s.apply_action(legal[r.randrange(len(legal))])
            steps += 1
    dt = time.perf_counter() - t
    return {"game": gid, "config": config, "players": players, "games": games, "steps": steps,
            "seconds": dt, "steps_per_s": steps / dt, "games_per_s": games / dt}


def recorded_games(game: kassen.Game, count: int) -> List[tuple]:
    """(seed, player actions) of random games, for timing apply_action alone."""
    out = []
    r = random.Random(99)
    for seed in range(count):
        s = game.new_initial_state(seed)
        acts = []
        while not s.is_terminal():
            legal = s.legal_actions()
            a = legal[r.randrange(len(legal))]
            acts.append(a)
            s.apply_action(a)
        out.append((seed, acts))
    return out


def apply_action_ns(game: kassen.Game, recs: List[tuple], repeats: int) -> float:
    def once() -> float:
        total_ns, total = 0, 0
        for seed, acts in recs:
            s = game.new_initial_state(seed)
            ap = s.apply_action
            t = time.perf_counter_ns()
            for a in acts:
                ap(a)
            total_ns += time.perf_counter_ns() - t
            total += len(acts)
        return total_ns / total

    return best_of(repeats, once)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", nargs="?", help="write the results as JSON to this path")
    ap.add_argument("--quick", action="store_true", help="fewer games and calls (smoke run)")
    args = ap.parse_args()

    games = 50 if args.quick else 400
    calls = 20_000 if args.quick else 300_000
    repeats = 3 if args.quick else 5

    results: Dict[str, object] = {
        "kassen_version": kassen.__version__,
        "python": platform.python_version(),
        "machine": platform.machine(),
        "debug_build": bool(_kassen._debug_build),
    }
    if _kassen._debug_build:
        print("WARNING: kassen is a DEBUG build; numbers are not representative", file=sys.stderr)

    results["playouts"] = [playouts(gid, config, max(10, int(games * GAMES_SCALE.get(gid, 1.0))))
                           for gid, config in CONFIGS]

    game = kassen.load_game("samurai", players=3)
    s = game.new_initial_state(7)
    r = random.Random(7)
    for _ in range(40):
        s.apply_action(r.choice(s.legal_actions()))
    p = s.current_player()
    legal = s.legal_actions()
    out = s.observation_tensor(p)

    calls_ns = {
        "current_player": per_call_ns(s.current_player, calls, repeats),
        "is_terminal": per_call_ns(s.is_terminal, calls, repeats),
        "legal_actions": per_call_ns(s.legal_actions, calls, repeats),
        "legal_actions_mask": per_call_ns(s.legal_actions_mask, calls // 4, repeats),
        "observation_tensor": per_call_ns(lambda: s.observation_tensor(p), calls // 4, repeats),
        "observation_tensor(out=)": per_call_ns(lambda: s.observation_tensor(p, out), calls // 4, repeats),
        "clone": per_call_ns(s.clone, calls // 4, repeats),
        "child": per_call_ns(lambda: s.child(legal[0]), calls // 4, repeats),
        "view": per_call_ns(lambda: s.view(p), calls // 20, repeats),
        "apply_action": apply_action_ns(game, recorded_games(game, 20 if args.quick else 100), repeats),
    }
    results["per_call_ns"] = calls_ns
    results["loop_overhead_ns"] = loop_overhead_ns(calls, repeats)
    results["per_call_setup"] = {"game": "samurai", "players": 3, "seed": 7, "actions_before": 40,
                                 "num_legal_actions": len(legal)}
    results["targets_ns"] = {"current_player": 100, "apply_action": 300}

    print(f"kassen {kassen.__version__} (python {platform.python_version()}"
          f"{', DEBUG build' if _kassen._debug_build else ''})")
    print(f"{'playouts':<14}{'games':>8}{'steps':>10}{'steps/s':>14}{'games/s':>12}")
    for row in results["playouts"]:  # type: ignore[union-attr]
        label = f"{row['game']} p{row['players']}"
        print(f"{label:<14}{row['games']:>8}{row['steps']:>10}"
              f"{row['steps_per_s']:>14,.0f}{row['games_per_s']:>12,.1f}")
    print(f"\n{'call':<26}{'ns/call':>10}{'target':>10}")
    for name, ns in calls_ns.items():
        target = results["targets_ns"].get(name, "")  # type: ignore[union-attr]
        print(f"{name:<26}{ns:>10,.0f}{target:>10}")
    print(f"{'(loop overhead)':<26}{results['loop_overhead_ns']:>10,.1f}")

    if args.out:
        with open(args.out, "w", encoding="utf-8") as f:
            json.dump(results, f, indent=2)
            f.write("\n")
        print(f"\nwrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
