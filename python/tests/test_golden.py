"""Golden playthroughs (tests/golden/*.json, written by the cross-surface test crate),
replayed through Python: every checkpoint, the final returns, hash, views and saved state."""

from __future__ import annotations

import pytest

import kassen
from conftest import GOLDEN_DIR
from kassen.testing import GoldenMismatch, golden_files, load_golden, replay_golden

FILES = golden_files(GOLDEN_DIR)


@pytest.mark.skipif(not FILES, reason=f"no golden files in {GOLDEN_DIR} yet")
@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_golden_replay(path):
    final = replay_golden(path)
    assert final.is_terminal()


@pytest.mark.skipif(not FILES, reason=f"no golden files in {GOLDEN_DIR} yet")
def test_golden_replay_detects_a_difference():
    g = load_golden(FILES[0])
    g["final"]["hash"] = str(int(g["final"]["hash"]) ^ 1)
    with pytest.raises(GoldenMismatch):
        replay_golden(g)


@pytest.mark.skipif(not FILES, reason=f"no golden files in {GOLDEN_DIR} yet")
def test_golden_files_cover_every_registered_game():
    games = {load_golden(p)["game"] for p in FILES}
    assert games == set(kassen.games()), "every registered game has golden playthroughs"


@pytest.mark.skipif(not FILES, reason=f"no golden files in {GOLDEN_DIR} yet")
def test_golden_replay_detects_a_changed_view():
    first_of_each_game = {}
    for p in FILES:
        first_of_each_game.setdefault(p.name.split("_p")[0], p)
    for p in first_of_each_game.values():
        g = load_golden(p)
        with_view = [cp for cp in g["checkpoints"] if "view" in cp]
        assert with_view, f"{p.name}: no checkpoint holds a view"
        with_view[-1]["view"]["extra"] = True
        with pytest.raises(GoldenMismatch, match="view"):
            replay_golden(g)
