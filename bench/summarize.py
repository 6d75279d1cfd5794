#!/usr/bin/env python3
"""Merges the Rust, C and Python bench results into one summary and prints a table.

    python3 bench/summarize.py [DIR]      (default: bench-results)

Reads DIR/rust.json (core/benches/playouts.rs), DIR/c.json (bench/c/bench.c) and
DIR/python.json (python/bench/bench_python.py), whichever exist, writes DIR/summary.json and
prints one table comparing the surfaces, then the goals:
  - Rust >= 1,000,000 Samurai steps/s on one core, legal-action generation included
    (judged on player steps/s, i.e. without counting the auto-resolved chance outcomes);
  - Rust >= 1,000,000 Sekigahara steps/s on one core, legal-action generation included
    (judged the same way, on player steps/s) and a full random Sekigahara game < 5 ms;
  - the same two goals for 関ヶ原大作戦 (sekigahara_daisakusen);
  - Python <= 100 ns per current_player call and <= 300 ns per apply_action call;
  - batched stepping (DIR/batch.json, core/benches/batch.rs): >= 1.7x env-steps/s from 1 to 2
    threads per game, >= 1,000,000 learner steps/s for Samurai 2p against the random bot.
  - from DIR/search.json (core/benches/search.rs): IS-MCTS iterations per second per game
    (reported beside the search's strength from DIR/arena.json, bench/arena.py, when `make
    arena` left one), and the `normal` level decides within 1 s on one core in every game;
    and each level's thinking time per decision and per whole turn (median and worst, a game
    of the level in every seat), with the goals per turn on one core: `easy` <= 1 s, `normal`
    <= 5 s, `hard` <= 20 s (the worst turn of every game);
  - from DIR/views.json (core/benches/views.rs): view_json <= 50 us per call for every game,
    config and observer (a seat and the spectator);
  - from DIR/text.json (core/benches/text.rs): a text observation <= 100 us per decision and a
    typical decision (the mean over random games) <= 3,000 tokens (characters / 4), every game;
  - from DIR/python_rl.json (python/bench/bench_rl.py): the batch from Python >= 20x the
    single-state Python loop on every game (an earlier goal) and >= 6x with the batch's default
    compact observations, >= 1.8x from 1 to 2 threads on every game, >= 2,000,000 env-steps/s
    for Samurai 2p, >= 1.7x from 1 to 2 threads for Samurai 2p, >= 1,000,000 learner steps/s for Samurai 2p against
    the random bot, and the Gymnasium vector env (as shipped, copy=True) within 1.5x of the
    raw batch on every game.
The load averages recorded by the batch benchmarks are printed with the goals: on a busy
machine the thread-scaling figures mean little.

Only the standard library: runs with any python3.
"""

from __future__ import annotations

import json
import os
import platform
import sys
from typing import Any, Dict, List, Optional

CALLS = ("current_player", "legal_actions", "apply_action", "observation_tensor")
GOAL_RUST_STEPS = 1_000_000
GOAL_US_PER_GAME = 5_000.0
GOAL_BATCH_THREAD_RATIO = 1.7
GOAL_BATCH_SINGLE_AGENT = 1_000_000
GOAL_PY_NS = {"current_player": 100.0, "apply_action": 300.0}
GOAL_BATCH_OVER_SINGLE = 20.0
#: Issue 36's goals for the batch's default (compact) observations, every game, both cores.
GOAL_COMPACT_BATCH_OVER_SINGLE = 6.0
GOAL_PY_THREAD_RATIO_EVERY_GAME = 1.8
GOAL_SAMURAI_2P_BATCH = 2_000_000
GOAL_VECTOR_ENV_SLOWDOWN = 1.5
GOAL_VIEW_US = 50.0
GOAL_TEXT_US = 100.0
GOAL_TEXT_TOKENS = 3000


def at_least(goal: str, measured: Optional[float], limit: float, key: str = "measured") -> Dict[str, Any]:
    """A goal entry that passes when ``measured >= limit`` (not measured: ``None``)."""
    return {"goal": goal, key: measured, "pass": None if measured is None else measured >= limit}


