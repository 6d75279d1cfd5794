"""Complete games through Python: random games of every registered game in each of its player
counts (Samurai 2-4, Sekigahara 2), explicit chance."""

from __future__ import annotations

import random

import pytest

import kassen
from kassen import CHANCE, TERMINAL
from conftest import CONFIGS, config_id
from kassen.testing import check_state, random_playout, sample_chance

def admits_draw(game) -> bool:
    """Whether the declared utility allows a drawn game (every seat the same return): only with
    a declared sum whose equal share lies in the declared range."""
    u = game.info()["utility"]
    return "sum" in u and u["min"] <= u["sum"] / game.num_players() <= u["max"]


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
@pytest.mark.parametrize("seed", range(6))
def test_random_game_completes(config, seed):
    gid, cfg = config
    game = kassen.load_game(gid, cfg)
    players = game.num_players()
    s = random_playout(game, seed, seed=seed, check=seed < 2)
    assert s.is_terminal() and s.current_player() == TERMINAL
    assert len(s.history()) <= game.max_game_length()
    r = s.returns()
    u = game.info()["utility"]
    assert len(r) == players and all(u["min"] <= x <= u["max"] for x in r)
    assert "sum" not in u or abs(sum(r) - u["sum"]) < 1e-9
    # A game may end with every seat on the same return (関ヶ原大作戦's max_turns cap ends a
    # stalemate as a draw) only when its declared utility admits it.
    assert len(set(r)) > 1 or admits_draw(game)
    with pytest.raises(kassen.GameOverError):
        s.apply_action(0)


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_finished_games_have_no_legal_actions(config):
    game = kassen.load_game(*config)
    for seed in range(20):
        s = random_playout(game, seed, seed=seed)
        assert s.is_terminal()
        assert s.legal_actions() == [], f"seed {seed}: {[s.action_to_string(a) for a in s.legal_actions()]}"
        assert not s.legal_actions_mask().any()


def test_child_playout_matches_in_place(game):
    r1, r2 = random.Random(3), random.Random(3)
    a = game.new_initial_state(5)
    b = game.new_initial_state(5)
    while not a.is_terminal():
        a.apply_action(r1.choice(a.legal_actions()))
        b = b.child(r2.choice(b.legal_actions()))
        assert a == b
    assert b.is_terminal()


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_explicit_chance(config):
    gid, cfg = config
    game = kassen.load_game(gid, {**cfg, "explicit_chance": True})
    players = game.num_players()
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


@pytest.mark.parametrize("gid", sorted(kassen.games()))
def test_explicit_chance_state_serializes_at_chance_node(gid):
    game = kassen.load_game(gid, explicit_chance=True)
    s = game.new_initial_state(3)
    rng = random.Random(0)
    # A chance node some way into the game (Sekigahara starts with its setup draws).
    for _ in range(40):
        s.apply_action(sample_chance(s, rng) if s.is_chance_node() else rng.choice(s.legal_actions()))
    while not s.is_chance_node():
        s.apply_action(rng.choice(s.legal_actions()))
    t = kassen.State.from_json(s.to_json())
    assert t == s and t.is_chance_node() and t.chance_outcomes() == s.chance_outcomes()
