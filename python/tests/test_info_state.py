"""The information-state key (``information_state_hash`` / ``information_state_string``) and
the search metadata of ``Game.info()`` (utility, chance-outcome block), on every game."""

from __future__ import annotations

import json

import numpy as np
import pytest

import kassen
from kassen.exceptions import InvalidPlayerError


def _games():
    return [kassen.load_game(gid) for gid in sorted(kassen.games())]


def _play(state, rng, steps):
    for _ in range(steps):
        if state.is_terminal():
            break
        state.apply_action(int(rng.choice(state.legal_actions())))


@pytest.mark.parametrize("game", _games(), ids=lambda g: g.id)
def test_key_follows_what_the_seat_saw(game):
    """Perfect recall: the key changes whenever the seat sees something new (an event, another
    player to act) or acts itself (its own prompt steps too), and two states with one key give
    the seat the same view and tensor; a determinization for the seat keeps its key."""
    state = game.new_initial_state(seed=3)
    rng = np.random.default_rng(0)
    seats = range(kassen.SPECTATOR, game.num_players())
    told = {}
    for _ in range(30):
        if state.is_terminal():
            break
        counts = {p: len(state.events(p)) for p in seats}
        before = {p: state.information_state_hash(p) for p in seats}
        to_act = state.current_player()
        assert len(set(before.values())) == len(before), "two observers share a key"
        for p in seats:
            assert state.information_state_hash(p) == before[p]
            text = json.loads(state.information_state_string(p))
            assert text["player"] == p and text["current_player"] == to_act
            assert text["events"] == state.events(p)
            assert all(m[2] is not None for m in text["moves"] if m[1] == p), "a seat knows its own moves"
            seen = (state.view_json(p), state.observation_tensor(p).tobytes())
            assert told.setdefault((p, before[p]), seen) == seen, "one key, two different views or tensors"
            world = state.determinize(p, seed=11)
            assert world.information_state_hash(p) == before[p]
            assert world.information_state_string(p) == state.information_state_string(p)
        _play(state, rng, 1)
        for p in seats:
            news = len(state.events(p)) != counts[p] or state.current_player() != to_act or p == to_act
            if news:
                assert state.information_state_hash(p) != before[p]


@pytest.mark.parametrize("game", _games(), ids=lambda g: g.id)
def test_key_survives_save_and_load(game):
    state = game.new_initial_state(seed=5)
    _play(state, np.random.default_rng(1), 25)
    loaded = kassen.State.from_json(state.to_json())
    for p in range(kassen.SPECTATOR, game.num_players()):
        assert loaded.information_state_hash(p) == state.information_state_hash(p)
        assert state.clone().information_state_hash(p) == state.information_state_hash(p)


def test_bad_seat_is_an_error():
    state = kassen.load_game("samurai").new_initial_state(seed=1)
    with pytest.raises(InvalidPlayerError) as err:
        state.information_state_hash(2)
    assert err.value.code == 205
    with pytest.raises(InvalidPlayerError):
        state.information_state_string(-2)


@pytest.mark.parametrize("game_id", sorted(kassen.games()))
def test_declared_utility_and_chance_block(game_id):
    game = kassen.load_game(game_id, {"explicit_chance": True})
    info = game.info()
    utility, block = info["utility"], info["chance_outcome_block"]
    assert utility["type"] in ("zero_sum", "constant_sum", "general_sum")
    assert ("sum" in utility) == (utility["type"] != "general_sum")
    assert block["offset"] + block["count"] <= info["num_distinct_actions"]
    rng = np.random.default_rng(2)
    for seed in range(2):
        state = game.new_initial_state(seed=seed)
        while not state.is_terminal():
            if state.is_chance_node():
                for a, _ in state.chance_outcomes():
                    assert 0 <= a - block["offset"] < block["count"]
            state.apply_action(int(rng.choice(state.legal_actions())))
            if len(state.history()) > 3000:
                break
        if state.is_terminal():
            returns = state.returns()
            assert all(utility["min"] <= r <= utility["max"] for r in returns)
            if "sum" in utility:
                assert sum(returns) == pytest.approx(utility["sum"])
