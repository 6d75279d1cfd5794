"""One call per step: ``apply_and_legal(a)`` applies ``a`` and returns the player to act next
with the new legal actions, exactly as ``apply_action`` + ``current_player`` +
``legal_actions`` would, for every game."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest

import kassen
from kassen.exceptions import GameOverError, IllegalActionError


def test_apply_and_legal_agrees_with_the_three_calls(game):
    r = random.Random(9)
    s, ref = game.new_initial_state(9), game.new_initial_state(9)
    legal = np.asarray(s.legal_actions(), dtype=np.uint32)
    info = game.info()
    steps = 0
    while len(legal):
        # The buffer sizes of the game info hold along the game.
        assert len(legal) <= info["max_legal_actions"] <= game.num_distinct_actions()
        if steps % 25 == 0:
            assert len(json.dumps(s.view(-1), separators=(",", ":"), ensure_ascii=False).encode()) <= info["max_view_bytes"]
        a = int(legal[r.randrange(len(legal))])
        player, legal = s.apply_and_legal(a)
        ref.apply_action(a)
        assert isinstance(legal, np.ndarray) and legal.dtype == np.uint32
        assert player == ref.current_player() and legal.tolist() == ref.legal_actions()
        steps += 1
    assert s == ref and s.is_terminal() and steps > 0
    with pytest.raises(GameOverError):
        s.apply_and_legal(0)


def test_a_rejected_step_changes_nothing():
    s = kassen.load_game("samurai").new_initial_state(1)
    before = s.clone()
    illegal = next(a for a in range(s.game().num_distinct_actions()) if not s.is_legal(a))
    with pytest.raises(IllegalActionError):
        s.apply_and_legal(illegal)
    assert s == before
