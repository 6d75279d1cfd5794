"""Shared fixtures. The suite runs against the INSTALLED kassen package (see run.sh)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import kassen

REPO = Path(__file__).resolve().parents[2]
#: Golden playthroughs (written by the cross-surface test crate); override with KASSEN_GOLDEN_DIR.
GOLDEN_DIR = Path(os.environ.get("KASSEN_GOLDEN_DIR", REPO / "tests" / "golden"))

PLAYER_COUNTS = [2, 3, 4]


def pytest_report_header(config):
    return f"kassen {kassen.__version__} from {Path(kassen.__file__).parent}"


@pytest.fixture(params=PLAYER_COUNTS, ids=lambda n: f"p{n}")
def game(request) -> kassen.Game:
    return kassen.load_game("samurai", players=request.param)


@pytest.fixture
def game2() -> kassen.Game:
    return kassen.load_game("samurai", players=2)


@pytest.fixture
def mid_state(game2) -> kassen.State:
    """A 2-player state some way into the game (deterministic)."""
    import random

    r = random.Random(5)
    s = game2.new_initial_state(11)
    for _ in range(30):
        s.apply_action(r.choice(s.legal_actions()))
    assert not s.is_terminal()
    return s
