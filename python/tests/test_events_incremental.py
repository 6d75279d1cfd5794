"""Incremental events: ``events_since(p, i)`` is the tail of ``events(p)`` from its i-th event,
and the history only grows."""

from __future__ import annotations

import random

import pytest

import kassen
from kassen import SPECTATOR
from kassen.exceptions import InvalidArgumentError, InvalidPlayerError


def test_events_since_is_the_tail_of_events(game):
    r = random.Random(2)
    s = game.new_initial_state(2)
    seen = {p: [] for p in [SPECTATOR, *range(game.num_players())]}
    for _ in range(60):
        if s.is_terminal():
            break
        s.apply_action(r.choice(s.legal_actions()))
        for p, log in seen.items():
            log.extend(s.events_since(p, len(log)))
    for p, log in seen.items():
        assert log == s.events(p)
        assert s.events_since(p, len(log) + 5) == []
        assert s.events_since(p, 2**70) == []


def test_events_since_rejects_bad_arguments():
    s = kassen.load_game("samurai").new_initial_state(1)
    with pytest.raises(InvalidArgumentError) as e:
        s.events_since(0, -1)
    assert e.value.code == 5


@pytest.mark.parametrize("start", [-1, -(2**63), -(2**63) - 1, -(2**64), -(10**5000)], ids=["-1", "-2**63", "-2**63-1", "-2**64", "-10**5000"])
def test_events_since_rejects_every_negative_start(start):
    # One rule for every out-of-range index: any negative start is code 5 (however large its
    # magnitude); any start past the end is [] (tested above with 2**70).
    s = kassen.load_game("samurai").new_initial_state(1)
    with pytest.raises(InvalidArgumentError) as e:
        s.events_since(0, start)
    assert e.value.code == 5
    assert s.events_since(0, 10**5000) == []


def test_events_since_rejects_a_bad_player():
    s = kassen.load_game("samurai").new_initial_state(1)
    with pytest.raises(InvalidPlayerError):
        s.events_since(7, 0)
