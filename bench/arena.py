"""The arena: round robins per game between the bot ladder, at equal time per move.

Entrants (every registered game, its default config):
- ``random``: a uniformly random legal move;
- ``monte_carlo``: the built-in flat Monte Carlo bot, given T ms per decision;
- ``ismcts``: the built-in IS-MCTS bot (the algorithm and game knowledge of every level, here
  on the arena's budget instead of a level's), given T ms per decision;
- ``openspiel``: OpenSpiel's Python ``ISMCTSBot`` through ``kassen.openspiel`` (random
  rollouts, ``uct_c`` 2, its default final policy), given about T ms per decision: before each
  decision its simulation count is set from the time its simulations took so far (at least
  two simulations, its own minimum for a decision, so on a game whose Python rollouts take
  longer than T it gets more time).
  On a game without hidden information, where ``ISMCTSBot`` refuses to run (it asserts an
  imperfect-information game), OpenSpiel's ``MCTSBot`` in the same way.

Every pair of entrants plays ``--games`` games per game; game k is seeded k, one entrant takes
seat ``(k // 2) % players`` and the other every other seat, the roles swapping from game to
game (the first entrant of the pair holds the single seat in even games, the second in odd
ones), so every entrant plays every seat. A
game's score for the first entrant is 1 when its best seat's return is higher than the other
entrant's best, 1/2 when equal, 0 when lower: whose seat won the game (in a two-seat game, a
win or a loss). With more than two seats, equal bots therefore score 1/2 over a pair of games
(the single seat wins 1/n of its games, the team (n-1)/n). Each reported rate comes with its
95% Wilson interval. Also ``ismcts`` plays itself
(``--self-games``), to report how many games end decided (not drawn, e.g. by a turn cap).

T per game: the arena's wall-clock budget (``--minutes``) is shared equally by the games; a
game's T is its share divided by the decisions its round robin will take, estimated from the
decisions of two random games (clamped to [``--min-ms``, ``--max-ms``]). The budgets used are
written to the results.

Elo ratings per game are fitted to every game's scores (Bradley-Terry by maximum likelihood,
``random`` fixed at 0). Results: ``bench-results/arena.json`` with one goal line per goal (PASS
or FAIL), and a table on stdout.

``--ladder`` rates the levels a player picks from (``LADDER``) at their own budgets instead; with
``--adjacent`` only neighbouring rungs meet (five pairs instead of fifteen, so that ``normal``
and ``hard`` play one pair each), and each rung's goal reads the gap from its pair's own games.

Usage: ``python bench/arena.py [--minutes 50] [--games 40] [--quick] [--out FILE] [--workers 2] [--ladder [--adjacent]]``
(``--quick``: one game per pair at 2 ms per move, for the test suite).
"""

from __future__ import annotations

import argparse
import datetime
import itertools
import json
import math
import multiprocessing as mp
import os
import platform
import sys
import time

import kassen

ENTRANTS = ["random", "monte_carlo", "ismcts", "openspiel"]
#: ``--ladder``: the levels a player picks from, weakest first, each at its own budget (the
#: IS-MCTS levels per whole turn); each should beat the one below by >= 100 Elo in every game
#: and seat.
LADDER = ["random", "ismcts:instant", "monte_carlo", "ismcts:easy", "ismcts:normal", "ismcts:hard"]