def rl_goals(data: Optional[Dict[str, Any]]) -> Dict[str, Any]:
    """The goals of the Python RL benchmark (python/bench/bench_rl.py)."""
    rows = (data or {}).get("rows", [])
    worst_ratio = min((r["batch_over_single"] for r in rows), default=None)
    samurai = next((r for r in rows if r["game"] == "samurai" and r["players"] == 2), {})
    worst_threads = min((r["batch_thread_ratio"] for r in rows), default=None)
    worst_vec = max((r["batch_over_vector_env"] for r in rows), default=None)
    worst_vec_views = max((r.get("batch_over_vector_env_no_copy", float("nan")) for r in rows), default=None)
    return {
        "python_batch_over_single_loop": at_least(
            f">= {GOAL_BATCH_OVER_SINGLE:.0f}x (every game)", worst_ratio, GOAL_BATCH_OVER_SINGLE, "measured_min"),
        "python_batch_over_single_loop_6x": at_least(
            f">= {GOAL_COMPACT_BATCH_OVER_SINGLE:.0f}x (every game, compact observations)", worst_ratio,
            GOAL_COMPACT_BATCH_OVER_SINGLE, "measured_min"),
        "python_batch_1_to_2_threads_every_game": at_least(
            f">= {GOAL_PY_THREAD_RATIO_EVERY_GAME}x env-steps/s (every game)", worst_threads,
            GOAL_PY_THREAD_RATIO_EVERY_GAME, "measured_min"),
        "python_batch_samurai_2p_env_steps_per_sec": {
            **at_least(f">= {GOAL_SAMURAI_2P_BATCH:,} (both cores, float32 observations)",
                       samurai.get("batch_env_steps_per_sec"), GOAL_SAMURAI_2P_BATCH),
            "uint8_measured": samurai.get("batch_uint8_env_steps_per_sec")},
        "python_batch_samurai_2p_1_to_2_threads": at_least(
            f">= {GOAL_BATCH_THREAD_RATIO}x env-steps/s", samurai.get("batch_thread_ratio"), GOAL_BATCH_THREAD_RATIO),
        "python_batch_samurai_2p_vs_random_learner_steps_per_sec": at_least(
            f">= {GOAL_BATCH_SINGLE_AGENT:,} learner steps/s", samurai.get("batch_vs_bot_steps_per_sec"),
            GOAL_BATCH_SINGLE_AGENT),
        "python_vector_env_slowdown": {
            "goal": f"<= {GOAL_VECTOR_ENV_SLOWDOWN}x the raw batch (copy=True)", "measured": worst_vec,
            "copy_false_measured": worst_vec_views,
            "pass": None if worst_vec is None else worst_vec <= GOAL_VECTOR_ENV_SLOWDOWN},
    }


def view_goals(data: Optional[Dict[str, Any]]) -> Dict[str, Any]:
    """The goal of the view benchmark (core/benches/views.rs): the slowest view_json."""
    rows = (data or {}).get("results", [])
    cost = {f"{r['game']} {json.dumps(r['config'], sort_keys=True)} {who}": r[f"view_json_{who}"]["us_per_call"]
            for r in rows for who in ("seat", "spectator")}
    worst = max(cost, key=cost.get) if cost else None
    events = max((r["events_json_seat"]["us_per_call"] for r in rows), default=None)
    return {
        "view_json_us": {
            "goal": f"<= {GOAL_VIEW_US:.0f} us (every game, config, observer)",
            "measured": cost[worst] if worst else None, "slowest": worst,
            "events_json_us_max": events,
            "pass": None if worst is None else cost[worst] <= GOAL_VIEW_US},
    }


def text_goals(data: Optional[Dict[str, Any]]) -> Dict[str, Any]:
    """The goals of the text benchmark (core/benches/text.rs): the slowest text observation
    and the longest typical decision, over every game and config."""
    rows = (data or {}).get("rows", [])
    if not rows:
        return {}
    label = lambda r: f"{r['game']} {json.dumps(r['config'], sort_keys=True)}"
    slow = max(rows, key=lambda r: r["text_us"])
    long = max(rows, key=lambda r: r["tokens"]["mean"])
    return {
        "text_observation_us": {"goal": f"<= {GOAL_TEXT_US:.0f} us per decision, every game", "measured": slow["text_us"],
                                "slowest": label(slow), "pass": slow["text_us"] <= GOAL_TEXT_US},
        "text_tokens_typical": {"goal": f"<= {GOAL_TEXT_TOKENS} tokens (mean decision), every game",
                                "measured": long["tokens"]["mean"], "longest": label(long),
                                "pass": long["tokens"]["mean"] <= GOAL_TEXT_TOKENS},
    }


#: The longest whole turn (ms) each level may think on one core (issue 34, item 1).
GOAL_TURN_MS = {"easy": 1000.0, "normal": 5000.0, "hard": 20000.0}


