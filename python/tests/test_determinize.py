"""Determinization (issue: hardening): a determinized state is a world sampled from what the
observer has seen. It carries nothing of the hidden truth, plays on (events included) and
agrees with everything the observer saw."""

from __future__ import annotations

import json

import kassen
from kassen import SPECTATOR

from conftest import played


def test_a_determinization_carries_no_true_seed_or_history(game):
    s = played(game, 3, 40)
    saved = json.loads(s.to_json())
    for p in [SPECTATOR, *range(game.num_players())]:
        d = s.determinize(p, seed=17)
        dsaved = json.loads(d.to_json())
        assert dsaved["seed"] != saved["seed"]
        # Loaded again without its snapshot it is the determinization, never the real state.
        del dsaved["state"]
        again = kassen.State.from_json(json.dumps(dsaved))
        assert again == d
        assert again.to_json() != s.to_json()


def test_a_determinization_keeps_the_observers_whole_event_history(game):
    for seed in (1, 2):
        s = played(game, seed, 25 + 10 * seed)
        for p in [SPECTATOR, *range(game.num_players())]:
            d = s.determinize(p, seed=seed)
            assert d.events(p) == s.events(p)
            assert d.view(p) == s.view(p)


def test_events_of_a_determinization_after_a_move(game):
    s = played(game, 4, 30)
    for p in range(game.num_players()):
        d = s.determinize(p, seed=9)
        before = d.events(p)
        if d.is_terminal():
            continue
        d.apply_action(d.legal_actions()[0])
        after = d.events(p)
        assert after[: len(before)] == before and len(after) >= len(before)
