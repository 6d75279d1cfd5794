"""Complete games through Python: random games for 2, 3 and 4 players, explicit chance."""

from __future__ import annotations

import random

import pytest

import kassen
from kassen import CHANCE, TERMINAL
from kassen.testing import check_state, random_playout, sample_chance


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", range(6))
def test_random_game_completes(players, seed):
    game = kassen.load_game("samurai", players=players)
    s = random_playout(game, seed, seed=seed, check=seed < 2)
    assert s.is_terminal() and s.current_player() == TERMINAL
    assert s.legal_actions() == []
    assert len(s.history()) <= game.max_game_length()
    r = s.returns()
    assert len(r) == players and any(x != 0 for x in r)
    with pytest.raises(kassen.GameOverError):
        s.apply_action(0)


def test_child_playout_matches_in_place(game):
    r1, r2 = random.Random(3), random.Random(3)
    a = game.new_initial_state(5)
    b = game.new_initial_state(5)
    while not a.is_terminal():
        a.apply_action(r1.choice(a.legal_actions()))
        b = b.child(r2.choice(b.legal_actions()))
        assert a == b
    assert b.is_terminal()


@pytest.mark.parametrize("players", [2, 3, 4])
def test_explicit_chance(players):
    game = kassen.load_game("samurai", players=players, explicit_chance=True)
    assert game.explicit_chance()
    assert game.info()["config"].get("explicit_chance") is True
    rng = random.Random(players)
    s = game.new_initial_state(1)
    chance_nodes = 0
    while not s.is_terminal():
        check_state(s)
        if s.is_chance_node():
            assert s.current_player() == CHANCE
            chance_nodes += 1
            outcomes = s.chance_outcomes()
            assert outcomes and abs(sum(p for _, p in outcomes) - 1) < 1e-9
            assert len(outcomes) <= game.max_chance_outcomes()
            with pytest.raises(kassen.NotYourTurnError):
                s.apply_action_as(0, outcomes[0][0])
            s.apply_action(sample_chance(s, rng))
        else:
            assert s.chance_outcomes() == []
            s.apply_action(rng.choice(s.legal_actions()))
    assert chance_nodes > 0
    again = kassen.State.from_json(s.to_json())
    assert again == s


def test_explicit_chance_state_serializes_at_chance_node():
    game = kassen.load_game("samurai", players=2, explicit_chance=True)
    s = game.new_initial_state(3)
    rng = random.Random(0)
    while not s.is_chance_node():
        s.apply_action(rng.choice(s.legal_actions()))
    t = kassen.State.from_json(s.to_json())
    assert t == s and t.is_chance_node() and t.chance_outcomes() == s.chance_outcomes()