def turn_goals(data: Optional[Dict[str, Any]]) -> Dict[str, Any]:
    """The per-turn goals of the search benchmark (core/benches/search.rs): each level's worst
    whole turn over every game."""
    rows = (data or {}).get("rows", [])
    goals = {}
    for level, limit in GOAL_TURN_MS.items():
        worst = [(r["levels"][level]["turn_ms"].get("worst"), r["game"]) for r in rows if level in r.get("levels", {})]
        worst = [w for w in worst if w[0] is not None]
        if not worst:
            continue
        ms, game = max(worst)
        goals[f"ismcts_{level}_turn_ms"] = {"goal": f"<= {limit:.0f} ms per whole turn, every game", "measured": ms,
                                            "slowest": game, "pass": ms <= limit}
    return goals


def level_times(r: Dict[str, Any]) -> List[str]:
    """One line per level of a search row: its time per decision and per whole turn."""
    out = []
    for level, t in r.get("levels", {}).items():
        d, turn = t.get("decision_ms", {}), t.get("turn_ms", {})
        out.append(f"    {level:<8} per decision median {fmt(d.get('median'), 1):>8} ms, worst {fmt(d.get('worst'), 1):>8} ms; "
                   f"per turn median {fmt(turn.get('median'), 1):>9} ms, worst {fmt(turn.get('worst'), 1):>9} ms")
    return out


def arena_strength(arena: Optional[Dict[str, Any]], game: str) -> Optional[Dict[str, Any]]:
    """IS-MCTS's strength in a game by the arena (bench/arena.py, DIR/arena.json): its Elo
    (random = 0), its score against flat Monte Carlo and the time per decision it had."""
    g = (arena or {}).get("games", {}).get(game)
    if not g:
        return None
    mc = next((p for p in g.get("pairs", []) if {p["a"], p["b"]} == {"monte_carlo", "ismcts"}), None)
    score = None if mc is None else (mc["score"] if mc["a"] == "ismcts" else round(1 - mc["score"], 3))
    return {"date": arena.get("date"), "elo": g.get("elo", {}).get("ismcts"), "score_vs_monte_carlo": score,
            "ms_per_decision": g.get("budget", {}).get("ms_per_decision")}


def strength_source(arena: Optional[Dict[str, Any]]) -> str:
    if not arena:
        return "no arena.json: `make arena` measures it"
    return f"the arena of {arena.get('date')}, bench-results/arena.json"


def strength(arena: Optional[Dict[str, Any]], game: str) -> str:
    a = arena_strength(arena, game)
    if a is None:
        return ""
    return (f"arena: Elo {fmt(a['elo'])}, {fmt(a['score_vs_monte_carlo'], 2)} vs Monte Carlo "
            f"at {fmt(a['ms_per_decision'], 1)} ms per decision")


def load(path: str) -> Optional[Dict[str, Any]]:
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except FileNotFoundError:
        return None


def rows_of(surface: str, data: Dict[str, Any]) -> List[Dict[str, Any]]:
    """Normalized rows: game, players, steps/s (with chance), player steps/s, games/s,
    us/game, ns per call."""
    rows = []
    if "results" in data:  # the Rust / C schema
        for r in data["results"]:
            rows.append({
                "surface": surface,
                "game": r["game"],
                "players": r.get("players"),
                "steps_per_sec": r.get("steps_per_sec"),
                "player_steps_per_sec": r.get("player_steps_per_sec"),
                "games_per_sec": r.get("games_per_sec"),
                "us_per_game": r.get("us_per_game"),
                "ns_per_call": {k: r.get("ns_per_call", {}).get(k) for k in CALLS},
            })
    elif "playouts" in data:  # bench_python.py: playouts per player count, one set of per-call costs
        calls = data.get("per_call_ns", {})
        # The per-call costs belong to the configuration they were measured in, when named.
        setup = data.get("per_call_setup", {})
        measured_in = setup.get("players")
        measured_game = setup.get("game", "samurai")
        for r in data["playouts"]:
            gps = r.get("games_per_s")
            rows.append({
                "surface": surface,
                "game": r.get("game", "samurai"),
                "players": r.get("players"),
                "steps_per_sec": None,  # Python counts player actions only
                "player_steps_per_sec": r.get("steps_per_s"),
                "games_per_sec": gps,
                "us_per_game": 1e6 / gps if gps else None,
                "ns_per_call": {k: calls.get(k) if r.get("game", "samurai") == measured_game
                                and measured_in in (None, r.get("players")) else None for k in CALLS},
            })
    return rows


