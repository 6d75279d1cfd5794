"""Shared fixtures. The suite runs against the INSTALLED kassen package (see run.sh)."""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

import kassen

REPO = Path(__file__).resolve().parents[2]
#: Golden playthroughs (written by the cross-surface test crate); override with KASSEN_GOLDEN_DIR.
GOLDEN_DIR = Path(os.environ.get("KASSEN_GOLDEN_DIR", REPO / "tests" / "golden"))

#: Samurai's player counts (the Samurai-specific tests).
PLAYER_COUNTS = [2, 3, 4]


def _configs():
    """(game id, config) of every registered game in each configuration the project covers
    (``kassen.covered_configs``: every player count and rules variant), chance resolved by the
    state's own generator."""
    return [
        (gid, {k: v for k, v in config.items() if k != "explicit_chance"})
        for gid in sorted(kassen.games())
        for config in kassen.covered_configs(gid)
        if not config.get("explicit_chance")
    ]


#: Every configuration the generic tests play.
CONFIGS = _configs()
#: The two-player configuration of every game (one per game).
TWO_PLAYER = [c for c in CONFIGS if kassen.load_game(c[0], c[1]).num_players() == 2]


def play(state: kassen.State, seed: int, steps: int) -> kassen.State:
    """Applies up to ``steps`` uniformly random actions (``random.Random(seed)``) to ``state``,
    fewer when the game ends first; returns it."""
    r = random.Random(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        state.apply_action(r.choice(state.legal_actions()))
    return state


def played(game: kassen.Game, seed: int, steps: int) -> kassen.State:
    """The state after ``play(game.new_initial_state(seed), seed, steps)``."""
    return play(game.new_initial_state(seed), seed, steps)


def config_id(c) -> str:
    gid, config = c
    extra = "".join(f"-{k}={v}" for k, v in sorted(config.items()) if k != "players")
    return f"{gid}-p{kassen.load_game(gid, config).num_players()}{extra}"


def pytest_report_header(config):
    return f"kassen {kassen.__version__} from {Path(kassen.__file__).parent}"


@pytest.fixture(params=CONFIGS, ids=config_id)
def game(request) -> kassen.Game:
    """Every registered game in each of its player counts."""
    gid, config = request.param
    return kassen.load_game(gid, config)


@pytest.fixture(params=TWO_PLAYER, ids=config_id)
def game2(request) -> kassen.Game:
    """Every registered game with two players."""
    gid, config = request.param
    return kassen.load_game(gid, config)


@pytest.fixture(params=PLAYER_COUNTS, ids=lambda n: f"p{n}")
def samurai(request) -> kassen.Game:
    return kassen.load_game("samurai", players=request.param)


@pytest.fixture
def mid_state(game2) -> kassen.State:
    """A 2-player state of every game some way into the game (deterministic)."""
    import random

    r = random.Random(5)
    s = game2.new_initial_state(11)
    for _ in range(30):
        s.apply_action(r.choice(s.legal_actions()))
    assert not s.is_terminal()
    return s
