"""No hidden information leaks through views, tensors, events or repr.

Samurai hides the tokens behind each screen ("hand") and the own stack. A seat's view must
hold its own hand and never another seat's; two states that differ only in the other seats'
secrets (a determinization for the observer) must give the observer the same view and tensor.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

import kassen
from kassen import SPECTATOR


def states_along_a_game(game, seed, every=7):
    r = random.Random(seed)
    s = game.new_initial_state(seed)
    i = 0
    while not s.is_terminal():
        if i % every == 0:
            yield s.clone()
        s.apply_action(r.choice(s.legal_actions()))
        i += 1


@pytest.mark.parametrize("seed", [1, 2])
def test_views_hold_no_other_hand(game, seed):
    n = game.num_players()
    for s in states_along_a_game(game, seed):
        for p in [SPECTATOR, *range(n)]:
            v = s.view(p)
            for q, seat in enumerate(v["players"]):
                if q != p:
                    assert seat["hand"] is None, f"seat {p} sees the hand of seat {q}"
                    assert seat["stack"] is None, f"seat {p} sees the stack of seat {q}"
                else:
                    assert seat["hand"] is not None


@pytest.mark.parametrize("seed", [1, 2])
def test_view_and_tensor_independent_of_other_secrets(game, seed):
    n = game.num_players()
    exercised = 0
    for s in states_along_a_game(game, seed):
        for p in [SPECTATOR, *range(n)]:
            v, t = s.view(p), s.observation_tensor(p)
            for k in range(3):
                d = s.determinize(p, seed=1000 * seed + k)
                assert d.view(p) == v, f"seat {p}: view depends on hidden information"
                np.testing.assert_array_equal(d.observation_tensor(p), t,
                                              err_msg=f"seat {p}: tensor depends on hidden information")
                # Make sure the test has teeth: some other seat's secrets really changed.
                if any(d.view(q) != s.view(q) for q in range(n) if q != p):
                    exercised += 1
    assert exercised > 0, "the determinizations never changed another seat's secrets"


def test_tensor_reveals_own_hand(game2):
    # The own hand is in the tensor: resampling the OTHER seats' view changes their tensor.
    s = next(x for i, x in enumerate(states_along_a_game(game2, 3)) if i == 3)
    d = s.determinize(0, seed=5)
    changed = not np.array_equal(d.observation_tensor(1), s.observation_tensor(1))
    assert changed or d.view(1) == s.view(1)


def test_events_are_filtered_by_audience(game):
    s = next(iter(states_along_a_game(game, 4, every=60)))
    r = random.Random(0)
    for _ in range(60):
        if s.is_terminal():
            break
        s.apply_action(r.choice(s.legal_actions()))
    for p in [SPECTATOR, *range(game.num_players())]:
        for e in s.events(p):
            aud = e["audience"]
            assert aud == "all" or (p >= 0 and p in aud), (p, e)


def test_repr_is_the_same_for_every_deal(game2):
    # repr must not depend on hidden information (nor show the seed, which fixes every draw).
    reprs = {repr(game2.new_initial_state(seed)) for seed in range(5)}
    assert len(reprs) == 1