def wilson(p: float, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return (0.0, 1.0)
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (max(0.0, c - h), min(1.0, c + h))


class OpenSpielBot:
    """OpenSpiel's ISMCTSBot (MCTSBot for a game without hidden information) at about `ms`
    milliseconds per decision (see the module doc)."""

    def __init__(self, gid: str, ms: float, seed: int):
        import numpy as np
        import pyspiel
        from open_spiel.python.algorithms import ismcts, mcts

        import kassen.openspiel as kos

        kos.register()
        self.game = pyspiel.load_game(kos.short_name(gid), {})
        rng = np.random.RandomState(seed)
        evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
        if kassen.load_game(gid).info()["hidden_information"]:
            self.bot = ismcts.ISMCTSBot(self.game, evaluator, uct_c=2.0, max_simulations=1, random_state=rng)
            self.budget = "_max_simulations"
        else:
            self.bot = mcts.MCTSBot(self.game, 2.0, 1, evaluator, random_state=rng)
            self.budget = "max_simulations"
        self.ms = ms
        self.sims, self.spent = 0, 0.0
        self.state, self.seen = self.game.new_initial_state(), []

    def choose(self, state: kassen.State) -> int:
        # The pyspiel state of the same game, kept along: the actions since the last decision
        # applied to it (replayed from the start if the history is another game's).
        history = [int(a) for a in state.history()]
        if history[: len(self.seen)] != self.seen:
            self.state, self.seen = self.game.new_initial_state(), []
        for a in history[len(self.seen):]:
            # The adapter numbers chance outcomes from 0 (kassen id - the chance block's offset).
            self.state.apply_action(a - self.game.chance_offset if self.state.is_chance_node() else a)
        self.seen = history
        s = self.state.clone()
        per_sim = self.spent / self.sims if self.sims else None
        n = 2 if per_sim is None else max(2, int(self.ms / 1000 / per_sim))
        setattr(self.bot, self.budget, n)
        start = time.perf_counter()
        a = int(self.bot.step(s))
        self.spent += time.perf_counter() - start
        self.sims += n
        return a


def make(entrant: str, gid: str, ms: float, seed: int):
    if entrant == "random" or ":" in entrant:
        # A spec with its own budget (the ladder's levels) plays at that budget.
        return kassen.Bot(entrant, seed)
    if entrant == "openspiel":
        return OpenSpielBot(gid, ms, seed)
    return kassen.Bot(f"{entrant}@{max(1, round(ms))}ms", seed)


def play(job):
    """One game: (gid, a, b, k, ms) -> result dict."""
    gid, a, b, k, ms = job
    game = kassen.load_game(gid)
    n = game.num_players()
    single = (k // 2) % n
    # The entrant holding the single seat alternates, and the single seat moves round every two
    # games; `mine[p]`: seat p is the first entrant's.
    mine = [(p == single) == (k % 2 == 0) for p in range(n)]
    bots = [make(a if mine[p] else b, gid, ms, 1000 * k + p) for p in range(n)]
    state = game.new_initial_state(k)
    started = time.perf_counter()
    decisions = 0
    # Thinking time (ms) per decision and per whole turn (a seat's decisions until another
    # seat is to act; chance does not end a turn), of the first entrant's seats and the other's.
    decision_ms: dict[str, list[float]] = {"a": [], "b": []}
    turn_ms: dict[str, list[float]] = {"a": [], "b": []}
    turn = None  # (seat, ms so far)
    while not state.is_terminal():
        p = state.current_player()
        if turn is not None and turn[0] != p:
            turn_ms["a" if mine[turn[0]] else "b"].append(round(turn[1], 2))
            turn = None
        legal = state.legal_actions()
        clock = time.perf_counter()
        action = bots[p].choose(state) if len(legal) > 1 else legal[0]
        ms = (time.perf_counter() - clock) * 1000
        if len(legal) > 1:
            decisions += 1
            decision_ms["a" if mine[p] else "b"].append(round(ms, 2))
        turn = (p, (turn[1] if turn else 0.0) + ms)
        state.apply_action(action)
    if turn is not None:
        turn_ms["a" if mine[turn[0]] else "b"].append(round(turn[1], 2))
    r = state.returns()
    best_a = max(r[p] for p in range(n) if mine[p])
    best_b = max(r[p] for p in range(n) if not mine[p])
    score = 1.0 if best_a > best_b else 0.5 if best_a == best_b else 0.0
    decided = len(set(r)) > 1
    seats_a = [p for p in range(n) if mine[p]]
    return {"game": gid, "a": a, "b": b, "seed": k, "seats_a": seats_a, "returns": list(r), "score_a": score,
            "decided": decided, "decisions": decisions, "actions": len(state.history()),
            "decision_ms": decision_ms, "turn_ms": turn_ms,
            "seconds": round(time.perf_counter() - started, 3)}


def decisions_of_random_games(gid: str, n: int = 2) -> float:
    game = kassen.load_game(gid)
    total = 0
    for k in range(n):
        s = game.new_initial_state(10_000 + k)
        bot = kassen.Bot("random", k)
        while not s.is_terminal():
            legal = s.legal_actions()
            total += len(legal) > 1
            s.apply_action(bot.choose(s))
    return total / n


def fit_elo(results: list[dict], names: list[str]) -> dict[str, float]:
    """Bradley-Terry by maximum likelihood (minorization-maximization), `random` at 0; a
    name that won or lost everything is held at ±800 of its neighbours by a weak prior (one
    drawn game against every other entrant)."""
    idx = {n: i for i, n in enumerate(names)}
    m = len(names)
    wins = [[0.0] * m for _ in range(m)]
    for r in results:
        i, j = idx[r["a"]], idx[r["b"]]
        if i == j:
            continue
        wins[i][j] += r["score_a"]
        wins[j][i] += 1 - r["score_a"]
    for i in range(m):
        for j in range(m):
            if i != j:
                wins[i][j] += 0.5
    strength = [1.0] * m
    for _ in range(2000):
        new = []
        for i in range(m):
            w = sum(wins[i][j] for j in range(m) if j != i)
            d = sum((wins[i][j] + wins[j][i]) / (strength[i] + strength[j]) for j in range(m) if j != i)
            new.append(w / d if d > 0 else strength[i])
        base = new[idx["random"]] if "random" in idx else 1.0
        strength = [x / base for x in new]
    return {n: round(400 * math.log10(strength[idx[n]]), 1) for n in names}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--minutes", type=float, default=50.0)
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--self-games", type=int, default=10)
    ap.add_argument("--min-ms", type=float, default=5.0)
    ap.add_argument("--max-ms", type=float, default=200.0)
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--out", default="bench-results/arena.json")
    ap.add_argument("--game", action="append", help="only these game ids (default: every registered game)")
    ap.add_argument("--ladder", action="store_true",
                    help="rate the ladder of levels (LADDER) at their own budgets instead of the entrants at equal time")
    ap.add_argument("--entrants", help="comma-separated ladder entrants, weakest first (with --ladder; default LADDER)")
    ap.add_argument("--adjacent", action="store_true",
                    help="with --ladder: only neighbouring rungs meet, each rung's gap read from its pair's games")
    args = ap.parse_args()
    if args.quick:
        args.games, args.self_games, args.min_ms, args.max_ms = 1, 1, 2.0, 2.0
    try:
        import pyspiel  # noqa: F401
        entrants = ENTRANTS
    except ImportError:
        print("arena: open_spiel is not installed: OpenSpiel's bots are left out", file=sys.stderr)
        entrants = [e for e in ENTRANTS if e != "openspiel"]
    if args.ladder:
        entrants = args.entrants.split(",") if args.entrants else LADDER
        args.self_games = 0
    gids = args.game or sorted(kassen.games())
    if args.adjacent and not args.ladder:
        ap.error("--adjacent goes with --ladder")
    pairs = list(zip(entrants, entrants[1:])) if args.adjacent else list(itertools.combinations(entrants, 2))
    share = args.minutes * 60 / len(gids)
    budgets, jobs = {}, []
    for gid in gids:
        d = decisions_of_random_games(gid)
        # Both sides of a pair spend T per decision, except the random bot; the self-play games too.
        sides = sum((a != "random") + (b != "random") for a, b in pairs) / 2 * args.games + 2 * args.self_games / 2
        ms = share * max(1, args.workers) / (d * sides) * 1000 / 1.25  # 25% for everything but the searches
        ms = min(args.max_ms, max(args.min_ms, ms))
        budgets[gid] = {"ms_per_decision": round(ms, 2), "decisions_per_random_game": d}
        for a, b in pairs:
            jobs += [(gid, a, b, k, ms) for k in range(args.games)]
        jobs += [(gid, "ismcts", "ismcts", k, ms) for k in range(args.self_games)]
    started = time.perf_counter()
    results = []
    with mp.get_context("spawn").Pool(max(1, args.workers)) as pool:
        for i, r in enumerate(pool.imap_unordered(play, jobs)):
            results.append(r)
            if (i + 1) % 25 == 0 or args.quick:
                print(f"arena: {i + 1}/{len(jobs)} games ({time.perf_counter() - started:.0f} s)", file=sys.stderr, flush=True)
    wall = time.perf_counter() - started
    report = summarize(gids, entrants, pairs, results, budgets, wall, args)
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    with open(args.out, "w") as f:
        json.dump(report, f, indent=1)
    print(table(report))
    return 0


def fit_elo_by_seat(results: list[dict], names: list[str], seat: int) -> dict[str, float]:
    """Elo of each entrant when it holds `seat` (the single seat of the game) against the
    others holding the rest: `fit_elo` on the games where one side held `seat`, each entrant
    rated by its games at that seat against the entrants on the other side (the other side's
    ratings are fitted apart, under a name of their own, and dropped)."""
    renamed = []
    for r in results:
        if seat in r["seats_a"]:
            renamed.append({**r, "a": r["a"], "b": "other:" + r["b"]})
        elif r["seats_a"] and seat not in r["seats_a"] and len(r["seats_a"]) < len(r["returns"]):
            renamed.append({**r, "a": "other:" + r["a"], "b": r["b"]})
    everyone = names + ["other:" + n for n in names]
    elo = fit_elo(renamed, everyone)
    return {n: elo[n] for n in names}


def elo_of_score(score: float, n: int) -> float:
    """The Elo difference that a score over `n` games implies (a score of 0 or 1 taken as half
    a game from it, so that a clean sweep reads as a finite gap)."""
    s = min(max(score, 0.5 / n), 1 - 0.5 / n)
    return 400 * math.log10(s / (1 - s))


def pair_gap_at_seat(results: list[dict], low: str, high: str, seat: int) -> tuple[float, int]:
    """How far `high` stands above `low` when `high` holds `seat`, from their own games (the
    ladder's adjacent mode): the Elo its score there implies, and the number of games."""
    score, n = 0.0, 0
    for r in results:
        if {r["a"], r["b"]} != {low, high}:
            continue
        holds = seat in r["seats_a"] if r["a"] == high else seat not in r["seats_a"]
        if holds:
            score += r["score_a"] if r["a"] == high else 1 - r["score_a"]
            n += 1
    return (elo_of_score(score / n, n), n) if n else (0.0, 0)


def times(results: list[dict], names: list[str]) -> dict[str, dict]:
    """Median and worst thinking time (ms) per decision and per whole turn of each entrant."""
    out = {}
    for n in names:
        dec = sorted(x for r in results for side in "ab" if r[side] == n for x in r["decision_ms"][side])
        turn = sorted(x for r in results for side in "ab" if r[side] == n for x in r["turn_ms"][side])
        out[n] = {"decision_median": dec[len(dec) // 2] if dec else None, "decision_worst": dec[-1] if dec else None,
                  "turn_median": turn[len(turn) // 2] if turn else None, "turn_worst": turn[-1] if turn else None}
    return out


def rate(results, gid, a, b):
    rs = [r for r in results if r["game"] == gid and {r["a"], r["b"]} == {a, b} and r["a"] != r["b"]]
    score = sum(r["score_a"] if r["a"] == a else 1 - r["score_a"] for r in rs)
    n = len(rs)
    p = score / n if n else 0.0
    lo, hi = wilson(p, n)
    return {"a": a, "b": b, "games": n, "score": round(p, 3), "ci95": [round(lo, 3), round(hi, 3)]}


def summarize(gids, entrants, pairs, results, budgets, wall, args):
    games = {}
    goals = []
    for gid in gids:
        mine = [r for r in results if r["game"] == gid]
        rates = [rate(results, gid, a, b) for a, b in pairs]
        selfplay = [r for r in mine if r["a"] == r["b"]]
        decided = sum(r["decided"] for r in selfplay)
        played = [r for r in mine if r["a"] != r["b"]]
        seats = sorted({r["seats_a"][0] for r in played})
        by_seat = {str(seat): fit_elo_by_seat(played, entrants, seat) for seat in seats}
        games[gid] = {
            "budget": budgets[gid],
            "elo": fit_elo(played, entrants),
            "elo_by_seat": by_seat,
            "times": times(mine, entrants),
            "pairs": rates,
            "self_play": {"games": len(selfplay), "decided": decided},
            "seconds": round(sum(r["seconds"] for r in mine), 1),
        }

        def goal(name, ok, value):
            goals.append({"game": gid, "goal": name, "result": "PASS" if ok else "FAIL", "value": value})

        if args.ladder:
            for seat, elo in by_seat.items():
                for low, high in zip(entrants, entrants[1:]):
                    if args.adjacent:
                        gap, n = pair_gap_at_seat(played, low, high, int(seat))
                        value = {"elo_gap": round(gap, 1), "games": n}
                    else:
                        gap = elo[high] - elo[low]
                        value = {"elo_gap": round(gap, 1)}
                    goal(f"seat {seat}: {high} >= 100 Elo above {low}", gap >= 100, value)
            continue
        by = {(x["a"], x["b"]): x for x in rates}
        mc = by[("monte_carlo", "ismcts")]
        s = 1 - mc["score"]
        goal("ismcts beats monte_carlo in >= 75% (95% lower bound > 60%)", s >= 0.75 and 1 - mc["ci95"][1] > 0.6,
             {"score": round(s, 3), "ci95": [round(1 - mc["ci95"][1], 3), round(1 - mc["ci95"][0], 3)], "games": mc["games"]})
        rnd = by[("random", "ismcts")]
        goal("ismcts beats random in >= 95%", 1 - rnd["score"] >= 0.95, {"score": round(1 - rnd["score"], 3), "games": rnd["games"]})
        if ("ismcts", "openspiel") in by:
            o = by[("ismcts", "openspiel")]
            goal("ismcts beats OpenSpiel's bot in >= 80%", o["score"] >= 0.8, {"score": o["score"], "games": o["games"]})
        goal("ismcts self-play games end decided (not drawn) in >= 50%", bool(selfplay) and decided / len(selfplay) >= 0.5,
             {"decided": decided, "games": len(selfplay)})
    return {
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "machine": {"cpus": os.cpu_count(), "platform": platform.platform(), "python": platform.python_version(),
                    "kassen": kassen.__version__},
        "settings": {"ladder": args.ladder, "adjacent": args.adjacent, "games_per_pair": args.games,
                     "self_games": args.self_games, "minutes": args.minutes, "workers": args.workers,
                     "quick": args.quick},
        "wall_seconds": round(wall, 1),
        "games": games,
        "goals": goals,
    }


def table(report) -> str:
    lines = [f"kassen arena, {report['date']}, {report['machine']['cpus']} CPUs, {report['wall_seconds']:.0f} s",
             ""]
    for gid, g in report["games"].items():
        lines.append(f"{gid}: {g['budget']['ms_per_decision']} ms per decision")
        lines.append("  Elo: " + ", ".join(f"{n} {e:+.0f}" for n, e in sorted(g["elo"].items(), key=lambda x: -x[1])))
        for seat, elo in g.get("elo_by_seat", {}).items():
            lines.append(f"  Elo at seat {seat}: " + ", ".join(f"{n} {e:+.0f}" for n, e in elo.items()))
        for n, t in g.get("times", {}).items():
            if t["turn_median"] is not None:
                lines.append(f"  {n:>17} ms per decision median {t['decision_median'] or 0:.0f} worst {t['decision_worst'] or 0:.0f},"
                             f" per turn median {t['turn_median']:.0f} worst {t['turn_worst']:.0f}")
        for p in g["pairs"]:
            lines.append(f"  {p['a']:>17} vs {p['b']:<17} {p['score']:.2f} [{p['ci95'][0]:.2f}, {p['ci95'][1]:.2f}] over {p['games']} games")
        sp = g["self_play"]
        lines.append(f"  ismcts self-play: {sp['decided']} of {sp['games']} games decided")
    lines.append("")
    for x in report["goals"]:
        lines.append(f"{x['result']}  {x['game']}: {x['goal']}  {json.dumps(x['value'])}")
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
