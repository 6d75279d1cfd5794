"""`make arena`'s tool in its few-game form (`bench/arena.py --quick`): every registered game,
one game per pair of entrants at 2 ms per move, the results file with its Elo ratings and goal
lines. Keeps the tool working; the real arena (and its figures) is `make arena`."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import kassen

ROOT = Path(__file__).resolve().parents[2]


def test_the_quick_arena_plays_every_game_and_writes_its_goals(tmp_path):
    out = tmp_path / "arena.json"
    run = subprocess.run([sys.executable, str(ROOT / "bench" / "arena.py"), "--quick", "--workers", "2", "--out", str(out)],
                         capture_output=True, text=True, timeout=1800, env=dict(os.environ, PYTHONHASHSEED="0"))
    assert run.returncode == 0, run.stderr[-4000:]
    report = json.loads(out.read_text())
    assert set(report["games"]) == set(kassen.games())
    entrants = {"random", "monte_carlo", "ismcts", "openspiel"}
    for gid, g in report["games"].items():
        assert set(g["elo"]) == entrants, gid
        assert g["elo"]["random"] == 0.0
        assert len(g["pairs"]) == 6 and all(p["games"] == 1 and 0 <= p["score"] <= 1 for p in g["pairs"])
        assert g["self_play"]["games"] == 1
    assert {x["result"] for x in report["goals"]} <= {"PASS", "FAIL"}
    assert {x["game"] for x in report["goals"]} == set(kassen.games())
    assert "ismcts beats monte_carlo" in run.stdout and "Elo:" in run.stdout


def test_the_adjacent_ladder_plays_neighbouring_rungs_and_reads_each_gap_from_their_games(tmp_path):
    out = tmp_path / "ladder.json"
    entrants = ["random", "ismcts:10/turn", "ismcts:40/turn"]
    run = subprocess.run([sys.executable, str(ROOT / "bench" / "arena.py"), "--ladder", "--adjacent", "--game", "samurai",
                          "--entrants", ",".join(entrants), "--games", "4", "--workers", "2", "--out", str(out)],
                         capture_output=True, text=True, timeout=600, env=dict(os.environ, PYTHONHASHSEED="0"))
    assert run.returncode == 0, run.stderr[-4000:]
    report = json.loads(out.read_text())
    assert report["settings"]["adjacent"] is True
    g = report["games"]["samurai"]
    # Neighbours only: random never meets ismcts:40/turn.
    assert [(p["a"], p["b"]) for p in g["pairs"]] == [(entrants[0], entrants[1]), (entrants[1], entrants[2])]
    assert all(p["games"] == 4 for p in g["pairs"])
    goals = [x for x in report["goals"] if x["game"] == "samurai"]
    # One goal per seat and rung, each read from the two games the upper rung held that seat.
    assert len(goals) == 2 * 2 and all(x["value"]["games"] == 2 for x in goals), goals
    for x in goals:
        assert x["result"] == ("PASS" if x["value"]["elo_gap"] >= 100 else "FAIL")
    # A sweep of two games reads as a finite gap: half a game from it, 1.5 of 2, is 191 Elo.
    assert all(abs(x["value"]["elo_gap"]) <= 191 for x in goals)
