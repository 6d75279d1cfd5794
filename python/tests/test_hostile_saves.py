"""Crafted saves (issue 24.2 and 24.3) fail with InvalidStateError (304), never a panic: values
past their bounds in a snapshot, unknown fields inside it, chance outcomes out of range in the
log, and a saved config that is not an object. (core/tests/hostile_saves.rs sweeps every value
of every game; these are the cases found from Python.)"""

from __future__ import annotations

import json

import pytest

import kassen
from kassen.exceptions import InvalidStateError, KassenError


def save_of(game_id: str, steps: int = 30, seed: int = 3) -> dict:
    s = kassen.load_game(game_id).new_initial_state(seed)
    for i in range(steps):
        if s.is_terminal():
            break
        legal = s.legal_actions()
        s.apply_action(legal[(i * 7919) % len(legal)])
    return json.loads(s.to_json())


def assert_invalid(save: dict) -> None:
    with pytest.raises(InvalidStateError) as e:
        kassen.State.from_json(json.dumps(save))
    assert e.value.code == 304


@pytest.mark.parametrize("field,value", [("loc", 65519), ("side", 255)])
def test_daisakusen_counter_values_past_their_bounds(field, value):
    save = save_of("sekigahara_daisakusen")
    save["state"]["units"][3][field] = value
    assert_invalid(save)


def test_three_kingdoms_redux_refuses_an_unknown_field_in_its_snapshot():
    save = save_of("three_kingdoms_redux")
    save["state"]["colour"] = 1
    assert_invalid(save)


@pytest.mark.parametrize("game_id", sorted(kassen.games()))
def test_a_chance_outcome_out_of_range_in_the_log(game_id):
    save = save_of(game_id)
    save["history"][0] = 4294967295
    assert_invalid(save)


@pytest.mark.parametrize("game_id", sorted(kassen.games()))
@pytest.mark.parametrize("config", [None, [], "default"], ids=["null", "list", "string"])
def test_a_saved_config_must_be_an_object(game_id, config):
    save = save_of(game_id, steps=5)
    save["config"] = config
    assert_invalid(save)


def test_a_saved_config_that_sets_up_no_game_is_an_invalid_save():
    save = save_of("samurai", steps=5)
    save["config"] = {"players": 9}
    with pytest.raises(KassenError) as e:
        kassen.State.from_json(json.dumps(save))
    assert e.value.code == 304 and isinstance(e.value, InvalidStateError)