def python_calls(data: Optional[Dict[str, Any]], rows: List[Dict[str, Any]]) -> Dict[str, Optional[float]]:
    """Per-call ns of the Python surface (the worst row when measured per configuration)."""
    if data and isinstance(data.get("per_call_ns"), dict):
        return {k: data["per_call_ns"].get(k) for k in CALLS}
    out: Dict[str, Optional[float]] = {}
    for k in CALLS:
        vals = [r["ns_per_call"][k] for r in rows if r["ns_per_call"].get(k) is not None]
        out[k] = max(vals) if vals else None
    return out


def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def fmt(x: Optional[float], digits: int = 0) -> str:
    if x is None:
        return "-"
    return f"{x:,.{digits}f}"


def main() -> int:
    out_dir = sys.argv[1] if len(sys.argv) > 1 else "bench-results"
    sources = {s: load(os.path.join(out_dir, f"{s}.json")) for s in ("rust", "c", "python")}
    rows: List[Dict[str, Any]] = []
    for surface, data in sources.items():
        if data is not None:
            rows.extend(rows_of(surface, data))
    order = {"rust": 0, "c": 1, "python": 2}
    rows.sort(key=lambda r: (r["game"], r["players"] or 0, order[r["surface"]]))
    rust_steps = {(r["game"], r["players"]): r["player_steps_per_sec"] for r in rows if r["surface"] == "rust"}

    # --- goals ---
    goals: Dict[str, Any] = {}
    # Every game: Rust random playouts >= 1M player steps/s (the slowest config) and a full
    # random game in under 5 ms.
    for game in sorted({r["game"] for r in rows}):
        rust = [r for r in rows if r["surface"] == "rust" and r["game"] == game]
        if not rust:
            goals[f"rust_{game}_steps_per_sec"] = {"goal": f">= {GOAL_RUST_STEPS:,}", "measured_min": None, "pass": None}
            continue
        worst = min(r["player_steps_per_sec"] for r in rust)
        slowest = max(r["us_per_game"] for r in rust)
        goals[f"rust_{game}_steps_per_sec"] = {
            "goal": f">= {GOAL_RUST_STEPS:,} (player steps/s, every config)",
            "measured_min": worst,
            "with_chance_steps_per_sec": min(r["steps_per_sec"] for r in rust),
            "pass": worst >= GOAL_RUST_STEPS,
        }
        goals[f"rust_{game}_us_per_game"] = {
            "goal": f"< {GOAL_US_PER_GAME:,.0f} us per random game",
            "measured": slowest,
            "pass": slowest < GOAL_US_PER_GAME,
        }
    batch = load(os.path.join(out_dir, "batch.json"))
    for r in (batch or {}).get("multi_agent", []):
        goals[f"batch_{r['game']}_1_to_2_threads"] = {
            "goal": f">= {GOAL_BATCH_THREAD_RATIO}x env-steps/s from 1 to 2 threads",
            "measured": r["thread_ratio"],
            "steps_per_sec_1_thread": r["steps_per_sec_1_thread"],
            "steps_per_sec_2_threads": r["steps_per_sec_2_threads"],
            "pass": r["thread_ratio"] >= GOAL_BATCH_THREAD_RATIO,
        }
    single = [r["learner_steps_per_sec"] for r in (batch or {}).get("single_agent_samurai_2p", [])]
    goals["batch_samurai_2p_vs_random_learner_steps_per_sec"] = {
        "goal": f">= {GOAL_BATCH_SINGLE_AGENT:,} learner steps/s (best thread count)",
        "measured": max(single) if single else None,
        "pass": (max(single) >= GOAL_BATCH_SINGLE_AGENT) if single else None,
    }
    # What a search pays per node: the key of a state one step past a keyed one (the step's
    # events are rebuilt and folded in); a repeated query on the same state is a cached read.
    info = (batch or {}).get("info_state_hash", [])
    worst = max((r["info_state_hash_ns_after_step"] for r in info), default=None)
    goals["info_state_hash_ns"] = {
        "goal": "<= 1000 ns after one step (slowest game)",
        "measured": worst,
        "after_one_step_ns": {r["game"]: r["info_state_hash_ns_after_step"] for r in info} or None,
        "cached_ns": {r["game"]: r["info_state_hash_ns_cached"] for r in info} or None,
        "pass": None if worst is None else worst <= 1000,
    }
    py = sources["python"]
    py_rows = [r for r in rows if r["surface"] == "python"]
    py_calls = python_calls(py, py_rows) if py is not None else {}
    for call, limit in GOAL_PY_NS.items():
        v = py_calls.get(call)
        goals[f"python_{call}_ns"] = {"goal": f"<= {limit:.0f} ns", "measured": v, "pass": None if v is None else v <= limit}
    if py is not None and py.get("debug_build"):
        goals["python_note"] = "the Python numbers come from a DEBUG build of the extension"
    py_rl = load(os.path.join(out_dir, "python_rl.json"))
    goals.update(rl_goals(py_rl))
    views = load(os.path.join(out_dir, "views.json"))
    goals.update(view_goals(views))
    text = load(os.path.join(out_dir, "text.json"))
    goals.update(text_goals(text))
    search = load(os.path.join(out_dir, "search.json"))
    arena = load(os.path.join(out_dir, "arena.json"))
    for r in (search or {}).get("rows", []):
        r["arena"] = arena_strength(arena, r["game"])
    if search:
        longest = max(r["normal_longest_decision_ms"] for r in search["rows"])
        goals["ismcts_normal_decision_ms"] = {"goal": "<= 1000 ms on one core, every game", "measured": longest,
                                              "pass": longest <= 1000.0}
        goals.update(turn_goals(search))

    summary = {
        "machine": {"platform": platform.platform(), "cpu": cpu_model(), "cores_used": 1},
        "kassen_version": next((d.get("kassen_version") for d in sources.values() if d), None),
        "surfaces_measured": [s for s, d in sources.items() if d is not None],
        "rows": rows,
        "python_per_call_ns": py_calls or None,
        "batch": batch,
        "goals": goals,
        "sources": {s: (d if d is not None else None) for s, d in sources.items()},
        "python_rl": py_rl,
        "views": views,
        "search": search,
        "text": text,
    }
    path = os.path.join(out_dir, "summary.json")
    with open(path, "w", encoding="utf-8") as f:
        json.dump(summary, f, indent=2)
        f.write("\n")

    # --- table ---
    head = (f"{'config':<14} {'surface':<7} {'steps/s':>12} {'player st/s':>12} {'vs rust':>8} {'games/s':>9} "
            f"{'us/game':>9} {'cur ns':>8} {'legal ns':>9} {'apply ns':>9} {'obs ns':>9}")
    print(head)
    print("-" * len(head))
    last = None
    for r in rows:
        key = (r["game"], r["players"])
        if last is not None and key != last:
            print()
        last = key
        base = rust_steps.get(key)
        ratio = f"{r['player_steps_per_sec'] / base:.2f}x" if base and r["player_steps_per_sec"] else "-"
        ns = r["ns_per_call"]
        print(f"{r['game'] + ' ' + str(r['players']) + 'p':<14} {r['surface']:<7} {fmt(r['steps_per_sec']):>12} "
              f"{fmt(r['player_steps_per_sec']):>12} {ratio:>8} {fmt(r['games_per_sec']):>9} {fmt(r['us_per_game'], 1):>9} "
              f"{fmt(ns['current_player'], 1):>8} {fmt(ns['legal_actions'], 1):>9} {fmt(ns['apply_action'], 1):>9} "
              f"{fmt(ns['observation_tensor'], 1):>9}")
    missing = [s for s, d in sources.items() if d is None]
    if missing:
        print(f"\n(not measured: {', '.join(missing)})")
    if py is not None and "per_call_ns" in py:
        print("(python per-call ns: one mid-game state, the Python call overhead included; "
              "steps/s column: python counts player actions only)")
    if search:
        print("\nIS-MCTS iterations per second (core/benches/search.rs) beside its strength "
              f"({strength_source(arena)}):")
        for r in search["rows"]:
            print(f"  {r['game']:<24} {fmt(r['iterations_per_sec_1_thread']):>10} on 1 thread, "
                  f"{fmt(r['iterations_per_sec_2_threads']):>10} on 2 threads   {strength(arena, r['game'])}")
            for line in level_times(r):
                print(line)
    print("\ngoals:")
    for name, g in goals.items():
        if not isinstance(g, dict):
            print(f"  note: {g}")
            continue
        value = g.get("measured_min", g.get("measured"))
        verdict = {True: "PASS", False: "FAIL", None: "not measured"}[g["pass"]]
        print(f"  {name:<32} {g['goal']:<45} measured {fmt(value, 1):>12}  {verdict}")
    loads = {"rust batch": (batch or {}).get("load_average")}
    for r in (py_rl or {}).get("rows", []):
        loads[f"python rl {r['game']}"] = r.get("load_average")
    for name, avg in loads.items():
        if avg:
            print(f"  load average during {name}: before {avg.get('before')}, after {avg.get('after')}")
    print(f"\nwrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
